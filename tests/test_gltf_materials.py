"""glTF base colours: materials, texture coordinates and images, read under the readers' rules.

Oracles: documents written by hand (tests/gltf_forge.py) with a triangle, a
material and a PNG made by Pillow here, whose texels are known; the
shared files' images read straight from the GLB's bytes by the test (the
container layout of the glTF specification) and decoded by Pillow.
"""

from __future__ import annotations

import base64
import io
import json
import os
import struct
import zlib
from pathlib import Path

import gltf_forge as F
import numpy as np
import pytest
from PIL import Image

from quatlab.app.io.gltf.materials import ImageRefused, decode_image, read_materials
from quatlab.app.io.keyframe_files import load_keyframes
from quatlab.app.model.rig import load_rig

DATA = Path(__file__).resolve().parent / "data" / "gltf"


def png(pixels: np.ndarray) -> bytes:
    out = io.BytesIO()
    Image.fromarray(pixels.astype(np.uint8), "RGBA").save(out, "PNG")
    return out.getvalue()


TEXELS = np.array([[[255, 0, 0, 255], [0, 255, 0, 255]],
                   [[0, 0, 255, 255], [255, 255, 0, 255]]], dtype=np.uint8)  # 2 x 2, top row first


def textured_doc(image: dict, *, texcoord=None) -> dict:
    """A one-triangle mesh on node 0 (the animated one), material 0 textured with ``image``."""
    d = F.doc(None)
    keys = F.payload()
    pos = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], "<f4").tobytes()
    uv = np.array([[0, 0], [1, 0], [0, 1]], "<f4").tobytes()
    blob = keys + pos + uv
    d["buffers"][0] = {"byteLength": len(blob),
                       "uri": "data:application/octet-stream;base64,"
                              + base64.b64encode(blob).decode()}
    d["bufferViews"] += [{"buffer": 0, "byteOffset": len(keys), "byteLength": 36},
                         {"buffer": 0, "byteOffset": len(keys) + 36, "byteLength": 24}]
    d["accessors"] += [{"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC3",
                        "min": [0, 0, 0], "max": [1, 1, 0]},
                       {"bufferView": 3, "componentType": 5126, "count": 3, "type": "VEC2"}]
    attrs = {"POSITION": 2, "TEXCOORD_0": 3 if texcoord is None else texcoord}
    d["meshes"] = [{"primitives": [{"attributes": attrs, "material": 0}]}]
    d["nodes"][0]["mesh"] = 0
    d["scenes"], d["scene"] = [{"nodes": [0]}], 0
    d["materials"] = [{"pbrMetallicRoughness": {
        "baseColorFactor": [0.5, 1, 1, 1], "baseColorTexture": {"index": 0}}}]
    d["samplers"] = [{"wrapS": 33071, "wrapT": 10497}]
    d["textures"] = [{"source": 0, "sampler": 0}]
    d["images"] = [image]
    return d


def png_uri(pixels=TEXELS) -> str:
    return "data:image/png;base64," + base64.b64encode(png(pixels)).decode()


def test_a_textured_triangle_reads_its_material_uvs_and_texels(tmp_path):
    path = F.write(tmp_path / "tri.gltf", textured_doc({"uri": png_uri()}))
    rig = load_rig(path)
    (mesh,) = rig.meshes
    assert mesh.materials.tolist() == [0]
    np.testing.assert_array_equal(mesh.uv, [[0, 0], [1, 0], [0, 1]])
    (mat,) = rig.materials
    assert mat.base_color.tolist() == [0.5, 1, 1, 1] and mat.texture == 0 and mat.texcoord == 0
    assert rig.textures[0].wrap == (33071, 10497)
    np.testing.assert_array_equal(rig.texture_image(0), TEXELS)  # top row first, as stored


