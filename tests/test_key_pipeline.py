"""Pipeline steps (math/key_pipeline.py) against independent code and the tools' own tests.

Quantization is held to glTF's normalized-integer rule, the Euler round trip
to scipy, gltfpack's resampler and glTF-Transform 2's key reduction to
scalar transcriptions of their sources (loops written here, in the tools'
own order), and glTF-Transform 3+'s reduction to its own unit test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from quatlab.math import key_pipeline as KP
from quatlab.math import quaternion as Q
from quatlab.math import runtime_players as P

C45 = math.sqrt(0.5)


def _deg(a, b):
    return np.degrees(Q.angle_between(a, b))


def _turn(degrees, axis=(0, 0, 1)):
    """Keys turning about ``axis`` through ``degrees``, stored sign-continuously."""
    return Q.from_axis_angle(axis, np.radians(np.asarray(degrees, float)))


# --------------------------------------------------------------------------- parsing


def test_parse_steps_reads_every_kind_and_refuses_the_rest():
    steps = KP.parse_steps("quantize:8, meshopt:12,resample:24,reduce:1e-4,reduce-v2:0.001,"
                           "positive-w,euler:zxy")
    assert [(s.kind, s.value) for s in steps] == [
        ("quantize", 8), ("meshopt", 12), ("resample", 24), ("reduce", 1e-4),
        ("reduce-v2", 0.001), ("positive-w", None), ("euler", "zxy")]
    for bad, match in (("quantize", "needs a value"), ("quantize:10", "8 or 16 bits"),
                       ("meshopt:3", r"\[4, 16\]"), ("resample:0", r"\[1, 1000\]"),
                       ("resample:x", "expected a number"), ("reduce:nan", "expected a number"),
                       ("positive-w:1", "takes no value"), ("euler:ABC", "expected an order"),
                       ("blur:2", "unknown step 'blur'"), (" , ", "at least one step")):
        with pytest.raises(ValueError, match=match):
            KP.parse_steps(bad)


# --------------------------------------------------------------------------- codecs as steps


def _gltf_snorm16(f):
    """glTF 2.0 normalized short: c = round(f * 32767) half away from 0, f = max(c / 32767, -1)."""
    f = min(max(f, -1.0), 1.0)
    c = int(math.floor(abs(f) * 32767 + 0.5)) * (1 if f >= 0 else -1)
    return max(c / 32767, -1.0)


def test_quantize_step_stores_keys_and_tangents_as_gltf_normalized_shorts():
    keys = Rotation.random(4, random_state=3).as_quat(scalar_first=True)
    tangents = np.random.default_rng(4).normal(scale=1.5, size=(4, 4))  # some beyond +-1
    track = KP.KeyTrack(np.arange(4.0), keys, "CUBICSPLINE", tangents, -tangents)
    out = KP.apply_steps(track, "quantize:16")
    assert out.keys.tolist() == [[_gltf_snorm16(v) for v in k] for k in keys]
    assert out.in_tangents.tolist() == [[_gltf_snorm16(v) for v in k] for k in tangents]
    assert np.max(np.abs(out.out_tangents)) <= 1.0


def test_meshopt_and_positive_w_steps_flip_keys_a_lerping_runtime_then_plays_the_long_way():
    times = np.array([0.0, 1.0])
    # positive-w: w = +0.259 then -0.259. meshopt: 260 deg (z = 0.766 largest, positive),
    # then 280 deg (w = -0.766 largest, negative: the filter negates the key).
    for spec, degrees in (("positive-w", [150.0, 210.0]), ("meshopt:12", [260.0, 280.0])):
        keys = _turn(degrees)
        assert np.dot(keys[0], keys[1]) > 0
        out = KP.apply_steps(KP.KeyTrack(times, keys), spec)
        assert np.dot(out.keys[0], out.keys[1]) < 0, spec   # the step made a flip
        ref = P.play_reference(out.keys, times, [0.5])[0]
        naive = P.play_lerp_stored(out.keys, times, [0.5])[0]
        assert _deg(ref, _turn(np.mean(degrees))) < 0.1, spec   # the reference does not care
        assert _deg(naive, ref) > 179, spec                      # a stored-sign lerp does


def test_euler_step_matches_scipy_and_keeps_the_angles():
    keys = Rotation.random(20, random_state=9).as_quat(scalar_first=True)
    for order in ("ZXY", "zxy", "XYZ"):
        out = KP.apply_steps(KP.KeyTrack(np.arange(20.0), keys), f"euler:{order}")
        angles, got_order = out.euler
        scipy_angles = Rotation.from_quat(keys, scalar_first=True).as_euler(order, degrees=True)
        assert got_order == order and np.allclose(angles, scipy_angles, atol=1e-9)
        # The keys are the angles made quaternions again (scipy's composition, its own sign).
        back = Rotation.from_euler(order, scipy_angles, degrees=True).as_quat(
            scalar_first=True, canonical=False)
        assert np.allclose(out.keys, back, atol=1e-12)
        assert np.max(_deg(out.keys, keys)) < 1e-9         # the same rotations


def test_euler_round_trip_creates_sign_flips():
    # A steady turn about Y through 0..350 deg: the keys as stored are continuous; the
    # round trip through ZXY angles gives w >= 0 keys on one side and flips at 180 deg.
    keys = _turn(np.arange(0.0, 351.0, 10.0), axis=(0, 1, 0))
    out = KP.apply_steps(KP.KeyTrack(np.arange(36.0), keys), "euler:ZXY")
    dots = np.einsum("ij,ij->i", out.keys[:-1], out.keys[1:])
    assert np.all(np.einsum("ij,ij->i", keys[:-1], keys[1:]) > 0) and np.any(dots < 0)


# --------------------------------------------------------------------------- gltfpack resample


def _gltfpack_resample(times, keys, freq):
    """zeux/meshoptimizer gltf/animation.cpp resampleKeyframes + interpolateLinear, one LINEAR
    rotation track (x, y, z, w lists), then the constant-track test of processAnimation."""
    mint, maxt = times[0], times[-1]
    frames = 1 + int((maxt - mint) * freq + 0.8)
    out_t, out_v = [], []
    cursor = 0
    for i in range(frames):
        time = mint + i / freq
        while cursor + 1 < len(times):
            if times[cursor + 1] > time:
                break
            cursor += 1
        if cursor + 1 < len(times):
            rng = times[cursor + 1] - times[cursor]
            inv = 0.0 if rng == 0 else 1.0 / rng
            t = max(0.0, min(1.0, (time - times[cursor]) * inv))
            lv, rv = keys[cursor], keys[cursor + 1]
            ca = sum(a * b for a, b in zip(lv, rv, strict=True))
            d = abs(ca)
            A = 1.0904 + d * (-3.2452 + d * (3.55645 - d * 1.43519))
            B = 0.848013 + d * (-1.06021 + d * 0.215638)
            k = A * (t - 0.5) * (t - 0.5) + B
            ot = t + t * (t - 0.5) * (t - 1) * k
            t0, t1 = 1 - ot, (ot if ca > 0 else -ot)
            lerp = [a * t0 + b * t1 for a, b in zip(lv, rv, strict=True)]
            n = math.sqrt(sum(v * v for v in lerp))
            out_v.append([v / n for v in lerp] if n > 0 else lerp)
        else:
            out_v.append(list(keys[cursor]))
        out_t.append(time)
    first = out_v[0]
    deviation = max(2 * math.acos(min(1.0, abs(sum(a * b for a, b in zip(first, v, strict=True)))))
                    for v in out_v)
    if deviation <= 0.1 * (3.1415926 / 180.0):
        return out_t[:1], out_v[:1]
    return out_t, out_v


def test_resample_step_is_gltfpacks_resampler():
    rng = np.random.default_rng(11)
    keys = Rotation.random(7, random_state=12).as_quat(scalar_first=True)
    keys[rng.random(7) < 0.5] *= -1
    times = np.cumsum(rng.uniform(0.05, 0.4, 7))
    out = KP.apply_steps(KP.KeyTrack(times, keys), "resample:30")
    want_t, want_v = _gltfpack_resample(times.tolist(), keys.tolist(), 30)
    assert np.allclose(out.times, want_t) and np.allclose(out.keys, want_v, atol=1e-12)
    assert out.interpolation == "LINEAR"


def test_resample_step_samples_splines_and_collapses_a_still_track():
    still = KP.KeyTrack(np.array([0.0, 0.5, 1.0]), _turn([0.0, 0.05, 0.02]))
    assert KP.apply_steps(still, "resample:30").times.tolist() == [0.0]
    z = np.zeros((2, 4))
    cubic = KP.KeyTrack(np.array([0.0, 1.0]), _turn([0.0, 90.0]), "CUBICSPLINE", z, z)
    out = KP.apply_steps(cubic, "resample:10")
    assert out.interpolation == "LINEAR" and len(out.times) == 11
    assert np.allclose(out.keys, P.hermite(cubic.keys, z, z, cubic.times, out.times))


# --------------------------------------------------------------------------- key reduction


def test_reduce_step_passes_gltf_transforms_own_rotation_test():
    # donmccurdy/glTF-Transform packages/functions/test/resample.test.ts, 'rotation':
    # gl-matrix quat.fromEuler(x deg, 0, 0) at 0, 45, ..., 270, times 0..6; resample()
    # keeps times [0, 3, 6] ("resampling can't create >=180 deg steps") with these values.
    angles = np.arange(0.0, 271.0, 45.0)
    keys = np.stack([np.cos(np.radians(angles) / 2), np.sin(np.radians(angles) / 2),
                     0 * angles, 0 * angles], axis=1)
    out = KP.apply_steps(KP.KeyTrack(np.arange(7.0), keys), "reduce:0.0001")
    assert out.times.tolist() == [0.0, 3.0, 6.0]
    want_xyzw = [[0, 0, 0, 1], [0.9238795042037964, 0, 0, 0.3826834261417389],
                 [0.7071067690849304, 0, 0, -0.7071067690849304]]
    assert np.allclose(out.keys[:, [1, 2, 3, 0]], want_xyzw, atol=1e-7)


def _gltf_transform_v2(times, keys, tolerance):
    """glTF-Transform 2.4.7 packages/functions/src/resample.ts optimize(), LINEAR: in-place
    compaction, each key tested against the stored keys i - 1 and i + 1."""
    inp = list(times)
    out = [list(k) for k in keys]
    last = len(inp) - 1
    write = 1
    for i in range(1, last):
        time, time_prev, time_next = inp[i], inp[i - 1], inp[i + 1]
        mix = (time - time_prev) / (time_next - time_prev)
        keep = False
        if time != time_next and (i != 1 or time != inp[0]):
            for j in range(4):
                value, prev, nxt = out[i][j], out[i - 1][j], out[i + 1][j]
                if abs(value - (prev * (1 - mix) + nxt * mix)) > tolerance:
                    keep = True
                    break
        if keep:
            if i != write:
                inp[write], out[write] = inp[i], list(out[i])
            write += 1
    inp[write], out[write] = inp[last], list(out[last])
    return inp[: write + 1], out[: write + 1]


def test_reduce_v2_matches_gltf_transform_2_and_merges_a_turn_past_a_half_turn():
    keys = _turn(np.arange(0.0, 241.0, 2.0))
    times = np.arange(121.0)
    out = KP.apply_steps(KP.KeyTrack(times, keys), "reduce-v2:0.001")
    want_t, want_k = _gltf_transform_v2(times, keys, 0.001)
    assert out.times.tolist() == want_t and np.allclose(out.keys, want_k)
    assert out.times.tolist() == [0.0, 120.0]               # 240 deg between two keys
    # Played by the spec, the merged track turns back the other way: 120 deg off mid-way.
    mid = P.play_reference(out.keys, out.times, [60.0])[0]
    assert _deg(mid, keys[60]) == pytest.approx(180.0, abs=1e-6)
    # The current reduction keeps the turn.
    now = KP.apply_steps(KP.KeyTrack(times, keys), "reduce:0.001")
    t = np.linspace(0, 120, 241)
    assert np.max(_deg(P.play_reference(now.keys, now.times, t),
                       P.play_reference(keys, times, t))) < 0.2


def test_reduce_leaves_splines_and_short_tracks_alone():
    z = np.zeros((3, 4))
    cubic = KP.KeyTrack(np.arange(3.0), _turn([0.0, 1.0, 2.0]), "CUBICSPLINE", z, z)
    assert KP.apply_steps(cubic, "reduce:0.01") is cubic
    short = KP.KeyTrack(np.arange(2.0), _turn([0.0, 1.0]))
    assert KP.apply_steps(short, "reduce-v2:0.01") is short
