"""Where a label's box may go: candidate rectangles scored against screen segments (numpy only).

One placement rule for every view that puts text over drawn lines, the 3D
scenes' labels (:mod:`quatlab.rendering.labels`) and the plots' callouts
(:mod:`quatlab.rendering.plot_label`): each label has candidate rectangles
in order of preference, in pixels of its view; a candidate costs most when
it overlaps a label placed before it, then when it leaves the view, then by
the drawn lines it covers (:func:`covered`: the segments it meets and their
length inside it). :func:`best` takes the first candidate that costs
nothing, and otherwise the cheapest (the earlier of equals).

Rectangles are ``(left, top, right, bottom)`` rows; segments are ``(S, 2, 2)``
arrays of end points. Segments are clipped against each rectangle exactly
(Liang-Barsky), so a line crossing a box with no vertex inside it counts.
"""

from __future__ import annotations

import numpy as np

from quatlab.rendering.box_grid import Grid, meeting_pairs

__all__ = ["Segments", "polyline_segments", "pair_segments", "covered", "overlaps", "costs",
           "best", "cheapest", "crossings", "meets", "along", "LABEL_COST", "OUTSIDE_COST"]

#: Rectangles whose pairs with the segments are clipped at once (bounds the memory).
_BLOCK = 128
#: Rectangle-segment pairs looked at once in a column of rectangles (bounds the memory).
_BLOCK_PAIRS = 1 << 18
#: Rectangles a column (one left and right) must hold on average to be clipped by columns.
_COLUMN_SHARE = 8
#: Cost of a candidate that overlaps a label placed before it, and of one leaving the view.
LABEL_COST = 1000.0
OUTSIDE_COST = 500.0


class Segments:
    """Segments ``(S, 2, 2)`` with their bounding boxes and lengths, worked out once.

    A scene tests every label's candidates against the same segments: the
    boxes reject most segments before any clipping.
    """

    def __init__(self, segs) -> None:
        self.segs = np.asarray(segs, dtype=np.float64).reshape(-1, 2, 2)
        self.lo = self.segs.min(axis=1) if len(self.segs) else np.empty((0, 2))
        self.hi = self.segs.max(axis=1) if len(self.segs) else np.empty((0, 2))
        self.norms = np.linalg.norm(self.segs[:, 1] - self.segs[:, 0], axis=-1)

    def __len__(self) -> int:
        return len(self.segs)

    def plus(self, more) -> Segments:
        """These segments and ``more`` after them; only the new ones' boxes and lengths
        are worked out (a label's leader added to a scene of thousands).

        >>> both = Segments([[(0, 0), (3, 4)]]).plus([[(1, 1), (1, 2)]])
        >>> both.lo.tolist(), both.hi.tolist(), both.norms.tolist()
        ([[0.0, 0.0], [1.0, 1.0]], [[3.0, 4.0], [1.0, 2.0]], [5.0, 1.0])
        """
        new = _as_segments(more)
        out = object.__new__(Segments)
        out.segs, out.lo, out.hi, out.norms = (
            np.concatenate([a, b]) for a, b in ((self.segs, new.segs), (self.lo, new.lo),
                                                (self.hi, new.hi), (self.norms, new.norms)))
        return out

    def subset(self, index) -> Segments:
        """The segments picked by ``index`` (a mask or indices), their boxes and lengths
        taken over, not worked out again.

        >>> found = Segments([[(0, 0), (3, 4)], [(1, 1), (1, 2)]])
        >>> part = found.subset([False, True])
        >>> part.lo.tolist(), part.hi.tolist(), part.norms.tolist()
        ([[1.0, 1.0]], [[1.0, 2.0]], [1.0])
        """
        part = object.__new__(Segments)
        part.segs, part.lo, part.hi, part.norms = (self.segs[index], self.lo[index],
                                                   self.hi[index], self.norms[index])
        return part


def _as_segments(segs) -> Segments:
    return segs if isinstance(segs, Segments) else Segments(segs)


