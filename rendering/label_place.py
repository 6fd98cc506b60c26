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

__all__ = ["Segments", "polyline_segments", "pair_segments", "covered", "overlaps", "costs",
           "best", "LABEL_COST", "OUTSIDE_COST"]

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


def _clip(a: np.ndarray, d: np.ndarray, lo: np.ndarray, hi: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of a segment ``a + f d`` (f in [0, 1]) and a rectangle ``lo``-``hi``, all ``(P, 2)``:
    whether each segment meets its rectangle, and the fraction of it inside."""
    t0 = np.zeros(len(a))
    t1 = np.ones(len(a))
    ok = np.ones(len(a), dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        for axis in (0, 1):
            da, aa = d[:, axis], a[:, axis]
            flat = da == 0.0
            # A segment parallel to this axis must lie between the two sides.
            ok &= ~flat | ((aa >= lo[:, axis]) & (aa <= hi[:, axis]))
            r_lo = (lo[:, axis] - aa) / da
            r_hi = (hi[:, axis] - aa) / da
            t0 = np.maximum(t0, np.where(flat, -np.inf, np.minimum(r_lo, r_hi)))
            t1 = np.minimum(t1, np.where(flat, np.inf, np.maximum(r_lo, r_hi)))
    ok &= t0 <= t1
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
    # Only the pairs whose bounding boxes meet are clipped.
    k, i = np.nonzero((found.hi[None, :, 0] >= rects[:, None, 0])
                      & (found.lo[None, :, 0] <= rects[:, None, 2])
                      & (found.hi[None, :, 1] >= rects[:, None, 1])
                      & (found.lo[None, :, 1] <= rects[:, None, 3]))
    if not len(k):
        return hits, length
    a = found.segs[i, 0]
    ok, frac = _clip(a, found.segs[i, 1] - a, rects[k, :2], rects[k, 2:])
    hits = np.bincount(k, weights=ok, minlength=len(rects)).astype(np.int64)
    length = np.bincount(k, weights=frac * found.norms[i], minlength=len(rects))
    return hits, length


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


def costs(rects, segs, taken=(), view=None, *, by_length: bool = False) -> np.ndarray:
    """``(K,)`` cost of each candidate rectangle (module docstring).

    ``by_length`` weighs the lines covered by their length in pixels (plot
    curves, sampled densely) instead of by the number of segments met (3D
    outlines, a few long segments each).
    """
    rects = np.asarray(rects, dtype=np.float64).reshape(-1, 4)
    hits, length = covered(rects, segs)
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
