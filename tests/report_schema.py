"""Read what ``quatlab check --json`` (and ``compare --json``) prints and hold it to the shipped
schemas (docs/report.md).

Every test that parses check's JSON goes through :func:`file_report` (one
file) or :func:`folder_report` (JSON Lines), so any output the suite
produces that the contract does not describe fails the test that made it.
"""

from __future__ import annotations

import functools
import json

from jsonschema import Draft202012Validator

from quatlab.app.io.reports.schema import COMPARE, load_schema


@functools.cache
def validator(definition: str) -> Draft202012Validator:
    """A validator for one ``$defs`` entry of the shipped schema (itself checked first)."""
    schema = load_schema()
    Draft202012Validator.check_schema(schema)
    sub = {k: v for k, v in schema.items() if k != "oneOf"}
    sub["$ref"] = f"#/$defs/{definition}"
    return Draft202012Validator(sub)


def validate(doc, definition: str) -> None:
    """Raise (with every error listed) unless ``doc`` is a valid ``definition``."""
    _held_to(validator(definition), doc, definition)


def _held_to(check: Draft202012Validator, doc, what: str) -> None:
    errors = sorted(check.iter_errors(doc), key=lambda e: list(e.path))
    if errors:
        raise AssertionError(f"not a valid {what}:\n" + "\n".join(
            f"  at {'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message[:300]}"
            for e in errors))


def file_report(text: str) -> dict:
    """``quatlab check FILE --json``'s output, parsed and validated."""
    doc = json.loads(text)
    validate(doc, "file_report")
    return doc


def folder_report(text: str) -> list[dict]:
    """``quatlab check DIR --json``'s JSON Lines, parsed and validated line by line.

    The summary must be the last line and the only one.
    """
    lines = [json.loads(line) for line in text.splitlines()]
    for line in lines:
        # The line's own definition first (precise errors), then the union a reader sees.
        validate(line, "folder_summary" if "summary" in line else
                 "folder_skipped" if line.get("status") == "skipped" else "folder_file")
        validate(line, "folder_line")
    summaries = [i for i, line in enumerate(lines) if "summary" in line]
    assert summaries == [len(lines) - 1], f"summary lines at {summaries} of {len(lines)}"
    return lines


@functools.cache
def compare_validator() -> Draft202012Validator:
    """A validator for ``quatlab compare --json`` (its schema checked first)."""
    schema = load_schema(COMPARE)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def compare_report(text: str) -> dict:
    """``quatlab compare SOURCE CONVERTED --json``'s output, parsed and validated."""
    doc = json.loads(text)
    _held_to(compare_validator(), doc, "compare report")
    return doc
