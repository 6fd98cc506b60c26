"""quatlab.math.quaternion against independent oracles.

Oracles: scipy.spatial.transform.Rotation (which stores (x, y, z, w), hence
``to_xyzw``), elementary rotation matrices written out here, exact rational
arithmetic (fractions.Fraction, then np.longdouble) and algebraic identities
checked with hypothesis. No expected value is taken from the code under test.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from oracles import rot_angle, unit
from scipy.spatial.transform import Rotation

from quatlab.math import euler as E
from quatlab.math import matrix as M
from quatlab.math import quaternion as Q

PROPERTY = settings(max_examples=80, deadline=None)

# Leading shapes every broadcasting test runs over (the last axis is the 4 of a quaternion).
LEADING_SHAPES = [(), (1,), (5,), (2, 3), (2, 1, 3)]

TAIT_BRYAN = ["XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"]
PROPER = ["XYX", "XZX", "YXY", "YZY", "ZXZ", "ZYZ"]
ALL_ORDERS = TAIT_BRYAN + PROPER + [o.lower() for o in TAIT_BRYAN + PROPER]


# --------------------------------------------------------------------------- helpers


def random_quats(rng, shape):
    return unit(rng.normal(size=tuple(shape) + (4,)))


def scipy_rot(q):
    return Rotation.from_quat(Q.to_xyzw(q))


def elementary(axis: str, angle: float) -> np.ndarray:
    """Active rotation matrix about the x, y or z axis (column vectors)."""
    i = "xyz".index(axis.lower())
    j, k = (i + 1) % 3, (i + 2) % 3
    c, s = np.cos(angle), np.sin(angle)
    m = np.eye(3)
    m[j, j], m[j, k], m[k, j], m[k, k] = c, -s, s, c
    return m


def euler_matrix(angles, order: str) -> np.ndarray:
    """Intrinsic "ABC": R_A R_B R_C; extrinsic "abc": R_c R_b R_a (first angle applied first)."""
    mats = [elementary(ax, a) for ax, a in zip(order, angles, strict=True)]
    if order.isupper():
        return mats[0] @ mats[1] @ mats[2]
    return mats[2] @ mats[1] @ mats[0]


def wrap(x):
    """Angle difference wrapped into [-pi, pi)."""
    return (np.asarray(x) + np.pi) % (2 * np.pi) - np.pi


def to_ld(fr: Fraction) -> np.longdouble:
    return np.longdouble(fr.numerator) / np.longdouble(fr.denominator)


def exact_rotation_angle(a, b) -> np.longdouble:
    """Rotation angle between float quaternions a and b, from exact rational products.

    r = conj(a) ⊗ b is computed exactly; the angle 2 atan2(|vec r|, |w r|) is
    scale-invariant, so a and b need not be unit.
    """
    aw, ax, ay, az = (Fraction(float(x)) for x in a)
    bw, bx, by, bz = (Fraction(float(x)) for x in b)
    w = aw * bw + ax * bx + ay * by + az * bz
    # vec(conj(a) b) = aw bv - bw av - av x bv
    vx = aw * bx - bw * ax - (ay * bz - az * by)
    vy = aw * by - bw * ay - (az * bx - ax * bz)
    vz = aw * bz - bw * az - (ax * by - ay * bx)
    vn = np.sqrt(to_ld(vx * vx + vy * vy + vz * vz))
    return 2 * np.arctan2(vn, abs(to_ld(w)))


# hypothesis strategies
components = st.floats(-1.0, 1.0, allow_nan=False, allow_infinity=False)
quats = arrays(np.float64, 4, elements=components).filter(lambda q: q @ q > 1e-4)
vectors = arrays(np.float64, 3, elements=st.floats(-100.0, 100.0))
scales = st.floats(1e-3, 1e3)


# --------------------------------------------------------------------------- conventions


def test_identity_constant():
    assert np.array_equal(Q.IDENTITY, [1.0, 0.0, 0.0, 0.0])


@pytest.mark.parametrize(
    "a, b, expected",
    [
        # Hamilton's table, (w, x, y, z): i j = k, j k = i, k i = j and the reverses.
        ("i", "j", (0, 0, 0, 1)),
        ("j", "k", (0, 1, 0, 0)),
        ("k", "i", (0, 0, 1, 0)),
        ("j", "i", (0, 0, 0, -1)),
        ("k", "j", (0, -1, 0, 0)),
        ("i", "k", (0, 0, -1, 0)),
        ("i", "i", (-1, 0, 0, 0)),
        ("j", "j", (-1, 0, 0, 0)),
        ("k", "k", (-1, 0, 0, 0)),
    ],
)
def test_multiply_hamilton_table(a, b, expected):
    basis = {"i": [0, 1, 0, 0], "j": [0, 0, 1, 0], "k": [0, 0, 0, 1]}
    assert np.array_equal(Q.multiply(basis[a], basis[b]), expected)


def test_multiply_applies_second_argument_first(rng):
    a, b = random_quats(rng, (2,))
    v = rng.normal(size=3)
    composed = Q.rotate_vector(Q.multiply(a, b), v)
    assert np.allclose(composed, Q.rotate_vector(a, Q.rotate_vector(b, v)), atol=1e-14)
    # scipy: r1 * r2 applies r2 first.
    expected = (scipy_rot(a) * scipy_rot(b)).as_quat()
    assert rot_angle(Q.multiply(a, b), Q.from_xyzw(expected)) < 1e-14


def test_multiply_matches_scipy_composition_broadcast(rng):
    a = random_quats(rng, (50,))
    b = random_quats(rng, (50,))
    got = Q.multiply(a, b)
    ref = Q.from_xyzw((scipy_rot(a) * scipy_rot(b)).as_quat())
    assert np.all(rot_angle(got, ref) < 1e-13)


def test_multiply_is_bilinear_not_normalized():
    # The product of non-unit quaternions is well defined: |ab| = |a||b|.
    a = np.array([1.0, 2.0, 3.0, 4.0])
    b = np.array([-2.0, 0.5, 1.0, 0.0])
    assert np.isclose(np.linalg.norm(Q.multiply(a, b)), np.linalg.norm(a) * np.linalg.norm(b))
    assert np.allclose(Q.multiply(3 * a, b), 3 * Q.multiply(a, b))


def test_active_rotation_of_column_vectors():
    q = Q.from_axis_angle([0, 0, 1], np.pi / 2)
    assert np.allclose(Q.rotate_vector(q, [1, 0, 0]), [0, 1, 0], atol=1e-15)
    assert np.allclose(M.to_matrix(q) @ [1, 0, 0], [0, 1, 0], atol=1e-15)
    # (w, x, y, z): the scalar first.
    assert np.allclose(q, [np.sqrt(0.5), 0, 0, np.sqrt(0.5)], atol=1e-16)


# --------------------------------------------------------------------------- normalize & co


@pytest.mark.parametrize("shape", LEADING_SHAPES)
def test_normalize_unit_and_direction(rng, shape):
    q = rng.normal(size=shape + (4,)) * rng.uniform(0.01, 100, size=shape + (1,))
    n = Q.normalize(q)
    assert n.shape == q.shape
    assert np.allclose(np.linalg.norm(n, axis=-1), 1.0, atol=1e-15)
    assert np.allclose(n * np.linalg.norm(q, axis=-1, keepdims=True), q, rtol=1e-14, atol=0)


def test_normalize_is_idempotent_and_scale_invariant(rng):
    q = rng.normal(size=(100, 4))
    n = Q.normalize(q)
    assert np.array_equal(Q.normalize(n), n)
    assert np.allclose(Q.normalize(7.25 * q), n, atol=2e-16)
    assert np.allclose(Q.norm(n), 1.0, atol=1e-15)


def test_norm():
    assert Q.norm([0, 3, 4, 0]) == 5.0
    assert np.array_equal(Q.norm([[1, 0, 0, 0], [0, 0, 0, -2]]), [1.0, 2.0])


@pytest.mark.parametrize("shape", LEADING_SHAPES)
def test_conjugate_and_inverse(rng, shape):
    q = rng.normal(size=shape + (4,))
    c = Q.conjugate(q)
    assert np.array_equal(c[..., 0], q[..., 0])
    assert np.array_equal(c[..., 1:], -q[..., 1:])
    assert np.array_equal(Q.conjugate(c), q)
    inv = Q.inverse(q)
    assert inv.shape == q.shape
    ident = np.broadcast_to(Q.IDENTITY, q.shape)
    assert np.allclose(Q.multiply(q, inv), ident, atol=1e-14)
    assert np.allclose(Q.multiply(inv, q), ident, atol=1e-14)


def test_inverse_of_unit_is_conjugate_and_scipy_inverse(rng):
    q = random_quats(rng, (20,))
    assert np.allclose(Q.inverse(q), Q.conjugate(q), atol=1e-15)
    ref = Q.from_xyzw(scipy_rot(q).inv().as_quat())
    assert np.all(rot_angle(Q.inverse(q), ref) < 1e-14)
    # |q^-1| = 1/|q| for a non-unit quaternion.
    assert np.isclose(Q.norm(Q.inverse([0, 0, 0, 2.0])), 0.5)


@pytest.mark.parametrize("shape", LEADING_SHAPES)
def test_dot(rng, shape):
    a = rng.normal(size=shape + (4,))
    b = rng.normal(size=(4,))
    d = Q.dot(a, b)
    assert d.shape == shape
    assert np.allclose(d, (a * b).sum(axis=-1), rtol=1e-14, atol=1e-14)
    assert Q.dot([1, 0, 0, 0], [-1, 0, 0, 0]) == -1.0
    assert Q.dot([1, 0, 0, 0], [0, 1, 0, 0]) == 0.0


# --------------------------------------------------------------------------- rotate_vector


@pytest.mark.parametrize("shape", LEADING_SHAPES)
def test_rotate_vector_matches_scipy_apply(rng, shape):
    q = random_quats(rng, shape)
    v = rng.normal(size=shape + (3,))
    got = Q.rotate_vector(q, v)
    assert got.shape == shape + (3,)
    ref = scipy_rot(q.reshape(-1, 4)).apply(v.reshape(-1, 3)).reshape(shape + (3,))
    assert np.allclose(got, ref, atol=1e-14)


def test_rotate_vector_broadcasts_one_rotation_over_many_vectors(rng):
    q = random_quats(rng, ())
    v = rng.normal(size=(7, 3))
    assert np.allclose(Q.rotate_vector(q, v), scipy_rot(q).apply(v), atol=1e-14)
    qs = random_quats(rng, (7,))
    assert np.allclose(Q.rotate_vector(qs, v[0]), scipy_rot(qs).apply(v[0]), atol=1e-14)


def test_rotate_vector_sign_and_scale_invariant(rng):
    q = random_quats(rng, (10,))
    v = rng.normal(size=(10, 3))
    r = Q.rotate_vector(q, v)
    assert np.allclose(Q.rotate_vector(-q, v), r, atol=1e-14)
    assert np.allclose(Q.rotate_vector(3.5 * q, v), r, atol=1e-14)


@PROPERTY
@given(quats, vectors)
def test_rotate_vector_preserves_length(q, v):
    r = Q.rotate_vector(q, v)
    assert np.isclose(np.linalg.norm(r), np.linalg.norm(v), rtol=1e-12, atol=1e-12)


@PROPERTY
@given(quats, vectors)
def test_rotate_vector_equals_sandwich_product(q, v):
    qn = unit(q)
    pure = np.concatenate([[0.0], v])
    sandwich = Q.multiply(Q.multiply(qn, pure), Q.conjugate(qn))
    r = Q.rotate_vector(q, v)
    assert np.allclose(r, sandwich[1:], rtol=1e-12, atol=1e-12 * (1 + np.linalg.norm(v)))
    assert abs(sandwich[0]) <= 1e-12 * (1 + np.linalg.norm(v))


# --------------------------------------------------------------------------- axis-angle, rotvec


def test_from_axis_angle_matches_scipy(rng):
    axes = rng.normal(size=(30, 3))
    angles = rng.uniform(-2 * np.pi, 2 * np.pi, size=30)
    q = Q.from_axis_angle(axes, angles)
    rotvec = axes / np.linalg.norm(axes, axis=-1, keepdims=True) * angles[:, None]
    ref = Q.from_xyzw(Rotation.from_rotvec(rotvec).as_quat())
    assert np.allclose(np.linalg.norm(q, axis=-1), 1.0, atol=1e-15)
    assert np.all(rot_angle(q, ref) < 1e-14)
    # Stored exactly as (cos(angle/2), sin(angle/2) axis): 3 pi / 2 has w < 0.
    q = Q.from_axis_angle([0, 2, 0], 1.5 * np.pi)
    assert np.allclose(q, [np.cos(0.75 * np.pi), 0, np.sin(0.75 * np.pi), 0], atol=1e-16)


@pytest.mark.parametrize("shape", LEADING_SHAPES)
def test_from_axis_angle_broadcasts(rng, shape):
    angle = rng.uniform(-3, 3, size=shape)
    q = Q.from_axis_angle([1.0, 2.0, 2.0], angle)
    assert q.shape == shape + (4,)
    assert np.allclose(q[..., 0], np.cos(angle / 2))
    assert np.allclose(q[..., 1:], np.sin(angle / 2)[..., None] * np.array([1, 2, 2]) / 3)
    axes = rng.normal(size=shape + (3,))
    q = Q.from_axis_angle(axes, 0.3)
    assert q.shape == shape + (4,)
    assert np.allclose(q[..., 0], np.cos(0.15))


def test_to_axis_angle_matches_scipy(rng):
    q = random_quats(rng, (200,))
    axis, angle = Q.to_axis_angle(q)
    assert axis.shape == (200, 3) and angle.shape == (200,)
    assert np.all((angle >= 0) & (angle <= np.pi))
    assert np.allclose(np.linalg.norm(axis, axis=-1), 1.0, atol=1e-15)
    assert np.allclose(axis * angle[:, None], scipy_rot(q).as_rotvec(), atol=1e-14)
    # q and -q: the same answer.
    axis2, angle2 = Q.to_axis_angle(-q)
    assert np.allclose(axis2, axis, atol=1e-15)
    assert np.allclose(angle2, angle, atol=1e-15)


def test_to_axis_angle_long_way_and_identity():
    axis, angle = Q.to_axis_angle(Q.from_axis_angle([0, 0, 1], np.radians(340)))
    assert np.allclose(axis, [0, 0, -1], atol=1e-15)
    assert np.isclose(np.degrees(angle), 20.0, atol=1e-12)
    for q in (Q.IDENTITY, -Q.IDENTITY, [5.0, 0, 0, 0]):
        axis, angle = Q.to_axis_angle(q)
        assert angle == 0.0
        assert np.allclose(np.linalg.norm(axis), 1.0)  # some unit axis, never NaN
    axis, angle = Q.to_axis_angle([0.0, 0.0, -1.0, 0.0])
    assert np.isclose(angle, np.pi, atol=1e-15)
    assert np.allclose(np.abs(axis), [0, 1, 0])


@pytest.mark.parametrize("shape", LEADING_SHAPES)
def test_rotvec_round_trip_and_scipy(rng, shape):
    direction = rng.normal(size=shape + (3,))
    direction /= np.linalg.norm(direction, axis=-1, keepdims=True)
    rotvec = direction * rng.uniform(0.0, np.pi - 1e-3, size=shape + (1,))
    q = Q.from_rotvec(rotvec)
    assert q.shape == shape + (4,)
    ref = Q.from_xyzw(Rotation.from_rotvec(rotvec.reshape(-1, 3)).as_quat()).reshape(q.shape)
    assert np.all(rot_angle(q, ref) < 1e-14)
    back = Q.to_rotvec(q)
    assert back.shape == shape + (3,)
    assert np.allclose(back, rotvec, atol=1e-14)
    assert np.allclose(back, scipy_rot(q.reshape(-1, 4)).as_rotvec().reshape(back.shape),
                       atol=1e-14)


def test_rotvec_small_and_zero():
    assert np.array_equal(Q.from_rotvec([0.0, 0.0, 0.0]), Q.IDENTITY)
    q = Q.from_rotvec([1e-12, 0, 0])
    assert np.isclose(q[1], 5e-13, rtol=1e-15, atol=0)
    assert np.allclose(Q.to_rotvec(q), [1e-12, 0, 0], rtol=1e-14, atol=0)
    # A rotvec longer than pi wraps to the short way.
    assert np.allclose(Q.to_rotvec(Q.from_rotvec([0, 0, 1.5 * np.pi])), [0, 0, -0.5 * np.pi])


# --------------------------------------------------------------------------- matrices


@pytest.mark.parametrize("shape", LEADING_SHAPES)
def test_to_matrix_matches_scipy(rng, shape):
    q = random_quats(rng, shape)
    m = M.to_matrix(q)
    assert m.shape == shape + (3, 3)
    ref = scipy_rot(q.reshape(-1, 4)).as_matrix().reshape(m.shape)
    assert np.allclose(m, ref, atol=1e-15)
    # Non-unit and negated inputs give the same matrix.
    assert np.allclose(M.to_matrix(-2.5 * q), m, atol=1e-15)


def test_to_matrix_is_a_rotation_and_a_homomorphism(rng):
    a = random_quats(rng, (50,))
    b = random_quats(rng, (50,))
    ma, mb = M.to_matrix(a), M.to_matrix(b)
    assert np.allclose(np.swapaxes(ma, -1, -2) @ ma, np.eye(3), atol=1e-15)
    assert np.allclose(np.linalg.det(ma), 1.0, atol=1e-14)
    assert np.allclose(M.to_matrix(Q.multiply(a, b)), ma @ mb, atol=1e-14)


@pytest.mark.parametrize("shape", LEADING_SHAPES)
def test_from_matrix_matches_scipy(rng, shape):
    q = random_quats(rng, shape)
    m = scipy_rot(q.reshape(-1, 4)).as_matrix().reshape(shape + (3, 3))
    got = M.from_matrix(m)
    assert got.shape == shape + (4,)
    assert np.all(got[..., 0] >= 0)
    assert np.all(rot_angle(got, q) < 1e-14)
    ref = Q.from_xyzw(Rotation.from_matrix(m.reshape(-1, 3, 3)).as_quat()).reshape(got.shape)
    assert np.all(rot_angle(got, ref) < 1e-14)


@pytest.mark.parametrize(
    "axis", [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [1, -1, 1], [0.2, 0.0, -3.0]]
)
@pytest.mark.parametrize("angle_deg", [0.0, 1e-9, 90.0, 179.0, 180.0 - 1e-7, 180.0])
def test_from_matrix_accurate_near_half_turn_and_identity(axis, angle_deg):
    # Where the trace is about -1 (half turns) or 3 (identity) naive trace formulas lose digits.
    q = Q.from_axis_angle(axis, np.radians(angle_deg))
    m = Rotation.from_quat(Q.to_xyzw(q)).as_matrix()
    got = M.from_matrix(m)
    assert np.isclose(np.linalg.norm(got), 1.0, atol=1e-15)
    assert rot_angle(got, q) < 1e-14


@PROPERTY
@given(quats)
def test_from_matrix_of_to_matrix_is_plus_or_minus_q(q):
    qn = unit(q)
    back = M.from_matrix(M.to_matrix(q))
    sign = 1.0 if back @ qn >= 0 else -1.0
    assert np.allclose(back, sign * qn, atol=1e-14)
    assert back[0] >= 0


# --------------------------------------------------------------------------- orthonormalize


@pytest.mark.parametrize("keep", [0, 1, 2])
def test_orthonormalize_keeps_chosen_column(rng, keep):
    m = M.to_matrix(random_quats(rng, (20,))) + rng.normal(scale=1e-2, size=(20, 3, 3))
    r = M.orthonormalize(m, keep)
    assert r.shape == m.shape
    assert np.allclose(np.swapaxes(r, -1, -2) @ r, np.eye(3), atol=1e-15)
    assert np.allclose(np.linalg.det(r), 1.0, atol=1e-14)
    kept = m[..., :, keep] / np.linalg.norm(m[..., :, keep], axis=-1, keepdims=True)
    assert np.allclose(r[..., :, keep], kept, atol=1e-15)
    # Gram-Schmidt: the next column (cyclically) stays in the plane of the kept and the
    # original next column, on the same side as the original.
    nxt = (keep + 1) % 3
    normal = np.cross(m[..., :, keep], m[..., :, nxt])
    assert np.allclose(np.einsum("...i,...i->...", normal, r[..., :, nxt]), 0.0, atol=1e-14)
    assert np.all(np.einsum("...i,...i->...", m[..., :, nxt], r[..., :, nxt]) > 0)


def test_orthonormalize_default_keeps_column_zero_and_fixes_a_rotation(rng):
    r0 = M.to_matrix(random_quats(rng, ()))
    assert np.allclose(M.orthonormalize(r0), r0, atol=1e-15)
    m = np.array([[2.0, 0.3, 0.0], [0.0, 1.0, 0.1], [0.0, 0.0, 1.0]])
    r = M.orthonormalize(m)
    assert np.allclose(r[:, 0], [1, 0, 0])
    assert np.allclose(r[:, 1], [0, 1, 0])
    assert np.allclose(r[:, 2], [0, 0, 1])


def test_orthonormalize_repairs_drift_from_repeated_products(rng):
    # Seed 004: repeated matrix products drift off orthogonality; re-orthonormalize.
    step = M.to_matrix(Q.from_axis_angle([1, 2, 3], 0.01))
    m = np.eye(3)
    for _ in range(2000):
        m = (step + rng.normal(scale=1e-9, size=(3, 3))) @ m
    drift = np.abs(m.T @ m - np.eye(3)).max()
    assert drift > 1e-8
    r = M.orthonormalize(m, keep=2)
    assert np.abs(r.T @ r - np.eye(3)).max() < 1e-15
    assert rot_angle(M.from_matrix(r), M.from_matrix(m / np.cbrt(np.linalg.det(m)))) < 1e-5


@pytest.mark.parametrize(
    "m, match",
    [
        (np.zeros((3, 3)), r"column"),
        (np.array([[0.0, 1, 0], [0, 0, 0], [0, 0, 1]]), r"column"),  # column 0 zero
        (np.array([[1.0, 2, 0], [1, 2, 0], [0, 0, 1]]), r"parallel"),  # columns 0, 1 parallel
        (np.array([[1.0, 0, 0], [0, 0, 0], [0, 0, 1]]), r"column"),  # column 1 zero
    ],
)
def test_orthonormalize_degenerate_raises(m, match):
    with pytest.raises(ValueError, match=match):
        M.orthonormalize(m)


def test_orthonormalize_degenerate_depends_on_kept_pair():
    # Column 2 is zero: fine when keeping column 0 (pair 0, 1), degenerate for keep=1 (pair 1, 2).
    m = np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, 0]])
    assert np.allclose(M.orthonormalize(m, 0), np.eye(3))
    with pytest.raises(ValueError, match="column"):
        M.orthonormalize(m, 1)
    with pytest.raises(ValueError, match="column"):
        M.orthonormalize(m, 2)


@pytest.mark.parametrize("keep", [3, -1, "x"])
def test_orthonormalize_bad_keep_names_keep(keep):
    with pytest.raises(ValueError, match=r"\bkeep\b"):
        M.orthonormalize(np.eye(3), keep)


@pytest.mark.parametrize(
    "m", [np.eye(2), np.ones(3), np.full((3, 3), np.nan), np.diag([np.inf, 1, 1])]
)
def test_orthonormalize_bad_matrix_names_m(m):
    with pytest.raises(ValueError, match=r"\bm\b"):
        M.orthonormalize(m)


# --------------------------------------------------------------------------- Euler angles


def test_euler_orders_constant():
    assert sorted(E.EULER_ORDERS) == sorted(ALL_ORDERS)
    assert len(set(E.EULER_ORDERS)) == 24


@pytest.mark.parametrize("order", ALL_ORDERS)
def test_from_euler_matches_scipy_and_matrices(rng, order):
    angles = rng.uniform(-np.pi, np.pi, size=(40, 3))
    q = E.from_euler(angles, order)
    assert q.shape == (40, 4)
    ref = Q.from_xyzw(Rotation.from_euler(order, angles).as_quat())
    assert np.all(rot_angle(q, ref) < 1e-14)
    for a, qi in zip(angles[:5], q[:5], strict=True):
        assert np.allclose(M.to_matrix(qi), euler_matrix(a, order), atol=1e-14)


@pytest.mark.parametrize("order", ALL_ORDERS)
def test_to_euler_equals_scipy_away_from_gimbal_lock(rng, order):
    q = random_quats(rng, (300,))
    got = E.to_euler(q, order)
    ref = scipy_rot(q).as_euler(order)
    assert got.shape == (300, 3)
    assert np.all(np.abs(wrap(got - ref)) < 1e-12)
    # Ranges: first and third in [-pi, pi]; second [-pi/2, pi/2] or [0, pi].
    assert np.all(np.abs(got[:, [0, 2]]) <= np.pi)
    if order[0].lower() == order[2].lower():
        assert np.all((got[:, 1] >= 0) & (got[:, 1] <= np.pi))
    else:
        assert np.all(np.abs(got[:, 1]) <= np.pi / 2)
    # Round trip, and sign/scale invariance.
    assert np.all(rot_angle(E.from_euler(got, order), q) < 1e-13)
    assert np.all(np.abs(wrap(E.to_euler(-4.0 * q, order) - got)) < 1e-12)


@pytest.mark.parametrize("order", ALL_ORDERS)
def test_to_euler_known_angles(order):
    angles = np.radians([10.0, 20.0, 30.0])
    got = E.to_euler(E.from_euler(angles, order), order)
    assert np.allclose(got, angles, atol=1e-14)


@pytest.mark.parametrize("order", ALL_ORDERS)
@pytest.mark.parametrize("first, third", [(0.3, -0.7), (-2.9, 3.0), (0.0, 0.0), (1.0, 1.0)])
def test_to_euler_gimbal_lock_round_trip(order, first, third):
    proper = order[0].lower() == order[2].lower()
    for middle in ([0.0, np.pi] if proper else [np.pi / 2, -np.pi / 2]):
        q = E.from_euler([first, middle, third], order)
        e = E.to_euler(q, order)
        assert np.all(np.isfinite(e))
        assert rot_angle(E.from_euler(e, order), q) < 1e-12
        assert np.isclose(abs(wrap(e[1] - middle)), 0.0, atol=1e-7)


@pytest.mark.parametrize("order", ["XYZ", "zyx", "ZXZ", "yxy"])
@pytest.mark.parametrize("offset", [1e-4, 1e-6, 1e-9, 0.0])
def test_to_euler_near_gimbal_lock_round_trip(order, offset):
    proper = order[0].lower() == order[2].lower()
    for middle in ([offset, np.pi - offset] if proper else [np.pi / 2 - offset,
                                                             -np.pi / 2 + offset]):
        q = E.from_euler([0.4, middle, -1.1], order)
        e = E.to_euler(q, order)
        # A sub-1e-7 distance from the lock may be absorbed into the lock, no more.
        assert rot_angle(E.from_euler(e, order), q) < 1e-9 + 2 * offset


def test_seed_004_yxz_gimbal_lock():
    # R = Ry(yaw) Rx(pitch) Rz(roll), column vectors, is the intrinsic "YXZ" order. At
    # pitch = 90 deg only yaw - roll matters: adding 10 deg to both changes nothing.
    yaw, roll = np.radians(25.0), np.radians(-40.0)
    q = E.from_euler([yaw, np.pi / 2, roll], "YXZ")
    q2 = E.from_euler([yaw + np.radians(10), np.pi / 2, roll + np.radians(10)], "YXZ")
    assert rot_angle(q, q2) < 1e-14
    d = yaw - roll
    expected = np.array(
        [[np.cos(d), np.sin(d), 0], [0, 0, -1], [-np.sin(d), np.cos(d), 0]]
    )
    assert np.allclose(M.to_matrix(q), expected, atol=1e-15)
    e = E.to_euler(q, "YXZ")
    assert np.isclose(e[1], np.pi / 2)
    assert np.isclose(wrap(e[0] - e[2] - d), 0.0, atol=1e-12)


def test_scipy_agrees_at_gimbal_lock_when_it_defines_an_answer():
    # scipy warns at gimbal lock and, like QuatLab, zeroes one angle; compare the rotation.
    for order in ("XYZ", "xyz", "ZXZ", "zxz"):
        middle = np.pi if order[0].lower() == order[2].lower() else np.pi / 2
        q = E.from_euler([0.5, middle, 0.2], order)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            ref = scipy_rot(q).as_euler(order)
        got = E.to_euler(q, order)
        assert rot_angle(E.from_euler(ref, order), E.from_euler(got, order)) < 1e-12


def test_intrinsic_equals_reversed_extrinsic(rng):
    angles = rng.uniform(-np.pi, np.pi, size=(10, 3))
    for order in TAIT_BRYAN + PROPER:
        a = E.from_euler(angles, order)
        b = E.from_euler(angles[:, ::-1], order[::-1].lower())
        assert np.all(rot_angle(a, b) < 1e-14)


@pytest.mark.parametrize("shape", LEADING_SHAPES)
def test_euler_broadcasts(rng, shape):
    angles = rng.uniform(-1, 1, size=shape + (3,))
    q = E.from_euler(angles, "ZYX")
    assert q.shape == shape + (4,)
    e = E.to_euler(q, "ZYX")
    assert e.shape == shape + (3,)
    assert np.allclose(e, angles, atol=1e-14)


@pytest.mark.parametrize("order", ["XYW", "XXY", "XyZ", "xy", "XYZX", "", 123, None, "ZYx"])
def test_euler_bad_order_names_order(order):
    with pytest.raises(ValueError, match=r"\border\b"):
        E.from_euler([0.1, 0.2, 0.3], order)
    with pytest.raises(ValueError, match=r"\border\b"):
        E.to_euler(Q.IDENTITY, order)


@pytest.mark.parametrize("angles", [[0.1, 0.2], [np.nan, 0, 0], [0, np.inf, 0], 0.5])
def test_from_euler_bad_angles_names_angles(angles):
    with pytest.raises(ValueError, match=r"\bangles\b"):
        E.from_euler(angles, "XYZ")


# --------------------------------------------------------------------------- xyzw


@pytest.mark.parametrize("shape", LEADING_SHAPES)
def test_xyzw_round_trip(rng, shape):
    q = rng.normal(size=shape + (4,))
    xyzw = Q.to_xyzw(q)
    assert np.array_equal(xyzw[..., 3], q[..., 0])
    assert np.array_equal(xyzw[..., :3], q[..., 1:])
    assert np.array_equal(Q.from_xyzw(xyzw), q)


def test_xyzw_known_values_and_scipy_layout():
    assert np.array_equal(Q.to_xyzw([1.0, 2.0, 3.0, 4.0]), [2.0, 3.0, 4.0, 1.0])
    assert np.array_equal(Q.from_xyzw([2.0, 3.0, 4.0, 1.0]), [1.0, 2.0, 3.0, 4.0])
    # scipy's canonical quaternion of 90 deg about Z is (0, 0, s, s) in (x, y, z, w).
    q = Q.from_xyzw(Rotation.from_rotvec([0, 0, np.pi / 2]).as_quat())
    assert np.allclose(q, Q.from_axis_angle([0, 0, 1], np.pi / 2), atol=1e-16)
    # glTF AnimatedTriangle's last key (x, y, z, w) = (0, 0, .707, -.707): w is negative.
    assert np.array_equal(Q.from_xyzw([0, 0, 0.707, -0.707]), [-0.707, 0, 0, 0.707])


# --------------------------------------------------------------------------- angle_between


def test_angle_between_matches_scipy(rng):
    a = random_quats(rng, (100,))
    b = random_quats(rng, (100,))
    got = Q.angle_between(a, b)
    ref = (scipy_rot(a).inv() * scipy_rot(b)).magnitude()
    assert np.allclose(got, ref, atol=1e-14)
    assert np.all((got >= 0) & (got <= np.pi))


def test_angle_between_sign_invariant_symmetric_scale_invariant(rng):
    a = random_quats(rng, (50,))
    b = random_quats(rng, (50,))
    ab = Q.angle_between(a, b)
    assert np.array_equal(Q.angle_between(a, -b), ab)
    assert np.allclose(Q.angle_between(-a, b), ab, atol=1e-15)
    assert np.allclose(Q.angle_between(b, a), ab, atol=1e-15)
    assert np.allclose(Q.angle_between(3 * a, 0.2 * b), ab, atol=1e-15)
    assert np.array_equal(Q.angle_between(a, a), np.zeros(50))
    assert np.array_equal(Q.angle_between(a, -a), np.zeros(50))


def test_angle_between_seed_000():
    q20 = Q.from_axis_angle([0, 0, 1], np.radians(20))
    assert np.isclose(np.degrees(Q.angle_between(Q.IDENTITY, -q20)), 20.0, atol=1e-12)
    assert np.isclose(Q.angle_between(Q.IDENTITY, [0, 1, 0, 0]), np.pi, atol=1e-15)


@pytest.mark.parametrize("angle", [1e-15, 1e-12, 1e-9, 1e-7, 1e-5, 1e-3])
def test_angle_between_tiny_angles_relative_accuracy(angle):
    q = Q.from_axis_angle([1.0, -2.0, 0.5], angle)
    got = Q.angle_between(Q.IDENTITY, q)
    assert abs(got - angle) <= 4e-16 * angle
    assert abs(Q.angle_between(q, -Q.IDENTITY) - angle) <= 4e-16 * angle


def test_angle_between_exact_oracle_for_nearby_random_pairs(rng):
    # Pairs separated by 1e-16 .. 1e-2 rad, against the exact angle of the very float inputs.
    # 2 acos(|dot|) would be off by ~1e-8 rad here. The absolute floor allows for the two
    # inputs' lengths differing by a few ulp (a radial offset of at most ~4e-16 in 4D); the
    # relative part is machine precision. (Relative accuracy below 1e-8 rad is not asserted
    # here: see the report on angle_between.)
    a = random_quats(rng, (60,))
    steps = Q.from_rotvec(rng.normal(size=(60, 3)) * np.logspace(-16, -2, 60)[:, None])
    b = Q.multiply(a, steps)
    b[::2] *= -1.0
    got = Q.angle_between(a, b)
    for ai, bi, g in zip(a, b, got, strict=True):
        exact = exact_rotation_angle(ai, bi)
        assert abs(np.longdouble(g) - exact) <= 1e-14 * exact + 1e-15


@pytest.mark.parametrize("shape", LEADING_SHAPES)
def test_angle_between_broadcasts(rng, shape):
    a = random_quats(rng, shape)
    got = Q.angle_between(a, Q.IDENTITY)
    assert got.shape == shape
    assert np.allclose(got, 2 * np.arccos(np.clip(np.abs(a[..., 0]), 0, 1)), atol=1e-7)


# --------------------------------------------------------------------------- exp, log, power


def test_exp_known_values():
    assert np.allclose(Q.exp([0, 0, 0, np.pi / 4]), Q.from_axis_angle([0, 0, 1], np.pi / 2))
    assert np.array_equal(Q.exp([0.0, 0, 0, 0]), Q.IDENTITY)
    assert np.allclose(Q.exp([1.0, 0, 0, 0]), [np.e, 0, 0, 0])
    # exp(w + v) = e^w (cos|v|, sin|v| v/|v|)
    q = np.array([0.5, 0.3, -0.4, 1.2])
    th = np.linalg.norm(q[1:])
    expected = np.exp(0.5) * np.concatenate([[np.cos(th)], np.sin(th) * q[1:] / th])
    assert np.allclose(Q.exp(q), expected, rtol=1e-15, atol=1e-15)


def test_exp_of_tiny_vector_is_accurate():
    q = Q.exp([0.0, 1e-20, 0.0, 0.0])
    assert q[0] == 1.0
    assert q[1] == 1e-20


def test_exp_is_from_rotvec_of_twice_the_vector(rng):
    v = rng.normal(size=(20, 3))
    pure = np.concatenate([np.zeros((20, 1)), v], axis=-1)
    got = Q.exp(pure)
    assert np.allclose(np.linalg.norm(got, axis=-1), 1.0, atol=1e-15)
    assert np.all(rot_angle(got, Q.from_xyzw(Rotation.from_rotvec(2 * v).as_quat())) < 1e-14)


def test_log_of_unit_is_half_rotvec(rng):
    q = random_quats(rng, (50,))
    q = np.where(q[:, :1] < 0, -q, q)  # the w >= 0 representative: angle <= pi
    lg = Q.log(q)
    assert np.allclose(lg[:, 0], 0.0, atol=1e-15)
    assert np.allclose(2 * lg[:, 1:], scipy_rot(q).as_rotvec(), atol=1e-14)
    assert np.allclose(Q.log(Q.from_axis_angle([0, 0, 1], np.pi / 2)), [0, 0, 0, np.pi / 4])


def test_log_real_quaternions():
    assert np.allclose(Q.log([2.0, 0, 0, 0]), [np.log(2), 0, 0, 0])
    neg = Q.log([-2.0, 0, 0, 0])
    assert np.all(np.isfinite(neg))
    assert np.isclose(neg[0], np.log(2))
    assert np.isclose(np.linalg.norm(neg[1:]), np.pi)  # some axis, angle pi
    assert np.allclose(Q.exp(neg), [-2.0, 0, 0, 0], atol=1e-15)


@pytest.mark.parametrize("e", [5.48161247e-157, 2.22507386e-309])
def test_log_of_a_tiny_vector_part_keeps_its_axis_and_angle(e):
    # Hypothesis found both: components 5.5e-157 have subnormal squares, and |v| lost
    # digits, so exp(log(q)) came back 7e-12 off near q = -1; at 2.2e-309 the angle
    # over |v| overflowed to inf.
    q = np.array([-1.0, e, e, e])
    lg = Q.log(q)
    np.testing.assert_allclose(np.linalg.norm(lg[1:]), np.pi, rtol=1e-15)
    np.testing.assert_allclose(lg[1:], np.full(3, np.pi / np.sqrt(3)), rtol=1e-15)
    assert np.allclose(Q.exp(lg), q, rtol=0, atol=1e-15)


@PROPERTY
@given(quats, scales)
def test_exp_log_round_trip(q, scale):
    q = q * scale
    back = Q.exp(Q.log(q))
    assert np.allclose(back, q, rtol=1e-12, atol=1e-13 * np.linalg.norm(q))


@pytest.mark.parametrize("shape", LEADING_SHAPES)
def test_exp_log_broadcast(rng, shape):
    q = rng.normal(size=shape + (4,))
    assert Q.log(q).shape == q.shape
    assert Q.exp(q).shape == q.shape
    assert np.allclose(Q.exp(Q.log(q)), q, atol=1e-13)


def test_power(rng):
    axis = np.array([1.0, 2.0, 3.0])
    q = Q.from_axis_angle(axis, 1.2)
    assert np.allclose(Q.power(q, 0.0), Q.IDENTITY, atol=1e-15)
    assert np.allclose(Q.power(q, 1.0), q, atol=1e-15)
    assert np.allclose(Q.power(q, 2.0), Q.multiply(q, q), atol=1e-15)
    assert np.allclose(Q.power(q, -1.0), Q.inverse(q), atol=1e-15)
    assert np.allclose(Q.power(q, 0.5), Q.from_axis_angle(axis, 0.6), atol=1e-15)
    half = Q.power(q, 0.5)
    assert np.allclose(Q.multiply(half, half), q, atol=1e-15)
    ts = np.array([0.0, 0.25, 1.0, 3.0])
    got = Q.power(q, ts)
    assert got.shape == (4, 4)
    assert np.allclose(got, Q.from_axis_angle(axis, 1.2 * ts), atol=1e-15)
    qs = random_quats(rng, (2, 3))
    assert Q.power(qs, np.full((2, 3), 0.5)).shape == (2, 3, 4)


def test_power_takes_q_as_stored():
    # -q is the same rotation, but its half power is the long way's half: 180 - 20/2 deg.
    q = Q.from_axis_angle([0, 0, 1], np.radians(20))
    assert np.isclose(np.degrees(Q.angle_between(Q.IDENTITY, Q.power(-q, 0.5))), 170.0)


def test_power_bad_t_names_t():
    with pytest.raises(ValueError, match=r"\bt\b"):
        Q.power(Q.IDENTITY, np.nan)
    with pytest.raises(ValueError, match=r"\bt\b"):
        Q.power(Q.IDENTITY, [0.5, np.inf])


# --------------------------------------------------------------------------- algebra properties


@PROPERTY
@given(quats, quats, quats)
def test_multiply_is_associative(a, b, c):
    left = Q.multiply(Q.multiply(a, b), c)
    right = Q.multiply(a, Q.multiply(b, c))
    assert np.allclose(left, right, rtol=1e-12, atol=1e-14)


@PROPERTY
@given(quats, quats)
def test_conjugate_of_product_reverses(a, b):
    assert np.allclose(Q.conjugate(Q.multiply(a, b)),
                       Q.multiply(Q.conjugate(b), Q.conjugate(a)), atol=1e-14)


@PROPERTY
@given(quats, quats)
def test_norm_is_multiplicative(a, b):
    assert np.isclose(Q.norm(Q.multiply(a, b)), Q.norm(a) * Q.norm(b), rtol=1e-13)


# --------------------------------------------------------------------------- validation


BAD_QUATERNIONS = [
    pytest.param([0.0, 0.0, 0.0, 0.0], id="zero"),
    pytest.param([np.nan, 0.0, 0.0, 1.0], id="nan"),
    pytest.param([1.0, np.inf, 0.0, 0.0], id="inf"),
    pytest.param([1.0, 0.0, 0.0], id="shape3"),
    pytest.param([[1.0, 0, 0, 0, 0]], id="shape5"),
    pytest.param(1.0, id="scalar"),
    pytest.param("abcd", id="text"),
]


@pytest.mark.parametrize("bad", BAD_QUATERNIONS)
@pytest.mark.parametrize(
    "call, name",
    [
        (lambda q: Q.normalize(q), "q"),
        (lambda q: Q.as_quaternion(q, "q0"), "q0"),
        (lambda q: Q.inverse(q), "q"),
        (lambda q: Q.rotate_vector(q, [1.0, 0, 0]), "q"),
        (lambda q: Q.to_axis_angle(q), "q"),
        (lambda q: Q.to_rotvec(q), "q"),
        (lambda q: M.to_matrix(q), "q"),
        (lambda q: E.to_euler(q, "XYZ"), "q"),
        (lambda q: Q.angle_between(q, Q.IDENTITY), "a"),
        (lambda q: Q.angle_between(Q.IDENTITY, q), "b"),
        (lambda q: Q.log(q), "q"),
        (lambda q: Q.power(q, 0.5), "q"),
    ],
)
def test_invalid_quaternion_names_argument(bad, call, name):
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        call(bad)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: Q.multiply([1, 0, 0], Q.IDENTITY), "a"),
        (lambda: Q.multiply(Q.IDENTITY, [1, 0, 0]), "b"),
        (lambda: Q.dot([1, 0, 0], Q.IDENTITY), "a"),
        (lambda: Q.dot(Q.IDENTITY, [[1, 0]]), "b"),
        (lambda: Q.conjugate([1, 0]), "q"),
        (lambda: Q.to_xyzw([1, 0, 0]), "q"),
        (lambda: Q.from_xyzw([1, 0, 0]), "q_xyzw"),
        (lambda: Q.exp([1, 0, 0]), "q"),
        (lambda: Q.exp([np.nan, 0, 0, 0]), "q"),
        (lambda: Q.rotate_vector(Q.IDENTITY, [1, 0]), "v"),
        (lambda: Q.rotate_vector(Q.IDENTITY, [np.nan, 0, 0]), "v"),
        (lambda: Q.from_axis_angle([0, 0, 0], 1.0), "axis"),
        (lambda: Q.from_axis_angle([0, 1], 1.0), "axis"),
        (lambda: Q.from_axis_angle([0, 0, 1], np.nan), "angle"),
        (lambda: Q.from_axis_angle([0, 0, 1], [0.0, np.inf]), "angle"),
        (lambda: Q.from_rotvec([1.0, 2.0]), "rotvec"),
        (lambda: Q.from_rotvec([np.inf, 0, 0]), "rotvec"),
        (lambda: M.from_matrix(np.eye(2)), "m"),
        (lambda: M.from_matrix(np.ones(3)), "m"),
        (lambda: M.from_matrix(np.full((3, 3), np.nan)), "m"),
    ],
)
def test_invalid_other_arguments_name_argument(call, name):
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        call()


def test_nan_propagates_through_multiply_as_a_gap():
    # Documented: NaN marks a missing path sample and propagates (no exception).
    out = Q.multiply([np.nan] * 4, Q.IDENTITY)
    assert np.all(np.isnan(out))


# --------------------------------------------------------------------------- no mutation


def _frozen(a):
    a = np.array(a, dtype=np.float64)
    a.flags.writeable = False
    return a


def test_inputs_are_never_mutated_and_read_only_inputs_accepted(rng):
    q = _frozen(rng.normal(size=(3, 4)) * 3)
    q2 = _frozen(rng.normal(size=(3, 4)))
    v = _frozen(rng.normal(size=(3, 3)))
    m = _frozen(M.to_matrix(Q.normalize(q)) + 1e-3)
    r = _frozen(M.to_matrix(Q.normalize(q2)))
    angles = _frozen(rng.normal(size=(3, 3)))
    t = _frozen([0.0, 0.5, 2.0])
    snapshot = [x.copy() for x in (q, q2, v, m, r, angles, t)]
    results = [
        Q.normalize(q), Q.multiply(q, q2), Q.conjugate(q), Q.inverse(q), Q.dot(q, q2),
        Q.norm(q), Q.rotate_vector(q, v), Q.from_axis_angle(v, angles[:, 0]),
        *Q.to_axis_angle(q), Q.from_rotvec(v), Q.to_rotvec(q), M.to_matrix(q),
        M.from_matrix(r), M.nearest_rotation(m), E.from_euler(angles, "XYZ"), E.to_euler(q, "zxz"),
        Q.from_xyzw(q), Q.to_xyzw(q), Q.angle_between(q, q2), Q.exp(q), Q.log(q),
        Q.power(q, t), M.orthonormalize(m, 1), Q.as_quaternion(q),
    ]
    for before, after in zip(snapshot, (q, q2, v, m, r, angles, t), strict=True):
        assert np.array_equal(before, after)
    # Results are fresh arrays: writing to them cannot reach the inputs.
    for r in results:
        assert not np.shares_memory(r, q) and not np.shares_memory(r, q2)


def test_normalize_returns_a_copy_of_unit_input():
    q = np.array([1.0, 0.0, 0.0, 0.0])
    n = Q.normalize(q)
    n[0] = 5.0
    assert q[0] == 1.0