def polyline_segments(points) -> np.ndarray:
    """``(S, 2, 2)`` segments between consecutive finite points of ``points`` ``(N, 2)``.

    A non-finite point is a gap: no segment is drawn to or from it.

    >>> polyline_segments([(0, 0), (1, 0), (np.nan, 0), (2, 0), (3, 1)]).tolist()
    [[[0.0, 0.0], [1.0, 0.0]], [[2.0, 0.0], [3.0, 1.0]]]
    """
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    ok = np.all(np.isfinite(p), axis=-1)
    keep = ok[:-1] & ok[1:]
    return np.stack([p[:-1][keep], p[1:][keep]], axis=1)


def pair_segments(vertices) -> np.ndarray:
    """GL ``'lines'`` vertex pairs ``(2 M, 3)`` as polylines: each pair, then a NaN gap row.

    >>> pair_segments(np.arange(12.0).reshape(4, 3)).shape
    (6, 3)
    """
    v = np.asarray(vertices, dtype=np.float64).reshape(-1, 2, 3)
    out = np.full((len(v), 3, 3), np.nan)
    out[:, :2] = v
    return out.reshape(-1, 3)


def _clip_axis(aa: np.ndarray, da: np.ndarray, lo, hi, t0: np.ndarray, t1: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One axis of Liang-Barsky: segments ``aa + f da`` against the slab ``lo``-``hi``.

    Returns whether a segment parallel to the slab lies in it (the others:
    True), and the fractions ``t0``, ``t1`` narrowed to the part inside.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        flat = da == 0.0
        # A segment parallel to this axis must lie between the two sides.
        ok = ~flat | ((aa >= lo) & (aa <= hi))
        r_lo = (lo - aa) / da
        r_hi = (hi - aa) / da
        t0 = np.maximum(t0, np.where(flat, -np.inf, np.minimum(r_lo, r_hi)))
        t1 = np.minimum(t1, np.where(flat, np.inf, np.maximum(r_lo, r_hi)))
    return ok, t0, t1


def _clip(a: np.ndarray, d: np.ndarray, lo: np.ndarray, hi: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of a segment ``a + f d`` (f in [0, 1]) and a rectangle ``lo``-``hi``, all ``(P, 2)``:
    whether each segment meets its rectangle, and the fraction of it inside."""
    ok_x, t0, t1 = _clip_axis(a[:, 0], d[:, 0], lo[:, 0], hi[:, 0], np.zeros(len(a)),
                              np.ones(len(a)))
    ok_y, t0, t1 = _clip_axis(a[:, 1], d[:, 1], lo[:, 1], hi[:, 1], t0, t1)
    ok = ok_x & ok_y & (t0 <= t1)
    return ok, np.where(ok, t1 - t0, 0.0)


def covered(rects, segs) -> tuple[np.ndarray, np.ndarray]:
    """How many segments each rectangle meets and their length (pixels) inside it.

    Parameters
    ----------
    rects : array_like, shape (K, 4)
        ``(left, top, right, bottom)`` rows.
    segs : array_like, shape (S, 2, 2), or Segments
        Segment end points; a segment of length 0 (a lone point) counts when
        it lies in the rectangle.

    Returns
    -------
    hits : numpy.ndarray of int, shape (K,)
    length : numpy.ndarray, shape (K,)

    >>> hits, length = covered([(0, 0, 10, 10), (20, 0, 30, 10)], [[(-5, 5), (15, 5)]])
    >>> hits.tolist(), length.tolist()
    ([1, 0], [10.0, 0.0])
    """
    rects = np.asarray(rects, dtype=np.float64).reshape(-1, 4)
    found = _as_segments(segs)
    hits = np.zeros(len(rects), dtype=np.int64)
    length = np.zeros(len(rects))
    if not len(found) or not len(rects):
        return hits, length
    columns, column = _columns(rects)
    if _COLUMN_SHARE * len(columns) <= len(rects) and np.isfinite(columns).all():
        _covered_by_column(rects, found, columns, column, hits, length)
        return hits, length
    # Only the pairs whose bounding boxes meet are clipped, found through a
    # grid (box_grid): the work follows the pairs near each other, not K x S;
    # a block of rectangles at a time, so neither does the memory.
    for start in range(0, len(rects), _BLOCK):
        block = rects[start:start + _BLOCK]
        k, i = meeting_pairs(block[:, :2], block[:, 2:], found.lo, found.hi)
        if not len(k):
            continue
        a = found.segs[i, 0]
        ok, frac = _clip(a, found.segs[i, 1] - a, block[k, :2], block[k, 2:])
        hits[start:start + len(block)] = np.bincount(k, weights=ok, minlength=len(block))
        length[start:start + len(block)] = np.bincount(k, weights=frac * found.norms[i],
                                                       minlength=len(block))
    return hits, length


def _columns(rects: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct ``(left, right)`` pairs of ``rects`` ``(K, 4)``, sorted, and each
    rectangle's index among them: ``np.unique(rects[:, [0, 2]], axis=0,
    return_inverse=True)``, which costs 5 times as much on a label's few dozen spots
    (it sorts the rows as records); every label placement asks.

    >>> cols, which = _columns(np.array([(5, 0, 9, 1), (1, 0, 2, 1), (5, 2, 9, 3)], float))
    >>> cols.tolist(), which.tolist()
    ([[1.0, 2.0], [5.0, 9.0]], [1, 0, 1])
    """
    sides = rects[:, [0, 2]]
    order = np.lexsort((sides[:, 1], sides[:, 0]))
    ranked = sides[order]
    new = np.ones(len(ranked), dtype=bool)
    new[1:] = np.any(ranked[1:] != ranked[:-1], axis=1)
    column = np.empty(len(ranked), dtype=np.int64)
    column[order] = np.cumsum(new) - 1
    return ranked[new], column


def _covered_by_column(rects: np.ndarray, found: Segments, columns: np.ndarray,
                       column: np.ndarray, hits: np.ndarray, length: np.ndarray) -> None:
    """:func:`covered` for rectangles that share their sides by columns (a label's spots).

    A label's candidates are a few lefts times many heights: per column
    (one left and right), the segments that reach its x span are clipped
    along x once, and only the pairs whose boxes also meet along y are
    clipped along y. The same pairs as the grid finds, clipped by the same
    arithmetic as :func:`_clip` and summed in the same order (each
    rectangle's segments in their order): the same hits and lengths, to the
    last bit, with neither the grid's bookkeeping nor the x clip per pair.
    """
    order = np.argsort(column, kind="stable")
    starts = np.searchsorted(column[order], np.arange(len(columns) + 1))
    for g, (left, right) in enumerate(columns):
        near = np.flatnonzero((found.hi[:, 0] >= left) & (found.lo[:, 0] <= right))
        if not len(near):
            continue
        a = found.segs[near, 0]
        d = found.segs[near, 1] - a
        x_ok, t0_x, t1_x = _clip_axis(a[:, 0], d[:, 0], left, right, np.zeros(len(near)),
                                      np.ones(len(near)))
        y_lo, y_hi, norms = found.lo[near, 1], found.hi[near, 1], found.norms[near]
        # What each segment gives a rectangle of this column that holds it along y:
        # there the y clip changes nothing (its fractions lie outside [0, 1]).
        in_ok = x_ok & (t0_x <= t1_x)
        in_len = np.where(in_ok, t1_x - t0_x, 0.0) * norms
        mine = order[starts[g]:starts[g + 1]]
        # Rows of this column a block at a time: at most _BLOCK_PAIRS pairs looked at.
        rows = max(1, _BLOCK_PAIRS // len(near))
        for first in range(0, len(mine), rows):
            ks = mine[first:first + rows]
            top, bottom = rects[ks, 1], rects[ks, 3]
            r, j = np.nonzero((y_hi >= top[:, None]) & (y_lo <= bottom[:, None]))
            if not len(r):
                continue
            ok, piece = in_ok[j], in_len[j]
            # Only the segments that cross the top or bottom edge are clipped along y.
            cut = np.flatnonzero((y_lo[j] < top[r]) | (y_hi[j] > bottom[r]))
            rc, jc = r[cut], j[cut]
            ok_c, t0, t1 = _clip_axis(a[jc, 1], d[jc, 1], top[rc], bottom[rc], t0_x[jc],
                                      t1_x[jc])
            ok_c &= x_ok[jc] & (t0 <= t1)
            ok[cut] = ok_c
            piece[cut] = np.where(ok_c, t1 - t0, 0.0) * norms[jc]
            hits[ks] = np.bincount(r, weights=ok, minlength=len(ks))
            length[ks] = np.bincount(r, weights=piece, minlength=len(ks))


def overlaps(rects, taken) -> np.ndarray:
    """``(K,)`` how many of the rectangles ``taken`` ``(T, 4)`` each of ``rects`` overlaps.

    >>> overlaps([(0, 0, 10, 10), (20, 0, 30, 10)], [(5, 5, 25, 6)]).tolist()
    [1, 1]
    """
    rects = np.asarray(rects, dtype=np.float64).reshape(-1, 4)
    taken = np.asarray(taken, dtype=np.float64).reshape(-1, 4)
    if not len(taken):
        return np.zeros(len(rects), dtype=np.int64)
    r, t = rects[:, None], taken[None]
    return ((r[..., 0] < t[..., 2]) & (t[..., 0] < r[..., 2])
            & (r[..., 1] < t[..., 3]) & (t[..., 1] < r[..., 3])).sum(axis=1)


def crossings(segs, others) -> np.ndarray:
    """``(K,)`` how many of ``others`` ``(M, 2, 2)`` each segment of ``segs`` ``(K, 2, 2)`` meets.

    Closed segments (a shared end point or a touch counts); a segment with a
    NaN end (no segment) meets nothing. Pairwise, O(K M): for a label's
    leader at each of its spots against the few leaders placed before it.

    >>> crossings([[(0, 0), (10, 10)], [(0, 0), (1, 1)]], [[(0, 10), (10, 0)]]).tolist()
    [1, 0]
    """
    a = np.asarray(segs, dtype=np.float64).reshape(-1, 1, 2, 2)
    b = np.asarray(others, dtype=np.float64).reshape(1, -1, 2, 2)
    if not a.size or not b.size:
        return np.zeros(a.shape[0], dtype=np.int64)

    def side(p, q, r):   # sign of the turn p -> q -> r
        return np.sign((q[..., 0] - p[..., 0]) * (r[..., 1] - p[..., 1])
                       - (q[..., 1] - p[..., 1]) * (r[..., 0] - p[..., 0]))

    p1, p2, q1, q2 = a[..., 0, :], a[..., 1, :], b[..., 0, :], b[..., 1, :]
    with np.errstate(invalid="ignore"):
        d1, d2, d3, d4 = side(q1, q2, p1), side(q1, q2, p2), side(p1, p2, q1), side(p1, p2, q2)
        boxes_meet = np.all(np.maximum(np.minimum(p1, p2), np.minimum(q1, q2))
                            <= np.minimum(np.maximum(p1, p2), np.maximum(q1, q2)), axis=-1)
        # Each segment's ends on both sides of (or on) the other's line, and
        # their boxes meeting (for collinear ones): the closed segments meet.
        meet = (d1 * d2 <= 0) & (d3 * d4 <= 0) & boxes_meet
    return meet.sum(axis=1)


def along(segs, lines, degrees: float, reach: float) -> np.ndarray:
    """``(K,)`` whether each of ``segs`` ``(K, 2, 2)`` runs within ``degrees`` of parallel to
    one of ``lines`` ``(L, 2, 2)`` and within ``reach`` pixels of it: a leader that would
    read as a stretch of that line (a label's leader from a ball at the origin, level and
    leftwards, read as the negative x axis). A point-like segment runs along nothing.

    >>> axis = [[(0, 0), (100, 0)]]
    >>> along([[(0, 0), (-60, 3)], [(0, 0), (-40, 30)], [(0, 40), (100, 40)]],
    ...       axis, 15.0, 10.0).tolist()
    [True, False, False]
    """
    a = np.asarray(segs, dtype=np.float64).reshape(-1, 2, 2)
    b = np.asarray(lines, dtype=np.float64).reshape(-1, 2, 2)
    out = np.zeros(len(a), dtype=bool)
    if not len(a) or not len(b):
        return out
    da, db = a[:, 1] - a[:, 0], b[:, 1] - b[:, 0]
    na, nb = np.linalg.norm(da, axis=-1), np.linalg.norm(db, axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        cos = np.abs(da @ db.T) / np.outer(na, nb)
    # The gaps only for the pairs near parallel: few, where a label tries thousands
    # of places (labels._free_place).
    k, m = np.nonzero((na[:, None] > 1e-9) & (nb > 1e-9) & (cos >= np.cos(np.radians(degrees))))
    # Boxes farther apart than ``reach`` cannot hold segments that near.
    lo_a, hi_a, lo_b, hi_b = a.min(axis=1), a.max(axis=1), b.min(axis=1), b.max(axis=1)
    boxed = np.all((lo_a[k] - reach <= hi_b[m]) & (lo_b[m] <= hi_a[k] + reach), axis=-1)
    k, m = k[boxed], m[boxed]
    if not len(k):
        return out
    near = _gaps(a[k, 0], a[k, 1], b[m, 0], b[m, 1]) <= reach
    out[k[near]] = True
    return out


def _gaps(p1, p2, q1, q2) -> np.ndarray:
    """Pixels between segments ``p1 p2`` and ``q1 q2`` (broadcast), 0 where they meet."""
    def to_segment(p, s0, s1):
        d = s1 - s0
        dd = np.maximum(np.sum(d * d, axis=-1), 1e-18)
        k = np.clip(np.sum((p - s0) * d, axis=-1) / dd, 0.0, 1.0)
        return np.linalg.norm(s0 + k[..., None] * d - p, axis=-1)

    def side(p, q, r):   # sign of the turn p -> q -> r
        return np.sign((q[..., 0] - p[..., 0]) * (r[..., 1] - p[..., 1])
                       - (q[..., 1] - p[..., 1]) * (r[..., 0] - p[..., 0]))

    crossed = ((side(q1, q2, p1) * side(q1, q2, p2) < 0)
               & (side(p1, p2, q1) * side(p1, p2, q2) < 0))
    gap = np.minimum.reduce([to_segment(p1, q1, q2), to_segment(p2, q1, q2),
                             to_segment(q1, p1, p2), to_segment(q2, p1, p2)])
    return np.where(crossed, 0.0, gap)


def meets(segs, rects) -> np.ndarray:
    """``(K, M)`` whether each segment of ``segs`` ``(K, 2, 2)`` meets each of ``rects`` ``(M, 4)``.

    Pairwise, O(K M), for few segments or few rectangles: a label's leader
    at each of its spots against the boxes placed before it, the leaders
    placed before against each of its spots. A segment with a NaN end
    meets nothing.

    >>> meets([[(-5, 5), (15, 5)], [(-5, 20), (15, 20)]], [(0, 0, 10, 10)]).tolist()
    [[True], [False]]
    """
    segs = np.asarray(segs, dtype=np.float64).reshape(-1, 2, 2)
    rects = np.asarray(rects, dtype=np.float64).reshape(-1, 4)
    k, m = np.repeat(np.arange(len(segs)), len(rects)), np.tile(np.arange(len(rects)), len(segs))
    a = segs[k, 0]
    with np.errstate(invalid="ignore"):
        ok, _ = _clip(a, segs[k, 1] - a, rects[m, :2], rects[m, 2:])
    return ok.reshape(len(segs), len(rects))


def costs(rects, segs, taken=(), view=None, *, by_length: bool = False,
          cover: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """``(K,)`` cost of each candidate rectangle (module docstring).

    ``by_length`` weighs the lines covered by their length in pixels (plot
    curves, sampled densely) instead of by the number of segments met (3D
    outlines, a few long segments each). ``cover`` is ``covered(rects,
    segs)`` when the caller has it already (the same candidates scored
    against other labels ``taken``): the segments are then not clipped again.
    """
    rects = np.asarray(rects, dtype=np.float64).reshape(-1, 4)
    hits, length = covered(rects, segs) if cover is None else cover
    cost = (length + hits * 1e-3) if by_length else hits.astype(np.float64)
    cost = cost + LABEL_COST * overlaps(rects, taken)
    if view is not None:
        left, top, right, bottom = view
        out = ((rects[:, 0] < left) | (rects[:, 1] < top) | (rects[:, 2] > right)
               | (rects[:, 3] > bottom))
        cost = cost + OUTSIDE_COST * out
    return cost


def best(rects, segs, taken=(), view=None, *, by_length: bool = False) -> tuple[int, float]:
    """Index and cost of the candidate to take: the first free one, else the cheapest.

    Candidates are scored in growing batches (the label's own spot alone,
    then the next few, then the rest): the first spots are usually free, and
    a small batch's joint box rejects most segments before any clipping.

    >>> segs = [[(0, 5), (100, 5)]]                    # a horizontal line at y = 5
    >>> best([(0, 0, 10, 10), (0, 10, 10, 20), (0, 20, 10, 30)], segs)
    (1, 0.0)
    """
    rects = np.asarray(rects, dtype=np.float64).reshape(-1, 4)
    if not len(rects):
        raise ValueError("no candidate rectangle")
    segs = _as_segments(segs)
    parts, start = [], 0
    for size in (1, 4, len(rects)):
        batch = rects[start:start + size]
        if not len(batch):
            break
        cost = costs(batch, segs, taken, view, by_length=by_length)
        free = np.flatnonzero(cost == 0.0)
        if len(free):
            return start + int(free[0]), 0.0
        parts.append(cost)
        start += len(batch)
    cost = np.concatenate(parts)
    i = int(np.argmin(cost))  # argmin takes the first of equals: the preferred one
    return i, float(cost[i])


#: Cells a side of a typical candidate in the grid that bounds the candidates' costs.
_BOUND_SPLIT = 32.0
#: Candidates clipped at once while looking for the cheapest (then four times as many).
_FIRST_BATCH = 16


def _cost_bounds(rects: np.ndarray, segs: Segments) -> tuple[np.ndarray, np.ndarray]:
    """Per rectangle: whether a segment may meet it, and a length it covers at least.

    The segments are clipped against the cells of a grid finer than the
    rectangles (:class:`quatlab.rendering.box_grid.Grid`, half-open cells:
    no length counts twice): a rectangle meets no segment when none comes
    into a cell it touches, and covers at least the length in the cells
    wholly inside it. Both read from summed-area tables, so this is
    O(K + S + the cells the segments cross).
    """
    k = len(rects)
    grid = Grid(rects[:, :2], rects[:, 2:], _BOUND_SPLIT)
    lo, hi = rects[:, :2].min(axis=0), rects[:, 2:].max(axis=0)
    near = np.flatnonzero(np.all((segs.hi >= lo) & (segs.lo <= hi), axis=1))
    first, last = grid.cell(segs.lo[near]), grid.cell(segs.hi[near])
    if np.prod(last - first + 1, axis=1).sum() > 16 * (k + len(segs)):
        return np.ones(k, dtype=bool), np.zeros(k)   # long segments everywhere: no bound
    owner, cx, cy, cid = grid.spread(first, last)
    own = near[owner]
    a = segs.segs[own, 0]
    _, frac = _clip(a, segs.segs[own, 1] - a, *grid.bounds(cx, cy))
    reached = grid.table(cid, np.ones(len(cid)))
    length = grid.table(cid, frac * segs.norms[own])
    may = Grid.total(reached, grid.cell(rects[:, :2]), grid.cell(rects[:, 2:])) > 0.0
    # Shaved by a billionth: the pieces' lengths carry rounding the whole's does not.
    least = (1.0 - 1e-9) * Grid.total(length, *grid.inside(rects[:, :2], rects[:, 2:]))
    return may, np.where(may, np.maximum(least, 0.0), 0.0)


def cheapest(rects, segs, ties, taken=(), *, decimals: int = 1, extra=None,
             with_cost: bool = False, at_most: float | None = None):
    """Index of the candidate whose cost by length (:func:`costs`), rounded, is least.

    Equal rounded costs go to the least of ``ties``, keys as
    :func:`numpy.lexsort` takes them (the last one first), then to the
    earlier candidate. The same answer as sorting every candidate by its
    cost, without clipping every candidate against every segment: each
    candidate gets a cost it has at least (its overlaps with the labels
    ``taken``, and a length of line it covers for sure), exact for one no
    segment comes near; the candidates are clipped in the order of those
    bounds, and the search stops at the first whose bound cannot beat the
    best found. ``extra`` ``(K,)`` is added to each candidate's cost (what
    the caller scores itself, a label's leader crossing others'); with
    ``with_cost`` the answer is ``(index, rounded cost)``. With ``at_most``
    only candidates costing no more are looked for (none are clipped whose
    bound is higher), and the answer is None when there is none.

    >>> segs = [[(0, 5), (100, 5)]]                    # a horizontal line at y = 5
    >>> rects = [(0, 0, 10, 10), (0, 10, 10, 20), (50, 10, 60, 20)]
    >>> cheapest(rects, segs, (np.array([0.0, 2.0, 1.0]),))
    2
    """
    rects = np.asarray(rects, dtype=np.float64).reshape(-1, 4)
    if not len(rects):
        raise ValueError("no candidate rectangle")
    segs = _as_segments(segs)
    ties = [np.asarray(key) for key in ties]
    # Every candidate costs at least its overlaps with the labels placed
    # before, plus the line it surely covers; exactly that if no line is near.
    extra = np.zeros(len(rects)) if extra is None else np.asarray(extra, np.float64).reshape(-1)
    labels = extra + LABEL_COST * overlaps(rects, taken)
    may, length = _cost_bounds(rects, segs) if len(segs) else (np.zeros(len(rects), bool), 0.0)
    least = np.round(labels + length, decimals)
    order = np.lexsort((np.arange(len(rects)), *ties, least))

    def key(i, cost) -> tuple:
        return (float(cost), *(float(t[i]) for t in reversed(ties)), int(i))

    best = None
    start, size = 0, _FIRST_BATCH
    while start < len(order):
        if best is not None and key(order[start], least[order[start]]) >= best:
            break  # this one and all after it cost at least the best found
        if at_most is not None and least[order[start]] > at_most:
            break  # this one and all after it cost more than wanted
        batch = order[start:start + size]
        cost = least[batch].copy()
        clip = may[batch]
        if clip.any():
            ks = batch[clip]
            cost[clip] = np.round(costs(rects[ks], segs, taken, by_length=True) + extra[ks],
                                  decimals)
        # The batch's least by the same key (lexsort's last key first), then against the best.
        i = int(np.lexsort((batch, *(t[batch] for t in ties), cost))[0])
        if best is None or key(batch[i], cost[i]) < best:
            best = key(batch[i], cost[i])
        start, size = start + len(batch), 4 * size
    if best is None or (at_most is not None and best[0] > at_most):
        return None
    return (best[-1], best[0]) if with_cost else best[-1]
