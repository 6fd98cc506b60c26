"""The JSON Schemas of QuatLab's reports, shipped in the package (docs/report.md).

``quatlab check --json`` follows ``quatlab/assets/schema/check-report.schema.json``
(:data:`CHECK`, the default), ``quatlab compare --json``
``compare-report.schema.json`` (:data:`COMPARE`). Every report names its schema
by the ``$id`` (the ``schema`` field), read from the file, so the version is
written in one place.

>>> schema_id().startswith("urn:quatlab:check-report:")
True
>>> schema_id(COMPARE).startswith("urn:quatlab:compare-report:")
True
"""

from __future__ import annotations

import functools
import json
from importlib import resources

__all__ = ["load_schema", "schema_id", "schema_text", "CHECK", "COMPARE"]

#: The schemas by name (the file is ``NAME.schema.json``).
CHECK = "check-report"
COMPARE = "compare-report"


def schema_text(name: str = CHECK) -> str:
    """The schema ``name`` as shipped (JSON text)."""
    folder = resources.files("quatlab.assets").joinpath("schema")
    return folder.joinpath(f"{name}.schema.json").read_text(encoding="utf-8")


@functools.cache
def load_schema(name: str = CHECK) -> dict:
    """The schema ``name`` as a dict (parsed once per process)."""
    return json.loads(schema_text(name))


def schema_id(name: str = CHECK) -> str:
    """The ``$id`` of the shipped schema ``name``: what a report's ``schema`` field says."""
    return load_schema(name)["$id"]
