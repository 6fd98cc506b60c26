"""glTF decoding and write-back: generated variants (GLB, external .bin, normalized
integers, sparse, CUBICSPLINE, byteStride) and every error path.

The fixtures are built here with pygltflib from key values chosen by the
test; the expected decoded values follow the glTF specification's formulas,
written out independently below, and byte-level checks compare whole buffers.
"""

from __future__ import annotations

import base64
import copy
import dataclasses
import json
import struct
from pathlib import Path

import numpy as np
import pygltflib
import pytest
from scipy.spatial.transform import Rotation

from quatlab.app.io import keyframe_files as KF
from quatlab.app.io import track_audit as TA
from quatlab.app.io import tracks as kt
from quatlab.math.quaternion import to_xyzw

DATA = Path(__file__).parent / "data" / "gltf"

# glTF 2.0, 3.11 "Animations" / accessor normalization: componentType -> (dtype, divisor).
SPEC = {5126: ("<f4", None), 5120: ("<i1", 127), 5121: ("<u1", 255), 5122: ("<i2", 32767),
        5123: ("<u2", 65535)}


def quantize(values, component):
    dtype, div = SPEC[component]
    v = np.asarray(values, dtype=np.float64)
    return v.astype(dtype) if div is None else np.round(v * div).astype(dtype)


def dequantize(codes, component):
    dtype, div = SPEC[component]
    c = np.asarray(codes).astype(np.float64)
    if div is None:
        return c
    return np.maximum(c / div, -1.0) if np.dtype(dtype).kind == "i" else c / div


# A track that needs fixing: 6 keys about an oblique axis, keys 2 and 3 stored as -q.
def sample_keys(n=6):
    rots = Rotation.from_rotvec(np.outer(np.linspace(0, 2.5, n), [0.48, 0.6, 0.64]))
    xyzw = rots.as_quat()
    xyzw[2:4] *= -1
    return xyzw


def build(xyzw, *, component=5126, interpolation="LINEAR", stride=None, sparse_rows=(),
          minmax=True, times=None):
    """A glTF document (dict) and its single buffer: one rotation track, one translation
    track on another node, a mesh. ``xyzw`` holds every output element (3 per key for
    CUBICSPLINE). Returns (doc, blob, layout) where layout gives the byte ranges of the
    rotation output elements in the blob."""
    xyzw = np.asarray(xyzw, dtype=np.float64)
    per_key = 3 if interpolation == "CUBICSPLINE" else 1
    n = len(xyzw) // per_key
    times = np.arange(n, dtype=np.float32) / 4 if times is None else np.float32(times)
    blob = bytearray()
    views = []

    def add_view(data: bytes, byte_stride=None) -> int:
        blob.extend(b"\0" * (-len(blob) % 4))
        views.append(pygltflib.BufferView(buffer=0, byteOffset=len(blob), byteLength=len(data),
                                          byteStride=byte_stride))
        blob.extend(data)
        return len(views) - 1

    codes = quantize(xyzw, component)
    elem = codes.dtype.itemsize * 4
    base = codes.copy()
    for r in sparse_rows:  # base data under sparse rows is garbage the loader must not use
        base[r] = quantize([0.5, 0.5, 0.5, 0.5], component)
    rows = [base[i].tobytes() + b"\xab" * ((stride or elem) - elem) for i in range(len(base))]
    out_view = add_view(b"".join(rows), stride)
    out_start = views[out_view].byteOffset
    element_ranges = [(out_start + i * (stride or elem), elem) for i in range(len(base))]
    times_view = add_view(times.tobytes())
    sparse = None
    if len(sparse_rows):
        idx = np.array(sparse_rows, dtype="<u2")
        iv = add_view(idx.tobytes())
        vv = add_view(codes[idx].tobytes())
        sparse = pygltflib.Sparse(
            count=len(idx),
            indices=pygltflib.AccessorSparseIndices(bufferView=iv, componentType=5123),
            values=pygltflib.AccessorSparseValues(bufferView=vv),
        )
        element_ranges = [(views[vv].byteOffset + k * elem, elem) for k in range(len(idx))] + [
            r for i, r in enumerate(element_ranges) if i not in set(sparse_rows)
        ]
    trans_view = add_view(np.arange(n * 3, dtype="<f4").tobytes())
    pos_view = add_view(np.eye(3, dtype="<f4").tobytes())
    accessors = [
        pygltflib.Accessor(bufferView=times_view, componentType=5126, count=n, type="SCALAR",
                           min=[float(times.min())], max=[float(times.max())]),
        pygltflib.Accessor(bufferView=out_view, componentType=component,
                           normalized=component != 5126, count=len(codes), type="VEC4",
                           sparse=sparse),
        pygltflib.Accessor(bufferView=trans_view, componentType=5126, count=n, type="VEC3"),
        pygltflib.Accessor(bufferView=pos_view, componentType=5126, count=3, type="VEC3",
                           min=[0, 0, 0], max=[1, 1, 1]),
    ]
    if minmax:
        stored = codes.astype(np.float64)
        accessors[1].min = [float(v) for v in stored.min(axis=0)]
        accessors[1].max = [float(v) for v in stored.max(axis=0)]
    gltf = pygltflib.GLTF2(
        scene=0,
        scenes=[pygltflib.Scene(nodes=[0, 1])],
        nodes=[pygltflib.Node(name="Joint"), pygltflib.Node(name="Mover", mesh=0)],
        meshes=[pygltflib.Mesh(primitives=[pygltflib.Primitive(
            attributes=pygltflib.Attributes(POSITION=3))])],
        accessors=accessors,
        bufferViews=views,
        buffers=[pygltflib.Buffer(byteLength=len(blob))],
        animations=[pygltflib.Animation(
            name="Anim",
            samplers=[pygltflib.AnimationSampler(input=0, output=1, interpolation=interpolation),
                      pygltflib.AnimationSampler(input=0, output=2)],
            channels=[
                pygltflib.AnimationChannel(sampler=0, target=pygltflib.AnimationChannelTarget(
                    node=0, path="rotation")),
                pygltflib.AnimationChannel(sampler=1, target=pygltflib.AnimationChannelTarget(
                    node=1, path="translation")),
            ],
        )],
    )
    doc = json.loads(gltf.gltf_to_json())
    return doc, bytes(blob), element_ranges


