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

__all__ = ["Polylines", "blocked_spots"]


class Polylines:
    """Polylines ``(N, 2)`` (NaN rows are gaps) as one array of their runs of finite
    points, worked out once for every column asked about.

    Where x never decreases along every run (a plot's curves, sampled in x),
    a run's part inside a column is one connected path: it spans the y of its
    points inside the column and of the two points where it crosses the
    column's sides, from one least and greatest over an index range (a
    sparse table: O(1) per range) and two interpolations, per run and
    column. Otherwise (``monotone`` False) its segments are clipped one by one.

    >>> lines = Polylines([np.array([(0, 0), (1, 5), (np.nan, 0), (2, 1), (3, 2)])])
    >>> lines.monotone, lines.starts.tolist(), lines.ends.tolist()
    (True, [0, 2], [2, 4])
    """

    def __init__(self, lines) -> None:
        runs = []
        for line in lines:
            p = np.asarray(line, dtype=np.float64).reshape(-1, 2)
            ok = np.all(np.isfinite(p), axis=-1)
            edges = np.flatnonzero(np.diff(np.concatenate(([0], ok.astype(np.int8), [0]))))
            runs += [p[a:b] for a, b in zip(edges[::2], edges[1::2], strict=True) if b - a >= 2]
        points = np.concatenate(runs) if runs else np.empty((0, 2))
        lengths = np.array([len(r) for r in runs], dtype=np.int64)
        #: Each run's first point and one past its last, in ``points``.
        self.ends = np.cumsum(lengths)
        self.starts = self.ends - lengths
        self.points = points
        last = np.zeros(len(points), dtype=bool)
        last[self.ends - 1] = True
        step = np.diff(points[:, 0])
        self.monotone = bool(np.all((step >= 0.0) | last[:-1])) if len(points) else True
        #: The segments within the runs ``(S, 2, 2)``, for the general case.
        joined = ~last[:-1]
        self.segs = np.stack([points[:-1][joined], points[1:][joined]], axis=1) \
            if len(points) else np.empty((0, 2, 2))
        # Each run's x shifted past the run before: one sorted array.
        x = points[:, 0]
        self._width = float(x.max() - x.min()) + 4.0 if len(x) else 4.0
        self._origin = float(x.min()) if len(x) else 0.0
        run = np.repeat(np.arange(len(runs)), lengths)
        self._keys = x - self._origin + self._width * run
        # Least and greatest y over every 2**k points from each (a sparse table).
        y = points[:, 1]
        self._least, self._most = [y], [y]
        k = 1
        while 2 * k <= len(y):
            self._least.append(np.minimum(self._least[-1][:-k], self._least[-1][k:]))
            self._most.append(np.maximum(self._most[-1][:-k], self._most[-1][k:]))
            k *= 2

    def __len__(self) -> int:
        return len(self.segs)

    def _range(self, first: np.ndarray, last: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Least and greatest y of the points ``first`` to ``last`` (inclusive, first <= last)."""
        level = np.floor(np.log2(last - first + 1)).astype(np.int64)
        least, most = np.empty(len(first)), np.empty(len(first))
        for k in np.unique(level):
            at = level == k
            a, b = first[at], last[at] - (1 << int(k)) + 1
            least[at] = np.minimum(self._least[k][a], self._least[k][b])
            most[at] = np.maximum(self._most[k][a], self._most[k][b])
        return least, most

    def spans(self, x0: np.ndarray, x1: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per column ``[x0, x1]`` (``(L,)``) and run that reaches into it: the column's
        index, and the closed y interval the run spans inside it (monotone runs)."""
        runs = len(self.starts)
        col = np.repeat(np.arange(len(x0)), runs)
        run = np.tile(np.arange(runs), len(x0))
        shift = self._width * run - self._origin
        # The first point at or right of x0, and the last at or left of x1 (the
        # sides clamped to just outside the points' x: each stays in its run's keys).
        lo_x, hi_x = self._origin - 1.0, self._origin + self._width - 3.0
        i0 = np.searchsorted(self._keys, np.clip(x0[col], lo_x, hi_x) + shift, side="left")
        i1 = np.searchsorted(self._keys, np.clip(x1[col], lo_x, hi_x) + shift, side="right") - 1
        start, end = self.starts[run], self.ends[run]
        reaches = (i0 < end) & (i1 >= start)
        col, run, i0, i1, start, end = (v[reaches] for v in (col, run, i0, i1, start, end))
        xl, xr = x0[col], x1[col]
        p = self.points
        lo, hi = np.full(len(col), np.inf), np.full(len(col), -np.inf)
        inside = i0 <= i1
        if inside.any():
            least, most = self._range(i0[inside], i1[inside])
            lo[inside], hi[inside] = least, most
        # Where the run crosses the column's left side (from the point before
        # i0) and its right side (to the point after i1).
        for enters, before, after, x in ((i0 > start, i0 - 1, i0, xl),
                                         (i1 < end - 1, i1, i1 + 1, xr)):
            if enters.any():
                a, b, at = p[before[enters]], p[after[enters]], x[enters]
                y = a[:, 1] + (at - a[:, 0]) * (b[:, 1] - a[:, 1]) / (b[:, 0] - a[:, 0])
                lo[enters] = np.minimum(lo[enters], y)
                hi[enters] = np.maximum(hi[enters], y)
        return col, lo, hi


def blocked_spots(lefts, tops, w: float, h: float, segs, grow: float) -> np.ndarray:
    """``(T, L)`` whether the ``w`` x ``h`` box at each top and left, grown by ``grow``
    on every side, meets one of the segments ``segs`` (closed).

    Parameters
    ----------
    lefts, tops : array_like, shape (L,) and (T,)
        The boxes' left and top edges (y grows downwards, as on screen).
    w, h : float
        The boxes' width and height.
    segs : array_like, shape (S, 2, 2), or Polylines
        Segment end points (a segment of length 0, a lone point, counts), or
        polylines (faster when x never decreases along them).
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
    if not len(segs) or not len(tops) or not len(lefts):
        return np.zeros((len(tops), len(lefts)), dtype=bool)
    if isinstance(segs, Polylines):
        if segs.monotone:
            col, lo, hi = segs.spans(lefts - grow, lefts + w + grow)
            return _meeting(col, lo, hi, len(lefts), tops, h, grow)
        segs = segs.segs
    segs = np.asarray(segs, dtype=np.float64).reshape(-1, 2, 2)
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
    return _meeting(col, np.minimum(y0, y1), np.maximum(y0, y1), len(lefts), tops, h, grow)


def _meeting(col, lo, hi, columns: int, tops: np.ndarray, h: float, grow: float) -> np.ndarray:
    """``(T, L)`` whether a box meets one of the closed y intervals ``lo``-``hi`` of its
    column ``col`` (one per interval, of ``columns``), grown by ``grow``."""
    # Each box's grown top and bottom edges (y grows down). An interval meets a
    # box when it starts above the bottom edge and ends below the top one.
    top, bottom = tops - grow, tops + h + grow
    # All columns in one sorted array: the intervals' ends clamped just outside
    # the range of the edges they are compared with (which keeps every
    # comparison), and each column shifted past the one before.
    span = float(tops.max() - tops.min()) + 4.0
    shift = span * np.arange(columns, dtype=np.float64)
    lo = np.clip(lo, bottom.min() - 1.0, bottom.max() + 1.0) + shift[col]
    hi = np.clip(hi, top.min() - 1.0, top.max() + 1.0) + shift[col]
    order = np.argsort(lo, kind="stable")
    lo, highest = lo[order], np.maximum.accumulate(hi[order])
    # Per box, the intervals starting above its bottom edge are a prefix (of
    # its column's, after the columns before); one of them reaches its top
    # edge when the highest of their ends does (those of the columns before
    # end above every edge of this one).
    k = np.searchsorted(lo, (bottom[:, None] + shift).reshape(-1), side="right")
    reach = highest[np.maximum(k - 1, 0)] if len(highest) else np.full(len(k), -np.inf)
    return ((k > 0) & (reach >= (top[:, None] + shift).reshape(-1))).reshape(len(tops), columns)
