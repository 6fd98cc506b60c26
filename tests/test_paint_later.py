"""New curves are set at once and painted after the rest of the view: the final pixels, the order.

State and pixels, not timing: what the plots hold while their paint waits,
what the window shows once it is done, and that the 3D frame came first.
"""

from __future__ import annotations

import numpy as np
import pytest
from PyQt6 import QtGui, QtWidgets

from quatlab.app.model.integrate_lesson import IntegrateModel
from quatlab.app.model.track_lesson import TrackModel
from quatlab.app.qt.paint_later import PaintLater
from quatlab.math import quaternion as Q


def _image(widget_grab: QtGui.QPixmap) -> np.ndarray:
    img = widget_grab.toImage().convertToFormat(QtGui.QImage.Format.Format_RGB888)
    h, w, stride = img.height(), img.width(), img.bytesPerLine()
    return np.frombuffer(img.constBits().asstring(stride * h), np.uint8).reshape(
        h, stride)[:, : 3 * w].reshape(h, w, 3)


def _plots_in_view(view) -> np.ndarray:
    """The plots' area as the view composes it (QWidget.grab skips a widget held back).

    Rendered into a pixmap filled first: what a held widget leaves unpainted
    is that fill, not whatever the new pixmap's memory held (random pixels
    that now and then matched a curve colour).
    """
    pix = QtGui.QPixmap(view.size() * view.devicePixelRatioF())
    pix.setDevicePixelRatio(view.devicePixelRatioF())
    pix.fill(QtGui.QColor("#FF00FF"))
    view.render(pix)
    top_left = view.plots.mapTo(view, view.plots.rect().topLeft())
    size = view.plots.size()
    return _image(pix)[top_left.y(): top_left.y() + size.height(),
                       top_left.x(): top_left.x() + size.width()]


def _has_colour(rgb: np.ndarray, colour: str, tol: int = 12) -> bool:
    c = np.array(QtGui.QColor(colour).getRgb()[:3])
    return bool(np.any(np.all(np.abs(rgb.astype(int) - c) <= tol, axis=-1)))


def _shown(qtbot, view):
    """``view`` on screen, with everything its first change held back painted."""
    qtbot.addWidget(view)
    view.resize(1200, 800)
    view.show()
    qtbot.waitExposed(view)
    qtbot.waitUntil(lambda: not view.plots_paint.held)
    return view


@pytest.fixture
def track_view(qtbot):
    from quatlab.app.qt.track_view import TrackView

    return _shown(qtbot, TrackView(TrackModel()))


def test_a_new_track_is_in_the_plots_at_once_and_on_screen_once_painted(qtbot, track_view):
    from quatlab.app.qt.track_view import COLOURS

    view = track_view
    keys = Q.from_axis_angle([0.2, 0.1, 1.0], np.linspace(0, 5, 40))
    keys[::3] *= -1
    view.load_track(np.arange(40) / 10, keys, "imported")
    # The data are the new track's already: whoever reads the plots sees it.
    shown = view.plots.curve_item("angle", "squad").getOriginalDataset()[0]
    np.testing.assert_array_equal(shown, view.model.track.t)
    assert view.plots_paint.held and not view.plots.updatesEnabled()
    assert not _has_colour(_plots_in_view(view), COLOURS["squad"])  # not painted yet
    qtbot.waitUntil(lambda: not view.plots_paint.held)
    assert view.plots.updatesEnabled()
    composed = _plots_in_view(view)
    assert _has_colour(composed, COLOURS["squad"]) and _has_colour(composed,
                                                                   COLOURS["squad_unaware"])
    # What the window shows there is the plots' own picture of the new curves.
    np.testing.assert_array_equal(composed, _image(view.plots.grab()))


def test_the_plots_are_painted_after_the_3d_frame_of_the_same_change(qtbot, track_view):
    view = track_view
    order: list[str] = []
    view.scene.frameSwapped.connect(lambda: order.append("3d"))
    real = view.plots_paint.release

    def release():
        order.append("plots")
        real()

    view.plots_paint.release = release
    view.keys.negate(1)
    assert view.scene.frame_due and view.plots_paint.held
    qtbot.waitUntil(lambda: not view.plots_paint.held)
    assert order and order[0] == "3d" and "plots" in order


def test_integration_curves_too_are_painted_after_the_rest(qtbot):
    from quatlab.app.qt.integrate_view import COLOURS, IntegrateView

    view = _shown(qtbot, IntegrateView(IntegrateModel()))
    view.steps.setValue(700)
    assert view.plots_paint.held
    assert len(view.plots.curve_item("speed", "q").getOriginalDataset()[0]) == 701
    qtbot.waitUntil(lambda: not view.plots_paint.held)
    composed = _plots_in_view(view)
    assert _has_colour(composed, COLOURS["integrated"])
    np.testing.assert_array_equal(composed, _image(view.plots.grab()))


def test_a_hold_nobody_ends_is_released_and_someone_elses_is_left_alone(qtbot):
    w = QtWidgets.QLabel("plots")
    qtbot.addWidget(w)
    later = PaintLater(w)
    later.hold()  # no changed(): released all the same
    assert not w.updatesEnabled()
    qtbot.waitUntil(lambda: w.updatesEnabled())
    assert not later.held
    w.setUpdatesEnabled(False)  # held by its owner
    later.hold()
    later.changed()
    assert not later.held
    qtbot.wait(2 * PaintLater.LONGEST_MS)
    assert not w.updatesEnabled()  # still the owner's to release


def test_a_scene_holding_its_frames_renders_the_change_when_released(qtbot):
    from quatlab.rendering.chain_scene import ChainScene

    scene = ChainScene()
    qtbot.addWidget(scene.widget)
    scene.widget.resize(320, 240)
    scene.widget.show()
    qtbot.waitUntil(lambda: scene.isExposed() and not scene.frame_due)
    swaps = []
    scene.frameSwapped.connect(lambda: swaps.append(1))
    scene.hold_frames(60_000)
    scene.set_chain("a", Q.from_axis_angle([0, 0, 1], 1.0), "#0072B2")
    assert scene.frame_due and not scene.update_pending  # asked for, not posted
    qtbot.wait(50)
    assert not swaps
    with qtbot.waitSignal(scene.frameSwapped, timeout=5000):
        scene.release_frames()
    assert not scene.frame_due
