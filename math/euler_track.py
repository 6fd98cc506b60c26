"""Audit and filter of Euler angle tracks: wraps, other-triple flips, gimbal lock, sign flips.

An Euler track is an array of angle triples of shape ``(F, 3)`` in
**degrees**, one triple per frame, with an order string in scipy's
convention (``"ZXY"`` uppercase: intrinsic, ``R = Rz Rx Ry`` on column
vectors; ``"zxy"`` lowercase: extrinsic). BVH's ``Zrotation Xrotation
Yrotation`` is ``"ZXY"`` (see ``docs/formats.md``). Quaternions are
**(w, x, y, z)**, scalar first, as everywhere in :mod:`quatlab.math`.

Every rotation has two Euler triples (away from gimbal lock):

* Tait-Bryan orders (three different axes): ``(a, b, c)`` and
  ``(a + 180, 180 - b, c + 180)``;
* proper Euler orders (first axis = last axis): ``(a, b, c)`` and
  ``(a + 180, -b, c + 180)``;

and each angle is only defined modulo 360. A runtime that interpolates each
channel on its own (per-channel lerp) sees neither fact: it turns the long
way across a +-180 wrap and swings through unrelated poses when an exporter
switches triples. :func:`audit_euler` finds these frames and
:func:`euler_filter` removes them the way Maya's Euler filter does.

Examples
--------
>>> import numpy as np
>>> from quatlab.math import euler_track as E
>>> track = np.array([[0.0, 0, 178], [0, 0, 179], [0, 0, -179], [0, 0, -178]])
>>> [(f.kind, f.frame, f.channel) for f in E.audit_euler(track, "ZXY")]
[('wrap', 2, 2), ('sign_flip', 2, None)]
>>> E.euler_filter(track, "ZXY")[:, 2]
array([178., 179., 181., 182.])
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from quatlab.math import quaternion as Q
from quatlab.math.marks import N_

__all__ = [
    "EulerFinding",
    "is_proper",
    "other_triple",
    "to_quaternions",
    "audit_euler",
    "euler_filter",
    "continuous_quaternions",
    "beyond_half_turn",
]

_AXES = "xyz"


@dataclass(frozen=True)
class EulerFinding:
    """One finding of :func:`audit_euler`.

    ``kind`` is ``"wrap"``, ``"flip"``, ``"gimbal"``, ``"sign_flip"`` or (from
    :func:`beyond_half_turn`) ``"range"``.
    ``frame`` is the frame the problem lands on: for the kinds that compare
    neighbours (all but ``"gimbal"``) it is the later frame of the pair
    ``(frame - 1, frame)``. ``channel`` is 0, 1 or 2 (position in the
    triple) or None when the whole triple is meant. ``values`` are the
    angles involved in degrees (for ``"sign_flip"``: the dot product).
    ``message`` is English; ``template`` and ``params`` make it again, so the
    app can show it translated (docs/architecture.md, "Translations").
    """

    kind: str
    frame: int
    channel: int | None
    values: tuple[float, ...]
    message: str
    template: str = ""
    params: dict = field(default_factory=dict, compare=False)


def _finding(kind: str, frame: int, where, values, template: str, **params) -> EulerFinding:
    """``where`` is the finding's channel (or None); ``params`` fill ``template``."""
    return EulerFinding(kind, frame, where, values, template.format(**params), template, params)


def _check_order(order: str) -> str:
    if (
        not isinstance(order, str)
        or len(order) != 3
        or not (order.isupper() or order.islower())
        or any(ch not in _AXES for ch in order.lower())
        or order[0].lower() == order[1].lower()
        or order[1].lower() == order[2].lower()
    ):
        raise ValueError(
            f"order must be 3 axis letters like 'ZXY' (intrinsic) or 'zxy' (extrinsic), "
            f"no axis twice in a row, got {order!r}"
        )
    return order


