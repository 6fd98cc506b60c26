"""Sweep the shown tab's parameter and grab the window at each step: the frames of an animation.

Used by ``quatlab record`` and File > Export animation. The frames are plain
``(H, W, 3)`` uint8 arrays, so encoding (:mod:`quatlab.app.io.animation_io`)
knows no Qt.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from PyQt6 import QtGui, QtWidgets

from quatlab.app.i18n import _

__all__ = ["image_to_rgb", "sweep_values", "sweep_frames"]


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


def sweep_frames(window, n_frames: int) -> Iterator[np.ndarray]:
    """Frames of ``window`` while its shown tab's parameter sweeps its whole range.

    Playback is stopped first; the parameter is left at the end of its range.
    Each frame is taken after the window has processed the change, so the 3D
    views have drawn it.
    """
    scrubber = window.current_scrubber()
    if scrubber.playing:
        scrubber.toggle_play()
    lo, hi = scrubber.param.range
    app = QtWidgets.QApplication.instance()
    for value in sweep_values(lo, hi, n_frames):
        scrubber.step(float(value) - scrubber.param.get())
        app.processEvents()
        yield image_to_rgb(window.grab_image())
