"""Multi-way blending with a kept hemisphere reference (quatlab.math.blend).

There is no library function that implements seed 000's rule, and
re-implementing it here would only repeat the code under test. The oracles
are therefore properties the rule must have (sign blindness, weight-scale
invariance, permutation equivariance, invariance under a common rotation),
agreement with quatlab's own two-input NLERP (a separate code path), and
agreement to third order with scipy's Rotation.mean (Markley's chordal L2
mean, a different estimator) for tight clusters.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation

from quatlab.math import blend as B
from quatlab.math import interpolate
from quatlab.math import quaternion as Q
from quatlab.math.interpolate import InterpolationCollapseError


def _rot(q):
    return Rotation.from_quat(Q.to_xyzw(q))


def _same_rotation(a, b, tol=1e-12):
    return np.all(Q.angle_between(a, b) < tol)


def _pose(p):
    return Q.from_axis_angle(p["axes"], np.radians(p["angles_deg"]))


quat = st.lists(st.floats(-1, 1), min_size=4, max_size=4).filter(
    lambda v: np.linalg.norm(v) > 0.2
)


@st.composite
def poses_and_weights(draw, min_n=1, max_n=5):
    n = draw(st.integers(min_n, max_n))
    q = np.array([draw(quat) for _ in range(n)])
    w = np.array([draw(st.floats(0.0, 10.0)) for _ in range(n)])
    assume(w.sum() > 1e-3)
    return q, w


# --------------------------------------------------------------------------- reference rule


@pytest.mark.parametrize(
    ("weights", "previous", "expected"),
    [
        ([0.2, 0.5, 0.3], None, 0),
        ([0.0, 0.5, 0.3], None, 1),
        ([0.0, 0.0, 0.3], None, 2),
        ([0.2, 0.5, 0.3], 2, 2),  # kept while positive, even if not the largest
        ([0.2, 0.5, 0.0], 2, 0),  # cyclic: after the last comes the first
        ([0.7, 0.0, 0.3], 1, 2),  # the next index, not the lowest
        ([0.7, 0.0, 0.0], 1, 0),
        ([1.0], 0, 0),
    ],
)
def test_choose_reference_rule(weights, previous, expected):
    assert B.choose_reference(weights, previous) == expected


def test_choose_reference_broadcasts():
    w = np.array([[0.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 0.0]])
    np.testing.assert_array_equal(B.choose_reference(w, 0), [1, 0, 0])
    np.testing.assert_array_equal(B.choose_reference(w, 2), [2, 2, 0])
    np.testing.assert_array_equal(B.choose_reference(w), [1, 0, 0])


def test_zero_weight_reference_passes_to_the_next_input():
    poses = _pose(B.PRESETS["reference_switch"])
    w = [0.0, 0.5, 0.5]
    np.testing.assert_array_equal(B.blend(poses, w, reference=0), B.blend(poses, w, reference=1))
    # Reference 1 sees pose 2 (240 deg) in its own hemisphere: 180 deg result.
    got = B.blend(poses, w, reference=0)
    assert np.degrees(Q.angle_between(Q.IDENTITY, got)) == pytest.approx(180.0, abs=1e-9)
    # Pose 0 as reference (weight still positive) flips pose 2 instead: 0 deg.
    got = B.blend(poses, [1e-9, 0.5, 0.5], reference=0)
    assert np.degrees(Q.angle_between(Q.IDENTITY, got)) == pytest.approx(0.0, abs=1e-6)


# --------------------------------------------------------------------------- properties


@settings(max_examples=80, deadline=None)
@given(data=poses_and_weights(), k=st.integers(0, 4), flip=st.integers(0, 4))
def test_property_result_is_unit_and_blind_to_input_signs(data, k, flip):
    q, w = data
    n = len(q)
    ref = k % n
    qn = Q.normalize(q)
    # Exact hemisphere ties (dot == 0) are decided by the stored sign by design.
    assume(np.all(np.abs(qn @ qn[B.choose_reference(w, ref)]) > 1e-9))
    out = B.blend(q, w, reference=ref)
    assert abs(np.linalg.norm(out) - 1) < 1e-12
    q2 = q.copy()
    q2[flip % n] *= -1
    out2 = B.blend(q2, w, reference=ref)
    if flip % n == B.choose_reference(w, ref):
        # Negating the reference flips every aligned input: the same rotation, -q.
        np.testing.assert_allclose(out2, -out, atol=1e-15)
    else:
        np.testing.assert_array_equal(out2, out)


@settings(max_examples=100, deadline=None)
@given(data=poses_and_weights(), scale=st.floats(1e-6, 1e6))
def test_property_only_weight_ratios_matter(data, scale):
    q, w = data
    # Scaling keeps the ratios only while no weight underflows: a subnormal
    # weight times 0.5 becomes 0 and changes which input is the reference.
    assume(np.all((w == 0) | (w * min(scale, 1.0) >= 1e-300)))
    for fn in (B.blend, B.align_to_first):
        try:
            expected = fn(q, w)
        except InterpolationCollapseError:
            # q and -q cancelling (align-to-first's flaw) must not depend on scale.
            with pytest.raises(InterpolationCollapseError):
                fn(q, scale * w)
            continue
        np.testing.assert_allclose(fn(q, scale * w), expected, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(data=poses_and_weights(min_n=2), seed=st.integers(0, 2**32 - 1))
def test_property_permutation_equivariant_with_a_kept_reference(data, seed):
    q, w = data
    perm = np.random.default_rng(seed).permutation(len(q))
    ref = B.choose_reference(w)
    qn = Q.normalize(q)
    assume(np.all(np.abs(qn @ qn[ref]) > 1e-9))
    # The reference follows its pose: it is found at position perm^-1(ref).
    new_ref = int(np.flatnonzero(perm == ref)[0])
    np.testing.assert_allclose(B.blend(q[perm], w[perm], reference=new_ref),
                               B.blend(q, w, reference=ref), atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(data=poses_and_weights(), r=quat, left=st.booleans())
def test_property_commutes_with_a_common_rotation(data, r, left):
    q, w = data
    qn = Q.normalize(q)
    ref = B.choose_reference(w)
    assume(np.all(np.abs(qn @ qn[ref]) > 1e-9))
    r = Q.normalize(r)
    moved = Q.multiply(r, q) if left else Q.multiply(q, r)
    out = B.blend(q, w, reference=ref)
    expected = Q.multiply(r, out) if left else Q.multiply(out, r)
    np.testing.assert_allclose(B.blend(moved, w, reference=ref), expected, atol=1e-12)


@settings(max_examples=100, deadline=None)
@given(a=quat, b=quat, t=st.floats(0, 1))
def test_property_two_inputs_give_shortest_nlerp(a, b, t):
    a, b = Q.normalize(a), Q.normalize(b)
    assume(abs(a @ b) > 1e-9)
    out = B.blend([a, b], [1 - t, t], reference=0) if t < 1 else B.blend([a, b], [0, 1])
    expected = interpolate.nlerp(a, b, t)
    if t == 1:
        # Reference passed to b itself: same rotation, b's sign.
        assert _same_rotation(out, expected)
    else:
        np.testing.assert_allclose(out, expected, atol=1e-12)


def test_two_inputs_equal_slerp_only_at_the_ends_and_the_middle():
    a = Q.IDENTITY
    b = -Q.from_axis_angle([1, 1, 0], np.radians(150))
    for t in (0.0, 0.5, 1.0):
        got = B.blend([a, b], [1 - t, t]) if t < 1 else B.blend([a, b], [0, 1])
        assert _same_rotation(got, interpolate.slerp(a, b, t), 1e-12)
    got = B.blend([a, b], [0.75, 0.25])
    assert Q.angle_between(got, interpolate.slerp(a, b, 0.25)) > np.radians(3)


def test_one_hot_weight_returns_that_pose():
    poses = _pose(B.PRESETS["reference_switch"])
    for i in range(3):
        w = np.eye(3)[i]
        for f in (B.blend, B.naive_weighted_sum, B.align_to_first):
            assert _same_rotation(f(poses, w), poses[i])


def test_same_rotation_with_random_signs_blends_to_itself():
    q = Q.from_axis_angle([1, -2, 3], 2.5)
    signs = np.array([1, -1, -1, 1, -1])[:, None]
    got = B.blend(signs * q, [0.1, 0.2, 0.3, 0.2, 0.2])
    np.testing.assert_allclose(got, q, atol=1e-15)
    # Naive sum: the opposite signs cancel 0.1 + 0.2 - 0.2 - 0.3 - 0.2 of it.
    np.testing.assert_allclose(B.naive_weighted_sum(signs * q, [0.1, 0.2, 0.3, 0.2, 0.2]),
                               -q, atol=1e-15)


@settings(max_examples=60, deadline=None)
@given(
    center=quat,
    n=st.integers(2, 5),
    spread_deg=st.floats(0.5, 20),
    seed=st.integers(0, 2**32 - 1),
)
def test_property_agrees_with_scipy_mean_to_third_order(center, n, spread_deg, seed):
    rng = np.random.default_rng(seed)
    c = Q.normalize(center)
    d = Q.from_rotvec(rng.normal(size=(n, 3)) * np.radians(spread_deg))
    q = Q.multiply(c, d) * rng.choice([-1.0, 1.0], size=(n, 1))
    w = rng.uniform(0.05, 1.0, n)
    got = B.blend(q, w)
    mean = _rot(q).mean(weights=w)
    err = (mean.inv() * _rot(got)).magnitude()
    # Both the normalized sum and the chordal L2 mean are exact to second
    # order in the spread; they part at third order. 0.25 delta^3 is loose
    # (measured max ratio 0.075 over 3000 random clusters).
    delta = np.max(Q.angle_between(q[:, None], q[None, :]))
    assert err <= 0.25 * delta**3 + 1e-12


def test_symmetric_poses_blend_to_the_scipy_mean():
    axis = Q.normalize([0.0, 0.3, 0.4, 0.5])[1:]
    q = Q.from_axis_angle(axis, np.radians([-50.0, 50.0, 390.0]))  # 390 = 30 stored as -q
    w = [1.0, 1.0, 0.0]
    got = B.blend(q, w)
    assert _same_rotation(got, Q.IDENTITY, 1e-12)
    assert (_rot(q).mean(weights=w).inv() * _rot(got)).magnitude() < 1e-12


# --------------------------------------------------------------------------- the variants


def test_naive_sum_takes_the_long_way_for_a_negated_pose():
    q20 = Q.from_axis_angle([0, 0, 1], np.radians(20))
    naive = B.naive_weighted_sum([Q.IDENTITY, -q20], [0.5, 0.5])
    good = B.blend([Q.IDENTITY, -q20], [0.5, 0.5])
    # Seed 000's figures for the two-pose case.
    assert np.degrees(Q.angle_between(Q.IDENTITY, naive)) == pytest.approx(170.0, abs=1e-9)
    assert np.degrees(Q.angle_between(Q.IDENTITY, good)) == pytest.approx(10.0, abs=1e-9)


def test_order_dependence_preset():
    p = B.PRESETS["order_dependence"]
    poses, w = _pose(p), np.asarray(p["weights"])
    got_first = []
    got_blend = []
    for order in p["orders"]:
        order = np.asarray(order)
        got_first.append(B.align_to_first(poses[order], w[order]))
        ref = int(np.flatnonzero(order == p["reference"])[0])
        got_blend.append(B.blend(poses[order], w[order], reference=ref))
    angles = [np.degrees(Q.angle_between(Q.IDENTITY, g)) for g in got_first]
    np.testing.assert_allclose(angles, [0.0, 120.0, 120.0], atol=1e-9)  # 240 deg reads 120
    assert Q.angle_between(got_first[1], got_first[2]) > np.radians(100)
    for g in got_blend:
        assert _same_rotation(g, got_blend[0], 1e-12)


def test_explicit_quaternion_reference():
    poses = _pose(B.PRESETS["reference_switch"])
    w = [1.0, 1.0, 1.0]
    for i in range(3):
        np.testing.assert_allclose(B.blend(poses, w, reference=-2 * poses[i]),
                                   -B.blend(poses, w, reference=i), atol=1e-15)
    # A reference quaternion need not be an input; then the sum can collapse.
    a = Q.IDENTITY
    with pytest.raises(InterpolationCollapseError, match="blend collapsed"):
        B.blend([a, -a], [1, 1], reference=[0, 0, 0, 1])


def test_batched_blend_resolves_the_reference_per_row():
    poses = _pose(B.PRESETS["reference_switch"])
    w = np.array([[1.0, 0.5, 0.5], [0.0, 0.5, 0.5]])
    got = B.blend(poses, w, reference=0)
    assert got.shape == (2, 4)
    for row in range(2):
        np.testing.assert_allclose(got[row], B.blend(poses, w[row], reference=0), atol=1e-15)


def test_collapse_raises():
    with pytest.raises(InterpolationCollapseError, match="naive weighted sum collapsed"):
        B.naive_weighted_sum([Q.IDENTITY, -Q.IDENTITY], [1, 1])
    with pytest.raises(InterpolationCollapseError, match="align-to-first blend collapsed"):
        B.align_to_first([[0, 0, 0, 1], Q.IDENTITY, -Q.IDENTITY], [0, 1, 1])
    # With an input as the reference the sum cannot collapse.
    got = B.blend([Q.IDENTITY, -Q.IDENTITY], [1, 1])
    np.testing.assert_allclose(got, Q.IDENTITY)


# --------------------------------------------------------------------------- sweeps


def test_reference_switch_sweep_jumps_and_remembers():
    p = B.PRESETS["reference_switch"]
    sweep = B.blend_sweep(_pose(p), B.weights_path(p["sweep"], 201), reference=p["reference"])
    assert sweep.switches.tolist() == [100]
    assert set(sweep.reference[:100]) == {0} and set(sweep.reference[100:]) == {1}
    angle = np.degrees(sweep.blend_angle)
    assert angle[99] == pytest.approx(0.0, abs=1e-6)
    assert angle[100] == pytest.approx(180.0, abs=1e-9)
    # Same weights at both ends, different blends: the kept reference.
    np.testing.assert_array_equal(sweep.weights[0], sweep.weights[-1])
    assert angle[-1] == pytest.approx(np.degrees(2 * np.arctan2(np.sqrt(3) / 2, 1)), abs=1e-9)
    # The naive sum has no reference: no jump, and it returns where it began.
    assert np.max(np.abs(np.diff(np.degrees(sweep.naive_angle)))) < 10
    assert sweep.naive_angle[0] == pytest.approx(sweep.naive_angle[-1], abs=1e-12)
    # Each row equals a direct blend with the reference the sweep carried.
    for m in (0, 99, 100, 150, 200):
        np.testing.assert_allclose(
            sweep.blend[m], B.blend(_pose(p), sweep.weights[m], reference=sweep.reference[m]),
            atol=1e-15,
        )
    assert sweep.notes == ()


def test_negated_input_sweep_shows_a_sign_jump_not_a_rotation_jump():
    p = B.PRESETS["negated_input"]
    poses = _pose(p)
    sweep = B.blend_sweep(poses, B.weights_path(p["sweep"], 101), reference=0)
    assert sweep.switches.tolist() == [50, 100]
    # Rotation continuous across the switch, sign flipped (path angle 360 - x).
    assert Q.angle_between(sweep.blend[49], sweep.blend[50]) < np.radians(5)
    assert sweep.blend[49] @ sweep.blend[50] < 0
    assert np.degrees(sweep.blend_angle[50]) > 300
    # The naive sum swings through the far side.
    assert np.max(np.degrees(sweep.naive_angle)) > 150


def test_sweep_marks_collapse_as_nan():
    sweep = B.blend_sweep([Q.IDENTITY, -Q.IDENTITY], [[1, 0], [1, 1], [0, 1]])
    assert np.isnan(sweep.naive[1]).all() and np.isnan(sweep.naive_angle[1])
    assert np.isfinite(sweep.naive[[0, 2]]).all()
    assert np.isfinite(sweep.blend).all()
    assert any("naive" in n for n in sweep.notes)


def test_weights_path():
    w = B.weights_path([[1, 0, 0], [0, 1, 0], [0, 0, 1]], 5)
    np.testing.assert_allclose(w, [[1, 0, 0], [0.5, 0.5, 0], [0, 1, 0], [0, 0.5, 0.5],
                                   [0, 0, 1]])


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("quats", "weights", "reference", "match"),
    [
        ([1, 0, 0, 0], [1], None, r"quats must have shape \(\.\.\., N, 4\)"),
        ([[1, 0, 0]], [1], None, "quats must have shape"),
        ([[0, 0, 0, 0]], [1], None, "quats has zero length"),
        ([[np.nan, 0, 0, 1]], [1], None, "quats contains NaN"),
        ([[1, 0, 0, 0]], [1, 2], None, r"weights must have shape \(\.\.\., 1\)"),
        ([[1, 0, 0, 0]], 1.0, None, "weights must have shape"),
        ([[1, 0, 0, 0]], [np.inf], None, "weights must be finite"),
        ([[1, 0, 0, 0]], [-1], None, "weights must be non-negative"),
        ([[1, 0, 0, 0]] * 2, [0, 0], None, "weights must not all be zero"),
        ([[1, 0, 0, 0]], ["a"], None, "weights must be numeric"),
        ([[1, 0, 0, 0]] * 2, [1, 1], 2, r"reference must lie in \[0, 1\]"),
        ([[1, 0, 0, 0]] * 2, [1, 1], -1, "reference must lie in"),
        ([[1, 0, 0, 0]] * 2, [1, 1], 1.0, "reference must be an input index"),
        ([[1, 0, 0, 0]] * 2, [1, 1], True, "reference must be an input index"),
        ([[1, 0, 0, 0]] * 2, [1, 1], [0, 0, 0, 0], "reference has zero length"),
        ([[1, 0, 0, 0]] * 2, [1, 1], [1, 0, 0], "reference must have shape"),
        ([[1, 0, 0, 0]] * 2, [1, 1], [[1, 0, 0, 0]] * 3, "reference quaternion of shape"),
        ([[[1, 0, 0, 0]] * 2] * 2, [[1, 1]] * 3, None, "incompatible leading shapes"),
    ],
)
def test_blend_rejects_bad_input(quats, weights, reference, match):
    with pytest.raises(ValueError, match=match):
        B.blend(quats, weights, reference=reference)


def test_other_error_paths():
    with pytest.raises(ValueError, match="weights must not all be zero"):
        B.choose_reference([0, 0])
    with pytest.raises(ValueError, match="weights must be finite and non-negative"):
        B.choose_reference([1, -1])
    with pytest.raises(ValueError, match="weights must have shape"):
        B.choose_reference(3.0)
    with pytest.raises(ValueError, match="weights must be numeric"):
        B.choose_reference("w")
    with pytest.raises(ValueError, match=r"previous must lie in \[0, 1\]"):
        B.choose_reference([1, 1], previous=5)
    with pytest.raises(ValueError, match="previous must be an input index"):
        B.choose_reference([1, 1], previous="0")
    with pytest.raises(ValueError, match="weights must be non-negative"):
        B.naive_weighted_sum([[1, 0, 0, 0]], [-1])
    with pytest.raises(ValueError, match="quats has zero length"):
        B.align_to_first([[0, 0, 0, 0]], [1])
    with pytest.raises(ValueError, match=r"quats must have shape \(N, 4\)"):
        B.blend_sweep([[[1, 0, 0, 0]]], [[1]])
    with pytest.raises(ValueError, match=r"weights must have shape \(M, 1\)"):
        B.blend_sweep([[1, 0, 0, 0]], [1])
    with pytest.raises(ValueError, match="reference must lie in"):
        B.blend_sweep([[1, 0, 0, 0]], [[1]], reference=3)
    with pytest.raises(ValueError, match="waypoints must have shape"):
        B.weights_path([[1, 0]], 5)
    with pytest.raises(ValueError, match="waypoints must be finite and non-negative"):
        B.weights_path([[1, 0], [-1, 0]], 5)
    with pytest.raises(ValueError, match="waypoints must be numeric"):
        B.weights_path("abc", 5)
    with pytest.raises(ValueError, match="samples must be an integer of at least 2"):
        B.weights_path([[1, 0], [0, 1]], 1)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_property_reachable_holds_every_blend_of_grid_weights(data):
    """Weights on the 5-level grid, any stored signs, any reference with a positive
    weight, either pose listed first: each blend is one of ``reachable``'s rotations
    (scipy's angle between them under 0.2 deg, the 1e-3 rounding it dedups by)."""
    n = data.draw(st.integers(1, 4))
    poses = Q.normalize(np.array([data.draw(quat) for _ in range(n)]))
    r = B.reachable(poses, firsts=range(n))
    w = np.array([data.draw(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0])) for _ in range(n)])
    assume(w.sum() > 0)
    signs = np.array([data.draw(st.sampled_from([1.0, -1.0])) for _ in range(n)])
    stored = poses * signs[:, None]
    ref = data.draw(st.sampled_from(list(np.flatnonzero(w > 0))))
    first = data.draw(st.integers(0, n - 1))
    order = [first] + [k for k in range(n) if k != first]
    found = {"blend": B.blend(stored, w, reference=int(ref))}
    try:
        found["naive"] = B.naive_weighted_sum(stored, w)
    except InterpolationCollapseError:
        pass  # a collapse has no rotation to frame
    try:
        found["align_first"] = B.align_to_first(stored[order], w[order])
    except InterpolationCollapseError:
        pass
    for name, q in found.items():
        gap = (_rot(r[name]).inv() * _rot(q)).magnitude().min()
        assert np.degrees(gap) < 0.2, (name, np.degrees(gap))