def is_proper(order: str) -> bool:
    """True for proper Euler orders (``"ZXZ"``), whose first and last axes agree.

    Examples
    --------
    >>> is_proper("ZXZ"), is_proper("ZXY")
    (True, False)
    """
    order = _check_order(order)
    return order[0].lower() == order[2].lower()


def _as_track(angles) -> np.ndarray:
    arr = np.asarray(angles, dtype=np.float64)
    if arr.ndim < 2 or arr.shape[-1] != 3:
        raise ValueError(f"angles must have shape (..., F, 3) in degrees, got {arr.shape}")
    return arr


def _wrap180(d: np.ndarray) -> np.ndarray:
    """``d`` reduced to [-180, 180): the shortest signed change of an angle."""
    return d - 360.0 * np.floor((d + 180.0) / 360.0)


def other_triple(angles, order: str) -> np.ndarray:
    """The other Euler triple of the same rotations, degrees, shape ``(..., 3)``.

    ``(a + 180, 180 - b, c + 180)`` for Tait-Bryan orders and
    ``(a + 180, -b, c + 180)`` for proper Euler orders, not reduced mod 360.

    Examples
    --------
    >>> other_triple([10.0, 20.0, 30.0], "ZXY")
    array([190., 160., 210.])
    >>> other_triple([10.0, 20.0, 30.0], "ZXZ")
    array([190., -20., 210.])
    """
    a = np.asarray(angles, dtype=np.float64)
    out = np.empty_like(a)
    out[..., 0] = a[..., 0] + 180.0
    out[..., 1] = -a[..., 1] if is_proper(order) else 180.0 - a[..., 1]
    out[..., 2] = a[..., 2] + 180.0
    return out


def to_quaternions(angles, order: str) -> np.ndarray:
    """Unit quaternions (w, x, y, z), ``(..., 4)``, of Euler triples in degrees.

    A thin wrapper of :func:`quatlab.math.quaternion.from_euler` (radians).

    Examples
    --------
    >>> np.round(to_quaternions([0.0, 0.0, 90.0], "ZXY"), 6) + 0.0   # 90 deg about Y
    array([0.707107, 0.      , 0.707107, 0.      ])
    """
    _check_order(order)
    return Q.from_euler(np.radians(np.asarray(angles, dtype=np.float64)), order)


def _rotation_angle_deg(q0: np.ndarray, q1: np.ndarray) -> np.ndarray:
    """Angle in degrees of the rotation taking q0 to q1 (unit (w, x, y, z)), either sign."""
    d = np.abs(np.einsum("...i,...i->...", q0, q1))
    return np.degrees(2.0 * np.arccos(np.clip(d, 0.0, 1.0)))


