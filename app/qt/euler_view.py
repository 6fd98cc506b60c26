"""Euler lesson: linear interpolation of Euler angles against SLERP, gimbal lock, the wrap.

The 3D view carries a three-ring gimbal posed by the Euler-lerped angles
(:mod:`quatlab.rendering.gimbal`): the rings turn one by one as the angles
change, and at the lock the two rings that turn about the same axis light up.
"""

from __future__ import annotations

import numpy as np
from PyQt6 import QtWidgets

from quatlab.app.i18n import N_, _
from quatlab.app.model.euler_lesson import EulerModel
from quatlab.app.qt.lesson_panel import LessonPanel, swatch
from quatlab.math import gimbal as G
from quatlab.math.gimbal import gimbal_rings
from quatlab.rendering.gimbal import ANGLE_COLOURS, LOCK_COLOUR, GimbalItems
from quatlab.rendering.series import Series
from quatlab.rendering.style import METHOD_COLORS

VIEW_NAME = "euler"
TITLE = N_("Euler angles")

#: SLERP keeps the two-key lesson's colour; Euler lerp is the "naive" orange,
#: and orange means nothing else in this tab: SLERP's Euler readout draws
#: each angle in its gimbal ring's colour (ANGLE_COLOURS). The orange is its
#: deeper light shade (themes.LIGHT_DEEP, 4.0:1 on white where the Okabe-Ito one
#: is 2.25:1): every curve of the tab keeps 3:1 in every theme.
COLOURS = {"euler": "#B86D37", "slerp": METHOD_COLORS["shortest_slerp"]}
LABELS = {"euler": N_("Euler angles, lerped"), "slerp": "SLERP"}
#: Poses of the gimbal over t that the camera fit takes in.
_GIMBAL_FIT_SAMPLES = 21


