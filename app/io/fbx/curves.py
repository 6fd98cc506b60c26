"""FBX animation curves evaluated as ufbx evaluates them: keys, Bezier tangents, extrapolation.

A curve is an array of keys ``(k, 7)``: time, value, interpolation, left
tangent ``(dx, dy)``, right tangent ``(dx, dy)`` (the columns of
:attr:`quatlab.app.io.fbx.scene.FbxScene.keys`). Between two keys the
*earlier* key's interpolation decides (docs/formats.md, "FBX"):

* constant: the earlier key's value holds; constant_next: the later one's;
* linear: ``v0 (1 - u) + v1 u`` with ``u`` the fraction of the interval;
* cubic: a cubic Bezier through ``(t0, v0)``, ``(t0 + r.dx, v0 + r.dy)``,
  ``(t1 - l.dx, v1 - l.dy)``, ``(t1, v1)`` (``r``: the earlier key's right
  tangent, ``l``: the later key's left tangent), solved for the time by
  Newton's method.

Before the first key and after the last, the curve's extrapolation mode
applies (constant, repeat, mirror, slope, repeat_relative, with a repeat
count), computed in KTime ticks as ufbx does. Everything is vectorized over
the times.

Examples
--------
>>> import numpy as np
>>> keys = np.array([[0.0, 0.0, 2, 0, 0, 0, 0], [1.0, 10.0, 2, 0, 0, 0, 0]])  # linear 0 -> 10
>>> evaluate_curve(keys, [0.0, 0.25, 1.0, 2.0]).tolist()
[0.0, 2.5, 10.0, 10.0]
>>> keys[0, 2] = 0                                                            # constant
>>> evaluate_curve(keys, [0.5, 1.0]).tolist()
[0.0, 10.0]
"""

from __future__ import annotations

import numpy as np

__all__ = ["evaluate_curve", "KTIME_SECOND"]

#: FBX time ticks per second (FBX 7.x files; the file's own value is passed when known).
KTIME_SECOND = 46186158000

_CONSTANT, _CONSTANT_NEXT, _LINEAR, _CUBIC = range(4)
_EX_CONSTANT, _EX_REPEAT, _EX_MIRROR, _EX_SLOPE, _EX_REPEAT_RELATIVE = range(5)
# ufbx stops Newton's method once the residual is within 4 ulp of 1.
_NEWTON_EPS = 8.881784197001252e-16


def evaluate_curve(keys, times, *, default: float = 0.0, extrapolation=(0, -1, 0, -1),
                   ktime_second: int = KTIME_SECOND) -> np.ndarray:
    """Values of one curve at ``times`` ``(T,)`` (module docs).

    ``extrapolation`` is ``(pre mode, pre repeat count, post mode, post
    repeat count)`` (-1: no limit); ``default`` is the value of a curve
    without keys.
    """
    keys = np.asarray(keys, dtype=np.float64).reshape(-1, 7)
    times = np.asarray(times, dtype=np.float64).reshape(-1)
    if len(keys) == 0:
        return np.full(times.shape, float(default))
    if len(keys) == 1:
        return np.full(times.shape, keys[0, 1])
    out = _inside(keys, times)
    lo, hi = keys[0, 0], keys[-1, 0]
    for pre, mask in ((True, times < lo), (False, times > hi)):
        if mask.any():
            mode, count = (extrapolation[0], extrapolation[1]) if pre else extrapolation[2:4]
            out[mask] = _extrapolate(keys, times[mask], pre, int(mode), int(count), ktime_second)
    return out


