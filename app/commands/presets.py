"""``quatlab presets``: list the two-key presets of the lesson."""

from __future__ import annotations

from quatlab.app.i18n import _

__all__ = ["add_parser", "run"]


def add_parser(subparsers):
    p = subparsers.add_parser(
        "presets",
        help=_("list the presets (classic cases) with their endpoints"),
        description=_("List the presets: name, endpoints (w, x, y, z) and what each shows."),
    )
    p.add_argument("--verbose", "-v", action="store_true",
                   help=_("also print what each shows"))
    p.set_defaults(func=run)
    return p


def _fmt(q) -> str:
    # + 0.0 turns -0.0 into 0.0: a stored -0 is the same number, printed "+0".
    return "(" + ", ".join(f"{float(x) + 0.0:+.6g}" for x in q) + ")"


def run(args) -> int:
    from quatlab.app.model.presets import all_presets

    for p in all_presets():
        print(f"{p.name:24s} q0 = {_fmt(p.q0)}  q1 = {_fmt(p.q1)}   {p.shown_title}")
        if args.verbose:
            print(f"{'':24s} {p.shown_text}")
    return 0
