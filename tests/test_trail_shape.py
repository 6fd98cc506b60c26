"""Trails worked out on a worker thread: drawn as if worked out on the GUI thread, never stale.

State, not timing: the thread that built each trail, and the points drawn
against the forward kinematics (:func:`marker_trail`) of the path shown.
"""

from __future__ import annotations

import sys
import threading

import numpy as np
import pytest

from quatlab.app.model.integrate_lesson import IntegrateModel
from quatlab.app.model.track_lesson import TrackModel
from quatlab.math import quaternion as Q
from quatlab.rendering.chain import ROOT, marker_trail
from quatlab.rendering.trail_shape import TrailShaper


def _spin(n: int = 300) -> np.ndarray:
    return Q.from_axis_angle([0.3, 0.2, 1.0], np.linspace(0, 2.5, n))


def _drawn(scene, key: str) -> np.ndarray:
    return scene._chains[key].trail_shape.points


def _at_root(key: str, trail: np.ndarray) -> np.ndarray:
    """``trail`` of a chain on the default root, moved to the SQUAD tab's root for ``key``."""
    from quatlab.app.qt.track_view import ROOTS
    from quatlab.rendering.chain import ROOT

    return trail + (np.asarray(ROOTS[key], dtype=float) - np.asarray(ROOT, dtype=float))


@pytest.fixture
def scene(qtbot):
    from quatlab.rendering.chain_scene import ChainScene

    s = ChainScene()
    qtbot.addWidget(s.widget)
    return s


def test_a_shape_made_for_the_scene_draws_the_path_it_was_made_from(scene):
    path = _spin()
    shape = scene.trail_shaper("a").shape(path)
    scene.set_path("a", path, "#0072B2", shape=shape)
    assert scene._chains["a"].trail_shape is shape  # used, not worked out again
    np.testing.assert_allclose(_drawn(scene, "a"), marker_trail(path), atol=1e-12)
    # The GL item holds the thinned trail and its marks, all on the trail's points.
    pos = scene._chains["a"].trail.pos
    assert pos.dtype == np.float32 and len(pos) == len(shape.vertices) > 0


def test_a_shape_made_for_other_kinematics_or_another_path_is_not_used(scene):
    path = _spin()
    compounding = scene.trail_shaper("a").shape(path)  # made before the switch
    scene.set_root_only(True)
    scene.set_path("a", path, shape=compounding)
    np.testing.assert_allclose(_drawn(scene, "a"), marker_trail(path, root_only=True),
                               atol=1e-12)
    other = scene.trail_shaper("a").shape(path[::-1])
    scene.set_path("a", path, shape=other)
    np.testing.assert_allclose(_drawn(scene, "a"), marker_trail(path, root_only=True),
                               atol=1e-12)
    # A chain moved to a root of its own: a shape made at the old root is stale too.
    stale = scene.trail_shaper("a").shape(path)
    scene.set_chain("a", path[0], root=[1.0, 0.0, 0.5])
    scene.set_path("a", path, shape=stale)
    np.testing.assert_allclose(_drawn(scene, "a"),
                               marker_trail(path, root_only=True) + ([1.0, 0.0, 0.5] - ROOT),
                               atol=1e-12)


def test_a_shaper_keeps_the_kinematics_it_was_made_with(scene):
    shaper = scene.trail_shaper("a")
    scene.set_root_only(True)
    path = _spin(50)
    np.testing.assert_allclose(shaper.shape(path).points, marker_trail(path), atol=1e-12)
    assert shaper == TrailShaper(3, 1.0, False, tuple(ROOT))


def _record_shapes(monkeypatch) -> list[int]:
    threads: list[int] = []
    real = TrailShaper.shape

    def shape(self, path_q):
        threads.append(threading.get_ident())
        return real(self, path_q)

    monkeypatch.setattr(TrailShaper, "shape", shape)
    return threads