def data_uri(blob: bytes) -> str:
    return "data:application/octet-stream;base64," + base64.b64encode(blob).decode("ascii")


def write_gltf(path: Path, doc: dict, blob: bytes) -> Path:
    doc = copy.deepcopy(doc)
    doc["buffers"][0]["uri"] = data_uri(blob)
    path.write_text(json.dumps(doc, indent=2))
    return path


def write_bin(path: Path, doc: dict, blob: bytes, bin_name: str | None = None) -> Path:
    doc = copy.deepcopy(doc)
    bin_name = bin_name or path.stem + ".bin"
    doc["buffers"][0]["uri"] = bin_name
    (path.parent / bin_name).write_bytes(blob)
    path.write_text(json.dumps(doc, indent=2))
    return path


def glb_bytes(json_bytes: bytes, bin_chunk: bytes | None) -> bytes:
    """A GLB container written from the GLB chapter of the spec."""
    json_bytes += b" " * (-len(json_bytes) % 4)
    body = struct.pack("<II", len(json_bytes), 0x4E4F534A) + json_bytes
    if bin_chunk is not None:
        bin_chunk += b"\0" * (-len(bin_chunk) % 4)
        body += struct.pack("<II", len(bin_chunk), 0x004E4942) + bin_chunk
    return struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body


def write_glb(path: Path, doc: dict, blob: bytes) -> Path:
    doc = copy.deepcopy(doc)
    doc["buffers"][0].pop("uri", None)
    path.write_bytes(glb_bytes(json.dumps(doc).encode(), blob))
    return path


def glb_parts(data: bytes) -> tuple[dict, bytes]:
    g = pygltflib.GLTF2.load_from_bytes(data)  # an independent GLB reader
    json_len = struct.unpack_from("<I", data, 12)[0]
    return json.loads(data[20 : 20 + json_len]), g.binary_blob()


WRITERS = {"gltf": write_gltf, "bin": write_bin, "glb": write_glb}
SUFFIX = {"gltf": ".gltf", "bin": ".gltf", "glb": ".glb"}


def read_back(path: Path, kind: str) -> tuple[dict, bytes]:
    """JSON document and buffer 0 of a written file, read without the code under test."""
    if kind == "glb":
        return glb_parts(path.read_bytes())
    doc = json.loads(path.read_text())
    uri = doc["buffers"][0]["uri"]
    if uri.startswith("data:"):
        return doc, base64.b64decode(uri.split(",", 1)[1])
    return doc, (path.parent / uri).read_bytes()


def changed_bytes(a: bytes, b: bytes) -> set[int]:
    assert len(a) == len(b)
    x, y = np.frombuffer(a, np.uint8), np.frombuffer(b, np.uint8)
    return set(np.flatnonzero(x != y).tolist())


def strip(doc: dict) -> dict:
    """The document without what a fix may change: buffer URIs, rotation min/max."""
    doc = copy.deepcopy(doc)
    for b in doc["buffers"]:
        b.pop("uri", None)
    doc["accessors"][1].pop("min", None)
    doc["accessors"][1].pop("max", None)
    return doc


# --------------------------------------------------------------------------- decoding


