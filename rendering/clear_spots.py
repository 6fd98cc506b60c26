"""Which boxes of a grid of spots (lefts x tops, one size) keep clear of segments (numpy only).

A plot callout tries a few lefts (under 40) at many tops (every 4 px) for a
box of one size, and takes only a spot nothing comes near
(:mod:`quatlab.rendering.plot_label`). Per left, the segments reaching its
column (the box's x span grown by the clearance) are clipped to the column
once; each leaves the closed y interval it spans there. A box at a top is
blocked when one of those intervals meets its y span grown by the
clearance: among the intervals sorted by their low ends, those starting
above the box's bottom are a prefix (a binary search), and one of them
reaches the box when the highest of their high ends does. Exact, closed (a
segment that touches a grown box blocks it), in
O(lefts x S log S + spots x log S) rather than spots x S clips.
"""

from __future__ import annotations

import numpy as np

__all__ = ["blocked_spots"]


def blocked_spots(lefts, tops, w: float, h: float, segs, grow: float) -> np.ndarray:
    """``(T, L)`` whether the ``w`` x ``h`` box at each top and left, grown by ``grow``
    on every side, meets one of the segments ``segs`` ``(S, 2, 2)`` (closed).

    Parameters
    ----------
    lefts, tops : array_like, shape (L,) and (T,)
        The boxes' left and top edges (y grows downwards, as on screen).
    w, h : float
        The boxes' width and height.
    segs : array_like, shape (S, 2, 2)
        Segment end points; a segment of length 0 (a lone point) counts.
    grow : float
        Pixels added to each side of a box.

    Examples
    --------
    A horizontal line at y = 5 from x = 0 to 100; boxes 10 x 10:

    >>> blocked_spots([0.0, 200.0], [0.0, 10.0, 20.0], 10, 10, [[(0, 5), (100, 5)]], 0.0)
    array([[ True, False],
           [False, False],
           [False, False]])

    Grown by 5, the box at top 10 reaches y = 5: a touch blocks it.

    >>> blocked_spots([0.0], [10.0, 10.5], 10, 10, [[(0, 5), (100, 5)]], 5.0)[:, 0].tolist()
    [True, False]
    """
    lefts = np.asarray(lefts, dtype=np.float64).reshape(-1)
    tops = np.asarray(tops, dtype=np.float64).reshape(-1)
    segs = np.asarray(segs, dtype=np.float64).reshape(-1, 2, 2)
    out = np.zeros((len(tops), len(lefts)), dtype=bool)
    if not len(segs) or not len(tops):
        return out
    a, b = segs[:, 0], segs[:, 1]
    d = b - a
    x_lo, x_hi = np.minimum(a[:, 0], b[:, 0]), np.maximum(a[:, 0], b[:, 0])
    flat = d[:, 0] == 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = np.where(flat, 0.0, 1.0 / np.where(flat, 1.0, d[:, 0]))
    top_edge, bottom_edge = tops - grow, tops + h + grow
    for j, left in enumerate(lefts):
        x0, x1 = left - grow, left + w + grow
        near = np.flatnonzero((x_hi >= x0) & (x_lo <= x1))
        if not len(near):
            continue
        # The part of each segment inside the column [x0, x1]: its fractions
        # along the segment (all of a vertical one), then the y it spans.
        ra, rd, ri = a[near], d[near], inv[near]
        f0, f1 = (x0 - ra[:, 0]) * ri, (x1 - ra[:, 0]) * ri
        vertical = flat[near]
        t0 = np.where(vertical, 0.0, np.clip(np.minimum(f0, f1), 0.0, 1.0))
        t1 = np.where(vertical, 1.0, np.clip(np.maximum(f0, f1), 0.0, 1.0))
        y0, y1 = ra[:, 1] + t0 * rd[:, 1], ra[:, 1] + t1 * rd[:, 1]
        lo, hi = np.minimum(y0, y1), np.maximum(y0, y1)
        order = np.argsort(lo, kind="stable")
        lo, highest = lo[order], np.maximum.accumulate(hi[order])
        # The intervals whose low ends lie above the box's bottom edge (y grows
        # down) are a prefix; one of them reaches its top edge when the
        # highest of their high ends does.
        k = np.searchsorted(lo, bottom_edge, side="right")
        out[:, j] = (k > 0) & (highest[np.maximum(k - 1, 0)] >= top_edge)
    return out
