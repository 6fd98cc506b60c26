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

Writing a corrected copy is :mod:`quatlab.app.io.gltf.write`'s part of
:class:`GltfFile`.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
import struct
from pathlib import Path

import numpy as np
import pygltflib

from quatlab.app.i18n import N_, LazyText, _
from quatlab.app.io.gltf.accessors import (
    CHUNK_BIN,
    CHUNK_JSON,
    COMPONENTS,
    GLB_MAGIC,
    INDEX_TYPES,
    ROTATION_TYPES,
    WIDTH,
    Buffer,
    Invalid,
    Layout,
    Source,
    as_int,
    as_list,
    decode,
    item,
    zero_filled_limit,
)
from quatlab.app.io.gltf.document import build_document
from quatlab.app.io.gltf.write import GltfWriter
from quatlab.app.io.safe_read import FileRefused, read_regular, resolve_relative_uri
from quatlab.app.io.tracks import KeyframeFile, KeyframeFileError, Track, decode_utf8
from quatlab.math import quaternion as Q

__all__ = ["GltfFile", "load_gltf", "load_glb", "looks_like_gltf", "GLB_MAGIC"]


# Why a required extension may be ignored: it changes nothing QuatLab reads
# (docs/formats.md, "Extensions"). The reason is shown in a note.
_MATERIALS = N_("it changes only materials, which QuatLab does not read")
_TEXTURES = N_("it changes only textures and images, which QuatLab does not read")
_LIGHTS = N_("it adds lights, which QuatLab does not read")
_GEOMETRY = N_("it compresses mesh geometry only, never animation data")
_INSTANCES = N_("it draws a mesh several times; node animation is read as usual")
_METADATA = N_("it adds metadata only")

#: Required extensions that change nothing QuatLab reads, with the reason a note gives.
IGNORED_EXTENSIONS = {
    **dict.fromkeys((
        "KHR_materials_common", "KHR_technique_webgl", "KHR_techniques_webgl",
        "KHR_materials_unlit", "KHR_materials_emissive_strength", "KHR_materials_clearcoat",
        "KHR_materials_transmission", "KHR_materials_volume", "KHR_materials_ior",
        "KHR_materials_specular", "KHR_materials_sheen", "KHR_materials_iridescence",
        "KHR_materials_anisotropy", "KHR_materials_dispersion", "KHR_materials_variants",
        "KHR_materials_diffuse_transmission", "KHR_materials_pbrSpecularGlossiness"), _MATERIALS),
    **dict.fromkeys(("KHR_texture_transform", "KHR_texture_basisu", "EXT_texture_webp",
                     "EXT_texture_avif", "MSFT_texture_dds"), _TEXTURES),
    **dict.fromkeys(("KHR_lights_punctual", "EXT_lights_image_based"), _LIGHTS),
    "KHR_draco_mesh_compression": _GEOMETRY,
    "EXT_mesh_gpu_instancing": _INSTANCES,
    **dict.fromkeys(("KHR_xmp", "KHR_xmp_json_ld"), _METADATA),
}
#: Required extensions QuatLab implements (integer vertex attributes; rotation
#: outputs may be normalized integers anyway).
IMPLEMENTED_EXTENSIONS = frozenset({"KHR_mesh_quantization"})
# Any other required extension is refused: EXT_meshopt_compression changes how
# buffer views are read, KHR_animation_pointer what channels animate, and an
# extension QuatLab does not know might do either; misread keys would be worse
# than a refusal.


def _check_required_extensions(required) -> list[str]:
    """Notes for the required extensions ignored; :class:`Invalid` for one that is not."""
    if required is None:
        return []
    if not isinstance(required, list) or not all(isinstance(e, str) for e in required):
        raise Invalid(_("extensionsRequired must be an array of strings"))
    unknown = [e for e in required
               if e not in IGNORED_EXTENSIONS and e not in IMPLEMENTED_EXTENSIONS]
    if unknown:
        text = (_("the file requires the extensions {names}, which QuatLab does not implement "
                  "(it may change how buffers or animation data are read); refusing rather than "
                  "misreading the keys") if len(unknown) > 1 else
                _("the file requires the extension {names}, which QuatLab does not implement "
                  "(it may change how buffers or animation data are read); refusing rather than "
                  "misreading the keys"))
        raise Invalid(text.format(names=", ".join(unknown)))
    return [LazyText(N_("required extension {name} ignored: {reason}"), name=e,
                     reason=LazyText(IGNORED_EXTENSIONS[e]))
            for e in dict.fromkeys(required) if e in IGNORED_EXTENSIONS]