@pytest.mark.parametrize("kind", ["gltf", "bin", "glb"])
@pytest.mark.parametrize("component", [5126, 5120, 5122])
def test_decode_matches_the_spec_formulas(tmp_path, kind, component):
    xyzw = sample_keys()
    doc, blob, _ = build(xyzw, component=component)
    path = WRITERS[kind](tmp_path / f"a{SUFFIX[kind]}", doc, blob)
    kf = KF.load_keyframes(path)
    assert kf.format == ("glb" if kind == "glb" else "gltf")
    (t,) = kf.tracks
    expected = dequantize(quantize(xyzw, component), component)
    np.testing.assert_array_equal(to_xyzw(t.values), expected)
    np.testing.assert_array_equal(t.times, np.float32(np.arange(6) / 4))
    assert (t.node_name, t.node_index, t.animation, t.animation_index) == ("Joint", 0, "Anim", 0)
    assert t.quantum == (0 if component == 5126 else 1 / SPEC[component][1])
    assert [(f.kind, f.keys) for f in TA.audit_track(t)] == [("sign_flip", (1, 2)),
                                                          ("sign_flip", (3, 4))]


def test_most_negative_codes_decode_to_minus_one(tmp_path):
    doc, blob, _ = build(np.zeros((2, 4)), component=5120)
    blob = bytearray(blob)
    blob[0:8] = struct.pack("<8b", -128, 0, 0, 127, 0, 0, -127, -128)
    (t,) = KF.load_keyframes(write_gltf(tmp_path / "a.gltf", doc, bytes(blob))).tracks
    np.testing.assert_array_equal(to_xyzw(t.values), [[-1, 0, 0, 1], [0, 0, -1, -1]])


@pytest.mark.parametrize("component", [5121, 5123])
def test_unsigned_normalized(tmp_path, component):
    xyzw = np.abs(sample_keys())
    doc, blob, _ = build(xyzw, component=component)
    (t,) = KF.load_keyframes(write_gltf(tmp_path / "a.gltf", doc, blob)).tracks
    np.testing.assert_array_equal(to_xyzw(t.values), dequantize(quantize(xyzw, component),
                                                                component))
    # No key can be stored negated in unsigned components.
    bad = dataclasses.replace(t, values=-t.values)
    kf = KF.load_keyframes(tmp_path / "a.gltf")
    with pytest.raises(kt.KeyframeFileError, match="outside the range of normalized unsigned"):
        kf.write_copy(tmp_path / "o.gltf", [bad])


def test_byte_stride_and_sparse(tmp_path):
    xyzw = sample_keys()
    doc, blob, _ = build(xyzw, stride=24, sparse_rows=[1, 3])
    (t,) = KF.load_keyframes(write_gltf(tmp_path / "a.gltf", doc, blob)).tracks
    np.testing.assert_array_equal(to_xyzw(t.values), np.float32(xyzw))


def test_accessor_without_buffer_view_is_zeros_plus_sparse(tmp_path):
    xyzw = sample_keys()
    doc, blob, _ = build(xyzw, sparse_rows=[0, 2, 5])
    del doc["accessors"][1]["bufferView"]
    (t,) = KF.load_keyframes(write_gltf(tmp_path / "a.gltf", doc, blob)).tracks
    expected = np.zeros((6, 4))
    expected[[0, 2, 5]] = np.float32(xyzw[[0, 2, 5]])
    np.testing.assert_array_equal(to_xyzw(t.values), expected)
    assert [f.kind for f in TA.audit_track(t)].count("zero") == 3


def test_step_interpolation(tmp_path):
    doc, blob, _ = build(sample_keys(), interpolation="STEP", component=5120)
    src = write_glb(tmp_path / "a.glb", doc, blob)
    (t,) = KF.load_keyframes(src).tracks
    assert t.interpolation == "STEP"
    findings = TA.audit_track(t)
    assert [f.kind for f in findings] == ["sign_flip", "sign_flip"]
    assert all("STEP holds each key" in f.message for f in findings)
    KF.fix_file(src, tmp_path / "o.glb")
    (fixed,) = KF.load_keyframes(tmp_path / "o.glb").tracks
    assert fixed.interpolation == "STEP" and TA.audit_track(fixed) == []


def test_cubicspline_split(tmp_path):
    keys = sample_keys(4)
    tin, tout = keys * 0.1, keys * -0.2
    elements = np.stack([tin, keys, tout], axis=1).reshape(-1, 4)
    doc, blob, _ = build(elements, interpolation="CUBICSPLINE")
    (t,) = KF.load_keyframes(write_gltf(tmp_path / "a.gltf", doc, blob)).tracks
    assert t.interpolation == "CUBICSPLINE" and len(t) == 4
    np.testing.assert_array_equal(to_xyzw(t.values), np.float32(keys))
    np.testing.assert_array_equal(to_xyzw(t.in_tangents), np.float32(tin))
    np.testing.assert_array_equal(to_xyzw(t.out_tangents), np.float32(tout))


