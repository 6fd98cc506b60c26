"""``quatlab fix``: write a copy of a keyframe file with continuous quaternion signs.

Every key is moved into the hemisphere of the previous one (``--normalize``
also scales keys to unit length); everything else in the file is kept. The
output is a new file, written atomically; the input is never modified.
"""

from __future__ import annotations

from quatlab.app.commands.common import add_order_argument, shown

__all__ = ["add_parser", "run"]

PROG = "quatlab fix"


def add_parser(subparsers):
    p = subparsers.add_parser(
        "fix",
        help="write a copy with sign-continuous (optionally normalized) rotation keys",
        description=(
            "Read IN (glTF .gltf/.glb, or CSV/JSON tracks), negate keys so that every key "
            "lies in the hemisphere of the previous one (CUBICSPLINE tangents with their "
            "key), optionally normalize them, and write the result to OUT, a new file with "
            "the same extension; everything else is kept. Prints what changed and what the "
            "fix cannot repair. Exit status 2 when IN cannot be read or OUT cannot be written."
        ),
    )
    p.add_argument("input", metavar="IN", help="keyframe file to correct")
    p.add_argument("output", metavar="OUT", help="new file to write (never IN)")
    p.add_argument("--normalize", action="store_true", help="also scale keys to unit length")
    p.add_argument("--euler-filter", action="store_true",
                   help="BVH: unwrap the Euler channels (the fix BVH files always get)")
    p.add_argument(
        "--force", action="store_true",
        help="replace OUT (and its companion .bin) if it exists; never IN or IN's files",
    )
    add_order_argument(p)
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    if args.euler_filter or str(args.input).lower().endswith(".bvh"):
        from quatlab.app.commands.fix_bvh import run_euler_filter

        return run_euler_filter(args)
    from quatlab.app.commands.common import fail
    from quatlab.app.io.keyframe_files import load_keyframes
    from quatlab.app.io.track_audit import fix_track
    from quatlab.app.io.tracks import KeyframeFileError

    try:
        keyframes = load_keyframes(args.input, order=args.order)
        fixes = [fix_track(t, normalize=args.normalize) for t in keyframes.tracks]
        written = keyframes.write_copy(args.output, [f.fixed for f in fixes], force=args.force)
    except (KeyframeFileError, OSError) as exc:
        return fail(PROG, str(exc))
    _print_fixes(args.input, fixes)
    for path in written:
        print(f"wrote {shown(path)}")
    return 0


def _print_fixes(source: str, fixes) -> None:
    from quatlab.app.io.track_audit import audit_track, format_keys

    unchanged = 0
    for fix in fixes:
        track = fix.fixed
        remaining: dict[str, list[int]] = {}
        for finding in audit_track(track):
            if finding.kind != "more":
                remaining.setdefault(finding.kind, []).extend(finding.keys)
        if not fix.changed and not remaining:
            unchanged += 1
            continue
        changes = []
        if fix.flipped.size:
            what = "key and tangents" if track.in_tangents is not None else "key"
            changes.append(f"negated {what} {format_keys(fix.flipped)}")
        if fix.normalized.size:
            changes.append(f"normalized {format_keys(fix.normalized)}")
        print(f"{shown(track.label)}: {'; '.join(changes) if changes else 'unchanged'}")
        if fix.reversed_half_turns.size:
            segs = ", ".join(f"{i}-{i + 1}" for i in fix.reversed_half_turns[:20].tolist())
            more = " ..." if fix.reversed_half_turns.size > 20 else ""
            print(
                f"  note: half turn at keys {segs}{more}: the fix changed the keys' relative "
                f"sign, so a naive NLERP player now spins the other way round (both ways are "
                f"180 deg; add a key in between to pin the direction)"
            )
        for kind, keys in remaining.items():
            print(f"  still {kind} (keys {format_keys(set(keys))})")
    if not fixes:
        print(f"{shown(source)}: no rotation tracks; copied unchanged")
    elif unchanged:
        tracks = f"{unchanged} track{'s' * (unchanged != 1)}"
        print(f"{tracks} unchanged (no sign flips, nothing left to report)"
              if unchanged != len(fixes) else f"all {tracks} unchanged (nothing to fix)")
