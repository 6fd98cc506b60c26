"""Blend lesson: kept-reference blend, naive sum and align-to-first along a weight sweep."""

from __future__ import annotations

import numpy as np
from PyQt6 import QtWidgets

from quatlab.app.lesson_models import BlendModel
from quatlab.app.lesson_panel import LessonPanel, legend_html
from quatlab.rendering.plots import Series
from quatlab.rendering.style import METHOD_COLORS

VIEW_NAME = "blend"
TITLE = "Pose blending"

#: The correct blend keeps the reference SLERP colour; the two flawed ones get
#: Okabe-Ito colours of their own.
COLOURS = {"blend": METHOD_COLORS["shortest_slerp"], "naive": "#E69F00",
           "align_first": "#56B4E9"}
LABELS = {"blend": "kept reference", "naive": "naive sum", "align_first": "align to first"}
DASHED = {"blend": False, "naive": True, "align_first": True}


class BlendView(LessonPanel):
    def __init__(self, model: BlendModel, parent=None) -> None:
        self.model = model
        super().__init__(model.preset_items(), model.set_preset, "sweep", model.set_param,
                         parent, param_tooltip="Position along the preset's weight sweep "
                         "(waypoint i at i)")
        self.legend.setText(legend_html([(COLOURS[k], LABELS[k]) for k in COLOURS]))
        model.events.connect("data", self.on_data)
        model.events.connect("param", self.on_param)
        self.on_data()

    def on_data(self) -> None:
        m = self.model
        self.show_preset(m.preset)
        # Right plot: the reference index, so its switch is visible as a step.
        self.set_axes("sweep", None, m.param_range, {"speed": "reference pose index"})
        self.plots.set_series("angle", [
            Series(v, LABELS[v], COLOURS[v], DASHED[v], m.s,
                   np.degrees(getattr(m.sweep, f"{v}_angle"))) for v in m.VARIANTS])
        self.plots.set_series("speed", [
            Series("reference", "reference index", "#000000", False, m.s,
                   m.sweep.reference.astype(float))])
        self.plots.set_markers(m.switch_params())
        for v in m.VARIANTS:
            self.scene.set_path(v, getattr(m.sweep, v), COLOURS[v])
            self.scene.set_label(v, LABELS[v])
        self.scene.set_ghosts(None, None)
        self.on_param()

    def on_param(self) -> None:
        m = self.model
        for k, q in m.at_param().items():
            self.scene.set_chain(k, q if np.all(np.isfinite(q)) else None, COLOURS[k])
        self.slider.set_value(m.param)
        self.plots.set_cursor(m.param)
        self.explanation.setText(m.explanation())


def create(window) -> QtWidgets.QWidget:
    return BlendView(BlendModel())
