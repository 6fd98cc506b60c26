"""The Integration lesson computes on a worker thread: the run it shows, and its state meanwhile.

State, not timing: which thread computed, that the result is the one the
recursions give when called directly (bit for bit), that the model keeps
answering for the run it shows until the new one is back (a playback tick
or a repaint may read it meanwhile), that a refused value changes nothing,
and that the "computing…" note shows while a run is out and goes after.
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from PyQt6 import QtCore

from quatlab.app.model.integrate_lesson import IntegrateModel
from quatlab.math import integrate as I


@pytest.fixture
def view(qtbot):
    from quatlab.app.qt.integrate_view import IntegrateView

    v = IntegrateView(IntegrateModel("first_order_20hz"))
    qtbot.addWidget(v)
    v.resize(1000, 800)
    v.show()
    qtbot.waitExposed(v)
    return v


@pytest.fixture
def slow_integrate(monkeypatch):
    """I.integrate, recording its thread and taking 0.3 s longer (a long run)."""
    threads: list[int] = []
    real = I.integrate

    def slow(*args, **kwargs):
        threads.append(threading.get_ident())
        time.sleep(0.3)
        return real(*args, **kwargs)

    monkeypatch.setattr(I, "integrate", slow)
    return threads, real


def test_a_long_run_is_computed_off_the_gui_thread_and_is_the_recursions_own(
        qtbot, view, slow_integrate):
    threads, real = slow_integrate
    m = view.model
    seen = {}

    def meanwhile():  # a GUI-thread timer while the run is out
        seen.update(busy=view.busy.isVisible(), steps=m.steps, shown=len(m.run.times),
                    at=m.at_param()["integrated"].copy())
        m.set_param(150)  # a playback tick: answered from the run shown

    QtCore.QTimer.singleShot(150, meanwhile)
    view.steps.setValue(10_000)
    assert threads and threads[-1] != threading.get_ident()
    assert seen["busy"] and seen["steps"] == 200 and seen["shown"] == 201
    np.testing.assert_array_equal(seen["at"], real(m.q0, m.omega, m.dt, 200, frame=m.frame,
                                                    step=m.step).quats[200])
    assert not view.busy.isVisible() and m.steps == 10_000
    direct = real(m.q0, m.omega, m.dt, 10_000, frame=m.frame, step=m.step,
                  renormalize=m.renormalize)
    for name in ("times", "quats", "exact", "norm_drift", "angle_error"):
        np.testing.assert_array_equal(getattr(m.run, name), getattr(direct, name))
    matrix = I.accumulate_matrix(m.omega, m.dt, 10_000, frame=m.frame, dtype=m.dtype)
    np.testing.assert_array_equal(m.matrix.matrices, matrix.matrices)
    np.testing.assert_array_equal(m.matrix.angle_error, matrix.angle_error)
    assert m.param == 150  # the tick came after the change was asked for
    assert view.steps.value() == 10_000 and len(m.step_index) == 10_001


def test_a_preset_loads_off_the_gui_thread_and_nothing_changes_before(
        qtbot, view, slow_integrate):
    threads, _real = slow_integrate
    m = view.model
    seen = {}
    QtCore.QTimer.singleShot(150, lambda: seen.update(preset=m.preset, steps=m.steps,
                                                      shown=len(m.run.times)))
    view.preset_box.setCurrentIndex(view.preset_box.findData("exact_world_tumble"))
    assert threads and threads[-1] != threading.get_ident()
    assert seen == {"preset": "first_order_20hz", "steps": 200, "shown": 201}
    assert m.preset == "exact_world_tumble" and len(m.run.times) == m.steps + 1 == 601


def test_a_refused_value_changes_nothing_and_runs_nothing_again(qtbot, view, monkeypatch):
    m = view.model
    calls = []
    real = I.integrate
    monkeypatch.setattr(I, "integrate", lambda *a, **k: calls.append(1) or real(*a, **k))
    view.dt.setValue(1.0)
    before = m.run
    view.steps.setValue(10_000)  # first-order, dt = 1 s: |q| overflows
    assert "overflows" in view.message.text() and view.message.isVisible()
    assert m.run is before and m.steps == 200 and m.dt == 1.0
    assert view.steps.value() == 200
    assert len(calls) == 2  # dt, then the refused steps: no recompute of the old run
