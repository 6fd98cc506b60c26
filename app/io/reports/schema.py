"""The JSON Schema of ``quatlab check --json``, shipped in the package (docs/report.md).

The schema file is ``quatlab/assets/schema/check-report.schema.json``; every
report names it by its ``$id`` (the ``schema`` field), read from the file, so
the version is written in one place.

>>> schema_id().startswith("urn:quatlab:check-report:")
True
"""

from __future__ import annotations

import functools
import json
from importlib import resources

__all__ = ["load_schema", "schema_id", "schema_text"]


def schema_text() -> str:
    """The schema as shipped (JSON text)."""
    folder = resources.files("quatlab.assets").joinpath("schema")
    return folder.joinpath("check-report.schema.json").read_text(encoding="utf-8")


@functools.cache
def load_schema() -> dict:
    """The schema as a dict (parsed once per process)."""
    return json.loads(schema_text())


def schema_id() -> str:
    """The ``$id`` of the shipped schema: what a report's ``schema`` field says."""
    return load_schema()["$id"]
