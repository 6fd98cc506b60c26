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
    "audit_euler_capped",
    "EULER_KINDS",
    "BLOCK",
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


#: Frames handled at once by :func:`audit_euler` and :func:`euler_filter`: their
#: temporaries (a dozen arrays per frame) stay a few megabytes however long the
#: track, so a capture of millions of frames costs its own size, not ten times it.
BLOCK = 1 << 14


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
    :func:`audit_euler_capped` gives the first findings of a long track and
    counts the rest.

    Examples
    --------
    >>> track = np.array([[10.0, 20.0, 30.0], [190.0, 160.0, 210.0]])   # same rotation twice
    >>> [f.kind for f in audit_euler(track, "ZXY")]
    ['flip', 'sign_flip']
    >>> audit_euler([[0.0, 89.0, 0.0]], "ZXY")[0].kind
    'gimbal'
    """
    return audit_euler_capped(angles, order, None, channel_names=channel_names,
                              gimbal_tol_deg=gimbal_tol_deg, flip_min_deg=flip_min_deg,
                              flip_max_turn_deg=flip_max_turn_deg)[0]


#: Kinds in the order :func:`audit_euler` lists findings of the same frame.
EULER_KINDS = ("wrap", "flip", "gimbal", "sign_flip")


def audit_euler_capped(
    angles,
    order: str,
    limit: int | None,
    *,
    channel_names=None,
    gimbal_tol_deg: float = 5.0,
    flip_min_deg: float = 90.0,
    flip_max_turn_deg: float = 45.0,
    block: int = BLOCK,
    kinds: tuple[str, ...] = EULER_KINDS,
) -> tuple[list[EulerFinding], dict[str, int], tuple[int, int] | None]:
    """The first ``limit`` findings of :func:`audit_euler` of ``kinds``, and what is left out.

    Returns ``(findings, omitted, frames)``: the findings (all of them when
    ``limit`` is None), the number of findings left out per kind (kinds
    with none left out are absent), and the first and last frame of those
    (None when none is left out). The track is audited ``block`` frames at a
    time and messages are written only for the findings returned, so memory
    stays bounded by ``block`` and ``limit``, not by the track.

    Examples
    --------
    >>> track = np.array([[0.0, 0, 179], [0, 0, -179]] * 3)
    >>> found, omitted, frames = audit_euler_capped(track, "ZXY", 2)
    >>> [(f.kind, f.frame) for f in found], omitted, frames
    ([('wrap', 1), ('sign_flip', 1)], {'wrap': 4, 'sign_flip': 4}, (2, 5))
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
    if not np.all(np.isfinite(a)):
        raise ValueError("angles contain NaN or infinity")
    wanted = [EULER_KINDS.index(k) for k in kinds]
    options = (names, proper, gimbal_tol_deg, flip_min_deg, flip_max_turn_deg, wanted)
    findings: list[EulerFinding] = []
    omitted = dict.fromkeys(EULER_KINDS, 0)
    first = last = None
    for start in range(0, len(a), block):
        stop = min(start + block, len(a))
        room = None if limit is None else max(limit - len(findings), 0)
        found, left, span = _audit_block(a, start, stop, order, options, room)
        findings += found
        for kind, n in left.items():
            omitted[kind] += n
        if span is not None:
            first = span[0] if first is None else first
            last = span[1]
    omitted = {k: n for k, n in omitted.items() if n}
    return findings, omitted, (None if first is None else (first, last))


