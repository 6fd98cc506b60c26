"""Which boxes of one set can meet boxes of another, through a grid of cells (numpy only).

The label placement (:mod:`quatlab.rendering.label_place`) scores every
candidate rectangle of a label against every segment of the curves it should
not cover. Testing every pair is K x S work: 1,400 spots of a plot callout
against 2,000 curve segments is 2.8 million pairs per label, and a view of
any size more. Here the two sets meet in a grid laid over the first set's
joint box, so the work follows the pairs that are near each other:

* :func:`meeting_pairs`: every pair of boxes that meet, exactly as the
  pairwise test finds them and in the same order;
* :class:`Grid`: the cells themselves, for sums over the cells a box
  covers read from a summed-area table, O(1) a box
  (:func:`quatlab.rendering.label_place.cheapest` bounds its costs so).

Boxes are ``lo`` and ``hi`` corners, ``(N, 2)`` each; closed, so boxes that
touch meet.
"""

from __future__ import annotations

import numpy as np

__all__ = ["meeting_pairs", "Grid", "DENSE_PAIRS"]

#: Up to this many pairs the pairwise test runs as is (a grid costs more than it saves),
#: and in blocks of about this many when the grid would not help.
DENSE_PAIRS = 1 << 16
#: Up to this many pairs with the boxes of B near A's joint box, those are tested pairwise:
#: a label's 60 spots against the 2,000 segments round its point took twice as long
#: through the grid.
_DENSE_NEAR = 2 * DENSE_PAIRS
#: Cells a side of a typical box of the first set, when pairing.
_SPLIT_PAIRS = 4.0
#: Most cells a side of a grid.
_MAX_CELLS = 1024


def _as_boxes(lo, hi) -> tuple[np.ndarray, np.ndarray]:
    lo = np.asarray(lo, dtype=np.float64).reshape(-1, 2)
    hi = np.asarray(hi, dtype=np.float64).reshape(-1, 2)
    return lo, hi


