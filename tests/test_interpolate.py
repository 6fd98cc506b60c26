"""quatlab.math.interpolate: the interpolation contract (docs/interpolation.md, seeds 000 and 004).

Oracles: exact rational arithmetic for SLERP (fractions.Fraction, then
np.longdouble), scipy's Slerp and Rotation, closed forms of the NLERP angle,
Shoemake's SQUAD control point rebuilt with scipy, and hypothesis properties.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from oracles import rot_angle, unit
from scipy.spatial.transform import Rotation, Slerp

from quatlab.math import interpolate as I
from quatlab.math import quaternion as Q

PROPERTY = settings(max_examples=80, deadline=None)
LD = np.longdouble

METHODS = {"nlerp": I.nlerp, "slerp": I.slerp}


# --------------------------------------------------------------------------- helpers


def hamilton(a, b):
    aw, ax, ay, az = np.moveaxis(np.asarray(a, dtype=np.float64), -1, 0)
    bw, bx, by, bz = np.moveaxis(np.asarray(b, dtype=np.float64), -1, 0)
    return np.stack(
        [
            aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
        ],
        axis=-1,
    )


def path_angle(q0, q):
    """Angle swept from q0 to q along a path, in [0, 2 pi]: 2 atan2(|vec r|, w r), r = q0* q."""
    q0 = unit(q0) * np.array([1.0, -1.0, -1.0, -1.0])
    r = hamilton(q0, q)
    return 2.0 * np.arctan2(np.linalg.norm(r[..., 1:], axis=-1), r[..., 0])


def axis_angle(axis, angle):
    axis = np.asarray(axis, dtype=np.float64)
    axis = axis / np.linalg.norm(axis)
    return np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])


def random_quats(rng, shape):
    return unit(rng.normal(size=tuple(shape) + (4,)))


def _ld(fr: Fraction) -> np.longdouble:
    return LD(fr.numerator) / LD(fr.denominator)


def exact_slerp(a, b, t):
    """Exact SLERP of the float quaternions a -> b at parameters t, in long double.

    P = B - (A.B / A.A) A is formed exactly with fractions; then, in long double,
    omega = atan2(|P| / |B|, A.B / (|A| |B|)) and
    result = cos(t omega) A/|A| + sin(t omega) P/|P|. Returns None when P = 0 and
    A.B < 0 (exact antipodes: no unique path).
    """
    A = [Fraction(float(x)) for x in a]
    B = [Fraction(float(x)) for x in b]
    ab = sum(x * y for x, y in zip(A, B, strict=True))
    aa = sum(x * x for x in A)
    bb = sum(x * x for x in B)
    c = ab / aa
    P = [y - c * x for x, y in zip(A, B, strict=True)]
    pp = sum(x * x for x in P)
    na, nb, npp = np.sqrt(_ld(aa)), np.sqrt(_ld(bb)), np.sqrt(_ld(pp))
    a_hat = np.array([_ld(x) for x in A]) / na
    t = np.asarray(t, dtype=LD)
    if pp == 0:
        if ab < 0:
            return None
        return np.broadcast_to(a_hat, t.shape + (4,))
    p_hat = np.array([_ld(x) for x in P]) / npp
    omega = np.arctan2(npp / nb, _ld(ab) / (na * nb))
    return np.cos(t * omega)[..., None] * a_hat + np.sin(t * omega)[..., None] * p_hat


def ld_rotation_error(r, e):
    """4 atan2(|r - e|, |r + e|) in long double: the rotation angle from e to r (signed q)."""
    r = np.asarray(r, dtype=LD)
    e = np.asarray(e, dtype=LD)
    d = np.sqrt(np.sum((r - e) ** 2, axis=-1))
    s = np.sqrt(np.sum((r + e) ** 2, axis=-1))
    return 4 * np.arctan2(d, s)


components = st.floats(-1.0, 1.0, allow_nan=False, allow_infinity=False)
quats = arrays(np.float64, 4, elements=components).filter(lambda q: q @ q > 1e-4)
params = st.floats(0.0, 1.0)
scales = st.floats(1e-3, 1e3)


# --------------------------------------------------------------------------- errors


def test_collapse_error_is_a_value_error():
    assert issubclass(I.InterpolationCollapseError, ValueError)


BAD_QUATERNIONS = [
    pytest.param([0.0, 0.0, 0.0, 0.0], id="zero"),
    pytest.param([np.nan, 0.0, 0.0, 1.0], id="nan"),
    pytest.param([1.0, 0.0, -np.inf, 0.0], id="inf"),
    pytest.param([1.0, 0.0, 0.0], id="last-dim-3"),
    pytest.param([[1.0, 0.0, 0.0, 0.0, 0.0]], id="last-dim-5"),
    pytest.param(np.ones((4, 3)), id="shape-4x3"),
    pytest.param(1.0, id="scalar"),
    pytest.param([[1.0, 0, 0, 0], [0, 0, 0, 0]], id="one-zero-row"),
    pytest.param("wxyz", id="text"),
]

GOOD = np.array([0.9, 0.1, -0.3, 0.2])


@pytest.mark.parametrize("bad", BAD_QUATERNIONS)
@pytest.mark.parametrize("method", ["nlerp", "slerp"])
@pytest.mark.parametrize("shortest", [True, False])
def test_invalid_quaternion_names_q0_or_q1(method, bad, shortest):
    f = METHODS[method]
    with pytest.raises(ValueError, match=r"\bq0\b"):
        f(bad, GOOD, 0.5, shortest=shortest)
    with pytest.raises(ValueError, match=r"\bq1\b"):
        f(GOOD, bad, 0.5, shortest=shortest)


BAD_T = [
    pytest.param(np.nan, id="nan"),
    pytest.param(np.inf, id="inf"),
    pytest.param(-np.inf, id="-inf"),
    pytest.param(-1e-12, id="below-0"),
    pytest.param(1.0 + 1e-12, id="above-1"),
    pytest.param(2.0, id="2"),
    pytest.param([0.0, 0.5, 1.5], id="array-with-one-bad"),
    pytest.param([0.2, np.nan], id="array-with-nan"),
    pytest.param("half", id="text"),
]


@pytest.mark.parametrize("t", BAD_T)
@pytest.mark.parametrize("method", ["nlerp", "slerp", "squad"])
def test_invalid_t_names_t(method, t):
    q1 = Q.from_axis_angle([0, 0, 1], 1.0)
    with pytest.raises(ValueError, match=r"\bt\b"):
        if method == "squad":
            I.squad(Q.IDENTITY, q1, Q.IDENTITY, q1, t)
        else:
            METHODS[method](Q.IDENTITY, q1, t)


@pytest.mark.parametrize("bad", BAD_QUATERNIONS[:4])
@pytest.mark.parametrize("position", ["q0", "q1", "s0", "s1"])
def test_squad_invalid_quaternion_names_argument(bad, position):
    args = {"q0": Q.IDENTITY, "q1": GOOD, "s0": Q.IDENTITY, "s1": GOOD}
    args[position] = bad
    with pytest.raises(ValueError, match=rf"\b{position}\b"):
        I.squad(args["q0"], args["q1"], args["s0"], args["s1"], 0.5)


@pytest.mark.parametrize("bad", BAD_QUATERNIONS[:4])
@pytest.mark.parametrize("position", ["q_prev", "q", "q_next"])
def test_intermediate_invalid_quaternion_names_argument(bad, position):
    args = {"q_prev": Q.IDENTITY, "q": GOOD, "q_next": Q.IDENTITY}
    args[position] = bad
    with pytest.raises(ValueError, match=rf"\b{position}\b"):
        I.intermediate(args["q_prev"], args["q"], args["q_next"])


@pytest.mark.parametrize("method", ["nlerp", "slerp"])
def test_shortest_is_keyword_only(method):
    with pytest.raises(TypeError):
        METHODS[method](Q.IDENTITY, GOOD, 0.5, True)


# --------------------------------------------------------------------------- normalization


@pytest.mark.parametrize("method", ["nlerp", "slerp"])
@pytest.mark.parametrize("shortest", [True, False])
def test_non_unit_inputs_are_normalized(rng, method, shortest):
    f = METHODS[method]
    a = random_quats(rng, (20,))
    b = random_quats(rng, (20,))
    t = rng.uniform(size=20)
    ref = f(a, b, t, shortest=shortest)
    got = f(a * 3.7, b * 0.02, t, shortest=shortest)
    assert np.allclose(got, ref, atol=1e-14)
    assert np.allclose(np.linalg.norm(got, axis=-1), 1.0, atol=1e-15)
    assert np.allclose(f(a * 3.7, b * 0.02, 0.0, shortest=shortest), a, atol=1e-15)


# --------------------------------------------------------------------------- hemisphere rule


@pytest.mark.parametrize("method", ["nlerp", "slerp"])
def test_flip_only_when_dot_negative(method):
    f = METHODS[method]
    q20 = axis_angle([0, 0, 1], np.radians(20))
    # dot < 0: shortest flips, naive does not.
    short = f(Q.IDENTITY, -q20, 1.0)
    naive = f(Q.IDENTITY, -q20, 1.0, shortest=False)
    assert np.allclose(short, q20, atol=1e-15)
    assert np.allclose(naive, -q20, atol=1e-15)
    # dot > 0: both keep the sign.
    assert np.allclose(f(Q.IDENTITY, q20, 1.0), q20, atol=1e-15)


@pytest.mark.parametrize("method", ["nlerp", "slerp"])
@pytest.mark.parametrize("shortest", [True, False])
@pytest.mark.parametrize("x_sign", [1.0, -1.0])
def test_dot_exactly_zero_keeps_stored_sign(method, shortest, x_sign):
    # identity -> 180 deg about X stored as (0, +-1, 0, 0): dot = 0 exactly, the sign is kept,
    # so the two stored signs give the two opposite (equally long) half-turn paths.
    f = METHODS[method]
    q1 = np.array([0.0, x_sign, 0.0, 0.0])
    assert np.dot(Q.IDENTITY, q1) == 0.0
    mid = f(Q.IDENTITY, q1, 0.5, shortest=shortest)
    assert np.allclose(mid, [np.sqrt(0.5), x_sign * np.sqrt(0.5), 0, 0], atol=1e-15)
    # The midpoint turns Y towards +Z (x_sign = 1) or -Z (x_sign = -1): 90 deg about +-X.
    y = Q.rotate_vector(mid, [0.0, 1.0, 0.0])
    assert np.allclose(y, [0.0, 0.0, x_sign], atol=1e-15)
    assert np.allclose(f(Q.IDENTITY, q1, 1.0, shortest=shortest), q1, atol=1e-15)


def test_dot_exactly_zero_with_negative_zero_component():
    # -0.0 * 1 contributes -0.0 to the dot; it is not < 0.
    q1 = np.array([-0.0, -1.0, 0.0, 0.0])
    for f in METHODS.values():
        assert np.allclose(f(Q.IDENTITY, q1, 1.0), q1, atol=1e-15)


def test_tiny_negative_dot_still_flips_gltf_box_animated():
    # docs/presets.md, glTF BoxAnimated: (-0, -0, -0, -1) -> (1, 0, 0, 4.49e-11) in (x, y, z, w).
    # dot = -4.49e-11 < 0: the strict rule flips q1, deterministically.
    q0 = Q.from_xyzw([-0.0, -0.0, -0.0, -1.0])
    q1 = Q.from_xyzw([1.0, 0.0, 0.0, 4.49e-11])
    assert np.dot(q0, q1) < 0
    for f in METHODS.values():
        assert np.allclose(f(q0, q1, 1.0), -unit(q1), atol=1e-15)
        assert np.allclose(f(q0, q1, 1.0, shortest=False), unit(q1), atol=1e-15)


@pytest.mark.parametrize("method", ["nlerp", "slerp"])
def test_gltf_animated_triangle_last_segment(method):
    # docs/presets.md (gltf-animated-triangle): (0, 0, .707, -.707) -> (0, 0, 0, 1)
    # in (x, y, z, w): dot = -0.707.
    q0 = Q.from_xyzw([0, 0, 0.707, -0.707])
    q1 = Q.from_xyzw([0, 0, 0, 1.0])
    f = METHODS[method]
    t = np.linspace(0, 1, 11)
    short = f(q0, q1, t)
    naive = f(q0, q1, t, shortest=False)
    # the two rotations are 90 deg apart; the naive path sweeps 270 deg
    assert np.isclose(np.degrees(path_angle(q0, short[-1])), 90.0, atol=1e-9)
    assert np.isclose(np.degrees(path_angle(q0, naive[-1])), 270.0, atol=1e-9)
    assert np.all(np.degrees(path_angle(q0, short)) <= 90.0 + 1e-9)


# --------------------------------------------------------------------------- collapse


def test_naive_nlerp_of_q_and_minus_q_collapses(rng):
    q = random_quats(rng, ())
    with pytest.raises(I.InterpolationCollapseError):
        I.nlerp(q, -q, 0.5, shortest=False)
    with pytest.raises(ValueError):  # catchable as the ValueError it is
        I.nlerp(q, -2.5 * q, 0.5, shortest=False)
    with pytest.raises(I.InterpolationCollapseError):
        I.nlerp(q, -q, np.linspace(0, 1, 11), shortest=False)
    # Away from the middle, it stays at q then jumps to -q: same rotation, no error.
    out = I.nlerp(q, -q, [0.0, 0.25, 0.75, 1.0], shortest=False)
    assert np.allclose(out, [q, q, -q, -q], atol=1e-15)
    # The shortest blend flips -q back to q and never moves.
    assert np.allclose(I.nlerp(q, -q, np.linspace(0, 1, 11)), np.broadcast_to(q, (11, 4)))


def test_collapse_threshold_is_squared_length_1e_12():
    # (1 - t) e - t e has length |1 - 2 t|: squared length 1e-12 at t = 0.5 +- 5e-7.
    q = np.array([1.0, 0.0, 0.0, 0.0])
    for t in (0.5 - 4e-7, 0.5 + 4e-7, 0.5):
        with pytest.raises(I.InterpolationCollapseError):
            I.nlerp(q, -q, t, shortest=False)
    for t in (0.5 - 6e-7, 0.5 + 6e-7):
        out = I.nlerp(q, -q, t, shortest=False)
        assert np.allclose(np.abs(out), q)


def test_collapse_error_does_not_hide_in_a_batch():
    q0 = np.array([Q.IDENTITY, Q.IDENTITY])
    q1 = np.array([[0.0, 0, 0, 1], [-1.0, 0, 0, 0]])
    with pytest.raises(I.InterpolationCollapseError):
        I.nlerp(q0, q1, 0.5, shortest=False)


def test_naive_slerp_of_exact_antipodes_is_undefined_inside(rng):
    q = random_quats(rng, ())
    for t in (0.5, 1e-9, 1 - 1e-9, [0.0, 0.3]):
        with pytest.raises(I.InterpolationCollapseError):
            I.slerp(q, -q, t, shortest=False)
    # At the ends it is the stored endpoint.
    assert np.allclose(I.slerp(q, -q, 0.0, shortest=False), q, atol=0)
    assert np.allclose(I.slerp(q, -q, 1.0, shortest=False), -q, atol=1e-15)
    # Shortest: -q is flipped to q and the path stands still.
    assert np.allclose(I.slerp(q, -q, np.linspace(0, 1, 5)), np.broadcast_to(q, (5, 4)),
                       atol=1e-15)


# --------------------------------------------------------------------------- no mutation


def _frozen(a):
    a = np.array(a, dtype=np.float64)
    a.flags.writeable = False
    return a


@pytest.mark.parametrize("shortest", [True, False])
def test_inputs_never_mutated_and_read_only_accepted(rng, shortest):
    q0 = _frozen(rng.normal(size=(6, 4)) * 2.0)
    q1 = _frozen(-np.abs(rng.normal(size=(6, 4))) * np.sign(q0))  # dot < 0: the flip path
    s0 = _frozen(rng.normal(size=(6, 4)))
    s1 = _frozen(rng.normal(size=(6, 4)))
    t = _frozen(rng.uniform(size=6))
    before = [x.copy() for x in (q0, q1, s0, s1, t)]
    I.nlerp(q0, q1, t, shortest=shortest)
    I.slerp(q0, q1, t, shortest=shortest)
    I.squad(q0, q1, s0, s1, t, shortest=shortest)
    I.intermediate(q0, q1, s0)
    I.as_parameter(t)
    for b, a in zip(before, (q0, q1, s0, s1, t), strict=True):
        assert np.array_equal(a, b)


def test_lists_and_integer_arrays_accepted():
    assert np.allclose(I.slerp([1, 0, 0, 0], [0, 0, 0, 1], 1), [0, 0, 0, 1], atol=1e-15)
    assert np.allclose(I.nlerp(np.array([2, 0, 0, 0]), np.array([0, 0, 0, 2]), 0),
                       [1, 0, 0, 0])


# --------------------------------------------------------------------------- broadcasting


@pytest.mark.parametrize("method", ["nlerp", "slerp"])
@pytest.mark.parametrize(
    "s0, s1, st_, expected",
    [
        ((), (), (), ()),
        ((5,), (), (), (5,)),
        ((), (5,), (5,), (5,)),
        ((2, 3), (3,), (2, 1), (2, 3)),
        ((3,), (3,), (7, 1), (7, 3)),
        ((), (), (9,), (9,)),
        ((2, 1, 4), (1, 3, 1), (), (2, 3, 4)),
    ],
)
def test_broadcasting_matches_elementwise(rng, method, s0, s1, st_, expected):
    f = METHODS[method]
    q0 = random_quats(rng, s0)
    q1 = random_quats(rng, s1)
    t = rng.uniform(size=st_)
    out = f(q0, q1, t)
    assert out.shape == expected + (4,)
    b0 = np.broadcast_to(q0, expected + (4,)).reshape(-1, 4)
    b1 = np.broadcast_to(q1, expected + (4,)).reshape(-1, 4)
    bt = np.broadcast_to(t, expected).reshape(-1)
    flat = out.reshape(-1, 4)
    for i in range(flat.shape[0]):
        assert np.allclose(flat[i], f(b0[i], b1[i], bt[i]), atol=1e-15)


def test_large_batch_matches_small_batches(rng):
    # Batches are processed in chunks internally; the result must not depend on batch size.
    n = 10000
    q0 = random_quats(rng, (n,))
    q1 = random_quats(rng, (n,))
    t = rng.uniform(size=n)
    big = I.slerp(q0, q1, t)
    idx = rng.choice(n, 50, replace=False)
    assert np.array_equal(big[idx], I.slerp(q0[idx], q1[idx], t[idx]))


# --------------------------------------------------------------------------- seeds


def test_seed_000_negated_20_degrees():
    q20 = axis_angle([0, 0, 1], np.radians(20))
    q1 = -q20
    # The seed prints the float32 dot, -0.9848077 (-cos 10 deg = -0.98480775...).
    dot = float(Q.dot(Q.IDENTITY, q1))
    assert abs(dot - -0.9848077) < 1e-7
    assert str(np.float32(dot)) == "-0.9848077"
    naive = I.nlerp(Q.IDENTITY, q1, 0.5, shortest=False)
    short = I.nlerp(Q.IDENTITY, q1, 0.5)
    assert np.isclose(np.degrees(path_angle(Q.IDENTITY, naive)), 170.0, atol=1e-9)
    assert np.isclose(np.degrees(path_angle(Q.IDENTITY, short)), 10.0, atol=1e-9)
    # the same midpoints for SLERP (the chord midpoint normalizes to the arc midpoint)
    assert np.isclose(np.degrees(path_angle(Q.IDENTITY, I.slerp(Q.IDENTITY, q1, 0.5,
                                                                 shortest=False))), 170.0)
    assert np.isclose(np.degrees(path_angle(Q.IDENTITY, I.slerp(Q.IDENTITY, q1, 0.5))), 10.0)
    # endpoints preserved
    assert np.allclose(I.nlerp(Q.IDENTITY, q1, 1.0, shortest=False), q1)
    assert np.allclose(I.nlerp(Q.IDENTITY, q1, 1.0), q20)


@pytest.mark.parametrize("method", ["nlerp", "slerp"])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_seed_004_quarter_turn_midpoint(method, sign):
    q1 = sign * axis_angle([0, 0, 1], np.pi / 2)
    mid = METHODS[method](Q.IDENTITY, q1, 0.5)
    assert np.allclose(Q.rotate_vector(mid, [1.0, 0, 0]), [0.7071, 0.7071, 0.0], atol=5e-5)
    assert np.allclose(Q.rotate_vector(mid, [1.0, 0, 0]), [np.sqrt(0.5), np.sqrt(0.5), 0],
                       atol=1e-15)
    # the quaternion angle is half the rotation angle: 22.5 deg in 4D at the midpoint
    assert np.isclose(np.degrees(np.arccos(mid[0])), 22.5)


# --------------------------------------------------------------------------- SLERP accuracy


def _hard_pairs(rng):
    """(q0, q1) pairs covering the whole range, with dot within 1e-12 of +1 and of -1."""
    pairs = []
    axes = rng.normal(size=(6, 3))
    bases = [Q.IDENTITY, *random_quats(rng, (5,))]
    angles = [0.0, 1e-15, 1e-12, 1e-9, 1e-6, 2 * np.arccos(0.9995), 0.1, 1.0, np.pi / 2,
              np.pi - 1e-9, np.pi, 3.0, 2 * np.pi - 3.0, 2 * np.pi - 2 * np.arccos(0.9995),
              2 * np.pi - 1e-6, 2 * np.pi - 1e-9, 2 * np.pi - 1e-12, 2 * np.pi - 1e-14]
    for base, axis in zip(bases, axes, strict=True):
        for ang in angles:
            pairs.append((base, hamilton(base, axis_angle(axis, ang))))
    # direct tiny perturbations of +-q0 (not on an exact great circle through anything)
    for base in bases:
        for scale in (1e-16, 1e-15, 1e-13):
            noise = rng.normal(size=4) * scale
            pairs.append((base, base + noise))
            pairs.append((base, -base + noise))
    # non-unit inputs
    for base, axis in zip(bases, axes, strict=True):
        pairs.append((3.0 * base, 0.25 * hamilton(base, axis_angle(axis, 2 * np.pi - 1e-10))))
        pairs.append((0.5 * base, 7.0 * hamilton(base, axis_angle(axis, 1e-10))))
    return pairs


T_GRID = np.array([0.0, 1e-9, 1e-3, 0.1, 0.25, 1 / 3, 0.5, 0.75, 0.9, 1 - 1e-9, 1.0])


@pytest.mark.parametrize("shortest", [True, False])
def test_slerp_within_1e_12_rad_of_exact(rng, shortest):
    worst = LD(0)
    checked = 0
    for q0, q1 in _hard_pairs(rng):
        # The oracle must see the same floats QuatLab interpolates (as_quaternion is
        # idempotent on unit input): near the antipode the direction of the arc is
        # sensitive to 1e-16 input changes by 1 / sin(angle).
        a = Q.as_quaternion(q0)
        b = Q.as_quaternion(q1)
        if shortest and np.dot(a, b) < 0:
            b = -b
        exact = exact_slerp(a, b, T_GRID)
        if exact is None:  # exact antipodes, naive: undefined inside (0, 1)
            with pytest.raises(I.InterpolationCollapseError):
                I.slerp(q0, q1, T_GRID, shortest=shortest)
            continue
        got = I.slerp(q0, q1, T_GRID, shortest=shortest)
        err = ld_rotation_error(got, exact)
        worst = max(worst, err.max())
        checked += 1
    assert checked > 100
    assert worst < 1e-12, float(worst)


def test_slerp_exact_oracle_on_random_pairs_and_times(rng):
    q0 = rng.normal(size=(200, 4))
    q1 = rng.normal(size=(200, 4))
    t = rng.uniform(size=200)
    for shortest in (True, False):
        got = I.slerp(q0, q1, t, shortest=shortest)
        for i in range(200):
            a, b = Q.as_quaternion(q0[i]), Q.as_quaternion(q1[i])
            if shortest and np.dot(a, b) < 0:
                b = -b
            assert ld_rotation_error(got[i], exact_slerp(a, b, t[i])) < 1e-12


def test_slerp_matches_scipy_slerp(rng):
    q0 = random_quats(rng, (40,))
    q1 = random_quats(rng, (40,))
    t = np.linspace(0, 1, 17)
    for a, b in zip(q0, q1, strict=True):
        rots = Rotation.from_quat(np.stack([Q.to_xyzw(a), Q.to_xyzw(b)]))
        ref = Q.from_xyzw(Slerp([0.0, 1.0], rots)(t).as_quat())
        got = I.slerp(a, b, t)
        assert np.all(rot_angle(got, ref) < 1e-12)
        # naive SLERP is the same rotation when dot >= 0 and otherwise the long way round
        naive = I.slerp(a, b, t, shortest=False)
        if np.dot(a, b) >= 0:
            assert np.all(rot_angle(naive, ref) < 1e-12)
        else:
            assert rot_angle(naive[8], ref[8]) > 1e-3


def test_slerp_endpoints_exact_at_zero(rng):
    q0 = random_quats(rng, (30,))
    q1 = random_quats(rng, (30,))
    assert np.array_equal(I.slerp(q0, q1, 0.0), Q.as_quaternion(q0))


# --------------------------------------------------------------------------- no kink


@pytest.mark.parametrize("threshold", [0.9995, 0.9999, 0.99999, 1 - 1e-7])
@pytest.mark.parametrize("t", [0.37, 0.5, 0.9])
def test_slerp_no_kink_across_dot_threshold(threshold, t):
    # Endpoint rotation angles straddling dot = threshold (identity -> phi about an axis).
    # SLERP's path angle is t * phi exactly: a threshold fallback to NLERP would put a
    # step of order phi^3 in it.
    phi0 = 2 * np.arccos(threshold)
    phis = phi0 * (1 + np.linspace(-0.05, 0.05, 401))
    axis = np.array([0.3, -0.5, 0.8])
    q1 = np.array([axis_angle(axis, p) for p in phis])
    theta = path_angle(Q.IDENTITY, I.slerp(Q.IDENTITY, q1, t))
    assert np.all(np.abs(theta - t * phis) <= 1e-12 * phis + 1e-16)
    d = np.diff(theta)
    assert np.all(d > 0)  # monotone
    step = np.diff(phis)
    assert np.all(np.abs(d - t * step) <= 1e-12 * step + 1e-16)  # smooth: constant slope
    # and the naive method near the antipode (dot = -threshold), swept the long way
    long_phis = 2 * np.pi - phis
    q1 = np.array([axis_angle(axis, p) for p in long_phis])
    theta = path_angle(Q.IDENTITY, I.slerp(Q.IDENTITY, q1, t, shortest=False))
    assert np.all(np.abs(theta - t * long_phis) <= 1e-12)
    assert np.all(np.diff(theta) < 0)


def test_slerp_small_angles_ratio_is_t(rng):
    # Over 15 decades of endpoint angle the fraction swept is exactly t (no regime switch).
    phis = np.logspace(-14, 0, 300)
    axis = rng.normal(size=3)
    q1 = np.array([axis_angle(axis, p) for p in phis])
    for t in (0.1, 0.5, 0.77):
        theta = path_angle(Q.IDENTITY, I.slerp(Q.IDENTITY, q1, t))
        assert np.allclose(theta / phis, t, rtol=1e-12, atol=0)


def test_slerp_constant_speed_near_threshold():
    # Finite-difference speed along t is constant for endpoints on either side of 0.9995.
    axis = [1.0, 1.0, 0.0]
    for phi in (2 * np.arccos(0.9995) * 0.999, 2 * np.arccos(0.9995) * 1.001):
        t = np.linspace(0, 1, 201)
        q = I.slerp(Q.IDENTITY, axis_angle(axis, phi), t)
        speed = 2 * np.linalg.norm(np.diff(q, axis=0), axis=-1) / np.diff(t)
        # chord of a 4D arc of phi/2/200: 2 sin(phi/800) / (1/200)
        assert np.allclose(speed, 2 * 200 * 2 * np.sin(phi / 800), rtol=1e-9)


# --------------------------------------------------------------------------- NLERP shape


def test_nlerp_closed_form_angle(rng):
    # p(t) = (1 - t) a + t b in the plane of a and b: its angle from a is
    # atan2(t sin W, 1 - t + t cos W), W the 4D angle; the rotation path angle is twice that.
    t = np.linspace(0, 1, 101)
    for _ in range(10):
        a, b = random_quats(rng, (2,))
        for shortest in (True, False):
            end = -b if (shortest and np.dot(a, b) < 0) else b
            W = np.arccos(np.clip(np.dot(a, end), -1, 1))
            expected = 2 * np.arctan2(t * np.sin(W), 1 - t + t * np.cos(W))
            got = path_angle(a, I.nlerp(a, b, t, shortest=shortest))
            assert np.allclose(got, expected, atol=1e-12)


def test_nlerp_and_slerp_share_midpoint_and_plane(rng):
    a = random_quats(rng, (50,))
    b = random_quats(rng, (50,))
    for shortest in (True, False):
        assert np.allclose(I.nlerp(a, b, 0.5, shortest=shortest),
                           I.slerp(a, b, 0.5, shortest=shortest), atol=1e-14)
    # NLERP leads SLERP in the first half (its speed peaks mid-way)
    pa_n = path_angle(a, I.nlerp(a, b, 0.25))
    pa_s = path_angle(a, I.slerp(a, b, 0.25))
    assert np.all(pa_n <= pa_s + 1e-15)


# --------------------------------------------------------------------------- properties


@PROPERTY
@given(quats, quats, params, st.booleans(), st.sampled_from(["nlerp", "slerp"]))
def test_unit_output(q0, q1, t, shortest, method):
    a, b = unit(q0), unit(q1)
    assume(np.linalg.norm(a + b) > 1e-3 or shortest)  # not the naive q -> -q collapse
    out = METHODS[method](q0, q1, t, shortest=shortest)
    assert np.isclose(np.linalg.norm(out), 1.0, atol=1e-14)


@PROPERTY
@given(quats, quats, st.booleans(), st.sampled_from(["nlerp", "slerp"]))
def test_endpoints(q0, q1, shortest, method):
    a, b = unit(q0), unit(q1)
    f = METHODS[method]
    assert np.allclose(f(q0, q1, 0.0, shortest=shortest), a, atol=1e-15)
    end = -b if (shortest and a @ b < 0) else b
    assume(np.linalg.norm(a + b) > 1e-9 or shortest)
    assert np.allclose(f(q0, q1, 1.0, shortest=shortest), end, atol=1e-12)


@PROPERTY
@given(quats, quats, params, scales, scales, st.sampled_from(["nlerp", "slerp"]))
def test_shortest_independent_of_sign_and_scale(q0, q1, t, s0, s1, method):
    assume(abs(unit(q0) @ unit(q1)) > 1e-9)  # at dot == 0 the stored sign decides
    f = METHODS[method]
    ref = f(q0, q1, t)
    assert np.allclose(f(q0, -q1, t), ref, atol=1e-12)
    assert np.allclose(f(q0 * s0, q1 * s1, t), ref, atol=1e-12)
    assert np.allclose(f(q0 * s0, -q1 * s1, t), ref, atol=1e-12)


@PROPERTY
@given(quats, quats, st.sampled_from(["nlerp", "slerp"]))
def test_naive_long_way_when_dot_negative(q0, q1, method):
    a, b = unit(q0), unit(q1)
    assume(a @ b < -1e-9 and np.linalg.norm(a + b) > 1e-6)
    short = Rotation.from_quat(np.stack([Q.to_xyzw(a), Q.to_xyzw(b)]))
    short_angle = (short[0].inv() * short[1]).magnitude()
    end = METHODS[method](q0, q1, 1.0, shortest=False)
    assert np.isclose(path_angle(a, end), 2 * np.pi - short_angle, atol=1e-9)
    end = METHODS[method](q0, q1, 1.0)
    assert np.isclose(path_angle(a, end), short_angle, atol=1e-9)


@PROPERTY
@given(quats, quats, st.lists(params, min_size=1, max_size=5), st.booleans())
def test_slerp_angle_linear_in_t(q0, q1, ts, shortest):
    a, b = unit(q0), unit(q1)
    assume(shortest or np.linalg.norm(a + b) > 1e-6)
    ts = np.array(ts)
    total = path_angle(a, I.slerp(q0, q1, 1.0, shortest=shortest))
    got = path_angle(a, I.slerp(q0, q1, ts, shortest=shortest))
    assert np.allclose(got, ts * total, atol=1e-12)


@PROPERTY
@given(quats, quats, params)
def test_nlerp_path_angle_monotone(q0, q1, t):
    a = unit(q0)
    ts = np.array([0.0, t / 2, t, (1 + t) / 2, 1.0])
    got = path_angle(a, I.nlerp(q0, q1, ts))
    assert np.all(np.diff(got) >= -1e-12)


# --------------------------------------------------------------------------- SQUAD


def _shoemake_control_point(q_prev, q, q_next):
    """s = q exp(-(log(q^-1 q_next) + log(q^-1 q_prev)) / 4), built with scipy's rotvecs."""
    r = Rotation.from_quat(Q.to_xyzw(q))
    rv_next = (r.inv() * Rotation.from_quat(Q.to_xyzw(q_next))).as_rotvec()
    rv_prev = (r.inv() * Rotation.from_quat(Q.to_xyzw(q_prev))).as_rotvec()
    # log of a unit quaternion is (0, rotvec / 2); exp((0, v)) is the rotation by 2 v.
    return Q.from_xyzw((r * Rotation.from_rotvec(-(rv_next + rv_prev) / 4)).as_quat())


