"""BVH pose report: forward kinematics against an independent composition (scipy, a plain loop).

The oracle reads the hierarchy and motion by hand (tests/bvh_oracle.py),
turns each joint's channels into a scipy Rotation, and walks the joints
parent first: ``R_world = R_parent R_local``, ``p = p_parent + R_parent
(offset + position channels)``. Between frames: per-channel lerp of the
values (naive) or scipy's Slerp of the two frames' rotations (spec).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from bvh_oracle import FREEBVH, MOCAPBANK, motion_of
from scipy.spatial.transform import Rotation, Slerp
from test_bvh_io import scan

from quatlab.app.io.tracks import KeyframeFileError
from quatlab.app.model.bvh_pose import pose_report_bvh


def skeleton(path):
    """[(name, parent, offset, channels)] from the hand scan of the HIERARCHY."""
    joints = scan(path)[0]
    return [(j["name"], j["parent"], np.array(j["offset"], dtype=float), j["channels"])
            for j in joints]


def local_parts(joints, row):
    """Per joint: scipy Rotation and translation from one row of channel values."""
    out, col = [], 0
    for _, _, offset, chans in joints:
        vals = row[col:col + len(chans)]
        col += len(chans)
        rot = "".join(c[0] for c in chans if c.endswith("rotation"))
        ang = [v for v, c in zip(vals, chans, strict=True) if c.endswith("rotation")]
        r = Rotation.from_euler(rot, ang, degrees=True) if rot else Rotation.identity()
        t = offset.copy()
        for v, c in zip(vals, chans, strict=True):
            if c.endswith("position"):
                t["XYZ".index(c[0])] += v
        out.append((r, t))
    return out


def compose(joints, parts):
    world = []
    for (_, parent, _, _), (r, t) in zip(joints, parts, strict=True):
        if parent < 0:
            world.append((r, t))
        else:
            rp, tp = world[parent]
            world.append((rp * r, tp + rp.apply(t)))
    return world


def oracle(path, time, player):
    joints = skeleton(path)
    motion = motion_of(path)
    step = float(next(s for s in Path(path).read_text().splitlines()
                      if s.startswith("Frame Time")).split()[-1])
    x = time / step
    f0 = int(np.floor(x + 1e-12))
    f1 = min(f0 + 1, len(motion) - 1)
    s = x - f0
    if player == "naive":
        return compose(joints, local_parts(joints, motion[f0] + s * (motion[f1] - motion[f0])))
    a, b = local_parts(joints, motion[f0]), local_parts(joints, motion[f1])
    parts = []
    for (ra, ta), (rb, tb) in zip(a, b, strict=True):
        r = Slerp([0, 1], Rotation.concatenate([ra, rb]))([s])[0]
        parts.append((r, ta + s * (tb - ta)))
    return compose(joints, parts)


def check(report, want):
    assert len(report["nodes"]) == len(want)
    for node, (r, t) in zip(report["nodes"], want, strict=True):
        m = np.array(node["world"])
        np.testing.assert_allclose(m[:3, 3], t, atol=1e-9)
        np.testing.assert_allclose(m[:3, :3], r.as_matrix(), atol=1e-12)
        np.testing.assert_array_equal(m[3], [0, 0, 0, 1])


@pytest.mark.parametrize("path, frame", [(MOCAPBANK, 0), (MOCAPBANK, 211), (FREEBVH, 40)])
@pytest.mark.parametrize("player", ["spec", "naive"])
def test_frames_against_the_oracle(path, frame, player):
    step = 0.033333 if path == MOCAPBANK else 0.0333333
    report = pose_report_bvh(path, frame * step, player)
    check(report, oracle(path, frame * step, player))
    for joint, node in zip(report["skins"][0]["joints"], report["nodes"], strict=True):
        assert joint["position"] == [row[3] for row in node["world"][:3]]


@pytest.mark.parametrize("player", ["spec", "naive"])
def test_between_frames_across_the_wrap(player):
    time = 210.5 * 0.033333
    report = pose_report_bvh(MOCAPBANK, time, player)
    check(report, oracle(MOCAPBANK, time, player))


def test_the_players_part_ways_at_the_wrap_only():
    names = [j[0] for j in skeleton(MOCAPBANK)]
    knee = names.index("LeftKnee")

    def knee_at(t, player):
        return np.array(pose_report_bvh(MOCAPBANK, t, player)["nodes"][knee]["world"])[:3, 3]

    wrap, calm = 210.5 * 0.033333, 100.5 * 0.033333
    # Across the wrap the per-channel player swings the knee far off; SLERP stays put.
    f210, f211 = knee_at(210 * 0.033333, "spec"), knee_at(211 * 0.033333, "spec")
    assert np.linalg.norm(knee_at(wrap, "spec") - (f210 + f211) / 2) < 0.5
    assert np.linalg.norm(knee_at(wrap, "naive") - knee_at(wrap, "spec")) > 20
    assert np.linalg.norm(knee_at(calm, "naive") - knee_at(calm, "spec")) < 0.5


def test_report_shape_and_errors(tmp_path):
    r = pose_report_bvh(MOCAPBANK, 1.0)
    assert set(r) == {"file", "animation", "time", "player", "nodes", "skins"}
    assert r["animation"] == {"index": 0, "name": None, "start": 0.0, "end": 454 * 0.033333}
    assert r["nodes"][1]["parent"] == 0 and r["nodes"][0]["parent"] is None
    for args, needle in [((MOCAPBANK, 99.0), "outside the motion"),
                         ((MOCAPBANK, -0.1), "outside the motion"),
                         ((MOCAPBANK, 0.0, "fast"), "player must be one of spec, naive"),
                         ((tmp_path / "none.bvh", 0.0), "cannot read")]:
        with pytest.raises(KeyframeFileError, match=needle) as info:
            pose_report_bvh(*args)
        assert "\n" not in str(info.value) and str(args[0]) in str(info.value)


def test_pose_command_reads_bvh(capsys):
    # quatlab pose dispatches .bvh to the BVH pose report: same numbers as calling it.
    from quatlab.app.commands import cli
    from quatlab.app.model.bvh_pose import pose_report_bvh

    path = str(Path(__file__).parent / "data" / "bvh" / "test_mocapbank.bvh")
    assert cli.main(["pose", path, "--time", "7.02", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got == json.loads(json.dumps(pose_report_bvh(path, 7.02, "spec")))
    assert cli.main(["pose", path, "--time", "1", "--animation", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--animation does not apply" in err[0]


def test_keyframes_model_shows_the_euler_findings_of_a_bvh_file():
    from quatlab.app.model.keyframes_model import KeyframesModel

    model = KeyframesModel()
    kf = model.load(Path(__file__).parent / "data" / "bvh" / "test_mocapbank.bvh")
    hip = next(i for i, t in enumerate(kf.tracks) if "LeftHip" in t.label)
    kinds = {f.kind for f in model.findings(hip)}
    assert "euler_wrap" in kinds and "sign_flip" in kinds
