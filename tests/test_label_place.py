"""The label placement rule against independent oracles (no Qt view needed).

Hits against the orientation test of :func:`segment_hits_rect`, lengths
inside a rectangle against dense sampling of the segment, and the choice of
candidate by hand-worked cases.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PyQt6 import QtCore
from test_lesson_scene_layout import segment_hits_rect

from quatlab.rendering.label_place import (
    Segments,
    best,
    covered,
    pair_segments,
    polyline_segments,
)


def test_hits_agree_with_the_orientation_test(rng):
    segs = rng.uniform(-20, 120, size=(400, 2, 2))
    segs[:40, 1, 0] = segs[:40, 0, 0]      # vertical ones
    segs[40:80, 1, 1] = segs[40:80, 0, 1]  # horizontal ones
    segs[80:90, 1] = segs[80:90, 0]        # lone points
    rects = [(10.0, 20.0, 60.0, 35.0), (0.0, 0.0, 100.0, 100.0), (50.0, 50.0, 52.0, 90.0)]
    for rect in rects:
        q = QtCore.QRectF(rect[0], rect[1], rect[2] - rect[0], rect[3] - rect[1])
        want = sum(segment_hits_rect(a, b, q) for a, b in segs)
        hits, _ = covered([rect], segs)
        assert hits[0] == want, rect


def test_length_inside_matches_dense_sampling(rng):
    segs = rng.uniform(0, 100, size=(60, 2, 2))
    rect = (20.0, 30.0, 70.0, 55.0)
    f = np.linspace(0.0, 1.0, 20001)[:, None]
    want = 0.0
    for a, b in segs:
        p = a + f * (b - a)
        inside = ((p[:, 0] >= rect[0]) & (p[:, 0] <= rect[2]) & (p[:, 1] >= rect[1])
                  & (p[:, 1] <= rect[3]))
        want += inside.mean() * np.hypot(*(b - a))
    _, length = covered([rect], segs)
    assert length[0] == pytest.approx(want, rel=2e-3)


def test_the_first_free_candidate_wins_else_the_least_covered():
    line = polyline_segments([(0.0, 50.0), (200.0, 50.0)])           # y = 50
    post = polyline_segments([(100.0, 0.0), (100.0, 200.0)])         # x = 100
    segs = np.concatenate([line, post])
    over_line = (10.0, 40.0, 60.0, 60.0)
    free = (10.0, 70.0, 60.0, 90.0)
    later_free = (120.0, 70.0, 170.0, 90.0)
    assert best([over_line, free, later_free], segs) == (1, 0.0)
    # No free one: the one covering the shortest length (20 px of the post vs 50 of the line).
    across_post = (80.0, 100.0, 120.0, 120.0)
    i, cost = best([over_line, across_post], segs, by_length=True)
    assert i == 1 and cost == pytest.approx(20.0, abs=0.01)
    # A candidate on a label placed before loses even to one on a line.
    assert best([free, over_line], segs, taken=[(0.0, 65.0, 70.0, 95.0)])[0] == 1
    # Leaving the view costs more than covering a line.
    assert best([(-30.0, 70.0, 20.0, 90.0), over_line], segs, view=(0, 0, 300, 300))[0] == 1


def test_line_pairs_become_separate_polylines():
    pairs = np.array([[0, 0, 0], [1, 0, 0], [5, 5, 5], [6, 5, 5]], dtype=float)
    out = pair_segments(pairs)
    assert np.isnan(out[2]).all() and np.isnan(out[5]).all()
    assert np.array_equal(out[[0, 1, 3, 4]], pairs)


@given(st.integers(0, 2**32 - 1), st.integers(0, 300), st.integers(1, 3))
def test_segments_plus_more_are_the_segments_of_both(seed, n, more):
    rng = np.random.default_rng(seed)
    a, b = rng.normal(0, 300, (n, 2, 2)), rng.normal(0, 300, (more, 2, 2))
    zero = rng.random(n) < 0.1
    a[zero, 1] = a[zero, 0]   # lone points: segments of length 0
    got, want = Segments(a).plus(b), Segments(np.concatenate([a, b]))
    for name in ("segs", "lo", "hi", "norms"):
        assert np.array_equal(getattr(got, name), getattr(want, name)), name
