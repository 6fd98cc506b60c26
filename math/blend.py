"""Multi-way pose blending with an explicit hemisphere reference.

Quaternions are (w, x, y, z); ``quats`` has shape ``(..., N, 4)`` and
``weights`` ``(..., N)`` (non-negative, not all zero; they need not sum to 1).

The rule for blending N poses (``docs/interpolation.md``, "Multi-way blending"):
keep a **reference** quaternion for the
evaluation, move every input into the reference's hemisphere (flip ``q`` to
``-q`` when ``dot(reference, q) < 0``, keep it at ``dot == 0``), accumulate
``sum w_i q_i`` in input order and normalize. When the reference input's
weight drops to zero the next reference is chosen by **stable input index**
(:func:`choose_reference`), never by container iteration order. The memory of
which input is the reference belongs to the caller (an animation-graph node,
the app's model); :func:`blend_sweep` plays that role for a plotted sweep.

Two flawed variants sit beside it for the lesson:

* :func:`naive_weighted_sum` adds the stored components as they are: a pose
  stored as ``-q`` pulls the result the wrong way or cancels it;
* :func:`align_to_first` aligns every input with ``quats[0]``: the result
  depends on which pose happens to be listed first.

When every pair of poses is less than 90 degrees of rotation apart, aligning
to any one of them picks the same signs, so :func:`blend` and
:func:`align_to_first` agree whatever the reference (and the naive sum agrees
too if the stored signs already match). Wider spreads make "same hemisphere"
non-transitive; then the choice of reference changes the answer, which is
what the presets show.

Examples
--------
>>> import numpy as np
>>> from quatlab.math import quaternion as Q
>>> poses = Q.from_axis_angle([0, 0, 1], np.radians([0.0, 120.0, 240.0]))
>>> def deg(q):
...     return round(float(np.degrees(Q.angle_between(Q.IDENTITY, q))), 6)
>>> deg(blend(poses, [1, 1, 1], reference=0)), deg(blend(poses, [1, 1, 1], reference=1))
(0.0, 120.0)
>>> deg(align_to_first(poses, [1, 1, 1])), deg(align_to_first(poses[[1, 0, 2]], [1, 1, 1]))
(0.0, 120.0)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product

import numpy as np

from quatlab.math.curves import path_angle
from quatlab.math.interpolate import COLLAPSE_EPS, InterpolationCollapseError
from quatlab.math.marks import N_
from quatlab.math.quaternion import as_quaternion

__all__ = [
    "PRESETS",
    "choose_reference",
    "blend",
    "naive_weighted_sum",
    "align_to_first",
    "weights_path",
    "BlendSweep",
    "blend_sweep",
    "reachable",
]



#: Lesson presets (JSON-able; ``docs/presets.md``, "Blending"). Poses as axis
#: (x, y, z) and angle in degrees, converted with
#: :func:`quatlab.math.quaternion.from_axis_angle`, so a pose of more than 180
#: degrees is stored with w < 0 as a converter would give it.
PRESETS = {
    "reference_switch": {
        "label": N_("Reference switch: 0°, 120°, 240° about Z"),
        "description": N_(
            "The weight of pose 0 (the reference) falls to zero and rises again. At zero "
            "the reference passes to pose 1 by stable index and stays there: the blend "
            "jumps by 180° and ends elsewhere than it started with the same weights."
        ),
        "axes": [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [0.0, 0.0, 1.0]],
        "angles_deg": [0.0, 120.0, 240.0],
        "weights": [1.0, 0.5, 0.5],
        "reference": 0,
        "sweep": [[1.0, 0.5, 0.5], [0.0, 0.5, 0.5], [1.0, 0.5, 0.5]],
    },
    "order_dependence": {
        "label": N_("Order dependence of 'align to the first input'"),
        "description": N_(
            "Equal weights on 0°, 120° and 240° about Z. Aligning to whichever pose is "
            "listed first gives 0°, 120° or 240° depending on the listing; the kept "
            "reference gives the same answer in any order."
        ),
        "axes": [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [0.0, 0.0, 1.0]],
        "angles_deg": [0.0, 120.0, 240.0],
        "weights": [1.0, 1.0, 1.0],
        "reference": 0,
        "orders": [[0, 1, 2], [1, 0, 2], [2, 0, 1]],
    },
    "negated_input": {
        "label": N_("A pose stored as -q"),
        "description": N_(
            "Three nearby poses, the second stored negated (an importer's choice). The "
            "naive sum is dragged the long way; the aligned blends ignore the sign."
        ),
        "axes": [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        "angles_deg": [20.0, -340.0, 30.0],
        "weights": [0.5, 0.3, 0.2],
        "reference": 0,
        "sweep": [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
    },
}


# --------------------------------------------------------------------------- validation


def _validate(quats, weights):
    """Normalized quats ``(..., N, 4)`` and float weights ``(..., N)``, broadcast."""
    q = as_quaternion(quats, "quats")
    if q.ndim < 2:
        raise ValueError(f"quats must have shape (..., N, 4) with N >= 1, got shape {q.shape}")
    try:
        w = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"weights must be numeric, got {weights!r}") from exc
    if w.ndim == 0 or w.shape[-1] != q.shape[-2]:
        raise ValueError(
            f"weights must have shape (..., {q.shape[-2]}) to match quats {q.shape}, "
            f"got shape {w.shape}"
        )
    if not np.all(np.isfinite(w)):
        raise ValueError("weights must be finite")
    if np.any(w < 0):
        raise ValueError("weights must be non-negative")
    if np.any(np.sum(w, axis=-1) <= 0):
        raise ValueError("weights must not all be zero: there is nothing to blend")
    try:
        shape = np.broadcast_shapes(q.shape[:-2], w.shape[:-1])
    except ValueError as exc:
        raise ValueError(
            f"weights {w.shape} and quats {q.shape} have incompatible leading shapes"
        ) from exc
    n = q.shape[-2]
    return np.broadcast_to(q, shape + (n, 4)), np.broadcast_to(w, shape + (n,))


def _as_index(value, n: int, name: str):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an input index (int), got {value!r}")
    if not 0 <= value < n:
        raise ValueError(f"{name} must lie in [0, {n - 1}], got {value}")
    return int(value)


# --------------------------------------------------------------------------- the rule


def choose_reference(weights, previous=None):
    """Index of the reference input for this evaluation (the multi-way blending rule).

    The previous reference is kept while its weight is positive. When its
    weight is zero (or there is no previous one) the reference passes to the
    next input, by stable index and cyclically, whose weight is positive:
    ``previous + 1, previous + 2, ...``; with ``previous=None`` the search
    starts at input 0. Stateless: the caller stores the returned index and
    passes it back next time.

    ``weights`` may be ``(..., N)``; the result then has shape ``(...)``.

    Examples
    --------
    >>> choose_reference([0.2, 0.5, 0.3])
    0
    >>> choose_reference([0.0, 0.5, 0.3], previous=0)
    1
    >>> choose_reference([0.7, 0.0, 0.3], previous=1)   # next after 1, not the lowest
    2
    >>> choose_reference([0.7, 0.5, 0.3], previous=1)   # kept while its weight is > 0
    1
    """
    try:
        w = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"weights must be numeric, got {weights!r}") from exc
    if w.ndim == 0 or w.shape[-1] == 0:
        raise ValueError(f"weights must have shape (..., N) with N >= 1, got shape {w.shape}")
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError("weights must be finite and non-negative")
    positive = w > 0
    if not np.all(np.any(positive, axis=-1)):
        raise ValueError("weights must not all be zero: no input can be the reference")
    n = w.shape[-1]
    start = 0 if previous is None else _as_index(previous, n, "previous")
    # Candidates in the order start, start + 1, ... (cyclic); the first
    # positive one wins. With start = previous this keeps a live reference.
    order = (start + np.arange(n)) % n
    first = np.argmax(positive[..., order], axis=-1)
    result = order[first]
    return int(result) if np.ndim(result) == 0 else result


def _reference_quaternion(q, w, reference):
    """The reference quaternion(s) ``(..., 4)`` for :func:`blend`."""
    if reference is None or np.ndim(reference) == 0:
        if reference is not None:
            _as_index(reference, q.shape[-2], "reference")
        idx = np.asarray(choose_reference(w, reference))
        return np.take_along_axis(q, idx[..., None, None], axis=-2)[..., 0, :]
    ref = as_quaternion(reference, "reference")
    try:
        return np.broadcast_to(ref, q.shape[:-2] + (4,))
    except ValueError as exc:
        raise ValueError(
            f"reference quaternion of shape {ref.shape} does not match quats {q.shape}"
        ) from exc


def _align(q, ref):
    """Inputs ``(..., N, 4)`` moved into the hemisphere of ``ref`` ``(..., 4)``."""
    d = np.einsum("...ni,...i->...n", q, ref)
    # Strictly below zero: at dot == 0 the stored sign is kept
    # (docs/interpolation.md, "Shortest-arc rule").
    return np.where((d < 0)[..., None], -q, q)


def _accumulate(q, w):
    """``sum_i w_i q_i / sum_i w_i`` in input order, and its squared length."""
    w = w / np.sum(w, axis=-1, keepdims=True)
    acc = np.zeros(q.shape[:-2] + (4,))
    # An explicit loop fixes the order of the additions, as the rule asks
    # (docs/interpolation.md, "Multi-way blending"); N is small.
    for i in range(q.shape[-2]):
        acc = acc + w[..., i, None] * q[..., i, :]
    return acc, np.einsum("...i,...i->...", acc, acc)


def _finish(acc, n2, what: str):
    if np.any(n2 < COLLAPSE_EPS):
        raise InterpolationCollapseError(
            f"{what} collapsed: the weighted sum of the inputs has zero length "
            "(poses stored as q and -q cancel)"
        )
    return acc / np.sqrt(n2)[..., None]


def blend(quats, weights, reference=None) -> np.ndarray:
    """Blend N poses with the multi-way hemisphere rule, (w, x, y, z).

    Parameters
    ----------
    quats : array_like, shape (..., N, 4)
        Poses, normalized here; zero, NaN or infinite ones raise.
    weights : array_like, shape (..., N)
        Non-negative, not all zero; only their ratios matter.
    reference : None, int or array_like of shape (..., 4)
        ``None``: the first input with positive weight. An int: that input,
        or, if its weight is zero, the next by :func:`choose_reference`.
        A quaternion: that quaternion itself (it need not be an input).

    Returns
    -------
    ndarray, shape (..., 4)
        Unit quaternion, in the hemisphere of the reference.

    Raises
    ------
    ValueError
        For invalid input; the message names the argument.
    InterpolationCollapseError
        When the aligned sum has (near) zero length. With an input as the
        reference this cannot happen: its own term keeps ``dot >= w_ref``.

    Examples
    --------
    >>> from quatlab.math import quaternion as Q
    >>> q20 = Q.from_axis_angle([0, 0, 1], np.radians(20))
    >>> q = blend([Q.IDENTITY, -q20], [0.5, 0.5])     # the sign of -q20 is ignored
    >>> round(float(np.degrees(Q.angle_between(Q.IDENTITY, q))), 9)
    10.0
    """
    q, w = _validate(quats, weights)
    ref = _reference_quaternion(q, w, reference)
    acc, n2 = _accumulate(_align(q, ref), w)
    return _finish(acc, n2, "blend")


def naive_weighted_sum(quats, weights) -> np.ndarray:
    """Normalized weighted sum of the stored components, no sign handling (w, x, y, z).

    Examples
    --------
    >>> from quatlab.math import quaternion as Q
    >>> q20 = Q.from_axis_angle([0, 0, 1], np.radians(20))
    >>> q = naive_weighted_sum([Q.IDENTITY, -q20], [0.5, 0.5])   # the long way
    >>> round(float(np.degrees(Q.angle_between(Q.IDENTITY, q))), 9)
    170.0
    """
    q, w = _validate(quats, weights)
    acc, n2 = _accumulate(q, w)
    return _finish(acc, n2, "naive weighted sum")


def align_to_first(quats, weights) -> np.ndarray:
    """Blend after aligning every input with ``quats[..., 0, :]``, whatever its weight.

    The common shortcut that ``docs/interpolation.md`` ("Multi-way blending")
    warns against: the answer depends on the
    order in which the poses are listed.

    Examples
    --------
    >>> from quatlab.math import quaternion as Q
    >>> q20 = Q.from_axis_angle([0, 0, 1], np.radians(20))
    >>> np.allclose(align_to_first([Q.IDENTITY, -q20], [0.5, 0.5]),
    ...             blend([Q.IDENTITY, -q20], [0.5, 0.5]))
    True
    """
    q, w = _validate(quats, weights)
    acc, n2 = _accumulate(_align(q, q[..., 0, :]), w)
    return _finish(acc, n2, "align-to-first blend")


# --------------------------------------------------------------------------- sweeps


def weights_path(waypoints, samples: int) -> np.ndarray:
    """Piecewise-linear weights ``(samples, N)`` through ``waypoints`` ``(P, N)``.

    The waypoints are equally spaced in the sweep parameter, which runs
    over ``np.linspace(0, P - 1, samples)``.

    Examples
    --------
    >>> weights_path([[1, 0], [0, 1]], 3)
    array([[1. , 0. ],
           [0.5, 0.5],
           [0. , 1. ]])
    """
    try:
        p = np.asarray(waypoints, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"waypoints must be numeric, got {waypoints!r}") from exc
    if p.ndim != 2 or p.shape[0] < 2 or p.shape[1] < 1:
        raise ValueError(f"waypoints must have shape (P, N) with P >= 2, got shape {p.shape}")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError("waypoints must be finite and non-negative")
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 2:
        raise ValueError(f"samples must be an integer of at least 2, got {samples!r}")
    s = np.linspace(0.0, p.shape[0] - 1, int(samples))
    k = np.minimum(s.astype(int), p.shape[0] - 2)
    f = (s - k)[:, None]
    return (1 - f) * p[k] + f * p[k + 1]


@dataclass(frozen=True)
class BlendSweep:
    """The three blends along a sweep of weights, with the kept reference.

    ``weights`` ``(M, N)``; ``reference`` ``(M,)`` the input index used at each
    sample; ``blend``, ``naive`` and ``align_first`` ``(M, 4)`` (w, x, y, z),
    NaN where a sum collapsed. ``*_angle`` ``(M,)`` are
    :func:`quatlab.math.curves.path_angle` from ``quats[0]`` (radians, in
    [0, 2 pi]: sign-aware, so a flip of hemisphere shows). ``switches`` are the
    sample indices where the reference changed.
    """

    weights: np.ndarray
    reference: np.ndarray
    blend: np.ndarray
    naive: np.ndarray
    align_first: np.ndarray
    blend_angle: np.ndarray
    naive_angle: np.ndarray
    align_first_angle: np.ndarray
    notes: tuple[str, ...] = field(default=())

    @property
    def switches(self) -> np.ndarray:
        return np.flatnonzero(np.diff(self.reference)) + 1


def _or_nan(acc, n2):
    with np.errstate(invalid="ignore", divide="ignore"):
        out = acc / np.sqrt(n2)[..., None]
    out[n2 < COLLAPSE_EPS] = np.nan
    return out


def blend_sweep(quats, weights, reference=None) -> BlendSweep:
    """Evaluate the blends along a sequence of weights ``(M, N)`` for fixed poses ``(N, 4)``.

    The reference starts as ``reference`` (``None``: the first input with
    positive weight) and is carried from sample to sample through
    :func:`choose_reference`, as an animation graph keeps it between
    evaluations. Collapsed sums are NaN (listed in ``notes``), not errors, so
    a plot shows a gap.

    Examples
    --------
    >>> from quatlab.math import quaternion as Q
    >>> p = PRESETS["reference_switch"]
    >>> poses = Q.from_axis_angle(p["axes"], np.radians(p["angles_deg"]))
    >>> sweep = blend_sweep(poses, weights_path(p["sweep"], 5), reference=0)
    >>> sweep.reference.tolist(), sweep.switches.tolist()
    ([0, 0, 1, 1, 1], [2])
    >>> np.round(np.degrees(sweep.blend_angle), 1).tolist()
    [0.0, 0.0, 180.0, 120.0, 81.8]
    """
    poses = as_quaternion(quats, "quats")
    if poses.ndim != 2:
        raise ValueError(f"quats must have shape (N, 4), got shape {poses.shape}")
    if np.ndim(weights) != 2:
        raise ValueError(
            f"weights must have shape (M, {poses.shape[0]}), got shape {np.shape(weights)}"
        )
    q, w = _validate(poses, weights)
    refs = np.empty(w.shape[0], dtype=int)
    if reference is not None:
        _as_index(reference, poses.shape[0], "reference")
    positive = w > 0   # each row has one (_validate)
    # choose_reference's rule, sample after sample, on plain lists: called per
    # sample (its checks and array work for one row of N) it took 10 ms of a
    # blending preset change for 400 samples.
    current, n = reference, w.shape[-1]
    for m, row in enumerate(positive.tolist()):
        if current is None or not row[current]:
            start = 0 if current is None else current
            current = next((start + k) % n for k in range(n) if row[(start + k) % n])
        refs[m] = current
    results = {}
    notes = []
    for name, ref in (
        ("blend", poses[refs]),
        ("naive", None),
        ("align_first", poses[0]),
    ):
        aligned = q if ref is None else _align(q, ref)
        acc, n2 = _accumulate(aligned, w)
        results[name] = _or_nan(acc, n2)
        if np.any(n2 < COLLAPSE_EPS):
            notes.append(f"{name}: the weighted sum collapses to zero length at samples "
                         f"{np.flatnonzero(n2 < COLLAPSE_EPS)[:5].tolist()}")
    first = poses[0]
    return BlendSweep(
        weights=w,
        reference=refs,
        blend=results["blend"],
        naive=results["naive"],
        align_first=results["align_first"],
        blend_angle=path_angle(first, results["blend"]),
        naive_angle=path_angle(first, results["naive"]),
        align_first_angle=path_angle(first, results["align_first"]),
        notes=tuple(notes),
    )


#: Most poses :func:`reachable` takes: it tries every sign of every pose (2 ** N).
REACHABLE_MAX_POSES = 8


def reachable(quats, firsts=(0,), levels: int = 5) -> dict[str, np.ndarray]:
    """Rotations each blend gives these poses, over every edit a student can make.

    The weights on a grid of ``levels`` values in [0, 1] per pose (not all
    zero), every pose stored as ``q`` or ``-q``, every pose with a positive
    weight as the kept reference, and for align-to-first each pose index in
    ``firsts`` listed first. For framing a view on where the results can
    go, not for exact bounds: between grid points a blend moves smoothly.

    Returns ``{"blend", "naive", "align_first"}`` to ``(K, 4)`` unit
    quaternions, one per distinct rotation (w >= 0, duplicates to 1e-3 dropped);
    collapsed sums give none.

    Examples
    --------
    >>> from quatlab.math import quaternion as Q
    >>> poses = Q.from_axis_angle([0, 0, 1], np.radians([0.0, 60.0]))
    >>> r = reachable(poses, levels=3)
    >>> sorted(np.round(np.degrees(2 * np.arctan2(r["blend"][:, 3], r["blend"][:, 0]))).tolist())
    [0.0, 20.0, 30.0, 40.0, 60.0]
    """
    poses = as_quaternion(quats, "quats")
    if poses.ndim != 2 or not 1 <= poses.shape[0] <= REACHABLE_MAX_POSES:
        raise ValueError(f"quats must have shape (N, 4) with 1 <= N <= {REACHABLE_MAX_POSES}, "
                         f"got shape {poses.shape}")
    n = poses.shape[0]
    if isinstance(levels, bool) or not isinstance(levels, (int, np.integer)) or levels < 2:
        raise ValueError(f"levels must be an integer of at least 2, got {levels!r}")
    firsts = [_as_index(f, n, "firsts") for f in firsts]
    axis = np.linspace(0.0, 1.0, int(levels))
    w = np.array(list(product(axis, repeat=n)))
    w = w[w.sum(axis=1) > 0]                                  # (M, N)
    signs = np.array(list(product((1.0, -1.0), repeat=n)))    # (S, N)
    q = signs[:, None, :, None] * poses[None, None]           # (S, 1, N, 4)

    def results(ref, rows):
        aligned = q if ref is None else _align(q, ref)
        acc, n2 = _accumulate(np.broadcast_to(aligned, (len(signs), int(rows.sum()), n, 4)),
                              w[rows])
        return _or_nan(acc, n2).reshape(-1, 4)

    every = np.ones(len(w), dtype=bool)
    kept = [results(q[:, :, r], w[:, r] > 0) for r in range(n)]
    out = {"blend": np.vstack(kept), "naive": results(None, every),
           "align_first": np.vstack([results(q[:, :, f], every) for f in firsts])}
    return {k: _distinct_rotations(v) for k, v in out.items()}


def _distinct_rotations(q: np.ndarray) -> np.ndarray:
    """Finite rows of ``q`` in the w >= 0 hemisphere, one per rotation (to 1e-3)."""
    q = q[np.all(np.isfinite(q), axis=-1)]
    # Sign fixed by the first component that is clearly not zero, so q and -q meet.
    lead = np.take_along_axis(q, np.argmax(np.abs(q) > 1e-9, axis=-1)[:, None], axis=-1)
    q = np.where(lead < 0, -q, q)
    _keys, first = np.unique(np.round(q, 3), axis=0, return_index=True)
    return q[np.sort(first)]
