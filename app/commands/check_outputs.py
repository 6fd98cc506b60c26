"""The files ``quatlab check`` can write besides its report on stdout: ``--junit``, ``--html``.

Each is written once the check is done, atomically through
:mod:`quatlab.app.io.atomic` (docs/formats.md, "Safety rules for readers and
writers"): an existing file is replaced only with ``--force``, and that is
checked before the first file is read, so a long sweep does not end in a
refusal. The report's texts in them are English (docs/report.md); the HTML
page's own words are in the language in use. No Qt.
"""

from __future__ import annotations

import os

from quatlab.app.i18n import _

__all__ = ["add_output_arguments", "wants_details", "check_targets", "write_outputs"]

PROG = "quatlab check"


def add_output_arguments(parser) -> None:
    """``--junit FILE``, ``--html FILE`` and ``--force``."""
    parser.add_argument("--junit", metavar="FILE",
                        help=_("also write the report as JUnit XML to FILE (a test case per "
                               "track, a failure per finding) for CI test views"))
    parser.add_argument("--html", metavar="FILE",
                        help=_("also write one self-contained HTML page to FILE: the summary "
                               "and a dope sheet of each file's findings"))
    parser.add_argument("--force", action="store_true",
                        help=_("replace the --junit or --html file if it exists"))


def wants_details(args) -> bool:
    """Whether the results must list every track and each finding's message."""
    return bool(getattr(args, "junit", None) or getattr(args, "html", None))


def _targets(args) -> list[str]:
    return [path for path in (getattr(args, "junit", None), getattr(args, "html", None)) if path]


def check_targets(args) -> str | None:
    """The reason the outputs cannot be written (before any work), else None."""
    for path in _targets(args):
        if os.path.isdir(path):
            return _("{file}: is a folder; give a file name").format(file=path)
        if not args.force and os.path.lexists(path):
            return _("{file}: exists; pass --force to replace it").format(file=path)
    return None


def write_outputs(args, results: list[dict]) -> str | None:
    """Write the requested files from the check ``results``; the one-line problem, else None."""
    from quatlab.app.io.atomic import atomic_write

    outputs = []
    if args.junit:
        from quatlab.app.io.reports.junit import junit_xml

        outputs.append((args.junit, junit_xml(results)))
    if getattr(args, "html", None):
        from quatlab.app.io.reports.html import html_page

        title = ", ".join(str(p) for p in (args.file if isinstance(args.file, list)
                                           else [args.file]))
        outputs.append((args.html, html_page(results, title=title)))
    for path, data in outputs:
        try:
            atomic_write(path, data, force=args.force)
        except FileExistsError:
            return _("{file}: exists; pass --force to replace it").format(file=path)
        except OSError as exc:
            return _("{file}: cannot write: {error}").format(file=path, error=exc.strerror or exc)
    return None
