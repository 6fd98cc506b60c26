"""``quatlab fix``: write a copy of a keyframe file with continuous quaternion signs.

Every key is moved into the hemisphere of the previous one (``--normalize``
also scales keys to unit length); everything else in the file is kept. The
output is a new file, written atomically; the input is never modified.
"""

from __future__ import annotations

from quatlab.app.commands.common import add_order_argument

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
    add_order_argument(p)
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    if args.euler_filter or str(args.input).lower().endswith(".bvh"):
        from quatlab.app.commands.fix_bvh import run_euler_filter

        return run_euler_filter(args)
    from quatlab.app.commands.common import fail
    from quatlab.app.io.keyframe_files import load_keyframes
    from quatlab.app.io.track_audit import audit_track, fix_track, format_keys
    from quatlab.app.io.tracks import KeyframeFileError

    try:
        keyframes = load_keyframes(args.input, order=args.order)
        fixes = [fix_track(t, normalize=args.normalize) for t in keyframes.tracks]
        written = keyframes.write_copy(args.output, [f.fixed for f in fixes])
    except (KeyframeFileError, OSError) as exc:
        return fail(PROG, str(exc))

    for fix in fixes:
        track = fix.fixed
        changes = []
        if fix.flipped.size:
            what = "key and tangents" if track.in_tangents is not None else "key"
            changes.append(f"negated {what} {format_keys(fix.flipped)}")
        if fix.normalized.size:
            changes.append(f"normalized {format_keys(fix.normalized)}")
        print(f"{track.label}: {'; '.join(changes) if changes else 'unchanged'}")
        for finding in audit_track(track):
            print(f"  still {finding.kind} (keys {format_keys(finding.keys)})")
    if not fixes:
        print(f"{args.input}: no rotation tracks; copied unchanged")
    for path in written:
        print(f"wrote {path}")
    return 0
