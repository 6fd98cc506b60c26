"""Tests of quatlab.math.s3: the great-circle plane and the stereographic view of S3.

Reference values are computed here independently (closed forms, exact
rational arithmetic), never by calling the function under test a second way.
"""

from __future__ import annotations

import doctest
import importlib
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from quatlab.math import quaternion as Q
from quatlab.math import s3
from quatlab.math import stereographic as SG
from quatlab.math.curves import compute_curves
from quatlab.math.interpolate import nlerp, slerp

# --------------------------------------------------------------------------- strategies

_component = st.floats(-1.0, 1.0, allow_nan=False, allow_infinity=False)


@st.composite
def unit_quaternions(draw):
    q = np.array([draw(_component) for _ in range(4)])
    assume(np.linalg.norm(q) > 0.1)
    return q / np.linalg.norm(q)


@st.composite
def plane_pairs(draw):
    """Two unit quaternions that span a plane comfortably (|dot| < 1 - 1e-6)."""
    q0 = draw(unit_quaternions())
    q1 = draw(unit_quaternions())
    assume(abs(float(q0 @ q1)) < 1.0 - 1e-6)
    return q0, q1


def _seed_pair():
    """Seed 000: identity to 20 degrees about Z, stored as -q."""
    return Q.IDENTITY, -Q.from_axis_angle([0, 0, 1], np.radians(20.0))


# --------------------------------------------------------------------------- doctests


