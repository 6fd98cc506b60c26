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
    if not len(segs) or not len(tops) or not len(lefts):
        return np.zeros((len(tops), len(lefts)), dtype=bool)
    a, d = segs[:, 0], segs[:, 1] - segs[:, 0]
    x_lo, x_hi = np.minimum(segs[:, 0, 0], segs[:, 1, 0]), np.maximum(segs[:, 0, 0], segs[:, 1, 0])
    # The pairs of a column and a segment that reaches into its x span.
    col, seg = np.nonzero((x_hi >= (lefts - grow)[:, None]) & (x_lo <= (lefts + w + grow)[:, None]))
    # The part of each inside its column, as fractions along the segment (all
    # of a vertical one), then the closed y interval it spans there.
    a, d = a[seg], d[seg]
    vertical = d[:, 0] == 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        f0 = (lefts[col] - grow - a[:, 0]) / d[:, 0]
        f1 = (lefts[col] + w + grow - a[:, 0]) / d[:, 0]
    t0 = np.where(vertical, 0.0, np.clip(np.fmin(f0, f1), 0.0, 1.0))
    t1 = np.where(vertical, 1.0, np.clip(np.fmax(f0, f1), 0.0, 1.0))
    y0, y1 = a[:, 1] + t0 * d[:, 1], a[:, 1] + t1 * d[:, 1]
    # Each box's grown top and bottom edges (y grows down). An interval meets a
    # box when it starts above the bottom edge and ends below the top one.
    top, bottom = tops - grow, tops + h + grow
    # All columns in one sorted array: the intervals' ends clamped just outside
    # the range of the edges they are compared with (which keeps every
    # comparison), and each column shifted past the one before.
    span = float(tops.max() - tops.min()) + 4.0
    shift = span * np.arange(len(lefts), dtype=np.float64)
    lo = np.clip(np.minimum(y0, y1), bottom.min() - 1.0, bottom.max() + 1.0) + shift[col]
    hi = np.clip(np.maximum(y0, y1), top.min() - 1.0, top.max() + 1.0) + shift[col]
    order = np.argsort(lo, kind="stable")
    lo, highest = lo[order], np.maximum.accumulate(hi[order])
    # Per box, the intervals starting above its bottom edge are a prefix (of
    # its column's, after the columns before); one of them reaches its top
    # edge when the highest of their ends does (those of the columns before
    # end above every edge of this one).
    k = np.searchsorted(lo, (bottom[:, None] + shift).reshape(-1), side="right")
    reach = highest[np.maximum(k - 1, 0)] if len(highest) else np.full(len(k), -np.inf)
    return ((k > 0) & (reach >= (top[:, None] + shift).reshape(-1))).reshape(len(tops),
                                                                              len(lefts))
