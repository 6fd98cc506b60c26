"""What every ``quatlab`` subcommand shares: one-line errors, exit status 2, ``--order``. No Qt.

Kept apart from :mod:`quatlab.app.commands.cli` so the headless commands
(``check``, ``fix``, ``curves``, ``presets``) never reach the modules that open
a window (docs/architecture.md, "Commands").
"""

from __future__ import annotations

import argparse
import re
import sys

from quatlab.app.i18n import LANGUAGES, _

__all__ = ["OneLineParser", "fail", "add_order_argument", "add_lang_argument", "requested_language",
           "shown"]


#: What a negative number may look like on the command line, so that
#: ``-1e-5``, ``-1E+2``, ``-.5`` and ``-inf`` are values, not options
#: (argparse alone knows only ``-1`` and ``-1.5``).
NEGATIVE_NUMBER = re.compile(r"^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^-(inf|infinity|nan)$", re.I)


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help layout with its "usage: " in the language in use."""

    def add_usage(self, usage, actions, groups, prefix=None):
        return super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (plus a hint), exit status 2.

    Its help is in the language in use, argparse's own words included ("usage",
    "options", the -h line): argparse ships no translations.
    """

    def __init__(self, *args, **kwargs):
        add_help = kwargs.pop("add_help", True)
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, add_help=False, **kwargs)
        self._optionals.title = _("options")
        self._positionals.title = _("positional arguments")
        if add_help:
            self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                              help=_("show this help message and exit"))
        self._negative_number_matcher = NEGATIVE_NUMBER

    def error(self, message: str):  # noqa: D401 - argparse API
        self.exit(2, f"{self.prog}: error: {shown(message)} (see {self.prog} --help)\n")


def shown(text) -> str:
    """``text`` (a message, a file name) on one line: control characters escaped.

    A file name may contain a newline; printed as is it would look like two
    messages. Escaping keeps every message on one line.

    >>> shown("a\\nb.gltf: cannot read")
    'a\\\\nb.gltf: cannot read'
    """
    text = str(text)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def fail(prog: str, message: str) -> int:
    """Print ``prog: error: message`` on one stderr line and return exit status 2."""
    print(f"{prog}: error: {shown(message)}", file=sys.stderr)
    return 2


def add_order_argument(parser) -> None:
    """``--order wxyz|xyzw``, shared by the commands that read keyframe tables."""
    parser.add_argument(
        "--order",
        choices=("wxyz", "xyzw"),
        help=_("component order of CSV/JSON tracks that do not declare it (glTF is xyzw)"),
    )


def add_lang_argument(parser, *, top: bool = False) -> None:
    """``--lang LANG``: the language of the window and of the messages (docs/architecture.md,
    "Translations").

    It is read before the parsers are built (:func:`requested_language`), so that
    ``--help`` is in that language too; declaring it here makes it show in the help
    and lets argparse accept it. A subcommand's copy keeps the top-level value
    (``default=SUPPRESS``: argparse would otherwise reset it to None).
    """
    parser.add_argument(
        "--lang", metavar="LANG", default=None if top else argparse.SUPPRESS,
        help=_("language of the window and messages: {langs} (default: the system's; the "
               "window remembers the one chosen in View > Language)").format(
                   langs=", ".join(LANGUAGES)),
    )


def requested_language(argv: list[str]) -> tuple[str | None, bool]:
    """The ``--lang`` value in ``argv`` (anywhere before ``--``) and whether one was given.

    >>> requested_language(["check", "a.gltf", "--lang", "zh_CN"])
    ('zh_CN', True)
    >>> requested_language(["--lang=en", "screenshot"]), requested_language(["fix", "x"])
    (('en', True), (None, False))
    """
    found, given = None, False
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang":
            found, given = (argv[i + 1] if i + 1 < len(argv) else ""), True
        elif arg.startswith("--lang="):
            found, given = arg.split("=", 1)[1], True
    return found, given
