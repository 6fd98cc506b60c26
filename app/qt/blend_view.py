"""Blend lesson: per-pose weights drive the kept-reference blend, the naive sum and align-to-first.

One row per pose: its weight (slider and spin box), a "−q" toggle that
stores it negated (same rotation, other hemisphere) and its rotation as
axis-angle, with the stored sign of w. The three results hang side by side
in 3D from roots spread along Y, next to the input poses drawn pale, so a
student sees which result moved; the sweep slider still plays the preset's
weight path and moves the weight sliders with it.

The rotation mean (Markley's eigenvector mean, docs/rotations.md) is the
yardstick: a chain in colour among the inputs it averages, a curve in the
angle plot, and a readout under the poses saying how far each blend is
from it.
"""

from __future__ import annotations

import math

import numpy as np
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import N_, _
from quatlab.app.model.blend_lesson import BlendModel, axis_angle_text, mean_text
from quatlab.app.qt.lesson_panel import LessonPanel, ParamSlider
from quatlab.rendering.chain import ROW_VIEW, roots_in_a_row
from quatlab.rendering.series import Series
from quatlab.rendering.style import METHOD_COLORS
from quatlab.rendering.themes import LIGHT

VIEW_NAME = "blend"
TITLE = N_("Pose blending")

#: The correct blend keeps the reference SLERP colour; the two flawed ones get
#: Okabe-Ito colours of their own.
COLOURS = {"blend": METHOD_COLORS["shortest_slerp"], "naive": "#E69F00",
           "align_first": "#56B4E9"}
LABELS = {"blend": N_("kept reference"), "naive": N_("naive sum"),
          "align_first": N_("align to first")}
DASHED = {"blend": False, "naive": True, "align_first": True}
#: The rotation mean, what the blends are measured against: the one Okabe-Ito
#: hue this tab does not use yet (themed like the method colours), dotted in
#: no plot, so it reads as a curve of its own rather than a fourth blend.
MEAN_COLOUR = METHOD_COLORS["naive_slerp"]
MEAN_LABEL = N_("rotation mean")
#: The reference pose's step: the themes' violet, not the text colour, which the
#: plots' cursor is too (both black in light, both white in high contrast).
REFERENCE_COLOUR = LIGHT.violet
#: Inputs are context, not results: one pale grey, told apart by their labels.
POSE_COLOUR = "#C4C4C8"

#: Root of each column along Y. The inputs come first (left on screen with
#: the default camera), then the correct blend beside them, then the two
#: flawed ones (ROW_SPACING apart). Curled chains in a row, not rigid limbs
#: two by two: those lay flat in the ground plane, seen at a slant, and were
#: shorter than a class reads (50-58 px at 1280x720).
ROOTS = roots_in_a_row(("poses", "blend", "naive", "align_first"))
#: The rotation mean hangs among the inputs it averages: a column of its own
#: would shrink every chain by a fifth (below what a class reads at 1280x720).
ROOTS["mean"] = ROOTS["poses"]


def reference_mark() -> str:
    """What a pose's readout starts with while it is the kept reference."""
    return _("<b>reference</b> · ")


class PoseReadout(QtWidgets.QLabel):
    """A pose's readout, at least as wide as the widest it can be (in the current font).

    The readouts are in the column beside the 3D view: a readout that grew
    with its text ("reference · " moving to another pose, a sign) would
    resize the view, and re-frame it, while a weight is dragged.
    """

    WIDEST = (360.0, (-1.0, -1.0, -1.0), -1.0)

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt API
        hint = super().minimumSizeHint()
        doc = QtGui.QTextDocument()
        doc.setDefaultFont(self.font())
        doc.setDocumentMargin(0)
        doc.setHtml(reference_mark() + axis_angle_text(*self.WIDEST))
        m = self.contentsMargins()
        least = math.ceil(doc.idealWidth()) + m.left() + m.right() + 2
        return QtCore.QSize(max(hint.width(), least), hint.height())

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt API
        hint = super().sizeHint()
        return QtCore.QSize(max(hint.width(), self.minimumSizeHint().width()), hint.height())


