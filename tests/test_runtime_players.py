"""Runtime players (math/runtime_players.py, math/runtime_kernels.py) against their engines.

Each player is checked against a case worked from its engine's own code or
tests: a scalar transcription of the engine's function, one key at a time in
the engine's (x, y, z, w) order, written here from the source that
docs/runtimes.md cites (not from the code under test), and where the engine
has unit tests their figures (three.js's ``slerpTestSkeleton``). Then the
property every player owes the reference on sign-continuous tracks: the
slerping ones match it, the lerping ones stay on its arc and meet it at keys
and midpoints, every one plays every key.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation

from quatlab.math import quaternion as Q
from quatlab.math import runtime_players as P
from quatlab.math import runtimes as R

C45 = math.sqrt(0.5)
FLIP = (np.array([[1.0, 0, 0, 0], [-C45, 0, 0, -C45]]), np.array([0.0, 1.0]))  # 90 deg Z, -q


def _deg(a, b) -> np.ndarray:
    return np.degrees(Q.angle_between(a, b))


def _xyzw(q):
    return [float(q[1]), float(q[2]), float(q[3]), float(q[0])]


def _wxyz(v):
    return [v[3], v[0], v[1], v[2]]


# --------------------------------------------------------------------------- glTF reference


def _gltf_slerp(a, b, t):
    """glTF 2.0, Appendix "Interpolation", slerp: a = acos|d|, s = d / |d|."""
    d = float(np.dot(a, b))
    ang = math.acos(min(abs(d), 1.0))
    s = 1.0 if d >= 0 else -1.0
    if ang == 0:
        return np.asarray(a, float)
    return (math.sin(ang * (1 - t)) / math.sin(ang)) * np.asarray(a) + s * (
        math.sin(ang * t) / math.sin(ang)) * np.asarray(b)


def test_reference_is_the_gltf_formula():
    rng = np.random.default_rng(3)
    keys = Rotation.random(6, random_state=4).as_quat(scalar_first=True)
    keys[rng.random(6) < 0.5] *= -1
    times = np.cumsum(rng.uniform(0.2, 1.0, 6))
    t = np.linspace(times[0], times[-1], 97)
    got = P.play_reference(keys, times, t)
    for ti, g in zip(t, got, strict=True):
        k = min(max(np.searchsorted(times, ti, side="right") - 1, 0), 4)
        u = (ti - times[k]) / (times[k + 1] - times[k])
        assert np.allclose(g, _gltf_slerp(keys[k], keys[k + 1], u), atol=1e-12)


def test_reference_step_and_cubicspline():
    keys, times = FLIP
    assert np.array_equal(P.play_reference(keys, times, [0.0, 0.99, 1.0], interpolation="STEP"),
                          [keys[0], keys[0], keys[1]])
    # glTF's CUBICSPLINE with zero tangents: the Hermite blend of the stored components,
    # normalized: here (1 - h) q0 + h q1 with h = 3u^2 - 2u^3; no hemisphere test.
    z = np.zeros((2, 4))
    u = 0.3
    h = 3 * u**2 - 2 * u**3
    want = (1 - h) * keys[0] + h * keys[1]
    got = P.play_reference(keys, times, [u], interpolation="CUBICSPLINE", in_tangents=z,
                           out_tangents=z)
    assert np.allclose(got[0], want / np.linalg.norm(want))


# --------------------------------------------------------------------------- three.js


def _three_slerp_flat(a, b, t):
    """three.js src/math/Quaternion.js, static slerpFlat, on (x, y, z, w) lists."""
    x0, y0, z0, w0 = a
    x1, y1, z1, w1 = b
    if t == 0:
        return [x0, y0, z0, w0]
    if t == 1:
        return [x1, y1, z1, w1]
    if w0 != w1 or x0 != x1 or y0 != y1 or z0 != z1:
        s = 1 - t
        cos = x0 * x1 + y0 * y1 + z0 * z1 + w0 * w1
        direction = 1 if cos >= 0 else -1
        sqr_sin = 1 - cos * cos
        if sqr_sin > 2.220446049250313e-16:
            sin = math.sqrt(sqr_sin)
            length = math.atan2(sin, cos * direction)
            s = math.sin(s * length) / sin
            t = math.sin(t * length) / sin
        t_dir = t * direction
        x0, y0, z0, w0 = (x0 * s + x1 * t_dir, y0 * s + y1 * t_dir, z0 * s + z1 * t_dir,
                          w0 * s + w1 * t_dir)
        if s == 1 - t:
            f = 1 / math.sqrt(x0 * x0 + y0 * y0 + z0 * z0 + w0 * w0)
            x0, y0, z0, w0 = x0 * f, y0 * f, z0 * f, w0 * f
    return [x0, y0, z0, w0]


def test_three_passes_threejs_own_slerp_test_skeleton():
    # mrdoob/three.js test/unit/src/math/Quaternion.tests.js, slerpTestSkeleton, run through
    # slerpFlat (doSlerpArray): arrays are (x, y, z, w).
    a = [0.6753410084407496, 0.4087830051091744, 0.32856700410659473, 0.5185120064806223]
    b = [0.6602792107657797, 0.43647413932562285, 0.35119011210236006, 0.5001871596632682]
    eps = np.finfo(float).eps

    def do(p, q, t):
        out = P.play_three([_wxyz(p), _wxyz(q)], [0.0, 1.0], [t])[0]
        return np.array(_xyzw(out))

    assert do(a, b, 0).tolist() == a                       # exactly A at t = 0
    assert do(a, b, 1).tolist() == b                       # exactly B at t = 1
    r = do(a, b, 0.5)
    assert abs(np.dot(r, a) - np.dot(r, b)) <= eps         # symmetry at 0.5
    assert abs(1 - np.linalg.norm(r)) <= eps
    r = do(a, b, 0.25)
    assert np.dot(r, a) > np.dot(r, b)
    r = do(a, b, 0.75)
    assert np.dot(r, a) < np.dot(r, b)
    d = math.sqrt(0.5)
    assert np.allclose(do([1, 0, 0, 0], [0, 0, 1, 0], 0.5), [d, 0, d, 0], atol=eps)
    assert np.allclose(do([0, d, 0, d], [0, -d, 0, d], 0.5), [0, 0, 0, 1], atol=eps)


@given(st.integers(0, 2**31), st.floats(0, 1), st.booleans(), st.floats(0.9, 1.1))
def test_three_matches_slerp_flat_transcribed(seed, t, negate, scale):
    a, b = Rotation.random(2, random_state=seed).as_quat(scalar_first=True)
    b = (-b if negate else b) * scale                        # three.js does not normalize keys
    got = P.play_three([a, b], [0.0, 1.0], [t])[0]
    assert np.allclose(_xyzw(got), _three_slerp_flat(_xyzw(a), _xyzw(b), t), atol=1e-12)


# --------------------------------------------------------------------------- Babylon.js


def _babylon_slerp(left, right, amount):
    """Babylon.js math.vector.ts, Quaternion.SlerpToRef, on (x, y, z, w) lists."""
    num4 = sum(p * q for p, q in zip(left, right, strict=True))
    flag = False
    if num4 < 0:
        flag, num4 = True, -num4
    if num4 > 0.999999:
        num3 = 1 - amount
        num2 = -amount if flag else amount
    else:
        num5 = math.acos(num4)
        num6 = 1.0 / math.sin(num5)
        num3 = math.sin((1.0 - amount) * num5) * num6
        num2 = -math.sin(amount * num5) * num6 if flag else math.sin(amount * num5) * num6
    return [num3 * p + num2 * q for p, q in zip(left, right, strict=True)]


@given(st.integers(0, 2**31), st.floats(0, 1), st.booleans())
def test_babylon_matches_slerp_to_ref_transcribed(seed, t, negate):
    a, b = Rotation.random(2, random_state=seed).as_quat(scalar_first=True)
    b = -b if negate else b
    got = P.play_babylon([a, b], [0.0, 1.0], [t])[0]
    assert np.allclose(_xyzw(got), _babylon_slerp(_xyzw(a), _xyzw(b), t), atol=1e-12)


def test_babylon_lerps_without_normalizing_above_its_threshold():
    # dot = cos(0.05 deg) = 0.99999990 > 0.999999: weights (1 - u, u), length below 1.
    b = Q.from_axis_angle([0, 0, 1], np.radians(0.1))
    got = P.play_babylon([[1.0, 0, 0, 0], b], [0.0, 1.0], [0.5])[0]
    assert np.array_equal(got, 0.5 * np.array([1.0, 0, 0, 0]) + 0.5 * b)
    assert np.linalg.norm(got) < 1 - 1e-8


# --------------------------------------------------------------------------- Godot


def _godot_slerp(a, b, w):
    """Godot core/math/quaternion.cpp, Quaternion::slerp, on (x, y, z, w) lists."""
    cosom = sum(p * q for p, q in zip(a, b, strict=True))
    if cosom < 0.0:
        cosom, to1 = -cosom, [-v for v in b]
    else:
        to1 = list(b)
    if (1.0 - cosom) > 1e-5:
        omega = math.acos(cosom)
        sinom = math.sin(omega)
        scale0 = math.sin((1.0 - w) * omega) / sinom
        scale1 = math.sin(w * omega) / sinom
    else:
        scale0, scale1 = 1.0 - w, w
    return [scale0 * p + scale1 * q for p, q in zip(a, to1, strict=True)]


@given(st.integers(0, 2**31), st.floats(0, 1), st.booleans())
def test_godot_matches_quaternion_slerp_transcribed(seed, t, negate):
    a, b = Rotation.random(2, random_state=seed).as_quat(scalar_first=True)
    b = -b if negate else b
    got = P.play_godot([a, b], [0.0, 1.0], [t])[0]
    assert np.allclose(_xyzw(got), _godot_slerp(_xyzw(a), _xyzw(b), t), atol=1e-12)


def test_godot_bakes_cubic_splines_into_linear_keys():
    keys = Q.from_axis_angle([0, 0, 1], np.radians([0.0, 90.0]))
    tangents = np.zeros((2, 4))
    opts = dict(interpolation="CUBICSPLINE", in_tangents=tangents, out_tangents=tangents)
    grid = np.arange(0, 31) / 30
    baked = P.hermite(keys, tangents, tangents, [0.0, 1.0], grid)
    # Between two baked keys Godot slerps them, which the spline itself does not.
    t = 1.5 / 30
    want = _godot_slerp(_xyzw(baked[1]), _xyzw(baked[2]), 0.5)
    got = P.play_godot(keys, [0.0, 1.0], [t], **opts)[0]
    assert np.allclose(_xyzw(got), want, atol=1e-12)


def test_godot_compressed_moves_keys_onto_frames_and_slerps_step_tracks():
    keys = Q.from_axis_angle([0, 0, 1], np.radians([0.0, 60.0, 60.0]))
    # A 24 fps key at 5/24 s stored as float32 (0.20833333, a hair early), compressed at
    # the importer's 120 fps: uint32(0.20833333 * 120) = uint32(24.9999994) = 24.
    times = np.array([0.0, np.float32(5 / 24), 1.0])
    got = P.play_godot_compressed(keys, times, [24 / 120])[0]
    assert _deg(got, keys[1]) < 0.02                       # the key plays a frame early
    assert _deg(P.play_reference(keys, times, [24 / 120])[0], keys[1]) > 2
    # At 30 fps (an explicit rate): uint32((1/24) / (1/30)) = uint32(1.25) = 1.
    got = P.play_godot_compressed(keys[:2], [0.0, 1 / 24], [1 / 30], fps=30)[0]
    assert _deg(got, keys[1]) < 0.02
    # STEP is stored as LINEAR: halfway through a held 90 deg step Godot shows 45 deg.
    step = Q.from_axis_angle([0, 0, 1], np.radians([0.0, 90.0]))
    half = P.play_godot_compressed(step, [0.0, 1.0], [0.5], interpolation="STEP")[0]
    assert abs(float(np.degrees(2 * np.arccos(half[0]))) - 45) < 0.02


# --------------------------------------------------------------------------- PlayCanvas / glTFast


def _playcanvas(keys_xyzw, u):
    """playcanvas/engine glb-parser.js (flip keys that don't fall in the same winding), then
    anim-cache.js eval (math.lerp per component) and AnimBlend.set (normalize)."""
    d = [list(k) for k in keys_xyzw]
    for j in range(len(d) - 1):
        dp = sum(d[j][i] * d[j + 1][i] for i in range(4))
        if dp < 0:
            d[j + 1] = [-v for v in d[j + 1]]
    r = [d[0][i] + (d[1][i] - d[0][i]) * u for i in range(4)]
    n = math.sqrt(sum(v * v for v in r))
    return [v / n for v in r]


def test_playcanvas_fixes_signs_at_load_then_lerps():
    keys, times = FLIP
    for u in (0.1, 0.5, 0.8):
        got = P.play_aligned_lerp(keys, times, [u])[0]
        assert np.allclose(_xyzw(got), _playcanvas([_xyzw(k) for k in keys], u))


# --------------------------------------------------------------------------- Unity


def test_unity_quaternion_curves_lerp_the_stored_components():
    # Unity: one AnimationCurve per component (localRotation.x/y/z/w); without
    # EnsureQuaternionContinuity the stored -q makes the curves pass near zero.
    keys, times = FLIP
    got = P.play_lerp_stored(keys, times, [0.5])[0]
    blend = (keys[0] + keys[1]) / 2
    assert np.allclose(got, blend / np.linalg.norm(blend))
    # Halfway round the long way (-135 deg) where the reference is at +45 deg.
    assert _deg(got, P.play_reference(keys, times, [0.5])[0]) == pytest.approx(180.0)


def test_unity_euler_curves_spin_across_a_wrap():
    # Keys 2 deg apart about Y, stored as Y = 179 and Y = -179 (Unity's order z, x, y).
    ang = np.array([[0.0, 0.0, 179.0], [0.0, 0.0, -179.0]])
    keys = Rotation.from_euler("zxy", ang, degrees=True).as_quat(scalar_first=True)
    got = P.play_unity_euler(keys, [0.0, 1.0], [0.25, 0.5], euler=(ang, "zxy"))
    want = Rotation.from_euler("zxy", [[0, 0, 89.5], [0, 0, 0]], degrees=True)
    assert np.allclose(np.abs(np.einsum("ij,ij->i", got, want.as_quat(scalar_first=True))), 1)
    # Derived from the keys (no stored channels): the same conversion, the same spin.
    derived = P.play_unity_euler(keys, [0.0, 1.0], [0.5])[0]
    assert _deg(derived, [1.0, 0, 0, 0]) < 1e-9


def test_unity_resampling_bakes_a_spread_wrap_and_removes_a_one_frame_wrap():
    ang = np.array([[0.0, 0.0, 170.0], [0.0, 0.0, -170.0]])
    keys = Rotation.from_euler("zxy", ang, degrees=True).as_quat(scalar_first=True)
    # Keys one frame apart: baked keys are the keys, blended the short way.
    one = P.play_unity_euler_resampled(keys, [0.0, 1 / 30], [1 / 60], euler=(ang, "zxy"))[0]
    assert _deg(one, Rotation.from_euler("y", 180, degrees=True).as_quat(
        scalar_first=True)) < 1e-6
    # Keys ten frames apart: frame 5 was baked where the Euler curve was, at Y = 0.
    ten = P.play_unity_euler_resampled(keys, [0.0, 10 / 30], [5 / 30], euler=(ang, "zxy"))[0]
    assert _deg(ten, [1.0, 0, 0, 0]) < 1e-6


# --------------------------------------------------------------------------- Unreal, ozz, ACL


def _unreal(a, b, alpha):
    """Unreal Quat.h FQuat::FastLerp (as quoted in public copies), then Normalize."""
    dot = sum(p * q for p, q in zip(a, b, strict=True))
    bias = 1.0 if dot >= 0 else -1.0
    r = [q * alpha + p * (bias * (1 - alpha)) for p, q in zip(a, b, strict=True)]
    n = math.sqrt(sum(v * v for v in r))
    return [v / n for v in r]


@given(st.integers(0, 2**31), st.floats(0, 1), st.booleans())
def test_unreal_matches_fast_lerp_transcribed(seed, t, negate):
    a, b = Rotation.random(2, random_state=seed).as_quat(scalar_first=True)
    b = -b if negate else b
    got = P.play_unreal([a, b], [0.0, 1.0], [t])[0]
    assert np.allclose(_xyzw(got), _unreal(_xyzw(a), _xyzw(b), t), atol=1e-12)


def test_ozz_fixes_up_offline_then_nlerps():
    # animation_builder.cc FixupQuaternions: the first key gets w >= 0, each next one
    # the hemisphere of the previous; sampling_job.cc NLerpEst has no sign test.
    keys = np.array([[-1.0, 0, 0, 0], [C45, 0, 0, C45], [-C45, 0, 0, -C45]])
    got = P.play_ozz(keys, [0.0, 1.0, 2.0], [0.5, 1.5])
    assert _deg(got[0], Q.from_axis_angle([0, 0, 1], np.radians(45))) < 0.01
    assert _deg(got[1], keys[1]) < 0.01                     # q and -q: holds still
    assert got[0][0] > 0                                    # played in the w >= 0 hemisphere


def test_acl_plays_w_positive_keys_the_short_way():
    # pre_process_ensure_quat_w_positive flips key 1 (w < 0); rtm quat_lerp's bias
    # (dot >= 0 ? 1 : -1) takes the short way anyway.
    keys = Q.from_axis_angle([0, 0, 1], np.radians([170.0, 190.0]))   # w: +0.087, -0.087
    got = P.play_acl(keys, [0.0, 1.0], [0.5])[0]
    assert _deg(got, Q.from_axis_angle([0, 0, 1], np.pi)) < 0.05


def test_naive_slerp_takes_the_long_arc_and_has_no_path_between_antipodes():
    keys, times = FLIP
    got = P.play_slerp_stored(keys, times, [0.5])[0]
    assert _deg(got, Q.from_axis_angle([0, 0, 1], np.radians(-135))) < 1e-9
    anti = P.play_slerp_stored([[1.0, 0, 0, 0], [-1.0, 0, 0, 0]], [0.0, 1.0], [0.0, 0.5, 1.0])
    assert np.isnan(anti[1]).all() and not np.isnan(anti[[0, 2]]).any()


# --------------------------------------------------------------------------- every player


def test_registry_lists_each_player_with_a_source():
    assert R.REFERENCE == "gltf" and R.RUNTIMES["gltf"].play is P.play_reference
    for r in R.RUNTIMES.values():
        assert r.label and r.engine and r.source and r.behaviour and callable(r.play)
    with pytest.raises(ValueError, match="unknown runtime 'x'"):
        R.parse_runtimes("gltf,x")


@st.composite
def continuous_tracks(draw):
    """Sign-continuous tracks: 2..6 keys, steps of 5..150 deg, uneven times, some keys off unit."""
    n = draw(st.integers(2, 6))
    seed = draw(st.integers(0, 2**31))
    rng = np.random.default_rng(seed)
    keys = [Rotation.random(random_state=seed).as_quat(scalar_first=True)]
    for _ in range(n - 1):
        axis = rng.normal(size=3)
        step = np.radians(rng.uniform(5, 150))
        keys.append(Q.multiply(keys[-1], Q.from_axis_angle(axis, step)))
    keys = np.array(keys)
    keys[0] *= np.sign(keys[0][0]) or 1.0                   # any start; next keys follow it
    for i in range(1, n):
        if np.dot(keys[i], keys[i - 1]) < 0:
            keys[i] = -keys[i]
    times = np.cumsum(rng.uniform(0.1, 1.0, n))
    return keys, times


SLERPING = ("three", "babylon", "godot", "slerp")
LERPING = {"playcanvas": 1e-9, "unity_quat": 1e-9, "nlerp": 1e-9, "unreal": 1e-9,
           "ozz": 0.01, "acl": 0.05}


@settings(max_examples=60)
@given(continuous_tracks())
def test_slerping_players_match_the_reference_on_continuous_tracks(track):
    keys, times = track
    t = np.linspace(times[0] - 0.1, times[-1] + 0.1, 200)
    ref = P.play_reference(keys, times, t)
    for name in SLERPING:
        got = R.play(name, keys, times, t)
        assert np.max(_deg(got, ref)) < 1e-5, name


@settings(max_examples=60)
@given(continuous_tracks())
def test_lerping_players_stay_on_the_references_arc(track):
    keys, times = track
    mids = (times[:-1] + times[1:]) / 2
    k = np.repeat(np.arange(len(times) - 1), 9)
    u = np.tile(np.linspace(0.1, 0.9, 9), len(times) - 1)
    t = times[k] + u * (times[k + 1] - times[k])
    q0, q1 = keys[k], keys[k + 1]
    arc = _deg(q0, q1)
    for name, tol in LERPING.items():
        got = R.play(name, keys, times, t)
        # On the great-circle arc between the two keys, short way ...
        assert np.max(np.abs(_deg(got, q0) + _deg(got, q1) - arc)) < 2 * tol + 1e-7, name
        # ... and at the keys and midpoints where the reference is.
        at = R.play(name, keys, times, np.concatenate([times, mids]))
        want = P.play_reference(keys, times, np.concatenate([times, mids]))
        assert np.max(_deg(at, want)) < tol + 1e-7, name


@settings(max_examples=40)
@given(continuous_tracks())
def test_godot_compressed_matches_the_reference_when_keys_sit_on_frames(track):
    keys, times = track
    times = np.round(times * 32) / 32 + np.arange(len(times)) / 32   # distinct 1/32 s frames
    t = np.linspace(times[0], times[-1], 150)
    got = P.play_godot_compressed(keys, times, t, fps=32)
    assert np.max(_deg(got, P.play_reference(keys, times, t))) < 0.05


@settings(max_examples=40)
@given(continuous_tracks(), st.sampled_from(sorted(R.RUNTIMES)))
def test_every_player_plays_every_key(track, name):
    keys, times = track
    tol = {"godot_comp": 0.05, "acl": 0.05, "ozz": 0.01}.get(name, 1e-7)
    if name == "godot_comp":
        # Keys on frames (1/32 s is exact in binary; Godot truncates a key a hair early).
        times = np.arange(len(times)) / 32
        got = P.play_godot_compressed(keys, times, times, fps=32)
    else:
        if name == "unity_euler_rs":                # it keys the frames, so keys on frames
            times = np.arange(len(times)) / 30
        got = R.play(name, keys, times, times)
    assert np.max(_deg(got, keys)) < tol


def test_players_broadcast_over_tracks():
    rng = np.random.default_rng(7)
    keys = Rotation.random(3 * 5, random_state=8).as_quat(scalar_first=True).reshape(3, 5, 4)
    keys[rng.random((3, 5)) < 0.4] *= -1
    times = np.array([0.0, 0.3, 1.0, 1.2, 2.0])
    t = np.linspace(0, 2, 41)
    for name in R.RUNTIMES:
        together = R.play(name, keys, times, t)
        apart = np.stack([R.play(name, k, times, t) for k in keys])
        assert together.shape == (3, 41, 4)
        assert np.allclose(together, apart, equal_nan=True), name


def test_bad_input_is_refused_with_the_argument_named():
    with pytest.raises(ValueError, match="times must be finite and strictly increasing"):
        P.play_three([[1.0, 0, 0, 0]] * 2, [1.0, 1.0], [0.0])
    with pytest.raises(ValueError, match="keys must have shape"):
        P.play_three([[1.0, 0, 0, 0]] * 3, [0.0, 1.0], [0.0])
    with pytest.raises(ValueError, match="CUBICSPLINE needs"):
        P.play_three([[1.0, 0, 0, 0]] * 2, [0.0, 1.0], [0.0], interpolation="CUBICSPLINE")
    with pytest.raises(ValueError, match="interpolation must be"):
        P.play_three([[1.0, 0, 0, 0]] * 2, [0.0, 1.0], [0.0], interpolation="cubic")