def test_real_files_as_glb_and_external_bin(tmp_path):
    """pygltflib converts the real samples; the tracks must not depend on the container."""
    for name in ("AnimatedTriangle", "RiggedSimple"):
        reference = KF.load_keyframes(DATA / f"{name}.gltf").tracks
        (tmp_path / name).mkdir()
        g = pygltflib.GLTF2().load(str(DATA / f"{name}.gltf"))
        glb = tmp_path / name / f"{name}.glb"
        g.save_binary(str(glb))
        g = pygltflib.GLTF2().load(str(DATA / f"{name}.gltf"))
        g._path = tmp_path / name  # where convert_buffers writes its .bin files
        g.convert_buffers(pygltflib.BufferFormat.BINFILE)
        sep = tmp_path / name / f"{name}-sep.gltf"
        sep.write_text(g.gltf_to_json())
        assert all(not b.uri.startswith("data:") for b in g.buffers)
        for path in (glb, sep):
            tracks = KF.load_keyframes(path).tracks
            assert len(tracks) == len(reference)
            for a, b in zip(tracks, reference, strict=True):
                np.testing.assert_array_equal(a.values, b.values)
                np.testing.assert_array_equal(a.times, b.times)


def test_channels_skipped_and_shared_accessors(tmp_path):
    doc, blob, _ = build(sample_keys())
    anim = doc["animations"][0]
    # A rotation channel without a node is ignored (glTF 2.0: "SHOULD be ignored");
    # a second node animated by the same sampler shares the output accessor.
    anim["channels"].append({"sampler": 0, "target": {"path": "rotation"}})
    anim["channels"].append({"sampler": 0, "target": {"node": 1, "path": "rotation"}})
    src = write_gltf(tmp_path / "a.gltf", doc, blob)
    kf = KF.load_keyframes(src)
    assert [t.node_name for t in kf.tracks] == ["Joint", "Mover"]
    fixes = [TA.fix_track(t) for t in kf.tracks]
    kf.write_copy(tmp_path / "o.gltf", [f.fixed for f in fixes])
    assert all(TA.audit_track(t) == [] for t in KF.load_keyframes(tmp_path / "o.gltf").tracks)
    with pytest.raises(kt.KeyframeFileError, match="shared by several tracks") as info:
        kf.write_copy(tmp_path / "p.gltf", [fixes[0].fixed, kf.tracks[1]])
    # The message names the tracks that share it, so they can be fixed together,
    # and starts with the input, where the shared accessor is (p.gltf is never written).
    assert "'Joint'" in str(info.value) and "'Mover'" in str(info.value)
    assert str(info.value).startswith(f"{src}: accessors[") and not (tmp_path / "p.gltf").exists()


def test_no_rotation_tracks(tmp_path):
    doc, blob, _ = build(sample_keys())
    doc["animations"][0]["channels"] = doc["animations"][0]["channels"][1:]
    src = write_gltf(tmp_path / "a.gltf", doc, blob)
    kf = KF.load_keyframes(src)
    assert kf.tracks == ()
    kf.write_copy(tmp_path / "o.gltf", [])
    assert (tmp_path / "o.gltf").read_bytes() == src.read_bytes()


# --------------------------------------------------------------------------- write-back


@pytest.mark.parametrize("kind", ["gltf", "bin", "glb"])
@pytest.mark.parametrize(
    "component, options",
    [(5126, {}), (5120, {}), (5122, {"stride": 12}), (5126, {"sparse_rows": [2, 5]}),
     (5122, {"sparse_rows": [0, 3], "stride": 16}), (5126, {"minmax": False})],
)
def test_round_trip_changes_only_rotation_bytes(tmp_path, kind, component, options):
    xyzw = sample_keys()
    doc, blob, ranges = build(xyzw, component=component, **options)
    src = WRITERS[kind](tmp_path / f"in{SUFFIX[kind]}", doc, blob)
    src_bytes = src.read_bytes()
    in_doc, in_blob = read_back(src, kind)
    out = tmp_path / f"out{SUFFIX[kind]}"
    fixes = KF.fix_file(src, out)
    assert fixes[0].flipped.tolist() == [2, 3]
    assert src.read_bytes() == src_bytes  # the input is never touched
    out_doc, out_blob = read_back(out, kind)
    # Only rotation output elements changed in the buffer ...
    allowed = {b for start, size in ranges for b in range(start, start + size)}
    changed = changed_bytes(in_blob, out_blob)
    assert changed and changed <= allowed
    # ... and in the JSON, only buffer URIs and the rotation accessor's min/max.
    assert strip(out_doc) == strip(in_doc)
    if options.get("minmax", True):
        # min/max hold the stored values (integers for normalized types).
        codes = quantize(xyzw, component).astype(np.float64)
        codes[2:4] *= -1
        assert out_doc["accessors"][1]["min"] == pytest.approx(codes.min(axis=0).tolist())
        assert out_doc["accessors"][1]["max"] == pytest.approx(codes.max(axis=0).tolist())
    else:
        assert "min" not in out_doc["accessors"][1]
    # Reading the copy gives the input's rotations, sign-continuous.
    (t,) = KF.load_keyframes(out).tracks
    expected = dequantize(quantize(xyzw, component), component)
    expected[2:4] *= -1
    np.testing.assert_array_equal(to_xyzw(t.values), expected)
    assert TA.audit_track(t) == []
    if kind == "bin":
        assert out_doc["buffers"][0]["uri"] == "out.bin"
        assert (tmp_path / "in.bin").read_bytes() == blob
    if kind == "glb" and not options.get("minmax", True):
        # Nothing but BIN bytes changed: the container is identical elsewhere.
        out_bytes = out.read_bytes()
        bin_start = len(src_bytes) - len(in_blob)
        diff = changed_bytes(src_bytes, out_bytes)
        assert diff and min(diff) >= bin_start


