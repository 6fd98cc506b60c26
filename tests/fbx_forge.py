"""Small ASCII FBX 7.4 files written by hand, for tests and benchmarks (no QuatLab code).

The text follows the FBX ASCII layout Autodesk's exporters write (the shared
Maya files in ``tests/data/fbx`` are examples): ``Objects`` with ``Model``
nodes, an ``AnimationStack``, ``AnimationLayer``, ``AnimationCurveNode`` per
animated property and an ``AnimationCurve`` per component (``KeyTime`` in
KTime ticks, ``KeyValueFloat``, one ``KeyAttrFlags`` entry for all keys),
then ``Connections``. Interpolation flags: 2 constant, 4 linear, 8 cubic
(auto tangents).

Examples
--------
>>> text = ascii_fbx([Joint("root", -1)], {("root", "R", 2): ([0.0, 1.0], [170.0, -170.0])})
>>> text.splitlines()[0]
'; FBX 7.4.0 project file'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import numpy as np

KTIME_SECOND = 46186158000
FLAGS = {"constant": 2, "linear": 4, "cubic": 8}


@dataclasses.dataclass
class Joint:
    """A ``Model`` node: name, parent index (-1: root), translation, rotation order (0..5)."""

    name: str
    parent: int
    translation: tuple[float, float, float] = (0.0, 1.0, 0.0)
    order: int = 0
    kind: str = "LimbNode"
    pre_rotation: tuple[float, float, float] | None = None


def _numbers(values: Iterable, fmt: str) -> str:
    return ",".join(fmt % (float(v) if fmt == "%r" else int(v)) for v in values)


def ascii_fbx(joints: list[Joint], curves: dict, *, fps: float = 30.0,
              interpolation: str = "linear", stop: float | None = None,
              extra_connections: Iterable[str] = ()) -> str:
    """An ASCII FBX file: ``joints`` and ``curves`` ``{(joint name, "T"|"R"|"S", axis): (times,
    values)}`` (seconds; degrees for rotations) in one clip ``"Take 001"``, one layer."""
    ids = {j.name: 1_000_000 + i for i, j in enumerate(joints)}
    out = ["; FBX 7.4.0 project file",
           "FBXHeaderExtension:  {", "\tFBXHeaderVersion: 1003", "\tFBXVersion: 7400",
           '\tCreator: "QuatLab tests fbx_forge"', "}",
           "GlobalSettings:  {", "\tVersion: 1000", "\tProperties70:  {",
           '\t\tP: "TimeMode", "enum", "", "",14',
           f'\t\tP: "CustomFrameRate", "double", "Number", "",{fps!r}', "\t}", "}",
           "Objects:  {"]
    conn = []
    for j in joints:
        out += [f'\tModel: {ids[j.name]}, "Model::{j.name}", "{j.kind}" {{', "\t\tVersion: 232",
                "\t\tProperties70:  {",
                f'\t\t\tP: "RotationOrder", "enum", "", "",{j.order}',
                '\t\t\tP: "Lcl Translation", "Lcl Translation", "", "A",'
                + _numbers(j.translation, "%r")]
        if j.pre_rotation is not None:
            out += ['\t\t\tP: "RotationActive", "bool", "", "",1',
                    '\t\t\tP: "PreRotation", "Vector3D", "Vector", "",'
                    + _numbers(j.pre_rotation, "%r")]
        out += ["\t\t}", "\t}"]
        parent = ids[joints[j.parent].name] if j.parent >= 0 else 0
        conn.append(f'\tC: "OO",{ids[j.name]},{parent}')
    times_all = [t for (ts, _v) in curves.values() for t in ts]
    end = stop if stop is not None else (max(times_all) if times_all else 1.0)
    out += ['\tAnimationStack: 2000, "AnimStack::Take 001", "" {', "\t\tProperties70:  {",
            '\t\t\tP: "LocalStart", "KTime", "Time", "",0',
            f'\t\t\tP: "LocalStop", "KTime", "Time", "",{int(round(end * KTIME_SECOND))}',
            "\t\t}", "\t}", '\tAnimationLayer: 2001, "AnimLayer::BaseLayer", "" {', "\t}"]
    conn.append('\tC: "OO",2001,2000')
    props = {"T": "Lcl Translation", "R": "Lcl Rotation", "S": "Lcl Scaling"}
    nodes: dict[tuple[str, str], int] = {}
    next_id = 3_000_000
    for (name, what, axis), (ts, vs) in sorted(curves.items()):
        key = (name, what)
        if key not in nodes:
            nodes[key] = next_id
            next_id += 1
            out += [f'\tAnimationCurveNode: {nodes[key]}, "AnimCurveNode::{what}", "" {{',
                    "\t\tProperties70:  {", '\t\t\tP: "d|X", "Number", "", "A",0',
                    '\t\t\tP: "d|Y", "Number", "", "A",0', '\t\t\tP: "d|Z", "Number", "", "A",0',
                    "\t\t}", "\t}"]
            conn.append(f'\tC: "OO",{nodes[key]},2001')
            conn.append(f'\tC: "OP",{nodes[key]},{ids[name]}, "{props[what]}"')
        cid = next_id
        next_id += 1
        ticks = np.rint(np.asarray(ts, dtype=np.float64) * KTIME_SECOND).astype(np.int64)
        n = len(ticks)
        out += [f'\tAnimationCurve: {cid}, "AnimCurve::", "" {{', "\t\tDefault: 0",
                "\t\tKeyVer: 4009", f"\t\tKeyTime: *{n} {{",
                "\t\t\ta: " + _numbers(ticks, "%d"), "\t\t}",
                f"\t\tKeyValueFloat: *{n} {{", "\t\t\ta: " + _numbers(vs, "%r"), "\t\t}",
                "\t\tKeyAttrFlags: *1 {", f"\t\t\ta: {FLAGS[interpolation]}", "\t\t}",
                "\t\tKeyAttrDataFloat: *4 {", "\t\t\ta: 0,0,218434821,0", "\t\t}",
                "\t\tKeyAttrRefCount: *1 {", f"\t\t\ta: {n}", "\t\t}", "\t}"]
        conn.append(f'\tC: "OP",{cid},{nodes[key]}, "d|{"XYZ"[axis]}"')
    out += ["}", "Connections:  {"] + conn + list(extra_connections) + ["}", ""]
    return "\n".join(out)


def chain(n: int, *, order: int = 0) -> list[Joint]:
    """``n`` joints, each the child of the one before, one unit up +Y."""
    return [Joint(f"j{i}", i - 1, (0.0, 0.0 if i == 0 else 1.0, 0.0), order) for i in range(n)]


# ------------------------------------------------------------- binary, for hostile files

BINARY_MAGIC = b"Kaydara FBX Binary  \x00\x1a\x00"


def binary_record(name: bytes, props: bytes = b"", n_props: int = 0, children: bytes = b"",
                  at: int = 0) -> bytes:
    """One FBX 7.4 node record at offset ``at`` (32-bit offsets): header, properties, children.

    ``children`` must already hold their own absolute offsets (see :func:`binary_fbx`).
    """
    head = 13 + len(name)
    body = props + children + (b"\x00" * 13 if children else b"")
    end = at + head + len(body)
    return (end.to_bytes(4, "little") + n_props.to_bytes(4, "little")
            + len(props).to_bytes(4, "little") + bytes([len(name)]) + name + body)


def binary_fbx(records, version: int = 7400) -> bytes:
    """A binary FBX file from ``records(at) -> bytes`` callables laid one after another."""
    out = BINARY_MAGIC + version.to_bytes(4, "little")
    for make in records:
        out += make(len(out))
    return out + b"\x00" * 13


def nested(depth: int, name: bytes = b"N"):
    """A record nested ``depth`` levels deep (each level one child), as a ``records`` callable.

    Written in one pass: all headers, then the null records closing each level.
    """
    def make(at: int) -> bytes:
        head = 13 + len(name)
        innermost_end = at + depth * head
        parts = []
        for k in range(depth):
            # Level k closes after the levels inside it and their null records.
            end = innermost_end + 13 * (depth - 1 - k)
            parts.append(end.to_bytes(4, "little") + b"\x00" * 8 + bytes([len(name)]) + name)
        return b"".join(parts) + b"\x00" * 13 * (depth - 1)
    return make


def array_property(kind: bytes, length: int, payload: bytes, encoding: int = 0) -> bytes:
    """An array property (``d``, ``f``, ``i``, ``l``) declaring ``length`` elements."""
    return (kind + length.to_bytes(4, "little") + encoding.to_bytes(4, "little")
            + len(payload).to_bytes(4, "little") + payload)
