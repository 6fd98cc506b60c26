"""``quatlab fix``: write a copy of a keyframe file with continuous quaternion signs.

Every key is moved into the hemisphere of the previous one (``--normalize``
also scales keys to unit length); everything else in the file is kept. The
output is a new file, written atomically; the input is never modified.
"""

from __future__ import annotations

import sys

from quatlab.app.commands.common import add_order_argument, shown
from quatlab.app.i18n import _

__all__ = ["add_parser", "run"]

PROG = "quatlab fix"


def add_parser(subparsers):
    p = subparsers.add_parser(
        "fix",
        help=_("write a copy with sign-continuous (optionally normalized) rotation keys"),
        description=_(
            "Read IN (glTF .gltf/.glb, USD .usda/.usdc/.usdz, or CSV/JSON tracks), negate keys "
            "so that every key "
            "lies in the hemisphere of the previous one (CUBICSPLINE tangents with their "
            "key), optionally normalize them, and write the result to OUT, a new file with "
            "the same extension; everything else is kept (USD with --as-layer: OUT is a small "
            "override layer over IN). A BVH gets the Euler filter; an FBX "
            "file is written as OUT.bvh (Euler-filtered motion) or OUT.csv/OUT.npy "
            "(sign-continuous tracks), never as FBX. Prints what changed and what the "
            "fix cannot repair. Exit status 2 when IN cannot be read or OUT cannot be written."
        ),
    )
    p.add_argument("input", metavar="IN", nargs="?", help=_("keyframe file to correct"))
    p.add_argument("output", metavar="OUT", nargs="?", help=_("new file to write (never IN)"))
    p.add_argument("--in-place", nargs="+", metavar="FILE",
                   help=_("instead of IN OUT: fix each FILE where it is, writing only files "
                          "whose bytes change (the pre-commit hook quatlab-fix)"))
    p.add_argument("--normalize", action="store_true", help=_("also scale keys to unit length"))
    p.add_argument("--as-layer", action="store_true",
                   help=_("USD: write OUT as a small override layer over IN (IN is untouched)"))
    p.add_argument("--euler-filter", action="store_true",
                   help=_("BVH: unwrap the Euler channels (the fix BVH files always get)"))
    p.add_argument(
        "--force", action="store_true",
        help=_("replace OUT (and its companion .bin) if it exists; never IN or IN's files"),
    )
    p.add_argument("--animation", default=None, metavar="NAME|INDEX",
                   help=_("FBX: the clip to write (default: the first)"))
    add_order_argument(p)
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from quatlab.app.commands.common import fail

    if args.in_place:
        if args.input is not None or args.output is not None:
            return fail(PROG, _("give either IN OUT or --in-place FILE..., not both"))
        from quatlab.app.commands.fix_in_place import run_in_place

        return run_in_place(args)
    if args.input is None or args.output is None:
        # IN and OUT are optional only for --in-place: say what argparse would have said.
        missing = ", ".join(name for name, value in (("IN", args.input), ("OUT", args.output))
                            if value is None)
        print(shown(_("{prog}: error: {message} (see {prog} --help)").format(
            prog=PROG, message=_("the following arguments are required: %s") % missing)),
            file=sys.stderr)
        return 2
    if str(args.input).lower().endswith(".fbx"):   # FBX is never written (docs/formats.md)
        from quatlab.app.commands.fix_fbx import run_fbx

        return run_fbx(args)
    if args.euler_filter or str(args.input).lower().endswith(".bvh"):
        from quatlab.app.commands.fix_bvh import run_euler_filter

        return run_euler_filter(args)
    from quatlab.app.io.keyframe_files import load_keyframes
    from quatlab.app.io.track_audit import fix_track
    from quatlab.app.io.tracks import KeyframeFileError

    try:
        keyframes = load_keyframes(args.input, order=args.order)
        fixes = [fix_track(t, normalize=args.normalize) for t in keyframes.tracks]
        if args.as_layer:
            if not hasattr(keyframes, "write_layer"):
                return fail(PROG, _("{file}: --as-layer writes USD override layers; IN is not a "
                                    "USD file").format(file=args.input))
            written = keyframes.write_layer(args.output, [f.fixed for f in fixes],
                                            force=args.force)
        else:
            written = keyframes.write_copy(args.output, [f.fixed for f in fixes],
                                           force=args.force)
    except (KeyframeFileError, OSError) as exc:
        return fail(PROG, str(exc))
    _print_fixes(args.input, fixes)
    for path in written:
        print(_("wrote {file}").format(file=shown(path)))
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
        if fix.flipped_mask.any() and track.storage.startswith("euler "):
            # A USD rotate op stores angles: the copy holds them unwrapped, not negated keys.
            changes.append(_("Euler angles unwrapped (the same rotations; sample {keys})").format(
                keys=format_keys(fix.flipped_mask)))
        elif fix.flipped_mask.any():
            text = (_("negated key and tangents {keys}") if track.in_tangents is not None
                    else _("negated key {keys}"))
            changes.append(text.format(keys=format_keys(fix.flipped_mask)))
        if fix.normalized_mask.any():
            changes.append(_("normalized {keys}").format(keys=format_keys(fix.normalized_mask)))
        print(_("{track}: {changes}").format(
            track=shown(track.label), changes=_("; ").join(changes) if changes
            else _("unchanged")))
        if fix.reversed_half_turns.size:
            segs = ", ".join(f"{i}-{i + 1}" for i in fix.reversed_half_turns[:20].tolist())
            more = " ..." if fix.reversed_half_turns.size > 20 else ""
            print("  " + _(
                "note: half turn at keys {segments}: the fix changed the keys' relative sign, "
                "so a naive NLERP player now spins the other way round (both ways are 180 "
                "deg; add a key in between to pin the direction)").format(segments=segs + more))
        for kind, keys in remaining.items():
            print("  " + _("still {kind} (keys {keys})").format(kind=kind,
                                                             keys=format_keys(set(keys))))
    if not fixes:
        print(_("{file}: no rotation tracks; copied unchanged").format(file=shown(source)))
    elif unchanged:
        tracks = (_("{n} track") if unchanged == 1 else _("{n} tracks")).format(n=unchanged)
        print(_("{tracks} unchanged (no sign flips, nothing left to report)").format(tracks=tracks)
              if unchanged != len(fixes) else
              _("all {tracks} unchanged (nothing to fix)").format(tracks=tracks))
