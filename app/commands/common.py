"""What every ``quatlab`` subcommand shares: one-line errors, exit status 2, ``--order``. No Qt.

Kept apart from :mod:`quatlab.app.commands.cli` so the headless commands
(``check``, ``fix``, ``curves``, ``presets``) never reach the modules that open
a window (docs/architecture.md, "Commands").
"""

from __future__ import annotations

import argparse
import re
import sys

__all__ = ["OneLineParser", "fail", "add_order_argument", "shown"]


#: What a negative number may look like on the command line, so that
#: ``-1e-5``, ``-1E+2``, ``-.5`` and ``-inf`` are values, not options
#: (argparse alone knows only ``-1`` and ``-1.5``).
NEGATIVE_NUMBER = re.compile(r"^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^-(inf|infinity|nan)$", re.I)


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (plus a hint), exit status 2."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
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
        help="component order of CSV/JSON tracks that do not declare it (glTF is xyzw)",
    )
