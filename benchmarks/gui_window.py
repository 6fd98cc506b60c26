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
