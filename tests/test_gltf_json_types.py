"""A glTF value of the wrong JSON type is one line naming the file and the field, never a traceback.

docs/formats.md, "Safety rules for readers and writers": every field a
reader uses has its JSON type checked (``quatlab.app.io.gltf.document.FIELDS``);
``check``, ``check --json`` and ``fix`` exit 2 with "FILE: FIELD: expected
..., got ...", and the rig reader the Keyframes tab uses says the same.
"""

from __future__ import annotations

import pytest
from gltf_forge import data_uri, doc, payload, write

from quatlab.app.commands.cli import main
from quatlab.app.io import keyframe_files as KF
from quatlab.app.io.gltf.scene import scene_of
from quatlab.app.io.tracks import KeyframeFileError


def _doc() -> dict:
    d = doc(data_uri(payload()), len(payload()))
    d["scenes"] = [{"nodes": [0]}]
    d["skins"] = [{"joints": [0]}]
    return d


def _set(place: str, value):
    """An edit of ``_doc()``: ``place`` is a dotted path, numbers index arrays."""
    def edit(d):
        *steps, last = [int(s) if s.isdigit() else s for s in place.split(".")]
        for s in steps:
            d = d[s]
        d[last] = value
    return edit


# (place, value, the message after "FILE: ")
CASES = [
    ("buffers.0.uri", True, "buffers[0].uri: expected a string, got true"),
    ("buffers.0.uri", 12, "buffers[0].uri: expected a string, got 12"),
    ("buffers.0.uri", ["a.bin"], "buffers[0].uri: expected a string, got an array"),
    ("buffers.0.uri", {"u": 1}, "buffers[0].uri: expected a string, got an object"),
    ("buffers.0.byteLength", "24", 'buffers[0].byteLength: expected an integer, got "24"'),
    ("bufferViews.1.buffer", 0.0, "bufferViews[1].buffer: expected an integer, got 0.0"),
    ("bufferViews.1.extensions", 5, "bufferViews[1].extensions: expected an object, got 5"),
    ("accessors.1.normalized", 1, "accessors[1].normalized: expected true or false, got 1"),
    ("accessors.1.type", 4, "accessors[1].type: expected a string, got 4"),
    ("accessors.0.min", "0", 'accessors[0].min: expected an array of numbers, got "0"'),
    ("accessors.0.max", ["a"], 'accessors[0].max[0]: expected a number, got "a"'),
    ("accessors.0.max", [10**400], "accessors[0].max[0]: 1000000000000000000000000000000000000"
                                   "... is beyond the range of a 64-bit float"),
    ("animations.0.samplers.0.interpolation", ["LINEAR"],
     "animations[0].samplers[0].interpolation: expected a string, got an array"),
    ("nodes.0.name", None, "!loads"),  # null counts as absent, as pygltflib reads it
    ("animations.0.channels.0.target.path", 7,
     "animations[0].channels[0].target.path: expected a string, got 7"),
    ("animations.0.name", False, "animations[0].name: expected a string, got false"),
    ("nodes.0.children", 5, "nodes[0].children: expected an array of integers, got 5"),
    ("nodes.0.children", [True], "nodes[0].children[0]: expected an integer, got true"),
    ("nodes.0.rotation", ["", 0, 0, 1], 'nodes[0].rotation[0]: expected a number, got ""'),
    ("nodes.0.matrix", {}, "nodes[0].matrix: expected an array of numbers, got an object"),
    ("nodes.0.name", 3, "nodes[0].name: expected a string, got 3"),
    ("skins.0.joints", "0", 'skins[0].joints: expected an array of integers, got "0"'),
    ("scenes.0.nodes", 0, "scenes[0].nodes: expected an array of integers, got 0"),
    ("extensionsUsed", "KHR_lights_punctual",
     'extensionsUsed: expected an array of strings, got "KHR_lights_punctual"'),
    ("asset.version", 2, "not a glTF file: no asset.version"),
]


@pytest.mark.parametrize("place, value, message", CASES,
                         ids=[f"{p}={v!r:.20}" for p, v, _m in CASES])
def test_wrong_json_type_is_one_line_naming_the_field(tmp_path, capsys, place, value, message):
    d = _doc()
    _set(place, value)(d)
    path = write(tmp_path / "model.gltf", d)
    if message == "!loads":
        scene_of(KF.load_keyframes(path))
        return
    with pytest.raises(KeyframeFileError) as info:
        scene_of(KF.load_keyframes(path))        # what the Keyframes tab reads
    assert str(info.value) == f"{path}: {message}"
    for argv in (["check", str(path)], ["check", "--json", str(path)],
                 ["fix", str(path), str(tmp_path / "out.gltf")]):
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert err == f"quatlab {argv[0]}: error: {path}: {message}\n", argv
        assert out == ""
    assert not (tmp_path / "out.gltf").exists()


def test_glb_json_chunk_types_are_checked_too(tmp_path, capsys):
    from gltf_forge import glb

    d = doc(None, len(payload()))
    d["buffers"][0]["uri"] = False
    path = tmp_path / "model.glb"
    path.write_bytes(glb(d, payload()))
    assert main(["check", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"quatlab check: error: {path}: buffers[0].uri: expected a string, got false\n")