def test_cubicspline_tangents_flip_with_their_value(tmp_path):
    keys = sample_keys(4)
    tin, tout = keys * 0.1, keys * -0.2
    elements = np.stack([tin, keys, tout], axis=1).reshape(-1, 4)
    doc, blob, _ = build(elements, interpolation="CUBICSPLINE", component=5122)
    src = write_glb(tmp_path / "a.glb", doc, blob)
    fixes = KF.fix_file(src, tmp_path / "o.glb")
    assert fixes[0].flipped.tolist() == [2, 3]
    (t,) = KF.load_keyframes(tmp_path / "o.glb").tracks
    sign = np.array([1, 1, -1, -1])[:, None]
    for got, want in ((t.in_tangents, tin), (t.values, keys), (t.out_tangents, tout)):
        np.testing.assert_array_equal(to_xyzw(got), dequantize(quantize(want, 5122), 5122) * sign)


def test_normalize_requantizes(tmp_path):
    xyzw = sample_keys() * 0.9  # short keys: non_unit
    doc, blob, _ = build(xyzw, component=5122)
    src = write_gltf(tmp_path / "a.gltf", doc, blob)
    assert {f.kind for f in TA.audit_track(KF.load_keyframes(src).tracks[0])} == {
        "non_unit", "sign_flip"}
    KF.fix_file(src, tmp_path / "o.gltf", normalize=True)
    (t,) = KF.load_keyframes(tmp_path / "o.gltf").tracks
    stored = dequantize(quantize(xyzw, 5122), 5122)  # the fix sees what the file holds
    unit = stored / np.linalg.norm(stored, axis=1, keepdims=True)
    unit[2:4] *= -1
    np.testing.assert_array_equal(to_xyzw(t.values), dequantize(quantize(unit, 5122), 5122))
    assert TA.audit_track(t) == []


def test_external_buffers_and_images_when_the_output_moves(tmp_path):
    doc, blob, _ = build(sample_keys())
    # A second, unchanged external buffer and an image beside the input.
    doc["buffers"].append({"byteLength": 4, "uri": "extra%20data.bin"})
    doc["images"] = [{"uri": "tex.png"}, {"uri": "https://example.com/remote.png"}]
    src_dir, out_dir = tmp_path / "in", tmp_path / "out" / "deep"
    src_dir.mkdir()
    out_dir.mkdir(parents=True)
    (src_dir / "extra data.bin").write_bytes(b"\1\2\3\4")
    (src_dir / "tex.png").write_bytes(b"png")
    src = write_bin(src_dir / "model.gltf", doc, blob, bin_name="model.bin")
    KF.fix_file(src, out_dir / "fixed.gltf")
    out_doc = json.loads((out_dir / "fixed.gltf").read_text())
    # Every external buffer is written beside the output, so the copy never
    # refers back into the input's folder (a reader refuses that).
    assert out_doc["buffers"][0]["uri"] == "fixed.0.bin"
    assert out_doc["buffers"][1]["uri"] == "fixed.1.bin"
    assert out_doc["images"][0]["uri"] == "../../in/tex.png"
    assert out_doc["images"][1]["uri"] == "https://example.com/remote.png"
    assert (out_dir / "fixed.1.bin").read_bytes() == b"\1\2\3\4"
    assert (src_dir / "model.bin").read_bytes() == blob
    assert len(KF.load_keyframes(out_dir / "fixed.gltf").tracks) == 1


def test_two_changed_external_buffers_get_numbered_names(tmp_path):
    xyzw = sample_keys()
    doc, blob, _ = build(xyzw)
    # Move the rotation data into a second buffer file and add a second rotation
    # track there too, so that both buffers change.
    doc["buffers"].append({"byteLength": len(blob)})
    doc["bufferViews"].append(dict(doc["bufferViews"][0], buffer=1))
    doc["accessors"].append(dict(doc["accessors"][1], bufferView=len(doc["bufferViews"]) - 1))
    anim = doc["animations"][0]
    anim["samplers"].append({"input": 0, "output": len(doc["accessors"]) - 1})
    anim["channels"].append({"sampler": 2, "target": {"node": 1, "path": "rotation"}})
    doc["buffers"][0]["uri"] = "a.bin"
    doc["buffers"][1]["uri"] = "b.bin"
    (tmp_path / "a.bin").write_bytes(blob)
    (tmp_path / "b.bin").write_bytes(blob)
    src = tmp_path / "m.gltf"
    src.write_text(json.dumps(doc))
    written = KF.load_keyframes(src).write_copy(
        tmp_path / "fixed.gltf", [TA.fix_track(t).fixed for t in KF.load_keyframes(src).tracks]
    )
    assert [p.name for p in written] == ["fixed.0.bin", "fixed.1.bin", "fixed.gltf"]
    out_doc = json.loads((tmp_path / "fixed.gltf").read_text())
    assert [b["uri"] for b in out_doc["buffers"]] == ["fixed.0.bin", "fixed.1.bin"]


