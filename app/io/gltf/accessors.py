"""glTF 2.0 binary layout: component types, accessor strides, decoding and re-encoding. No Qt.

Shared by the reader (:mod:`quatlab.app.io.gltf.read`) and the writer
(:mod:`quatlab.app.io.gltf.write`): how an accessor's bytes sit in a buffer
view (``byteStride``, offsets), how normalized integers map to floats and
back, and the problems found on the way (:class:`Invalid`, turned into a
one-line error naming the file). The rules are those of docs/formats.md,
"glTF 2.0 subset".
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from quatlab.app.i18n import N_, _

__all__ = ["Invalid", "Buffer", "Layout", "Source", "decode", "encode", "writable", "json_number",
           "as_int", "as_list", "item", "COMPONENTS", "WIDTH", "ROTATION_TYPES", "INDEX_TYPES",
           "MAX_ZERO_FILLED", "zero_filled_limit", "GLB_MAGIC", "CHUNK_JSON", "CHUNK_BIN"]

GLB_MAGIC = b"glTF"
CHUNK_JSON = 0x4E4F534A
CHUNK_BIN = 0x004E4942

#: componentType -> (little-endian dtype, normalization divisor, name).
COMPONENTS = {
    5120: ("<i1", 127.0, N_("normalized signed byte")),
    5121: ("<u1", 255.0, N_("normalized unsigned byte")),
    5122: ("<i2", 32767.0, N_("normalized signed short")),
    5123: ("<u2", 65535.0, N_("normalized unsigned short")),
    5125: ("<u4", None, N_("unsigned int")),
    5126: ("<f4", None, N_("float")),
}
WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}
ROTATION_TYPES = (5126, 5120, 5121, 5122, 5123)
INDEX_TYPES = (5121, 5123, 5125)
#: Accessors without a buffer view are zero-filled in memory; a count this
#: large would only come from a corrupt file.
MAX_ZERO_FILLED = 1 << 24
#: Zero-filled elements any file may declare, however small it is.
ZERO_FILLED_FLOOR = 1 << 16
#: ... and per byte of the file's real data beyond that.
ZERO_FILLED_PER_BYTE = 16


def zero_filled_limit(file_bytes: int) -> int:
    """How many zero-filled elements a file of ``file_bytes`` (with its buffers) may declare.

    >>> zero_filled_limit(324), zero_filled_limit(10**6), zero_filled_limit(10**9)
    (65536, 16000000, 16777216)
    """
    return min(MAX_ZERO_FILLED, max(ZERO_FILLED_FLOOR, ZERO_FILLED_PER_BYTE * file_bytes))


class Invalid(Exception):
    """A problem found while decoding; turned into KeyframeFileError with the file name."""


def as_int(value, what: str, minimum: int = 0) -> int:
    # bool is an int subclass; JSON true is not an index.
    if type(value) is not int or value < minimum:
        raise Invalid(_("{what} must be an integer >= {minimum}, got {value!r}").format(
            what=what, minimum=minimum, value=value))
    return value


def as_list(value, what: str, cls: type) -> list:
    """A glTF array whose elements pygltflib decoded as ``cls`` objects.

    pygltflib rejects arrays of the wrong shape itself, but passes ``null``
    through, for the whole array (None) and for its elements.
    """
    if value is None:
        return []
    for i, item in enumerate(value):
        if not isinstance(item, cls):
            raise Invalid(_("{what}[{i}] must be an object").format(what=what, i=i))
    return value


def item(items: list, index, what: str, kind: str):
    i = as_int(index, what)
    if i >= len(items):
        raise Invalid(_("{what} = {i} is out of range: the file has {n_items} {kind}").format(
            what=what, i=i, n_items=len(items), kind=kind))
    return i, items[i]


@dataclasses.dataclass
class Buffer:
    data: bytes
    kind: str  # "glb" (the BIN chunk), "data" (data URI) or "file"
    uri: str | None = None
    file: Path | None = None


@dataclasses.dataclass
class Layout:
    """Where an accessor's elements live: a strided base view and sparse values."""

    index: int
    component: int
    dtype: np.dtype
    width: int
    count: int
    base: tuple[int, int, int] | None  # (buffer, byte offset, byte stride)
    sparse_indices: np.ndarray | None
    sparse_values: tuple[int, int] | None  # (buffer, byte offset), tightly packed

    def _view(self, buf, offset: int, rows: int, stride: int) -> np.ndarray:
        return np.ndarray(
            (rows, self.width), self.dtype, buffer=buf, offset=offset,
            strides=(stride, self.dtype.itemsize),
        )

    def read(self, buffers: list) -> np.ndarray:
        """Stored values ``(count, width)`` with sparse substitution applied."""
        if self.base is None:
            out = np.zeros((self.count, self.width), self.dtype)
        else:
            b, offset, stride = self.base
            out = self._view(buffers[b], offset, self.count, stride).copy()
        if self.sparse_indices is not None:
            b, offset = self.sparse_values
            rows = len(self.sparse_indices)
            out[self.sparse_indices] = self._view(
                buffers[b], offset, rows, self.width * self.dtype.itemsize
            )
        return out

    def write(self, buffers: list, rows: np.ndarray, raw: np.ndarray) -> set[int]:
        """Store ``raw`` (stored dtype) as elements ``rows``; returns the buffers changed.

        Buffers written to are replaced by bytearrays in ``buffers``.
        """
        in_sparse = np.zeros(len(rows), dtype=bool)
        touched: set[int] = set()
        if self.sparse_indices is not None:
            pos = np.searchsorted(self.sparse_indices, rows)
            pos_ok = np.minimum(pos, len(self.sparse_indices) - 1)
            in_sparse = self.sparse_indices[pos_ok] == rows
            if in_sparse.any():
                b, offset = self.sparse_values
                buffers[b] = writable(buffers[b])
                view = self._view(
                    buffers[b], offset, len(self.sparse_indices), self.width * self.dtype.itemsize
                )
                view[pos[in_sparse]] = raw[in_sparse]
                touched.add(b)
        if (~in_sparse).any():
            if self.base is None:
                raise Invalid(
                    _("accessor {index}: key {key} has no storage (no bufferView and not in "
                      "the sparse indices), so it cannot change").format(
                          index=self.index, key=int(rows[~in_sparse][0]))
                )
            b, offset, stride = self.base
            buffers[b] = writable(buffers[b])
            self._view(buffers[b], offset, self.count, stride)[rows[~in_sparse]] = raw[~in_sparse]
            touched.add(b)
        return touched