def test_an_image_beside_the_asset_is_read_and_one_outside_it_refused(tmp_path):
    (tmp_path / "tex.png").write_bytes(png(TEXELS))
    rig = load_rig(F.write(tmp_path / "a.gltf", textured_doc({"uri": "tex.png"})))
    np.testing.assert_array_equal(rig.texture_image(0), TEXELS)
    inner = tmp_path / "inner"
    inner.mkdir()
    rig = load_rig(F.write(inner / "b.gltf", textured_doc({"uri": "../tex.png"})))
    assert rig.texture_image(0) is None  # the view draws the base colour alone
    (problem,) = rig.image_problems()
    assert "outside" in problem or "folder" in problem


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_an_image_that_is_a_fifo_is_refused_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "tex.png")
    rig = load_rig(F.write(tmp_path / "a.gltf", textured_doc({"uri": "tex.png"})))
    assert rig.texture_image(0) is None
    assert "regular" in rig.image_problems()[0]


def _huge_png_header() -> bytes:
    """A PNG whose header claims 100000 x 100000 pixels (its checksum right), and no data."""
    ihdr = struct.pack(">IIBBBBB", 100000, 100000, 8, 6, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk
            + struct.pack(">I", zlib.crc32(chunk)) + b"\x00\x00\x00\x00IEND\xaeB`\x82")


@pytest.mark.parametrize("data, words", [
    (_huge_png_header(), "more than"),      # refused from its header, before decoding
    (b"not an image at all", "does not decode"),
])
def test_bad_images_are_one_line_refusals(tmp_path, data, words):
    uri = "data:image/png;base64," + base64.b64encode(data).decode()
    kf = load_keyframes(F.write(tmp_path / "a.gltf", textured_doc({"uri": uri})))
    with pytest.raises(ImageRefused, match=words) as info:
        decode_image(kf, 0)
    assert "\n" not in str(info.value)


def test_a_bad_texcoord_accessor_is_noted_and_the_mesh_drawn_untextured(tmp_path):
    d = textured_doc({"uri": png_uri()}, texcoord=2)  # accessor 2 is the VEC3 positions
    rig = load_rig(F.write(tmp_path / "a.gltf", d))
    assert rig.meshes[0].uv is None
    assert any("TEXCOORD_0" in str(n) for n in rig.notes)


def test_large_images_are_scaled_down_for_display(tmp_path):
    big = np.zeros((64, 2048, 4), np.uint8)
    big[..., 0], big[..., 3] = 200, 255
    kf = load_keyframes(F.write(tmp_path / "a.gltf", textured_doc({"uri": png_uri(big)})))
    image = decode_image(kf, 0, side=512)
    assert image.shape == (16, 512, 4)
    assert np.all(image[..., 0] == 200)


def test_materials_without_textures_and_defaults():
    import pygltflib

    doc = pygltflib.GLTF2(materials=[pygltflib.Material(), pygltflib.Material(
        pbrMetallicRoughness=pygltflib.PbrMetallicRoughness(baseColorFactor=[2, -1, 0.5, 1]))])
    materials, textures, notes = read_materials(doc)
    assert materials[0].base_color.tolist() == [1, 1, 1, 1] and materials[0].texture is None
    assert materials[1].base_color.tolist() == [1, 0, 0.5, 1]  # clipped to [0, 1]
    assert textures == () and notes == []


def _glb_image(path: Path, index: int) -> np.ndarray:
    """``images[index]`` of a GLB, read from its chunks by hand and decoded by Pillow."""
    data = path.read_bytes()
    (json_len,) = struct.unpack_from("<I", data, 12)
    doc = json.loads(data[20:20 + json_len])
    bin_start = 20 + json_len + 8
    view = doc["bufferViews"][doc["images"][index]["bufferView"]]
    start = bin_start + view.get("byteOffset", 0)
    blob = data[start:start + view["byteLength"]]
    return np.asarray(Image.open(io.BytesIO(blob)).convert("RGBA"))


@pytest.mark.parametrize("name", ["Fox.glb", "CesiumMan.glb", "CesiumMilkTruck.glb"])
def test_the_shared_files_textures_decode_as_pillow_reads_them(name):
    rig = load_rig(DATA / name)
    want = _glb_image(DATA / name, 0)
    got = rig.texture_image(0)
    assert got is not None and max(got.shape[:2]) <= 512
    if want.shape == got.shape:
        np.testing.assert_array_equal(got, want)
    else:  # scaled down: the same picture, on average
        assert np.abs(got[..., :3].mean((0, 1)) - want[..., :3].mean((0, 1))).max() < 2.0