def test_reachable_lists_each_rotation_once():
    p = B.PRESETS["negated_input"]
    for q in B.reachable(_pose(p)).values():
        assert np.allclose(np.linalg.norm(q, axis=1), 1.0)
        # Pairwise rotation angles (scipy): no two rows are one rotation.
        rot = _rot(q)
        gaps = np.array([(rot[i].inv() * rot[i + 1:]).magnitude().min()
                         for i in range(len(q) - 1)])
        assert gaps.min() > 1e-4
    with pytest.raises(ValueError, match="levels"):
        B.reachable(_pose(p), levels=1)
    with pytest.raises(ValueError, match="firsts"):
        B.reachable(_pose(p), firsts=[3])
    with pytest.raises(ValueError, match="N <= 8"):
        B.reachable(np.tile(Q.IDENTITY, (9, 1)))


# --------------------------------------------------------------------------- the lesson's mean


def test_lesson_model_measures_the_blends_against_scipys_mean():
    """The blending lesson's reference (no display): at every edit the model's rotation mean
    is scipy's ``Rotation.mean`` of the weighted poses, and each blend's angle from it is
    scipy's angle between them; where the mean is not unique it is NaN and said so."""
    from quatlab.app.model.blend_lesson import BlendModel

    m = BlendModel("negated_input")
    rng = np.random.default_rng(3)
    for _ in range(8):
        for i in range(3):
            m.set_weight(i, float(rng.uniform(0.05, 1.0)))
        m.set_negated(int(rng.integers(3)), bool(rng.integers(2)))
        mean = _rot(m.quats).mean(weights=m.weights)
        assert (mean.inv() * _rot(m.current_mean)).magnitude() < 1e-9
        for v in m.VARIANTS:
            off = np.degrees((mean.inv() * _rot(m.current[v])).magnitude())
            assert m.mean_off[v] == pytest.approx(off, abs=1e-6)
        # The hand-set weight's curve: scipy's mean of each row of weights.
        x = m.plot["x"]
        i = m.hand
        for k in (0, len(x) // 3, len(x) - 1):
            w = m.weights.copy()
            w[i] = x[k]
            want = np.degrees((_rot(m.quats[0]).inv() * _rot(m.quats).mean(weights=w))
                              .magnitude())
            assert m.plot["mean"][k] == pytest.approx(want, abs=1e-6)
    m.set_preset("order_dependence")          # equal weights on poses 120 deg apart
    assert np.all(np.isnan(m.current_mean)) and np.all(np.isnan(m.plot["mean"]))
    assert "rotation mean is not unique" in m.explanation()


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 6), m=st.integers(1, 60),
       start=st.one_of(st.none(), st.integers(0, 5)))
