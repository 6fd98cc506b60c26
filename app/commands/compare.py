"""``quatlab compare SOURCE CONVERTED``: where a conversion's playback departs from its source.

Joints are matched by name (namespaces such as ``mixamorig:`` and case
ignored) or by a mapping CSV (``--map joints.csv``: lines ``source,converted``),
the clips aligned at their starts over the time both cover, and for each
matched joint the command prints the largest angle between the two spec
poses and the time spans where the converted file's naive playback departs
from the source, with the step that caused it: the source's own keys, the
conversion's keys (a sign flip it introduced), or the conversion's motion
(docs/formats.md, "quatlab compare"). Long turns of an FBX source are listed
with how they are treated. Exit status: 0 the conversion introduced no
departure (those already in the source are listed), 1 it did, 2 a file
cannot be read. No Qt.
"""

from __future__ import annotations

import json

from quatlab.app.i18n import _

__all__ = ["add_parser", "run"]

PROG = "quatlab compare"


def add_parser(subparsers):
    p = subparsers.add_parser(
        "compare",
        help=_("compare a source animation with its conversion: where and why it departs"),
        description=_(
            "Compare the animation of SOURCE (FBX, glTF, BVH, USD) with its conversion CONVERTED: "
            "match joints by name or by --map, align the clips at their starts, and report "
            "per joint the largest angle between the two spec poses and the spans where the "
            "converted file's naive playback departs from the source, with the step that "
            "caused it. Exit status: 0 the conversion introduced no departure, 1 it did, 2 a "
            "file cannot be read."),
    )
    p.add_argument("source", metavar="SOURCE", help=_("the original file"))
    p.add_argument("converted", metavar="CONVERTED", help=_("the converted file"))
    p.add_argument("--map", metavar="CSV", default=None,
                   help=_("joint mapping: lines 'source,converted' (default: match by name)"))
    p.add_argument("--animation", default=None, metavar="NAME|INDEX",
                   help=_("the source's animation (default: the first)"))
    p.add_argument("--converted-animation", default=None, metavar="NAME|INDEX",
                   help=_("the converted file's animation (default: the first)"))
    p.add_argument("--threshold", type=float, default=None, metavar="DEG",
                   help=_("degrees beyond a joint's constant offset that count as departing "
                          "(default 5)"))
    p.add_argument("--json", action="store_true", help=_("print the report as JSON"))
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    import dataclasses

    from quatlab.app.commands.common import fail, shown
    from quatlab.app.io.tracks import KeyframeFileError
    from quatlab.app.model.rig_compare import THRESHOLD_DEG, compare_files, format_report

    threshold = THRESHOLD_DEG if args.threshold is None else args.threshold
    if not threshold > 0:
        return fail(PROG, _("--threshold must be a positive number of degrees"))
    try:
        report = compare_files(args.source, args.converted, mapping=args.map,
                               source_animation=args.animation,
                               converted_animation=args.converted_animation, threshold=threshold)
    except (KeyframeFileError, OSError) as exc:
        return fail(PROG, str(exc))
    if args.json:
        print(json.dumps(report.as_dict(), indent=2, allow_nan=False))
    else:
        # File names on one line each, whatever characters they hold.
        print(format_report(dataclasses.replace(report, source=shown(report.source),
                                                converted=shown(report.converted))))
    return 1 if report.introduced else 0
