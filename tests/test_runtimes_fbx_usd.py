"""``quatlab check --runtimes`` and ``--after`` on shared FBX and USD files.

Files: Kenney's character (FBX, 46 rotated nodes, keys in one hemisphere
throughout) and the two-skeleton elephant (USD, 84 sign flips; tests/data/usd).
Oracles computed here: the keys' neighbour dots (where a flip is), the same
after ACL's ``w >= 0`` packing (the ``positive-w`` step, applied here by
hand), and for the Unity Euler-curve column scipy's ``Rotation`` and
``Slerp`` on the node's own Euler channels, segment by segment at the
table's 16 samples. Every report is read through ``tests/report_schema.py``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import report_schema
from scipy.spatial.transform import Rotation, Slerp

from quatlab.app.commands.cli import main
from quatlab.app.io.keyframe_files import load_keyframes

DATA = Path(__file__).parent / "data"
KENNEY = DATA / "fbx" / "maya_kenney_character_7700_binary.fbx"
ELEPHANT = DATA / "usd" / "SoC-ElephantWithMonochord.usdc"
U = np.arange(17) / 16


def _check(capsys, *args) -> tuple[int, dict]:
    status = main(["check", *map(str, args), "--json"])
    return status, report_schema.file_report(capsys.readouterr().out)


def _dots(values) -> np.ndarray:
    return np.einsum("ij,ij->i", values[:-1], values[1:])


def _positive_w(values) -> np.ndarray:
    return values * np.where(values[:, :1] < 0, -1.0, 1.0)


def _rot(q) -> Rotation:
    return Rotation.from_quat(np.asarray(q)[..., [1, 2, 3, 0]])


def _unity_euler_errors(track, channels) -> np.ndarray:
    """Per segment: the largest angle between the channels' linear blend and SLERP of the keys."""
    angles, order = channels
    keys = _rot(track.values)
    out = []
    for i in range(len(track) - 1):
        t = track.times[i] + U * (track.times[i + 1] - track.times[i])
        blend = Rotation.from_euler(order, angles[i] + U[:, None] * (angles[i + 1] - angles[i]),
                                    degrees=True)
        reference = Slerp(track.times[i:i + 2], keys[i:i + 2])(t)
        out.append(np.degrees((blend.inv() * reference).magnitude()).max())
    return np.array(out)


def test_fbx_runtimes_play_kenney_and_unity_euler_plays_its_channels(capsys):
    kf = load_keyframes(KENNEY)
    assert all(np.all(_dots(t.values) > 0) for t in kf.tracks)     # no flip in the keys
    status, doc = _check(capsys, KENNEY, "--runtimes", "all")
    table = doc["runtimes"]
    assert status == 1 and len(doc["tracks"]) == len(kf.tracks) == 46
    kinds = {r["kind"] for r in table["rows"]}
    assert "sign_flip" not in kinds and kinds <= {"gimbal_lock", "euler_range", "runtime"}
    # No flip: every player that takes the dot's sign shows the reference.
    for rid in ("gltf", "three", "babylon", "godot", "slerp"):
        assert table["worst"][rid] < 1e-3, rid
    # Unity with Resample Curves off blends the nodes' own channels: each row is the largest
    # gap between that blend and SLERP over the row's segments, worked out here.
    errors = [_unity_euler_errors(t, kf.euler_channels(i)) for i, t in enumerate(kf.tracks)]
    for row in table["rows"]:
        times = kf.tracks[row["track"]].times
        start, end = row["time"]
        segs = (times[:-1] >= start - 1e-12) & (times[1:] <= end + 1e-12)
        assert row["degrees"]["unity_euler"] == pytest.approx(
            errors[row["track"]][segs].max(), abs=1e-3), row
    # The channels stay within 3 deg of SLERP; the resampled curves glitch where two keys
    # are several frames apart, which their per-frame component lerp blends.
    assert table["worst"]["unity_euler"] < 3.0 and max(e.max() for e in errors) < 3.0
    assert table["glitching"] == ["unity_euler_rs"]


def test_fbx_after_positive_w_finds_the_flips_the_packing_makes(capsys):
    kf = load_keyframes(KENNEY)
    want = {(t.node_name, (int(k), int(k) + 1)) for t in kf.tracks
            for k in np.flatnonzero(_dots(_positive_w(t.values)) < 0)}
    assert len(want) == 4
    status, doc = _check(capsys, KENNEY, "--after", "positive-w", "--runtimes", "gltf,nlerp,acl")
    assert status == 1 and doc["after"] == ["positive-w"]
    got = {(t["node"], tuple(f["keys"])) for t in doc["tracks"] for f in t["findings"]}
    assert got == want
    assert all(f["kind"] == "sign_flip" for t in doc["tracks"] for f in t["findings"])
    rows = doc["runtimes"]["rows"]
    assert {(r["node"], tuple(r["keys"])) for r in rows} == want
    for r in rows:
        # The packing keeps every rotation: the reference plays it as before; NLERP takes the
        # long way across each new flip; ACL packs w >= 0 itself and plays it back the same.
        assert r["degrees"]["gltf"] < 1e-6 and r["degrees"]["nlerp"] > 179.0
        assert r["degrees"]["acl"] < 0.1


@pytest.fixture(scope="module")
def elephant():
    pytest.importorskip("pxr")
    return load_keyframes(ELEPHANT)


def test_usd_runtimes_play_the_elephants_flips(elephant, capsys):
    want = {(i, (int(k), int(k) + 1)) for i, t in enumerate(elephant.tracks)
            for k in np.flatnonzero(_dots(t.values) < 0)}
    assert len(want) == 84
    status, doc = _check(capsys, ELEPHANT, "--runtimes", "gltf,three,nlerp")
    table = doc["runtimes"]
    assert status == 1 and {(r["track"], tuple(r["keys"])) for r in table["rows"]} == want
    assert {r["kind"] for r in table["rows"]} == {"sign_flip"}
    # Mid-segment a stored-sign lerp is half a turn from the short arc (quatf keys: not to
    # the last digit); the sign-aware players follow the reference.
    assert all(r["degrees"]["nlerp"] > 179.99 for r in table["rows"])
    assert table["worst"]["gltf"] == 0.0 and table["worst"]["three"] < 1e-3
    assert table["glitching"] == ["nlerp"]


def test_usd_after_positive_w_leaves_the_elephant_without_a_flip(elephant, capsys):
    # No joint turns as far as 180 deg, so w >= 0 puts every key in one hemisphere: the 84
    # flips go, and nothing else appears.
    for t in elephant.tracks:
        assert np.all(np.abs(t.values[:, 0]) > 0) and np.all(_dots(_positive_w(t.values)) > 0)
    status, doc = _check(capsys, ELEPHANT, "--after", "positive-w", "--runtimes", "gltf,nlerp")
    assert status == 0 and doc["after"] == ["positive-w"]
    assert not any(t["findings"] for t in doc["tracks"]) and not doc["runtimes"]["rows"]
    assert all(t["storage"].endswith("after positive-w") for t in doc["tracks"])
    assert doc["runtimes"]["worst"] == {"gltf": None, "nlerp": None}     # no row to measure
