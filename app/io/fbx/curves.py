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

__all__ = ["evaluate_curve", "CurveBank", "KTIME_SECOND"]

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
    bank = CurveBank(np.array([0, len(keys)]), keys,
                     np.asarray(extrapolation, dtype=np.int64).reshape(1, 4), ktime_second)
    return bank.evaluate(np.array([0]), times, np.array([float(default)]))[0]


class CurveBank:
    """Many curves (keys packed end to end) evaluated together: ``(C, T)`` values at once.

    ``key_start`` ``(C + 1,)`` gives each curve's keys in ``keys`` ``(K, 7)``;
    ``extrapolation`` is ``(C, 4)``. One ``searchsorted`` per curve, the rest
    vectorized over every (curve, time) pair, with ufbx's arithmetic.
    """

    def __init__(self, key_start, keys, extrapolation, ktime_second: int = KTIME_SECOND):
        self.key_start = np.asarray(key_start, dtype=np.int64)
        self.keys = np.asarray(keys, dtype=np.float64)
        self.extrapolation = np.asarray(extrapolation, dtype=np.int64).reshape(-1, 4)
        self.scale = float(ktime_second)

    def evaluate(self, curves, times, defaults) -> np.ndarray:
        """Curves ``curves`` ``(C,)`` at ``times`` ``(T,)``; ``defaults`` for keyless curves."""
        curves = np.asarray(curves, dtype=np.int64).reshape(-1)
        times = np.asarray(times, dtype=np.float64).reshape(-1)
        C, T = len(curves), len(times)
        out = np.empty((C, T))
        start = self.key_start[curves]
        count = self.key_start[curves + 1] - start
        none = count == 0
        out[none] = np.asarray(defaults, dtype=np.float64).reshape(-1)[none][:, None]
        one = count == 1
        out[one] = self.keys[start[one], 1][:, None]
        many = np.flatnonzero(count > 1)
        if not len(many):
            return out
        s, e = start[many], start[many] + count[many]          # (M,)
        lo, hi = self.keys[s, 0], self.keys[e - 1, 0]
        tt = np.broadcast_to(times, (len(many), T)).copy()     # effective time per pair
        val = np.full((len(many), T), np.nan)                  # set where extrapolation decides
        shift = np.zeros((len(many), T))                       # repeat_relative offsets
        for pre, mask in ((True, tt < lo[:, None]), (False, tt > hi[:, None])):
            if mask.any():
                self._extrapolate(mask, pre, many, curves, s, e, lo, hi, tt, val, shift)
        inside = self._inside(s, e, tt)
        out[many] = np.where(np.isnan(val), inside + shift, val)
        return out

    def _extrapolate(self, mask, pre, many, curves, s, e, lo, hi, tt, val, shift) -> None:
        """Fill ``val`` (a value) or remap ``tt`` (a time inside) where ``mask``, as ufbx does."""
        k = self.keys
        m_idx, t_idx = np.nonzero(mask)
        ex = self.extrapolation[curves[many[m_idx]]]
        mode = ex[:, 0] if pre else ex[:, 2]
        count = ex[:, 1] if pre else ex[:, 3]
        key = s[m_idx] if pre else e[m_idx] - 1
        t = tt[m_idx, t_idx]
        kval, ktime = k[key, 1], k[key, 0]
        direct = np.full(len(t), np.nan)
        const = (mode == _EX_CONSTANT) | ((mode != _EX_SLOPE) & (count == 0))
        direct[const] = kval[const]
        slope = mode == _EX_SLOPE
        if slope.any():
            dx = k[key[slope], 5] if pre else k[key[slope], 3]
            dy = k[key[slope], 6] if pre else k[key[slope], 4]
            with np.errstate(divide="ignore", invalid="ignore"):
                direct[slope] = kval[slope] + dy * ((t[slope] - ktime[slope]) / dx)
        rep = ~(const | slope)
        if rep.any():
            lo_k = np.rint(lo[m_idx[rep]] * self.scale)
            hi_k = np.rint(hi[m_idx[rep]] * self.scale)
            time = t[rep] * self.scale
            delta = lo_k - time if pre else time - hi_k
            duration = hi_k - lo_k
            short = ~(duration >= 1.0)
            with np.errstate(divide="ignore", invalid="ignore"):
                rep_n = np.floor(delta / duration)
            rep_d = delta - rep_n * duration
            c = count[rep]
            over = (c > 0) & (rep_n >= c)
            rep_n = np.where(over, c - 1, rep_n)
            rep_d = np.where(over, duration, rep_d)
            mirror = mode[rep] == _EX_MIRROR
            parity = rep_n * 0.5 - np.floor(rep_n * 0.5)
            rep_d = np.where(mirror & (parity <= 0.25), duration - rep_d, rep_d)
            if pre:
                rep_d = duration - rep_d
            new_time = (lo_k + rep_d) / self.scale
            rows, cols = m_idx[rep], t_idx[rep]
            tt[rows, cols] = np.where(short, tt[rows, cols], new_time)
            relative = (mode[rep] == _EX_REPEAT_RELATIVE) & ~short
            step = k[e[rows] - 1, 1] - k[s[rows], 1]
            shift[rows, cols] = np.where(relative, (-step if pre else step) * (rep_n + 1.0), 0.0)
            d = direct[rep]
            d[short] = kval[rep][short]
            direct[rep] = d
        val[m_idx, t_idx] = direct

    def _inside(self, s, e, tt) -> np.ndarray:
        """Values at times ``tt`` ``(M, T)`` with each curve clamped to its keys (no
        extrapolation): ufbx's search for the first later key, then its segment."""
        k = self.keys
        kt, kv = k[:, 0], k[:, 1]
        nxt = np.empty(tt.shape, dtype=np.int64)
        for i in range(len(s)):       # one search per curve; the rest is vectorized
            nxt[i] = s[i] + np.searchsorted(kt[s[i]:e[i]], tt[i], side="right")
        first = s[:, None]
        last = e[:, None]
        before = nxt == first
        after = nxt >= last
        out = np.where(before, kv[np.broadcast_to(first, tt.shape)],
                       kv[np.broadcast_to(last - 1, tt.shape)])
        mid = ~(before | after)
        if not mid.any():
            return out
        i1 = nxt[mid]
        i0 = i1 - 1
        t = tt[mid]
        t0, t1, v0, v1 = kt[i0], kt[i1], kv[i0], kv[i1]
        with np.errstate(divide="ignore", invalid="ignore"):
            rcp = 1.0 / (t1 - t0)
            u = (t - t0) * rcp
        mode = k[i0, 2].astype(np.int64)
        val = np.where(mode == _CONSTANT_NEXT, v1, v0)
        lin = mode == _LINEAR
        val[lin] = v0[lin] * (1.0 - u[lin]) + v1[lin] * u[lin]
        cub = mode == _CUBIC
        if cub.any():
            x1 = k[i0[cub], 5] * rcp[cub]
            x2 = 1.0 - k[i1[cub], 3] * rcp[cub]
            sp = _bezier_parameter(x1, x2, u[cub])
            s2, s3 = sp * sp, sp * sp * sp
            r = 1.0 - sp
            r2, r3 = r * r, r * r * r
            y0, y3 = v0[cub], v1[cub]
            y1 = y0 + k[i0[cub], 6]
            y2 = y3 - k[i1[cub], 4]
            val[cub] = r3 * y0 + 3.0 * (r2 * sp * y1 + r * s2 * y2) + s3 * y3
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
