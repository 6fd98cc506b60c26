"""``quatlab check|fix|export-quats`` on FBX files (docs/formats.md, "FBX").

Run in process through ``cli.main``; the outputs are read back independently
(the BVH by QuatLab's BVH reader compared with the loader's own world
matrices, CSV with numpy, quaternions against the loader's evaluation).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
import report_schema

from quatlab.app.commands.cli import main
from quatlab.app.io import bvh as B
from quatlab.app.io.fbx import loader

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fbx_forge import ascii_fbx, chain  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "fbx"
DQ = DATA / "maya_dq_weights_7500_ascii.fbx"
SAUSAGE = DATA / "maya_game_sausage_7500_ascii_combined.fbx"
KENNEY = DATA / "maya_kenney_character_7700_binary.fbx"


def _one_line(err: str, prog: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"quatlab {prog}: error: ")
    return lines[0]


def test_check_json_names_clips_nodes_and_both_families(capsys):
    assert main(["check", str(DQ), "--json"]) == 1
    doc = report_schema.file_report(capsys.readouterr().out)
    tracks = {t["node"]: t for t in doc["tracks"]}
    assert len(tracks) == 6 and {t["animation"] for t in doc["tracks"]} == {"Take 001"}
    kinds = [(f["kind"], f["keys"]) for f in tracks["joint2"]["findings"]]
    assert kinds == [("sign_flip", [0, 1]), ("euler_wrap", [0, 1])]
    assert tracks["joint2"]["storage"] == "euler XYZ"


def test_check_clean_fbx_exits_0(capsys):
    assert main(["check", str(SAUSAGE)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith("9 rotation tracks, no findings")


def test_check_dir_lists_each_fbx_and_the_summary(tmp_path, capsys):
    for p in (DQ, SAUSAGE):
        (tmp_path / p.name).write_bytes(p.read_bytes())
    (tmp_path / "broken.fbx").write_bytes(b"Kaydara FBX Binary  \x00\x1a\x00" + b"\xff" * 50)
    assert main(["check", str(tmp_path)]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(str(tmp_path / "broken.fbx") + ": unreadable: ")
    assert out[1].endswith("(1 euler_wrap, 1 sign_flip)")
    assert out[2].endswith("9 rotation tracks, no findings")
    assert any(line.split()[:4] == ["fbx", "3", "1", "1"] for line in out)


def test_fix_to_fbx_is_refused_in_one_line_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "copy.fbx"
    assert main(["fix", str(DQ), str(out)]) == 2
    line = _one_line(capsys.readouterr().err, "fix")
    assert "FBX cannot be written" in line and "OUT.bvh" in line and "OUT.csv|OUT.npy" in line
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_fix_to_bvh_writes_the_clip_where_the_fbx_joints_are(tmp_path, capsys):
    out = tmp_path / "dq.bvh"
    assert main(["fix", str(DQ), str(out)]) == 0
    text = capsys.readouterr().out
    assert "joint2: keys 0-1" in text and "an intended turn" in text
    bvh = B.read_bvh(out)
    scene = loader.read_fbx(DQ)
    from quatlab.app.io.fbx.evaluate import ClipEvaluator

    ev = ClipEvaluator(scene, 0)
    start, end = scene.stack_range[0]
    times = start + np.arange(bvh.n_frames) * bvh.frame_time
    assert times[-1] == pytest.approx(end)
    world = ev.world(ev.local(times))
    idx = [scene.node_names.index(n) for n in bvh.names]
    np.testing.assert_allclose(B.world_positions(bvh), world[..., :3, 3][:, idx], atol=1e-5)
    # Filtered: no Euler wraps left (the authored 181.5 deg turn spreads over 23 frames).
    assert not [f for _j, f in B.audit_rotations(bvh) if f.kind == "wrap"]
    # An existing file is kept without --force.
    assert main(["fix", str(DQ), str(out)]) == 2
    assert "pass --force" in _one_line(capsys.readouterr().err, "fix")


@pytest.mark.parametrize("command", ["fix", "export-quats"])
def test_frame_tracks_are_sign_continuous_wxyz_and_the_clips_rotations(tmp_path, capsys,
                                                                       command):
    out = tmp_path / "spin.csv"
    assert main([command, str(SAUSAGE), str(out), "--animation", "spin"]) == 0
    assert "clip 'spin', 21 frames x 5 nodes" in capsys.readouterr().out
    lines = out.read_text().splitlines()
    assert lines[0].startswith("# quaternions (w, x, y, z), scalar first, sign-continuous")
    values = np.loadtxt(out, delimiter=",", skiprows=2)[:, 2:].reshape(21, 5, 4)
    dots = np.einsum("fni,fni->fn", values[1:], values[:-1])
    assert (dots >= 0).all()
    scene = loader.read_fbx(SAUSAGE)
    from quatlab.app.io.fbx.evaluate import ClipEvaluator

    ev = ClipEvaluator(scene, 1)
    start = scene.stack_range[1, 0]
    q = ev.local(start + np.arange(21) / 24.0).rotation
    np.testing.assert_allclose(np.abs(np.einsum("fni,fni->fn", q, values)), 1.0, atol=1e-12)


def test_npy_export_has_its_sidecar(tmp_path, capsys):
    out = tmp_path / "k.npy"
    assert main(["export-quats", str(KENNEY), str(out)]) == 0
    side = json.loads((tmp_path / "k.json").read_text())
    assert np.load(out).shape == (21, 60, 4) and side["order"] == "wxyz"
    assert side["joints"][0] == loader.read_fbx(KENNEY).node_names[0]


def test_an_intended_spin_and_a_per_frame_wrap_are_told_apart(tmp_path, capsys):
    text = ascii_fbx(chain(2), {("j1", "R", 2): ([0.0, 1.0, 1.0 + 1 / 30],
                                                  [0.0, 300.0, -50.0])}, fps=30.0)
    src = tmp_path / "spin.fbx"
    src.write_text(text)
    out = tmp_path / "spin.npy"
    assert main(["export-quats", str(src), str(out)]) == 0
    printed = capsys.readouterr().out
    assert "keys 0-1 (0-1 s) turn 300.0 deg along the curve over 30.0 frames: an intended" \
        in printed
    assert "keys 1-2 (1-1.033 s) turn 350.0 deg along the curve within 1.0 frames: a " \
           "per-frame wrap" in printed
    q = np.load(out)[:, 1]
    # Written per frame: the 300 deg spin is 30 steps of 10 deg, the wrap one step of 10 deg.
    steps = np.degrees(2 * np.arccos(np.clip(np.einsum("fi,fi->f", q[1:], q[:-1]), -1, 1)))
    np.testing.assert_allclose(steps, 10.0, atol=1e-6)


def test_unknown_clip_and_wrong_output_suffix_are_one_line_errors(tmp_path, capsys):
    assert main(["export-quats", str(SAUSAGE), str(tmp_path / "a.csv"), "--animation",
                 "jump"]) == 2
    line = _one_line(capsys.readouterr().err, "export-quats")
    assert "no clip 'jump'" in line and "'wiggle', 'spin', 'deform'" in line
    assert main(["fix", str(SAUSAGE), str(tmp_path / "a.gltf")]) == 2
    assert "writes .bvh" in _one_line(capsys.readouterr().err, "fix")


def test_without_ufbx_check_says_how_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(loader, "ufbx_available", lambda: False)
    assert main(["check", str(DQ)]) == 2
    assert "pip install 'quatlab[fbx]'" in _one_line(capsys.readouterr().err, "check")
