"""The shown main window every GUI benchmark measures (needs a display: run under xvfb-run -a)."""

from __future__ import annotations

import os
import sys


def open_window(size: str, *, wait_scene: bool = True):
    """``(app, window)`` shown at ``size`` ("WxH"), or None (with a message) without a display.

    With ``wait_scene`` the events run until the two-key lesson's GL view has
    its context, so the first timed frame is not the context's creation.
    """
    if not os.environ.get("DISPLAY"):
        print("needs a display: run under xvfb-run -a", file=sys.stderr)
        return None
    os.environ.setdefault("QT_QPA_PLATFORM", "xcb")
    from quatlab.app.qt.window import MainWindow, make_app

    w, h = (int(v) for v in size.split("x"))
    app = make_app()
    win = MainWindow()
    win.resize(w, h)
    win.show()
    while wait_scene and not win.lesson.scene.isValid():
        app.processEvents()
    return app, win


def finish_frame(scene, app, swaps: dict) -> None:
    """Let Qt repaint what changed, then wait until ``scene`` has swapped and finished its GL.

    As in the running app: dirty widgets only, the GL view through its own
    posted update. A frame that slipped past the two event passes is waited
    for and timed in full, not counted as a fast one (``swaps["waited"]``
    counts them); the timer only wakes the wait, so a lost frame fails
    instead of hanging. ``swaps["frames"]`` is the caller's count of the
    scene's ``frameSwapped`` signals.
    """
    from OpenGL import GL
    from PyQt6 import QtCore

    dirty, before = scene.update_pending, swaps["frames"]
    app.processEvents()
    app.processEvents()
    if dirty and swaps["frames"] == before:
        swaps["waited"] += 1
        waker = QtCore.QTimer()
        waker.start(100)
        deadline = QtCore.QDeadlineTimer(5000)
        while swaps["frames"] == before:
            if deadline.hasExpired():
                raise RuntimeError("the 3D view was dirty but swapped no frame in 5 s")
            app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
        waker.stop()
    scene.makeCurrent()
    GL.glFinish()
