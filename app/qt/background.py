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

import sys
import threading
from collections.abc import Callable
from typing import TypeVar

from PyQt6 import QtCore, QtGui, QtWidgets

__all__ = ["run_off_thread", "PreparingRunner", "fast_switching", "normal_switching"]

T = TypeVar("T")


#: The interpreter's thread switch interval (s) while the GUI thread waits for a worker.
_SWITCH_INTERVAL = 0.001
#: How many workers want 1 ms turns now, and the interval from before the first.
_FAST = {"users": 0, "normal": None}


def fast_switching() -> None:
    """1 ms GIL turns while a worker busy in Python runs (see run_off_thread); GUI thread only.

    Counted: every call is paired with one :func:`normal_switching`, and the
    interval from before the first comes back after the last. Each user
    saving and restoring its own left 1 ms behind when a rig loader started
    while a read was waiting and ended after it.
    """
    if _FAST["users"] == 0:
        _FAST["normal"] = sys.getswitchinterval()
        sys.setswitchinterval(min(_FAST["normal"], _SWITCH_INTERVAL))
    _FAST["users"] += 1


def normal_switching() -> None:
    """The end of one :func:`fast_switching`; the last one restores the interval."""
    if _FAST["users"] <= 0:
        return
    _FAST["users"] -= 1
    if _FAST["users"] == 0:
        sys.setswitchinterval(_FAST["normal"])


def _wait_painting(app, done: threading.Event) -> None:
    """Run the event loop (all but user input) until ``done`` is set, with a busy cursor."""
    QtWidgets.QApplication.setOverrideCursor(QtGui.QCursor(QtCore.Qt.CursorShape.WaitCursor))
    flags = (QtCore.QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents
             | QtCore.QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
    try:
        while not done.is_set():
            # Sleeps until an event, a timer or the worker's wake-up: the
            # result is taken as soon as it is there, not at the next poll
            # (a 10 ms poll added its wait to the block that follows).
            app.processEvents(flags)
            # Input held back by ExcludeUserInputEvents can wake the loop
            # again and again; a millisecond's rest keeps that from spinning.
            done.wait(0.001)
    finally:
        QtWidgets.QApplication.restoreOverrideCursor()


def run_off_thread(fn: Callable[..., T], *args, **kwargs) -> T:
    """``fn(*args, **kwargs)`` on a worker thread; its result, or its exception re-raised.

    Without a QApplication (scripts) the call is made directly.
    """
    app = QtWidgets.QApplication.instance()
    if app is None:
        return fn(*args, **kwargs)
    outcome: dict = {}
    done = threading.Event()
    dispatcher = QtCore.QAbstractEventDispatcher.instance()  # the GUI thread's

    def work() -> None:
        try:
            outcome["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller as is
            outcome["error"] = exc
        finally:
            done.set()
            if dispatcher is not None:
                dispatcher.wakeUp()  # thread-safe: the wait below returns at once

    worker = threading.Thread(target=work, name="quatlab-read", daemon=True)
    # Every Python callback of the event loop (a timer, a paint) must take the
    # GIL from a worker busy in Python; by default that waits up to 5 ms a
    # time, so a few callbacks in a row froze the window for tens of ms while
    # the worker ran. 1 ms while waiting here: the worker loses little.
    fast_switching()
    try:
        worker.start()
        if not done.wait(0.02):  # a small file is back before anything needs painting
            _wait_painting(app, done)
        worker.join()
    finally:
        normal_switching()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


class PreparingRunner:
    """A lesson model's ``runner`` that also prepares the view's drawing on the worker thread.

    A lesson model computes through ``runner(fn, options)`` (see
    :class:`quatlab.app.model.lesson_base.LessonModel`'s subclasses). This
    runner calls ``fn(options)`` on a worker thread (:func:`run_off_thread`)
    and, on the same thread, ``prepare(result)``: the view's own work on the
    new result that needs no GUI object (the 3D trails of 10,000 samples take
    longer than the curves). ``preparer()`` is called on the GUI thread just
    before and returns that ``prepare``, so it can capture what it reads of
    the widgets (the scene's kinematics) while they cannot change under it.
    :meth:`prepared` hands the view what was prepared for the result it is
    about to show, or None (a result computed some other way, or a
    ``prepare`` that failed: the view then does the work itself, as before).
    ``key(result)`` is the object the view asks about (default: the result
    itself; a model that unpacks a tuple keeps one of its items).
    """

    def __init__(self, preparer: Callable[[], Callable],
                 key: Callable[[object], object] = lambda result: result) -> None:
        self._preparer = preparer
        self._key = key
        self._last: tuple | None = None

    def __call__(self, fn: Callable[[T], object], options: T):
        prepare = self._preparer()

        def work():
            result = fn(options)
            try:
                extra = prepare(result)
            except Exception:  # noqa: BLE001 - the view works it out itself, as it used to
                extra = None
            return result, extra

        result, extra = run_off_thread(work)
        self._last = (self._key(result), extra)
        return result

    def prepared(self, shown):
        """What ``prepare`` made of the result whose key is ``shown`` (the very object), or None."""
        last = self._last
        return last[1] if last is not None and last[0] is shown else None
