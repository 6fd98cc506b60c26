"""SQUAD track lesson: piecewise SLERP, SQUAD and sign-unaware SQUAD along a key track."""

from __future__ import annotations

import numpy as np
from PyQt6 import QtWidgets

from quatlab.app.lesson_models import TrackModel
from quatlab.app.lesson_panel import LessonPanel, legend_html
from quatlab.math import track as T
from quatlab.rendering.plots import Series
from quatlab.rendering.style import METHOD_COLORS

VIEW_NAME = "squad"
TITLE = "SQUAD track"

#: Piecewise SLERP keeps the two-key lesson's SLERP colour; the SQUAD pair gets
#: Okabe-Ito colours not used by the four methods.
COLOURS = {
    "slerp": METHOD_COLORS["shortest_slerp"],
    "squad": "#56B4E9",          # sky blue
    "squad_unaware": "#E69F00",  # orange: the buggy variant stands out
}
DASHED = {"slerp": False, "squad": False, "squad_unaware": True}


class TrackView(LessonPanel):
    def __init__(self, model: TrackModel, parent=None) -> None:
        self.model = model
        super().__init__(model.preset_items(), model.set_preset, "time", model.set_param, parent,
                         param_tooltip="Time along the track (s); drag in the plots too")
        self.tangents = QtWidgets.QCheckBox("time-scaled tangents")
        self.tangents.setObjectName("time_scaled")
        self.tangents.setToolTip("SQUAD control points weighted by the segment durations "
                                 "(continuous speed for uneven key times)")
        self.tangents.toggled.connect(model.set_time_scaled)
        self.toolbar.insertWidget(2, self.tangents)
        self.legend.setText(legend_html([(COLOURS[m], T.METHOD_LABELS[m]) for m in model.SHOWN]))
        model.events.connect("data", self.on_data)
        model.events.connect("param", self.on_param)
        self.on_data()

    def on_data(self) -> None:
        self.show_preset(self.model.preset)
        m, tr = self.model, self.model.track
        self.set_axes("time", "s", m.param_range)
        for plot, attr in (("angle", "angle_deg"), ("speed", "speed_deg")):
            self.plots.set_series(plot, [
                Series(k, T.METHOD_LABELS[k], COLOURS[k], DASHED[k], tr.t, getattr(tr[k], attr))
                for k in m.SHOWN])
        self.plots.set_markers(tr.times)
        for k in m.SHOWN:
            self.scene.set_path(k, tr[k].quats, COLOURS[k])
            self.scene.set_label(k, T.METHOD_LABELS[k])
        self.on_param()

    def on_param(self) -> None:
        m = self.model
        for k, q in m.at_param().items():
            self.scene.set_chain(k, q if np.all(np.isfinite(q)) else None, COLOURS[k])
        self.slider.set_value(m.param)
        self.plots.set_cursor(m.param)
        self.explanation.setText(m.explanation())


def create(window) -> QtWidgets.QWidget:
    return TrackView(TrackModel())
