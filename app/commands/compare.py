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

from quatlab.app.commands.common import shown
from quatlab.app.i18n import _

__all__ = ["add_parser", "run", "format_report"]

PROG = "quatlab compare"


def add_parser(subparsers):
    p = subparsers.add_parser(
        "compare",
        help=_("compare a source animation with its conversion: where and why it departs"),
        description=_(
            "Compare the animation of SOURCE (FBX, glTF, BVH) with its conversion CONVERTED: "
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
    from quatlab.app.commands.common import fail
    from quatlab.app.io.tracks import KeyframeFileError
    from quatlab.app.model.rig_compare import THRESHOLD_DEG, compare_files

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
        print(format_report(report))
    return 1 if report.introduced else 0


_CAUSES = {
    "source": lambda: _("already in the source: its own naive playback departs the same way"),
    "conversion": lambda: _("a sign flip introduced by the conversion: the converted keys are "
                            "in opposite hemispheres while its spec pose follows the source"),
    "motion": lambda: _("the conversion changed the motion: its spec pose departs too"),
}


def _clip(clip: dict) -> str:
    name = repr(clip["name"]) if clip["name"] else f"#{clip['index']}"
    return _("clip {name} [{start:g}, {end:g}] s").format(name=name, start=clip["start"],
                                                          end=clip["end"])


def format_report(report) -> str:
    """The text ``quatlab compare`` prints."""
    lines = [_("{source} ({source_clip}) vs {converted} ({converted_clip}): {n} joints "
               "matched, compared over {overlap:g} s from both starts, {rate:g} samples per "
               "second").format(
        source=shown(report.source), source_clip=_clip(report.source_clip),
        converted=shown(report.converted), converted_clip=_clip(report.converted_clip),
        n=len(report.joints), overlap=report.overlap, rate=report.rate)]
    s_len = report.source_clip["end"] - report.source_clip["start"]
    c_len = report.converted_clip["end"] - report.converted_clip["start"]
    if abs(s_len - c_len) > 1e-3:
        lines.append("  " + _("the clips differ in length ({a:g} s and {b:g} s): only the "
                              "first {overlap:g} s are compared").format(
            a=s_len, b=c_len, overlap=report.overlap))
    for names, where in ((report.unmatched_source, report.source),
                         (report.unmatched_converted, report.converted)):
        if names:
            lines.append("  " + _("animated joints of {file} without a match: {names}").format(
                file=shown(where), names=", ".join(names[:20]) + (" ..." if len(names) > 20
                                                                   else "")))
    counts = {"source": 0, "conversion": 0, "motion": 0}
    for j in report.joints:
        if not j.segments and j.max_spec <= report.threshold and not j.constant_offset:
            continue
        head = f"{j.source}" if j.source == j.converted else f"{j.source} -> {j.converted}"
        if j.constant_offset:
            spec = _("spec poses differ by a constant {deg:.1f} deg (a different rest "
                     "orientation or axis convention, not a flip)").format(deg=j.offset)
        else:
            spec = _("spec poses differ by up to {deg:.1f} deg (at {at:.4g} s)").format(
                deg=j.max_spec, at=j.at)
        lines.append("  " + _("{joint}: {spec}").format(joint=head, spec=spec))
        for s in j.segments:
            counts[s.cause] += 1
            keys = (_("converted keys {k0}-{k1}").format(k0=s.converted_keys[0],
                                                         k1=s.converted_keys[1])
                    if s.converted_keys else _("no converted keys"))
            text = _("{t0:.4g}-{t1:.4g} s ({keys}): the naive playback departs by up to "
                     "{deg:.1f} deg: {cause}").format(t0=s.start, t1=s.end, keys=keys,
                                                      deg=s.peak, cause=_CAUSES[s.cause]())
            if s.intended_turn and s.cause != "source":
                text += _("; inside an intended turn of the source, which the conversion "
                          "did not keep")
            lines.append("    " + text)
    if report.turns:
        lines.append(_("long turns of the source (over 180 deg between two keys):"))
        for t in report.turns:
            why = (_("an intended turn (keys {frames:.1f} frames apart): a quaternion "
                     "conversion must insert keys to keep it") if t.intended else
                   _("a per-frame wrap (keys {frames:.1f} frames apart): the short way is "
                     "right"))
            lines.append("  " + _("{joint} keys {k0}-{k1} ({t0:.4g}-{t1:.4g} s), {turn:.1f} deg: "
                                  "{why}").format(
                joint=t.joint, k0=t.keys[0], k1=t.keys[1], t0=t.start, t1=t.end, turn=t.turn,
                why=why.format(frames=t.frames)))
    total = sum(counts.values())
    if report.introduced:
        lines.append(_("{n} departures: {conversion} introduced by the conversion (sign), "
                       "{motion} by its motion, {source} already in the source").format(
            n=total, **counts))
    else:
        lines.append(_("the conversion introduced no departure: its naive playback follows the "
                       "source's within {deg:g} deg ({source} already in the source)").format(
            deg=report.threshold, source=counts["source"]))
    return "\n".join(lines)
