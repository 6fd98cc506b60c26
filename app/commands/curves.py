"""``quatlab curves``: print exactly the data the plots show, as JSON or CSV."""

from __future__ import annotations

import json
import sys

from quatlab.app.i18n import _

__all__ = ["add_parser", "run"]

PROG = "quatlab curves"
#: Far beyond what a plot shows; keeps a typo from exhausting memory.
MAX_SAMPLES = 1_000_000


def add_parser(subparsers):
    p = subparsers.add_parser(
        "curves",
        help=_("print path angle and angular speed of the four methods (JSON or CSV)"),
        description=_(
            "Sample naive and shortest NLERP and SLERP from q0 to q1 and print the path "
            "angle (deg) and angular speed (deg per unit t) of each. Quaternions are "
            "given as W X Y Z (scalar first). A value that does not exist is null (JSON) "
            "or empty (CSV), and the notes say why."
        ),
    )
    src = p.add_mutually_exclusive_group()
    src.add_argument("--preset", help=_("take q0 and q1 from a preset (see `quatlab presets`)"))
    src.add_argument("--q0", nargs=4, type=float, metavar=("W", "X", "Y", "Z"), help=_("start"))
    p.add_argument("--q1", nargs=4, type=float, metavar=("W", "X", "Y", "Z"), help=_("end"))
    p.add_argument("--samples", type=int, default=101,
                   help=_("samples from 0 to 1 (default 101)"))
    p.add_argument("--format", choices=("json", "csv"), default="json",
                   help=_("default: json"))
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from quatlab.app.commands.common import fail
    from quatlab.app.io.curves_io import curves_to_csv, curves_to_dict
    from quatlab.app.model import presets
    from quatlab.math.curves import compute_curves

    if args.preset is not None:
        if args.q1 is not None:
            return fail(PROG, _("give either --preset or --q0 and --q1, not both"))
        try:
            preset = presets.get(args.preset)
        except ValueError as exc:
            return fail(PROG, str(exc))
        q0, q1 = preset.q0, preset.q1
    else:
        if args.q0 is None or args.q1 is None:
            return fail(PROG, _("both --q0 W X Y Z and --q1 W X Y Z are required (or --preset "
                                "NAME)"))
        q0, q1 = args.q0, args.q1
    if not 2 <= args.samples <= MAX_SAMPLES:
        return fail(PROG, _("--samples must be between 2 and {most}, got {n}").format(
            most=f"{MAX_SAMPLES:,}", n=args.samples))
    try:
        curves = compute_curves(q0, q1, samples=args.samples)
    except ValueError as exc:
        # The math names the argument (q0, q1); the user typed --q0, --q1.
        msg = str(exc)
        for name in ("q0", "q1"):
            if msg.startswith(name + " "):
                msg = "--" + msg
        return fail(PROG, msg)
    if args.format == "json":
        json.dump(curves_to_dict(curves), sys.stdout, allow_nan=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(curves_to_csv(curves))
        for note in curves.notes:
            print(_("note: {note}").format(note=_(note)), file=sys.stderr)
    return 0
