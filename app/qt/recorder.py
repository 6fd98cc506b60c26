"""Sweep the shown tab's parameter and grab the window at each step: the frames of an animation.

Used by ``quatlab record`` and File > Export animation. The grabs are
QImages (taking them is Qt's, on the GUI thread); :func:`image_to_rgb` makes
them the plain ``(H, W, 3)`` uint8 arrays that encoding
(:mod:`quatlab.app.io.animation_io`) takes, so it knows no Qt. QImage is
reentrant: the export converts on its encoding thread.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import _

__all__ = ["image_to_rgb", "sweep_values", "sweep_frames", "sweep_steps", "warm_up_steps",
           "stage_of"]


def image_to_rgb(image: QtGui.QImage) -> np.ndarray:
    """A QImage as an ``(H, W, 3)`` uint8 RGB array (a copy)."""
    rgb = image.convertToFormat(QtGui.QImage.Format.Format_RGB888)
    ptr = rgb.constBits()
    ptr.setsize(rgb.sizeInBytes())
    rows = np.frombuffer(bytes(ptr), np.uint8).reshape(rgb.height(), rgb.bytesPerLine())
    return rows[:, : rgb.width() * 3].reshape(rgb.height(), rgb.width(), 3).copy()


def sweep_values(lo: float, hi: float, n_frames: int) -> np.ndarray:
    """``n_frames`` parameter values from ``lo`` to ``hi``, both ends included.

    >>> sweep_values(0.0, 1.0, 5).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    """
    if n_frames < 2:
        raise ValueError(_("an animation needs at least 2 frames, got {n}").format(n=n_frames))
    return lo + (hi - lo) * np.arange(n_frames) / (n_frames - 1)


def warm_up_steps(window) -> Iterator[None]:
    """Grabs whose images are dropped, one per step: the first grab's set-up, spread out.

    The first grab of a 3D view in a process makes its offscreen framebuffer
    and the painter state for its labels, and the first grab of the window's
    widgets fills caches too: taken in one go with the first frame it froze
    the window for 105-220 ms. And a grab first lays out every widget not
    shown yet, the other tabs' plots and toolbars included: 40-60 ms for
    the whole window at once. So each 3D view inside ``window`` renders one
    offscreen frame, each tab page not shown is grabbed alone, then the
    window; a step yields ``None`` after each, so the caller can return to
    the event loop between them.
    """
    from quatlab.rendering.gl_view import GLWindowView

    for view in QtGui.QGuiApplication.allWindows():
        box = getattr(view, "widget", None)
        if isinstance(view, GLWindowView) and box.isVisible() and window.isAncestorOf(box):
            view.grabFramebuffer()
            yield None
    for tabs in window.findChildren(QtWidgets.QTabWidget):
        for page in map(tabs.widget, range(tabs.count())):
            if page is not tabs.currentWidget():
                page.grab()
                yield None
    window.grab()
    yield None


def stage_of(view: QtWidgets.QWidget) -> QtWidgets.QWidget:
    """The part of a tab's view that shows the lesson: its 3D scene and plots.

    A lesson view names it ``stage`` (:func:`~quatlab.app.qt.lesson_panel.scene_over_plots`);
    a view without one is all stage.
    """
    stage = getattr(view, "stage", None)
    return stage if isinstance(stage, QtWidgets.QWidget) else view


def _fitted(image: QtGui.QImage, size: QtCore.QSize | None) -> QtGui.QImage:
    """``image`` cut or padded (at the right and bottom) to ``size``: frames of one shape."""
    if size is None or image.size() == size:
        return image
    return image.copy(QtCore.QRect(QtCore.QPoint(0, 0), size))


def sweep_steps(window, n_frames: int,
                region: QtWidgets.QWidget | None = None) -> Iterator[QtGui.QImage | None]:
    """The sweep in steps: ``None`` after each change of the parameter, then its grab.

    Between the two the caller lets the window process the change (the 3D
    views draw it): :func:`sweep_frames` runs the events itself, File > Export
    animation returns to the event loop, so no step blocks the window long.
    The grabs are QImages (see :func:`image_to_rgb`) of the whole window, or
    of ``region`` only (a widget inside it, GL views included; each of the
    first grab's size). Playback is stopped first; the parameter is left at
    the end of its range.
    """
    from quatlab.rendering.gl_view import grab_widget

    scrubber = window.current_scrubber()
    if scrubber.playing:
        scrubber.toggle_play()
    lo, hi = scrubber.param.range
    size = None
    for value in sweep_values(lo, hi, n_frames):
        scrubber.step(float(value) - scrubber.param.get())
        yield None
        if region is None:
            # The whole window keeps its size, or the encoder refuses the frame
            # (a window resized while recording fails at once).
            image = window.grab_image()
        else:
            # A region whose layout moved by a pixel (a wrapped explanation
            # above it) must not end the animation: it takes the first's size.
            image = _fitted(grab_widget(region), size)
        size = image.size()
        yield image


def sweep_frames(window, n_frames: int,
                 region: QtWidgets.QWidget | None = None) -> Iterator[np.ndarray]:
    """Frames of ``window`` (or of its part ``region``) while its shown tab's
    parameter sweeps its whole range.

    Each frame is taken after the window has processed the change, so the 3D
    views have drawn it (see :func:`sweep_steps`).
    """
    app = QtWidgets.QApplication.instance()
    for frame in sweep_steps(window, n_frames, region):
        if frame is None:
            app.processEvents()
        else:
            yield image_to_rgb(frame)
