"""Blend lesson: per-pose weights drive the kept-reference blend, the naive sum and align-to-first.

One row per pose: its weight (slider and spin box), a "−q" toggle that
stores it negated (same rotation, other hemisphere) and its rotation as
axis-angle, with the stored sign of w. The three results hang side by side
in 3D from roots spread along Y, next to the input poses drawn pale, so a
student sees which result moved; the sweep slider still plays the preset's
weight path and moves the weight sliders with it.
"""

from __future__ import annotations

import numpy as np
from PyQt6 import QtWidgets

from quatlab.app.i18n import N_, _
from quatlab.app.model.blend_lesson import BlendModel
from quatlab.app.qt.lesson_panel import LessonPanel, ParamSlider, legend_html
from quatlab.rendering.chain import ROOT
from quatlab.rendering.series import Series
from quatlab.rendering.style import FOREGROUND, METHOD_COLORS

VIEW_NAME = "blend"
TITLE = N_("Pose blending")

#: The correct blend keeps the reference SLERP colour; the two flawed ones get
#: Okabe-Ito colours of their own.
COLOURS = {"blend": METHOD_COLORS["shortest_slerp"], "naive": "#E69F00",
           "align_first": "#56B4E9"}
LABELS = {"blend": N_("kept reference"), "naive": N_("naive sum"),
          "align_first": N_("align to first")}
DASHED = {"blend": False, "naive": True, "align_first": True}
#: Inputs are context, not results: one pale grey, told apart by their labels.
POSE_COLOUR = "#C4C4C8"

#: Root of each column along Y. The inputs come first (left on screen with
#: the default camera), then the correct blend beside them, then the two
#: flawed ones; 2.5 apart so that even curled chains (reach 2.44, but a
#: curl stays within about 1.3 of its root sideways) do not touch, and all
#: four fit on the 8 m grid.
ROOTS = {key: ROOT + [0.0, y, 0.0] for key, y in
         (("poses", -3.75), ("blend", -1.25), ("naive", 1.25), ("align_first", 3.75))}