def _keys(rng, n=6, spread=0.8):
    keys = [random_quats(rng, ())]
    for _ in range(n - 1):
        keys.append(hamilton(keys[-1], Q.from_rotvec(rng.normal(size=3) * spread)))
    return np.array(keys)


def test_intermediate_matches_shoemake_formula(rng):
    keys = _keys(rng, 8)
    for i in range(1, len(keys) - 1):
        s = I.intermediate(keys[i - 1], keys[i], keys[i + 1])
        assert np.isclose(np.linalg.norm(s), 1.0, atol=1e-15)
        assert rot_angle(s, _shoemake_control_point(keys[i - 1], keys[i], keys[i + 1])) < 1e-13
        assert np.dot(s, keys[i]) > 0  # in the hemisphere of its key


def test_intermediate_is_sign_aware(rng):
    keys = _keys(rng, 3)
    s = I.intermediate(keys[0], keys[1], keys[2])
    assert np.allclose(I.intermediate(-keys[0], keys[1], keys[2]), s, atol=1e-15)
    assert np.allclose(I.intermediate(keys[0], keys[1], -keys[2]), s, atol=1e-15)
    assert np.allclose(I.intermediate(-keys[0], keys[1], -keys[2]), s, atol=1e-15)
    assert np.allclose(I.intermediate(keys[0], -keys[1], keys[2]), -s, atol=1e-15)
    assert np.allclose(I.intermediate(2 * keys[0], 0.5 * keys[1], 3 * keys[2]), s, atol=1e-15)


