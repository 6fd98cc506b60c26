"""The FBX audit (quatlab.app.io.fbx.audit and .keyframes): both families, where a hand puts them.

Expected findings are computed here from the raw keys of each file (the
curves' key values as ufbx read them) and from quaternions multiplied out by
hand from elementary rotations, never from the audit under test.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from quatlab.app.io.bvh.keyframes import audit_keyframes
from quatlab.app.io.fbx.keyframes import FbxKeyframeFile, load_fbx_bytes
from quatlab.app.io.keyframe_files import load_keyframes
from quatlab.app.io.tracks import KeyframeFileError

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fbx_oracle  # noqa: E402
from fbx_forge import Joint, ascii_fbx, chain  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "fbx"
FILES = sorted(DATA.glob("*.fbx"))


@pytest.fixture(scope="module")
def files():
    return {p.name: load_keyframes(p) for p in FILES}


def _raw_rotation_keys(kf: FbxKeyframeFile, track: int):
    """The node's rotation curves in a one-layer clip at its key times: (K, 3) X, Y, Z values."""
    sc = kf.scene
    stack, node = kf.entries[track]
    rows = sc.props_of(node, "Lcl Rotation", stack)
    assert len(rows) == 1, "one layer"
    curves = sc.prop_curves[rows[0][1]]
    times = kf.tracks[track].times
    values = np.tile(sc.prop_default[rows[0][1]], (len(times), 1))
    for axis, c in enumerate(curves):
        if c < 0:
            continue
        keys = sc.curve_keys(int(c))
        # A key of this curve gives its value as stored; between them (another curve's key
        # time) the independent Bezier/linear evaluation of tests/fbx_oracle.py.
        own = dict(zip(keys[:, 0].tolist(), keys[:, 1].tolist(), strict=True))
        values[:, axis] = [own[t] if t in own else fbx_oracle.curve_value(keys, t)
                           for t in times.tolist()]
    return times, values


ONE_LAYER = [p.name for p in FILES if "layers" not in p.name]


@pytest.mark.parametrize("name", ONE_LAYER)
def test_wraps_and_runs_beyond_180_are_where_the_raw_keys_put_them(files, name):
    kf = files[name]
    reports = kf.audit()
    for i, report in enumerate(reports):
        _times, raw = _raw_rotation_keys(kf, i)
        want_wraps = sorted({(k, k + 1) for k, _axis in zip(*np.nonzero(
            np.abs(np.diff(raw, axis=0)) > 180.0), strict=True)})
        got_wraps = sorted({f.keys for f in report.findings if f.kind == "euler_wrap"})
        assert got_wraps == want_wraps, (name, report.track.label)
        outside = np.abs(raw) > 180.0
        want_runs = []
        for axis in range(3):
            col = np.concatenate([[False], outside[:, axis], [False]]).astype(int)
            starts = np.flatnonzero(np.diff(col) == 1)
            ends = np.flatnonzero(np.diff(col) == -1) - 1
            want_runs += [(int(s), int(e)) for s, e in zip(starts, ends, strict=True)]
        got_runs = [f.keys for f in report.findings if f.kind == "euler_range"]
        assert sorted(got_runs) == sorted(want_runs), (name, report.track.label)


def test_the_shared_files_findings_by_kind(files):
    """What the hand checks above and the data README say, file by file."""
    kinds = {name: sorted({f.kind for r in kf.audit() for f in r.findings})
             for name, kf in files.items()}
    assert "euler_range" in kinds["maya_kenney_character_7700_binary.fbx"]   # beyond +-180
    assert "euler_range" in kinds["maya_axes_anim_7700_ascii.fbx"]
    assert {"euler_wrap", "sign_flip"} <= set(kinds["maya_dq_weights_7500_ascii.fbx"])
    assert kinds["maya_game_sausage_7500_ascii_combined.fbx"] == []


def _mul(a, b):
    """Hamilton product of (w, x, y, z) quaternions, written out."""
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return np.array([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2])


def _elementary_product(euler_xyz, order="XYZ"):
    """(w, x, y, z) of FBX Euler angles (degrees), the first listed axis applied first."""
    q = np.array([1.0, 0.0, 0.0, 0.0])
    for axis in order:
        half = np.radians(euler_xyz["XYZ".index(axis)]) / 2
        e = np.zeros(4)
        e[0], e[1 + "XYZ".index(axis)] = np.cos(half), np.sin(half)
        q = _mul(e, q)
    return q