def _dense_pairs(a_lo, a_hi, b_lo, b_hi) -> tuple[np.ndarray, np.ndarray]:
    """The pairwise test, a block of A's rows at a time (bounded memory)."""
    rows = max(1, DENSE_PAIRS // max(len(b_lo), 1))
    found_a, found_b = [], []
    for start in range(0, len(a_lo), rows):
        lo, hi = a_lo[start:start + rows], a_hi[start:start + rows]
        ia, ib = np.nonzero((b_hi[None, :, 0] >= lo[:, None, 0])
                            & (b_lo[None, :, 0] <= hi[:, None, 0])
                            & (b_hi[None, :, 1] >= lo[:, None, 1])
                            & (b_lo[None, :, 1] <= hi[:, None, 1]))
        found_a.append(ia + start)
        found_b.append(ib)
    return np.concatenate(found_a), np.concatenate(found_b)


def _gridded(a_lo, a_hi, b_lo, b_hi) -> bool:
    """Whether a grid can hold the boxes: A's finite, none of either set inside out."""
    with np.errstate(invalid="ignore"):
        return bool(np.isfinite(a_lo).all() and np.isfinite(a_hi).all()
                    and (a_hi >= a_lo).all() and not (b_hi < b_lo).any())


class Grid:
    """Cells over the joint box of the boxes ``lo``-``hi``, about ``split`` a side of a median one.

    At most 1,024 cells a side; boxes of no extent get cells of 1.

    >>> g = Grid([(0, 0), (40, 10)], [(20, 10), (60, 20)], split=2)
    >>> g.n.tolist(), g.cell(np.array([(0.0, 0.0), (59.0, 19.0)])).tolist()
    ([7, 5], [[0, 0], [5, 3]])
    """

    def __init__(self, lo, hi, split: float) -> None:
        lo, hi = _as_boxes(lo, hi)
        self.origin = lo.min(axis=0)
        span = hi.max(axis=0) - self.origin
        size = np.maximum(np.median(hi - lo, axis=0) / split, span / _MAX_CELLS)
        self.size = np.where(size > 0.0, size, 1.0)   # flat boxes: one cell across
        self.n = (np.floor(span / self.size)).astype(np.int64) + 1

    def cell(self, v: np.ndarray) -> np.ndarray:
        """Cell column and row of points ``v`` (N, 2), clamped into the grid.

        Monotone in each coordinate, so boxes that meet cover cell ranges
        that meet: the grid never loses a pair.
        """
        c = np.floor((v - self.origin) / self.size)
        return np.clip(c, 0, self.n - 1).astype(np.int64)

    def spread(self, first: np.ndarray, last: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every cell of each box's cell range ``first``-``last``: owner, column, row, cell id."""
        return _spread(first, last, int(self.n[0]))

    def bounds(self, cx: np.ndarray, cy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Corners ``lo``, ``hi`` (N, 2) of cells in columns ``cx`` and rows ``cy``.

        Half open: ``hi`` is the next cell's ``lo`` less one float step, so
        no point lies in two cells (a line along a cell border is in one).
        """
        ex, ey = self.edges
        lo = np.column_stack([ex[cx], ey[cy]])
        hi = np.nextafter(np.column_stack([ex[cx + 1], ey[cy + 1]]), -np.inf)
        return lo, hi

    @property
    def edges(self) -> tuple[np.ndarray, np.ndarray]:
        """The cells' borders along x and along y (``n + 1`` each)."""
        return tuple(self.origin[a] + np.arange(self.n[a] + 1) * self.size[a] for a in (0, 1))

    def inside(self, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """First and last cell (N, 2) wholly inside each box ``lo``-``hi`` (last < first: none)."""
        first = np.column_stack([np.searchsorted(e, lo[:, a], "left")
                                 for a, e in enumerate(self.edges)])
        last = np.column_stack([np.searchsorted(e, hi[:, a], "right") - 2
                                for a, e in enumerate(self.edges)])
        return first, np.minimum(last, self.n - 1)

    def table(self, cid: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """Summed-area table of ``weights`` added into cells ``cid`` (a zero row, column first)."""
        nx, ny = (int(v) for v in self.n)
        out = np.zeros((ny + 1, nx + 1))
        out[1:, 1:] = np.bincount(cid, weights=weights, minlength=nx * ny).reshape(ny, nx)
        return out.cumsum(axis=0).cumsum(axis=1)

    @staticmethod
    def total(table: np.ndarray, first: np.ndarray, last: np.ndarray) -> np.ndarray:
        """Sums over the cells ``first``-``last`` (inclusive; none where last < first)."""
        last = np.maximum(last + 1, first)
        return (table[last[:, 1], last[:, 0]] - table[first[:, 1], last[:, 0]]
                - table[last[:, 1], first[:, 0]] + table[first[:, 1], first[:, 0]])


def _spread(first: np.ndarray, last: np.ndarray, n_x: int
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every cell of each box's cell range ``first``-``last``: owner, column, row, cell id."""
    width = last - first + 1
    per = width[:, 0] * width[:, 1]
    owner = np.repeat(np.arange(len(first)), per)
    k = np.arange(int(per.sum())) - np.repeat(np.cumsum(per) - per, per)
    cx = first[owner, 0] + k % width[owner, 0]
    cy = first[owner, 1] + k // width[owner, 0]
    return owner, cx, cy, cy * n_x + cx


def meeting_pairs(a_lo, a_hi, b_lo, b_hi) -> tuple[np.ndarray, np.ndarray]:
    """Indices ``(ia, ib)`` of every box of A and box of B that meet, ordered by ``ia`` then ``ib``.

    The same pairs, in the same order, as the pairwise test
    ``np.nonzero(meets[ia, ib])``; the boxes of B are filed in the cells
    they cover, and each box of A looks only in its own cells.

    >>> ia, ib = meeting_pairs([(0, 0), (10, 0)], [(2, 2), (12, 2)],
    ...                        [(1, 1), (2, 2), (5, 5)], [(1, 1), (11, 3), (6, 6)])
    >>> ia.tolist(), ib.tolist()
    ([0, 0, 1], [0, 1, 1])
    """
    a_lo, a_hi = _as_boxes(a_lo, a_hi)
    b_lo, b_hi = _as_boxes(b_lo, b_hi)
    empty = np.zeros(0, dtype=np.int64)
    if not len(a_lo) or not len(b_lo):
        return empty, empty
    if len(a_lo) * len(b_lo) <= DENSE_PAIRS or not _gridded(a_lo, a_hi, b_lo, b_hi):
        return _dense_pairs(a_lo, a_hi, b_lo, b_hi)
    # Only B's boxes that meet A's joint box can meet one of A's.
    lo, hi = a_lo.min(axis=0), a_hi.max(axis=0)
    near = np.flatnonzero(np.all((b_hi >= lo) & (b_lo <= hi), axis=1))
    if not len(near):
        return empty, empty
    if len(a_lo) * len(near) <= _DENSE_NEAR:
        ia, ib = _dense_pairs(a_lo, a_hi, b_lo[near], b_hi[near])
        return ia, near[ib]   # near ascends: still ordered by ia, then ib
    grid = Grid(a_lo, a_hi, _SPLIT_PAIRS)
    b_first, b_last = grid.cell(b_lo[near]), grid.cell(b_hi[near])
    a_first, a_last = grid.cell(a_lo), grid.cell(a_hi)
    b_cells = np.prod(b_last - b_first + 1, axis=1).sum()
    a_cells = np.prod(a_last - a_first + 1, axis=1).sum()
    if b_cells + a_cells >= len(a_lo) * len(near):
        return _dense_pairs(a_lo, a_hi, b_lo, b_hi)   # long boxes everywhere: no gain
    # B's boxes filed by cell: members[starts[c]:starts[c] + counts[c]], B's order kept.
    owner, _, _, cid = grid.spread(b_first, b_last)
    members = owner[np.argsort(cid, kind="stable")]
    counts = np.bincount(cid, minlength=int(grid.n[0] * grid.n[1]))
    starts = np.cumsum(counts) - counts
    # Each of A's cells against the B boxes filed there.
    a_own, a_cx, a_cy, a_cid = grid.spread(a_first, a_last)
    many = counts[a_cid]
    if int(many.sum()) >= len(a_lo) * len(near):
        return _dense_pairs(a_lo, a_hi, b_lo, b_hi)
    ia = np.repeat(a_own, many)
    at = (np.arange(int(many.sum())) - np.repeat(np.cumsum(many) - many, many)
          + np.repeat(starts[a_cid], many))
    jb = members[at]
    # Two boxes share every cell of their ranges' overlap: keep the pair in
    # the overlap's first cell only.
    keep = ((np.repeat(a_cx, many) == np.maximum(a_first[ia, 0], b_first[jb, 0]))
            & (np.repeat(a_cy, many) == np.maximum(a_first[ia, 1], b_first[jb, 1])))
    ia, ib = ia[keep], near[jb[keep]]
    meet = np.all((b_hi[ib] >= a_lo[ia]) & (b_lo[ib] <= a_hi[ia]), axis=1)
    ia, ib = ia[meet], ib[meet]
    order = np.argsort(ia * len(b_lo) + ib, kind="stable")
    return ia[order], ib[order]