def test_doctests():
    # quatlab.math cannot be collected by --doctest-modules (no __init__.py,
    # docs/architecture.md): run the module's examples through importlib instead.
    module = importlib.import_module("quatlab.math.s3")
    result = doctest.testmod(
        module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    assert result.attempted > 20
    assert result.failed == 0


# --------------------------------------------------------------------------- plane basis


@settings(max_examples=300, deadline=None)
@given(plane_pairs())
def test_basis_is_orthonormal_and_spans_q0_q1(pair):
    q0, q1 = pair
    e1, e2 = s3.plane_basis(q0, q1)
    assert np.allclose(e1, q0, atol=1e-15)
    assert abs(e1 @ e2) < 1e-14
    assert abs(e1 @ e1 - 1) < 1e-14 and abs(e2 @ e2 - 1) < 1e-14
    # q1 is in the plane and on the positive e2 side.
    assert s3.plane_residual(q1, (e1, e2)) < 1e-14
    assert q1 @ e2 > 0


def test_basis_broadcasts_and_normalizes():
    q0 = np.array([[2.0, 0, 0, 0], [0, 0, 3.0, 0]])
    q1 = [0.0, 0, 0, 5.0]
    e1, e2 = s3.plane_basis(q0, q1)
    assert e1.shape == e2.shape == (2, 4)
    assert np.allclose(e1, [[1, 0, 0, 0], [0, 0, 1, 0]])
    assert np.allclose(e2, [[0, 0, 0, 1], [0, 0, 0, 1]])


def test_basis_does_not_mutate_inputs():
    q0 = np.array([2.0, 0, 0, 0])
    q1 = np.array([0.0, 0, 0, -3.0])
    s3.plane_basis(q0, q1)
    assert q0.tolist() == [2.0, 0, 0, 0] and q1.tolist() == [0.0, 0, 0, -3.0]


def _exact_e2(q0, q1):
    """Gram-Schmidt of q1 against q0 in exact rational arithmetic, then rounded."""
    a = [Fraction(float(x)) for x in q0]
    b = [Fraction(float(x)) for x in q1]
    d = sum(x * y for x, y in zip(a, b, strict=True)) / sum(x * x for x in a)
    v = np.array([float(y - d * x) for x, y in zip(a, b, strict=True)])
    return v / np.linalg.norm(v)


@pytest.mark.parametrize("angle", [1e-3, 1e-6, 1e-8])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_basis_accurate_near_dot_plus_minus_one(angle, sign):
    # The textbook q1 - dot q0 loses ~eps / angle here (4e-8 at 1e-8); the
    # difference-based Gram-Schmidt keeps full precision on the given inputs.
    rng = np.random.default_rng(7)
    for _ in range(20):
        axis = rng.normal(size=3)
        q0 = Q.normalize(rng.normal(size=4))
        q1 = Q.normalize(sign * Q.multiply(q0, Q.from_axis_angle(axis, angle)))
        _, e2 = s3.plane_basis(q0, q1)
        assert np.max(np.abs(e2 - _exact_e2(q0, q1))) < 1e-15


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_plane_angle_accurate_near_dot_plus_minus_one(sign):
    q1 = np.array([sign * 1.0, 0, 0, sign * 1e-7])
    expected = np.arctan(1e-7) if sign > 0 else np.pi - np.arctan(1e-7)
    assert abs(float(s3.plane_angle(Q.IDENTITY, q1)) - expected) < 1e-21 + 1e-16 * expected


def test_plane_angle_seed_figures():
    q0, q1 = _seed_pair()
    assert float(Q.dot(q0, q1)) == pytest.approx(-0.9848077, abs=1e-7)
    a = float(s3.plane_angle(q0, q1))
    # 170 degrees in 4D: naive SLERP turns 340 degrees, shortest 2 (180 - 170) = 20.
    assert np.degrees(a) == pytest.approx(170.0, abs=1e-12)
    xy = s3.to_plane(np.stack([q1, -q1]), s3.plane_basis(q0, q1))
    assert np.allclose(xy[0], [np.cos(a), np.sin(a)], atol=1e-15)
    assert np.allclose(xy[1], [np.cos(a - np.pi), np.sin(a - np.pi)], atol=1e-15)


@pytest.mark.parametrize(
    ("q1", "kind"),
    [
        ([1.0, 0, 0, 0], "q1 = +q0"),
        ([3.0, 0, 0, 0], "q1 = +q0"),
        ([-1.0, 0, 0, 0], "q1 = -q0"),
        ([-2.0, 0, 0, 1e-12], "q1 = -q0"),
        ([1.0, 1e-11, 0, 0], "q1 = +q0"),
    ],
)
def test_degenerate_plane_is_a_clear_error(q1, kind):
    with pytest.raises(s3.DegeneratePlaneError) as info:
        s3.plane_basis([1.0, 0, 0, 0], q1)
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert kind in message and "no plane" in message and "tol=1e-09" in message
    with pytest.raises(s3.DegeneratePlaneError):
        s3.plane_angle([1.0, 0, 0, 0], q1)


def test_degenerate_plane_tolerance_is_documented_and_adjustable():
    q1 = [1.0, 0, 0, 1e-8]  # sine of the 4D angle = 1e-8, above the default 1e-9
    s3.plane_basis(Q.IDENTITY, q1)
    with pytest.raises(s3.DegeneratePlaneError):
        s3.plane_basis(Q.IDENTITY, q1, tol=1e-7)
    assert s3.PLANE_TOLERANCE == 1e-9


def test_degenerate_plane_in_a_batch_says_how_many():
    q1 = np.array([[0, 0, 0, 1.0], [-1.0, 0, 0, 0], [1.0, 0, 0, 0]])
    with pytest.raises(s3.DegeneratePlaneError, match=r"q1 = \+-q0 .* for 2 of 3 pairs"):
        s3.plane_basis(Q.IDENTITY, q1)


# --------------------------------------------------------------------------- circle and paths


@settings(max_examples=200, deadline=None)
@given(plane_pairs(), st.lists(st.floats(-10, 10), min_size=1, max_size=20))
def test_unit_points_of_the_plane_lie_on_the_circle(pair, angles):
    q0, q1 = pair
    basis = s3.plane_basis(q0, q1)
    a = np.array(angles)
    # Independent construction of unit points of the plane from q0 and q1.
    perp = q1 - (q0 @ q1) * q0
    perp /= np.linalg.norm(perp)
    pts = np.cos(a)[:, None] * q0 + np.sin(a)[:, None] * perp
    xy = s3.to_plane(pts, basis)
    assert np.allclose(np.linalg.norm(xy, axis=-1), 1.0, atol=1e-12)
    assert np.allclose(s3.from_plane(xy, basis), pts, atol=1e-12)


def test_circle_points_are_unit_and_closed():
    pts = s3.circle_points(361)
    assert pts.shape == (361, 2)
    assert np.allclose(np.linalg.norm(pts, axis=-1), 1.0, atol=1e-15)
    assert np.array_equal(pts[0], pts[-1]) and np.array_equal(pts[0], [1.0, 0.0])
    basis = s3.plane_basis(*_seed_pair())
    great = s3.from_plane(pts, basis)
    assert np.allclose(np.linalg.norm(great, axis=-1), 1.0, atol=1e-15)


@pytest.mark.parametrize("shortest", [False, True])
@settings(max_examples=150, deadline=None)
@given(pair=plane_pairs())
def test_chord_ends_at_q0_and_plus_minus_q1(pair, shortest):
    q0, q1 = pair
    # Rounded products, then their sum: not q0 @ q1, which BLAS may compute with
    # fused multiply-adds, giving -1e-17 where the products cancel exactly
    # (q0 = (0, c, c, 0), q1 = (0, -c, c, 0)).
    end = -q1 if (shortest and np.sum(q0 * q1) < 0) else q1
    c = s3.chord(q0, q1, [0.0, 1.0], shortest=shortest)
    assert np.array_equal(c[0], q0) and np.allclose(c[1], end, atol=1e-15)
    basis = s3.plane_basis(q0, q1)
    xy = s3.path_in_plane(c, basis)
    assert np.allclose(xy[0], [1.0, 0.0], atol=1e-15)
    assert np.allclose(xy[1], s3.to_plane(end, basis), atol=1e-15)
    assert np.allclose(np.linalg.norm(xy, axis=-1), 1.0, atol=1e-14)


def test_chord_flip_rule_matches_the_contract():
    # dot < 0 flips, dot == 0 keeps the stored sign.
    c = s3.chord(Q.IDENTITY, [-1.0, 0, 0, 1.0], 1.0)
    assert np.allclose(c, np.array([1.0, 0, 0, -1.0]) / np.sqrt(2))
    c = s3.chord(Q.IDENTITY, [0.0, 1, 0, 0], 1.0)
    assert np.array_equal(c, [0.0, 1, 0, 0])


@pytest.mark.parametrize("shortest", [False, True])
def test_chord_projects_to_nlerp_and_lies_inside_the_circle(shortest):
    q0, q1 = _seed_pair()
    basis = s3.plane_basis(q0, q1)
    t = np.linspace(0, 1, 101)
    chord_xy = s3.path_in_plane(s3.chord(q0, q1, t, shortest=shortest), basis)
    assert np.all(np.linalg.norm(chord_xy[1:-1], axis=-1) < 1.0)
    # The chord is straight: every point is the same affine blend of its ends.
    assert np.allclose(chord_xy, (1 - t)[:, None] * chord_xy[0] + t[:, None] * chord_xy[-1])
    nlerp_xy = s3.path_in_plane(nlerp(q0, q1, t, shortest=shortest), basis)
    assert np.allclose(s3.project_to_circle(chord_xy), nlerp_xy, atol=1e-14)


def test_seed_midpoints_in_the_plane():
    # Naive NLERP at t = 0.5 lies at 85 degrees on the great circle (a 170
    # degree rotation); the shortest one at -5 degrees (a 10 degree rotation).
    q0, q1 = _seed_pair()
    basis = s3.plane_basis(q0, q1)
    for shortest, deg in ((False, 85.0), (True, -5.0)):
        xy = s3.project_to_circle(s3.to_plane(s3.chord(q0, q1, 0.5, shortest=shortest), basis))
        assert np.degrees(np.arctan2(xy[1], xy[0])) == pytest.approx(deg, abs=1e-9)


def test_paths_of_the_four_methods_lie_in_the_plane_and_on_the_circle():
    q0, q1 = _seed_pair()
    basis = s3.plane_basis(q0, q1)
    curves = compute_curves(q0, q1, samples=201)
    a = float(s3.plane_angle(q0, q1))
    t = curves.t
    for name in ("naive_slerp", "shortest_slerp", "naive_nlerp", "shortest_nlerp"):
        xy = s3.path_in_plane(curves[name].quats, basis)
        assert np.allclose(np.linalg.norm(xy, axis=-1), 1.0, atol=1e-14), name
        assert np.allclose(xy[0], [1.0, 0.0], atol=1e-15), name
    # SLERP arcs: constant speed along the circle, to q1 (angle a) or to -q1
    # (angle a - pi), computed here from the closed form.
    for name, end in (("naive_slerp", a), ("shortest_slerp", a - np.pi)):
        xy = s3.path_in_plane(curves[name].quats, basis)
        expected = np.stack([np.cos(t * end), np.sin(t * end)], axis=-1)
        assert np.allclose(xy, expected, atol=1e-14), name
    # and the lead's slerp gives the same arc
    arc = s3.path_in_plane(slerp(q0, q1, t), basis)
    assert np.allclose(arc[-1], [np.cos(a - np.pi), np.sin(a - np.pi)], atol=1e-15)


def test_collapse_is_a_gap_not_a_crash():
    # q -> -q: no plane at all; the curves mark the naive NLERP collapse by a
    # NaN row, which the plane and projection helpers keep as a gap.
    curves = compute_curves(Q.IDENTITY, [-1.0, 0, 0, 0], samples=3)
    with pytest.raises(s3.DegeneratePlaneError, match="q1 = -q0"):
        s3.plane_basis(curves.q0, curves.q1)
    basis = s3.plane_basis(Q.IDENTITY, [0.0, 0, 0, 1])
    xy = s3.to_plane(curves["naive_nlerp"].quats, basis)
    assert np.isnan(xy[1]).all() and np.isfinite(xy[[0, 2]]).all()
    assert np.isnan(s3.project_to_circle([[0.0, 0.0], [1e-7, 0.0]])).all()
    assert np.isfinite(s3.project_to_circle([2e-6, 0.0])).all()
    y = SG.stereographic(curves["naive_nlerp"].quats)
    assert np.isnan(y[1]).all() and np.allclose(y[0], 0.0)


def test_path_off_the_plane_raises():
    basis = s3.plane_basis(Q.IDENTITY, [0.0, 0, 0, 1])
    with pytest.raises(s3.PathOffPlaneError, match="path leaves the plane") as info:
        s3.path_in_plane([[1.0, 0, 0, 0], [0.0, 0, 1e-6, 1]], basis)
    assert isinstance(info.value, ValueError)
    # within atol it is accepted, and the atol can be widened
    s3.path_in_plane([[0.0, 0, 1e-6, 1]], basis, atol=1e-5)


def test_plane_residual_is_the_distance_to_the_plane():
    basis = s3.plane_basis(Q.IDENTITY, [0.0, 0, 0, 1])
    assert s3.plane_residual([0.3, 0.4, 0.0, 0.5], basis) == pytest.approx(0.4)
    assert s3.plane_residual([0.3, 0, 0, 0.5], basis) == 0.0


# --------------------------------------------------------------------------- stereographic


def test_hyperplane_basis_is_orthonormal_and_orthogonal_to_the_pole():
    rng = np.random.default_rng(3)
    poles = Q.normalize(rng.normal(size=(50, 4)))
    b = SG.hyperplane_basis(poles)
    assert b.shape == (50, 3, 4)
    gram = np.einsum("nij,nkj->nik", b, b)
    assert np.allclose(gram, np.eye(3), atol=1e-15)
    assert np.allclose(np.einsum("nij,nj->ni", b, poles), 0.0, atol=1e-15)
    assert np.array_equal(SG.hyperplane_basis() + 0.0, np.eye(4)[1:])


@settings(max_examples=300, deadline=None)
@given(unit_quaternions())
def test_default_pole_is_the_classic_formula(q):
    w, x, y, z = q
    assume(1 + w > 1e-3)
    expected = np.array([x, y, z]) / (1 + w)
    got = SG.stereographic(q)
    assert np.allclose(got, expected, rtol=1e-12, atol=1e-14)
    assert np.allclose(SG.stereographic(q, pole=[-1.0, 0, 0, 0]), got)
    assert np.allclose(SG.stereographic(q, pole=SG.DEFAULT_POLE), got)


@settings(max_examples=300, deadline=None)
@given(unit_quaternions(), unit_quaternions())
def test_general_pole_is_the_line_through_the_pole(q, p):
    # The 4D image point y, rebuilt from the 3D coordinates, is on the
    # hyperplane through 0 orthogonal to p and on the line from p through q.
    assume(np.linalg.norm(q - p) > 1e-3)
    coords = SG.stereographic(q, pole=p)
    y = coords @ SG.hyperplane_basis(p)
    assert abs(y @ p) < 1e-12 * (1 + np.linalg.norm(y))
    expected = (q - (q @ p) * p) / (1 - q @ p)  # closed form, computed here
    # Near the pole both computations lose digits in proportion to |y|^2
    # (the map's condition number), so the tolerance scales with it.
    scale = (1.0 + np.linalg.norm(expected)) ** 2
    assert np.allclose(y, expected, rtol=1e-10, atol=1e-13 * scale)
    # collinear: y - p is a multiple of q - p
    lam = ((y - p) @ (q - p)) / ((q - p) @ (q - p))
    assert np.allclose(y - p, lam * (q - p), rtol=1e-9, atol=1e-12 * scale)


@settings(max_examples=300, deadline=None)
@given(unit_quaternions(), unit_quaternions())
def test_inverse_projection_round_trip(q, p):
    assume(np.linalg.norm(q - p) > 1e-4)
    y = SG.stereographic(q, pole=p)
    assert np.allclose(SG.inverse_stereographic(y, pole=p), q, atol=1e-11)
    back = SG.stereographic(SG.inverse_stereographic(y, pole=p), pole=p)
    assert np.allclose(back, y, rtol=1e-9, atol=1e-11)


@settings(max_examples=100, deadline=None)
@given(unit_quaternions(), unit_quaternions())
def test_projection_is_conformal(q, p):
    # On the tangent space of S3 at q the Jacobian is a similarity with
    # factor 1 / (1 - q.p): columns orthogonal and of that common length.
    assume(1 - q @ p > 0.05)
    tangent = np.linalg.svd(q[None, :])[2][1:]  # 3 unit vectors orthogonal to q
    h = 1e-6
    cols = []
    for v in tangent:
        plus = (q + h * v) / np.linalg.norm(q + h * v)
        minus = (q - h * v) / np.linalg.norm(q - h * v)
        cols.append((SG.stereographic(plus, p) - SG.stereographic(minus, p)) / (2 * h))
    jac = np.array(cols)
    factor = 1.0 / (1.0 - q @ p)
    assert np.allclose(jac @ jac.T, factor**2 * np.eye(3), rtol=1e-5, atol=1e-6 * factor**2)


def test_great_circle_maps_to_a_circle():
    # Circles of S3 go to circles (or lines): fit a circle through three
    # images of the lesson's great circle and check every other image is on it.
    q0, q1 = Q.from_axis_angle([1, 2, 3], 0.7), Q.from_axis_angle([-1, 0, 2], 2.5)
    pts = s3.from_plane(s3.circle_points(64)[:-1], s3.plane_basis(q0, q1))
    y = SG.stereographic(pts, pole=[0.5, -0.5, 0.5, 0.5])
    a, b, c = y[0], y[20], y[40]
    n = np.cross(b - a, c - a)
    # circumcentre of the triangle a, b, c
    ab, ac = b - a, c - a
    centre = a + (np.cross(n, ab) * (ac @ ac) + np.cross(ac, n) * (ab @ ab)) / (2 * (n @ n))
    r = np.linalg.norm(a - centre)
    assert np.allclose(np.linalg.norm(y - centre, axis=-1), r, rtol=1e-9)
    assert np.allclose((y - a) @ n, 0.0, atol=1e-9 * np.linalg.norm(n))


def test_pole_maps_to_nan_and_antipode_to_origin():
    assert np.isnan(SG.stereographic([-1.0, 0, 0, 0])).all()
    assert np.isnan(SG.stereographic([-1.0, 1e-13, 0, 0])).all()  # within POLE_TOLERANCE
    far = SG.stereographic([-1.0, 1e-6, 0, 0])
    assert np.all(np.isfinite(far)) and far[0] == pytest.approx(2e6, rel=1e-6)
    p = Q.normalize([1.0, -2, 3, 0.5])
    assert np.isnan(SG.stereographic(p, pole=p)).all()
    assert np.allclose(SG.stereographic(-p, pole=p), 0.0, atol=1e-16)
    # never inf, with or without warnings
    with np.errstate(all="raise"):
        out = SG.stereographic(np.stack([p, -p, Q.IDENTITY]), pole=p)
    assert not np.isinf(out).any()


@settings(max_examples=200, deadline=None)
@given(unit_quaternions(), unit_quaternions())
def test_pole_minus_q0_shows_the_hemisphere_as_the_unit_ball(q0, q):
    # With pole -q0, q lies along the axis of conj(q0) q at distance tan(theta/4):
    # dot > 0 (short way) inside the unit ball, dot < 0 outside.
    d = float(q0 @ q)
    assume(abs(d) > 1e-6 and d > -1 + 1e-6)
    y = SG.stereographic(q, pole=-q0)
    r = Q.multiply(Q.conjugate(q0), q)
    theta = 2 * np.arctan2(np.linalg.norm(r[1:]), r[0])
    assert np.linalg.norm(y) == pytest.approx(np.tan(theta / 4), rel=1e-9, abs=1e-12)
    assert (np.linalg.norm(y) < 1) == (d > 0)
    if np.linalg.norm(r[1:]) > 1e-6:
        assert np.allclose(y / np.linalg.norm(y), r[1:] / np.linalg.norm(r[1:]), atol=1e-9)


def test_seed_paths_in_the_stereographic_view():
    q0, q1 = _seed_pair()
    curves = compute_curves(q0, q1, samples=101)
    short = SG.stereographic(curves["shortest_slerp"].quats, pole=-q0)
    naive = SG.stereographic(curves["naive_slerp"].quats, pole=-q0)
    assert np.all(np.linalg.norm(short, axis=-1) <= np.tan(np.radians(20) / 4) + 1e-15)
    assert np.linalg.norm(naive[-1]) == pytest.approx(np.tan(np.radians(340) / 4))
    # both end at the same rotation, drawn at q1 and at its antipode
    assert np.allclose(SG.inverse_stereographic(short[-1], -q0), -q1, atol=1e-14)
    assert np.allclose(SG.inverse_stereographic(naive[-1], -q0), q1, atol=1e-14)


def test_projection_normalizes_and_broadcasts():
    q = np.array([[2.0, 0, 0, 0], [0, 0, 0, 3.0]])
    assert np.allclose(SG.stereographic(q), [[0, 0, 0], [0, 0, 1]])
    poles = np.array([[-1.0, 0, 0, 0], [0, 0, 0, -1.0]])
    assert SG.stereographic(Q.IDENTITY, poles).shape == (2, 3)


# --------------------------------------------------------------------------- error paths


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: s3.plane_basis([0.0, 0, 0, 0], [1.0, 0, 0, 0]), "q0"),
        (lambda: s3.plane_basis([1.0, 0, 0, 0], [np.nan, 0, 0, 1]), "q1"),
        (lambda: s3.plane_basis([1.0, 0, 0, 0], [np.inf, 0, 0, 1]), "q1"),
        (lambda: s3.plane_basis([1.0, 0, 0], [0, 0, 0, 1.0]), "q0"),
        (lambda: s3.plane_basis([1.0, 0, 0, 0], [0, 1.0, 0, 0], tol=-1), "tol"),
        (lambda: s3.plane_basis([1.0, 0, 0, 0], [0, 1.0, 0, 0], tol=np.nan), "tol"),
        (lambda: s3.plane_basis([1.0, 0, 0, 0], [0, 1.0, 0, 0], tol="x"), "tol"),
        (lambda: s3.plane_angle([1.0, 0, 0, 0], "abc"), "q1"),
        (lambda: s3.to_plane([np.inf, 0, 0, 0], _b()), "q"),
        (lambda: s3.to_plane([np.nan, 0, 0, 0], _b()), "q"),
        (lambda: s3.to_plane([1.0, 0, 0], _b()), "q"),
        (lambda: s3.to_plane([1.0, 0, 0, 0], [1.0, 0, 0, 0]), "basis"),
        (lambda: s3.to_plane([1.0, 0, 0, 0], ([1.0, 0, 0], [0, 1.0, 0])), "basis.e1"),
        (lambda: s3.to_plane([1.0, 0, 0, 0], ([1.0, 0, 0, 0], [np.nan] * 4)), "basis"),
        (lambda: s3.from_plane([1.0, 0, 0], _b()), "xy"),
        (lambda: s3.from_plane([1.0, np.inf], _b()), "xy"),
        (lambda: s3.plane_residual([1.0, 0], _b()), "q"),
        (lambda: s3.path_in_plane([[1.0, 0, 0, np.inf]], _b()), "q"),
        (lambda: s3.path_in_plane([[1.0, 0, 0, 0]], _b(), atol=-1), "atol"),
        (lambda: s3.path_in_plane([[1.0, 0, 0, 0]], _b(), atol="x"), "atol"),
        (lambda: s3.circle_points(2), "n"),
        (lambda: s3.circle_points(10.0), "n"),
        (lambda: s3.circle_points(True), "n"),
        (lambda: s3.chord([0.0, 0, 0, 0], [1.0, 0, 0, 0], 0.5), "q0"),
        (lambda: s3.chord([1.0, 0, 0, 0], [np.nan, 0, 0, 0], 0.5), "q1"),
        (lambda: s3.chord([1.0, 0, 0, 0], [0, 1.0, 0, 0], 1.5), "t"),
        (lambda: s3.chord([1.0, 0, 0, 0], [0, 1.0, 0, 0], -0.1), "t"),
        (lambda: s3.chord([1.0, 0, 0, 0], [0, 1.0, 0, 0], np.nan), "t"),
        (lambda: s3.project_to_circle([1.0, 0, 0]), "xy"),
        (lambda: s3.project_to_circle([1.0, np.nan]), "xy"),
        (lambda: SG.hyperplane_basis([0.0, 0, 0, 0]), "pole"),
        (lambda: SG.stereographic([0.0, 0, 0, 0]), "q"),
        (lambda: SG.stereographic([1.0, 0, 0, np.inf]), "q"),
        (lambda: SG.stereographic([1.0, 0, 0]), "q"),
        (lambda: SG.stereographic([1.0, 0, 0, 0], pole=[0.0, 0, 0, 0]), "pole"),
        (lambda: SG.stereographic([1.0, 0, 0, 0], pole=[np.nan, 0, 0, 0]), "pole"),
        (lambda: SG.inverse_stereographic([1.0, 0, 0, 0]), "y"),
        (lambda: SG.inverse_stereographic([1.0, np.inf, 0]), "y"),
        (lambda: SG.inverse_stereographic([1.0, 0, 0], pole=[1.0, 0]), "pole"),
    ],
)
def test_errors_name_the_argument(call, name):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value).startswith(name), str(info.value)


def _b():
    return s3.plane_basis([1.0, 0, 0, 0], [0.0, 0, 0, 1.0])


def test_stereographic_names_still_import_from_s3():
    # app/s3_view.py and the view tests reach the stereographic view through s3.
    from quatlab.math.s3 import DEFAULT_POLE, stereographic

    assert stereographic is SG.stereographic and DEFAULT_POLE is SG.DEFAULT_POLE
    assert s3.inverse_stereographic is SG.inverse_stereographic
    assert s3.hyperplane_basis is SG.hyperplane_basis and s3.POLE_TOLERANCE == 1e-12
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        s3.nothing  # noqa: B018
