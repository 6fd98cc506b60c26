"""The callouts' clear-spot test (rendering/clear_spots.py) against segment-by-rectangle
orientation tests (tests/callout_checks.py), box by box."""

from __future__ import annotations

import numpy as np
from callout_checks import segment_hits_rect
from hypothesis import given, settings
from hypothesis import strategies as st
from PyQt6 import QtCore

from quatlab.rendering.clear_spots import Polylines, blocked_spots

_coord = st.integers(-12, 12)
_segment = st.tuples(st.tuples(_coord, _coord), st.tuples(_coord, _coord))


def _oracle(lefts, tops, w, h, segs, grow) -> np.ndarray:
    """Each grown box against each segment: an end inside it, or a side met."""
    out = np.zeros((len(tops), len(lefts)), dtype=bool)
    for i, top in enumerate(tops):
        for j, left in enumerate(lefts):
            rect = QtCore.QRectF(left - grow, top - grow, w + 2 * grow, h + 2 * grow)
            out[i, j] = any(segment_hits_rect(a, b, rect) for a, b in segs)
    return out


@settings(max_examples=300, deadline=None)
@given(segs=st.lists(_segment, min_size=0, max_size=6),
       lefts=st.lists(st.integers(-10, 10), min_size=1, max_size=5, unique=True),
       tops=st.lists(st.integers(-10, 10), min_size=1, max_size=5, unique=True),
       w=st.integers(0, 6), h=st.integers(0, 6), grow=st.sampled_from([0.0, 0.5, 1.0, 2.0]))
def test_a_spot_is_blocked_where_a_segment_meets_its_grown_box(segs, lefts, tops, w, h, grow):
    # Small integer grids: segments touching boxes at an edge or corner, lying
    # along a side, vertical, horizontal and of length 0.
    got = blocked_spots(lefts, tops, w, h, np.array(segs, float).reshape(-1, 2, 2), grow)
    assert got.tolist() == _oracle(lefts, tops, w, h, segs, grow).tolist()


def test_random_curves_agree_with_the_orientation_tests(rng):
    x = np.sort(rng.uniform(0, 300, 120))
    y = 100 + 80 * np.sin(x / 17) + rng.normal(0, 5, x.size)
    segs = np.stack([np.column_stack([x, y])[:-1], np.column_stack([x, y])[1:]], axis=1)
    lefts, tops = rng.uniform(-20, 280, 9), np.arange(0.0, 200.0, 3.0)
    got = blocked_spots(lefts, tops, 41.5, 23.0, segs, 3.7)
    assert got.any() and not got.all()
    assert got.tolist() == _oracle(lefts, tops, 41.5, 23.0, segs, 3.7).tolist()


_polyline = st.lists(st.tuples(st.integers(-12, 12), st.integers(-12, 12)), min_size=1,
                     max_size=8)


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(_polyline, min_size=1, max_size=3), gaps=st.lists(st.booleans(), max_size=8),
       monotone=st.booleans(),
       lefts=st.lists(st.integers(-16, 16), min_size=1, max_size=5, unique=True),
       tops=st.lists(st.integers(-16, 16), min_size=1, max_size=5, unique=True),
       w=st.integers(0, 6), h=st.integers(0, 6), grow=st.sampled_from([0.0, 0.5, 2.0]))
def test_polylines_block_the_spots_their_segments_do(lines, gaps, monotone, lefts, tops, w, h,
                                                      grow):
    # Polylines with gaps (NaN rows), x sorted along each (a plot's curves:
    # ranges and interpolation) or not (segment by segment); lone points between
    # gaps draw nothing.
    arrays = []
    for line in lines:
        p = np.array(sorted(line) if monotone else line, dtype=np.float64)
        for k, gap in enumerate(gaps[:len(p)]):
            if gap:
                p[k] = np.nan
        arrays.append(p)
    polylines = Polylines(arrays)
    segs = polylines.segs
    assert polylines.monotone or not monotone
    got = blocked_spots(lefts, tops, w, h, polylines, grow)
    assert got.tolist() == _oracle(lefts, tops, w, h, segs, grow).tolist()
    assert got.tolist() == blocked_spots(lefts, tops, w, h, segs, grow).tolist()


def test_a_plot_curve_as_polylines_agrees_with_its_segments(rng):
    x = np.linspace(0.0, 600.0, 1001)
    y = 150 + 140 * np.sin(x / 40) + rng.normal(0, 2, x.size)
    y[400:420] = np.nan
    x[700:704] = x[700]                        # a column of samples (min/max downsampling)
    lines = Polylines([np.column_stack([x, y]), np.column_stack([x, 0.5 * y])])
    assert lines.monotone
    lefts, tops = np.linspace(-30, 570, 31), np.arange(-5.0, 300.0, 1.0)
    got = blocked_spots(lefts, tops, 61.5, 24.0, lines, 4.3)
    assert got.any() and not got.all()
    assert got.tolist() == blocked_spots(lefts, tops, 61.5, 24.0, lines.segs, 4.3).tolist()
