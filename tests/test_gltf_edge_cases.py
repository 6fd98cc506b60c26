"""glTF edge cases from real files: required extensions, meshopt fallbacks, non-integer indices.

docs/formats.md, "glTF 2.0 (.gltf, .glb)".
"""

from __future__ import annotations

import pytest
from gltf_forge import data_uri, doc, payload, write

from quatlab.app.commands.cli import main
from quatlab.app.io import keyframe_files as KF
from quatlab.app.io.tracks import KeyframeFileError


def _doc(**extra):
    d = doc(data_uri(payload()), len(payload()))
    d.update(extra)
    return d


def _one_line(capsys, status, argv, *words):
    assert main(argv) == status
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    for w in words:
        assert w in err, err


def test_required_meshopt_is_refused_naming_it(tmp_path, capsys):
    path = write(tmp_path / "m.gltf", _doc(extensionsUsed=["EXT_meshopt_compression"],
                                           extensionsRequired=["EXT_meshopt_compression"]))
    with pytest.raises(KeyframeFileError, match="requires the extension EXT_meshopt_compression"):
        KF.load_keyframes(path)
    _one_line(capsys, 2, ["check", str(path)], "EXT_meshopt_compression")


def test_mesh_quantization_keeps_working(tmp_path):
    path = write(tmp_path / "q.gltf", _doc(extensionsUsed=["KHR_mesh_quantization"],
                                           extensionsRequired=["KHR_mesh_quantization"]))
    assert len(KF.load_keyframes(path).tracks) == 1


def test_fix_refuses_to_edit_only_a_meshopt_fallback(tmp_path, capsys):
    d = _doc(extensionsUsed=["EXT_meshopt_compression"])
    # The rotation view carries a compressed copy in another buffer; the
    # plain data is the fallback a meshopt-unaware reader uses.
    d["bufferViews"][1]["extensions"] = {"EXT_meshopt_compression": {
        "buffer": 0, "byteOffset": 0, "byteLength": 8, "byteStride": 16, "count": 2,
        "mode": "ATTRIBUTES"}}
    path = write(tmp_path / "f.gltf", d)
    assert len(KF.load_keyframes(path).tracks) == 1  # check reads the fallback
    out = tmp_path / "o.gltf"
    # The problem is IN's (OUT is never written): the line names IN.
    _one_line(capsys, 2, ["fix", str(path), str(out)], "EXT_meshopt_compression", "fallback",
              f"quatlab fix: error: {path}: accessors[1] is stored in bufferViews[1]")
    assert not out.exists()


@pytest.mark.parametrize("where", ["index", "byteOffset", "count"])
def test_non_integer_indices_and_offsets_are_refused(tmp_path, capsys, where):
    d = _doc()
    if where == "index":
        d["animations"][0]["samplers"][0]["output"] = 1.5
    elif where == "byteOffset":
        d["bufferViews"][1]["byteOffset"] = 8.5
    else:
        d["accessors"][1]["count"] = 2.0
    path = write(tmp_path / "i.gltf", d)
    with pytest.raises(KeyframeFileError, match="expected an integer, got (1.5|8.5|2.0)"):
        KF.load_keyframes(path)
    _one_line(capsys, 2, ["check", str(path)], "expected an integer")
