"""``quatlab export-quats``: sign-continuous (w, x, y, z) tracks of a BVH as CSV and .npy.

Oracle: scipy's Rotation of the channel values read by ``np.loadtxt``; the
files are read back with the csv module and ``np.load``, not our writers.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest
from bvh_oracle import MOCAPBANK, motion_of, rotation_columns
from scipy.spatial.transform import Rotation

from quatlab.app.commands.cli import main


def expected() -> tuple[list[str], np.ndarray]:
    """Joint names and (F, J, 4) quaternions (w, x, y, z) up to sign, from scipy."""
    joints = rotation_columns(MOCAPBANK)
    motion = motion_of(MOCAPBANK)
    out = []
    for cols, order in joints.values():
        xyzw = Rotation.from_euler(order, motion[:, cols], degrees=True).as_quat()
        out.append(np.concatenate([xyzw[:, 3:], xyzw[:, :3]], axis=1))
    return list(joints), np.stack(out, axis=1)


def check_tracks(q: np.ndarray) -> None:
    names, want = expected()
    assert q.shape == want.shape == (455, len(names), 4)
    np.testing.assert_allclose(np.abs(np.einsum("fjc,fjc->fj", q, want)), 1.0, atol=1e-9)
    # Sign-continuous: no consecutive keys in opposite hemispheres; the raw data has some.
    assert np.all(np.einsum("fjc,fjc->fj", q[1:], q[:-1]) >= 0)
    assert np.any(np.einsum("fjc,fjc->fj", want[1:], want[:-1]) < 0)


def test_npy_and_sidecar(tmp_path, capsys):
    out = tmp_path / "q.npy"
    assert main(["export-quats", str(MOCAPBANK), str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    check_tracks(np.load(out, allow_pickle=False))
    meta = json.loads((tmp_path / "q.json").read_text())
    assert meta["order"] == "wxyz" and meta["joints"] == expected()[0]
    assert meta["frame_time"] == pytest.approx(0.033333)


def test_csv_named_columns(tmp_path):
    out = tmp_path / "q.csv"
    assert main(["export-quats", str(MOCAPBANK), str(out)]) == 0
    lines = out.read_text().splitlines()
    assert lines[0].startswith("# quaternions (w, x, y, z)")
    rows = list(csv.reader(lines[1:]))
    names = expected()[0]
    assert rows[0][:6] == ["frame", "time", "Hips_w", "Hips_x", "Hips_y", "Hips_z"]
    assert rows[0][2:] == [f"{n}_{c}" for n in names for c in "wxyz"]
    values = np.array([[float(v) for v in r[2:]] for r in rows[1:]])
    check_tracks(values.reshape(len(values), len(names), 4))


def test_existing_output_is_kept_unless_forced(tmp_path, capsys):
    out = tmp_path / "q.csv"
    out.write_text("mine\n")
    assert main(["export-quats", str(MOCAPBANK), str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "exists; pass --force" in err[0]
    assert out.read_text() == "mine\n"
    assert main(["export-quats", str(MOCAPBANK), str(out), "--force"]) == 0
    assert out.read_text().startswith("# quaternions")


@pytest.mark.parametrize("src, dst, needle", [
    ("tests/data/gltf/AnimatedTriangle.gltf", "q.csv", "reads BVH, FBX and USD files"),
    (str(MOCAPBANK), "q.txt", "must end in .csv or .npy"),
    ("missing.bvh", "q.csv", "missing.bvh"),
])
def test_refusals_are_one_line(tmp_path, capsys, src, dst, needle):
    src = str(Path(__file__).resolve().parents[1] / src) if not Path(src).is_absolute() else src
    assert main(["export-quats", src, str(tmp_path / dst)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0] and err[0].startswith("quatlab export-quats: ")
    assert not any(tmp_path.iterdir())