def test_companion_bin_never_overwrites_an_input(tmp_path):
    doc, blob, _ = build(sample_keys())
    src = write_bin(tmp_path / "model.gltf", doc, blob, bin_name="fixed.bin")
    with pytest.raises(kt.KeyframeFileError, match="is the input file"):
        KF.fix_file(src, tmp_path / "fixed.gltf")
    assert (tmp_path / "fixed.bin").read_bytes() == blob
    assert not (tmp_path / "fixed.gltf").exists()


def test_real_animated_triangle_round_trip_bytes(tmp_path):
    src = DATA / "AnimatedTriangle.gltf"
    out = tmp_path / "tri.gltf"
    KF.fix_file(src, out)
    a, b = src.read_text(), out.read_text()
    da, db = json.loads(a), json.loads(b)
    # Buffer 0 (the mesh) is untouched; buffer 1 changed in key 4 only (bytes 84..100:
    # accessor 3 starts at byte 20, 16 bytes per key).
    assert da["buffers"][0] == db["buffers"][0]
    blob_a = base64.b64decode(da["buffers"][1]["uri"].split(",")[1])
    blob_b = base64.b64decode(db["buffers"][1]["uri"].split(",")[1])
    assert changed_bytes(blob_a, blob_b) <= set(range(84, 100))
    assert db["accessors"][3]["min"] == [0.0, 0.0, 0.0, -1.0]
    assert db["accessors"][3]["max"] == da["accessors"][3]["max"]  # unchanged
    # The text outside the edited values is kept byte for byte.
    head = a[: a.index('"uri" : "data:application/octet-stream;base64,AAAAAAAAgD4')]
    assert b.startswith(head)
    lines_a, lines_b = a.splitlines(), b.splitlines()
    differ = [i for i, (x, y) in enumerate(zip(lines_a, lines_b, strict=True)) if x != y]
    assert [lines_b[i].split(":")[0].strip() for i in differ] == ['"uri"', '"min"']


def test_glb_output_is_readable_by_pygltflib(tmp_path):
    g = pygltflib.GLTF2().load(str(DATA / "AnimatedTriangle.gltf"))
    src = tmp_path / "tri.glb"
    g.save_binary(str(src))
    KF.fix_file(src, tmp_path / "o.glb")
    data = (tmp_path / "o.glb").read_bytes()
    assert struct.unpack_from("<I", data, 8)[0] == len(data)
    assert struct.unpack_from("<I", data, 12)[0] % 4 == 0
    doc, blob = glb_parts(data)
    assert doc["accessors"][3]["min"][3] == -1.0
    assert len(blob) == len(glb_parts(src.read_bytes())[1])


# --------------------------------------------------------------------------- errors


def _doc():
    doc, blob, _ = build(sample_keys())
    return doc, blob


def _mutate(fn):
    doc, blob = _doc()
    fn(doc)
    return doc, blob