#: Extensions that keep a compressed copy of a buffer view beside its plain fallback.
COMPRESSION_EXTENSIONS = ("EXT_meshopt_compression", "KHR_meshopt_compression")


def looks_like_gltf(data: bytes) -> bool:
    """Whether JSON ``data`` is a glTF document (an object with ``"asset"``), not a track file."""
    return is_gltf_document(parse_json(data))


def parse_json(data: bytes):
    """``data`` as JSON, or None when it is not UTF-8 JSON."""
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None


def is_gltf_document(doc) -> bool:
    """Whether parsed JSON is a glTF document (an object with ``"asset"``), not a track file."""
    return isinstance(doc, dict) and "asset" in doc and "tracks" not in doc


class GltfFile(GltfWriter, KeyframeFile):
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
            self._text = decode_utf8(path, json_bytes, _("the glTF JSON"))
            self._gltf = self._parse(self._text)
            self._lists: dict[str, list] = {}
            self._buffers = self._load_buffers(Path(path), bin_chunk)
            self._file_bytes = len(data) + sum(
                len(b.data) for b in self._buffers if b.kind == "file"
            )
            self._zero_limit = zero_filled_limit(self._file_bytes)
            self._layouts: dict[int, Layout] = {}
            self._decoded: dict[int, np.ndarray] = {}
            self._shared: dict[tuple, np.ndarray] = {}
            tracks, self._sources = self._rotation_tracks()
            self.notes += tuple(self._fallback_notes())
        except Invalid as exc:
            raise KeyframeFileError(path, str(exc)) from None
        super().__init__(path, tracks)

    # ----------------------------------------------------------------- containers

    def _split_glb(self, data: bytes) -> tuple[bytes, bytes | None]:
        if len(data) < 12:
            raise Invalid(_("truncated GLB: the 12-byte header is incomplete ({size} "
                            "bytes)").format(size=len(data)))
        _magic, version, length = struct.unpack_from("<4sII", data)
        if version != 2:
            raise Invalid(_("GLB container version {version} is not supported (expected"
                            " 2)").format(version=version))
        if length != len(data):
            what = _("truncated GLB") if length > len(data) else _("GLB length mismatch")
            raise Invalid(_("{what}: the header says {length} bytes, the file has "
                            "{size}").format(what=what, length=length, size=len(data)))
        pos = 12
        while pos < length:
            if pos + 8 > length:
                raise Invalid(_("truncated GLB: the chunk header at byte {pos} is "
                                "incomplete").format(pos=pos))
            size, kind = struct.unpack_from("<II", data, pos)
            start, end = pos + 8, pos + 8 + size
            if end > length:
                raise Invalid(
                    _("truncated GLB: the chunk at byte {pos} needs {size} bytes, "
                      "{length_start} remain").format(
                        pos=pos, size=size, length_start=length - start)
                )
            self._chunks.append((kind, start, end))
            pos = end
        if not self._chunks or self._chunks[0][0] != CHUNK_JSON:
            raise Invalid(_("GLB does not start with a JSON chunk"))
        bins = [c for c in self._chunks if c[0] == CHUNK_BIN]
        if len(bins) > 1:
            raise Invalid(_("GLB has more than one BIN chunk"))
        _kind, start, end = self._chunks[0]
        return data[start:end], (data[bins[0][1] : bins[0][2]] if bins else None)

    def _parse(self, text: str) -> pygltflib.GLTF2:
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise Invalid(_("not a glTF file: the JSON does not parse ({exc})").format(
                exc=exc)) from None
        asset = doc.get("asset") if isinstance(doc, dict) else None
        version = asset.get("version") if isinstance(asset, dict) else None
        if not isinstance(version, str):
            raise Invalid(_("not a glTF file: no asset.version"))
        if not version.startswith("2."):
            raise Invalid(_("glTF version {version} is not supported (expected 2.x)").format(
                              version=version))
        self.notes = tuple(_check_required_extensions(doc.get("extensionsRequired")))
        try:
            # The JSON is parsed once; pygltflib's objects are built from it
            # directly, keeping every value as written (docs/formats.md).
            return build_document(doc)
        except (ValueError, TypeError) as exc:
            raise Invalid(_("invalid glTF document ({exc})").format(exc=exc)) from None

    def _load_buffers(self, path: Path, bin_chunk: bytes | None) -> list[Buffer]:
        buffers = []
        for i, buf in enumerate(as_list(self._gltf.buffers, "buffers", pygltflib.Buffer)):
            what = f"buffers[{i}]"
            declared = as_int(buf.byteLength, f"{what}.byteLength", minimum=1)
            uri = buf.uri
            if uri is None:
                if i != 0 or bin_chunk is None:
                    raise Invalid(_("{what} has no uri and there is no GLB BIN chunk "
                                    "for it").format(what=what))
                entry = Buffer(bin_chunk, "glb")
            elif uri.startswith("data:"):
                entry = Buffer(self._data_uri(uri, what), "data", uri=uri)
            else:
                file = self._resolve(path, uri, what)
                try:
                    # Never more than the declared length: a longer file is
                    # read only that far, a shorter one is refused.
                    data = read_regular(file, length=declared, length_name="byteLength")
                except FileRefused as exc:
                    raise Invalid(f"{what} ({uri!r}): {exc.problem}") from None
                entry = Buffer(data, "file", uri=uri, file=file)
            if len(entry.data) < declared:
                raise Invalid(
                    _("{what} has {len_entry_data} bytes but byteLength says {declared}").format(
                        what=what, len_entry_data=len(entry.data), declared=declared)
                )
            buffers.append(entry)
        return buffers

    @staticmethod
    def _data_uri(uri: str, what: str) -> bytes:
        header, sep, payload = uri.partition(",")
        if not sep or not header.endswith(";base64"):
            raise Invalid(_("{what}: only base64 data URIs are supported").format(what=what))
        try:
            return base64.b64decode(payload, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise Invalid(_("{what}: the base64 data URI does not decode ({exc})").format(
                              what=what, exc=exc)) from None

    @staticmethod
    def _resolve(path: Path, uri: str, what: str) -> Path:
        # docs/formats.md, "Safety rules for readers and writers".
        if not isinstance(uri, str):
            raise Invalid(_("{what}.uri must be a string, got {uri!r}").format(
                              what=what, uri=uri))
        try:
            return resolve_relative_uri(path, uri)
        except ValueError as exc:
            raise Invalid(f"{what}: {exc}") from None

    # ----------------------------------------------------------------- accessors

    def _list(self, name: str, cls: type) -> list:
        """A top-level array, validated once (lookups per channel stay O(1))."""
        got = self._lists.get(name)
        if got is None:
            got = self._lists[name] = as_list(getattr(self._gltf, name), name, cls)
        return got

    def accessor_layout(self, index, what: str, *, types: tuple[str, ...],
                        components: tuple[int, ...], normalized: bool) -> Layout:
        """The validated layout of ``accessors[index]`` (checked against ``types``, ...)."""
        accessors = self._list("accessors", pygltflib.Accessor)
        i, acc = item(accessors, index, what, "accessors")
        if i in self._layouts:
            return self._check_kind(self._layouts[i], acc, what, types, components, normalized)
        a = f"accessors[{i}]"
        component = acc.componentType
        if type(component) is not int or component not in COMPONENTS:
            raise Invalid(_("{a}.componentType {component!r} is not a glTF component "
                            "type").format(a=a, component=component))
        if not isinstance(acc.type, str) or acc.type not in WIDTH:
            raise Invalid(_("{a}.type {acc_type!r} is not a glTF accessor type").format(
                              a=a, acc_type=acc.type))
        dtype = np.dtype(COMPONENTS[component][0])
        width = WIDTH[acc.type]
        count = as_int(acc.count, f"{a}.count", minimum=1)
        elem = width * dtype.itemsize
        base = None
        if acc.bufferView is not None:
            b, start, length, stride = self._buffer_view(acc.bufferView, f"{a}.bufferView")
            stride = stride or elem
            if stride < elem:
                raise Invalid(
                    _("{a}: byteStride {stride} is smaller than an element ({elem} "
                      "bytes)").format(a=a, stride=stride, elem=elem)
                )
            offset = as_int(acc.byteOffset if acc.byteOffset is not None else 0, f"{a}.byteOffset")
            need = offset + stride * (count - 1) + elem
            if need > length:
                raise Invalid(
                    _("{a} needs {need} bytes of bufferView {acc_bufferview}, which has"
                      " {length}").format(
                        a=a, need=need, acc_bufferview=acc.bufferView, length=length)
                )
            base = (b, start + offset, stride)
        elif count > self._zero_limit:
            raise Invalid(
                _("{a}.count {count} is too large for an accessor without a bufferView "
                  "in a file of {self__file_bytes} bytes (at most {self__zero_limit} "
                  "zero-filled elements: 16 per byte of data, at least 65,536, at most "
                  "2**24)").format(
                    a=a, count=count, self__file_bytes=self._file_bytes,
                    self__zero_limit=self._zero_limit)
            )
        indices = values_at = None
        if acc.sparse is not None:
            indices, values_at = self._sparse(acc.sparse, a, count, elem)
        layout = Layout(i, component, dtype, width, count, base, indices, values_at)
        self._layouts[i] = layout
        return self._check_kind(layout, acc, what, types, components, normalized)

    @staticmethod
    def _check_kind(layout: Layout, acc, what: str, types, components, normalized) -> Layout:
        a = f"accessors[{layout.index}]"
        if acc.type not in types:
            raise Invalid(_("{what}: {a} has type {acc_type}, expected {or_join_types}").format(
                              what=what, a=a, acc_type=acc.type, or_join_types=' or '.join(types)))
        if layout.component not in components:
            names = ", ".join(COMPONENTS[c][2] for c in components)
            raise Invalid(
                _("{what}: {a} stores {components_layout_co} components, expected "
                  "{names}").format(
                    what=what, a=a, components_layout_co=COMPONENTS[layout.component][2],
                    names=names)
            )
        if normalized and layout.component != 5126 and acc.normalized is not True:
            raise Invalid(_("{what}: {a} stores integers but is not normalized").format(
                              what=what, a=a))
        return layout

    def _buffer_view(self, index, what: str) -> tuple[int, int, int, int | None]:
        views = self._list("bufferViews", pygltflib.BufferView)
        i, view = item(views, index, what, "bufferViews")
        v = f"bufferViews[{i}]"
        b, _buffer = item(self._buffers, view.buffer, f"{v}.buffer", "buffers")
        start = as_int(view.byteOffset if view.byteOffset is not None else 0, f"{v}.byteOffset")
        length = as_int(view.byteLength, f"{v}.byteLength", minimum=1)
        stride = None
        if view.byteStride is not None:
            stride = as_int(view.byteStride, f"{v}.byteStride", minimum=1)
        declared = self._gltf.buffers[b].byteLength
        if start + length > declared:
            raise Invalid(
                _("{v} spans bytes {start}..{start_length} of buffers[{b}], which has "
                  "{declared}").format(
                    v=v, start=start, start_length=start + length, b=b, declared=declared)
            )
        return b, start, length, stride

    def _sparse(self, sparse, a: str, count: int, elem: int):
        n = as_int(sparse.count, f"{a}.sparse.count", minimum=1)
        if n > count:
            raise Invalid(_("{a}.sparse.count {n} exceeds the accessor's count {count}").format(
                              a=a, n=n, count=count))
        if not (
            isinstance(sparse.indices, pygltflib.AccessorSparseIndices)
            and isinstance(sparse.values, pygltflib.AccessorSparseValues)
        ):
            raise Invalid(_("{a}.sparse needs indices and values").format(a=a))
        component = sparse.indices.componentType
        if type(component) is not int or component not in INDEX_TYPES:
            raise Invalid(_("{a}.sparse.indices.componentType {component!r} is not an "
                            "index type").format(a=a, component=component))
        dtype = np.dtype(COMPONENTS[component][0])
        indices = self._packed(sparse.indices, f"{a}.sparse.indices", n * dtype.itemsize)
        idx = np.frombuffer(self._buffers[indices[0]].data, dtype, n, indices[1]).astype(np.int64)
        if np.any(idx >= count):
            raise Invalid(_("{a}.sparse.indices: index {int_idx_max} is out of range "
                            "({count})").format(a=a, int_idx_max=int(idx.max()), count=count))
        if np.any(np.diff(idx) <= 0):
            raise Invalid(_("{a}.sparse.indices are not strictly increasing").format(a=a))
        return idx, self._packed(sparse.values, f"{a}.sparse.values", n * elem)

    def _packed(self, ref, what: str, size: int) -> tuple[int, int]:
        b, start, length, _stride = self._buffer_view(ref.bufferView, f"{what}.bufferView")
        offset = as_int(ref.byteOffset if ref.byteOffset is not None else 0, f"{what}.byteOffset")
        if offset + size > length:
            raise Invalid(
                _("{what} needs {offset_size} bytes of its bufferView, which has "
                  "{length}").format(what=what, offset_size=offset + size, length=length)
            )
        return b, start + offset

    def view_bytes(self, index, what: str) -> bytes:
        """The bytes of ``bufferViews[index]`` (an image's), checked as an accessor's view is."""
        b, start, length, _stride = self._buffer_view(index, what)
        return bytes(self._buffers[b].data[start:start + length])

    def data_uri(self, uri: str, what: str) -> bytes:
        """The bytes of a base64 data URI (an image's), as a buffer's are decoded."""
        return self._data_uri(uri, what)

    def resolve_uri(self, uri, what: str) -> Path:
        """The file a relative URI names, inside the asset's folder (docs/formats.md)."""
        return self._resolve(self.path, uri, what)

    @property
    def document(self) -> pygltflib.GLTF2:
        """The parsed glTF JSON (pygltflib objects), for readers of the rest of the scene."""
        return self._gltf

    def node_parents(self) -> dict[int, int]:
        """Each node's parent, from the nodes' ``children`` (entries that are no node index
        are left out: the scene graph's own reader reports them)."""
        nodes = self._gltf.nodes or []
        parents: dict[int, int] = {}
        for i, node in enumerate(nodes):
            for c in getattr(node, "children", None) or []:
                if isinstance(c, int) and not isinstance(c, bool) and 0 <= c < len(nodes):
                    parents.setdefault(c, i)
        return parents

    def read_raw(self, layout: Layout) -> np.ndarray:
        """An accessor's stored values, not normalized (indices, joint numbers)."""
        return layout.read([b.data for b in self._buffers])

    def read_accessor(self, layout: Layout) -> np.ndarray:
        """An accessor's values as float64, normalized integers mapped to [-1, 1]; cached."""
        if layout.index not in self._decoded:
            values = decode(self.read_raw(layout), layout.component)
            values.flags.writeable = False  # shared by every track that uses it
            self._decoded[layout.index] = values
        return self._decoded[layout.index]

    def _shared_view(self, key: tuple, make) -> np.ndarray:
        # The same view object for every track, so their audits are shared too.
        if key not in self._shared:
            self._shared[key] = make()
        return self._shared[key]

    def _rotations(self, layout: Layout) -> np.ndarray:
        """An output accessor as read-only (w, x, y, z) keys, decoded once for all its tracks."""
        key = ("wxyz", layout.index)
        if key not in self._shared:
            q = Q.from_xyzw(self.read_accessor(layout))
            q.flags.writeable = False
            self._shared[key] = q
        return self._shared[key]

    # ----------------------------------------------------------------- tracks

    def _rotation_tracks(self) -> tuple[list[Track], list[Source]]:
        nodes = self._list("nodes", pygltflib.Node)
        tracks, sources = [], []
        for a, anim in enumerate(as_list(self._gltf.animations, "animations", pygltflib.Animation)):
            where = f"animations[{a}]"
            samplers = as_list(anim.samplers, f"{where}.samplers", pygltflib.AnimationSampler)
            channels = as_list(anim.channels, f"{where}.channels", pygltflib.AnimationChannel)
            for c, channel in enumerate(channels):
                where = f"animations[{a}].channels[{c}]"
                target = channel.target
                if not isinstance(target, pygltflib.AnimationChannelTarget):
                    raise Invalid(_("{where} has no target").format(where=where))
                # glTF 2.0: "When node isn't defined, channel SHOULD be ignored"
                # (extensions use such channels to animate other things).
                if target.path != "rotation" or target.node is None:
                    continue
                node_index, node = item(nodes, target.node, f"{where}.target.node", "nodes")
                s, sampler = item(samplers, channel.sampler, f"{where}.sampler", "samplers")
                tracks.append(self._track(a, anim, s, sampler, node_index, node))
                sources.append(Source(sampler.output, sampler.input))
        return tracks, sources

    def _track(self, a: int, anim, s: int, sampler, node_index: int, node) -> Track:
        where = f"animations[{a}].samplers[{s}]"
        mode = sampler.interpolation if sampler.interpolation is not None else "LINEAR"
        if mode not in ("LINEAR", "STEP", "CUBICSPLINE"):
            raise Invalid(_("{where}.interpolation {mode!r} is not LINEAR, STEP or "
                            "CUBICSPLINE").format(where=where, mode=mode))
        times_layout = self.accessor_layout(sampler.input, f"{where}.input", types=("SCALAR",),
                                    components=(5126,), normalized=False)
        out_layout = self.accessor_layout(sampler.output, f"{where}.output", types=("VEC4",),
                                  components=ROTATION_TYPES, normalized=True)
        n = times_layout.count
        per_key = 3 if mode == "CUBICSPLINE" else 1
        if out_layout.count != per_key * n:
            raise Invalid(
                _("{where}: {mode} needs {per_key_n} output elements for {n} times, "
                  "accessors[{out_layout_index}] has {out_layout_count}").format(
                    where=where, mode=mode, per_key_n=per_key * n, n=n,
                    out_layout_index=out_layout.index, out_layout_count=out_layout.count)
            )
        if mode == "CUBICSPLINE" and n < 2:
            raise Invalid(_("{where}: CUBICSPLINE needs at least 2 keyframes").format(
                              where=where))
        times = self._shared_view(("times", times_layout.index),
                                  lambda: self.read_accessor(times_layout)[:, 0])
        elements = self._rotations(out_layout)
        kwargs = {}
        if mode == "CUBICSPLINE":
            i = out_layout.index
            kwargs = {"in_tangents": self._shared_view(("in", i), lambda: elements[0::3]),
                      "out_tangents": self._shared_view(("out", i), lambda: elements[2::3])}
            elements = self._shared_view(("value", i), lambda: elements[1::3])
        divisor = COMPONENTS[out_layout.component][1]
        return Track(
            times=times,
            values=elements,
            interpolation=mode,
            animation=anim.name if isinstance(anim.name, str) else None,
            animation_index=a,
            node_name=node.name if isinstance(node.name, str) else None,
            node_index=node_index,
            quantum=1.0 / divisor if divisor else 0.0,
            storage=COMPONENTS[out_layout.component][2],
            **kwargs,
        )

    def compressed_views(self, index: int) -> list[tuple[int, str]]:
        """``(bufferView, extension)`` for each view of ``accessors[index]`` with a compressed copy.

        Players that implement the extension read the compressed copy; QuatLab
        reads (and ``fix`` could only change) the uncompressed fallback.
        """
        acc = self._gltf.accessors[index]
        refs = [acc.bufferView]
        if acc.sparse is not None:
            refs += [acc.sparse.indices.bufferView, acc.sparse.values.bufferView]
        found = []
        for ref in refs:
            if ref is None:
                continue
            ext = self._gltf.bufferViews[ref].extensions or {}
            found += [(ref, name) for name in COMPRESSION_EXTENSIONS if name in ext]
        return found

    def _fallback_notes(self) -> list[str]:
        """A note for each rotation accessor (times or keys) read from a compressed view's fallback.

        ``check`` audits the fallback, which meshopt-aware players do not read
        (docs/formats.md, "Extensions").
        """
        notes = []
        for layout_index in dict.fromkeys(
                i for source in self._sources for i in (source.input, source.output)):
            for ref, name in self.compressed_views(layout_index):
                notes.append(LazyText(N_(
                    "accessors[{index}] (rotation keys or their times) is stored in "
                    "bufferViews[{ref}] with {name}: QuatLab audits its uncompressed fallback; "
                    "players that implement {name} read the compressed copy, which QuatLab does "
                    "not decode"), index=layout_index, ref=ref, name=name))
        return notes

    # ----------------------------------------------------------------- writing

    @property
    def input_files(self) -> tuple[Path, ...]:
        files = [self.path] + [b.file for b in self._buffers if b.file is not None]
        for image in self._gltf.images or []:
            uri = getattr(image, "uri", None)
            if isinstance(uri, str) and not uri.startswith("data:"):
                # Remote and absolute image URIs are not ours to protect.
                with contextlib.suppress(Invalid):
                    files.append(self._resolve(self.path, uri, "image"))
        return tuple(files)


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
            path, _("glTF stores rotations as (x, y, z, w); component order {order!r} "
                    "does not apply").format(order=order)
        )