def test_intermediate_evenly_spaced_on_one_axis_is_the_key():
    keys = np.array([axis_angle([1, 2, 3], np.radians(a)) for a in (10.0, 50.0, 90.0)])
    assert np.allclose(I.intermediate(*keys), keys[1], atol=1e-15)
    # ... whatever sign the neighbours are stored with
    assert np.allclose(I.intermediate(-keys[0], keys[1], -keys[2]), keys[1], atol=1e-15)


def test_intermediate_broadcasts(rng):
    k = random_quats(rng, (3, 5))
    s = I.intermediate(k[0], k[1], k[2])
    assert s.shape == (5, 4)
    for j in range(5):
        assert np.allclose(s[j], I.intermediate(k[0, j], k[1, j], k[2, j]), atol=1e-15)


def test_squad_endpoints_and_unit(rng):
    keys = _keys(rng, 4)
    s1 = I.intermediate(*keys[0:3])
    s2 = I.intermediate(*keys[1:4])
    t = np.linspace(0, 1, 41)
    out = I.squad(keys[1], keys[2], s1, s2, t)
    assert out.shape == (41, 4)
    assert np.allclose(np.linalg.norm(out, axis=-1), 1.0, atol=1e-14)
    assert np.allclose(out[0], keys[1], atol=1e-15)
    assert rot_angle(out[-1], keys[2]) < 1e-14


