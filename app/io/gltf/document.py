"""Build pygltflib's object model from an already-parsed glTF JSON dict, fast and literally. No Qt.

``pygltflib.GLTF2.from_json`` decodes through dataclasses-json, which costs
milliseconds per object (most of the load time of a file with hundreds of
channels) and silently converts values to the annotated types: an index or
``byteOffset`` of ``1.5`` becomes ``1``, a truncated or misaligned read. Here
each pygltflib dataclass is built directly from its dict: nested objects
and arrays of objects become pygltflib objects (as ``from_json`` builds
them, including ``Attributes``), missing fields take pygltflib's defaults
(as ``infer_missing=True``), unknown keys are dropped, and every scalar is
kept exactly as the JSON had it.

Every field a reader uses has its JSON type checked here (:data:`FIELDS`,
from the glTF 2.0 schema), so a ``uri`` of ``true`` or a ``children`` of
``5`` is one line naming the field ("buffers[0].uri: expected a string, got
true"), never an exception deep in a reader; ``null`` counts as absent, as
pygltflib reads it. The readers' own checks (:func:`~quatlab.app.io.gltf.
accessors.as_int`: ranges, indices) come after (docs/formats.md, "Buffer
views and accessors").
"""

from __future__ import annotations

import dataclasses
import functools
import json
import sys
import typing

import pygltflib

from quatlab.app.i18n import N_, _
from quatlab.app.io.gltf.accessors import Invalid

__all__ = ["build_document", "FIELDS", "json_shown"]

STRING, INTEGER, BOOLEAN, OBJECT = N_("a string"), N_("an integer"), N_("true or false"), \
    N_("an object")
NUMBERS, INTEGERS, STRINGS = N_("an array of numbers"), N_("an array of integers"), \
    N_("an array of strings")

#: The JSON type of every field QuatLab's readers use (keyframes, scene, writer).
FIELDS: dict[type, dict[str, str]] = {
    pygltflib.GLTF2: {"scene": INTEGER, "extensionsUsed": STRINGS, "extensionsRequired": STRINGS},
    pygltflib.Asset: {"version": STRING},
    pygltflib.Buffer: {"uri": STRING, "byteLength": INTEGER},
    pygltflib.BufferView: {"buffer": INTEGER, "byteOffset": INTEGER, "byteLength": INTEGER,
                           "byteStride": INTEGER, "extensions": OBJECT},
    pygltflib.Accessor: {"bufferView": INTEGER, "byteOffset": INTEGER, "componentType": INTEGER,
                         "normalized": BOOLEAN, "count": INTEGER, "type": STRING,
                         "min": NUMBERS, "max": NUMBERS},
    pygltflib.Sparse: {"count": INTEGER},
    pygltflib.AccessorSparseIndices: {"bufferView": INTEGER, "byteOffset": INTEGER,
                                      "componentType": INTEGER},
    pygltflib.AccessorSparseValues: {"bufferView": INTEGER, "byteOffset": INTEGER},
    pygltflib.Animation: {"name": STRING},
    pygltflib.AnimationSampler: {"input": INTEGER, "output": INTEGER, "interpolation": STRING},
    pygltflib.AnimationChannel: {"sampler": INTEGER},
    pygltflib.AnimationChannelTarget: {"node": INTEGER, "path": STRING},
    pygltflib.Node: {"name": STRING, "children": INTEGERS, "mesh": INTEGER, "skin": INTEGER,
                     "matrix": NUMBERS, "translation": NUMBERS, "rotation": NUMBERS,
                     "scale": NUMBERS},
    pygltflib.Skin: {"name": STRING, "joints": INTEGERS, "inverseBindMatrices": INTEGER,
                     "skeleton": INTEGER},
    pygltflib.Mesh: {"name": STRING},
    pygltflib.Primitive: {"indices": INTEGER, "mode": INTEGER},
    pygltflib.Attributes: {"POSITION": INTEGER, "JOINTS_0": INTEGER, "WEIGHTS_0": INTEGER,
                           "JOINTS_1": INTEGER, "WEIGHTS_1": INTEGER},
    pygltflib.Scene: {"nodes": INTEGERS},
    pygltflib.Image: {"uri": STRING},
}