def audit_euler(
    angles,
    order: str,
    *,
    channel_names=None,
    gimbal_tol_deg: float = 5.0,
    flip_min_deg: float = 90.0,
    flip_max_turn_deg: float = 45.0,
) -> list[EulerFinding]:
    """Findings of an Euler track ``(F, 3)`` in degrees, in frame order.

    * ``wrap``: a channel changes by more than 180 degrees between frames; a
      per-channel lerp turns the long way (360 minus the short change).
    * ``flip``: the triple jumps (some channel by more than ``flip_min_deg``
      after taking wraps into account) while the rotation itself turns less
      than ``flip_max_turn_deg`` and the other triple of the frame is closer
      to the previous frame: the exporter switched triples (or, near gimbal
      lock, slid along the lock); a per-channel lerp swings through poses
      that are in neither key.
    * ``gimbal``: the middle angle is within ``gimbal_tol_deg`` of +-90
      (Tait-Bryan) or of 0/180 (proper Euler): first and third axes nearly
      coincide, so small pose changes need large channel changes.
    * ``sign_flip``: consecutive quaternions (w, x, y, z) converted from the
      triples have a negative dot product; a runtime that lerps their
      components without a hemisphere check turns the long way.

    ``channel_names`` (three strings) name the channels in messages.

    Examples
    --------
    >>> track = np.array([[10.0, 20.0, 30.0], [190.0, 160.0, 210.0]])   # same rotation twice
    >>> [f.kind for f in audit_euler(track, "ZXY")]
    ['flip', 'sign_flip']
    >>> audit_euler([[0.0, 89.0, 0.0]], "ZXY")[0].kind
    'gimbal'
    """
    a = _as_track(angles)
    if a.ndim != 2:
        raise ValueError(f"angles must have shape (F, 3), got {a.shape}")
    proper = is_proper(order)
    if channel_names is None:
        names = [f"{ax.upper()} angle" for ax in order]
    else:
        names = [str(n) for n in channel_names]
        if len(names) != 3:
            raise ValueError("channel_names must name the 3 channels")
    findings: list[EulerFinding] = []
    if not np.all(np.isfinite(a)):
        raise ValueError("angles contain NaN or infinity")

    q = to_quaternions(a, order)
    raw = np.diff(a, axis=0)                     # (F-1, 3) change as stored
    short = _wrap180(raw)                        # the change modulo 360
    alt = other_triple(a[1:], order)
    alt_short = _wrap180(alt - a[:-1])
    turn = _rotation_angle_deg(q[:-1], q[1:])
    dots = np.einsum("ij,ij->i", q[:-1], q[1:])

    wrap = np.abs(raw) > 180.0
    jump = np.max(np.abs(short), axis=1)
    flip = (
        (jump > flip_min_deg)
        & (turn < flip_max_turn_deg)
        & (np.max(np.abs(alt_short), axis=1) < jump)
    )
    mid = a[:, 1]
    if proper:
        m = np.abs(_wrap180(mid))                # distance of b from 0 is |b|, from 180 is 180-|b|
        near = np.minimum(m, 180.0 - m) <= gimbal_tol_deg
    else:
        near = np.abs(np.abs(_wrap180(mid)) - 90.0) <= gimbal_tol_deg
    sign = dots < 0.0

    events: list[tuple[int, int, EulerFinding]] = []
    for i, ch in zip(*np.nonzero(wrap), strict=True):
        i, ch = int(i), int(ch)
        v0, v1 = float(a[i, ch]), float(a[i + 1, ch])
        d_short = abs(float(short[i, ch]))
        events.append((i + 1, 0, _finding(
            "wrap", i + 1, ch, (v0, v1),
            N_("{channel} goes from {v0:.6g} to {v1:.6g} deg between frames {i} and {j}: a "
               "per-channel lerp runtime turns {long:.6g} deg the long way instead of "
               "{short:.6g} deg"),
            channel=names[ch], v0=v0, v1=v1, i=i, j=i + 1, long=abs(v1 - v0), short=d_short,
        )))
    for i in np.flatnonzero(flip):
        i = int(i)
        t0 = tuple(float(x) for x in a[i])
        t1 = tuple(float(x) for x in a[i + 1])
        events.append((i + 1, 1, _finding(
            "flip", i + 1, None, t0 + t1,
            N_("the Euler triple jumps between frames {i} and {j} ({before} -> {after} deg, a "
               "channel moves {jump:.4g} deg) while the rotation turns only {turn:.3g} deg; "
               "the frame's other triple is within {other:.4g} deg of the previous one: a "
               "per-channel lerp runtime swings through poses that are in neither key"),
            i=i, j=i + 1, before=_fmt(t0), after=_fmt(t1), jump=float(jump[i]),
            turn=float(turn[i]), other=float(np.max(np.abs(alt_short[i]))),
        )))
    for i in np.flatnonzero(near):
        i = int(i)
        b = float(a[i, 1])
        events.append((i, 2, _finding(
            "gimbal", i, 1, (b,),
            N_("frame {i}: {middle} is {angle:.6g} deg, within {tol:g} deg of 0 or 180 (gimbal "
               "lock): the first and third axes nearly coincide, so a per-channel lerp runtime "
               "needs large changes of {first} and {third} for small turns") if proper else
            N_("frame {i}: {middle} is {angle:.6g} deg, within {tol:g} deg of +-90 (gimbal "
               "lock): the first and third axes nearly coincide, so a per-channel lerp runtime "
               "needs large changes of {first} and {third} for small turns"),
            i=i, middle=names[1], angle=b, tol=gimbal_tol_deg, first=names[0], third=names[2],
        )))
    for i in np.flatnonzero(sign):
        i = int(i)
        d = float(dots[i])
        events.append((i + 1, 3, _finding(
            "sign_flip", i + 1, None, (d,),
            N_("the quaternions (w, x, y, z) converted from frames {i} and {j} have dot "
               "{dot:.4g} < 0: a runtime that lerps their components without a hemisphere "
               "check turns {long:.4g} deg the long way instead of {short:.4g} deg"),
            i=i, j=i + 1, dot=d, long=360.0 - float(turn[i]), short=float(turn[i]),
        )))
    events.sort(key=lambda e: (e[0], e[1], e[2].channel if e[2].channel is not None else -1))
    findings.extend(e[2] for e in events)
    return findings


