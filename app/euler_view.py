"""Euler lesson: linear interpolation of Euler angles against SLERP, gimbal lock, the wrap."""

from __future__ import annotations

import numpy as np
from PyQt6 import QtWidgets

from quatlab.app.lesson_models import EulerModel
from quatlab.app.lesson_panel import LessonPanel, legend_html
from quatlab.math.gimbal import ANGLE_NAMES
from quatlab.rendering.plots import Series
from quatlab.rendering.style import METHOD_COLORS

VIEW_NAME = "euler"
TITLE = "Euler angles"

#: SLERP keeps the two-key lesson's colour; Euler lerp is the "naive" orange.
COLOURS = {"euler": "#E69F00", "slerp": METHOD_COLORS["shortest_slerp"]}
LABELS = {"euler": "Euler angles, lerped", "slerp": "SLERP"}
#: One Okabe-Ito colour per angle of SLERP's Euler readout.
ANGLE_COLOURS = dict(zip(ANGLE_NAMES, ("#E69F00", "#56B4E9", "#000000"), strict=True))


class EulerView(LessonPanel):
    def __init__(self, model: EulerModel, parent=None) -> None:
        self.model = model
        super().__init__(model.preset_items(), model.set_preset, "t", model.set_param, parent,
                         param_tooltip="From the start pose (t = 0) to the end pose (t = 1)")
        self.legend.setText(legend_html([(COLOURS[k], LABELS[k]) for k in COLOURS]))
        model.events.connect("data", self.on_data)
        model.events.connect("param", self.on_param)
        self.on_data()

    def on_data(self) -> None:
        self.show_preset(self.model.preset)
        c = self.model.comparison
        # Right plot: the angles SLERP's pose reads back as, where the wrap shows.
        self.set_axes("t", None, (0.0, 1.0),
                      {"speed": f"SLERP read as {c.order} Euler angles (deg)"})
        self.plots.set_series("angle", [
            Series(k, LABELS[k], COLOURS[k], k == "euler", c.t,
                   np.degrees(getattr(c, f"{k}_angle"))) for k in COLOURS])
        readout = np.degrees(c.slerp_euler)
        self.plots.set_series("speed", [
            Series(n, f"SLERP {n}", ANGLE_COLOURS[n], False, c.t, readout[:, i])
            for i, n in enumerate(ANGLE_NAMES)])
        self.plots.set_markers(self.model.wrap_times())
        for k, path in (("euler", c.euler_quats), ("slerp", c.slerp_quats)):
            self.scene.set_path(k, path, COLOURS[k])
            self.scene.set_label(k, LABELS[k])
        self.on_param()

    def on_param(self) -> None:
        m = self.model
        for k, q in m.at_param().items():
            self.scene.set_chain(k, q, COLOURS[k])
        self.slider.set_value(m.param)
        self.plots.set_cursor(m.param)
        self.explanation.setText(m.explanation())


def create(window) -> QtWidgets.QWidget:
    return EulerView(EulerModel())