FLOAT_MAX = int(sys.float_info.max)


def _is_number(v) -> bool:
    return type(v) in (int, float)   # bool is an int subclass, but JSON true is no number


_ELEMENT = {NUMBERS: (_is_number, N_("a number")),
            INTEGERS: (lambda v: type(v) is int, INTEGER),
            STRINGS: (lambda v: isinstance(v, str), STRING)}
_SCALAR = {STRING: lambda v: isinstance(v, str), INTEGER: lambda v: type(v) is int,
           BOOLEAN: lambda v: type(v) is bool, OBJECT: lambda v: isinstance(v, dict)}


def json_shown(value, limit: int = 40) -> str:
    """A JSON value as a message shows it: scalars as JSON text (shortened), containers by kind.

    >>> json_shown(True), json_shown(None), json_shown("a.bin"), json_shown([1]), json_shown({})
    ('true', 'null', '"a.bin"', 'an array', 'an object')
    """
    if isinstance(value, list):
        return _("an array")
    if isinstance(value, dict):
        return _("an object")
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _wrong(where: str, expected: str, value) -> Invalid:
    return Invalid(_("{where}: expected {expected}, got {value}").format(
        where=where, expected=_(expected), value=json_shown(value)))


def _check(where: str, expected: str, value) -> None:
    if value is None:
        return  # absent, as pygltflib reads null
    if expected in _SCALAR:
        if not _SCALAR[expected](value):
            raise _wrong(where, expected, value)
        return
    if not isinstance(value, list):
        raise _wrong(where, expected, value)
    ok, element = _ELEMENT[expected]
    for i, v in enumerate(value):
        if not ok(v):
            raise _wrong(f"{where}[{i}]", element, v)
        if expected == NUMBERS and type(v) is int and abs(v) > FLOAT_MAX:
            raise Invalid(_("{where}: {value} is beyond the range of a 64-bit float").format(
                where=f"{where}[{i}]", value=json_shown(v)))


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


def _field(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _build(cls, value: dict, where: str):
    types = FIELDS.get(cls, {})
    for key, expected in types.items():
        _check(_field(where, key), expected, value.get(key))
    if cls is pygltflib.Attributes:
        return pygltflib.Attributes(**{k: v for k, v in value.items() if isinstance(k, str)})
    plan = _plan(cls)
    kwargs = {}
    for key, v in value.items():
        if key not in plan:
            continue
        container, inner = plan[key]
        here = _field(where, key)
        if container == "one" and v is not None:
            if not isinstance(v, dict):
                raise _wrong(here, OBJECT, v)
            v = _build(inner, v, here)
        elif container == "list" and v is not None:
            if not isinstance(v, list):
                raise _wrong(here, N_("an array"), v)
            items = []
            for i, e in enumerate(v):
                if not isinstance(e, dict):
                    raise _wrong(f"{here}[{i}]", OBJECT, e)
                items.append(_build(inner, e, f"{here}[{i}]"))
            v = items
        kwargs[key] = v
    return cls(**kwargs)


def build_document(doc: dict) -> pygltflib.GLTF2:
    """pygltflib's ``GLTF2`` for the parsed glTF JSON ``doc`` (see the module documentation).

    Raises :class:`~quatlab.app.io.gltf.accessors.Invalid` naming the field
    when a value has the wrong JSON type.

    >>> gltf = build_document({"asset": {"version": "2.0"},
    ...                        "accessors": [{"count": 3, "componentType": 5126}]})
    >>> gltf.accessors[0].count, gltf.accessors[0].byteOffset, gltf.nodes
    (3, 0, [])
    >>> build_document({"asset": {"version": "2.0"}, "buffers": [{"uri": True}]})
    Traceback (most recent call last):
    ...
    quatlab.app.io.gltf.accessors.Invalid: buffers[0].uri: expected a string, got true
    """
    return _build(pygltflib.GLTF2, doc, "")
