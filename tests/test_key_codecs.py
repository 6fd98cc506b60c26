"""Key codecs (math/key_codecs.py) against the formats' own rules, written out here independently.

Each codec is checked against a scalar transcription of its source (one key
at a time, in the engine's own (x, y, z, w) order, with Python's integer
arithmetic), against the source's own test vectors where it has them
(meshoptimizer's ``encodeFilterQuat12``), and against properties the format
promises (glTF's normalized-integer rule, signs kept or dropped).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation

from quatlab.math import key_codecs as C
from quatlab.math import quaternion as Q

unit_quats = st.integers(0, 2**32 - 1).map(
    lambda seed: Rotation.random(random_state=seed).as_quat(scalar_first=True)
    * (1 if seed % 2 else -1))


def _deg(a, b):
    return float(np.degrees(Q.angle_between(a, b)))


# --------------------------------------------------------------------------- glTF snorm


def _gltf_snorm(f: float, bits: int) -> float:
    """glTF 2.0, "Animations" / KHR_mesh_quantization: c = round(f * s), f = max(c / s, -1).

    ``round`` half away from zero, as meshopt_quantizeSnorm (and C's roundf) do.
    """
    s = 2 ** (bits - 1) - 1
    f = min(max(f, -1.0), 1.0)
    c = int(math.floor(abs(f) * s + 0.5)) * (1 if f >= 0 else -1)
    return max(c / s, -1.0)


@given(unit_quats, st.sampled_from([8, 16]))
def test_snorm_matches_the_gltf_rule_component_by_component(q, bits):
    got = C.snorm_round_trip(q, bits)
    want = [_gltf_snorm(float(v), bits) for v in q]
    assert got.tolist() == want


def test_snorm_keeps_the_stored_sign_and_the_error_bound():
    rng = np.random.default_rng(1)
    q = Rotation.random(200, random_state=2).as_quat(scalar_first=True)
    q[rng.random(200) < 0.5] *= -1
    for bits, bound in ((16, 0.01), (8, 1.5)):
        r = C.snorm_round_trip(q, bits)
        assert np.all(np.einsum("ij,ij->i", r, q) > 0)        # same hemisphere as stored
        assert max(_deg(a, b) for a, b in zip(r, q, strict=True)) < bound


def test_snorm_rejects_bad_widths():
    with pytest.raises(ValueError, match="bits must be"):
        C.snorm_round_trip([1, 0, 0, 0], 1)
    with pytest.raises(ValueError, match="bits must be"):
        C.snorm_round_trip([1, 0, 0, 0], 8.0)


# --------------------------------------------------------------------------- meshopt


def test_meshopt_filter_reproduces_meshoptimizers_own_test_vectors():
    # zeux/meshoptimizer demo/tests.cpp, encodeFilterQuat12: data in (x, y, z, w),
    # expected words 0x7fc, 0x7fd, 0x7ff, 0x7ff in the last slot.
    data_xyzw = np.array([[1, 0, 0, 0], [0, -1, 0, 0], [0.7071068, 0, 0, 0.707168],
                          [-0.7071068, 0, 0, -0.707168]])
    keys = np.concatenate([data_xyzw[:, 3:], data_xyzw[:, :3]], axis=1)
    expected = [[0, 0, 0, 0x7FC], [0, 0, 0, 0x7FD], [0x7FF, 0, 0, 0x7FF], [0x7FF, 0, 0, 0x7FF]]
    assert C.meshopt_quat_encode(keys, 12).tolist() == expected
    # ... and the same test's check on the decoded keys: |dot| within 1e-4 of 1.
    decoded = C.meshopt_quat_round_trip(keys, 12)
    assert np.all(np.abs(np.abs(np.einsum("ij,ij->i", decoded, keys)) - 1) < 1e-4)


def _meshopt_scalar(q_wxyz, bits):
    """meshopt_encodeFilterQuat then meshopt_decodeFilterQuat for one key (vertexfilter.cpp)."""
    q = [q_wxyz[1], q_wxyz[2], q_wxyz[3], q_wxyz[0]]
    qc = 0
    for i in (1, 2, 3):
        if abs(q[i]) > abs(q[qc]):
            qc = i
    sign = -1.0 if q[qc] < 0 else 1.0
    scale = (1 << (bits - 1)) - 1

    def snorm(v):
        v = min(max(v, -1.0), 1.0)
        return int(v * scale + (0.5 if v >= 0 else -0.5))

    d = [snorm(q[(qc + 1) & 3] * math.sqrt(2) * sign), snorm(q[(qc + 2) & 3] * math.sqrt(2) * sign),
         snorm(q[(qc + 3) & 3] * math.sqrt(2) * sign), (snorm(1.0) & ~3) | qc]
    s = float(d[3] | 3)
    x, y, z = (float(v) for v in d[:3])
    w = math.sqrt(max(s * s * 2 - x * x - y * y - z * z, 0.0))
    ss = (32767.0 / math.sqrt(2)) / s

    def r(v):
        return int(v + (0.5 if v >= 0 else -0.5))

    out = [0, 0, 0, 0]
    out[(qc + 1) & 3], out[(qc + 2) & 3], out[(qc + 3) & 3], out[qc] = (
        r(x * ss), r(y * ss), r(z * ss), r(w * ss))
    xyzw = [max(c / 32767.0, -1.0) for c in out]
    return [xyzw[3], xyzw[0], xyzw[1], xyzw[2]]


@given(unit_quats, st.integers(4, 16))
def test_meshopt_filter_matches_a_scalar_transcription(q, bits):
    assert np.allclose(C.meshopt_quat_round_trip(q, bits), _meshopt_scalar(q, bits), atol=1e-12)


def test_meshopt_filter_makes_the_largest_component_positive():
    q = np.array([-0.8, 0.6, 0.0, 0.0])              # w largest, negative
    r = C.meshopt_quat_round_trip(q, 16)
    assert r[0] > 0 and _deg(r, q) < 0.01             # same rotation, other sign


# --------------------------------------------------------------------------- ozz


def _ozz_scalar(q_wxyz):
    """ozz CompressQuaternion, DecompressQuaternion for a key (animation_builder, sampling_job)."""
    q = [q_wxyz[1], q_wxyz[2], q_wxyz[3], q_wxyz[0]]
    largest = max(range(4), key=lambda i: (abs(q[i]), -i))
    k_scale = 32767 / math.sqrt(2)
    offset = -math.sqrt(2) / 2
    kept = [i for i in range(4) if i != largest]
    codes = [min(int((q[i] - offset) * k_scale + 0.5), 32767) for i in kept]
    out = [0.0] * 4
    for i, c in zip(kept, codes, strict=True):
        out[i] = c * (math.sqrt(2) / 32767) + offset
    w0 = math.sqrt(max(1 - sum(out[i] ** 2 for i in kept), 0.0))
    out[largest] = -w0 if q[largest] < 0 else w0
    return [out[3], out[0], out[1], out[2]]


@given(unit_quats)
def test_ozz_matches_a_scalar_transcription_and_keeps_signs(q):
    got = C.ozz_round_trip(q)
    assert np.allclose(got, _ozz_scalar(q), atol=1e-12)
    assert np.dot(got, q) > 0 and _deg(got, q) < 0.01


# --------------------------------------------------------------------------- ACL


@given(unit_quats)
def test_acl_makes_w_positive_and_keeps_the_rotation(q):
    got = C.acl_round_trip(q)
    assert got[0] >= 0
    # float32 x, y, z and w = sqrt(1 - |xyz|^2) in float32: off by at most
    # sqrt(float32 eps) in w, about 0.03 deg at a half turn.
    assert _deg(got, q) < 0.05


def test_acl_rebuilds_w_from_float32():
    q = Q.from_axis_angle([0, 0, 1], np.radians(179.99))   # w ~ 8.7e-5: its square is lost
    got = C.acl_round_trip(q)
    xyz = q[1:].astype(np.float32)
    w = np.sqrt(np.abs(np.float32(1) - np.dot(xyz, xyz)))
    assert got[0] == np.float64(w)


# --------------------------------------------------------------------------- Godot


def _godot_scalar(q_wxyz):
    """Animation::_compress_key, _uncompress_quaternion for a key (animation.cpp, vector3.cpp)."""
    w, x, y, z = (float(v) for v in q_wxyz)
    r = 1.0 / math.sqrt(1 - w * w) if abs(w) < 1 else float("nan")
    ax = [x * r, y * r, z * r]
    angle = math.fmod(2 * math.acos(w), 2 * math.pi)
    if any(math.isnan(v) for v in ax):
        ox = oy = -1.0                     # int32(NaN) is INT_MIN on x86, clamped to 0
    else:
        s = abs(ax[0]) + abs(ax[1]) + abs(ax[2])
        nx, ny, nz = ax[0] / s, ax[1] / s, ax[2] / s
        if nz >= 0:
            ox, oy = nx, ny
        else:
            ox = (1 - abs(ny)) * (1 if nx >= 0 else -1)
            oy = (1 - abs(nx)) * (1 if ny >= 0 else -1)
        ox, oy = ox * 0.5 + 0.5, oy * 0.5 + 0.5

    def code(v):
        return min(max(int(v * 65535.0), 0), 65535) if v >= 0 else 0

    cx, cy, ca = code(ox), code(oy), code(angle / (2 * math.pi))
    fx, fy = cx / 65535.0 * 2 - 1, cy / 65535.0 * 2 - 1
    n = [fx, fy, 1 - abs(fx) - abs(fy)]
    t = min(max(-n[2], 0.0), 1.0)
    n[0] += -t if n[0] >= 0 else t
    n[1] += -t if n[1] >= 0 else t
    length = math.sqrt(sum(v * v for v in n))
    n = [v / length for v in n]
    half = ca / 65535.0 * math.pi
    return [math.cos(half), n[0] * math.sin(half), n[1] * math.sin(half), n[2] * math.sin(half)]


@given(unit_quats)
def test_godot_matches_a_scalar_transcription(q):
    assert np.allclose(C.godot_round_trip(q), _godot_scalar(q), atol=1e-9)


def test_godot_codes_of_a_quarter_turn_worked_by_hand():
    # 90 deg about +Z: axis (0, 0, 1) is octahedral (0.5, 0.5) -> int32(0.5 * 65535) = 32767;
    # angle pi/2 is 0.25 of a turn -> int32(16383.75) = 16383.
    q = Q.from_axis_angle([0, 0, 1], np.pi / 2)
    assert C.godot_encode(q).tolist() == [32767.0, 32767.0, 16383.0]


def test_godot_keeps_the_rotation_and_the_identity():
    q = Rotation.random(100, random_state=5).as_quat(scalar_first=True)
    assert max(_deg(a, b) for a, b in zip(C.godot_round_trip(q), q, strict=True)) < 0.02
    assert np.allclose(C.godot_round_trip([1.0, 0, 0, 0]), [1, 0, 0, 0])
