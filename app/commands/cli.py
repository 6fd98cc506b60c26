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
from quatlab.app.commands.common import OneLineParser, add_lang_argument, fail, requested_language
from quatlab.app.i18n import _, set_language

__all__ = ["main", "build_parser", "COMMANDS"]

#: Subcommand modules, in ``--help`` order.
COMMANDS = ("curves", "presets", "screenshot", "record", "check", "fix", "pose",
            "export-quats", "compare")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="quatlab",
        description=_(
            "QuatLab: see how naive and shortest-arc NLERP and SLERP move a joint, "
            "and find keyframes that make a runtime turn the long way. "
            "Run without a subcommand to open the window."
        ),
    )
    parser.add_argument("--version", action="version", version=f"quatlab {__version__}",
                        help=_("show the version and exit"))
    add_lang_argument(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    for name in COMMANDS:
        module = importlib.import_module(f"quatlab.app.commands.{name.replace('-', '_')}")
        module.add_parser(sub)
    for command in sub.choices.values():  # `quatlab check --lang zh_CN FILE` too
        add_lang_argument(command)
    return parser


def _gui_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="quatlab",
        description=_("Open the QuatLab window (subcommands: {commands}).").format(
            commands=", ".join(COMMANDS)),
    )
    parser.add_argument("file", nargs="?",
                        help=_("keyframe file to open (glTF, GLB, BVH, CSV, JSON)"))
    parser.add_argument("--preset", help=_("two-key preset to start on (see `quatlab presets`)"))
    parser.add_argument("--t", type=float, default=None, help=_("initial t in [0, 1]"))
    add_lang_argument(parser, top=True)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # The language first: the parsers' help and every message are in it. Without
    # --lang the commands follow the system; the window also remembers a choice
    # (View > Language), so it decides for itself (run_window).
    lang, lang_given = requested_language(argv)
    try:
        set_language(lang if lang_given else None)
    except ValueError as exc:
        return fail("quatlab", str(exc))
    first = next((a for i, a in enumerate(argv) if not a.startswith("--lang")
                  and not (i > 0 and argv[i - 1] == "--lang")), None)
    if first is not None and (first in COMMANDS or first in ("-h", "--help", "--version")):
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
            parser.error(_("argument COMMAND: invalid choice: {name!r} (choose from "
                           "{choices})").format(name=args.file, choices=choices))
        return fail("quatlab", _("{file}: no such file").format(file=args.file))
    from quatlab.app.commands.window import run_window

    return run_window(file=args.file, preset=args.preset, t=args.t,
                      lang=lang if lang_given else None)


def entry() -> None:
    """The ``quatlab`` console script: :func:`main`, then an exit Qt cannot crash.

    Once a command has started Qt (the window, ``screenshot``, ``record``) and
    done its work, the interpreter's teardown destroys Qt and OpenGL objects
    in no set order, and now and then that ended a finished screenshot with
    SIGSEGV instead of its status. So such a process flushes its streams and
    leaves without the teardown; a command that never loaded Qt exits as usual.
    """
    status = main()
    widgets = sys.modules.get("PyQt6.QtWidgets")
    if widgets is None or widgets.QApplication.instance() is None:
        sys.exit(status)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader that left, a closed stream
            pass
    os._exit(status)


if __name__ == "__main__":  # pragma: no cover
    entry()
