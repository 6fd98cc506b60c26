"""The label placement's grid against the pairwise test and a full sort (no Qt view needed).

* :func:`meeting_pairs` finds exactly the pairs of boxes the pairwise test
  finds, in the same order, also for touching, flat, long and NaN boxes;
* :func:`covered` through it gives the same hits and lengths as clipping
  every pair, without ever holding a K x S array: its peak memory for 3,000
  candidates against 20,000 short segments stays under a quarter of the
  60 MB one such array takes (the pairwise test peaked at 120 MB);
* :func:`covered` for a label's spots (columns of rectangles sharing their
  left and right) clips by column, and gives the same hits and lengths, to
  the last bit, as clipping each rectangle on its own;
* :func:`cheapest` picks what sorting every candidate by its rounded cost
  and the ties picks (the rule the plot callouts followed before), while
  clipping only the candidates ranked before a free one.
"""

from __future__ import annotations

import doctest
import importlib
import tracemalloc

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from quatlab.rendering import label_place
from quatlab.rendering.box_grid import Grid, meeting_pairs
from quatlab.rendering.label_place import Segments, cheapest, costs, covered, polyline_segments


def _pairwise(a_lo, a_hi, b_lo, b_hi):
    """The plain test of every pair, as the placement did it before the grid."""
    a_lo, a_hi, b_lo, b_hi = (np.asarray(x, float) for x in (a_lo, a_hi, b_lo, b_hi))
    return np.nonzero((b_hi[None, :, 0] >= a_lo[:, None, 0])
                      & (b_lo[None, :, 0] <= a_hi[:, None, 0])
                      & (b_hi[None, :, 1] >= a_lo[:, None, 1])
                      & (b_lo[None, :, 1] <= a_hi[:, None, 1]))


def _clip_each(rects, segs):
    """Hits and lengths by clipping every rectangle against every segment, one pair at a time
    (Liang-Barsky written out on floats: an oracle independent of the vectorized one)."""
    hits = np.zeros(len(rects), int)
    length = np.zeros(len(rects))
    for k, (left, top, right, bottom) in enumerate(rects):
        for (ax, ay), (bx, by) in segs:
            t0, t1, ok = 0.0, 1.0, True
            for p, q in ((-(bx - ax), ax - left), (bx - ax, right - ax),
                         (-(by - ay), ay - top), (by - ay, bottom - ay)):
                if p == 0.0:
                    ok &= q >= 0.0
                elif p < 0.0:
                    t0 = max(t0, q / p)
                else:
                    t1 = min(t1, q / p)
            if ok and t0 <= t1:
                hits[k] += 1
                length[k] += (t1 - t0) * np.hypot(bx - ax, by - ay)
    return hits, length


def _boxes(rng, n, spread, size, long_share=0.1):
    lo = rng.uniform(0, spread, (n, 2))
    ext = rng.exponential(size, (n, 2))
    ext[rng.random(n) < long_share] *= 30          # a few long ones
    ext[rng.random(n) < 0.1] = 0.0                  # and points
    lo = np.round(lo)                               # shared edges: touching boxes
    return lo, lo + np.round(ext)


def test_doctests():
    for name in ("quatlab.rendering.box_grid", "quatlab.rendering.label_place"):
        result = doctest.testmod(importlib.import_module(name))
        assert result.failed == 0 and result.attempted > 0, name


@pytest.mark.parametrize("n_a, n_b, far", [(3, 4, 0.0), (400, 900, 0.0), (2000, 300, 0.0),
                                            (50, 5000, 0.0), (60, 3000, 0.7)])
def test_meeting_pairs_are_the_pairwise_ones_in_order(rng, n_a, n_b, far):
    a_lo, a_hi = _boxes(rng, n_a, 500, 20)
    b_lo, b_hi = _boxes(rng, n_b, 500, 4)
    # A share of B far from every box of A: the few near ones are tested pairwise.
    moved = rng.random(n_b) < far
    b_lo[moved] += 2000.0
    b_hi[moved] += 2000.0
    b_lo[::37] = np.nan                             # a NaN box meets nothing
    want = _pairwise(a_lo, a_hi, b_lo, b_hi)
    got = meeting_pairs(a_lo, a_hi, b_lo, b_hi)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


@given(st.integers(0, 2**32 - 1), st.integers(1, 300), st.integers(1, 400),
       st.floats(0.0, 50.0), st.floats(0.0, 10.0))
def test_meeting_pairs_property(seed, n_a, n_b, size_a, size_b):
    rng = np.random.default_rng(seed)
    a_lo, a_hi = _boxes(rng, n_a, 200, size_a)
    b_lo, b_hi = _boxes(rng, n_b, 200, size_b)
    want = _pairwise(a_lo, a_hi, b_lo, b_hi)
    got = meeting_pairs(a_lo, a_hi, b_lo, b_hi)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