def writable(buf) -> bytearray:
    # Copy a buffer on its first write only; later writes go to the same copy.
    return buf if isinstance(buf, bytearray) else bytearray(buf)


def decode(raw: np.ndarray, component: int) -> np.ndarray:
    divisor = COMPONENTS[component][1]
    # Signalling NaNs in float data raise numpy's "invalid" flag when widened;
    # they stay NaN, which the audit reports.
    with np.errstate(invalid="ignore"):
        values = raw.astype(np.float64)
    if divisor is None:
        return values
    values /= divisor
    # Signed types: the most negative code (-128, -32768) also means -1.
    return np.maximum(values, -1.0) if raw.dtype.kind == "i" else values


def encode(values: np.ndarray, component: int) -> np.ndarray:
    dtype, divisor, name = COMPONENTS[component]
    if divisor is None:
        with np.errstate(invalid="ignore", over="ignore"):
            return values.astype(dtype)
    lo = -1.0 if np.dtype(dtype).kind == "i" else 0.0
    # Anything beyond half a step outside the range cannot be stored.
    if np.any(values < lo - 0.5 / divisor) or np.any(values > 1.0 + 0.5 / divisor):
        raise Invalid(_("a corrected value is outside the range of {name} components").format(
            name=_(name)))
    codes = np.round(np.clip(values, lo, 1.0) * divisor)
    return codes.astype(dtype)


def json_number(value, component: int):
    # min/max hold the stored values; floats as the shortest text that reads
    # back as the same float32 (and 0.0 rather than -0.0 from negated zeros).
    if component != 5126:
        return int(value)
    with np.errstate(over="ignore"):  # an old min of 1e308 is inf in float32: not equal
        return float(str(np.float32(value))) + 0.0


@dataclasses.dataclass(frozen=True)
class Source:
    """Where a track came from: its output accessor (keys) and input accessor (times)."""

    output: int
    input: int | None = None
