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

__all__ = ["polyline_segments", "pair_segments", "covered", "overlaps", "costs", "best",
           "LABEL_COST", "OUTSIDE_COST"]

#: Cost of a candidate that overlaps a label placed before it, and of one leaving the view.
LABEL_COST = 1000.0
OUTSIDE_COST = 500.0


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


def _clip(rects: np.ndarray, segs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(K, S)`` whether segment s meets rectangle k, and the fraction of s inside it."""
    a, d = segs[None, :, 0], segs[None, :, 1] - segs[None, :, 0]      # (1, S, 2)
    lo = rects[:, None, :2]                                            # (K, 1, 2)
    hi = rects[:, None, 2:]
    t0 = np.zeros((len(rects), len(segs)))
    t1 = np.ones_like(t0)
    ok = np.ones(t0.shape, dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        for axis in (0, 1):
            da, aa = d[..., axis], a[..., axis]
            flat = da == 0.0
            # A segment parallel to this axis must lie between the two sides.
            ok &= ~flat | ((aa >= lo[..., axis]) & (aa <= hi[..., axis]))
            r_lo = (lo[..., axis] - aa) / da
            r_hi = (hi[..., axis] - aa) / da
            enter = np.where(flat, -np.inf, np.minimum(r_lo, r_hi))
            leave = np.where(flat, np.inf, np.maximum(r_lo, r_hi))
            t0 = np.maximum(t0, enter)
            t1 = np.minimum(t1, leave)
    ok &= t0 <= t1
    return ok, np.where(ok, t1 - t0, 0.0)


def covered(rects, segs, chunk: int = 4096) -> tuple[np.ndarray, np.ndarray]:
    """How many segments each rectangle meets and their length (pixels) inside it.

    Parameters
    ----------
    rects : array_like, shape (K, 4)
        ``(left, top, right, bottom)`` rows.
    segs : array_like, shape (S, 2, 2)
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
    segs = np.asarray(segs, dtype=np.float64).reshape(-1, 2, 2)
    hits = np.zeros(len(rects), dtype=np.int64)
    length = np.zeros(len(rects))
    if not len(segs) or not len(rects):
        return hits, length
    # Only segments whose bounding box meets the candidates' joint box matter.
    smin, smax = segs.min(axis=1), segs.max(axis=1)
    near = ((smax[:, 0] >= rects[:, 0].min()) & (smin[:, 0] <= rects[:, 2].max())
            & (smax[:, 1] >= rects[:, 1].min()) & (smin[:, 1] <= rects[:, 3].max()))
    segs = segs[near]
    norms = np.linalg.norm(segs[:, 1] - segs[:, 0], axis=-1)
    for start in range(0, len(segs), chunk):
        part = slice(start, start + chunk)
        ok, frac = _clip(rects, segs[part])
        hits += ok.sum(axis=1)
        length += frac @ norms[part]
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

    >>> segs = [[(0, 5), (100, 5)]]                    # a horizontal line at y = 5
    >>> best([(0, 0, 10, 10), (0, 10, 10, 20), (0, 20, 10, 30)], segs)
    (1, 0.0)
    """
    cost = costs(rects, segs, taken, view, by_length=by_length)
    if not len(cost):
        raise ValueError("no candidate rectangle")
    i = int(np.argmin(cost))  # argmin takes the first of equals: the preferred one
    return i, float(cost[i])