def test_grid_sums_over_cells_and_cells_wholly_inside(rng):
    lo = rng.uniform(0, 100, (50, 2))
    hi = lo + rng.uniform(1, 30, (50, 2))
    grid = Grid(lo, hi, 4)
    values = rng.uniform(0, 1, int(grid.n.prod()))
    table = grid.table(np.arange(len(values)), values)
    cells = values.reshape(grid.n[1], grid.n[0])
    first, last = grid.inside(lo, hi)
    ex, ey = grid.edges
    for k in range(len(lo)):
        want = cells[first[k, 1]:last[k, 1] + 1, first[k, 0]:last[k, 0] + 1].sum()
        assert Grid.total(table, first[k:k + 1], last[k:k + 1])[0] == pytest.approx(want)
        # Wholly inside the box, and no cell left out that is.
        inside_x = [j for j in range(grid.n[0]) if ex[j] >= lo[k, 0] and ex[j + 1] <= hi[k, 0]]
        inside_y = [j for j in range(grid.n[1]) if ey[j] >= lo[k, 1] and ey[j + 1] <= hi[k, 1]]
        assert list(range(first[k, 0], last[k, 0] + 1)) == inside_x
        assert list(range(first[k, 1], last[k, 1] + 1)) == inside_y


def test_covered_matches_clipping_every_pair(rng):
    # A plot-like scene: dense polylines, a flat line on a cell border, a spike.
    x = np.linspace(0, 340, 700)
    curves = [polyline_segments(np.column_stack([x, 130 + 60 * np.sin(x / 40)])),
              polyline_segments(np.column_stack([x, np.full_like(x, 40.0)])),
              polyline_segments([(170, 260), (171, -500), (172, 260)])]
    segs = np.concatenate(curves)
    corners = np.array([(lx, ty) for ty in np.arange(0, 230, 4.0)
                        for lx in np.linspace(0, 120, 13)])
    rects = np.column_stack([corners, corners + (219, 44)])
    hits, length = covered(rects, segs)
    sample = rng.choice(len(rects), 40, replace=False)
    want_hits, want_length = _clip_each(rects[sample], segs)
    assert np.array_equal(hits[sample], want_hits)
    np.testing.assert_allclose(length[sample], want_length, rtol=1e-9, atol=1e-9)


def test_covered_never_holds_every_pair_at_once(rng):
    """3,000 candidates x 20,000 segments: 60 M pairs, 60 MB as one boolean array.

    The pairwise test peaked at 120 MB here (and at gigabytes for the
    420,000 spots of a stale callout box, 12 s); through the grid, a block of
    candidates at a time, it stays near what the pairs that meet take.
    """
    x = np.linspace(0.0, 900.0, 5001)
    segs = np.concatenate([polyline_segments(np.column_stack([x, y + 20 * np.sin(x / (9 + y))]))
                           for y in (100.0, 250.0, 400.0, 550.0)])
    corners = rng.uniform(0, 700, (3000, 2))
    rects = np.column_stack([corners, corners + (200, 40)])
    found = Segments(segs)
    covered(rects[:10], found)   # warm up
    tracemalloc.start()
    try:
        covered(rects, found)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    pairs = len(rects) * len(segs)
    assert pairs > 5e7
    assert peak < pairs / 4, f"{peak / 1e6:.1f} MB for {pairs / 1e6:.0f} M pairs"


def _column_scene(rng, n_cols, n_rows, n_points, size):
    """A label's spots (lefts x tops, one size) over x-sorted curves, edges and odd segments."""
    lefts = np.round(rng.uniform(0, 200, n_cols))
    tops = np.round(rng.uniform(0, 150, n_rows))
    corners = np.array([(lx, ty) for ty in tops for lx in lefts]).reshape(-1, 2)
    rects = np.column_stack([corners, corners + size])
    parts = []
    if n_points > 1:
        x = np.sort(rng.uniform(-20, 320, n_points))
        parts.append(polyline_segments(np.column_stack([x, rng.uniform(-20, 220, n_points)])))
        # Vertices on the rectangles' edges (a coordinate a rectangle shares), and gaps.
        edge = np.column_stack([rng.choice(rects[:, [0, 2]].ravel(), n_points),
                                rng.choice(rects[:, [1, 3]].ravel(), n_points)])
        edge[rng.random(n_points) < 0.1] = np.nan
        parts.append(polyline_segments(edge[np.argsort(edge[:, 0])]))
    odd = rng.uniform(-20, 320, (8, 2, 2))
    odd[0, 1, 0] = odd[0, 0, 0]                   # vertical
    odd[1, 1, 1] = odd[1, 0, 1]                   # horizontal
    odd[2, 1] = odd[2, 0]                         # a lone point
    odd[3, :, 1] = rects[0, 1]                    # along a top edge
    odd[4, :, 0] = rects[0, 2]                    # along a right edge
    parts.append(odd)
    return rects, np.concatenate(parts)