def _inside(keys: np.ndarray, times: np.ndarray) -> np.ndarray:
    """Values with the curve clamped to its keys (ufbx's evaluation without extrapolation)."""
    kt, kv = keys[:, 0], keys[:, 1]
    nxt = np.searchsorted(kt, times, side="right")   # first key later than the time
    out = np.empty(times.shape)
    before = nxt == 0
    after = nxt >= len(keys)
    out[before] = kv[0]
    out[after] = kv[-1]
    mid = ~(before | after)
    if not mid.any():
        return out
    i1 = nxt[mid]
    i0 = i1 - 1
    t = times[mid]
    t0, t1, v0, v1 = kt[i0], kt[i1], kv[i0], kv[i1]
    with np.errstate(divide="ignore", invalid="ignore"):
        rcp = 1.0 / (t1 - t0)
        u = (t - t0) * rcp
    mode = keys[i0, 2].astype(np.int64)
    val = np.where(mode == _CONSTANT_NEXT, v1, v0)
    lin = mode == _LINEAR
    val[lin] = v0[lin] * (1.0 - u[lin]) + v1[lin] * u[lin]
    cub = mode == _CUBIC
    if cub.any():
        x1 = keys[i0[cub], 5] * rcp[cub]
        x2 = 1.0 - keys[i1[cub], 3] * rcp[cub]
        s = _bezier_parameter(x1, x2, u[cub])
        s2, s3 = s * s, s * s * s
        r = 1.0 - s
        r2, r3 = r * r, r * r * r
        y0, y3 = v0[cub], v1[cub]
        y1 = y0 + keys[i0[cub], 6]
        y2 = y3 - keys[i1[cub], 4]
        val[cub] = r3 * y0 + 3.0 * (r2 * s * y1 + r * s2 * y2) + s3 * y3
    val[t0 == t] = v0[t0 == t]                         # exactly on a key
    out[mid] = val
    return out


def _bezier_parameter(p1: np.ndarray, p2: np.ndarray, x0: np.ndarray) -> np.ndarray:
    """The Bezier parameter whose time is ``x0`` (handles at ``p1``, ``p2``), as ufbx solves it.

    Three Newton steps, then up to four pairs more for the entries not yet
    within :data:`_NEWTON_EPS`.
    """
    a = 3.0 * p1 - 3.0 * p2 + 1.0
    b = 3.0 * p2 - 6.0 * p1
    c = 3.0 * p1
    t = x0.copy()

    def step(t, active):
        x1 = ((a * t + b) * t + c) * t - x0
        with np.errstate(divide="ignore", invalid="ignore"):
            nt = t - x1 / ((3.0 * a * t + 2.0 * b) * t + c)
        return np.where(active, nt, t), x1

    active = np.ones(t.shape, dtype=bool)
    x1 = np.zeros(t.shape)
    for _ in range(3):
        t, x1 = step(t, active)
    active &= ~(np.abs(x1) <= _NEWTON_EPS)
    for _ in range(4):
        if not active.any():
            break
        t, _x = step(t, active)
        t, x1 = step(t, active)
        active &= ~(np.abs(x1) <= _NEWTON_EPS)
    return t


def _extrapolate(keys, times, pre: bool, mode: int, count: int, ktime_second: int):
    key = keys[0] if pre else keys[-1]
    if mode == _EX_CONSTANT:
        return np.full(times.shape, key[1])
    if mode == _EX_SLOPE:
        dx, dy = (key[5], key[6]) if pre else (key[3], key[4])
        with np.errstate(divide="ignore", invalid="ignore"):
            return key[1] + dy * ((times - key[0]) / dx)
    if count == 0:
        return np.full(times.shape, key[1])
    scale = float(ktime_second)
    lo = np.rint(keys[0, 0] * scale)
    hi = np.rint(keys[-1, 0] * scale)
    tt = times * scale
    delta = lo - tt if pre else tt - hi
    duration = hi - lo
    if not duration >= 1.0:
        return np.full(times.shape, key[1])
    rep_n = np.floor(delta / duration)
    rep_d = delta - rep_n * duration
    if count > 0:
        over = rep_n >= count
        rep_n = np.where(over, count - 1, rep_n)
        rep_d = np.where(over, duration, rep_d)
    if mode == _EX_MIRROR:
        parity = rep_n * 0.5 - np.floor(rep_n * 0.5)
        rep_d = np.where(parity <= 0.25, duration - rep_d, rep_d)
    if pre:
        rep_d = duration - rep_d
    value = _inside(keys, (lo + rep_d) / scale)
    if mode == _EX_REPEAT_RELATIVE:
        step = keys[-1, 1] - keys[0, 1]
        value = value + (-step if pre else step) * (rep_n + 1.0)
    return value