def test_an_imported_tracks_trails_are_built_on_the_worker(qtbot, monkeypatch):
    from quatlab.app.qt.track_view import TrackView

    view = TrackView(TrackModel())
    qtbot.addWidget(view)
    threads = _record_shapes(monkeypatch)
    rng = np.random.default_rng(3)
    keys = Q.normalize(rng.normal(size=(60, 4)))
    view.load_track(np.arange(60) / 10, keys, "imported")
    gui = threading.get_ident()
    assert len(threads) == len(TrackModel.SHOWN) and gui not in threads
    for k in TrackModel.SHOWN:
        want = _at_root(k, marker_trail(view.model.track[k].quats))
        np.testing.assert_allclose(_drawn(view.scene, k), want, atol=1e-12)
    # An edit is computed the same way, and shows the edited track's trails.
    threads.clear()
    view.keys.negate(7)
    assert len(threads) == len(TrackModel.SHOWN) and gui not in threads
    for k in TrackModel.SHOWN:
        want = _at_root(k, marker_trail(view.model.track[k].quats))
        np.testing.assert_allclose(_drawn(view.scene, k), want, atol=1e-12)


def test_integration_trails_are_built_on_the_worker_for_the_run_shown(qtbot, monkeypatch):
    from quatlab.app.qt.integrate_view import IntegrateView

    view = IntegrateView(IntegrateModel())
    qtbot.addWidget(view)
    threads = _record_shapes(monkeypatch)
    view.steps.setValue(900)
    assert len(threads) == 2 and threading.get_ident() not in threads
    run = view.model.run
    assert len(run.quats) == 901
    for key, path in (("integrated", run.quats), ("exact", run.exact)):
        np.testing.assert_allclose(_drawn(view.scene, key), marker_trail(path, root_only=True),
                                   atol=1e-12)


def test_a_failed_preparation_leaves_the_view_to_draw_the_trails_itself(qtbot, monkeypatch):
    from quatlab.app.qt.track_view import TrackView

    view = TrackView(TrackModel())
    qtbot.addWidget(view)
    gui = threading.get_ident()
    real = TrailShaper.shape
    drawn_here = []

    def only_here(self, path_q):
        if threading.get_ident() != gui:
            raise RuntimeError("no trail on this thread")
        drawn_here.append(1)
        return real(self, path_q)

    monkeypatch.setattr(TrailShaper, "shape", only_here)
    keys = Q.from_axis_angle([0, 0, 1], np.linspace(0, 3, 12))
    view.load_track(np.arange(12) / 10, keys, "imported")
    assert view.model.name == "imported" and len(view.model.times) == 12
    assert view.runner.prepared(view.model.track) is None
    assert len(drawn_here) == len(TrackModel.SHOWN)
    for k in TrackModel.SHOWN:
        want = _at_root(k, marker_trail(view.model.track[k].quats))
        np.testing.assert_allclose(_drawn(view.scene, k), want, atol=1e-12)


def test_waiting_for_a_worker_restores_the_switch_interval(qtbot):
    from quatlab.app.qt import rig_loader
    from quatlab.app.qt.background import run_off_thread

    # From a settled state: a rig loader of an earlier test that has finished
    # restores the interval only when its finished signal is delivered.
    qtbot.waitUntil(lambda: not rig_loader._RUNNING, timeout=20000)
    before = sys.getswitchinterval()
    assert before > 0.001, before
    seen = []

    def work(fail: bool):
        seen.append(sys.getswitchinterval())
        threading.Event().wait(0.05)  # long enough to wait in the event loop
        if fail:
            raise ValueError("refused")
        return 7

    assert run_off_thread(work, False) == 7
    with pytest.raises(ValueError, match="refused"):
        run_off_thread(work, True)
    assert seen[0] < before and sys.getswitchinterval() == before


def test_a_loader_starting_during_a_wait_and_ending_after_it_restores_the_interval(qtbot):
    """A rig loader that started while run_off_thread waited (a timer of the
    event loop it runs) and ended after it left 1 ms turns behind for the rest
    of the session: each had saved and restored its own interval."""
    from PyQt6 import QtCore

    from quatlab.app.qt import rig_loader
    from quatlab.app.qt.background import fast_switching, normal_switching, run_off_thread

    qtbot.waitUntil(lambda: not rig_loader._RUNNING, timeout=20000)
    before = sys.getswitchinterval()
    started = []

    def loader_starts():  # what RigLoading._start does on the GUI thread
        fast_switching()
        started.append(sys.getswitchinterval())

    QtCore.QTimer.singleShot(5, loader_starts)
    try:
        run_off_thread(lambda: threading.Event().wait(0.2))
        assert started, "the timer did not fire while the read waited"
        assert sys.getswitchinterval() < before  # the loader still runs: 1 ms turns
    finally:
        if started:
            normal_switching()  # the loader is done (and later tests keep their turns)
    assert sys.getswitchinterval() == before
