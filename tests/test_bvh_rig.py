"""A BVH skeleton as a rig: forward kinematics, the two players, and the Keyframes tab's 3D view.

Oracles: the BVH reader's own forward kinematics (a separate composition
over the file's joints), scipy's Rotation with plain matrix products for
one frame, and the per-channel BVH pose of ``quatlab pose`` for the naive
player. The wrap is the one ``quatlab check`` reports in test_mocapbank.bvh
(LeftHip Zrotation -180 -> 179.87 between frames 210 and 211).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from quatlab.app.io import bvh as B
from quatlab.app.io.keyframe_files import load_keyframes
from quatlab.app.model.bvh_pose import bvh_world_at
from quatlab.app.model.bvh_rig import rig_of_bvh
from quatlab.app.model.rig import rig_of
from quatlab.app.model.rig_players import difference_angles, evaluate

MOCAP = Path(__file__).resolve().parent / "data" / "bvh" / "test_mocapbank.bvh"


@pytest.fixture(scope="module")
def bvh():
    return B.read_bvh(MOCAP)


@pytest.fixture(scope="module")
def rig(bvh):
    return rig_of_bvh(bvh)


def test_the_tabs_file_gives_the_same_rig():
    kf = load_keyframes(MOCAP)
    rig = rig_of(kf)
    assert rig.names[: kf.bvh.n_joints] == kf.bvh.names
    assert [a.name for a in rig.animations] == ["motion"]


def test_joints_and_end_sites_are_nodes_parents_first(bvh, rig):
    J = bvh.n_joints
    assert len(rig) == J + len(bvh.end_sites)
    assert np.all(rig.parents < np.arange(len(rig)))
    assert rig.parents[:J].tolist() == list(bvh.parents)
    assert [int(p) for p in rig.parents[J:]] == [e.parent for e in bvh.end_sites]
    assert rig.animations[0].end == pytest.approx((bvh.n_frames - 1) * bvh.frame_time)


@pytest.mark.parametrize("frame", [0, 1, 100, 210, 211, 454])
@pytest.mark.parametrize("player", ["spec", "naive"])
def test_world_joint_positions_at_frames_are_the_readers(bvh, rig, frame, player):
    pose = evaluate(rig, 0, frame * bvh.frame_time, player)
    want = B.world_positions(bvh)[frame]
    np.testing.assert_allclose(pose.world[: bvh.n_joints, :3, 3], want, atol=1e-9)
    # End Sites sit at their offset in the parent joint's frame.
    for k, e in enumerate(bvh.end_sites):
        parent = pose.world[e.parent]
        np.testing.assert_allclose(pose.world[bvh.n_joints + k, :3, 3],
                                   parent[:3, :3] @ e.offset + parent[:3, 3], atol=1e-9)


def test_one_frame_against_scipy_and_matrix_products(bvh, rig):
    frame = 300
    row = bvh.motion[frame]
    world = []
    for j in range(bvh.n_joints):
        start = int(bvh.channel_start[j])
        t = np.array(bvh.offsets[j], dtype=float)
        rot_axes, rot_angles = "", []
        for i, c in enumerate(bvh.channels[j]):
            if c.endswith("position"):
                t["XYZ".index(c[0])] += row[start + i]
            else:
                rot_axes += c[0]
                rot_angles.append(row[start + i])
        m = np.eye(4)
        m[:3, :3] = Rotation.from_euler(rot_axes, rot_angles, degrees=True).as_matrix()
        m[:3, 3] = t
        p = bvh.parents[j]
        world.append(m if p < 0 else world[p] @ m)
    pose = evaluate(rig, 0, frame * bvh.frame_time)
    np.testing.assert_allclose(pose.world[: bvh.n_joints], np.array(world), atol=1e-9)


def test_the_naive_player_spins_exactly_around_the_wrap(bvh, rig):
    hip = bvh.names.index("LeftHip")
    t = 210.5 * bvh.frame_time
    spec, naive = evaluate(rig, 0, t), evaluate(rig, 0, t, "naive")
    local = np.degrees(2 * np.arccos(np.clip(
        np.abs(np.sum(spec.rotation * naive.rotation, axis=1)), 0, 1)))
    # Only LeftHip's own channels part (a half turn half way across the wrap) ...
    assert np.flatnonzero(local > 1.0).tolist() == [hip]
    assert local[hip] == pytest.approx(180.0, abs=1.0)
    # ... and what it carries (knee, ankle, end site) turns with it in world space.
    moved = np.flatnonzero(difference_angles(spec, naive) > 1.0)
    assert hip in moved and all(rig.names[i].startswith("Left") for i in moved)
    # The naive player is the per-channel BVH player of `quatlab pose`.
    np.testing.assert_allclose(naive.world[: bvh.n_joints], bvh_world_at(bvh, t, "naive"),
                               atol=1e-9)
    np.testing.assert_allclose(spec.world[: bvh.n_joints], bvh_world_at(bvh, t, "spec"),
                               atol=1e-9)


def test_the_players_agree_on_a_clean_frame(bvh, rig):
    t = 100.5 * bvh.frame_time
    spec, naive = evaluate(rig, 0, t), evaluate(rig, 0, t, "naive")
    assert difference_angles(spec, naive).max() < 1.0
    np.testing.assert_allclose(naive.world[: bvh.n_joints], bvh_world_at(bvh, t, "naive"),
                               atol=1e-9)


def test_sign_fixed_keys_leave_both_players_unchanged(bvh, rig):
    # The tab plays its (maybe sign-fixed) tracks: negating keys changes no pose.
    import dataclasses

    anim = rig.animations[0]
    flipped = dataclasses.replace(anim, channels=tuple(
        dataclasses.replace(c, values=-c.values) if c.path == "rotation" else c
        for c in anim.channels))
    t = 210.5 * bvh.frame_time
    for player in ("spec", "naive"):
        a, b = evaluate(rig, anim, t, player), evaluate(rig, flipped, t, player)
        np.testing.assert_allclose(a.world, b.world, atol=1e-9)
