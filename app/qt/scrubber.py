"""Scrubber: slider, spin box, play/pause, once/loop/ping-pong and speed for any parameter.

The widget drives a :class:`Parameter`, a small Qt-free adapter (``get()``,
``set(value)``, ``range``, ``connect(fn)`` for its change event, and how to
show it), so the two-key lesson's t, the S3 tab's t and every lesson model's
parameter share one set of controls. It writes through the adapter and
follows the adapter's event, so the slider, the spin box, the plots' cursor
and the keyboard all stay in step.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Protocol

from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import N_, _
from quatlab.app.model.state import Events, LessonState
from quatlab.rendering import themes
from quatlab.rendering.contrast import readable

__all__ = ["Scrubber", "Parameter", "BoundParameter", "ValueParameter", "t_parameter",
           "model_parameter", "STEPS", "PLAY_MODES", "BASE_DURATION", "GrooveSlider",
           "GROOVE_CONTRAST"]

#: Slider resolution over the parameter's range.
STEPS = 1000
#: Playback modes: stop at the end, wrap to the start, or bounce.
PLAY_MODES = (N_("once"), N_("loop"), N_("ping-pong"))
#: Seconds to sweep the whole range at speed 1x: slow enough for a class to
#: follow the chains and the plot cursor together.
BASE_DURATION = 5.0
#: Least contrast of the slider's groove outline on the window (WCAG 1.4.11, the
#: parts of a control that show where it can go).
GROOVE_CONTRAST = 3.0


class Parameter(Protocol):
    """What a :class:`Scrubber` needs from the value it drives.

    ``decimals == 0`` marks a whole-step parameter (a step index): the
    scrubber only ever sets integers. ``step`` is the spin box's single step
    (None: a hundredth of the range, or 1 for whole steps).
    """

    name: str
    decimals: int
    step: float | None
    suffix: str
    tooltip: str

    @property
    def range(self) -> tuple[float, float]: ...

    def get(self) -> float: ...

    def set(self, value: float) -> None: ...

    def connect(self, fn: Callable[[], None]) -> None: ...


class BoundParameter:
    """A :class:`Parameter` that lives in a model: read, written and announced by it."""

    def __init__(self, get: Callable[[], float], set: Callable[[float], None],  # noqa: A002
                 range: Callable[[], tuple[float, float]], events: Events, event: str,  # noqa: A002
                 *, name: str, decimals: int = 3, step: float | None = None,
                 suffix: str = "", tooltip: str = "") -> None:
        self._get, self._set, self._range = get, set, range
        self._events, self._event = events, event
        self.name, self.decimals, self.step = name, decimals, step
        self.suffix, self.tooltip = suffix, tooltip

    @property
    def range(self) -> tuple[float, float]:
        lo, hi = self._range()
        return float(lo), float(hi)

    def get(self) -> float:
        return float(self._get())

    def set(self, value: float) -> None:
        self._set(value)

    def connect(self, fn: Callable[[], None]) -> None:
        self._events.connect(self._event, fn)


class ValueParameter:
    """A :class:`Parameter` that holds its own value, for owners that push values in.

    ``set`` (the user's input) reports to ``on_change``; :meth:`show` (the
    owner's value) does not, so pushing a value back cannot start a loop.
    """

    def __init__(self, on_change: Callable[[float], None], *, name: str, decimals: int = 3,
                 lo: float = 0.0, hi: float = 1.0, step: float | None = None,
                 suffix: str = "", tooltip: str = "") -> None:
        self._on_change = on_change
        self._events = Events()
        self.range = (float(lo), float(hi))
        self.value = self.range[0]
        self.name, self.decimals, self.step = name, decimals, step
        self.suffix, self.tooltip = suffix, tooltip

    def get(self) -> float:
        return self.value

    def set(self, value: float) -> None:
        lo, hi = self.range
        self._on_change(min(hi, max(lo, float(value))))

    def show(self, value: float) -> None:
        self.value = float(value)
        self._events.emit("value")

    def connect(self, fn: Callable[[], None]) -> None:
        self._events.connect("value", fn)


def t_parameter(state: LessonState) -> BoundParameter:
    """The two-key lesson's t over [0, 1]."""
    return BoundParameter(lambda: state.t, state.set_t, lambda: (0.0, 1.0), state.events, "t",
                          name="t", decimals=4, step=0.001,
                          tooltip=_("Scrub t from 0 (q0) to 1 (q1); ←/→ step 0.01, "
                                    "Shift+←/→ 0.1, Home/End"))


def model_parameter(model, name: str, *, decimals: int = 3, tooltip: str = "") -> BoundParameter:
    """A lesson model's ``param`` (``set_param``, ``param_range``, event ``"param"``)."""
    return BoundParameter(lambda: model.param, model.set_param, lambda: model.param_range,
                          model.events, "param", name=name, decimals=decimals, tooltip=tooltip)


def media_icon(playing: bool, colour: QtGui.QColor, size: QtCore.QSize) -> QtGui.QIcon:
    """A play triangle (or, while ``playing``, pause bars) in ``colour``, for any theme.

    The style's own media icons are black pixmaps: on a dark theme's buttons
    they measured 1.2-1.9:1. Drawn at twice the size for sharp HiDPI scaling.
    """
    w, h = max(size.width(), 8) * 2, max(size.height(), 8) * 2
    pix = QtGui.QPixmap(w, h)
    pix.fill(QtCore.Qt.GlobalColor.transparent)
    p = QtGui.QPainter(pix)
    p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
    p.setPen(QtCore.Qt.PenStyle.NoPen)
    p.setBrush(colour)
    if playing:
        bar = w * 0.2
        p.drawRect(QtCore.QRectF(w * 0.22, h * 0.18, bar, h * 0.64))
        p.drawRect(QtCore.QRectF(w * 0.58, h * 0.18, bar, h * 0.64))
    else:
        p.drawPolygon(QtGui.QPolygonF([QtCore.QPointF(w * 0.25, h * 0.15),
                                       QtCore.QPointF(w * 0.85, h * 0.5),
                                       QtCore.QPointF(w * 0.25, h * 0.85)]))
    p.end()
    return QtGui.QIcon(pix)


class GrooveSlider(QtWidgets.QSlider):
    """A slider whose groove is outlined at 3:1 on the window in every theme.

    Fusion outlines the groove in a shade of the window colour: 2.0:1 in the
    light theme, 1.1:1 in the dark one and none at all on high contrast's
    black, where the slider was a handle floating on nothing. The outline is
    the theme's faint grey, deepened where it is short of 3:1; the handle is
    drawn again over it.
    """

    def paintEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().paintEvent(ev)
        opt = QtWidgets.QStyleOptionSlider()
        self.initStyleOption(opt)
        style, cc = self.style(), QtWidgets.QStyle.ComplexControl.CC_Slider
        groove = style.subControlRect(cc, opt, QtWidgets.QStyle.SubControl.SC_SliderGroove, self)
        window = self.palette().color(QtGui.QPalette.ColorRole.Window).name().upper()
        ring = readable(themes.current().faint.upper(), window, GROOVE_CONTRAST)
        p = QtGui.QPainter(self)
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        p.setPen(QtGui.QPen(QtGui.QColor(ring), 1.0))
        p.setBrush(QtCore.Qt.BrushStyle.NoBrush)
        # Where Fusion draws its own groove outline (a pixel in from the groove's rect).
        p.drawRoundedRect(QtCore.QRectF(groove).adjusted(1.5, 1.5, -1.5, -1.5), 2.0, 2.0)
        opt.subControls = QtWidgets.QStyle.SubControl.SC_SliderHandle
        style.drawComplexControl(cc, opt, p, self)
        p.end()


class Scrubber(QtWidgets.QWidget):
    """Controls bound to a :class:`Parameter` (or a LessonState: its t).

    ``toggle_play()`` and ``step(delta)`` are for shortcuts; ``advance(seconds)``
    is the timer's tick. ``playback=False`` leaves only the slider and spin box.
    Object names are ``{prefix}_slider`` and ``{prefix}_spin`` (default: the
    parameter's name), and ``play`` for the play button.
    """

    def __init__(self, param: Parameter | LessonState, parent=None, *,
                 prefix: str | None = None, playback: bool = True) -> None:
        super().__init__(parent)
        if isinstance(param, LessonState):
            param = t_parameter(param)
        self.param = param
        self._direction = 1.0
        self._playhead: float | None = None
        self._last = None
        self._spin_setup: tuple | None = None  # (lo, hi, step, suffix) last given to the spin box
        prefix = prefix or param.name
        row = QtWidgets.QHBoxLayout(self)
        row.setContentsMargins(4, 2, 4, 2)

        self.play_button = QtWidgets.QToolButton()
        self.play_button.setObjectName("play")
        self.play_button.setCheckable(True)
        self.play_button.setToolTip(_("Play / pause"))
        self._show_play_icon()
        self.play_button.toggled.connect(self._play_toggled)
        row.addWidget(self.play_button)

        self.label = QtWidgets.QLabel(param.name)
        row.addWidget(self.label)
        self.slider = GrooveSlider(QtCore.Qt.Orientation.Horizontal)
        self.slider.setObjectName(f"{prefix}_slider")
        self.slider.setRange(0, STEPS)
        self.slider.setSingleStep(1)
        self.slider.setPageStep(STEPS // 10)
        self.slider.setToolTip(param.tooltip)
        self.slider.valueChanged.connect(self._slider_moved)
        row.addWidget(self.slider, 1)

        self.spin = QtWidgets.QDoubleSpinBox()
        self.spin.setObjectName(f"{prefix}_spin")
        self.spin.setDecimals(param.decimals)
        self.spin.setToolTip(param.tooltip)
        self.spin.valueChanged.connect(self._set)
        row.addWidget(self.spin)

        self.mode = QtWidgets.QComboBox()
        for mode in PLAY_MODES:  # shown translated, kept as the key
            self.mode.addItem(_(mode), mode)
        self.mode.setCurrentIndex(self.mode.findData("ping-pong"))
        self.mode.setToolTip(_("Playback: stop at the end, loop, or bounce back and forth"))
        row.addWidget(self.mode)

        self.speed = QtWidgets.QDoubleSpinBox()
        self.speed.setRange(0.1, 4.0)
        self.speed.setSingleStep(0.1)
        self.speed.setValue(1.0)
        self.speed.setSuffix("×")
        self.speed.setToolTip(_("Playback speed (1× sweeps {name} over its whole range "
                                "in {seconds:g} s)").format(name=param.name,
                                                            seconds=BASE_DURATION))
        row.addWidget(self.speed)
        for w in (self.play_button, self.mode, self.speed):
            w.setVisible(playback)

        self.timer = QtCore.QTimer(self)
        self.timer.setInterval(16)
        self.timer.timeout.connect(self._tick)
        param.connect(self.refresh)
        self.refresh()

    # ------------------------------------------------------------------ model <-> widget
    def _quantize(self, value: float) -> float:
        lo, hi = self.param.range
        value = min(hi, max(lo, float(value)))
        # Whole-step parameters (a step index) must never see a fraction.
        return float(round(value)) if self.param.decimals == 0 else value

    def _set(self, value: float) -> None:
        self.param.set(self._quantize(value))

    def _slider_moved(self, position: int) -> None:
        lo, hi = self.param.range
        self._set(lo + (hi - lo) * position / STEPS)

    def refresh(self) -> None:
        """Show the parameter's value, range and suffix without writing anything back."""
        p = self.param
        lo, hi = p.range
        value = p.get()
        span = hi - lo
        position = round((value - lo) / span * STEPS) if span > 0 else 0
        step = p.step or (span / 100 if p.decimals else 1)
        suffix = f" {p.suffix}" if p.suffix else ""
        # Only what changed: setRange and setSuffix re-measure the spin box
        # and re-lay out (and repaint) the whole view around it, which on
        # every change of t cost more than drawing the new frame. Compared
        # with what was last applied, not with the spin box: it rounds its
        # range to its decimals, so a range of 1.9167 s never compared equal.
        if self._spin_setup != (lo, hi, step, suffix):
            self._spin_setup = (lo, hi, step, suffix)
            self.spin.blockSignals(True)
            self.spin.setRange(lo, hi)
            self.spin.setSingleStep(step)
            self.spin.setSuffix(suffix)
            self.spin.blockSignals(False)
        for w, v in ((self.slider, position), (self.spin, value)):
            w.blockSignals(True)
            w.setValue(v)
            w.blockSignals(False)

    def set_value(self, value: float) -> None:
        """Show ``value`` without reporting it (its owner already has it).

        A :class:`ValueParameter` stores it; a bound parameter is re-read
        from its model, which is where ``value`` came from.
        """
        show = getattr(self.param, "show", None)
        if show is not None:
            show(value)
        else:
            self.refresh()

    def step(self, delta: float) -> None:
        """Move the parameter by ``delta``, clamped to its range (arrow-key shortcuts)."""
        self._set(self.param.get() + delta)

    # ------------------------------------------------------------------ playback
    @property
    def playing(self) -> bool:
        return self.timer.isActive()

    def toggle_play(self) -> None:
        self.play_button.toggle()

    def _show_play_icon(self) -> None:
        button = self.play_button
        button.setIcon(media_icon(button.isChecked(), button.palette().color(
            QtGui.QPalette.ColorRole.ButtonText), button.iconSize()))

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() in (QtCore.QEvent.Type.PaletteChange, QtCore.QEvent.Type.StyleChange,
                            QtCore.QEvent.Type.ApplicationPaletteChange):
            self._show_play_icon()  # a theme change: the icon in its text colour

    def _play_toggled(self, on: bool) -> None:
        self._show_play_icon()
        if on:
            lo, hi = self.param.range
            if self.mode.currentData() == "once" and self.param.get() >= hi:
                self._set(lo)
            self._last = time.perf_counter()
            self.timer.start()
        else:
            self.timer.stop()

    def advance(self, seconds: float) -> None:
        """Advance playback by ``seconds`` of wall time (the timer's tick; testable)."""
        lo, hi = self.param.range
        span = hi - lo
        if span <= 0:
            return
        mode = self.mode.currentData()
        if mode != "ping-pong":
            # Only ping-pong runs backwards; a bounce must not leak into other modes.
            self._direction = 1.0
        current = self.param.get()
        # The playhead keeps the fraction a whole-step parameter drops, so slow
        # speeds still move it; anyone else moving the value (a drag, a preset)
        # takes the playhead with it.
        if self._playhead is None or not math.isclose(self._quantize(self._playhead), current,
                                                      abs_tol=1e-12 * span):
            self._playhead = current
        # A parameter in seconds with ``real_time`` set plays at its own pace at 1x.
        rate = 1.0 if getattr(self.param, "real_time", False) else span / BASE_DURATION
        pos = self._playhead + seconds * self.speed.value() * rate * self._direction
        if mode == "once" and pos >= hi:
            pos = hi
            self.play_button.setChecked(False)
        elif mode == "loop" and pos > hi:
            pos = lo + (pos - lo) % span
        elif mode == "ping-pong":
            if pos > hi:
                pos, self._direction = 2 * hi - pos, -1.0
            elif pos < lo:
                pos, self._direction = 2 * lo - pos, 1.0
        self._playhead = min(hi, max(lo, pos))
        self._set(self._playhead)

    def _tick(self) -> None:
        now = time.perf_counter()
        # Real elapsed time, so playback speed doesn't depend on the frame rate.
        self.advance(min(0.1, now - (self._last or now)))
        self._last = now
