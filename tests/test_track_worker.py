"""The SQUAD lesson computes an imported track on a worker thread: the track, the state meanwhile.

State, not timing: the thread that computed, a track identical to
compute_track called directly, and a model that keeps answering for the
track it shows until the new one is back.
"""

from __future__ import annotations

import threading
import time

import numpy as np
from PyQt6 import QtCore

from quatlab.app.model.track_lesson import TrackModel
from quatlab.math import quaternion as Q
from quatlab.math import track as T


def test_an_imported_track_is_computed_off_the_gui_thread(qtbot, monkeypatch):
    from quatlab.app.qt.track_view import TrackView

    view = TrackView(TrackModel())
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    m = view.model
    threads = []
    real = T.compute_track

    def slow(*args, **kwargs):
        threads.append(threading.get_ident())
        time.sleep(0.3)
        return real(*args, **kwargs)

    monkeypatch.setattr(T, "compute_track", slow)
    rng = np.random.default_rng(5)
    keys = Q.normalize(rng.normal(size=(200, 4)))
    times = np.arange(200) / 10
    shown_keys, seen = len(m.times), {}
    QtCore.QTimer.singleShot(150, lambda: seen.update(
        keys=len(m.times), track=len(m.track.times), at=sorted(m.at_param())))
    view.load_track(times, keys, "imported")
    assert threads and threads[-1] != threading.get_ident()
    assert seen == {"keys": shown_keys, "track": shown_keys, "at": sorted(m.SHOWN)}
    direct = real(times, keys, samples=m.MAX_SAMPLES + 1, tangents="uniform")
    np.testing.assert_array_equal(m.track.t, direct.t)
    for name in m.SHOWN:
        np.testing.assert_array_equal(m.track[name].quats, direct[name].quats)
        np.testing.assert_array_equal(m.track[name].speed_deg, direct[name].speed_deg)
    assert m.name == "imported" and len(m.times) == 200
    assert view.keys.keys.rowCount() == 200


def _threads_calling(monkeypatch, module, name: str) -> list[int]:
    """The threads that call ``module.name`` from now on, in order."""
    threads: list[int] = []
    real = getattr(module, name)

    def recorded(*args, **kwargs):
        threads.append(threading.get_ident())
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, recorded)
    return threads


def test_the_poses_at_the_new_slider_time_come_from_the_worker_too(qtbot, monkeypatch):
    from quatlab.app.qt.track_view import TrackView

    view = TrackView(TrackModel())
    qtbot.addWidget(view)
    m = view.model
    real = T.evaluate
    threads = _threads_calling(monkeypatch, T, "evaluate")
    rng = np.random.default_rng(11)
    keys = Q.normalize(rng.normal(size=(30, 4)))
    times = np.cumsum(rng.uniform(0.05, 0.3, size=30))
    view.load_track(times, keys, "imported")
    gui = threading.get_ident()
    assert threads and gui not in threads  # the chains were posed from the worker's poses
    assert m.param == (times[0] + times[-1]) / 2

    def check(param):
        got = m.at_param()
        for name in m.SHOWN:
            method, signs = ("squad", "unaware_controls") if name == "squad_unaware" else (
                name, "aware")
            whole = real(m.times, m.keys, [param], method, signs=signs,
                         tangents="uniform").quats[0]
            # The same rotation as evaluated on the whole track (up to the sign).
            assert abs(float(np.dot(got[name], whole))) > 1 - 1e-9, name

    check(m.param)
    threads.clear()
    m.set_param(times[3] + 0.01)  # a new time: worked out here, at that time
    assert threads and set(threads) == {gui}
    check(m.param)
    # An edit keeps the slider time: the worker poses the chains there.
    threads.clear()
    view.keys.negate(4)
    assert threads and gui not in threads
    check(m.param)
