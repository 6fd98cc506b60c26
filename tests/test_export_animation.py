"""File > Export animation: the GUI thread only grabs; a worker converts and encodes."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from PyQt6 import QtWidgets

from quatlab.app.io.animation_io import encode_animation
from quatlab.app.qt import export_animation, recorder
from quatlab.app.qt.export_animation import AnimationExport, run_export
from quatlab.app.qt.window import MainWindow


@pytest.fixture
def win(qtbot):
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    qtbot.waitExposed(w)
    for _ in range(4):
        QtWidgets.QApplication.processEvents()
        qtbot.wait(30)  # the side panels fit the width after the first layout
    return w


def test_export_writes_the_sweep_converted_off_the_gui_thread(qtbot, win, tmp_path,
                                                               monkeypatch):
    """The frames are the window at each t of the sweep, turned into arrays on the encoding
    thread only, and the file is what the record command's encoder makes of them."""
    win.state.set_t(0.3)
    converted_on: set[str] = set()
    frames = []

    def watched(image):
        converted_on.add(threading.current_thread().name)
        frames.append(recorder.image_to_rgb(image))
        return frames[-1]

    monkeypatch.setattr(export_animation, "image_to_rgb", watched)
    out = tmp_path / "sweep.gif"
    export = run_export(win, out, duration=0.6, fps=10)
    with qtbot.waitSignal(export.done, timeout=60000):
        pass
    assert export.state == "written", export.message
    assert export.frames_taken == 6
    assert converted_on == {"quatlab-encode"}
    assert win.state.t == pytest.approx(0.3)  # put back
    assert out.read_bytes() == encode_animation(out, frames, fps=10)
    # Each frame is the window at its t (0, 0.2, ... 1), grabbed here the plain way:
    # nearer that grab than any other t's, and the same but for a few pixels. Not
    # every pixel: a plot's callout steps out of the cursor's way by the way the
    # cursor went (rendering/plot_label.py), so a frame and a later grab at one t
    # may word or place it differently (0.3 % of the pixels, the peak's callout).
    win.status.clearMessage()  # the export's "saved" message is not in its frames
    grabs = []
    for t in recorder.sweep_values(0.0, 1.0, 6):
        win.state.set_t(float(t))
        for _ in range(3):
            QtWidgets.QApplication.processEvents()
        grabs.append(recorder.image_to_rgb(win.grab_image()))
    for i, frame in enumerate(frames):
        apart = [float((frame != grab).any(axis=-1).mean()) for grab in grabs]
        assert int(np.argmin(apart)) == i and apart[i] < 0.01, (i, apart)


def test_a_cancelled_export_ends_its_encoding_thread(qtbot, win, tmp_path):
    export = AnimationExport(win, tmp_path / "sweep.gif", duration=3.0, fps=10)
    export.start()
    qtbot.waitUntil(lambda: export.frames_taken >= 2, timeout=60000)
    assert export._thread.is_alive()  # it converts the frames as they come
    export.cancel()
    export._thread.join(timeout=10)
    assert not export._thread.is_alive()
    assert export.state == "cancelled" and list(tmp_path.iterdir()) == []


def test_a_window_resized_while_recording_fails_at_once_and_writes_nothing(qtbot, win,
                                                                          tmp_path):
    export = AnimationExport(win, tmp_path / "sweep.gif", duration=20.0, fps=10)
    export.start()
    qtbot.waitUntil(lambda: export.frames_taken >= 2, timeout=60000)
    with qtbot.waitSignal(export.done, timeout=60000):
        win.resize(1100, 700)  # the next grab has another size
    assert export.state == "failed"
    assert "first frame's shape" in export.message
    assert export.frames_taken < 20  # stopped when the encoder refused, not after 200 frames
    assert list(tmp_path.iterdir()) == []
