"""``fix`` round trips checked by the Khronos glTF validator: no new message in any output.

The validator (npm ``gltf-validator``, pinned) is installed by scripts/setup.sh into
node_modules/; ``.ci/run`` sets QUATLAB_REQUIRE_VALIDATOR=1 so that CI fails instead of
skipping when it is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from gltf_forge import with_bin

from quatlab.app.io import keyframe_files as KF
from quatlab.app.io.track_audit import fix_track

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = Path(__file__).parent / "gltf_validate.js"
DATA = Path(__file__).parent / "data" / "gltf"
INSTALLED = (ROOT / "node_modules" / "gltf-validator" / "package.json").is_file()

if not (INSTALLED and shutil.which("node")):
    if os.environ.get("QUATLAB_REQUIRE_VALIDATOR") == "1":
        raise RuntimeError("the glTF validator is required here: run scripts/setup.sh")
    pytest.skip("gltf-validator not installed (scripts/setup.sh installs it)",
                allow_module_level=True)


def validate(files: list[Path]) -> dict[str, list[dict]]:
    proc = subprocess.run(["node", str(SCRIPT), *map(str, files)], capture_output=True,
                          text=True, timeout=600, check=True)
    out = {}
    for line in proc.stdout.splitlines():
        entry = json.loads(line)
        assert "error" not in entry, entry
        out[entry["file"]] = entry["messages"]
    return out


def _keys(messages):
    return {(m["code"], m["pointer"]) for m in messages}


def test_the_validator_reports_a_broken_file(tmp_path):
    doc = json.loads((DATA / "AnimatedTriangle.gltf").read_text())
    doc["accessors"][2]["max"] = [99.0]  # the key times' max is 1.0
    (tmp_path / "bad.gltf").write_text(json.dumps(doc))
    messages = validate([tmp_path / "bad.gltf"])[str(tmp_path / "bad.gltf")]
    assert "ACCESSOR_MAX_MISMATCH" in {m["code"] for m in messages}


@pytest.mark.parametrize("normalize", [False, True])
def test_fixed_copies_validate_as_well_as_their_inputs(tmp_path, normalize):
    (tmp_path / "in").mkdir()
    inputs = sorted(p for p in DATA.iterdir() if p.suffix in (".gltf", ".glb"))
    inputs.append(with_bin(tmp_path / "in"))  # an external .bin, written to another folder
    outputs = []
    for src in inputs:
        kf = KF.load_keyframes(src)
        out = tmp_path / "out" / src.name
        out.parent.mkdir(exist_ok=True)
        kf.write_copy(out, [fix_track(t, normalize=normalize).fixed for t in kf.tracks])
        outputs.append(out)
    reports = validate(inputs + outputs)
    for src, out in zip(inputs, outputs, strict=True):
        before, after = reports[str(src)], reports[str(out)]
        new = _keys(after) - _keys(before)
        assert not new, f"{src.name}: new validator messages {sorted(new)}"
