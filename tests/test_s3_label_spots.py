"""Where the S3 projection offers its labels (StereographicView._offer_spots), and its cost."""

from __future__ import annotations

import numpy as np
import pytest
from PyQt6 import QtGui, QtWidgets, sip

from quatlab.app.model.state import LessonState
from quatlab.app.qt import s3_stereo, s3_view
from quatlab.rendering import themes
from quatlab.rendering.label_place import Segments, costs, polyline_segments
from quatlab.rendering.labels import _block


@pytest.fixture
def make_view(qtbot):
    views = []

    def make(preset="negated-20", t=0.5):
        state = LessonState.from_preset(preset, t=t)
        view = s3_view.S3View(state)
        views.append(view)
        view.resize(1100, 700)
        view.show()
        qtbot.waitExposed(view)
        return state, view

    yield make
    # As tests/test_s3_view.py: the GL windows go while nothing else paints.
    for view in views:
        view.close()
        sip.delete(view)
    QtWidgets.QApplication.processEvents()


def _offsets(stereo) -> dict:
    return {name: (label.offset, label.priority, label.visible)
            for name, label in stereo.labels.items()}


def test_a_preset_change_places_the_labels_once_and_as_a_fresh_placement_would(make_view,
                                                                              monkeypatch):
    # The change framed the camera and placed every label with the methods'
    # balls still at the last preset's t, then placed them all again at the new t.
    state, view = make_view("negated-20", t=0.3)
    stereo = view.stereo
    calls = []
    offer = stereo._offer_spots
    monkeypatch.setattr(stereo, "_offer_spots", lambda zoom: (calls.append(zoom), offer(zoom)))
    state.load_preset("large-170")
    assert len(calls) == 1
    placed = _offsets(stereo)
    stereo._size_balls()   # again, with nothing changed: the same spots
    assert _offsets(stereo) == placed


def _pixels(stereo):
    """``(w, h, to_px)``: the panel's size and world points (N, 3) -> pixels, from the GL
    view's own matrices as they stand (nothing the panel kept)."""
    view = stereo.view
    w, h = view.widget.width(), view.widget.height()
    m = view.projectionMatrix((0, 0, w, h), (0, 0, w, h)) * view.viewMatrix()
    m = np.array(m.copyDataTo(), float).reshape(4, 4)

    def to_px(points):
        c = np.c_[np.asarray(points, float).reshape(-1, 3), np.ones(len(points))] @ m.T
        ndc = c[:, :2] / c[:, 3:4]
        return np.c_[(ndc[:, 0] + 1) * w / 2, (1 - ndc[:, 1]) * h / 2]
    return w, h, to_px


def _nearest_free_spots(stereo) -> dict:
    """Each plate's offset found the slow, plain way: every spot round its ball scored
    against every segment of every obstacle (no ring, no cache), nearest free one taken,
    plates in the order of the priorities the panel gave them; the home offset where none
    is free. ``{first label's name: offset}``."""
    w, h, to_px = _pixels(stereo)
    segs = Segments(np.concatenate([polyline_segments(to_px(line))
                                    for line in stereo.layer.obstacles if len(line)]))
    to_window = QtGui.QMatrix4x4()
    to_window.viewport(0.0, float(h), float(w), -float(h))
    view = stereo.view
    project = to_window * view.projectionMatrix((0, 0, w, h), (0, 0, w, h)) * view.viewMatrix()
    units = sorted(stereo._plates(project), key=lambda u: -stereo.labels[u[0][0]].priority)
    found, taken = {}, []
    for names, anchor in units:
        box = _block([stereo.labels[n] for n in names])[0]
        radius = max(stereo.ball_px.get(n, 0.0) for n in names) * themes.scale()
        offsets, rects, far = s3_stereo._spots(anchor, box, radius)
        cost = costs(rects, segs, taken, (0.0, 0.0, float(w), float(h)))
        free = [i for i in np.argsort(far, kind="stable") if cost[i] == 0.0]
        if not free:
            found[names[0]] = stereo._home[names[0]][0]
            continue
        found[names[0]] = tuple(offsets[free[0]])
        pad = s3_stereo._SPOT_PAD
        left, top, right, bottom = rects[free[0]]
        taken.append((left + pad, top + pad, right - pad, bottom - pad))
    return found


@pytest.mark.parametrize("preset", ["negated-20", "large-170", "quarter-turn"])
def test_each_label_takes_the_nearest_spot_that_covers_nothing(make_view, preset):
    # The spots are searched a ring at a time, spots off the view or on a plate
    # left out before clipping, the lines drawn projected once per camera: the
    # spot taken is still the one a search of every spot against every line gives.
    state, view = make_view(preset, t=0.0)
    stereo = view.stereo
    for pole in range(stereo.pole_box.count()):
        stereo.pole_box.setCurrentIndex(pole)
        for t in (0.0, 0.37, 1.0):
            state.set_t(t)
            expected = _nearest_free_spots(stereo)
            assert expected
            for name, offset in expected.items():
                assert stereo.labels[name].offset == pytest.approx(offset), (pole, t, name)


def test_the_lines_projected_for_the_labels_follow_a_preset_change(make_view):
    # The lines' segments in pixels are kept between steps of t; a preset change
    # (new paths, a new camera) must project them again.
    state, view = make_view("negated-20", t=0.4)
    stereo = view.stereo
    for k, preset in enumerate(("large-170", "quarter-turn", "negated-20")):
        state.load_preset(preset)
        w, h, to_px = _pixels(stereo)
        fresh = np.concatenate([polyline_segments(to_px(line)) for line in stereo._lines()
                                if len(line)])
        kept = stereo._lines_cache[1]
        assert kept.shape == fresh.shape, preset
        np.testing.assert_allclose(kept, fresh, atol=1e-6, err_msg=preset)
        # ... and a step of t alone reuses them.
        state.set_t(0.5 + 0.1 * k)
        assert stereo._lines_cache[1] is kept, preset