@pytest.mark.parametrize("order", ["XYZ", "ZXY", "YZX"])
def test_key_sign_flips_are_where_hand_multiplied_quaternions_flip(order):
    rng = np.random.default_rng(len(order) + ord(order[0]))
    values = np.cumsum(rng.uniform(-150, 150, (12, 3)), axis=0)   # wanders past +-180 on purpose
    values = values.astype(np.float32).astype(np.float64)          # KeyValueFloat is float32
    times = np.arange(12) / 4.0
    curves = {("j1", "R", a): (times, values[:, a]) for a in range(3)}
    joints = chain(2, order=["XYZ", "XZY", "YZX", "YXZ", "ZXY", "ZYX"].index(order))
    kf = load_fbx_bytes("w.fbx", ascii_fbx(joints, curves).encode())
    q = np.array([_elementary_product(v, order) for v in values])
    np.testing.assert_allclose(kf.tracks[0].values, q, atol=1e-12)   # ufbx's signs
    want = [(k, k + 1) for k in np.flatnonzero(np.einsum("ij,ij->i", q[:-1], q[1:]) < 0)]
    got = [f.keys for f in kf.audit()[0].findings if f.kind == "sign_flip"]
    assert got == want and want


def test_a_spin_keyed_across_180_flips_at_the_keys_but_not_per_frame():
    """170 -> -170 deg is a 340 deg curve: per frame it turns smoothly (no flip); the two keys'
    quaternions are 20 deg apart with opposite signs (a flip at the keys)."""
    kf = load_fbx_bytes("spin.fbx", ascii_fbx(
        chain(2), {("j1", "R", 2): ([0.0, 1.0], [170.0, -170.0])}).encode())
    kinds = [(f.kind, f.keys) for f in kf.audit()[0].findings]
    assert kinds == [("sign_flip", (0, 1)), ("euler_wrap", (0, 1))]


def test_a_stepped_jump_flips_per_frame_too():
    """Constant keys 0 then 350 deg: the frame after the step jumps by 350 deg (dot cos 175)."""
    kf = load_fbx_bytes("step.fbx", ascii_fbx(
        chain(2), {("j1", "R", 0): ([0.0, 0.5, 1.0], [0.0, 350.0, 350.0])},
        interpolation="constant", fps=30.0).encode())
    found = {(f.kind, f.keys) for f in kf.audit()[0].findings}
    assert ("frame_sign_flip", (0, 1)) in found and ("sign_flip", (0, 1)) in found
    assert ("euler_wrap", (0, 1)) in found and ("euler_range", (1, 2)) in found
    frame = next(f for f in kf.audit()[0].findings if f.kind == "frame_sign_flip")
    assert "frames 14 and 15" in frame.message


def test_gimbal_lock_at_a_middle_angle_of_90():
    kf = load_fbx_bytes("g.fbx", ascii_fbx(
        chain(2), {("j1", "R", 1): ([0.0, 1.0, 2.0], [0.0, 88.0, 0.0])}).encode())
    assert [(f.kind, f.keys) for f in kf.audit()[0].findings] == [("gimbal_lock", (1,))]


def test_one_track_per_clip_and_rotated_node(files):
    sausage = files["maya_game_sausage_7500_ascii_combined.fbx"]
    clips = [t.animation for t in sausage.tracks]
    assert sorted(set(clips)) == ["deform", "spin", "wiggle"] and len(clips) == 9
    t = sausage.tracks[0]
    assert t.interpolation == "LINEAR" and t.storage == "euler XYZ" and t.node_name


def test_audit_keyframes_runs_the_fbx_audit(files):
    kf = files["maya_dq_weights_7500_ascii.fbx"]
    assert [r.findings for r in audit_keyframes(kf)] == [r.findings for r in kf.audit()]


def test_writing_an_fbx_copy_is_refused_naming_what_is_written_instead(files, tmp_path):
    kf = files["maya_dq_weights_7500_ascii.fbx"]
    out = tmp_path / "out.fbx"
    with pytest.raises(KeyframeFileError) as err:
        kf.write_copy(out, kf.tracks)
    text = str(err.value)
    assert text.startswith(f"{out}: FBX cannot be written") and "OUT.bvh" in text
    assert "OUT.csv|OUT.npy" in text and not out.exists()


def test_binary_fbx_is_recognized_by_its_magic_whatever_the_suffix(tmp_path):
    data = (DATA / "maya_extrapolate_cube_7700_binary.fbx").read_bytes()
    p = tmp_path / "cube.dat"
    p.write_bytes(data)
    assert isinstance(load_keyframes(p), FbxKeyframeFile)


def test_pre_rotation_is_part_of_the_track():
    joints = [Joint("a", -1), Joint("b", 0, pre_rotation=(0.0, 0.0, 90.0))]
    kf = load_fbx_bytes("p.fbx", ascii_fbx(joints, {("b", "R", 0): ([0.0, 1.0],
                                                                     [0.0, 90.0])}).encode())
    want = _mul(_elementary_product([0.0, 0.0, 90.0]), _elementary_product([90.0, 0.0, 0.0]))
    np.testing.assert_allclose(kf.tracks[0].values[1], want, atol=1e-12)   # Rpre R