def _fmt(t: tuple[float, ...]) -> str:
    return "(" + ", ".join(f"{x:.6g}" for x in t) + ")"


def euler_filter(angles, order: str) -> np.ndarray:
    """Euler track ``(..., F, 3)`` in degrees without wraps or triple switches.

    Frame 0 is kept. For each later frame the triple or its
    :func:`other_triple`, each channel moved by whole turns of 360 degrees,
    is chosen to be closest (sum of absolute channel changes) to the
    previous filtered frame, as Maya's Euler filter does. The rotations are
    unchanged (up to rounding of ``x + 180`` and ``x + 360 k``): every
    output triple is one of the two triples of the input rotation.

    Leading dimensions are independent tracks (e.g. joints).

    Examples
    --------
    >>> euler_filter([[0.0, 0, 179], [0, 0, -179]], "ZXY")
    array([[  0.,   0., 179.],
           [  0.,   0., 181.]])
    >>> euler_filter([[10.0, 20, 30], [190, 160, 210]], "ZXY")
    array([[10., 20., 30.],
           [10., 20., 30.]])
    """
    a = _as_track(angles)
    is_proper(order)
    if not np.all(np.isfinite(a)):
        raise ValueError("angles contain NaN or infinity")
    n = a.shape[-2]
    if n < 2:
        return a.copy()
    # cand[..., f, s, :]: s = 0 the stored triple, s = 1 the other one.
    cand = np.stack([a, other_triple(a, order)], axis=-2)
    prev = cand[..., :-1, :, None, :]            # (..., F-1, p, 1, 3)
    cur = cand[..., 1:, None, :, :]              # (..., F-1, 1, s, 3)
    d = cur - prev                               # (..., F-1, p, s, 3)
    k = np.round(d / 360.0)                      # whole turns to remove
    cost = np.abs(d - 360.0 * k).sum(axis=-1)    # (..., F-1, p, s)
    # Prefer the stored triple unless the other one is clearly closer:
    # at gimbal lock both can be equally close, and then nothing should move.
    best = np.where(cost[..., 1] < cost[..., 0] - 1e-9, 1, 0)   # (..., F-1, p)

    # The choice at frame f depends only on the choice at f - 1: a two-state
    # scan, vectorized over the leading (track) dimensions.
    lead = a.shape[:-2]
    state = np.zeros(lead + (n,), dtype=np.intp)
    best_flat = best.reshape((-1, n - 1, 2))
    state_flat = state.reshape((-1, n))
    rows = np.arange(best_flat.shape[0])
    for f in range(1, n):
        state_flat[:, f] = best_flat[rows, f - 1, state_flat[:, f - 1]]
    state = state_flat.reshape(lead + (n,))

    p = state[..., :-1, None, None, None]
    s = state[..., 1:, None, None, None]
    k_sel = np.take_along_axis(np.take_along_axis(k, p, axis=-3), s, axis=-2)[..., 0, 0, :]
    # Whole turns accumulate exactly as integers; one add per value at the end.
    turns = np.concatenate(
        [np.zeros(lead + (1, 3)), -np.cumsum(k_sel, axis=-2)], axis=-2
    )
    chosen = np.take_along_axis(cand, state[..., None, None], axis=-2)[..., 0, :]
    return chosen + 360.0 * turns


