"""``quatlab check FILE --runtimes IDS --after STEPS``: which runtimes glitch, after which pipeline.

The table is :func:`quatlab.app.io.runtime_check.runtime_matrix` (one row per
finding, columns the runtime players of ``docs/runtimes.md``), printed after
the audit; ``--json`` adds it to the report under ``"runtimes"``. With
``--after`` the audit and the table are of the file as the pipeline steps
leave it (docs/formats.md, "quatlab check --runtimes"). No Qt.
"""

from __future__ import annotations

from quatlab.app.commands.check_dir import pad
from quatlab.app.commands.common import shown
from quatlab.app.i18n import _

__all__ = ["add_runtime_arguments", "parse_options", "print_text"]


def add_runtime_arguments(parser) -> None:
    """``--runtimes IDS`` and ``--after STEPS`` for ``quatlab check``."""
    from quatlab.math.key_pipeline import STEP_KINDS
    from quatlab.math.runtimes import RUNTIMES

    parser.add_argument(
        "--runtimes", metavar="IDS",
        help=_("play every track with these runtimes ('all' or ids separated by commas: "
               "{ids}) and print, per finding, the largest angle each is off the glTF "
               "reference").format(ids=", ".join(RUNTIMES)))
    parser.add_argument(
        "--after", metavar="STEPS",
        help=_("audit the file as these pipeline steps leave it, e.g. quantize:16,resample:30 "
               "(steps: {steps}); implies --runtimes all unless given").format(
                   steps=", ".join(STEP_KINDS)))


def parse_options(args):
    """``(runtime ids, steps)`` of the parsed arguments, or ValueError saying what is wrong."""
    from quatlab.math.key_pipeline import parse_steps
    from quatlab.math.runtimes import parse_runtimes

    runtimes = parse_runtimes(args.runtimes or "all")
    steps = parse_steps(args.after) if args.after else ()
    return runtimes, steps


def _cell(degrees) -> str:
    if degrees is None:
        return "n/a"
    if degrees < 1.0:
        return "-"
    return f"{degrees:.0f}"


def print_text(matrix) -> None:
    """The table: a header of runtime ids, then per track its findings' rows."""
    from quatlab.app.io.track_audit import format_keys

    ids = matrix.runtimes
    if matrix.steps:
        print(_("Runtimes, after {steps}: the largest angle each is off the glTF reference (on the "
                "original keys) over the finding's segments, in degrees (\"-\" under 1)").format(
                    steps=",".join(matrix.steps)))
    else:
        print(_("Runtimes: the largest angle each is off the glTF reference over the finding's "
                "segments, in degrees (\"-\" under 1)"))
    widths = [max(len(r), 3) for r in ids]
    label_width = 24
    head = pad(_("finding (keys)"), label_width)
    print("  " + head + " " + " ".join(pad(r, w, ">") for r, w in zip(ids, widths, strict=True)))
    current = None
    for row in matrix.rows:
        if row.track != current:
            current = row.track
            print("  " + shown(matrix.reports[row.track].track.label) + ":")
        label = f"{row.kind} ({format_keys(row.keys)})"   # identifiers and numbers only
        cells = " ".join(pad(_cell(d), w, ">") for d, w in zip(row.degrees, widths, strict=True))
        print("    " + pad(label, label_width - 2) + " " + cells)
    if not matrix.rows:
        print("  " + _("no findings and no runtime {glitch:g} deg off anywhere").format(
            glitch=matrix.glitch_deg))
    for i, reason in matrix.skipped:
        print("  " + _("{track}: not played ({reason})").format(
            track=shown(matrix.reports[i].track.label), reason=_(reason)))
    glitching = [r for r in matrix.glitching() if r != matrix.reference]
    if glitching:
        print(_("Glitches ({glitch:g} deg or more off the reference): {runtimes}").format(
            glitch=matrix.glitch_deg, runtimes=", ".join(glitching)))
    else:
        print(_("No runtime is {glitch:g} deg or more off the reference.").format(
            glitch=matrix.glitch_deg))
    if matrix.reference in matrix.glitching():
        print(_("The glTF reference itself moved: the steps changed the motion."))