def test_the_sweep_carries_the_reference_as_choose_reference_does(seed, n, m, start):
    # The sweep's own loop against the rule called sample by sample (as an
    # animation graph evaluates it), on weights with many zeros.
    rng = np.random.default_rng(seed)
    w = rng.uniform(0, 1, (m, n)) * (rng.random((m, n)) < 0.5)
    w[np.arange(m), rng.integers(0, n, m)] += 0.1      # each sample has a positive weight
    start = None if start is None else start % n
    poses = Q.normalize(rng.normal(size=(n, 4)))
    want, current = [], start
    for row in w:
        current = B.choose_reference(row, current)
        want.append(current)
    assert B.blend_sweep(poses, w, reference=start).reference.tolist() == want


def test_the_text_names_what_align_to_first_agrees_with():
    """It read "the naive sum is 81.8° of rotation off it, align-to-first agrees with it":
    the second "it" read as the naive sum, which the readout puts 81.8° away. The
    blends are compared here by plain quaternion dots, not the model's words."""
    from quatlab.app.model.blend_lesson import BlendModel

    m = BlendModel("reference_switch")
    m.set_param(0.0)
    kept, naive, align = (np.asarray(m.current[k], float)
                          for k in ("blend", "naive", "align_first"))

    def turn(p, q):
        return np.degrees(2 * np.arccos(min(1.0, abs(p @ q) / np.linalg.norm(p)
                                            / np.linalg.norm(q))))

    assert turn(kept, align) < 0.05 and turn(kept, naive) > 1.0  # the case in question
    text = m.explanation()
    assert "align-to-first agrees with the kept reference" in text
    assert "agrees with it" not in text
