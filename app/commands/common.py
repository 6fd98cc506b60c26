"""What every ``quatlab`` subcommand shares: one-line errors, exit status 2, ``--order``. No Qt.

Kept apart from :mod:`quatlab.app.commands.cli` so the headless commands
(``check``, ``fix``, ``curves``, ``presets``) never reach the modules that open
a window (docs/architecture.md, "Commands").
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys

from quatlab.app.i18n import LANGUAGES, N_, _, current_language, ngettext, set_language

__all__ = ["OneLineParser", "fail", "add_order_argument", "add_lang_argument", "requested_language",
           "shown", "in_english"]


#: What a negative number may look like on the command line, so that
#: ``-1e-5``, ``-1E+2``, ``-.5`` and ``-inf`` are values, not options
#: (argparse alone knows only ``-1`` and ``-1.5``).
NEGATIVE_NUMBER = re.compile(r"^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^-(inf|infinity|nan)$", re.I)


#: argparse's own messages, which it looks up through its module-level ``_`` and
#: ``ngettext`` (it ships no translations). Marked here so that they are extracted
#: into QuatLab's catalog; :func:`_argparse_speaks` points argparse at that catalog
#: while a :class:`OneLineParser` parses, so its errors are in the language in use.
ARGPARSE_MESSAGES = (
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("show program's version number and exit"),
)


def _argparse_plurals():  # pragma: no cover - never called: marks argparse's plural message
    return ngettext("expected %s argument", "expected %s arguments", 2)


@contextlib.contextmanager
def _argparse_speaks():
    """argparse's own words in the language in use for the duration (module docs)."""
    saved = argparse._, argparse.ngettext
    argparse._, argparse.ngettext = _, ngettext
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved


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

    def parse_args(self, args=None, namespace=None):  # "unrecognized arguments" is said here
        with _argparse_speaks():
            return super().parse_args(args, namespace)

    def parse_known_args(self, args=None, namespace=None):
        with _argparse_speaks():
            return super().parse_known_args(args, namespace)

    def error(self, message: str):  # noqa: D401 - argparse API
        line = _("{prog}: error: {message} (see {prog} --help)").format(
            prog=self.prog, message=shown(message))
        self.exit(2, shown(line) + "\n")


@contextlib.contextmanager
def in_english(when: bool = True):
    """English for the duration (when ``when``), then the language in use again.

    JSON output is for programs: its keys and values are never translated
    (docs/architecture.md, "Translations"), and reader errors are translated when
    they are raised, so a command that prints them as JSON makes them in English.
    """
    saved = current_language()
    if when:
        set_language("en")
    try:
        yield
    finally:
        if when:
            set_language(saved)


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
    print(shown(_("{prog}: error: {message}").format(prog=prog, message=message)),
          file=sys.stderr)
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