def test_squad_with_keys_as_controls_is_slerp(rng):
    a, b = random_quats(rng, (2,))
    t = np.linspace(0, 1, 11)
    assert np.allclose(I.squad(a, b, a, b, t), I.slerp(a, b, t), atol=1e-14)


def test_squad_evenly_spaced_keys_on_one_axis_is_slerp():
    keys = np.array([axis_angle([0, 0, 1], np.radians(a)) for a in (0, 40, 80, 120)])
    s1 = I.intermediate(*keys[0:3])
    s2 = I.intermediate(*keys[1:4])
    t = np.linspace(0, 1, 21)
    got = I.squad(keys[1], keys[2], s1, s2, t)
    expected = np.array([axis_angle([0, 0, 1], np.radians(40 + 40 * x)) for x in t])
    assert np.allclose(got, expected, atol=1e-14)


def test_squad_is_c1_at_keys(rng):
    # Shoemake's control points make the spline's velocity continuous across keys.
    keys = _keys(rng, 6)
    s = [keys[0]] + [I.intermediate(*keys[i - 1:i + 2]) for i in range(1, 5)] + [keys[5]]
    h = 1e-5
    for i in range(1, 4):
        left = I.squad(keys[i], keys[i + 1], s[i], s[i + 1], [1 - 2 * h, 1 - h, 1.0])
        right = I.squad(keys[i + 1], keys[i + 2], s[i + 1], s[i + 2], [0.0, h, 2 * h])
        assert np.allclose(left[2], right[0], atol=1e-14)
        d_left = (3 * left[2] - 4 * left[1] + left[0]) / (2 * h)
        d_right = (-3 * right[0] + 4 * right[1] - right[2]) / (2 * h)
        assert np.allclose(d_left, d_right, atol=1e-7)


