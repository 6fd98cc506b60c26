"""BVH reading, faithful writing, kinematics and quaternion export (quatlab.app.io).

Expected values come from an independent scan of the files written here
(a brace-depth walk of the HIERARCHY and ``np.loadtxt`` of the MOTION
block) and from scipy's Rotation, never from the code under test.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation

from quatlab.app.io import bvh as B
from quatlab.app.io import quat_export as X
from quatlab.math import euler_track as E

DATA = Path(__file__).resolve().parent / "data" / "bvh"
MOCAPBANK = DATA / "test_mocapbank.bvh"
FREEBVH = DATA / "test_freebvh.bvh"


# --------------------------------------------------------------------------- independent oracle


def scan(path):
    """Joints (name, parent, offset, channels), end-site count and motion of a BVH, by hand."""
    lines = Path(path).read_bytes().decode().replace("\r\n", "\n").split("\n")
    joints, stack, ends, pending = [], [], 0, None
    for i, line in enumerate(lines):
        tok = line.split()
        if not tok:
            continue
        if tok[0] in ("ROOT", "JOINT"):
            pending = {"name": tok[1], "parent": stack[-1] if stack else -1, "channels": []}
        elif tok[0] == "End":
            pending = "end"
            ends += 1
        elif tok[0] == "{":
            if pending == "end":
                stack.append(None)
            else:
                joints.append(pending)
                stack.append(len(joints) - 1)
            pending = None
        elif tok[0] == "}":
            stack.pop()
        elif tok[0] == "OFFSET" and stack[-1] is not None:
            joints[stack[-1]]["offset"] = [float(v) for v in tok[1:4]]
        elif tok[0] == "CHANNELS":
            joints[stack[-1]]["channels"] = tok[2:]
        elif tok[0] == "Frame" and tok[1] == "Time:":
            motion = np.loadtxt(lines[i + 1:], ndmin=2)
            return joints, ends, motion, float(tok[2])
    raise AssertionError("no Frame Time")


def oracle_world(joints, row):
    """World 4x4 of each joint for one motion row: M_parent T(offset + pos) R, R from scipy."""
    world, col = [], 0
    for j in joints:
        rot_axes, rot_vals, pos = "", [], np.zeros(3)
        for ch in j["channels"]:
            if ch.endswith("rotation"):
                rot_axes += ch[0]
                rot_vals.append(row[col])
            else:
                pos["XYZ".index(ch[0])] = row[col]
            col += 1
        local = np.eye(4)
        if rot_axes:
            local[:3, :3] = Rotation.from_euler(rot_axes, rot_vals, degrees=True).as_matrix()
        local[:3, 3] = np.array(j["offset"]) + pos
        world.append(local if j["parent"] < 0 else world[j["parent"]] @ local)
    return np.array(world)


def rot_angles(q_a, q_b):
    """Rotation angle (rad) between (w, x, y, z) quaternion arrays, via scipy."""
    ra = Rotation.from_quat(np.roll(q_a.reshape(-1, 4), -1, axis=1))
    rb = Rotation.from_quat(np.roll(q_b.reshape(-1, 4), -1, axis=1))
    return (ra.inv() * rb).magnitude()


def small_bvh(channels="Zrotation Xrotation Yrotation", rows=("10 20 30",), frames=None,
              frame_time="Frame Time: 0.04", nl="\n"):
    n = len(channels.split())
    lines = ["HIERARCHY", "ROOT Hips", "{", "  OFFSET 1 2 3", f"  CHANNELS {n} {channels}",
             "  End Site", "  {", "    OFFSET 0 1 0", "  }", "}", "MOTION",
             f"Frames: {len(rows) if frames is None else frames}"]
    if frame_time is not None:
        lines.append(frame_time)
    return (nl.join(lines + list(rows)) + nl).encode()


# --------------------------------------------------------------------------- reading real files


@pytest.mark.parametrize("path, n_joints, n_frames, order, crlf",
                         [(MOCAPBANK, 19, 455, "ZXY", True), (FREEBVH, 55, 69, "ZYX", False)])
def test_real_files_read_like_the_independent_scan(path, n_joints, n_frames, order, crlf):
    b = B.read_bvh(path)
    joints, ends, motion, frame_time = scan(path)
    assert b.n_joints == n_joints == len(joints)
    assert b.names == tuple(j["name"] for j in joints)
    assert list(b.parents) == [j["parent"] for j in joints]
    assert np.array_equal(b.offsets, [j["offset"] for j in joints])
    assert b.channels == tuple(tuple(j["channels"]) for j in joints)
    assert len(b.end_sites) == ends
    assert b.motion.shape == (n_frames, sum(len(j["channels"]) for j in joints))
    assert np.array_equal(b.motion, motion)
    assert b.frame_time == frame_time
    assert all(b.rotation_order(j) == order for j in range(b.n_joints))
    assert (b.layout.newline == "\r\n") == crlf


@pytest.mark.parametrize("path", [MOCAPBANK, FREEBVH])
def test_unchanged_write_is_byte_identical(path, tmp_path):
    b = B.read_bvh(path)
    out = tmp_path / "copy.bvh"
    B.write_bvh(b, b.motion, out)
    assert out.read_bytes() == path.read_bytes()


def test_mocapbank_wraps_where_the_scan_says():
    joints, _, motion, _ = scan(MOCAPBANK)
    names = [(j["name"], ch) for j in joints for ch in j["channels"]]
    rot = np.array([ch.endswith("rotation") for _, ch in names])
    jumps = np.abs(np.diff(motion, axis=0)) > 180.0
    jumps[:, ~rot] = False
    cols = sorted(set(np.nonzero(jumps)[1]))
    assert [names[c] for c in cols] == [("LeftHip", "Zrotation"), ("LeftKnee", "Yrotation")]
    hip = cols[0]
    first = int(np.flatnonzero(jumps[:, hip])[0])
    assert first == 210
    assert (motion[210, hip], motion[211, hip]) == (-180.0, 179.87)
    assert list(np.flatnonzero(jumps[:, cols[1]])) == [335, 337]

    # The audit reports exactly these wraps, on the same joint, channel and frame.
    b = B.read_bvh(MOCAPBANK)
    found = {}
    for j in range(b.n_joints):
        rot_names = [c for c in b.channels[j] if c.endswith("rotation")]
        for f in E.audit_euler(b.euler_degrees(j), b.rotation_order(j), channel_names=rot_names):
            if f.kind == "wrap":
                found.setdefault((b.names[j], rot_names[f.channel]), []).append(f.frame)
    assert sorted(found) == [("LeftHip", "Zrotation"), ("LeftKnee", "Yrotation")]
    assert found[("LeftHip", "Zrotation")][0] == 211            # lands on frame 211
    assert len(found[("LeftHip", "Zrotation")]) == int(jumps[:, hip].sum()) == 12
    assert found[("LeftKnee", "Yrotation")] == [336, 338]

    # The file-level audit names joint and channel in plain words.
    wraps = [(b.names[j], f) for j, f in B.audit_rotations(b) if f.kind == "wrap"]
    assert wraps[0][0] == "LeftHip" and wraps[0][1].frame == 211
    assert wraps[0][1].message.startswith("LeftHip Zrotation goes from -180 to 179.87 deg")
    assert "per-channel lerp" in wraps[0][1].message


# --------------------------------------------------------------------------- conversions


ORDERS = ["XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX", "XYX", "XZX", "YXY", "YZY", "ZXZ", "ZYZ"]


@pytest.mark.parametrize("order", ORDERS)
def test_local_rotations_match_scipy_for_every_channel_order(order):
    rng = np.random.default_rng(3)
    angles = rng.uniform(-180, 180, (20, 3))
    channels = " ".join(f"{ax}rotation" for ax in order)
    rows = [" ".join(f"{v:.6f}" for v in r) for r in angles]
    b = B.parse_bvh(small_bvh(channels, rows), "t.bvh")
    printed = np.array([[float(v) for v in r.split()] for r in rows])
    # BVH "Z X Y rotation" is R = Rz Rx Ry on column vectors: scipy's intrinsic "ZXY".
    ref = Rotation.from_euler(order, printed, degrees=True).as_quat()          # (x, y, z, w)
    q = B.local_rotations(b)[:, 0]
    assert np.allclose(np.abs(np.sum(q * np.roll(ref, 1, axis=1), axis=1)), 1.0, atol=1e-12)


def test_two_rotation_channels_and_positions_anywhere():
    b = B.parse_bvh(small_bvh("Yrotation Xposition Xrotation Zposition", ["30 5 40 -2"]), "t.bvh")
    q = B.local_rotations(b)[0, 0]
    ref = Rotation.from_euler("YX", [30, 40], degrees=True).as_quat()
    assert abs(abs(np.dot(q, np.roll(ref, 1)))) == pytest.approx(1.0, abs=1e-12)
    assert np.allclose(B.local_translations(b)[0, 0], [1 + 5, 2, 3 - 2])


@pytest.mark.parametrize("path, frame", [(MOCAPBANK, 0), (MOCAPBANK, 211), (FREEBVH, 40)])
def test_forward_kinematics_match_plain_matrix_products(path, frame):
    b = B.read_bvh(path)
    joints, _, motion, _ = scan(path)
    ref = oracle_world(joints, motion[frame])
    assert np.allclose(B.world_matrices(b, frame), ref, atol=1e-9)
    assert np.allclose(B.world_positions(b)[frame], ref[:, :3, 3], atol=1e-9)


def test_filter_unwraps_joints_with_one_or_two_rotation_channels():
    b = B.parse_bvh(small_bvh("Yrotation Xposition Xrotation",
                              ["170 1 10", "-175 2 -170", "-178 3 175"]), "t.bvh")
    out = B.filtered_motion(b)
    assert np.array_equal(out, [[170, 1, 10], [185, 2, -170], [182, 3, -185]])
    ref = Rotation.from_euler("YX", b.motion[:, [0, 2]], degrees=True)
    assert np.all((ref.inv() * Rotation.from_euler("YX", out[:, [0, 2]], degrees=True))
                  .magnitude() < 1e-9)


def test_end_site_positions():
    b = B.parse_bvh(small_bvh("Zrotation Xrotation Yrotation", ["90 0 0"]), "t.bvh")
    pos = B.world_positions(b, end_sites=True)[0]
    # Root at its offset (1, 2, 3); its end site (0, 1, 0) turned 90 deg about Z is (-1, 0, 0).
    assert np.allclose(pos, [[1, 2, 3], [0, 2, 3]])


# --------------------------------------------------------------------------- filter and write back


def test_filtered_mocapbank_round_trip(tmp_path):
    b = B.read_bvh(MOCAPBANK)
    fixed = B.filtered_motion(b)
    assert not b.motion.flags.writeable            # the layout must keep matching it
    out = tmp_path / "fixed.bvh"
    B.write_bvh(b, fixed, out)
    data, orig = out.read_bytes(), MOCAPBANK.read_bytes()

    # Hierarchy and MOTION header byte-identical, every line still CRLF.
    head = orig[: orig.index(b"Frame Time:")]
    assert data.startswith(head)
    assert data.count(b"\n") == data.count(b"\r\n") == orig.count(b"\r\n")
    # Rows without a change are the same bytes.
    joints, _, motion, _ = scan(out)
    old_lines, new_lines = orig.split(b"\r\n"), data.split(b"\r\n")
    first = old_lines.index(next(ln for ln in old_lines if ln.startswith(b"Frame Time"))) + 1
    changed = np.flatnonzero(np.any(motion != scan(MOCAPBANK)[2], axis=1))
    for f in range(len(motion)):
        if f not in changed:
            assert new_lines[first + f] == old_lines[first + f]
    assert len(changed) > 0

    # Same rotations per frame (to 1e-9 rad: the changes are exact in the printed decimals).
    b2 = B.read_bvh(out)
    assert rot_angles(B.local_rotations(b), B.local_rotations(b2)).max() < 1e-9
    # No wrap left in any rotation channel.
    rot = np.array([c.endswith("rotation") for j in joints for c in j["channels"]])
    assert not np.any(np.abs(np.diff(motion[:, rot], axis=0)) > 180.0)
    # Positions untouched.
    assert np.array_equal(motion[:, ~rot], b.motion[:, ~rot])


def test_changed_value_keeps_its_precision_and_neighbours(tmp_path):
    b = B.parse_bvh(small_bvh(rows=["1.50\t-2.0 3", "4.25 5e1 6"]), "t.bvh")
    m = b.motion.copy()
    m[0, 0] = 181.5
    m[1, 1] = 12.5
    m[0, 2] = 7
    text = B.format_bvh(b, m).decode()
    # 2 decimals stay 2, an integer stays an integer, an exponent token keeps every digit.
    assert text.endswith("181.50\t-2.0 7\n4.25 12.5 6\n")


def test_write_refuses_overwrite_and_leaves_nothing_on_failure(tmp_path):
    b = B.read_bvh(FREEBVH)
    out = tmp_path / "x.bvh"
    out.write_bytes(b"keep me")
    with pytest.raises(FileExistsError):
        B.write_bvh(b, b.motion, out)
    assert out.read_bytes() == b"keep me"
    B.write_bvh(b, b.motion, out, force=True)
    assert out.read_bytes() == FREEBVH.read_bytes()

    bad = b.motion.copy()
    bad[0, 0] = np.nan
    with pytest.raises(B.BvhError):
        B.write_bvh(b, bad, tmp_path / "nan.bvh")
    with pytest.raises(OSError):
        B.write_bvh(b, b.motion, tmp_path / "no" / "such" / "dir.bvh")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.bvh"]


def test_failed_publish_removes_the_temporary_file(tmp_path, monkeypatch):
    b = B.read_bvh(FREEBVH)

    def boom(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(os, "link", boom)
    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        B.write_bvh(b, b.motion, tmp_path / "y.bvh")
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- malformed input


MALFORMED = [
    # (file bytes, line, words in the message)
    (small_bvh(rows=["1 2"]), 14, "2 values but the hierarchy declares 3 channels"),
    (small_bvh(rows=["1 2 3", "1 2 3 4"]), 15, "4 values"),
    (small_bvh(rows=["1 2 3"], frames=3), 12, "truncated motion: 'Frames: 3' but only 1"),
    (small_bvh(rows=["1 2 3"], frames=10**15), 12, "truncated motion"),
    (small_bvh(rows=["1 2 3", "4 5 6"], frames=1), 15, "more frame lines"),
    (small_bvh("Zrotation Xrotation Wrotation"), 5, "unknown channel name 'Wrotation'"),
    (small_bvh(rows=["1 abc 3"]), 14, "value 2 'abc' is not a number"),
    (small_bvh(rows=["1 2 1_0"]), 14, "value 3 '1_0' is not a number"),
    (small_bvh(rows=["1 2.3.4 3"]), 14, "value 2 '2.3.4' is not a number"),
    (small_bvh(rows=["1 2 3", "1 inf 3"]), 15, "'inf' is not finite"),
    (small_bvh(rows=["nan 2 3"]), 14, "'nan' is not finite"),
    (small_bvh(rows=["1e999 2 3"]), 14, "'1e999' is not finite"),
    (small_bvh(frame_time=None), 13, "missing 'Frame Time:'"),
    (small_bvh(frame_time="Frame Time: -1"), 13, "not positive"),
    (small_bvh(frame_time="Frame Time:", rows=["0.5"], channels="Zrotation"), 13,
     "'Frame Time:' without a value"),
    (small_bvh(rows=[]).replace(b"Frames: 0", b"Frames:"), 12, "without a frame count"),
    (small_bvh(nl="\r\n", rows=["1 2"]), 14, "2 values"),
    (small_bvh(rows=["1 2 3", "", "4 5 6"]), 15, "blank frame line"),
    # A lone CR inside a line plus a blank line must not shift values between frames.
    (small_bvh(rows=["1 2 3\r4 5 6", "", "7 8 9"]), 14, "6 values"),
    (small_bvh(rows=["1 2 3", "4 5 6\x0c"]), None, None),
    (b"HIERARCHY\nROOT A\n{\n  OFFSET 0 0\n}\n", 5, "OFFSET value"),
    (b"HIERARCHY\nROOT A\n{\n  OFFSET 0 x 0\n", 4, "'x' is not a number"),
    (b"HIERARCHY\nROOT A\n{\n  CHANNELS 3 Xrotation\n", 4, "CHANNELS says 3 channels but names 1"),
    (b"HIERARCHY\nROOT A\n{\n  OFFSET 0 0 0\n", 5, "no MOTION"),
    (b"HIERARCHY\nJOINT A\n", 2, "expected 'ROOT'"),
    (b"\xff\xfe HIERARCHY\n", 1, "not UTF-8"),
    (b"", 1, "file ends where 'HIERARCHY' was expected"),
]


@pytest.mark.parametrize("data, line, words", MALFORMED)
def test_malformed_files_give_one_line_errors(tmp_path, data, line, words):
    path = tmp_path / "bad.bvh"
    path.write_bytes(data)
    if line is None:                     # odd but valid: read the careful way
        assert np.array_equal(B.read_bvh(path).motion, [[1, 2, 3], [4, 5, 6]])
        return
    with pytest.raises(B.BvhError) as err:
        B.read_bvh(path)
    msg = str(err.value)
    assert "\n" not in msg and "\r" not in msg
    assert msg.startswith(f"{path}: line {line}: "), msg
    assert words in msg, msg


def test_size_bound(tmp_path):
    path = tmp_path / "big.bvh"
    path.write_bytes(small_bvh())
    with pytest.raises(B.BvhError, match="more than the 10 allowed"):
        B.read_bvh(path, max_bytes=10)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(B.BvhError, match="cannot read"):
        B.read_bvh(tmp_path / "nope.bvh")
    with pytest.raises(B.BvhError, match="not a regular file|is a folder"):
        B.read_bvh(tmp_path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.bvh"
    os.mkfifo(fifo)
    result = {}

    def read():
        try:
            B.read_bvh(fifo)
        except B.BvhError as exc:
            result["error"] = str(exc)

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(timeout=5)
    if t.is_alive():
        # Unblock the reader so the test run can end, then fail.
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        pytest.fail("read_bvh blocked on a FIFO")
    assert "not a regular file" in result["error"]


VALID = small_bvh("Xposition Yposition Zposition Zrotation Xrotation Yrotation",
                  ["1 2 3 10 20 30", "1.5 2.5 3.5 11 21 31"])


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(VALID) - 1), st.binary(max_size=3)), max_size=4))
def test_mutated_files_parse_or_give_bvh_error(edits):
    data = bytearray(VALID)
    for pos, new in edits:
        data[pos:pos + 1] = new
    try:
        b = B.parse_bvh(bytes(data), "fuzz.bvh")
    except B.BvhError as exc:
        msg = str(exc)
        assert msg.startswith("fuzz.bvh: ") and "\n" not in msg
        assert re.match(r"fuzz\.bvh: line \d+: ", msg)
    else:
        assert np.all(np.isfinite(b.motion))
        assert B.format_bvh(b, b.motion) == bytes(data)


# --------------------------------------------------------------------------- quaternion export


def test_csv_export_is_sign_continuous_and_labelled(tmp_path):
    b = B.read_bvh(MOCAPBANK)
    q = B.local_rotations(b)
    out = tmp_path / "q.csv"
    X.write_csv(out, b.names, q, frame_time=b.frame_time)
    lines = out.read_text().splitlines()
    assert "(w, x, y, z)" in lines[0] and lines[0].startswith("#")
    header = lines[1].split(",")
    assert header[:6] == ["frame", "time", "Hips_w", "Hips_x", "Hips_y", "Hips_z"]
    assert len(header) == 2 + 4 * b.n_joints
    table = np.loadtxt(lines[2:], delimiter=",")
    assert np.array_equal(table[:, 0], np.arange(b.n_frames))
    assert np.allclose(table[:, 1], np.arange(b.n_frames) * 0.033333)
    got = table[:, 2:].reshape(b.n_frames, b.n_joints, 4)
    assert np.all(rot_angles(got, q) < 1e-9)                           # same rotations
    assert np.all(np.sum(got[1:] * got[:-1], axis=-1) >= 0)            # no sign flip left
    assert np.any(np.sum(q[1:] * q[:-1], axis=-1) < 0)                 # there were some
    with pytest.raises(FileExistsError):
        X.write_csv(out, b.names, q)


def test_npy_export_with_sidecar(tmp_path):
    b = B.read_bvh(FREEBVH)
    q = B.local_rotations(b)
    out = tmp_path / "q.npy"
    X.write_npy(out, b.names, q, frame_time=b.frame_time)
    arr = np.load(out)
    meta = json.loads((tmp_path / "q.json").read_text())
    assert arr.shape == (69, 55, 4) == tuple(meta["shape"])
    assert meta["order"] == "wxyz" and meta["components"] == ["w", "x", "y", "z"]
    assert meta["joints"] == list(b.names) and meta["frame_time"] == b.frame_time
    assert np.all(rot_angles(arr, q) < 1e-9)
    assert np.all(np.sum(arr[1:] * arr[:-1], axis=-1) >= 0)


def test_npy_export_writes_both_files_or_neither(tmp_path):
    q = np.tile([1.0, 0, 0, 0], (3, 2, 1))
    (tmp_path / "q.json").write_text("{}")
    with pytest.raises(FileExistsError):
        X.write_npy(tmp_path / "q.npy", ["a", "b"], q)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["q.json"]
    X.write_npy(tmp_path / "q.npy", ["a", "b"], q, force=True)
    assert json.loads((tmp_path / "q.json").read_text())["joints"] == ["a", "b"]


# --------------------------------------------------------------------------- round-trip property


AXES = st.sampled_from("XYZ")


@st.composite
def random_bvh(draw):
    """A random hierarchy (any tree, channels in any order) and motion at random precision."""
    n_joints = draw(st.integers(1, 5))
    parents = [-1] + [draw(st.integers(0, j - 1)) for j in range(1, n_joints)]
    chans = []
    for _ in range(n_joints):
        rot = [f"{a}rotation" for a in draw(st.lists(AXES, min_size=0, max_size=3))]
        pos = [f"{a}position" for a in draw(st.lists(AXES, max_size=3, unique=True))]
        mixed = draw(st.permutations(rot + pos))
        chans.append(list(mixed))
    n_cols = sum(map(len, chans))
    n_frames = draw(st.integers(0, 6))
    decimals = draw(st.integers(0, 6))
    values = draw(st.lists(st.floats(-1000, 1000), min_size=n_cols * n_frames,
                           max_size=n_cols * n_frames))
    nl = draw(st.sampled_from(["\n", "\r\n"]))
    sep = draw(st.sampled_from([" ", "\t", "  "]))

    def block(j, depth):
        pad = "\t" * depth
        kind = "ROOT" if parents[j] < 0 else "JOINT"
        out = [f"{pad}{kind} J{j}", f"{pad}{{", f"{pad}\tOFFSET {j} {-j}.5 0.25",
               f"{pad}\tCHANNELS {len(chans[j])} {' '.join(chans[j])}".rstrip()]
        kids = [k for k in range(n_joints) if parents[k] == j]
        for k in kids:
            out += block(k, depth + 1)
        if not kids:
            out += [f"{pad}\tEnd Site", f"{pad}\t{{", f"{pad}\t\tOFFSET 0 1 0", f"{pad}\t}}"]
        return out + [f"{pad}}}"]

    printed = [f"{v:.{decimals}f}" for v in values]
    rows = [sep.join(printed[f * n_cols:(f + 1) * n_cols]) for f in range(n_frames)]
    lines = ["HIERARCHY", *block(0, 0), "MOTION", f"Frames: {n_frames}", "Frame Time: 0.01"]
    text = nl.join(lines + rows) + nl
    expect = np.array([float(p) for p in printed]).reshape(n_frames, n_cols)
    return text.encode(), parents, chans, expect, decimals


@settings(max_examples=150)
@given(random_bvh(), st.integers(0, 2**32 - 1))
def test_random_files_round_trip(case, rng_key):
    data, parents, chans, expect, decimals = case
    b = B.parse_bvh(data, "r.bvh")
    # Depth-first file order: relabel the drawn parents the way the file lists joints.
    assert len(b.names) == len(parents)
    assert [len(c) for c in b.channels] == [len(chans[int(n[1:])]) for n in b.names]
    assert np.array_equal(b.motion, expect)
    assert B.format_bvh(b, b.motion) == data
    if expect.size:
        rng = np.random.default_rng(rng_key)
        new = expect.copy()
        mask = rng.random(new.shape) < 0.3
        new[mask] += rng.integers(-2, 3, size=mask.sum()) * 360.0
        b2 = B.parse_bvh(B.format_bvh(b, new), "r2.bvh")
        assert np.allclose(b2.motion, new, atol=0.5 * 10.0**-decimals + 1e-9)
        assert b2.layout.header == b.layout.header
        same = ~mask.any(axis=1)
        assert [r for r, s in zip(b2.layout.rows, same, strict=True) if s] == [
            r for r, s in zip(b.layout.rows, same, strict=True) if s]


# --------------------------------------------------------------------------- layering
# (the doctests of these modules run in tests/test_layering.py)


MY_MODULES = ["quatlab.app.io.bvh", "quatlab.app.io.quat_export", "quatlab.app.io.atomic",
              "quatlab.math.euler_track"]


def test_imports_only_numpy_stdlib_and_quatlab_math():
    code = (
        "import sys, json\n"
        f"for m in {MY_MODULES!r}: __import__(m)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd=Path(__file__).resolve().parents[1])
    assert proc.returncode == 0, proc.stderr
    loaded = json.loads(proc.stdout)
    # (names starting with "_" are the interpreter's and the editable install's hooks)
    tops = {m.split(".")[0] for m in loaded if not m.startswith("_")}
    third_party = tops - set(sys.stdlib_module_names)
    assert third_party <= {"numpy", "quatlab"}, third_party
    ours = {m for m in loaded if m.startswith("quatlab.")}
    # quatlab.app.i18n is the app's lowest layer (stdlib gettext only): messages in the
    # language in use (docs/architecture.md, "Translations").
    allowed = ("quatlab.app.io", "quatlab.math.", "quatlab.app.i18n")
    packages = ("quatlab.app", "quatlab.math")
    extra = {m for m in ours if m not in packages and not m.startswith(allowed)}
    assert extra == set(), extra
