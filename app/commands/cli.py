"""The ``quatlab`` command line (also ``python -m quatlab.app``).

``quatlab`` alone (or with a keyframe FILE) opens the window; subcommands do
headless work. Each subcommand lives in ``quatlab.app.commands.<name>`` and
provides ``add_parser(subparsers)`` and ``run(args) -> int``.

Bad arguments print one line naming the problem and exit with status 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from quatlab.app import __version__
from quatlab.app.commands.common import OneLineParser, fail

__all__ = ["main", "build_parser", "COMMANDS"]

#: Subcommand modules, in ``--help`` order.
COMMANDS = ("curves", "presets", "screenshot", "record", "check", "fix", "pose",
            "export-quats")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="quatlab",
        description=(
            "QuatLab: see how naive and shortest-arc NLERP and SLERP move a joint, "
            "and find keyframes that make a runtime turn the long way. "
            "Run without a subcommand to open the window."
        ),
    )
    parser.add_argument("--version", action="version", version=f"quatlab {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    for name in COMMANDS:
        module = importlib.import_module(f"quatlab.app.commands.{name.replace('-', '_')}")
        module.add_parser(sub)
    return parser


def _gui_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="quatlab",
        description="Open the QuatLab window (subcommands: " + ", ".join(COMMANDS) + ").",
    )
    parser.add_argument("file", nargs="?", help="keyframe file to open (glTF, GLB, CSV, JSON)")
    parser.add_argument("--preset", help="two-key preset to start on (see `quatlab presets`)")
    parser.add_argument("--t", type=float, default=None, help="initial t in [0, 1]")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and (argv[0] in COMMANDS or argv[0] in ("-h", "--help", "--version")):
        args = build_parser().parse_args(argv)
        try:
            return int(args.func(args) or 0)
        except BrokenPipeError:
            # `quatlab check --json FILE | head`: the reader left; not an error.
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the exit flush
            return 0
    parser = _gui_parser()
    args = parser.parse_args(argv)
    if args.file is not None and not os.path.lexists(args.file):
        if not os.path.splitext(args.file)[1] and os.sep not in args.file:
            # A mistyped subcommand, not a file: say so as argparse would.
            choices = ", ".join(repr(c) for c in COMMANDS)
            parser.error(f"argument COMMAND: invalid choice: {args.file!r} (choose from {choices})")
        return fail("quatlab", f"{args.file}: no such file")
    from quatlab.app.commands.window import run_window

    return run_window(file=args.file, preset=args.preset, t=args.t)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