def test_squad_shortest_is_sign_invariant(rng):
    keys = _keys(rng, 4)
    s1 = I.intermediate(*keys[0:3])
    s2 = I.intermediate(*keys[1:4])
    t = np.linspace(0, 1, 21)
    ref = I.squad(keys[1], keys[2], s1, s2, t)
    for signs in [(1, -1, 1, 1), (1, 1, -1, 1), (1, 1, 1, -1), (1, -1, -1, -1), (-1, 1, 1, 1)]:
        args = [sgn * x for sgn, x in zip(signs, (keys[1], keys[2], s1, s2), strict=True)]
        out = I.squad(*args, t)
        assert np.all(rot_angle(out, ref) < 1e-13)


def test_squad_naive_takes_stored_signs():
    # A key stored as -q: the sign-unaware (naive) SQUAD goes the long way.
    q1 = axis_angle([0, 0, 1], np.radians(30))
    out = I.squad(Q.IDENTITY, -q1, Q.IDENTITY, -q1, 1.0, shortest=False)
    assert np.isclose(np.degrees(path_angle(Q.IDENTITY, out)), 330.0)
    out = I.squad(Q.IDENTITY, -q1, Q.IDENTITY, -q1, 1.0)
    assert np.isclose(np.degrees(path_angle(Q.IDENTITY, out)), 30.0)


def test_squad_broadcasts(rng):
    q0 = random_quats(rng, (3,))
    q1 = random_quats(rng, (3,))
    out = I.squad(q0, q1, q0, q1, np.linspace(0, 1, 7)[:, None])
    assert out.shape == (7, 3, 4)
    assert np.allclose(out[:, 1], I.slerp(q0[1], q1[1], np.linspace(0, 1, 7)), atol=1e-14)


def test_as_parameter():
    assert I.as_parameter(0.25) == 0.25
    assert np.array_equal(I.as_parameter([0, 1]), [0.0, 1.0])
    for bad in (-0.5, 1.5, np.nan):
        with pytest.raises(ValueError, match=r"\bt\b"):
            I.as_parameter(bad)
    with pytest.raises(ValueError, match=r"\bweight\b"):
        I.as_parameter(2.0, name="weight")