@given(st.integers(0, 2**32 - 1), st.integers(1, 6), st.integers(8, 40), st.integers(0, 300),
       st.sampled_from([(30.0, 12.0), (219.0, 44.0), (0.0, 5.0)]))
def test_covered_by_columns_is_each_rectangle_clipped_alone(seed, n_cols, n_rows, n_points,
                                                           size):
    rng = np.random.default_rng(seed)
    rects, segs = _column_scene(rng, n_cols, n_rows, n_points, size)
    found = Segments(segs)
    hits, length = covered(rects, found)
    alone = [covered(rect[None], found) for rect in rects]   # one a column: the grid's path
    assert np.array_equal(hits, [h[0] for h, _ in alone])
    assert np.array_equal(length, [v[0] for _, v in alone])   # bit for bit


@given(st.integers(0, 2**32 - 1), st.integers(1, 200), st.integers(1, 12))
def test_the_columns_are_numpys_unique_rows(seed, n_rects, n_sides):
    # A label's spots share a few lefts and rights; -0.0 and 0.0 are one side.
    rng = np.random.default_rng(seed)
    sides = np.round(rng.normal(0, 50, (n_sides, 2)), 1)
    sides[rng.random(n_sides) < 0.2] = 0.0
    rects = np.zeros((n_rects, 4))
    rects[:, [0, 2]] = sides[rng.integers(0, n_sides, n_rects)]
    rects[rng.random(n_rects) < 0.1, 0] *= -1.0
    rects[:, [1, 3]] = rng.uniform(0, 100, (n_rects, 2))
    want, which = np.unique(rects[:, [0, 2]], axis=0, return_inverse=True)
    got, got_which = label_place._columns(rects)
    assert np.array_equal(got, want) and np.array_equal(got_which, which.reshape(-1))


def test_covered_by_columns_matches_clipping_every_pair(rng, monkeypatch):
    rects, segs = _column_scene(rng, 5, 40, 400, (219.0, 44.0))
    monkeypatch.setattr(label_place, "meeting_pairs", None)   # the column path needs no grid
    hits, length = covered(rects, segs)
    want_hits, want_length = _clip_each(rects, segs)
    assert np.array_equal(hits, want_hits)
    np.testing.assert_allclose(length, want_length, rtol=1e-9, atol=1e-9)


def _full_sort(rects, segs, ties, taken):
    """The old rule: every candidate's cost, rounded, then the ties, then the earliest."""
    cost = np.round(costs(rects, segs, taken, by_length=True), 1)
    return int(np.lexsort((np.arange(len(rects)), *ties, cost))[0])


@given(st.integers(0, 2**32 - 1), st.integers(1, 600), st.integers(0, 300), st.integers(0, 3),
       st.booleans())
def test_cheapest_is_the_full_sort(seed, n_rects, n_points, n_taken, crowded):
    rng = np.random.default_rng(seed)
    span = 120.0 if crowded else 400.0
    pts = rng.uniform(0, span, (n_points, 2))
    segs = polyline_segments(pts[np.argsort(pts[:, 0])]) if n_points > 1 else np.empty((0, 2, 2))
    corners = np.round(rng.uniform(0, span, (n_rects, 2)), 1)
    size = rng.uniform(5, 80, 2)
    rects = np.column_stack([corners, corners + size])
    placed = rng.uniform(0, span, (n_taken, 2))
    taken = [tuple(r) for r in np.column_stack([placed, placed + 30.0])]
    ties = (corners[:, 1], np.round(np.abs(corners[:, 0] - span / 2), 1))
    assert cheapest(rects, segs, ties, taken) == _full_sort(rects, segs, ties, taken)


def test_cheapest_clips_only_the_spots_ranked_before_a_free_one(monkeypatch):
    # A plot callout's 1,400 spots over three curves with room above them.
    x = np.linspace(0, 340, 1400)
    segs = np.concatenate([polyline_segments(np.column_stack([x, y + 5 * np.sin(x / 7)]))
                           for y in (150.0, 190.0, 230.0)])
    corners = np.array([(lx, ty) for ty in np.arange(0.0, 223.0, 4.0)
                        for lx in np.linspace(0, 120, 25)])
    rects = np.column_stack([corners, corners + (219, 44)])
    ties = (corners[:, 1], np.round(np.abs(corners[:, 0] - 60), 1))
    clipped = []
    real = label_place.covered
    monkeypatch.setattr(label_place, "covered",
                        lambda r, s: clipped.append(len(np.reshape(r, (-1, 4)))) or real(r, s))
    best = cheapest(rects, segs, ties)
    assert best == _full_sort(rects, segs, ties, ())
    assert sum(clipped[:-1]) < 0.05 * len(rects), clipped   # the last call is the oracle's