ACC = "accessors"
ERRORS = {
    "rotation output VEC3": (lambda d: d[ACC][1].update(type="VEC3"), "has type VEC3"),
    "unknown type": (lambda d: d[ACC][1].update(type="VEC5"), "not a glTF accessor type"),
    "unsigned int rotation": (lambda d: d[ACC][1].update(componentType=5125),
                              "stores unsigned int components"),
    "unknown component": (lambda d: d[ACC][1].update(componentType=1), "not a glTF component"),
    "int not normalized": (lambda d: d[ACC][1].update(componentType=5122, normalized=False),
                           "not normalized"),
    "times not float": (lambda d: d[ACC][0].update(componentType=5123), "expected float"),
    "count mismatch": (lambda d: d[ACC][1].update(count=5), "LINEAR needs 6 output elements"),
    "cubic count": (lambda d: d["animations"][0]["samplers"][0].update(
        interpolation="CUBICSPLINE"), "CUBICSPLINE needs 18 output elements"),
    "bad interpolation": (lambda d: d["animations"][0]["samplers"][0].update(
        interpolation="SLERP"), "'SLERP' is not LINEAR"),
    "node out of range": (lambda d: d["animations"][0]["channels"][0]["target"].update(node=7),
                          "target.node = 7 is out of range: the file has 2 nodes"),
    "sampler out of range": (lambda d: d["animations"][0]["channels"][0].update(sampler=9),
                             "sampler = 9 is out of range"),
    "accessor out of range": (lambda d: d["animations"][0]["samplers"][0].update(output=99),
                              "output = 99 is out of range"),
    "bool index": (lambda d: d["animations"][0]["samplers"][0].update(input=True),
                   "animations[0].samplers[0].input: expected an integer, got true"),
    "negative index": (lambda d: d["animations"][0]["samplers"][0].update(input=-1),
                       "must be an integer >= 0"),
    "bufferView out of range": (lambda d: d[ACC][1].update(bufferView=42),
                                "bufferView = 42 is out of range"),
    "bufferView past buffer": (lambda d: d["bufferViews"][0].update(byteOffset=10**6),
                               "spans bytes"),
    "buffer index": (lambda d: d["bufferViews"][0].update(buffer=3), "buffer = 3 is out of range"),
    "accessor past view": (lambda d: d[ACC][1].update(byteOffset=64), "needs 160 bytes"),
    "stride too small": (lambda d: d["bufferViews"][0].update(byteStride=8),
                         "byteStride 8 is smaller than an element"),
    "count zero": (lambda d: d[ACC][0].update(count=0), "count must be an integer >= 1"),
    "huge zero-filled": (lambda d: (d[ACC][1].pop("bufferView"), d[ACC][1].update(count=10**9)),
                         "too large"),
    "no target": (lambda d: d["animations"][0]["channels"][0].pop("target"), "has no target"),
    "channels not array": (lambda d: d["animations"][0].update(channels={"a": 1}),
                           "animations[0].channels: expected an array, got an object"),
    "asset missing": (lambda d: d.pop("asset"), "not a glTF file: no asset.version"),
    "glTF 1": (lambda d: d["asset"].update(version="1.0"), "glTF version 1.0 is not supported"),
    "buffer without uri": (lambda d: d["buffers"][0].pop("uri"), "has no uri"),
    "short buffer": (lambda d: d["buffers"][0].update(byteLength=10**5), "byteLength says"),
    "bad base64": (lambda d: d["buffers"][0].update(uri="data:application/octet-stream;base64,*"),
                   "does not decode"),
    "not base64": (lambda d: d["buffers"][0].update(uri="data:text/plain,abc"),
                   "only base64 data URIs"),
    "remote buffer": (lambda d: d["buffers"][0].update(uri="https://example.com/a.bin"),
                      "only relative file URIs"),
    "missing bin": (lambda d: d["buffers"][0].update(uri="missing.bin"), "cannot read"),
    "animations not array": (lambda d: d.update(animations=5),
                             "animations: expected an array, got 5"),
    "null animation": (lambda d: d["animations"].append(None),
                       "animations[1]: expected an object, got null"),
    "null channel": (lambda d: d["animations"][0]["channels"].insert(0, None),
                     "animations[0].channels[0]: expected an object, got null"),
    "null accessor": (lambda d: d[ACC].append(None), "accessors[4]: expected an object, got null"),
}


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_gltf_errors(tmp_path, case):
    mutate, problem = ERRORS[case]
    doc, blob = _doc()
    doc["buffers"][0]["uri"] = data_uri(blob)
    mutate(doc)
    path = tmp_path / "bad.gltf"
    path.write_text(json.dumps(doc))
    with pytest.raises(kt.KeyframeFileError) as info:
        KF.load_keyframes(path)
    assert str(info.value).startswith(f"{path}: ")
    assert problem in str(info.value)


SPARSE_ERRORS = {
    "index out of range": (lambda idx: idx.__setitem__(1, 60), "index 60 is out of range"),
    "not increasing": (lambda idx: idx.__setitem__(1, 1), "not strictly increasing"),
}


@pytest.mark.parametrize("case", sorted(SPARSE_ERRORS))
def test_sparse_index_errors(tmp_path, case):
    fn, problem = SPARSE_ERRORS[case]
    doc, blob, _ = build(sample_keys(), sparse_rows=[1, 3])
    sparse = doc[ACC][1]["sparse"]
    view = doc["bufferViews"][sparse["indices"]["bufferView"]]
    idx = np.frombuffer(blob, "<u2", 2, view["byteOffset"]).copy()
    fn(idx)
    blob = blob[: view["byteOffset"]] + idx.tobytes() + blob[view["byteOffset"] + 4 :]
    with pytest.raises(kt.KeyframeFileError, match=problem):
        KF.load_keyframes(write_gltf(tmp_path / "a.gltf", doc, blob))


@pytest.mark.parametrize(
    "edit, problem",
    [
        (lambda s: s.update(count=7), "sparse.count 7 exceeds the accessor's count 6"),
        (lambda s: s["indices"].update(componentType=5126), "is not an index type"),
        (lambda s: s.pop("values"), "needs indices and values"),
        (lambda s: s["values"].update(byteOffset=400), "sparse.values needs"),
    ],
)
def test_sparse_structure_errors(tmp_path, edit, problem):
    doc, blob, _ = build(sample_keys(), sparse_rows=[1, 3])
    edit(doc[ACC][1]["sparse"])
    with pytest.raises(kt.KeyframeFileError, match=problem):
        KF.load_keyframes(write_gltf(tmp_path / "a.gltf", doc, blob))


