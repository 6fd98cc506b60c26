"""One ``quatlab`` command run in process on a hostile case, held to the one-line-error rule.

Shared by the mutation fuzz tests (glTF, BVH): docs/formats.md, "Safety
rules for readers and writers".
"""

from __future__ import annotations

from pathlib import Path

import pytest
import report_schema

from quatlab.app.commands.cli import main


def run_case(capsys, argv: list[str], path: Path, case: str) -> int:
    """The exit status of ``quatlab ARGV``: 0, 1 or 2, never an exception.

    Exit 2 must come with exactly one stderr line naming ``path``; 0 and 1
    with nothing on stderr (no warning either), and a ``check --json`` report
    that follows the shipped schema (docs/report.md). ``case`` names the case in a
    failure.
    """
    try:
        status = main(argv)
    except BaseException as exc:  # noqa: BLE001 - the failure these tests look for
        pytest.fail(f"{case}: quatlab {argv[0]} raised {type(exc).__name__}: {exc}")
    out, err = capsys.readouterr()
    assert status in (0, 1, 2), (case, status)
    assert "Traceback" not in err + out, (case, err)
    if status == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and str(path) in lines[0], (case, err)
    else:
        assert not err, (case, err)
        if "--json" in argv and argv[0] == "check":
            report_schema.file_report(out)  # the report contract holds on hostile input too
    return status
