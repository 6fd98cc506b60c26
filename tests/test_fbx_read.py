"""FBX reading (quatlab.app.io.fbx): the child-process loader, curves and clip evaluation.

Oracles: the ufbx loader's own evaluation (``evaluate_transform`` and its
evaluated scene's world matrices, asked for through the worker), hand-worked
curve values, and an independent composition of the raw curves with scipy
(``tests/fbx_oracle.py``) for the rotation-order files.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from quatlab.app.io.fbx import loader
from quatlab.app.io.fbx.curves import evaluate_curve
from quatlab.app.io.fbx.evaluate import ClipEvaluator, euler_to_quat, quat_to_euler
from quatlab.app.io.tracks import KeyframeFileError

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fbx_oracle  # noqa: E402
from fbx_forge import ascii_fbx, chain  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "fbx"
FILES = sorted(DATA.glob("*.fbx"))
# Before, inside and after every clip (the clips run within -0.1 .. 5.1 s).
TIMES = np.array([-0.5, 0.0, 0.1, 0.37, 0.5, 0.8, 1.0, 1.3, 1.75, 2.2, 3.1, 4.99, 6.0])


@pytest.fixture(scope="module")
def scenes():
    return {p.name: loader.read_fbx(p, eval_times=TIMES) for p in FILES}


def test_every_shared_file_reads_with_what_the_data_readme_says(scenes):
    assert len(FILES) == 8
    kenney = scenes["maya_kenney_character_7700_binary.fbx"]
    assert (kenney.node_kind == 5).sum() == 58 and kenney.stack_names == ("Take 001",)
    assert len(kenney.animated_nodes(0)) == 46
    assert kenney.version == 7700 and not kenney.ascii and len(kenney.mesh_rows) == 1
    sausage = scenes["maya_game_sausage_7500_ascii_combined.fbx"]
    assert sausage.stack_names == ("wiggle", "spin", "deform") and sausage.ascii
    assert (sausage.node_kind == 5).sum() == 4
    dq = scenes["maya_dq_weights_7500_ascii.fbx"]
    assert dq.mesh_rows[0, 3] == 3 and (dq.node_kind == 5).sum() == 6   # blended DQ / linear
    assert dq.vertex_dq_weight.max() > 0
    orders = scenes["maya_anim_layers_over_acc_orders_7500_binary.fbx"]
    assert sorted(orders.node_order.tolist()) == [0, 1, 2, 3, 4, 5]
    assert orders.layer_names == ("BaseLayer", "X", "Y")
    assert dict(zip(orders.node_names, orders.node_order.tolist(), strict=True))["ZXY"] == 4
    blender = scenes["assimp_animation_with_skeleton.fbx"]
    assert blender.version == 7400 and (blender.node_kind == 5).sum() == 16
    for s in scenes.values():
        assert s.fps == 24.0


@pytest.mark.parametrize("name", [p.name for p in FILES])
def test_local_and_world_transforms_match_the_loaders_own_evaluation(scenes, name):
    s = scenes[name]
    for stack in range(len(s.stack_names)):
        ev = ClipEvaluator(s, stack)
        local = ev.local(TIMES)
        ref = s.eval_local[stack]
        # ufbx gives (x, y, z, w); the sign too must be ufbx's (what a baked track inherits).
        np.testing.assert_allclose(local.rotation, ref[..., [6, 3, 4, 5]], atol=1e-9)
        np.testing.assert_allclose(local.translation, ref[..., :3], atol=1e-7)
        np.testing.assert_allclose(local.scale, ref[..., 7:], atol=1e-9)
        world = ev.world(local)
        scale = max(1.0, float(np.abs(s.eval_world[stack]).max()))
        np.testing.assert_allclose(world, s.eval_world[stack], atol=1e-9 * scale)


@pytest.mark.parametrize("name", ["maya_anim_layers_over_acc_orders_7500_binary.fbx",
                                  "synthetic_rotation_order_layers_7700_ascii.fbx",
                                  "maya_kenney_character_7700_binary.fbx"])
def test_rotations_match_an_independent_composition_of_the_raw_curves(scenes, name):
    s = scenes[name]
    ev = ClipEvaluator(s, 0)
    lo, hi = s.stack_range[0]
    times = np.linspace(lo, hi, 23)
    nodes = s.animated_nodes(0)
    local = ev.local(times, nodes)
    for j, node in enumerate(nodes):
        for i, t in enumerate(times):
            want = fbx_oracle.local_rotation(s, 0, int(node), float(t)).as_quat()  # x y z w
            got = local.rotation[i, j][[1, 2, 3, 0]]
            assert abs(abs(float(np.dot(want, got))) - 1.0) < 1e-9, (s.node_names[node], t)


def test_the_rotation_order_file_composes_each_order_as_listed(scenes):
    """Six cubes, one per order, same curves: at the last key their rotations differ by order."""
    s = scenes["maya_anim_layers_over_acc_orders_7500_binary.fbx"]
    ev = ClipEvaluator(s, 0)
    # Layer "X" alone (override passthrough layer "Y" has weight 0 at the first key).
    t = float(s.curve_keys(int(s.prop_curves[18, 0]))[0, 0])
    local = ev.local([t])
    for node, name in enumerate(s.node_names):
        seq = name.lower()  # the cube is named after its order: "ZXY" rotates about Z first
        assert seq == fbx_oracle.ORDERS[int(s.node_order[node])]
    # At 0.8333 s: X layer adds (90, 0, 45), layer Y (weight 100 %) overrides with (-45, 90, 0).
    t1 = float(s.curve_keys(int(s.prop_curves[36, 1]))[-1, 0])
    local = ev.local([t1])
    for node, name in enumerate(s.node_names):
        seq = name.lower()
        want = Rotation.from_euler(seq, [{"x": -45.0, "y": 90.0, "z": 0.0}[c] for c in seq],
                                   degrees=True).as_quat()
        got = local.rotation[0, node][[1, 2, 3, 0]]
        assert abs(abs(float(np.dot(want, got))) - 1.0) < 1e-9, name


def test_euler_conversions_are_the_products_of_elementary_rotations():
    rng = np.random.default_rng(3)
    for order, seq in enumerate(fbx_oracle.ORDERS):
        v = rng.uniform(-400, 400, (50, 3))
        q = euler_to_quat(v, order)
        want = Rotation.from_euler(seq, [[row["xyz".index(c)] for c in seq] for row in v],
                                   degrees=True).as_quat()
        np.testing.assert_allclose(np.abs(np.einsum("ij,ij->i", q[:, [1, 2, 3, 0]], want)), 1.0,
                                   atol=1e-12)
        back = euler_to_quat(quat_to_euler(q, order), order)
        np.testing.assert_allclose(np.abs(np.einsum("ij,ij->i", back, q)), 1.0, atol=1e-12)


# --------------------------------------------------------------------------- curves by hand


def _keys(rows):
    return np.array([list(r) + [0.0] * (7 - len(r)) for r in rows], dtype=np.float64)


def test_linear_constant_and_constant_next_segments():
    keys = _keys([(0.0, 0.0, 2), (1.0, 10.0, 0), (2.0, 20.0, 1), (3.0, 30.0, 2)])
    got = evaluate_curve(keys, [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0])
    assert got.tolist() == [0.0, 5.0, 10.0, 10.0, 20.0, 30.0, 30.0]


def test_cubic_segment_with_thirds_handles_is_linear_and_symmetric_one_is_smooth():
    # Handles at a third of the interval along the chord: the Bezier is the straight line.
    keys = _keys([(0.0, 0.0, 3, 0, 0, 1 / 3, 10 / 3), (1.0, 10.0, 3, 1 / 3, 10 / 3, 0, 0)])
    np.testing.assert_allclose(evaluate_curve(keys, [0.25, 0.5, 0.9]), [2.5, 5.0, 9.0],
                               atol=1e-12)
    # Flat handles (ease in/out): the midpoint is half way, a quarter is below the chord.
    flat = _keys([(0.0, 0.0, 3, 0, 0, 1 / 3, 0), (1.0, 10.0, 3, 1 / 3, 0, 0, 0)])
    mid, quarter = evaluate_curve(flat, [0.5, 0.25])
    assert mid == pytest.approx(5.0, abs=1e-12) and quarter < 2.5
    # s solves 3 s^2 - 2 s^3 = 0.25 (time) -> value 10 (3 s^2 - 2 s^3) with the same s.
    assert quarter == pytest.approx(fbx_oracle.curve_value(flat, 0.25), abs=1e-9)


def test_extrapolation_modes_by_hand():
    keys = _keys([(1.0, 0.0, 2, 0, 0, 1.0, 2.0), (2.0, 10.0, 2, 1.0, 5.0, 0, 0)])
    tick = 46186158000
    t = np.array([0.5, 2.25, 3.25, 4.5])   # 0.5 s before, then 0.25, 1.25, 2.5 s after
    const = evaluate_curve(keys, t, extrapolation=(0, -1, 0, -1), ktime_second=tick)
    assert const.tolist() == [0.0, 10.0, 10.0, 10.0]
    rep = evaluate_curve(keys, t, extrapolation=(1, -1, 1, -1), ktime_second=tick)
    np.testing.assert_allclose(rep, [5.0, 2.5, 2.5, 5.0], atol=1e-9)
    # Mirror runs the first repetition backwards, the second forwards again.
    mirror = evaluate_curve(keys, t, extrapolation=(2, -1, 2, -1), ktime_second=tick)
    np.testing.assert_allclose(mirror, [5.0, 7.5, 2.5, 5.0], atol=1e-9)
    # Slope: the first key's right tangent (2 per s) before, the last key's left (5 per s) after.
    slope = evaluate_curve(keys, t, extrapolation=(3, -1, 3, -1), ktime_second=tick)
    np.testing.assert_allclose(slope, [-1.0, 11.25, 16.25, 22.5], atol=1e-9)
    # Relative repeat: each repetition shifted by the clip's change (10) once more.
    rel = evaluate_curve(keys, t, extrapolation=(4, -1, 4, -1), ktime_second=tick)
    np.testing.assert_allclose(rel, [-5.0, 12.5, 22.5, 35.0], atol=1e-9)
    # One repetition, then the last key holds.
    once = evaluate_curve(keys, t, extrapolation=(1, 1, 1, 1), ktime_second=tick)
    np.testing.assert_allclose(once, [5.0, 2.5, 10.0, 10.0], atol=1e-9)


def test_a_written_ascii_file_plays_its_wrap_the_long_way():
    """An FBX curve from 170 to -170 deg is a 340 deg spin: the FBX player goes through 0."""
    text = ascii_fbx(chain(2), {("j1", "R", 2): ([0.0, 1.0], [170.0, -170.0])})
    s = loader.parse_fbx("spin.fbx", text.encode(), eval_times=[0.5])
    local = ClipEvaluator(s, 0).local([0.5])
    assert local.euler[0, 1].tolist() == [0.0, 0.0, 0.0]
    np.testing.assert_allclose(local.rotation[0, 1], s.eval_local[0, 0, 1][[6, 3, 4, 5]],
                               atol=1e-12)


# --------------------------------------------------------------------------- refusals


def test_garbage_empty_and_truncated_files_are_one_line_errors(tmp_path):
    kenney = (DATA / "maya_kenney_character_7700_binary.fbx").read_bytes()
    cases = {
        "garbage.fbx": os.urandom(4096),
        "empty.fbx": b"",
        "cut.fbx": kenney[: len(kenney) // 3],
        "header.fbx": kenney[:40],
    }
    for name, data in cases.items():
        p = tmp_path / name
        p.write_bytes(data)
        with pytest.raises(KeyframeFileError) as err:
            loader.read_fbx(p)
        text = str(err.value)
        assert text.startswith(f"{p}: ") and "\n" not in text, text


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_and_device_named_fbx_are_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.fbx"
    os.mkfifo(fifo)
    dev = tmp_path / "zero.fbx"
    dev.symlink_to("/dev/zero")
    for p in (fifo, dev):
        with pytest.raises(KeyframeFileError, match="not a regular file"):
            loader.read_fbx(p)


def test_without_ufbx_the_error_says_how_to_install(tmp_path, monkeypatch):
    p = tmp_path / "a.fbx"
    p.write_bytes(b"; FBX 7.4.0 project file\n")
    monkeypatch.setattr(loader, "ufbx_available", lambda: False)
    with pytest.raises(KeyframeFileError, match=r"pip install 'quatlab\[fbx\]'"):
        loader.read_fbx(p)


def test_a_loader_that_dies_is_one_line_naming_the_file(tmp_path, monkeypatch):
    crash = tmp_path / "crash.py"
    crash.write_text("import os, signal, sys\nsys.stdin.buffer.read()\n"
                     "os.kill(os.getpid(), signal.SIGSEGV)\n")
    monkeypatch.setattr(loader, "_WORKER", crash)
    p = tmp_path / "a.fbx"
    p.write_bytes(b"x" * 100)
    with pytest.raises(KeyframeFileError) as err:
        loader.read_fbx(p)
    assert str(err.value) == (f"{p}: the FBX loader (ufbx) crashed on this file (SIGSEGV); "
                              "nothing was read")


def test_a_loader_that_hangs_is_stopped(tmp_path, monkeypatch):
    slow = tmp_path / "slow.py"
    slow.write_text("import time\ntime.sleep(30)\n")
    monkeypatch.setattr(loader, "_WORKER", slow)
    p = tmp_path / "a.fbx"
    p.write_bytes(b"x" * 100)
    with pytest.raises(KeyframeFileError, match="took more than 1 s"):
        loader.read_fbx(p, limits={"timeout": 1.0})


@pytest.mark.parametrize("name", [p.name for p in FILES])
def test_raw_array_keys_are_the_bindings_keys_bit_for_bit(scenes, name):
    """Linear and constant curves are read from their raw arrays; the binding's own key
    objects (slow_keys) must give exactly the same numbers."""
    slow = loader.read_fbx(DATA / name, slow_keys=True)
    assert np.array_equal(scenes[name].keys, slow.keys)


@pytest.mark.parametrize("interpolation", ["linear", "constant"])
def test_raw_array_keys_of_written_curves(interpolation):
    times = [0.5, 0.75, 1.0, 1.0, 2.0]          # a repeated time too
    text = ascii_fbx(chain(2), {("j1", "R", a): (times, [10.0 * a, 30.0, -50.0, 7.0, 400.0])
                                for a in range(3)}, interpolation=interpolation)
    fast = loader.parse_fbx("w.fbx", text.encode())
    slow = loader.parse_fbx("w.fbx", text.encode(), slow_keys=True)
    assert np.array_equal(fast.keys, slow.keys)
    assert set(fast.keys[:, 2].tolist()) == {2.0 if interpolation == "linear" else 0.0}
