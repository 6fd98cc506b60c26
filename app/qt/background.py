"""Run a slow, Qt-free call on a worker thread while the window keeps painting.

:func:`run_off_thread` is for calls the caller must wait for (it returns
their result or raises their exception, as a plain call would) but that
would freeze the window if made on the GUI thread: reading a big glTF file
takes most of a second in its JSON parser. Meanwhile the event loop runs
everything but user input (paints, timers, other threads' signals), so the
window repaints and animations go on, and no click can start a second
action halfway through the first. A busy cursor shows the wait.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from PyQt6 import QtCore, QtGui, QtWidgets

__all__ = ["run_off_thread"]

T = TypeVar("T")


def run_off_thread(fn: Callable[..., T], *args, **kwargs) -> T:
    """``fn(*args, **kwargs)`` on a worker thread; its result, or its exception re-raised.

    Without a QApplication (scripts) the call is made directly.
    """
    app = QtWidgets.QApplication.instance()
    if app is None:
        return fn(*args, **kwargs)
    outcome: dict = {}

    def work() -> None:
        try:
            outcome["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller as is
            outcome["error"] = exc

    worker = threading.Thread(target=work, name="quatlab-read", daemon=True)
    worker.start()
    worker.join(0.02)  # a small file is back before anything needs painting
    if worker.is_alive():
        QtWidgets.QApplication.setOverrideCursor(QtGui.QCursor(QtCore.Qt.CursorShape.WaitCursor))
        try:
            while worker.is_alive():
                app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents, 10)
                worker.join(0.01)
        finally:
            QtWidgets.QApplication.restoreOverrideCursor()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