def _audit_block(a: np.ndarray, start: int, stop: int, order: str, options, room):
    """Findings landing on frames ``start`` to ``stop - 1`` (pairs reach back one frame)."""
    names, proper, gimbal_tol_deg, flip_min_deg, flip_max_turn_deg, wanted = options
    p0 = max(start - 1, 0)
    sub = a[p0:stop]
    q = to_quaternions(sub, order)
    raw = np.diff(sub, axis=0)                   # (m-1, 3) change as stored
    short = _wrap180(raw)                        # the change modulo 360
    alt = other_triple(sub[1:], order)
    alt_short = _wrap180(alt - sub[:-1])
    turn = _rotation_angle_deg(q[:-1], q[1:])
    dots = np.einsum("ij,ij->i", q[:-1], q[1:])

    wrap = np.abs(raw) > 180.0
    jump = np.max(np.abs(short), axis=1) if len(short) else np.zeros(0)
    flip = (
        (jump > flip_min_deg)
        & (turn < flip_max_turn_deg)
        & (np.max(np.abs(alt_short), axis=1, initial=0.0) < jump)
    )
    mid = sub[start - p0:, 1]                    # the block's own frames
    if proper:
        m = np.abs(_wrap180(mid))                # distance of b from 0 is |b|, from 180 is 180-|b|
        near = np.minimum(m, 180.0 - m) <= gimbal_tol_deg
    else:
        near = np.abs(np.abs(_wrap180(mid)) - 90.0) <= gimbal_tol_deg
    sign = dots < 0.0

    # Every event as (frame, kind, channel, index into this block's arrays).
    wi, wc = np.nonzero(wrap)
    fi, ni, si = np.flatnonzero(flip), np.flatnonzero(near), np.flatnonzero(sign)
    frame = np.concatenate([p0 + 1 + wi, p0 + 1 + fi, start + ni, p0 + 1 + si])
    kind = np.concatenate([np.full(len(wi), 0), np.full(len(fi), 1), np.full(len(ni), 2),
                           np.full(len(si), 3)])
    chan = np.concatenate([wc, np.full(len(fi), -1), np.full(len(ni), 1), np.full(len(si), -1)])
    index = np.concatenate([wi, fi, ni, si])
    if len(wanted) < len(EULER_KINDS):
        keep = np.isin(kind, wanted)
        frame, kind, chan, index = frame[keep], kind[keep], chan[keep], index[keep]
    order_ = np.lexsort((chan, kind, frame))
    taken = order_ if room is None else order_[:room]
    rest = order_[len(taken):]
    left = {EULER_KINDS[k]: int(n) for k, n in enumerate(np.bincount(kind[rest], minlength=4))}
    span = (int(frame[rest].min()), int(frame[rest].max())) if len(rest) else None

    out = []
    for k, i, ch in zip(kind[taken].tolist(), index[taken].tolist(), chan[taken].tolist(),
                        strict=True):
        f = p0 + i + 1                           # the later frame of pair i
        if k == 0:
            v0, v1 = float(sub[i, ch]), float(sub[i + 1, ch])
            d_short = abs(float(short[i, ch]))
            out.append(_finding(
                "wrap", f, ch, (v0, v1),
                N_("{channel} goes from {v0:.6g} to {v1:.6g} deg between frames {i} and {j}: a "
                   "per-channel lerp runtime turns {long:.6g} deg the long way instead of "
                   "{short:.6g} deg"),
                channel=names[ch], v0=v0, v1=v1, i=f - 1, j=f, long=abs(v1 - v0),
                short=d_short,
            ))
        elif k == 1:
            t0 = tuple(float(x) for x in sub[i])
            t1 = tuple(float(x) for x in sub[i + 1])
            out.append(_finding(
                "flip", f, None, t0 + t1,
                N_("the Euler triple jumps between frames {i} and {j} ({before} -> {after} deg, "
                   "a channel moves {jump:.4g} deg) while the rotation turns only {turn:.3g} "
                   "deg; the frame's other triple is within {other:.4g} deg of the previous "
                   "one: a per-channel lerp runtime swings through poses that are in neither "
                   "key"),
                i=f - 1, j=f, before=_fmt(t0), after=_fmt(t1), jump=float(jump[i]),
                turn=float(turn[i]), other=float(np.max(np.abs(alt_short[i]))),
            ))
        elif k == 2:
            g = start + i                        # gimbal lands on the frame itself
            b = float(mid[i])
            out.append(_finding(
                "gimbal", g, 1, (b,),
                N_("frame {i}: {middle} is {angle:.6g} deg, within {tol:g} deg of 0 or 180 "
                   "(gimbal lock): the first and third axes nearly coincide, so a per-channel "
                   "lerp runtime needs large changes of {first} and {third} for small turns")
                if proper else
                N_("frame {i}: {middle} is {angle:.6g} deg, within {tol:g} deg of +-90 (gimbal "
                   "lock): the first and third axes nearly coincide, so a per-channel lerp "
                   "runtime needs large changes of {first} and {third} for small turns"),
                i=g, middle=names[1], angle=b, tol=gimbal_tol_deg, first=names[0],
                third=names[2],
            ))
        else:
            d = float(dots[i])
            out.append(_finding(
                "sign_flip", f, None, (d,),
                N_("the quaternions (w, x, y, z) converted from frames {i} and {j} have dot "
                   "{dot:.4g} < 0: a runtime that lerps their components without a hemisphere "
                   "check turns {long:.4g} deg the long way instead of {short:.4g} deg"),
                i=f - 1, j=f, dot=d, long=360.0 - float(turn[i]), short=float(turn[i]),
            ))
    return out, left, span


