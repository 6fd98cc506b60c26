"""Where the S3 projection offers its labels (StereographicView._offer_spots), and its cost."""

from __future__ import annotations

import pytest
from PyQt6 import QtWidgets, sip

from quatlab.app.model.state import LessonState
from quatlab.app.qt import s3_view


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
