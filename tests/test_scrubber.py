"""The generic Scrubber: any Parameter, every playback mode, whole steps, no feedback loops."""

from __future__ import annotations

import pytest

from quatlab.app.model.state import Events
from quatlab.app.qt.scrubber import BASE_DURATION, BoundParameter, Scrubber, ValueParameter


class Model:
    """A Qt-free stand-in for a lesson model: param over [lo, hi], a "param" event."""

    def __init__(self, lo=-2.0, hi=6.0, value=0.0):
        self.events, self.param_range, self.param = Events(), (lo, hi), value
        self.sets = []

    def set_param(self, value):
        self.sets.append(value)
        lo, hi = self.param_range
        value = min(max(float(value), lo), hi)
        if value != self.param:
            self.param = value
            self.events.emit("param")


def make(qtbot, model, decimals=3, **kw):
    param = BoundParameter(lambda: model.param, model.set_param, lambda: model.param_range,
                           model.events, "param", name="x", decimals=decimals, **kw)
    sc = Scrubber(param)
    qtbot.addWidget(sc)
    return sc


@pytest.fixture
def model():
    return Model()


def test_model_to_widget_and_back(qtbot, model):
    sc = make(qtbot, model, suffix="s")
    assert sc.slider.objectName() == "x_slider" and sc.spin.objectName() == "x_spin"
    assert (sc.spin.minimum(), sc.spin.maximum()) == (-2.0, 6.0) and sc.spin.suffix() == " s"
    assert sc.slider.value() == 250  # 0 is a quarter of the way through [-2, 6]
    model.set_param(4.0)
    assert sc.slider.value() == 750 and sc.spin.value() == 4.0
    n = len(model.sets)
    assert n == 1  # showing the model's value wrote nothing back
    sc.slider.setValue(500)
    assert model.param == 2.0 and sc.spin.value() == 2.0
    sc.spin.setValue(-1.5)
    assert model.param == -1.5 and sc.slider.value() == round(0.5 / 8 * 1000)
    # one write per user edit: the refresh each one triggers is silent
    assert len(model.sets) == n + 2
    sc.step(100.0)
    assert model.param == 6.0  # clamped to the range


def test_range_changes_are_followed(qtbot, model):
    sc = make(qtbot, model)
    model.param_range = (0.0, 100.0)
    model.set_param(50.0)
    assert sc.spin.maximum() == 100.0 and sc.slider.value() == 500


# ``seconds`` in units of BASE_DURATION / 2: each moves 4, half the [-2, 6] range.
@pytest.mark.parametrize("mode, seconds, expected, direction", [
    ("once", 0.5, 2.0, 1),        # 0 + 2
    ("once", 5.0, 6.0, 1),        # stops at the end
    ("loop", 2.5, 2.0, 1),        # 0 + 10 wraps to -2 + (12 mod 8)
    ("ping-pong", 2.5, 2.0, -1),  # 0 + 10 bounces off 6 back to 2
])
def test_advance_in_each_mode(qtbot, model, mode, seconds, expected, direction):
    sc = make(qtbot, model)
    sc.mode.setCurrentText(mode)
    sc.advance(seconds * BASE_DURATION / 2)
    assert model.param == pytest.approx(expected)
    assert sc._direction == direction


def test_once_stops_and_restarts_from_the_start(qtbot, model):
    sc = make(qtbot, model)
    sc.mode.setCurrentText("once")
    sc.play_button.setChecked(True)
    assert sc.playing
    sc.advance(10.0)
    assert model.param == 6.0 and not sc.playing
    sc.toggle_play()
    assert model.param == -2.0 and sc.playing
    sc.toggle_play()