class BlendView(LessonPanel):
    def __init__(self, model: BlendModel, parent=None) -> None:
        self.model = model
        super().__init__(model.preset_items(), model.set_preset, _("play sweep"),
                         self._plot_scrubbed, parent, param_tooltip=_(
                             "Play the preset's sweep of weights (waypoint i at i): sets the "
                             "weight sliders as it moves"))
        self.legend.setText(legend_html([(POSE_COLOUR, _("input poses"))]
                                        + [(COLOURS[k], _(LABELS[k])) for k in COLOURS]))
        self._build_pose_rows()
        self._drawn_plot = None
        # The columns run along Y: seen from nearer the X axis and higher up
        # they spread across the screen instead of into its depth, and the
        # curls in the ground plane read as curls.
        self.scene.set_default_direction(elevation=35.0, azimuth=-25.0)
        self.plots.visibilityChanged.connect(lambda *_: self._integer_ticks())
        model.events.connect("data", self.on_data)
        model.events.connect("param", self.on_param)
        self.on_data()

    def _plot_scrubbed(self, x: float) -> None:
        """A click or drag on the plots moves their x: a hand-set weight, or the sweep."""
        if self.model.hand is not None:
            self.model.set_weight(self.model.hand, x)
        else:
            self.model.set_param(x)

    def _build_pose_rows(self) -> None:
        """Weight slider, −q toggle and readout per pose, in a grid so the columns line up."""
        box = QtWidgets.QWidget()
        grid = QtWidgets.QGridLayout(box)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setVerticalSpacing(0)
        self.weight_sliders: list[ParamSlider] = []
        self.negate_boxes: list[QtWidgets.QCheckBox] = []
        self.pose_readouts: list[QtWidgets.QLabel] = []
        for i in range(len(self.model.weights)):
            slider = ParamSlider(_("pose {i} weight").format(i=i),
                                 lambda v, i=i: self.model.set_weight(i, v),
                                 tooltip=_("Weight of pose {i} in all three blends").format(i=i),
                                 decimals=2)
            slider.slider.setObjectName(f"weight_slider_{i}")
            slider.spin.setObjectName(f"weight_spin_{i}")
            negate = QtWidgets.QCheckBox("−q")
            negate.setObjectName(f"negate_{i}")
            negate.setToolTip(_("Store pose {i} as −q: the same rotation, the other "
                                "hemisphere").format(i=i))
            negate.toggled.connect(lambda on, i=i: self.model.set_negated(i, on))
            readout = QtWidgets.QLabel()
            readout.setObjectName(f"pose_readout_{i}")
            grid.addWidget(slider, i, 0)
            grid.addWidget(negate, i, 1)
            grid.addWidget(readout, i, 2)
            self.weight_sliders.append(slider)
            self.negate_boxes.append(negate)
            self.pose_readouts.append(readout)
        grid.setColumnStretch(0, 3)
        grid.setColumnStretch(2, 2)
        row = self.add_option_row()
        row.addWidget(box)
        # The listing align-to-first depends on (presets that list orders).
        self.listing_label = QtWidgets.QLabel(_("listed as"))
        self.listing_box = QtWidgets.QComboBox()
        self.listing_box.setObjectName("blend_listing")
        self.listing_box.setToolTip(_("The order the poses are passed to the blend: "
                                      "align-to-first aligns to whichever comes first; the kept "
                                      "reference does not care"))
        self.listing_box.activated.connect(self.model.set_listing)
        row.addWidget(self.listing_label)
        row.addWidget(self.listing_box)

    def _integer_ticks(self) -> None:
        # The reference is a pose index: only whole numbers mean anything.
        # CurvePlots resets the right axis's ticks whenever it refreshes
        # (new series, shown/hidden curves), so they are set again after each.
        n = len(self.model.weights)
        self.plots.plots["speed"].getAxis("left").setTicks(
            [[(float(i), str(i)) for i in range(n)], []])
        ticks = self._drawn_plot["ticks"] if self._drawn_plot else None
        for name in ("angle", "speed"):
            self.plots.plots[name].getAxis("bottom").setTicks(None if ticks is None
                                                              else [ticks, []])

    def _show_plot(self) -> None:
        """Draw ``model.plot`` (the curves through the current weights) if it is new."""
        m, p = self.model, self.model.plot
        if p is self._drawn_plot:
            return
        self._drawn_plot = p
        n = len(m.weights)
        x = p["x"]
        lo, hi = float(x.min()), float(x.max())
        if p["ticks"]:
            # Room for the first and last listing's tick text at the ends.
            lo, hi = lo - 0.25, hi + 0.25
        with self.plots.batch():  # one refresh of the plots for all of it
            self.plots.set_x_axis(p["x_name"], None, (lo, hi))
            self.plots.set_y_axis("speed", _("reference pose"), (-0.3, n - 0.7))
            # Sign-free: a pose stored as -q must not draw as a jump (docs/conventions.md).
            self.plots.set_y_axis("angle", _("rotation from pose 0 (deg)"), (0.0, 180.0))
            self.plots.set_series("angle", [
                Series(v, _(LABELS[v]), COLOURS[v], DASHED[v], x, p["angles"][v])
                for v in m.VARIANTS])
            self.plots.set_series("speed", [
                Series("reference", _("reference pose"), FOREGROUND, False, x, p["reference"])])
            self.plots.set_markers(p["switches"])
        self._integer_ticks()

    def on_data(self) -> None:
        m = self.model
        self.show_preset(m.preset)
        self.set_axes(_("sweep"), None, m.param_range)
        self._drawn_plot = None
        self.listing_box.clear()
        for o in m.orders:
            self.listing_box.addItem(", ".join(map(str, o)))
        for w in (self.listing_box, self.listing_label):
            w.setVisible(bool(m.orders))
        for v in m.VARIANTS:
            # No tip trails: they would trace the preset's sweep, which the
            # plots show already, and mislead once the weights are set by hand.
            self.scene.set_chain(v, None, COLOURS[v], root=ROOTS[v])
            self.scene.set_label(v, _(LABELS[v]))
        for i, q in enumerate(m.quats):
            self.scene.set_chain(f"pose{i}", q, POSE_COLOUR, root=ROOTS["poses"])
        self.scene.set_ghosts(None, None)
        for box, on in zip(self.negate_boxes, m.negated, strict=True):
            box.blockSignals(True)
            box.setChecked(bool(on))
            box.blockSignals(False)
        self.on_param()

    def on_param(self) -> None:
        m = self.model
        for k, q in m.at_param().items():
            self.scene.set_chain(k, q if np.all(np.isfinite(q)) else None)
        for i, (slider, readout) in enumerate(zip(self.weight_sliders, self.pose_readouts,
                                                  strict=True)):
            slider.set_value(m.weights[i])
            ref = i == m.reference
            readout.setText((_("<b>reference</b> · ") if ref else "") + m.pose_text(i))
            # The label in 3D says which input the kept blend aligns to.
            self.scene.set_label(f"pose{i}", (_("pose {i} (reference)") if ref
                                              else _("pose {i}")).format(i=i))
        self.slider.set_value(m.param)
        if m.orders:
            self.listing_box.setCurrentIndex(int(round(m.param)))
        self._show_plot()
        cursor = m.plot["cursor"]  # None: the sweep slider's own value
        self.plots.set_cursor(m.param if cursor is None else cursor)
        self.explanation.setText(m.explanation())


def create(window) -> QtWidgets.QWidget:
    return BlendView(BlendModel())
