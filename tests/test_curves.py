"""quatlab.math.curves.compute_curves: the four methods' path angle and angular speed.

Checked against the seed figures (docs/presets.md and docs/curves.md, seeds 000 and 004), scipy,
closed forms, and an independent central finite difference of the sampled
quaternion path (the module computes speed analytically).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from quatlab.math import curves as C
from quatlab.math import interpolate as I
from quatlab.math import quaternion as Q

# --------------------------------------------------------------------------- helpers


def unit(q):
    q = np.asarray(q, dtype=np.float64)
    return q / np.linalg.norm(q, axis=-1, keepdims=True)


def axis_angle(axis, angle):
    axis = np.asarray(axis, dtype=np.float64)
    axis = axis / np.linalg.norm(axis)
    return np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])


def short_angle_scipy(q0, q1):
    r = Rotation.from_quat(np.stack([Q.to_xyzw(unit(q0)), Q.to_xyzw(unit(q1))]))
    return (r[0].inv() * r[1]).magnitude()


def fd_speed(t, quats):
    """2 |dq/dt| by central differences, after making consecutive samples sign-continuous."""
    q = np.array(quats, dtype=np.float64)
    for i in range(1, len(q)):
        if q[i] @ q[i - 1] < 0:
            q[i:] *= -1.0
    dq = (q[2:] - q[:-2]) / (t[2:] - t[:-2])[:, None]
    return 2.0 * np.linalg.norm(dq, axis=-1)


# Endpoint pairs: the presets of docs/presets.md plus random ones.
PAIRS = {
    "negated 20": (Q.IDENTITY, -axis_angle([0, 0, 1], np.radians(20))),
    "half turn": (Q.IDENTITY, np.array([0.0, 1.0, 0.0, 0.0])),
    "quarter turn": (Q.IDENTITY, axis_angle([0, 0, 1], np.radians(90))),
    "large 170 oblique": (Q.IDENTITY, axis_angle([1, -2, 0.5], np.radians(170))),
    "small 1": (Q.IDENTITY, axis_angle([0, 1, 0], np.radians(1))),
    "gltf triangle": (Q.from_xyzw([0, 0, 0.707, -0.707]), Q.from_xyzw([0, 0, 0, 1.0])),
    "random a": (unit([0.3, -0.2, 0.9, 0.1]), unit([-0.5, 0.4, 0.1, -0.7])),
    "random b": (unit([0.8, 0.1, 0.1, -0.3]), 2.5 * unit([0.6, 0.4, -0.2, 0.1])),
}


# --------------------------------------------------------------------------- structure


def test_methods_and_labels_follow_design():
    assert C.METHODS == ("naive_nlerp", "shortest_nlerp", "naive_slerp", "shortest_slerp")
    assert [C.METHOD_LABELS[m] for m in C.METHODS] == [
        "naive NLERP", "shortest NLERP", "naive SLERP", "shortest SLERP"
    ]
    c = C.compute_curves(*PAIRS["random a"], samples=5)
    assert list(c.methods) == list(C.METHODS)
    for m in C.METHODS:
        curve = c[m]
        assert curve.name == m
        assert curve.label == C.METHOD_LABELS[m]
        assert curve.quats.shape == (5, 4)
        assert curve.angle.shape == curve.speed.shape == (5,)
        assert np.array_equal(curve.angle_deg, np.degrees(curve.angle))
        assert np.array_equal(curve.speed_deg, np.degrees(curve.speed))
        assert curve.defined.all()


def test_default_samples_include_ends_and_middle():
    c = C.compute_curves(*PAIRS["random a"])
    assert len(c.t) == C.DEFAULT_SAMPLES
    assert c.t[0] == 0.0 and c.t[-1] == 1.0
    assert np.any(c.t == 0.5)  # the collapse point of q -> -q must be a sample
    assert np.all(np.diff(c.t) > 0)


def test_explicit_t_and_scalar_t():
    t = np.array([0.0, 0.1, 0.15, 0.7, 1.0])
    c = C.compute_curves(*PAIRS["random a"], t)
    assert np.array_equal(c.t, t)
    c = C.compute_curves(*PAIRS["random a"], 0.5)
    assert c.t.shape == (1,)
    assert c["naive_nlerp"].quats.shape == (1, 4)


def test_endpoints_stored_normalized_not_flipped():
    q0, q1 = PAIRS["negated 20"]
    c = C.compute_curves(3.0 * q0, 0.5 * q1, samples=3)
    assert np.allclose(c.q0, q0, atol=1e-16)
    assert np.allclose(c.q1, q1, atol=1e-16)  # stored sign kept; only the methods flip
    assert c.shortest_flips
    assert np.isclose(c.dot, np.dot(q0, q1))


def test_non_unit_inputs_give_the_same_curves():
    q0, q1 = PAIRS["random b"]
    a = C.compute_curves(q0, q1, samples=21)
    b = C.compute_curves(4.0 * q0, 0.1 * q1, samples=21)
    for m in C.METHODS:
        assert np.allclose(a[m].quats, b[m].quats, atol=1e-14)
        assert np.allclose(a[m].angle, b[m].angle, atol=1e-13)
        assert np.allclose(a[m].speed, b[m].speed, rtol=1e-12)


# --------------------------------------------------------------------------- seeds


def test_seed_000_figures():
    q0, q1 = PAIRS["negated 20"]
    c = C.compute_curves(q0, q1)
    mid = int(np.flatnonzero(c.t == 0.5)[0])
    # the seed prints the float32 dot
    assert abs(c.dot - -0.9848077) < 1e-7
    assert c.shortest_flips
    assert np.isclose(np.degrees(c.short_angle), 20.0, atol=1e-12)
    # t = 0.5: naive NLERP has swept 170.0 deg, shortest 10.0 deg (the seed's 169.99997 and
    # 9.99997 are float32 rounding, docs/presets.md)
    assert np.isclose(c["naive_nlerp"].angle_deg[mid], 170.0, atol=1e-9)
    assert np.isclose(c["shortest_nlerp"].angle_deg[mid], 10.0, atol=1e-9)
    assert np.isclose(c["naive_slerp"].angle_deg[mid], 170.0, atol=1e-9)
    assert np.isclose(c["shortest_slerp"].angle_deg[mid], 10.0, atol=1e-9)
    # t = 1: the long way is 360 - 20
    assert np.isclose(c["naive_nlerp"].angle_deg[-1], 340.0, atol=1e-9)
    assert np.isclose(c["naive_slerp"].angle_deg[-1], 340.0, atol=1e-9)
    assert np.isclose(c["shortest_nlerp"].angle_deg[-1], 20.0, atol=1e-9)
    assert np.isclose(c["shortest_slerp"].angle_deg[-1], 20.0, atol=1e-9)
    # speeds of SLERP: the arc's angle, constant
    assert np.allclose(c["shortest_slerp"].speed_deg, 20.0, atol=1e-9)
    assert np.allclose(c["naive_slerp"].speed_deg, 340.0, atol=1e-9)
    assert c.notes == ()
    for m in C.METHODS:
        assert c[m].defined.all()


def test_seed_000_naive_midpoint_is_the_long_way_round():
    q0, q1 = PAIRS["negated 20"]
    c = C.compute_curves(q0, q1, [0.5])
    # The naive midpoint normalizes (identity - q20) / 2: a 170 deg turn about -Z, where the
    # short midpoint is 10 deg about +Z. The joint has swung the other way round.
    naive = c["naive_nlerp"].quats[0]
    short = c["shortest_nlerp"].quats[0]
    assert np.isclose(np.degrees(short_angle_scipy(q0, naive)), 170.0, atol=1e-9)
    assert np.isclose(np.degrees(short_angle_scipy(q0, short)), 10.0, atol=1e-9)
    x_short = Q.rotate_vector(short, [1.0, 0, 0])
    assert np.allclose(x_short, [np.cos(np.radians(10)), np.sin(np.radians(10)), 0], atol=1e-15)
    x_naive = Q.rotate_vector(naive, [1.0, 0, 0])
    assert np.allclose(x_naive, [np.cos(np.radians(170)), -np.sin(np.radians(170)), 0],
                       atol=1e-14)


def test_seed_004_quarter_turn_midpoint():
    q0, q1 = PAIRS["quarter turn"]
    for end in (q1, -q1):
        c = C.compute_curves(q0, end, [0.0, 0.5, 1.0])
        for m in ("shortest_nlerp", "shortest_slerp"):
            x = Q.rotate_vector(c[m].quats[1], [1.0, 0.0, 0.0])
            assert np.allclose(x, [0.7071, 0.7071, 0.0], atol=5e-5)
            assert np.allclose(x, [np.sqrt(0.5), np.sqrt(0.5), 0.0], atol=1e-15)
            assert np.isclose(c[m].angle_deg[1], 45.0)


# --------------------------------------------------------------------------- angles


@pytest.mark.parametrize("name", list(PAIRS))
def test_path_angles_closed_forms(name):
    q0, q1 = PAIRS[name]
    c = C.compute_curves(q0, q1, samples=101)
    t = c.t
    a, b = unit(q0), unit(q1)
    short = short_angle_scipy(a, b)
    assert np.isclose(c.short_angle, short, atol=1e-12)
    long_way = np.dot(a, b) < 0
    # SLERP sweeps linearly; the naive one the long way when dot < 0.
    assert np.allclose(c["shortest_slerp"].angle, t * short, atol=1e-12)
    naive_total = 2 * np.pi - short if long_way else short
    assert np.allclose(c["naive_slerp"].angle, t * naive_total, atol=1e-12)
    # NLERP: the normalized chord; 4D angle atan2(t sin W, 1 - t + t cos W).
    for m, total in (("shortest_nlerp", short), ("naive_nlerp", naive_total)):
        W = total / 2
        expected = 2 * np.arctan2(t * np.sin(W), 1 - t + t * np.cos(W))
        assert np.allclose(c[m].angle, expected, atol=1e-12)


def test_path_angle_function():
    assert np.isclose(C.path_angle(Q.IDENTITY, -Q.IDENTITY), 2 * np.pi)
    assert C.path_angle(Q.IDENTITY, Q.IDENTITY) == 0.0
    q = axis_angle([1, 1, 0], 0.7)
    assert np.isclose(C.path_angle(Q.IDENTITY, q), 0.7)
    assert np.isclose(C.path_angle(Q.IDENTITY, -q), 2 * np.pi - 0.7)
    # relative to q0, and broadcast over samples
    q0 = axis_angle([0, 0, 1], 1.0)
    qs = np.array([q0, Q.multiply(q0, q), Q.multiply(q0, -q)])
    assert np.allclose(C.path_angle(q0, qs), [0.0, 0.7, 2 * np.pi - 0.7])
    with pytest.raises(ValueError, match=r"\bq0\b"):
        C.path_angle([0, 0, 0, 0], q)


# --------------------------------------------------------------------------- speed


@pytest.mark.parametrize("name", list(PAIRS))
def test_speed_matches_finite_difference_of_the_path(name):
    q0, q1 = PAIRS[name]
    c = C.compute_curves(q0, q1, samples=4001)
    for m in C.METHODS:
        fd = fd_speed(c.t, c[m].quats)
        analytic = c[m].speed[1:-1]
        # central differences are O(h^2): ~1e-5 relative where the naive NLERP of the
        # negated 20 deg pair turns fastest (|p| = cos 85 deg mid-way)
        assert np.allclose(fd, analytic, rtol=5e-5, atol=1e-9), m


@pytest.mark.parametrize("name", ["negated 20", "large 170 oblique", "random a"])
def test_finite_difference_discrepancy_is_only_truncation(name):
    # Halving the step divides the gap between the difference quotient and the analytic
    # speed by 4: the analytic formula is right, only the O(h^2) truncation remains.
    q0, q1 = PAIRS[name]
    for m in ("naive_nlerp", "shortest_nlerp"):
        gaps = []
        for n in (1001, 2001):
            c = C.compute_curves(q0, q1, samples=n)
            gaps.append(np.max(np.abs(fd_speed(c.t, c[m].quats) / c[m].speed[1:-1] - 1)))
        assert 3.5 < gaps[0] / gaps[1] < 4.5, (m, gaps)


@pytest.mark.parametrize("name", list(PAIRS))
def test_speed_is_the_slope_of_the_path_angle(name):
    # Every path lies on one great circle through q0, so d(theta)/dt = omega.
    q0, q1 = PAIRS[name]
    c = C.compute_curves(q0, q1, samples=4001)
    for m in C.METHODS:
        slope = np.gradient(c[m].angle, c.t)[1:-1]
        assert np.allclose(slope, c[m].speed[1:-1], rtol=5e-5, atol=1e-9), m


@pytest.mark.parametrize("name", list(PAIRS))
def test_shortest_slerp_speed_is_constant_angle_between(name):
    q0, q1 = PAIRS[name]
    c = C.compute_curves(q0, q1, samples=51)
    short = short_angle_scipy(q0, q1)
    assert np.allclose(c["shortest_slerp"].speed, short, rtol=1e-12, atol=1e-14)
    long_way = np.dot(unit(q0), unit(q1)) < 0
    expected = 2 * np.pi - short if long_way else short
    assert np.allclose(c["naive_slerp"].speed, expected, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", ["negated 20", "half turn", "quarter turn", "large 170 oblique",
                                  "small 1", "gltf triangle", "random a", "random b"])
def test_nlerp_speed_peaks_in_the_middle(name):
    q0, q1 = PAIRS[name]
    c = C.compute_curves(q0, q1, samples=201)
    mid = 100
    assert c.t[mid] == 0.5
    for m, sl in (("shortest_nlerp", "shortest_slerp"), ("naive_nlerp", "naive_slerp")):
        s = c[m].speed
        assert int(np.argmax(s)) == mid
        assert np.allclose(s, s[::-1], rtol=1e-12)  # symmetric in t <-> 1 - t
        assert np.all(np.diff(s[: mid + 1]) > 0)  # rises to the middle
        # slower than SLERP at the ends, faster in the middle; same total angle
        assert s[0] < c[sl].speed[0] < s[mid]
        area = np.sum((s[1:] + s[:-1]) * np.diff(c.t)) / 2  # trapezoid rule
        assert np.isclose(area, c[sl].speed[0], rtol=1e-4)


def test_large_170_is_where_nlerp_and_slerp_speeds_differ_most():
    def spread(q1):
        c = C.compute_curves(Q.IDENTITY, q1, samples=101)
        return c["shortest_nlerp"].speed.max() / c["shortest_nlerp"].speed.min()

    assert spread(PAIRS["large 170 oblique"][1]) > spread(PAIRS["quarter turn"][1])
    assert spread(PAIRS["quarter turn"][1]) > spread(PAIRS["small 1"][1])
    assert spread(PAIRS["small 1"][1]) < 1 + 1e-4


def test_naive_nlerp_speed_diverges_near_the_antipode():
    # q0 -> -(q0 turned by 0.1 deg): the naive chord passes close to the origin.
    q0 = unit([0.3, -0.2, 0.9, 0.1])
    q1 = -Q.multiply(q0, axis_angle([1, 0, 0], np.radians(0.1)))
    c = C.compute_curves(q0, q1, samples=201)
    s = c["naive_nlerp"].speed
    assert np.all(np.isfinite(s))
    assert s[100] > 1e4 * s[0]
    assert c.notes == ()


# --------------------------------------------------------------------------- q -> -q


@pytest.mark.parametrize("q", [Q.IDENTITY, unit([0.3, -0.2, 0.9, 0.1])])
def test_q_to_minus_q(q):
    c = C.compute_curves(q, -q, samples=101)
    mid = 50
    assert c.t[mid] == 0.5
    nn = c["naive_nlerp"]
    # The naive NLERP collapses at t = 0.5 exactly: a gap, never an invented value.
    assert np.all(np.isnan(nn.quats[mid]))
    assert np.isnan(nn.angle[mid]) and np.isnan(nn.speed[mid])
    assert not nn.defined[mid]
    others = np.arange(101) != mid
    assert nn.defined[others].all()
    assert np.all(np.isfinite(nn.quats[others]))
    # before the gap it sits at q, after it at -q (360 deg the "long way")
    assert np.allclose(nn.angle[:mid], 0.0, atol=1e-13)
    assert np.allclose(nn.angle[mid + 1:], 2 * np.pi)
    # naive SLERP between exact antipodes: undefined inside (0, 1), defined at the ends
    ns = c["naive_slerp"]
    assert np.all(np.isnan(ns.angle[1:-1]))
    assert np.all(np.isnan(ns.quats[1:-1]))
    assert ns.defined[0] and ns.defined[-1]
    assert abs(ns.angle[0]) < 1e-13 and np.isclose(ns.angle[-1], 2 * np.pi)
    # shortest methods: -q is flipped to q, nothing moves
    for m in ("shortest_nlerp", "shortest_slerp"):
        assert c[m].defined.all()
        assert np.allclose(c[m].angle, 0.0, atol=1e-15)
        assert np.allclose(c[m].speed, 0.0, atol=1e-15)
        assert np.allclose(c[m].quats, q, atol=1e-15)
    # the notes say why the gaps exist
    notes = " ".join(c.notes).lower()
    assert "collapse" in notes and "nlerp" in notes
    assert "slerp" in notes
    assert len(c.notes) == 2


def test_q_to_minus_q_without_a_sample_at_the_collapse():
    c = C.compute_curves(Q.IDENTITY, -Q.IDENTITY, samples=100)  # no t == 0.5
    assert not np.any(c.t == 0.5)
    assert c["naive_nlerp"].defined.all()
    assert not any("nlerp" in n.lower() for n in c.notes)
    assert any("slerp" in n.lower() for n in c.notes)


# --------------------------------------------------------------------------- half turn


@pytest.mark.parametrize(
    "q1",
    [
        np.array([0.0, 1.0, 0.0, 0.0]),
        np.array([0.0, -1.0, 0.0, 0.0]),
        np.array([-0.0, 0.0, 0.0, -1.0]),
    ],
)
def test_half_turn_dot_zero_naive_equals_shortest(q1):
    c = C.compute_curves(Q.IDENTITY, q1, samples=101)
    assert c.dot == 0.0
    assert not c.shortest_flips
    for kind in ("nlerp", "slerp"):
        naive, short = c[f"naive_{kind}"], c[f"shortest_{kind}"]
        assert np.array_equal(naive.quats, short.quats)
        assert np.array_equal(naive.angle, short.angle)
        assert np.array_equal(naive.speed, short.speed)
        assert np.isclose(short.angle_deg[-1], 180.0)
    # the stored sign decides the direction (seed 000: deterministic)
    mid = c["shortest_slerp"].quats[50]
    assert np.allclose(mid, unit(Q.IDENTITY + q1), atol=1e-15)
    assert c.notes == ()


def test_gltf_box_animated_tiny_negative_dot_flips():
    # docs/presets.md (gltf-box-animated): dot = -4.49e-11, an ambiguous 180 deg;
    # the strict rule still flips.
    q0 = Q.from_xyzw([-0.0, -0.0, -0.0, -1.0])
    q1 = Q.from_xyzw([1.0, 0.0, 0.0, 4.49e-11])
    c = C.compute_curves(q0, q1, samples=11)
    assert c.dot < 0
    assert c.shortest_flips
    assert np.allclose(c["shortest_slerp"].quats[-1], -unit(q1), atol=1e-15)
    assert np.allclose(c["naive_slerp"].quats[-1], unit(q1), atol=1e-15)
    # both arcs are (almost exactly) half turns
    assert np.isclose(c["naive_slerp"].angle_deg[-1], 180.0, atol=1e-7)
    assert np.isclose(c["shortest_slerp"].angle_deg[-1], 180.0, atol=1e-7)


# --------------------------------------------------------------------------- consistency


@pytest.mark.parametrize("name", list(PAIRS))
def test_quats_agree_with_interpolate(name):
    q0, q1 = PAIRS[name]
    c = C.compute_curves(q0, q1, samples=33)
    for shortest, kind in ((False, "naive"), (True, "shortest")):
        assert np.allclose(c[f"{kind}_nlerp"].quats, I.nlerp(q0, q1, c.t, shortest=shortest),
                           atol=1e-15)
        assert np.allclose(c[f"{kind}_slerp"].quats, I.slerp(q0, q1, c.t, shortest=shortest),
                           atol=1e-15)
    for m in C.METHODS:
        assert np.allclose(np.linalg.norm(c[m].quats, axis=-1), 1.0, atol=1e-15)
        assert np.allclose(c[m].quats[0], unit(q0), atol=1e-15)


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "bad",
    [[0.0, 0, 0, 0], [np.nan, 0, 0, 1], [0, np.inf, 0, 0], [1.0, 0, 0], [[1.0, 0, 0, 0]] * 2],
)
def test_invalid_endpoints_name_argument(bad):
    with pytest.raises(ValueError, match=r"\bq0\b"):
        C.compute_curves(bad, Q.IDENTITY)
    with pytest.raises(ValueError, match=r"\bq1\b"):
        C.compute_curves(Q.IDENTITY, bad)


@pytest.mark.parametrize("t", [[0.0, 1.5], [np.nan], [-0.1, 0.5], [[0.1, 0.2]], "x"])
def test_invalid_t_names_t(t):
    with pytest.raises(ValueError, match=r"\bt\b"):
        C.compute_curves(Q.IDENTITY, PAIRS["random a"][1], t)


@pytest.mark.parametrize("samples", [1, 0, -3, 2.0, True, "10", None])
def test_invalid_samples_names_samples(samples):
    with pytest.raises(ValueError, match=r"\bsamples\b"):
        C.compute_curves(Q.IDENTITY, PAIRS["random a"][1], samples=samples)


def test_inputs_not_mutated_read_only_accepted():
    q0 = np.array([2.0, 0.0, 0.0, 0.0])
    q1 = -3.0 * axis_angle([0, 0, 1], 0.3)
    t = np.linspace(0, 1, 9)
    for a in (q0, q1, t):
        a.flags.writeable = False
    before = [a.copy() for a in (q0, q1, t)]
    c = C.compute_curves(q0, q1, t)
    for a, b in zip((q0, q1, t), before, strict=True):
        assert np.array_equal(a, b)
    assert c["shortest_slerp"].defined.all()