def test_ping_pong_bounces_off_the_start_too(qtbot, model):
    sc = make(qtbot, model)
    unit = BASE_DURATION / 8  # moves 1 of the 8-wide range at 1x
    sc.advance(11 * unit)  # 0 + 11 bounces off 6 back to 1
    assert model.param == pytest.approx(1.0) and sc._direction == -1
    sc.advance(4 * unit)   # 1 - 4 bounces off -2 back to -1
    assert model.param == pytest.approx(-1.0) and sc._direction == 1


def test_speed_scales_playback(qtbot, model):
    sc = make(qtbot, model)
    sc.mode.setCurrentText("loop")
    sc.speed.setValue(0.5)
    # 1x sweeps the whole range in BASE_DURATION; 0.5x in twice that
    sc.advance(BASE_DURATION / 4)
    assert model.param == pytest.approx(1.0)


def test_whole_step_parameters_stay_integers_even_slowly(qtbot):
    model = Model(lo=0.0, hi=40.0, value=10.0)
    sc = make(qtbot, model, decimals=0)
    assert sc.spin.singleStep() == 1 and sc.spin.decimals() == 0
    sc.mode.setCurrentText("loop")
    sc.speed.setValue(0.1)
    # 0.1x over 40 steps is 4 / BASE_DURATION steps a second: well under one
    # step a 50 ms tick, so no tick alone moves it a whole step
    per_second = 0.1 * 40.0 / BASE_DURATION
    assert per_second * 0.05 < 1
    for _ in range(round(10 / per_second / 0.05)):  # 10 steps' worth of ticks
        sc.advance(0.05)
    assert all(float(v).is_integer() for v in model.sets)
    assert model.param == 20.0  # the dropped fractions were kept, not lost
    sc.slider.setValue(333)
    assert model.param == 13.0
    # a value set from outside takes the playhead with it
    model.set_param(30.0)
    sc.advance(1.0 / per_second)
    assert model.param == 31.0


def test_value_parameter_shows_without_reporting(qtbot):
    got = []
    sc = Scrubber(ValueParameter(got.append, name="w", decimals=2), playback=False)
    qtbot.addWidget(sc)
    sc.show()
    assert not sc.play_button.isVisible() and not sc.mode.isVisible()
    sc.set_value(0.3)
    assert got == [] and sc.slider.value() == 300 and sc.spin.value() == 0.3
    sc.slider.setValue(600)
    assert got == [0.6]


def test_lesson_tab_play_button_advances_its_parameter(qtbot):
    from quatlab.app.model.integrate_lesson import IntegrateModel
    from quatlab.app.qt.integrate_view import IntegrateView

    view = IntegrateView(IntegrateModel("first_order_20hz"))
    qtbot.addWidget(view)
    m, sc = view.model, view.slider
    assert isinstance(sc, Scrubber) and sc.slider.objectName() == "param_slider"
    m.set_param(0)
    sc.mode.setCurrentText("once")
    sc.play_button.click()
    assert sc.playing
    qtbot.waitUntil(lambda: m.param >= 2, timeout=3000)
    sc.play_button.click()
    assert not sc.playing and float(m.param).is_integer()
    assert sc.spin.value() == m.param


def test_a_range_finer_than_the_decimals_is_set_once(qtbot):
    # The spin box rounds its range to its decimals (1/3 -> 0.333): compared
    # with the box, the range looked changed at every value and was re-set,
    # re-measuring the box and re-laying out the view around it each time.
    model = Model(lo=0.0, hi=1.0 / 3.0)
    sc = make(qtbot, model, suffix="s")
    calls = []
    for name in ("setRange", "setSuffix", "setSingleStep"):
        original = getattr(sc.spin, name)
        setattr(sc.spin, name, lambda *a, _o=original, _n=name: (calls.append(_n), _o(*a)))
    for k in range(1, 6):
        model.set_param(k / 20)
    assert sc.spin.value() == pytest.approx(0.25) and calls == []
    model.param_range = (0.0, 0.5)
    model.set_param(0.4)
    assert "setRange" in calls and sc.spin.maximum() == 0.5  # a real change is still followed