class EulerView(LessonPanel):
    def __init__(self, model: EulerModel, parent=None) -> None:
        self.model = model
        super().__init__(model.preset_items(), model.set_preset, "t", model.set_param, parent,
                         param_tooltip=_("From the start pose (t = 0) to the end pose (t = 1)"))
        self.set_legend([(COLOURS[k], _(LABELS[k])) for k in COLOURS])
        # A gimbal carries one rigid body: a chain curling by the same
        # rotation at every joint would hide which ring turns what.
        self.scene.set_root_only(True)
        # The hand trails ring the gimbal: by its chain a label crosses its own.
        self.scene.set_labels_over_own_trails(True)
        self.gimbal = GimbalItems(self.scene)
        self.show_gimbal = QtWidgets.QCheckBox(_("gimbal"))
        self.show_gimbal.setObjectName("show_gimbal")
        self.show_gimbal.setChecked(True)
        self.show_gimbal.setToolTip(_("A three-ring gimbal posed by the Euler-lerped angles"))
        self.show_gimbal.toggled.connect(self._gimbal_toggled)
        # Its own row: which ring is which (and which two lock) must be
        # readable without hovering, and the toolbar has no room left.
        row = self.add_option_row()
        row.addWidget(self.show_gimbal)
        self.gimbal_legend = RingLegend(row)
        row.addStretch(1)
        self._build_pose_row()
        model.events.connect("data", self.on_data)
        model.events.connect("param", self.on_param)
        self.on_data()

    def _build_pose_row(self) -> None:
        """Order combo and start/end angles: the two poses the lesson compares."""
        row = self.add_option_row()
        row.addWidget(QtWidgets.QLabel(_("Order")))
        self.order_box = QtWidgets.QComboBox()
        self.order_box.setObjectName("euler_order")
        self.order_box.setToolTip(_("Upper case: intrinsic (each turn about the turned axes); "
                                    "lower case: extrinsic (about the fixed axes)"))
        for order in self.model.ORDERS:
            self.order_box.addItem(order, order)
        self.order_box.currentIndexChanged.connect(
            lambda i: self.model.set_order(self.order_box.itemData(i)))
        row.addWidget(self.order_box)
        self.angle_spins: dict[str, list[QtWidgets.QDoubleSpinBox]] = {}
        for end in ("start", "end"):
            row.addSpacing(8)
            row.addWidget(QtWidgets.QLabel(_("start") if end == "start" else _("end")))
            spins = []
            for k in range(3):
                spin = QtWidgets.QDoubleSpinBox()
                spin.setObjectName(f"euler_{end}_{k}")
                spin.setRange(-360.0, 360.0)
                spin.setDecimals(1)
                spin.setSingleStep(5.0)
                spin.setSuffix("°")
                # Typing "170" must not recompute at "1" and "17" first.
                spin.setKeyboardTracking(False)
                spin.valueChanged.connect(self._angles_edited)
                row.addWidget(spin)
                spins.append(spin)
            self.angle_spins[end] = spins
        row.addStretch(1)

    def _angles_edited(self) -> None:
        start, end = ([s.value() for s in self.angle_spins[k]] for k in ("start", "end"))
        self.model.set_angles(start, end)

    def _show_pose(self) -> None:
        """Order and angles as the model has them, not reported back as edits."""
        m = self.model
        widgets = [self.order_box, *self.angle_spins["start"], *self.angle_spins["end"]]
        for w in widgets:
            w.blockSignals(True)
        try:
            self.order_box.setCurrentIndex(self.order_box.findData(m.order))
            for end, angles in (("start", m.start), ("end", m.end)):
                for k, (spin, a) in enumerate(zip(self.angle_spins[end], angles, strict=True)):
                    spin.setValue(float(np.degrees(a)))
                    # Which axis each angle turns about changes with the order.
                    spin.setPrefix(f"{m.order[k]} ")
                    spin.setToolTip((_("The start angle about {axis}") if end == "start" else
                                     _("The end angle about {axis}")).format(
                                         axis=m.angle_names[k]))
        finally:
            for w in widgets:
                w.blockSignals(False)

    def on_data(self) -> None:
        self.show_preset(self.model.preset)
        self._show_pose()
        c = self.model.comparison
        # Right plot: the angles SLERP's pose reads back as, where the wrap shows.
        with self.plots.batch():  # one refresh of the plots for all of it
            # Stacked beside the gimbal on a short page the plot is about 100 px
            # tall: the whole title was cut to "SLERP a…"; the short one says less.
            self.set_axes("t", None, (0.0, 1.0),
                          {"speed": _("SLERP as {order} angles (°)").format(order=c.order)},
                          y_short={"speed": _("{order} angles (°)").format(order=c.order)})
            self.plots.set_series("angle", [
                Series(k, _(LABELS[k]), COLOURS[k], k == "euler", c.t,
                       np.degrees(getattr(c, f"{k}_angle"))) for k in COLOURS])
            readout = np.degrees(c.slerp_euler)
            # A path that only passes the lock has one sample on it, where the first
            # and last angles are any pair with the right sum or difference: drawn,
            # they made a spike to -180 off both branches ("Near the lock (pitch 85)"
            # at t = 0.5). Left out; a path that stays in the lock keeps its readout.
            locked = G.gimbal_locked(c.slerp_euler, c.order)
            lone = locked & ~np.r_[False, locked[:-1]] & ~np.r_[locked[1:], False]
            readout[np.ix_(lone, [0, 2])] = np.nan
            self.plots.set_series("speed", [
                Series(f"angle{i}", _("SLERP, about {axis}").format(axis=n), ANGLE_COLOURS[i],
                       False, c.t, readout[:, i], short_label=n)
                for i, n in enumerate(self.model.angle_names)])
            self.plots.set_markers(self.model.wrap_times())
        for k, path in (("euler", c.euler_quats), ("slerp", c.slerp_quats)):
            self.scene.set_path(k, path, COLOURS[k])
            self.scene.set_label(k, _(LABELS[k]))
        self._frame_gimbal()
        self.on_param()

    def _gimbal_toggled(self, shown: bool) -> None:
        self.gimbal.set_visible(shown)
        self.scene.set_drawn_lines("gimbal", self.gimbal.outline())
        self._frame_gimbal()

    def _frame_gimbal(self) -> None:
        """Have the camera frame the rings wherever they go over t (nothing while hidden)."""
        m = self.model
        if not self.show_gimbal.isChecked():
            self.scene.set_framed_body("gimbal", None, 0.0)
            return
        # Every sample at once: pose by pose cost ~100 ms a preset change.
        angles = m.angles_at(np.linspace(0.0, 1.0, _GIMBAL_FIT_SAMPLES))
        points, pad = self.gimbal.reach(gimbal_rings(angles, m.order),
                                        G.gimbal_locked(angles, m.order))
        self.scene.set_framed_body("gimbal", points, pad)

    def on_param(self) -> None:
        m = self.model
        for k, q in m.at_param().items():
            self.scene.set_chain(k, q, COLOURS[k])
        rings = gimbal_rings(m.angles_at_param(), m.order)
        self.gimbal.set_rings(rings, m.readout().locked)
        self.scene.set_drawn_lines("gimbal", self.gimbal.outline())
        self.gimbal_legend.set_parts(self._gimbal_legend(rings))
        self.slider.set_value(m.param)
        self.plots.set_cursor(m.param)
        self.explanation.setText(m.explanation())

    def _gimbal_legend(self, rings) -> list[str]:
        """Which ring turns by which angle, in the rings' current colours: one part each,
        and the lock's when the rings lock."""
        names = (_("outer ring"), _("middle ring"), _("inner ring"))
        angles = self.model.angle_names
        # Only the mark takes the ring's colour: the light ones (sky blue,
        # the lock's yellow) would not read as text.
        parts = [f"{swatch(c)} "
                 + _("{ring}: the angle about {axis}").format(ring=names[k],
                                                              axis=angles[rings.angle_index[k]])
                 for k, c in enumerate(self.gimbal.colours)]
        if self.gimbal.locked:
            # Yellow text would not read on white: dark text on a yellow mark.
            parts.append(f"<b style='background-color:{LOCK_COLOUR}; color:#000000'>"
                         "&nbsp;" + _("locked: one shared axis") + "&nbsp;</b>")
        return parts


class RingLegend:
    """The gimbal's legend as one label per ring (and one for the lock) in an option row.

    As one label it was the widest thing in the tab (1170 px at 150 %) and
    made it scroll sideways on a 1024-px screen; apart, the row wraps
    between them.
    """

    def __init__(self, row) -> None:
        self.labels = []
        for k in range(4):
            label = QtWidgets.QLabel()
            label.setObjectName(f"gimbal_legend_{k}")
            label.hide()
            row.addWidget(label)
            self.labels.append(label)

    def set_parts(self, parts: list[str]) -> None:
        for k, label in enumerate(self.labels):
            label.setVisible(k < len(parts))
            label.setText(parts[k] if k < len(parts) else "")

    def text(self) -> str:
        """The legend as one text (the parts shown)."""
        return "&nbsp; ".join(lb.text() for lb in self.labels if not lb.isHidden())


#: The preset the tab opens on: one that moves (near the lock, the lerp sweeps
#: twice SLERP's angle); the first, the lock itself, does not move at all.
DEFAULT_PRESET = "near_lock"


def create(window) -> QtWidgets.QWidget:
    return EulerView(EulerModel(DEFAULT_PRESET))
