"""Hostile input through the window: every failure is a message, never a traceback or a hang.

Each test here reproduces a defect the random GUI test (tests/test_gui_fuzz.py)
or a hostile file found, through the path a user takes (a file dialog's
result, a drop, a spin box), and checks that the user is told and that the
previous valid state stays.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time

import pytest
from PyQt6 import QtCore, QtGui

import quatlab.app.qt.window as window_module
from quatlab.app.model.state import LessonState
from quatlab.app.qt.window import MainWindow


def _snapshot(state: LessonState):
    return (state.entered(0).tolist(), state.entered(1).tolist(), state.t, state.preset)


@pytest.fixture
def window(qtbot, monkeypatch):
    monkeypatch.setattr(window_module, "_view_modules", lambda: [])
    win = MainWindow(LessonState.from_preset("negated-20", t=0.5))
    qtbot.addWidget(win)
    return win


# --------------------------------------------------------------------------- sessions


@pytest.mark.parametrize("t", [[0.1, 0.2], 10**400])
def test_session_with_a_bad_t_is_a_message(window, tmp_path, warnings_shown, t):
    data = LessonState.from_preset("half-turn").to_session()
    data["t"] = t
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    before = _snapshot(window.state)
    window.open_session(str(path))            # raised TypeError / OverflowError before
    assert len(warnings_shown) == 1
    title, text = warnings_shown[0]
    assert "odd.json" in title and "t" in text.split()[1]
    assert _snapshot(window.state) == before


def test_deeply_nested_session_is_a_message(window, tmp_path, warnings_shown):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    before = _snapshot(window.state)
    window.open_session(str(path))            # RecursionError escaped before
    assert len(warnings_shown) == 1
    assert "deep.json" in warnings_shown[0][0]
    assert _snapshot(window.state) == before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_session_that_is_a_fifo_is_refused_without_blocking(window, tmp_path, warnings_shown):
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    good = json.dumps(LessonState.from_preset("half-turn").to_session()).encode()
    stop = time.monotonic() + 3.0

    def writer():
        # Before the fix the window opened the FIFO and waited for a writer:
        # this one comes after a while with a valid session, which the old
        # code then applied without a word.
        while time.monotonic() < stop:
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                time.sleep(0.05)
                continue
            time.sleep(0.5)
            os.write(fd, good)
            os.close(fd)
            return

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    before = _snapshot(window.state)
    window.open_session(str(path))
    thread.join()
    assert len(warnings_shown) == 1
    assert "regular file" in warnings_shown[0][1]
    assert _snapshot(window.state) == before


# --------------------------------------------------------------------------- keyframe drops


def _drop(qtbot, win: MainWindow, path) -> None:
    mime = QtCore.QMimeData()
    mime.setUrls([QtCore.QUrl.fromLocalFile(str(path))])
    pos = QtCore.QPointF(win.rect().center())
    event = QtGui.QDropEvent(pos, QtCore.Qt.DropAction.CopyAction, mime,
                             QtCore.Qt.MouseButton.LeftButton,
                             QtCore.Qt.KeyboardModifier.NoModifier)
    win.dropEvent(event)
    qtbot.wait(20)                            # the drop opens the file after it returns


@pytest.fixture
def keyframes_window(qtbot, monkeypatch):
    from quatlab.app.qt import keyframes_view, track_view

    monkeypatch.setattr(window_module, "_view_modules", lambda: [keyframes_view, track_view])
    win = MainWindow(LessonState.from_preset("negated-20", t=0.5))
    qtbot.addWidget(win)
    return win


def test_dropped_track_with_a_huge_integer_is_a_message(qtbot, keyframes_window, tmp_path,
                                                        warnings_shown):
    path = tmp_path / "huge.json"
    path.write_text('{"order": "wxyz", "times": [0, 1], "values": [[1, 0, 0, 0], [1, 0, 0, '
                    + "9" * 400 + "]]}", encoding="utf-8")
    errors = []
    old_hook = sys.excepthook
    sys.excepthook = lambda *exc: errors.append(exc)
    try:
        _drop(qtbot, keyframes_window, path)
    finally:
        sys.excepthook = old_hook
    assert errors == []
    assert len(warnings_shown) == 1
    title, text = warnings_shown[0]
    assert "huge.json" in title and text


def test_open_keyframes_failure_of_any_kind_is_a_message(keyframes_window, tmp_path,
                                                         warnings_shown, monkeypatch):
    view = keyframes_window.views["keyframes"]

    def broken(path, order=None):
        raise RuntimeError("reader bug")

    monkeypatch.setattr(view, "open", broken)
    assert keyframes_window._open_keyframes_reporting(str(tmp_path / "x.gltf")) is False
    assert warnings_shown == [("Could not open x.gltf", "RuntimeError: reader bug")]