def continuous_quaternions(q) -> np.ndarray:
    """Sign-continuous copy of quaternion tracks ``(F, J, 4)``, (w, x, y, z).

    Along the frame axis (0), each key is negated when needed so that its
    dot product with the previous (already fixed) key is >= 0; frame 0 is
    kept. The rotations are unchanged (q and -q are the same rotation).

    Examples
    --------
    >>> q = np.array([[[1.0, 0, 0, 0]], [[-1.0, 0, 0, 0]], [[-0.6, 0.8, 0, 0]]])
    >>> continuous_quaternions(q)[:, 0, 0]
    array([1. , 1. , 0.6])
    """
    arr = np.asarray(q, dtype=np.float64)
    if arr.ndim != 3 or arr.shape[-1] != 4:
        raise ValueError(f"q must have shape (F, J, 4) in (w, x, y, z) order, got {arr.shape}")
    if arr.shape[0] < 2:
        return arr.copy()
    d = np.einsum("fji,fji->fj", arr[1:], arr[:-1])
    flips = np.concatenate([np.zeros((1,) + d.shape[1:], dtype=bool), d < 0.0])
    # A key is negated when an odd number of sign changes precede it.
    odd = (np.cumsum(flips, axis=0) % 2).astype(bool)
    return np.where(odd[..., None], -arr, arr)


def beyond_half_turn(angles, *, channel_names=None) -> list[EulerFinding]:
    """Runs of frames where a channel of an Euler track ``(F, 3)`` lies outside [-180, 180] deg.

    Such a curve is legal (an animation curve may turn any number of times),
    but a tool that clamps or re-exports the angle into [-180, 180] puts a
    jump of 360 deg into it at the first frame outside, which a per-channel
    player then spins through. One ``"range"`` finding per channel and run:
    ``frame`` is the first frame of the run, ``values`` its last frame and
    the largest ``|angle|``. ``channel_names`` name the channels in messages.

    Examples
    --------
    >>> track = np.array([[0.0, 0, 170], [0, 0, 190], [0, 0, 200], [0, 0, 150]])
    >>> [(f.kind, f.frame, f.channel, f.values) for f in beyond_half_turn(track)]
    [('range', 1, 2, (2, 200.0))]
    """
    a = _as_track(angles)
    if a.ndim != 2:
        raise ValueError(f"angles must have shape (F, 3), got {a.shape}")
    names = ([f"angle {i}" for i in range(3)] if channel_names is None
             else [str(n) for n in channel_names])
    out = []
    for ch in range(3):
        outside = np.abs(a[:, ch]) > 180.0
        if not outside.any():
            continue
        edges = np.diff(np.concatenate([[0], outside.astype(np.int8), [0]]))
        for first, end in zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1),
                              strict=True):
            first, last = int(first), int(end) - 1
            peak = float(np.max(np.abs(a[first:last + 1, ch])))
            out.append(_finding(
                "range", first, ch, (last, peak),
                N_("{channel} lies outside [-180, 180] deg from frame {first} to frame {last} (up "
                   "to {peak:.6g} deg): a tool that clamps or re-exports the angle into that "
                   "range puts a 360 deg jump at frame {first}, and a per-channel player spins "
                   "through it"),
                channel=names[ch], first=first, last=last, peak=peak))
    out.sort(key=lambda f: (f.frame, f.channel))
    return out
