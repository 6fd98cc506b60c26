"""Build pygltflib's object model from an already-parsed glTF JSON dict, fast and literally. No Qt.

``pygltflib.GLTF2.from_json`` decodes through dataclasses-json, which costs
milliseconds per object (most of the load time of a file with hundreds of
channels) and silently converts values to the annotated types: an index or
``byteOffset`` of ``1.5`` becomes ``1``, a truncated or misaligned read. Here
each pygltflib dataclass is built directly from its dict: nested objects
and arrays of objects become pygltflib objects (as ``from_json`` builds
them, including ``Attributes``), missing fields take pygltflib's defaults
(as ``infer_missing=True``), unknown keys are dropped, and every scalar is
kept exactly as the JSON had it, so the readers' own checks
(:func:`~quatlab.app.io.gltf.accessors.as_int`) see ``1.5`` and refuse it
(docs/formats.md, "Buffer views and accessors").
"""

from __future__ import annotations

import dataclasses
import functools
import typing

import pygltflib

from quatlab.app.i18n import _

__all__ = ["build_document"]


def _unwrap(hint):
    """(container, dataclass) of a field annotation: ('list'|'one'|None, cls or None)."""
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    origin = typing.get_origin(hint)
    if origin is typing.Union and len(args) == 1:
        return _unwrap(args[0])
    if origin in (list, typing.List) and args:  # noqa: UP006 - pygltflib's annotations
        inner = args[0]
        if inner is pygltflib.Attributes or dataclasses.is_dataclass(inner):
            return "list", inner
        return None, None
    if hint is pygltflib.Attributes or (isinstance(hint, type) and dataclasses.is_dataclass(hint)):
        return "one", hint
    return None, None


@functools.cache
def _plan(cls) -> dict[str, tuple]:
    hints = typing.get_type_hints(cls)
    return {f.name: _unwrap(hints.get(f.name)) for f in dataclasses.fields(cls)}


def _build(cls, value, where: str):
    if not isinstance(value, dict):
        return value  # the reader that looks at it says "must be an object"
    if cls is pygltflib.Attributes:
        return pygltflib.Attributes(**{k: v for k, v in value.items() if isinstance(k, str)})
    plan = _plan(cls)
    kwargs = {}
    for key, v in value.items():
        if key not in plan:
            continue
        container, inner = plan[key]
        if container == "one" and v is not None:
            if not isinstance(v, dict):
                raise ValueError(_("{where}.{key} must be an object, got {kind}").format(
                    where=where, key=key, kind=type(v).__name__))
            v = _build(inner, v, f"{where}.{key}")
        elif container == "list" and v is not None:
            if not isinstance(v, list):
                raise ValueError(_("{where}.{key} must be an array, got {kind}").format(
                    where=where, key=key, kind=type(v).__name__))
            v = [_build(inner, e, f"{where}.{key}[{i}]") for i, e in enumerate(v)]
        kwargs[key] = v
    return cls(**kwargs)


def build_document(doc: dict) -> pygltflib.GLTF2:
    """pygltflib's ``GLTF2`` for the parsed glTF JSON ``doc`` (see the module documentation).

    Raises :class:`ValueError` naming the place when an object or array has
    the wrong JSON type.

    >>> gltf = build_document({"asset": {"version": "2.0"},
    ...                        "accessors": [{"count": 1.5, "componentType": 5126}]})
    >>> gltf.accessors[0].count, gltf.accessors[0].byteOffset, gltf.nodes
    (1.5, 0, [])
    """
    return _build(pygltflib.GLTF2, doc, "the document")
