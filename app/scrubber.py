"""Qt t scrubber: slider (1000 steps), spin box, play/pause, loop/ping-pong, speed.

Writes t into the model and follows the model's ``"t"`` event, so the slider,
the spin box, the plots' cursor and the keyboard all stay in step.
"""

from __future__ import annotations

import time

from PyQt6 import QtCore, QtWidgets

from quatlab.app.state import LessonState

__all__ = ["Scrubber", "STEPS", "PLAY_MODES"]

#: Slider resolution over [0, 1].
STEPS = 1000
#: Playback modes: stop at 1, wrap to 0, or bounce.
PLAY_MODES = ("once", "loop", "ping-pong")
#: Seconds for t to go from 0 to 1 at speed 1x.
BASE_DURATION = 2.0


class Scrubber(QtWidgets.QWidget):
    """t controls bound to ``state``; ``toggle_play()`` and ``step(dt)`` for shortcuts."""

    def __init__(self, state: LessonState, parent=None) -> None:
        super().__init__(parent)
        self.state = state
        self._direction = 1.0
        self._last = None
        row = QtWidgets.QHBoxLayout(self)
        row.setContentsMargins(4, 2, 4, 2)

        self.play_button = QtWidgets.QToolButton()
        self.play_button.setObjectName("play")
        self.play_button.setCheckable(True)
        self.play_button.setToolTip("Play / pause (Space)")
        self.play_button.setIcon(self.style().standardIcon(
            QtWidgets.QStyle.StandardPixmap.SP_MediaPlay))
        self.play_button.toggled.connect(self._play_toggled)
        row.addWidget(self.play_button)

        row.addWidget(QtWidgets.QLabel("t"))
        self.slider = QtWidgets.QSlider(QtCore.Qt.Orientation.Horizontal)
        self.slider.setObjectName("t_slider")
        self.slider.setRange(0, STEPS)
        self.slider.setSingleStep(1)
        self.slider.setPageStep(STEPS // 10)
        self.slider.setToolTip("Scrub t from 0 (q0) to 1 (q1); ←/→ step 0.01, "
                               "Shift+←/→ 0.1, Home/End")
        self.slider.valueChanged.connect(lambda v: self._set_t(v / STEPS))
        row.addWidget(self.slider, 1)

        self.spin = QtWidgets.QDoubleSpinBox()
        self.spin.setObjectName("t_spin")
        self.spin.setRange(0.0, 1.0)
        self.spin.setDecimals(4)
        self.spin.setSingleStep(0.001)
        self.spin.setToolTip("t, typed exactly (4 decimals)")
        self.spin.valueChanged.connect(self._set_t)
        row.addWidget(self.spin)

        self.mode = QtWidgets.QComboBox()
        self.mode.addItems(PLAY_MODES)
        self.mode.setCurrentText("ping-pong")
        self.mode.setToolTip("Playback: stop at the end, loop, or bounce back and forth")
        row.addWidget(self.mode)

        self.speed = QtWidgets.QDoubleSpinBox()
        self.speed.setRange(0.1, 4.0)
        self.speed.setSingleStep(0.1)
        self.speed.setValue(1.0)
        self.speed.setSuffix("×")
        self.speed.setToolTip(f"Playback speed (1× sweeps t from 0 to 1 in {BASE_DURATION:g} s)")
        row.addWidget(self.speed)

        self.timer = QtCore.QTimer(self)
        self.timer.setInterval(16)
        self.timer.timeout.connect(self._tick)
        state.events.connect("t", self.refresh)
        self.refresh()

    # ------------------------------------------------------------------ model <-> widget
    def _set_t(self, t: float) -> None:
        self.state.set_t(min(1.0, max(0.0, float(t))))

    def refresh(self) -> None:
        t = self.state.t
        for w, v in ((self.slider, round(t * STEPS)), (self.spin, t)):
            w.blockSignals(True)
            w.setValue(v)
            w.blockSignals(False)

    def step(self, dt: float) -> None:
        """Move t by ``dt``, clamped to [0, 1] (arrow-key shortcuts)."""
        self._set_t(self.state.t + dt)

    # ------------------------------------------------------------------ playback
    @property
    def playing(self) -> bool:
        return self.timer.isActive()

    def toggle_play(self) -> None:
        self.play_button.toggle()

    def _play_toggled(self, on: bool) -> None:
        icon = (QtWidgets.QStyle.StandardPixmap.SP_MediaPause if on
                else QtWidgets.QStyle.StandardPixmap.SP_MediaPlay)
        self.play_button.setIcon(self.style().standardIcon(icon))
        if on:
            if self.mode.currentText() == "once" and self.state.t >= 1.0:
                self._set_t(0.0)
            self._last = time.perf_counter()
            self.timer.start()
        else:
            self.timer.stop()

    def advance(self, seconds: float) -> None:
        """Advance playback by ``seconds`` of wall time (the timer's tick; testable)."""
        mode = self.mode.currentText()
        if mode != "ping-pong":
            # Only ping-pong runs backwards; a bounce must not leak into other modes.
            self._direction = 1.0
        dt = seconds * self.speed.value() / BASE_DURATION * self._direction
        t = self.state.t + dt
        if mode == "once" and t >= 1.0:
            t = 1.0
            self.play_button.setChecked(False)
        elif mode == "loop":
            t = t % 1.0 if t > 1.0 else t
        elif mode == "ping-pong":
            if t > 1.0:
                t, self._direction = 2.0 - t, -1.0
            elif t < 0.0:
                t, self._direction = -t, 1.0
        self._set_t(min(1.0, max(0.0, t)))

    def _tick(self) -> None:
        now = time.perf_counter()
        # Real elapsed time, so playback speed doesn't depend on the frame rate.
        self.advance(min(0.1, now - (self._last or now)))
        self._last = now