class MeanReadout(QtWidgets.QLabel):
    """The rotation mean's readout, two lines tall whether its second line is there or
    not: a height that followed the text resized the 3D view, and re-framed it, as the
    sweep played."""

    def _two_lines(self) -> int:
        m = self.contentsMargins()
        return 2 * self.fontMetrics().lineSpacing() + m.top() + m.bottom()

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt API
        hint = super().minimumSizeHint()
        return QtCore.QSize(hint.width(), max(hint.height(), self._two_lines()))

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt API
        return max(super().heightForWidth(width), self._two_lines())


class BlendView(LessonPanel):
    def __init__(self, model: BlendModel, parent=None) -> None:
        self.model = model
        super().__init__(model.preset_items(), model.set_preset, _("play sweep"),
                         self._plot_scrubbed, parent, param_tooltip=_(
                             "Play the preset's sweep of weights (waypoint i at i): sets the "
                             "weight sliders as it moves"))
        self.set_legend([(POSE_COLOUR, _("input poses")),
                                         (MEAN_COLOUR, _(MEAN_LABEL))]
                                        + [(COLOURS[k], _(LABELS[k])) for k in COLOURS])
        self._build_pose_rows()
        self._drawn_plot = None
        self._x_axis: tuple | None = None
        # The columns run along Y: seen from the side that spreads them across the screen.
        self.scene.set_default_direction(*ROW_VIEW)
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
        """Weight slider and −q toggle per pose, its readout under them, left of the 3D view.

        Beside the view rather than above it: three rows above took 80 px of
        the view's height on a 720-px screen, where it is already far wider
        than tall.
        """
        box = QtWidgets.QWidget()
        box.setObjectName("pose_rows")
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
            readout = PoseReadout()
            readout.setObjectName(f"pose_readout_{i}")
            readout.setContentsMargins(8, 0, 0, 6)
            self.weight_sliders.append(slider)
            self.negate_boxes.append(negate)
            self.pose_readouts.append(readout)
        # The rotation mean: where it is, and how far each blend is from it.
        self.mean_readout = MeanReadout()
        self.mean_readout.setObjectName("mean_readout")
        self.mean_readout.setWordWrap(True)
        self.mean_readout.setContentsMargins(8, 4, 0, 6)
        self.mean_readout.setToolTip(_(
            "The rotation mean of the weighted poses (the eigenvector of Σ w q qᵀ with the "
            "largest eigenvalue, Markley et al.): it ignores signs, the listing and the "
            "reference, so it is what a blend should come close to"))
        self._pose_grid = grid
        self._lay_pose_rows(1)
        side = self.add_scene_side(_("pose weights"))
        side.addWidget(box)
        # The listing align-to-first depends on (presets that list orders).
        self.listing_label = QtWidgets.QLabel(_("listed as"))
        self.listing_box = QtWidgets.QComboBox()
        self.listing_box.setObjectName("blend_listing")
        self.listing_box.setToolTip(_("The order the poses are passed to the blend: "
                                      "align-to-first aligns to whichever comes first; the kept "
                                      "reference does not care"))
        self.listing_box.activated.connect(self.model.set_listing)
        listing = QtWidgets.QHBoxLayout()
        listing.addWidget(self.listing_label)
        listing.addWidget(self.listing_box, 1)
        side.addLayout(listing)
        side.addStretch(1)
        self._arranged()

    def _lay_pose_rows(self, columns: int) -> None:
        """The poses' rows in ``columns`` columns: 1 is one under the other (beside the
        view), all of them side by side (in the strip over the stage)."""
        grid = self._pose_grid
        n = len(self.weight_sliders)
        columns = min(max(int(columns), 1), n)
        if columns == getattr(self, "_pose_columns", None):
            return
        self._pose_columns = columns
        for w in (*self.weight_sliders, *self.negate_boxes, *self.pose_readouts,
                  self.mean_readout):
            grid.removeWidget(w)
        for c in range(2 * n):
            grid.setColumnStretch(c, 0)
        for i in range(n):
            row, col = 2 * (i // columns), 2 * (i % columns)
            grid.addWidget(self.weight_sliders[i], row, col)
            grid.addWidget(self.negate_boxes[i], row, col + 1)
            grid.addWidget(self.pose_readouts[i], row + 1, col, 1, 2)
            grid.setColumnStretch(col, 1)
        grid.addWidget(self.mean_readout, 2 * -(-n // columns), 0, 1, 2 * columns)

    def _pose_column(self) -> int:
        """Width of one pose's column (its slider, −q and readout)."""
        return max(self.pose_readouts[0].minimumSizeHint().width(),
                   self.weight_sliders[0].minimumSizeHint().width()
                   + self.negate_boxes[0].sizeHint().width()) + 2 * self._pose_grid.spacing()

    def _strip_columns(self) -> int:
        """Pose columns the strip over the stage holds at the view's width."""
        return max(1, (self.width() - 12) // max(self._pose_column(), 1))

    def side_width(self) -> int:
        """The poses one under the other: one pose's column, the mean's readout, margins."""
        if getattr(self, "_pose_grid", None) is None:
            return super().side_width()
        return max(self._pose_column(), self.mean_readout.minimumSizeHint().width()) + 12

    def strip_height(self, width: int) -> int:
        """The poses side by side over the stage: as many rows of them as the width needs,
        the mean's readout and the listing."""
        if getattr(self, "_pose_grid", None) is None:
            return super().strip_height(width)  # still being built
        columns = min(self._strip_columns(), len(self.weight_sliders))
        rows = -(-len(self.weight_sliders) // columns)
        pose = (self.weight_sliders[0].sizeHint().height()
                + self.pose_readouts[0].sizeHint().height())
        listing = self.listing_box.sizeHint().height() if not self.listing_box.isHidden() else 0
        return rows * pose + self.mean_readout.sizeHint().height() + listing + 12

    def arrange_side(self, in_strip: bool) -> None:
        """The poses side by side in the strip over the stage (as many as fit), or in a
        column beside the view."""
        self._in_strip = in_strip
        if getattr(self, "_pose_grid", None) is not None:
            self._lay_pose_rows(self._strip_columns() if in_strip else 1)

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(ev)
        if getattr(self, "_in_strip", False):
            self.arrange_side(True)  # as many columns as the new width holds

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
        """Draw ``model.plot`` (the curves through the current weights) if it is new.

        The model keeps the same plot while the curves stay the same (the
        sweep played, one weight dragged on): then only the cursor moves. A
        new plot updates the existing curves in place, and of those only
        the ones whose data changed (:meth:`CurvePlots.set_series`); the axes
        are set again only when their names or ranges change.
        """
        m, p, old = self.model, self.model.plot, self._drawn_plot
        if p is old:
            return
        self._drawn_plot = p
        n = len(m.weights)
        x = p["x"]
        lo, hi = float(x.min()), float(x.max())
        if p["ticks"]:
            # Room for the first and last listing's tick text at the ends.
            lo, hi = lo - 0.25, hi + 0.25
        with self.plots.batch():  # one refresh of the plots for all of it
            if old is None or self._x_axis != (p["x_name"], lo, hi):
                self._x_axis = (p["x_name"], lo, hi)
                self.plots.set_x_axis(p["x_name"], None, (lo, hi))
            if old is None:  # a new preset or new signs: on_data forgets the drawn plot
                self.plots.set_y_axis("speed", _("reference pose"), (-0.3, n - 0.7))
                # Sign-free: a pose stored as -q must not draw as a jump (docs/conventions.md).
                self.plots.set_y_axis("angle", _("rotation from pose 0 (°)"), (0.0, 180.0),
                                      short=_("rotation (°)"))
            # A mean that exists nowhere on the plot (equal weights on poses spread
            # evenly) is no curve: its gap band would shade the whole plot, and the
            # readout and the 3D note say why there is none.
            mean = ([Series("mean", _(MEAN_LABEL), MEAN_COLOUR, False, x, p["mean"],
                            gap_label=_("not unique"))]
                    if np.any(np.isfinite(p["mean"])) else [])
            self.plots.set_series("angle", mean + [
                Series(v, _(LABELS[v]), COLOURS[v], DASHED[v], x, p["angles"][v])
                for v in m.VARIANTS])
            self.plots.set_series("speed", [
                Series("reference", _("reference pose"), REFERENCE_COLOUR, False, x,
                       p["reference"])])
            if old is None or not np.array_equal(old["switches"], p["switches"]):
                self.plots.set_markers(p["switches"])
        self._integer_ticks()  # the plots reset the ticks when their curves change

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
        with self.scene.one_framing():  # one camera fit for the whole change
            for v in m.VARIANTS:
                # No tip trails: they would trace the preset's sweep, which the
                # plots show already, and mislead once the weights are set by hand.
                self.scene.set_chain(v, None, COLOURS[v], root=ROOTS[v])
                self.scene.set_label(v, _(LABELS[v]))
            self.scene.set_chain("mean", None, MEAN_COLOUR, root=ROOTS["mean"])
            self.scene.set_label("mean", _(MEAN_LABEL))
            for i, q in enumerate(m.quats):
                self.scene.set_chain(f"pose{i}", q, POSE_COLOUR, root=ROOTS["poses"])
            # Framed where the chains can go in this preset, not at the whole
            # sphere of their reach: that left the chains a fifth of the view.
            for v in (*m.VARIANTS, "mean"):
                self.scene.set_framed_poses(v, m.reachable[v])
            for i, q in enumerate(m.quats):
                self.scene.set_framed_poses(f"pose{i}", q[None])
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
        if not np.any(m.weights > 0):
            self.scene.set_chain("mean", None)  # nothing to average
        else:
            # NaN where the mean is not unique: the label stays, with a note saying why.
            self.scene.set_chain("mean", m.current_mean, missing=_(
                "rotation mean: not unique at these weights"))
        self.mean_readout.setText(self._mean_html())
        for i, (slider, readout) in enumerate(zip(self.weight_sliders, self.pose_readouts,
                                                  strict=True)):
            slider.set_value(m.weights[i])
            ref = i == m.reference
            readout.setText((reference_mark() if ref else "") + m.pose_text(i))
            # The label in 3D says which input the kept blend aligns to.
            self.scene.set_label(f"pose{i}", (_("pose {i} (reference)") if ref
                                              else _("pose {i}")).format(i=i))
        self.slider.set_value(m.param)
        if m.orders:
            self.listing_box.setCurrentIndex(int(round(m.param)))
        self._show_plot()
        # The dots at the blends the chains and the text show, not interpolated.
        exact = {v: (a, np.nan) for v, a in m.current_angle.items()}
        exact["mean"] = (m.current_mean_angle, np.nan)
        exact["reference"] = (np.nan, float(m.reference))
        self.plots.set_cursor(m.plot_cursor, exact)
        self.explanation.setText(m.explanation())


    def _mean_html(self) -> str:
        """The mean readout: the mean as axis-angle, then each blend's angle from it."""
        m = self.model
        head = _("<b>rotation mean</b> · {pose}").format(pose=mean_text(m.current_mean))
        if not np.all(np.isfinite(m.current_mean)) or not np.any(m.weights > 0):
            return head
        off = {v: (f"{m.mean_off[v]:.1f}°" if np.isfinite(m.mean_off[v])
                   else _("none (collapsed)")) for v in m.VARIANTS}
        return head + "<br>" + _("off it: kept reference {blend}, naive sum {naive}, align to "
                                 "first {align_first}").format(**off)


def create(window) -> QtWidgets.QWidget:
    return BlendView(BlendModel())
