"""glTF 2.0 rotation channels (``.gltf`` and ``.glb``): decode with numpy, write corrected copies.

Reading: the JSON document is parsed with pygltflib; buffers come from data
URIs (base64), external files or the GLB ``BIN`` chunk; accessors are
decoded with numpy as the glTF specification says, including ``byteStride``,
sparse substitution, accessors without a buffer view (zeros) and normalized
integers (signed byte ``max(c / 127, -1)``, unsigned byte ``c / 255``, signed
short ``max(c / 32767, -1)``, unsigned short ``c / 65535``). Every rotation
channel that targets a node becomes a :class:`~quatlab.app.io.tracks.Track`
with keys in (w, x, y, z) order; CUBICSPLINE outputs are split into
in-tangent, value and out-tangent.

Writing: only the rotation output accessors' bytes change (same component
type; normalized integers are re-quantized with ``round(v * 127)`` etc.),
and only for the keys that changed, wherever they live (base buffer view or
sparse values). Each accessor's ``min``/``max``, when present, is updated to
the new data. In the JSON text only those values and the URIs that must
change are replaced, so everything else stays byte-identical:

* ``.glb``: the ``BIN`` chunk is patched in place; other chunks are kept.
* data URI buffers: the URI gets the new base64 payload.
* external ``.bin`` buffers that change: written as a new file beside the
  output (``OUT.bin``, or ``OUT.<index>.bin`` for several) -- the input's
  file is never overwritten -- and the URI points to it.
* relative URIs of unchanged buffers and images are rewritten relative to
  the output's directory when it differs from the input's.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import dataclasses
import json
import os
import struct
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import numpy as np
import pygltflib

from quatlab.app.io.atomic import atomic_write
from quatlab.app.io.json_text import edit_json_text
from quatlab.app.io.tracks import KeyframeFile, KeyframeFileError, Track, changed_rows, decode_utf8
from quatlab.math import quaternion as Q

__all__ = ["GltfFile", "load_gltf", "load_glb", "looks_like_gltf", "GLB_MAGIC"]

GLB_MAGIC = b"glTF"
_CHUNK_JSON = 0x4E4F534A
_CHUNK_BIN = 0x004E4942

#: componentType -> (little-endian dtype, normalization divisor, name).
_COMPONENTS = {
    5120: ("<i1", 127.0, "normalized signed byte"),
    5121: ("<u1", 255.0, "normalized unsigned byte"),
    5122: ("<i2", 32767.0, "normalized signed short"),
    5123: ("<u2", 65535.0, "normalized unsigned short"),
    5125: ("<u4", None, "unsigned int"),
    5126: ("<f4", None, "float"),
}
_WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}
_ROTATION_TYPES = (5126, 5120, 5121, 5122, 5123)
_INDEX_TYPES = (5121, 5123, 5125)
#: Accessors without a buffer view are zero-filled in memory; a count this
#: large would only come from a corrupt file.
_MAX_ZERO_FILLED = 1 << 24


class _Invalid(Exception):
    """A problem found while decoding; turned into KeyframeFileError with the file name."""


def looks_like_gltf(data: bytes) -> bool:
    """Whether JSON ``data`` is a glTF document (an object with ``"asset"``), not a track file."""
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False
    return isinstance(doc, dict) and "asset" in doc and "tracks" not in doc


def _int(value, what: str, minimum: int = 0) -> int:
    # bool is an int subclass; JSON true is not an index.
    if type(value) is not int or value < minimum:
        raise _Invalid(f"{what} must be an integer >= {minimum}, got {value!r}")
    return value


def _list(value, what: str, cls: type) -> list:
    """A glTF array whose elements pygltflib decoded as ``cls`` objects.

    pygltflib rejects arrays of the wrong shape itself, but passes ``null``
    through, for the whole array (None) and for its elements.
    """
    if value is None:
        return []
    for i, item in enumerate(value):
        if not isinstance(item, cls):
            raise _Invalid(f"{what}[{i}] must be an object")
    return value


def _item(items: list, index, what: str, kind: str):
    i = _int(index, what)
    if i >= len(items):
        raise _Invalid(f"{what} = {i} is out of range: the file has {len(items)} {kind}")
    return i, items[i]


@dataclasses.dataclass
class _Buffer:
    data: bytes
    kind: str  # "glb" (the BIN chunk), "data" (data URI) or "file"
    uri: str | None = None
    file: Path | None = None


@dataclasses.dataclass
class _Layout:
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
                buffers[b] = _writable(buffers[b])
                view = self._view(
                    buffers[b], offset, len(self.sparse_indices), self.width * self.dtype.itemsize
                )
                view[pos[in_sparse]] = raw[in_sparse]
                touched.add(b)
        if (~in_sparse).any():
            if self.base is None:
                raise _Invalid(
                    f"accessor {self.index}: key {int(rows[~in_sparse][0])} has no storage "
                    f"(no bufferView and not in the sparse indices), so it cannot change"
                )
            b, offset, stride = self.base
            buffers[b] = _writable(buffers[b])
            self._view(buffers[b], offset, self.count, stride)[rows[~in_sparse]] = raw[~in_sparse]
            touched.add(b)
        return touched


def _writable(buf) -> bytearray:
    # Copy a buffer on its first write only; later writes go to the same copy.
    return buf if isinstance(buf, bytearray) else bytearray(buf)


def _decode(raw: np.ndarray, component: int) -> np.ndarray:
    divisor = _COMPONENTS[component][1]
    # Signalling NaNs in float data raise numpy's "invalid" flag when widened;
    # they stay NaN, which the audit reports.
    with np.errstate(invalid="ignore"):
        values = raw.astype(np.float64)
    if divisor is None:
        return values
    values /= divisor
    # Signed types: the most negative code (-128, -32768) also means -1.
    return np.maximum(values, -1.0) if raw.dtype.kind == "i" else values


def _encode(values: np.ndarray, component: int) -> np.ndarray:
    dtype, divisor, name = _COMPONENTS[component]
    if divisor is None:
        with np.errstate(invalid="ignore", over="ignore"):
            return values.astype(dtype)
    lo = -1.0 if np.dtype(dtype).kind == "i" else 0.0
    # Anything beyond half a step outside the range cannot be stored.
    if np.any(values < lo - 0.5 / divisor) or np.any(values > 1.0 + 0.5 / divisor):
        raise _Invalid(f"a corrected value is outside the range of {name} components")
    codes = np.round(np.clip(values, lo, 1.0) * divisor)
    return codes.astype(dtype)


def _json_number(value, component: int):
    # min/max hold the stored values; floats as the shortest text that reads
    # back as the same float32 (and 0.0 rather than -0.0 from negated zeros).
    return float(str(np.float32(value))) + 0.0 if component == 5126 else int(value)


@dataclasses.dataclass(frozen=True)
class _Source:
    """Where a track came from: its output accessor."""

    output: int


class GltfFile(KeyframeFile):
    """A loaded ``.gltf`` or ``.glb`` file (see the module documentation)."""

    def __init__(self, path: Path, data: bytes, *, glb: bool):
        self.format = "glb" if glb else "gltf"
        self._data = data
        self._chunks: list[tuple[int, int, int]] = []  # (type, start, end) of chunk data
        try:
            if glb:
                json_bytes, bin_chunk = self._split_glb(data)
            else:
                json_bytes, bin_chunk = data, None
            self._text = decode_utf8(path, json_bytes, "the glTF JSON")
            self._gltf = self._parse(self._text)
            self._buffers = self._load_buffers(Path(path), bin_chunk)
            self._layouts: dict[int, _Layout] = {}
            self._decoded: dict[int, np.ndarray] = {}
            tracks, self._sources = self._rotation_tracks()
        except _Invalid as exc:
            raise KeyframeFileError(path, str(exc)) from None
        super().__init__(path, tracks)

    # ----------------------------------------------------------------- containers

    def _split_glb(self, data: bytes) -> tuple[bytes, bytes | None]:
        if len(data) < 12:
            raise _Invalid(f"truncated GLB: the 12-byte header is incomplete ({len(data)} bytes)")
        _, version, length = struct.unpack_from("<4sII", data)
        if version != 2:
            raise _Invalid(f"GLB container version {version} is not supported (expected 2)")
        if length != len(data):
            what = "truncated GLB" if length > len(data) else "GLB length mismatch"
            raise _Invalid(f"{what}: the header says {length} bytes, the file has {len(data)}")
        pos = 12
        while pos < length:
            if pos + 8 > length:
                raise _Invalid(f"truncated GLB: the chunk header at byte {pos} is incomplete")
            size, kind = struct.unpack_from("<II", data, pos)
            start, end = pos + 8, pos + 8 + size
            if end > length:
                raise _Invalid(
                    f"truncated GLB: the chunk at byte {pos} needs {size} bytes, "
                    f"{length - start} remain"
                )
            self._chunks.append((kind, start, end))
            pos = end
        if not self._chunks or self._chunks[0][0] != _CHUNK_JSON:
            raise _Invalid("GLB does not start with a JSON chunk")
        bins = [c for c in self._chunks if c[0] == _CHUNK_BIN]
        if len(bins) > 1:
            raise _Invalid("GLB has more than one BIN chunk")
        _, start, end = self._chunks[0]
        return data[start:end], (data[bins[0][1] : bins[0][2]] if bins else None)

    @staticmethod
    def _parse(text: str) -> pygltflib.GLTF2:
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise _Invalid(f"not a glTF file: the JSON does not parse ({exc})") from None
        asset = doc.get("asset") if isinstance(doc, dict) else None
        version = asset.get("version") if isinstance(asset, dict) else None
        if not isinstance(version, str):
            raise _Invalid("not a glTF file: no asset.version")
        if not version.startswith("2."):
            raise _Invalid(f"glTF version {version} is not supported (expected 2.x)")
        try:
            # pygltflib builds its object model from the document; on shapes it
            # does not expect (an object where an array belongs...) it raises
            # whatever its decoder hits, so all of those mean "not valid glTF".
            return pygltflib.GLTF2.from_json(text, infer_missing=True)
        except (ValueError, TypeError, AttributeError, KeyError, ArithmeticError) as exc:
            raise _Invalid(f"invalid glTF document ({type(exc).__name__}: {exc})") from None

    def _load_buffers(self, path: Path, bin_chunk: bytes | None) -> list[_Buffer]:
        buffers = []
        for i, buf in enumerate(_list(self._gltf.buffers, "buffers", pygltflib.Buffer)):
            what = f"buffers[{i}]"
            declared = _int(buf.byteLength, f"{what}.byteLength", minimum=1)
            uri = buf.uri
            if uri is None:
                if i != 0 or bin_chunk is None:
                    raise _Invalid(f"{what} has no uri and there is no GLB BIN chunk for it")
                entry = _Buffer(bin_chunk, "glb")
            elif uri.startswith("data:"):
                entry = _Buffer(self._data_uri(uri, what), "data", uri=uri)
            else:
                file = self._resolve(path, uri, what)
                try:
                    entry = _Buffer(file.read_bytes(), "file", uri=uri, file=file)
                except OSError as exc:
                    raise _Invalid(
                        f"{what}: cannot read {file}: {exc.strerror or exc}"
                    ) from None
            if len(entry.data) < declared:
                raise _Invalid(
                    f"{what} has {len(entry.data)} bytes but byteLength says {declared}"
                )
            buffers.append(entry)
        return buffers

    @staticmethod
    def _data_uri(uri: str, what: str) -> bytes:
        header, sep, payload = uri.partition(",")
        if not sep or not header.endswith(";base64"):
            raise _Invalid(f"{what}: only base64 data URIs are supported")
        try:
            return base64.b64decode(payload, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise _Invalid(f"{what}: the base64 data URI does not decode ({exc})") from None

    @staticmethod
    def _resolve(path: Path, uri: str, what: str) -> Path:
        parts = urlsplit(uri)
        if parts.scheme or parts.netloc or uri.startswith("/"):
            raise _Invalid(f"{what}: only relative file URIs are supported, got {uri!r}")
        return path.parent / unquote(parts.path)

    # ----------------------------------------------------------------- accessors

    def _layout(self, index, what: str, *, types: tuple[str, ...], components: tuple[int, ...],
                normalized: bool) -> _Layout:
        accessors = _list(self._gltf.accessors, "accessors", pygltflib.Accessor)
        i, acc = _item(accessors, index, what, "accessors")
        if i in self._layouts:
            return self._check_kind(self._layouts[i], acc, what, types, components, normalized)
        a = f"accessors[{i}]"
        component = acc.componentType
        if type(component) is not int or component not in _COMPONENTS:
            raise _Invalid(f"{a}.componentType {component!r} is not a glTF component type")
        if not isinstance(acc.type, str) or acc.type not in _WIDTH:
            raise _Invalid(f"{a}.type {acc.type!r} is not a glTF accessor type")
        dtype = np.dtype(_COMPONENTS[component][0])
        width = _WIDTH[acc.type]
        count = _int(acc.count, f"{a}.count", minimum=1)
        elem = width * dtype.itemsize
        base = None
        if acc.bufferView is not None:
            b, start, length, stride = self._buffer_view(acc.bufferView, f"{a}.bufferView")
            stride = stride or elem
            if stride < elem:
                raise _Invalid(
                    f"{a}: byteStride {stride} is smaller than an element ({elem} bytes)"
                )
            offset = _int(acc.byteOffset if acc.byteOffset is not None else 0, f"{a}.byteOffset")
            need = offset + stride * (count - 1) + elem
            if need > length:
                raise _Invalid(
                    f"{a} needs {need} bytes of bufferView {acc.bufferView}, "
                    f"which has {length}"
                )
            base = (b, start + offset, stride)
        elif count > _MAX_ZERO_FILLED:
            raise _Invalid(f"{a}.count {count} is too large for an accessor without a bufferView")
        indices = values_at = None
        if acc.sparse is not None:
            indices, values_at = self._sparse(acc.sparse, a, count, elem)
        layout = _Layout(i, component, dtype, width, count, base, indices, values_at)
        self._layouts[i] = layout
        return self._check_kind(layout, acc, what, types, components, normalized)

    @staticmethod
    def _check_kind(layout: _Layout, acc, what: str, types, components, normalized) -> _Layout:
        a = f"accessors[{layout.index}]"
        if acc.type not in types:
            raise _Invalid(f"{what}: {a} has type {acc.type}, expected {' or '.join(types)}")
        if layout.component not in components:
            names = ", ".join(_COMPONENTS[c][2] for c in components)
            raise _Invalid(
                f"{what}: {a} stores {_COMPONENTS[layout.component][2]} components, "
                f"expected {names}"
            )
        if normalized and layout.component != 5126 and acc.normalized is not True:
            raise _Invalid(f"{what}: {a} stores integers but is not normalized")
        return layout

    def _buffer_view(self, index, what: str) -> tuple[int, int, int, int | None]:
        views = _list(self._gltf.bufferViews, "bufferViews", pygltflib.BufferView)
        i, view = _item(views, index, what, "bufferViews")
        v = f"bufferViews[{i}]"
        b, _ = _item(self._buffers, view.buffer, f"{v}.buffer", "buffers")
        start = _int(view.byteOffset if view.byteOffset is not None else 0, f"{v}.byteOffset")
        length = _int(view.byteLength, f"{v}.byteLength", minimum=1)
        stride = None
        if view.byteStride is not None:
            stride = _int(view.byteStride, f"{v}.byteStride", minimum=1)
        declared = self._gltf.buffers[b].byteLength
        if start + length > declared:
            raise _Invalid(
                f"{v} spans bytes {start}..{start + length} of buffers[{b}], "
                f"which has {declared}"
            )
        return b, start, length, stride

    def _sparse(self, sparse, a: str, count: int, elem: int):
        n = _int(sparse.count, f"{a}.sparse.count", minimum=1)
        if n > count:
            raise _Invalid(f"{a}.sparse.count {n} exceeds the accessor's count {count}")
        if not (
            isinstance(sparse.indices, pygltflib.AccessorSparseIndices)
            and isinstance(sparse.values, pygltflib.AccessorSparseValues)
        ):
            raise _Invalid(f"{a}.sparse needs indices and values")
        component = sparse.indices.componentType
        if type(component) is not int or component not in _INDEX_TYPES:
            raise _Invalid(f"{a}.sparse.indices.componentType {component!r} is not an index type")
        dtype = np.dtype(_COMPONENTS[component][0])
        indices = self._packed(sparse.indices, f"{a}.sparse.indices", n * dtype.itemsize)
        idx = np.frombuffer(self._buffers[indices[0]].data, dtype, n, indices[1]).astype(np.int64)
        if np.any(idx >= count):
            raise _Invalid(f"{a}.sparse.indices: index {int(idx.max())} is out of range ({count})")
        if np.any(np.diff(idx) <= 0):
            raise _Invalid(f"{a}.sparse.indices are not strictly increasing")
        return idx, self._packed(sparse.values, f"{a}.sparse.values", n * elem)

    def _packed(self, ref, what: str, size: int) -> tuple[int, int]:
        b, start, length, _ = self._buffer_view(ref.bufferView, f"{what}.bufferView")
        offset = _int(ref.byteOffset if ref.byteOffset is not None else 0, f"{what}.byteOffset")
        if offset + size > length:
            raise _Invalid(
                f"{what} needs {offset + size} bytes of its bufferView, which has {length}"
            )
        return b, start + offset

    def _read(self, layout: _Layout) -> np.ndarray:
        if layout.index not in self._decoded:
            raw = layout.read([b.data for b in self._buffers])
            self._decoded[layout.index] = _decode(raw, layout.component)
        return self._decoded[layout.index]

    # ----------------------------------------------------------------- tracks

    def _rotation_tracks(self) -> tuple[list[Track], list[_Source]]:
        nodes = _list(self._gltf.nodes, "nodes", pygltflib.Node)
        tracks, sources = [], []
        for a, anim in enumerate(_list(self._gltf.animations, "animations", pygltflib.Animation)):
            samplers = _list(anim.samplers, f"animations[{a}].samplers", pygltflib.AnimationSampler)
            channels = _list(anim.channels, f"animations[{a}].channels", pygltflib.AnimationChannel)
            for c, channel in enumerate(channels):
                where = f"animations[{a}].channels[{c}]"
                target = channel.target
                if not isinstance(target, pygltflib.AnimationChannelTarget):
                    raise _Invalid(f"{where} has no target")
                # glTF 2.0: "When node isn't defined, channel SHOULD be ignored"
                # (extensions use such channels to animate other things).
                if target.path != "rotation" or target.node is None:
                    continue
                node_index, node = _item(nodes, target.node, f"{where}.target.node", "nodes")
                s, sampler = _item(samplers, channel.sampler, f"{where}.sampler", "samplers")
                tracks.append(self._track(a, anim, s, sampler, node_index, node))
                sources.append(_Source(sampler.output))
        return tracks, sources

    def _track(self, a: int, anim, s: int, sampler, node_index: int, node) -> Track:
        where = f"animations[{a}].samplers[{s}]"
        mode = sampler.interpolation if sampler.interpolation is not None else "LINEAR"
        if mode not in ("LINEAR", "STEP", "CUBICSPLINE"):
            raise _Invalid(f"{where}.interpolation {mode!r} is not LINEAR, STEP or CUBICSPLINE")
        times_layout = self._layout(sampler.input, f"{where}.input", types=("SCALAR",),
                                    components=(5126,), normalized=False)
        out_layout = self._layout(sampler.output, f"{where}.output", types=("VEC4",),
                                  components=_ROTATION_TYPES, normalized=True)
        n = times_layout.count
        per_key = 3 if mode == "CUBICSPLINE" else 1
        if out_layout.count != per_key * n:
            raise _Invalid(
                f"{where}: {mode} needs {per_key * n} output elements for {n} times, "
                f"accessors[{out_layout.index}] has {out_layout.count}"
            )
        if mode == "CUBICSPLINE" and n < 2:
            raise _Invalid(f"{where}: CUBICSPLINE needs at least 2 keyframes")
        times = self._read(times_layout)[:, 0]
        elements = Q.from_xyzw(self._read(out_layout))
        kwargs = {}
        if mode == "CUBICSPLINE":
            kwargs = {"in_tangents": elements[0::3], "out_tangents": elements[2::3]}
            elements = elements[1::3]
        divisor = _COMPONENTS[out_layout.component][1]
        return Track(
            times=times,
            values=elements,
            interpolation=mode,
            animation=anim.name if isinstance(anim.name, str) else None,
            animation_index=a,
            node_name=node.name if isinstance(node.name, str) else None,
            node_index=node_index,
            quantum=1.0 / divisor if divisor else 0.0,
            storage=_COMPONENTS[out_layout.component][2],
            **kwargs,
        )

    # ----------------------------------------------------------------- writing

    @property
    def input_files(self) -> tuple[Path, ...]:
        files = [self.path] + [b.file for b in self._buffers if b.file is not None]
        for image in self._gltf.images or []:
            uri = getattr(image, "uri", None)
            if isinstance(uri, str) and not uri.startswith("data:"):
                # Remote and absolute image URIs are not ours to protect.
                with contextlib.suppress(_Invalid):
                    files.append(self._resolve(self.path, uri, "image"))
        return tuple(files)

    def _write(self, out: Path, tracks: list[Track]) -> list[Path]:
        try:
            return self._write_checked(out, tracks)
        except _Invalid as exc:
            raise KeyframeFileError(out, str(exc)) from None

    def _write_checked(self, out: Path, tracks: list[Track]) -> list[Path]:
        buffers, changed, edits = self._patch(tracks)
        companions = self._companions(out, changed)
        self.check_output_path(out, extra=companions.values())
        edits += self._uri_edits(out.parent, buffers, changed, companions)
        try:
            text = edit_json_text(self._text, edits) if edits else self._text
        except ValueError as exc:
            raise _Invalid(f"cannot edit the glTF JSON: {exc}") from None
        written = []
        for i, path in companions.items():
            atomic_write(path, bytes(buffers[i]))
            written.append(path)
        if self.format == "glb":
            glb = [i for i in changed if self._buffers[i].kind == "glb"]
            data = self._assemble_glb(
                text if edits else None, bytes(buffers[glb[0]]) if glb else None
            )
        else:
            data = text.encode("utf-8")
        atomic_write(out, data)
        written.append(out)
        return written

    def _patch(self, tracks: list[Track]) -> tuple[list, set[int], list]:
        """Buffers with the tracks' keys stored, which of them changed, min/max edits."""
        wanted: dict[int, np.ndarray] = {}
        for track, source in zip(tracks, self._sources, strict=True):
            elements = track.values
            if track.interpolation == "CUBICSPLINE":
                elements = np.stack([track.in_tangents, track.values, track.out_tangents], axis=1)
                elements = elements.reshape(-1, 4)
            elements = Q.to_xyzw(elements)
            previous = wanted.setdefault(source.output, elements)
            if not np.array_equal(previous, elements, equal_nan=True):
                raise _Invalid(
                    f"accessors[{source.output}] is shared by several tracks that were "
                    f"corrected differently"
                )
        buffers: list = [b.data for b in self._buffers]
        changed: set[int] = set()
        edits: list = []
        for index, elements in wanted.items():
            layout = self._layouts[index]
            old = self._decoded[index]
            rows = changed_rows(old, elements)
            if rows.size:
                # Only the keys that changed are encoded and stored, so the
                # bytes of every other element stay exactly as they were.
                changed |= layout.write(buffers, rows, _encode(elements[rows], layout.component))
                edits += self._minmax_edits(self._gltf.accessors[index], layout,
                                            layout.read(buffers))
        return buffers, changed, edits

    def _companions(self, out: Path, changed: set[int]) -> dict[int, Path]:
        """New files for changed external buffers: the input's files are never rewritten."""
        files = [i for i in sorted(changed) if self._buffers[i].kind == "file"]
        return {
            i: out.with_name(out.stem + (".bin" if len(files) == 1 else f".{i}.bin"))
            for i in files
        }

    def _uri_edits(self, out_dir: Path, buffers: list, changed: set[int],
                   companions: dict[int, Path]) -> list:
        moved = os.path.realpath(out_dir) != os.path.realpath(self.path.parent)
        edits = []
        for i, buf in enumerate(self._buffers):
            if buf.kind == "data" and i in changed:
                prefix = buf.uri.partition(",")[0]
                payload = base64.b64encode(bytes(buffers[i])).decode("ascii")
                edits.append((["buffers", i, "uri"], f"{prefix},{payload}"))
            elif buf.kind == "file" and i in changed:
                edits.append((["buffers", i, "uri"], quote(companions[i].name)))
            elif buf.kind == "file" and moved:
                edits.append((["buffers", i, "uri"], _relative_uri(buf.file, out_dir)))
        if moved:
            # Keep relative references working from the output's directory.
            for j, image in enumerate(self._gltf.images or []):
                uri = getattr(image, "uri", None)
                if isinstance(uri, str) and not uri.startswith("data:"):
                    with contextlib.suppress(_Invalid):
                        source = self._resolve(self.path, uri, "image")
                        edits.append((["images", j, "uri"], _relative_uri(source, out_dir)))
        return edits

    @staticmethod
    def _minmax_edits(acc, layout: _Layout, raw: np.ndarray) -> list:
        edits = []
        for key, fn in (("min", np.min), ("max", np.max)):
            old = getattr(acc, key, None)
            if not isinstance(old, list) or not old:
                continue
            new = [_json_number(v, layout.component) for v in fn(raw, axis=0)]
            if not all(np.isfinite(new)):
                continue  # NaN data has no min or max to write; keep what was there
            if len(old) != len(new) or any(
                _json_number(o, layout.component) != v for o, v in zip(old, new, strict=True)
            ):
                edits.append((["accessors", layout.index, key], new))
        return edits

    def _assemble_glb(self, text: str | None, new_bin: bytes | None) -> bytes:
        parts = []
        for kind, start, end in self._chunks:
            payload = self._data[start:end]
            if kind == _CHUNK_JSON and text is not None:
                payload = text.encode("utf-8")
                payload += b" " * (-len(payload) % 4)  # JSON chunks pad with spaces
            elif kind == _CHUNK_BIN and new_bin is not None:
                payload = new_bin
            parts.append(struct.pack("<II", len(payload), kind) + payload)
        body = b"".join(parts)
        return struct.pack("<4sII", GLB_MAGIC, 2, 12 + len(body)) + body


def _relative_uri(target: Path, directory: Path) -> str:
    return quote(Path(os.path.relpath(target, directory)).as_posix())


def load_gltf(path, data: bytes, *, order: str | None = None) -> GltfFile:
    """Load a ``.gltf`` (JSON) file's rotation tracks from its bytes."""
    _check_order(path, order)
    return GltfFile(Path(path), data, glb=False)


def load_glb(path, data: bytes, *, order: str | None = None) -> GltfFile:
    """Load a ``.glb`` (binary container) file's rotation tracks from its bytes."""
    _check_order(path, order)
    return GltfFile(Path(path), data, glb=True)


def _check_order(path, order: str | None) -> None:
    if order not in (None, "xyzw"):
        raise KeyframeFileError(
            path, f"glTF stores rotations as (x, y, z, w); component order {order!r} does not apply"
        )