def test_cubicspline_needs_two_keys(tmp_path):
    doc, blob, _ = build(np.tile([0, 0, 0, 1.0], (3, 1)), interpolation="CUBICSPLINE")
    with pytest.raises(kt.KeyframeFileError, match="at least 2 keyframes"):
        KF.load_keyframes(write_gltf(tmp_path / "a.gltf", doc, blob))


def test_text_errors(tmp_path):
    for content, problem in (
        (b"time,x\n", "does not parse"),
        (b'{"asset": {"version": "2.0"}, "x": "\xff"}', "the glTF JSON is not UTF-8 text"),
        (b'{"asset": {"version": 2.0}}', "no asset.version"),
        (b"[" * 100000, "does not parse"),
    ):
        path = tmp_path / "bad.gltf"
        path.write_bytes(content)
        with pytest.raises(kt.KeyframeFileError, match=problem):
            KF.load_keyframes(path)


def test_glb_container_errors(tmp_path):
    doc, blob = _doc()
    good = (write_glb(tmp_path / "good.glb", doc, blob)).read_bytes()
    json_len = struct.unpack_from("<I", good, 12)[0]
    doc_json = json.dumps(dict(doc, buffers=[{"byteLength": len(blob)}])).encode()
    cases = {
        "header": (good[:10], "12-byte header is incomplete"),
        "truncated body": (good[:-3], "truncated GLB: the header says"),
        "truncated chunk": (
            good[:8] + struct.pack("<I", 20 + json_len + 4) + good[12 : 20 + json_len + 4],
            "chunk header at byte",
        ),
        "chunk too long": (
            good[:8] + struct.pack("<I", 28) + good[12:16] + good[16:20] + b"\0" * 8,
            "needs",
        ),
        "trailing bytes": (good + b"\0\0\0\0", "length mismatch"),
        "version": (good[:4] + struct.pack("<I", 1) + good[8:], "version 1 is not supported"),
        "bin first": (struct.pack("<4sIIII", b"glTF", 2, 24, 4, 0x004E4942) + b"\0" * 4,
                      "does not start with a JSON chunk"),
        "no bin": (glb_bytes(doc_json, None), "no GLB BIN chunk"),
    }
    # Build a real two-BIN-chunk container by hand.
    two = glb_bytes(doc_json, blob)
    extra = struct.pack("<II", 4, 0x004E4942) + b"\0" * 4
    two = two[:8] + struct.pack("<I", len(two) + len(extra)) + two[12:] + extra
    cases["two bins"] = (two, "more than one BIN chunk")
    for name, (data, problem) in cases.items():
        path = tmp_path / f"{name}.glb"
        path.write_bytes(data)
        with pytest.raises(kt.KeyframeFileError, match=problem) as info:
            KF.load_keyframes(path)
        assert str(path) in str(info.value), name


def test_unknown_glb_chunks_are_kept(tmp_path):
    doc, blob = _doc()
    data = write_glb(tmp_path / "a.glb", doc, blob).read_bytes()
    extra = struct.pack("<I4s", 8, b"XTRA") + b"12345678"
    data = data[:8] + struct.pack("<I", len(data) + len(extra)) + data[12:] + extra
    src = tmp_path / "b.glb"
    src.write_bytes(data)
    KF.fix_file(src, tmp_path / "o.glb")
    assert (tmp_path / "o.glb").read_bytes().endswith(extra)


def test_null_arrays_are_empty(tmp_path):
    doc, blob = _doc()
    doc["animations"] = None
    assert KF.load_keyframes(write_gltf(tmp_path / "a.gltf", doc, blob)).tracks == ()


def test_keys_without_storage_cannot_change(tmp_path):
    doc, blob, _ = build(sample_keys(), sparse_rows=[0, 2])
    del doc[ACC][1]["bufferView"]  # keys 1, 3, 4, 5 are zeros with no bytes behind them
    kf = KF.load_keyframes(write_gltf(tmp_path / "a.gltf", doc, blob))
    (t,) = kf.tracks
    KF.fix_file(tmp_path / "a.gltf", tmp_path / "fixed.gltf")  # zeros never change: fine
    moved = dataclasses.replace(t, values=np.ones((6, 4)))
    with pytest.raises(kt.KeyframeFileError, match="key 1 has no storage"):
        kf.write_copy(tmp_path / "o.gltf", [moved])


def test_min_max_of_nan_data_is_left_alone(tmp_path):
    xyzw = sample_keys()
    xyzw[5] = np.nan
    doc, blob, _ = build(xyzw, minmax=False)
    doc[ACC][1]["min"] = [-1, -1, -1, -1]
    KF.fix_file(write_gltf(tmp_path / "a.gltf", doc, blob), tmp_path / "o.gltf")
    out = json.loads((tmp_path / "o.gltf").read_text())
    assert out[ACC][1]["min"] == [-1, -1, -1, -1]
    (t,) = KF.load_keyframes(tmp_path / "o.gltf").tracks
    assert [f.kind for f in TA.audit_track(t)] == ["non_finite"]