def _fmt(t: tuple[float, ...]) -> str:
    return "(" + ", ".join(f"{x:.6g}" for x in t) + ")"


def euler_filter(angles, order: str, *, block: int = BLOCK) -> np.ndarray:
    """Euler track ``(..., F, 3)`` in degrees without wraps or triple switches.

    Frame 0 is kept. For each later frame the triple or its
    :func:`other_triple`, each channel moved by whole turns of 360 degrees,
    is chosen to be closest (sum of absolute channel changes) to the
    previous filtered frame, as Maya's Euler filter does. The rotations are
    unchanged (up to rounding of ``x + 180`` and ``x + 360 k``): every
    output triple is one of the two triples of the input rotation.

    Leading dimensions are independent tracks (e.g. joints). The frames are
    filtered ``block`` at a time, each block carrying the previous one's
    last choice and whole turns, so the result does not depend on ``block``
    and the temporaries stay bounded by it.

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
    lead = a.shape[:-2]
    out = np.empty(a.shape)
    out[..., 0, :] = a[..., 0, :]
    state = np.zeros(lead, dtype=np.intp)        # frame 0 keeps its stored triple
    turns = np.zeros(lead + (3,))                # whole turns removed so far, as integers
    for start in range(1, n, block):
        stop = min(start + block, n)
        # cand[..., f, s, :]: s = 0 the stored triple, s = 1 the other one.
        seg = a[..., start - 1:stop, :]
        cand = np.stack([seg, other_triple(seg, order)], axis=-2)
        prev = cand[..., :-1, :, None, :]        # (..., m, p, 1, 3)
        cur = cand[..., 1:, None, :, :]          # (..., m, 1, s, 3)
        d = cur - prev                           # (..., m, p, s, 3)
        k = np.round(d / 360.0)                  # whole turns to remove
        cost = np.abs(d - 360.0 * k).sum(axis=-1)    # (..., m, p, s)
        # Prefer the stored triple unless the other one is clearly closer:
        # at gimbal lock both can be equally close, and then nothing should move.
        best = np.where(cost[..., 1] < cost[..., 0] - 1e-9, 1, 0)   # (..., m, p)
        states = _two_state_scan(best, state)    # (..., m): frames start .. stop-1
        p = np.concatenate([state[..., None], states[..., :-1]], axis=-1)
        k_sel = np.take_along_axis(
            np.take_along_axis(k, p[..., None, None, None], axis=-3),
            states[..., None, None, None], axis=-2)[..., 0, 0, :]
        # Whole turns accumulate exactly as integers; one add per value at the end.
        block_turns = turns[..., None, :] - np.cumsum(k_sel, axis=-2)
        chosen = np.take_along_axis(cand[..., 1:, :, :], states[..., None, None],
                                    axis=-2)[..., 0, :]
        out[..., start:stop, :] = chosen + 360.0 * block_turns
        state, turns = states[..., -1], block_turns[..., -1, :]
    return out


def _two_state_scan(best: np.ndarray, state0: np.ndarray) -> np.ndarray:
    """States ``s[f] = best[f, s[f - 1]]`` for every step ``f``, from ``s[-1] = state0``.

    ``best`` is ``(..., m, 2)`` of 0/1. A step whose two entries agree sets
    the state whatever it was; ``(0, 1)`` keeps it, ``(1, 0)`` swaps it. So
    each state is the last setting step's value (or ``state0``) XOR the
    parity of the swaps since: no loop over the frames.

    >>> _two_state_scan(np.array([[0, 1], [1, 0], [1, 1], [1, 0], [0, 1]]), np.array(0))
    array([0, 1, 1, 0, 0])
    """
    b0, b1 = best[..., 0], best[..., 1]
    sets = b0 == b1
    parity = np.cumsum((b0 == 1) & (b1 == 0), axis=-1) % 2
    m = best.shape[-2]
    last = np.maximum.accumulate(np.where(sets, np.arange(m), -1), axis=-1)
    at = np.maximum(last, 0)
    base = np.where(last >= 0, np.take_along_axis(b0, at, axis=-1), state0[..., None])
    since = parity - np.where(last >= 0, np.take_along_axis(parity, at, axis=-1), 0)
    return (base ^ (since % 2)).astype(np.intp)


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
