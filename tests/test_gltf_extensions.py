"""Required extensions: refuse only what changes how keys are read, say what was ignored and why.

docs/formats.md, "Extensions". The three.js and Khronos copies of Cesium's
milk truck require ``KHR_materials_common`` (glTF-MaterialsCommon) or
``KHR_technique_webgl`` (glTF-techniqueWebGL): both change only materials,
so the truck must check and fix, with a note saying the extension was
ignored. Those copies keep their data in an external ``CesiumMilkTruck0.bin``
that could not be brought here (the repositories' snapshots are over the
fetch limit, and the stored-file reader gives text only), so the variants
are built from the shared truck (tests/data/gltf/CesiumMilkTruck.glb) by
adding what the real files add, as published in KhronosGroup/glTF-Sample-Models
2.0/CesiumMilkTruck/glTF-MaterialsCommon/CesiumMilkTruck.gltf (commit 0589a6c8)
and mrdoob/three.js examples/models/gltf/CesiumMilkTruck/glTF-techniqueWebGL/
CesiumMilkTruck.gltf (commit 405084c6): the ``extensionsUsed``/``extensionsRequired``
entries, the material, node and root extension objects, the technique tables.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
import report_schema
from gltf_forge import data_uri, doc, payload, write

from quatlab.app.commands.cli import main
from quatlab.app.io import keyframe_files as KF
from quatlab.app.io.tracks import KeyframeFileError

DATA = Path(__file__).parent / "data" / "gltf"


def _phong(name: str, diffuse) -> dict:
    # One material of the glTF-MaterialsCommon truck, as published.
    return {"extensions": {"KHR_materials_common": {
        "doubleSided": False, "technique": "PHONG", "transparent": False,
        "values": {"diffuse": diffuse, "specular": [0.04, 0.04, 0.04, 1.0],
                   "shininess": [256.0], "transparency": [1.0]}, "name": name}}, "name": name}


def materials_common(d: dict) -> dict:
    d["materials"] = [_phong("truck", [0]), _phong("glass", [0.0, 0.0405, 0.0212, 1.0]),
                      _phong("window_trim", [0.064, 0.064, 0.064, 1.0]), _phong("wheels", [1])]
    d["extensions"] = {"KHR_materials_common": [
        {"type": "ambient", "ambient": {"color": [0.0, 0.0, 0.0, 1.0]}}]}
    d["nodes"].append({"extensions": {"KHR_materials_common": {"light": 0}}})
    d["scenes"][0]["nodes"].append(len(d["nodes"]) - 1)
    d["extensionsRequired"] = d["extensionsUsed"] = ["KHR_materials_common"]
    return d


def technique_webgl(d: dict) -> dict:
    # The glTF-techniqueWebGL truck: materials point at techniques, programs, shaders.
    for m in d["materials"]:
        m.clear()
        m.update({"values": {"shininess": [256.0]}, "technique": 0})
    d["techniques"] = [{"attributes": {"a_position": "position"},
                        "parameters": {"position": {"semantic": "POSITION", "type": 35665}},
                        "program": 0, "states": {"enable": [2884, 2929]}, "uniforms": {}}]
    d["programs"] = [{"attributes": ["a_position"], "fragmentShader": 1, "vertexShader": 0}]
    d["shaders"] = [{"type": 35633, "uri": "data:text/plain;base64,"},
                    {"type": 35632, "uri": "data:text/plain;base64,"}]
    d["extensionsRequired"] = d["extensionsUsed"] = ["KHR_technique_webgl"]
    return d


def truck(folder: Path, edit) -> Path:
    """The shared truck as ``CesiumMilkTruck.gltf`` + ``CesiumMilkTruck0.bin``, edited."""
    data = (DATA / "CesiumMilkTruck.glb").read_bytes()
    n = struct.unpack_from("<I", data, 12)[0]
    d = json.loads(data[20:20 + n])
    size, _kind = struct.unpack_from("<II", data, 20 + n)
    blob = data[28 + n:28 + n + size][: d["buffers"][0]["byteLength"]]
    (folder / "CesiumMilkTruck0.bin").write_bytes(blob)
    d["buffers"][0]["uri"] = "CesiumMilkTruck0.bin"
    return write(folder / "CesiumMilkTruck.gltf", edit(d))


@pytest.mark.parametrize("edit, name", [(materials_common, "KHR_materials_common"),
                                        (technique_webgl, "KHR_technique_webgl")])
def test_material_only_extension_is_ignored_with_a_note(tmp_path, capsys, edit, name):
    path = truck(tmp_path, edit)
    note = (f"required extension {name} ignored: it changes only materials, which QuatLab "
            "does not read")
    kf = KF.load_keyframes(path)
    assert kf.notes == (note,) and len(kf.tracks) == 2
    # The truck's wheels have a real sign flip (keys 14-15): exit 1, not 2.
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{path}: 2 rotation tracks") and out[1] == f"  note: {note}"
    assert main(["check", "--json", str(path)]) == 1
    report = report_schema.file_report(capsys.readouterr().out)
    assert report["notes"] == [note] and len(report["tracks"]) == 2
    assert main(["fix", str(path), str(tmp_path / "fixed.gltf")]) == 0
    fixed = KF.load_keyframes(tmp_path / "fixed.gltf")
    assert fixed.notes == (note,)
    assert json.loads((tmp_path / "fixed.gltf").read_text())["extensionsRequired"] == [name]


@pytest.mark.parametrize("name", ["EXT_meshopt_compression", "KHR_meshopt_compression",
                                  "KHR_animation_pointer", "VENDOR_made_up"])
def test_extensions_that_may_change_the_keys_are_still_refused(tmp_path, capsys, name):
    d = doc(data_uri(payload()), len(payload()))
    d["extensionsRequired"] = d["extensionsUsed"] = [name, "KHR_materials_unlit"]
    path = write(tmp_path / "r.gltf", d)
    with pytest.raises(KeyframeFileError, match=f"requires the extension {name}, which"):
        KF.load_keyframes(path)
    assert main(["check", str(path)]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1


def test_check_says_when_it_audits_a_meshopt_fallback(tmp_path, capsys):
    d = doc(data_uri(payload()), len(payload()))
    d["extensionsUsed"] = ["EXT_meshopt_compression"]   # used, not required: a fallback exists
    d["bufferViews"][1]["extensions"] = {"EXT_meshopt_compression": {
        "buffer": 0, "byteOffset": 0, "byteLength": 8, "byteStride": 16, "count": 2,
        "mode": "ATTRIBUTES"}}
    path = write(tmp_path / "f.gltf", d)
    note = ("accessors[1] (rotation keys or their times) is stored in bufferViews[1] with "
            "EXT_meshopt_compression: QuatLab audits its uncompressed fallback; players that "
            "implement EXT_meshopt_compression read the compressed copy, which QuatLab does not "
            "decode")
    assert KF.load_keyframes(path).notes == (note,)
    assert main(["check", str(path)]) == 1              # the forge's keys have a sign flip
    assert f"  note: {note}" in capsys.readouterr().out.splitlines()
    assert main(["check", "--json", str(path)]) == 1
    assert report_schema.file_report(capsys.readouterr().out)["notes"] == [note]


def test_files_without_notes_list_none(tmp_path, capsys):
    path = write(tmp_path / "plain.gltf", doc(data_uri(payload()), len(payload())))
    assert KF.load_keyframes(path).notes == ()
    main(["check", "--json", str(path)])
    assert report_schema.file_report(capsys.readouterr().out)["notes"] == []
    main(["check", str(path)])
    assert "note:" not in capsys.readouterr().out


def test_the_keyframes_tab_shows_the_notes(tmp_path):
    from quatlab.app.model.keyframes_model import KeyframesModel

    model = KeyframesModel()
    model.load(truck(tmp_path, materials_common))
    assert model.message.text.endswith(
        "Note: required extension KHR_materials_common ignored: it changes only materials, which "
        "QuatLab does not read.")
    assert not model.message.error
