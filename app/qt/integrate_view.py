"""Integration lesson: a constant spin stepped by a quaternion recursion and by matrix products.

The chain is one rigid body (root only) at the chosen step, integrated and
exact side by side; the left plot shows how far each integrator has left its
constraint (|q| = 1, R^T R = I), the right one how far its rotation is from
the exact spin. Both integrators are always computed, so the Show checkboxes
of the plots switch between them (the y ranges follow what is shown).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph.opengl as gl
from PyQt6 import QtCore, QtWidgets

from quatlab.app.i18n import N_, _
from quatlab.app.model.explain import glue_formulas
from quatlab.app.model.integrate_lesson import IntegrateModel
from quatlab.app.qt.background import PreparingRunner
from quatlab.app.qt.lesson_panel import LessonPanel
from quatlab.app.qt.paint_later import PaintLater
from quatlab.rendering.chain import ROOT, tip_trail
from quatlab.rendering.series import Series
from quatlab.rendering.style import METHOD_COLORS, rgba

VIEW_NAME = "integrate"
TITLE = N_("Integration drift")

#: The exact spin is the reference answer, so it gets the reference SLERP
#: colour; the integrated q the "flawed" orange of the other lessons; the
#: matrix, shown in the plots only, sky blue.
COLOURS = {"exact": METHOD_COLORS["shortest_slerp"], "integrated": "#E69F00",
           "matrix": "#56B4E9"}
#: More repair markers than this would grey out the plots rather than mark
#: anything; the sawtooth of the curve shows the repairs then.
MAX_REPAIR_MARKS = 40

_FRAMES = {"world": (N_("ω in world frame"),
                     N_("The increment multiplies from the left: q ← Δq ⊗ q")),
           "local": (N_("ω in body frame"),
                     N_("The increment multiplies from the right: q ← q ⊗ Δq"))}
_STEPS = {"exact": (N_("exact step"), N_("q ← exp(ω dt / 2) ⊗ q: |q| stays 1 to rounding")),
          "first_order": (N_("first-order step"), N_("q ← q + dt/2 (0, ω) ⊗ q: cheap, "
                                                      "but |q| grows and the angle lags"))}


def _finite_f32(a: np.ndarray) -> bool:
    """Whether ``a`` survives the float32 the GL items draw with (1e39 does not)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return bool(np.all(np.isfinite(np.asarray(a, dtype=np.float32))))


def _combo(name: str, items: dict[str, tuple[str, str]], on_key) -> QtWidgets.QComboBox:
    """A combo of ``{key: (label, tooltip)}`` (translated here) reporting the chosen key."""
    box = QtWidgets.QComboBox()
    box.setObjectName(name)
    for key, (label, tip) in items.items():
        box.addItem(_(label), key)
        box.setItemData(box.count() - 1, _(tip), QtCore.Qt.ItemDataRole.ToolTipRole)
    box.currentIndexChanged.connect(lambda i: on_key(box.itemData(i)))
    return box


def _quietly(widget: QtWidgets.QWidget, setter: str, value) -> None:
    """Show the model's value in ``widget`` without reporting it back."""
    widget.blockSignals(True)
    getattr(widget, setter)(value)
    widget.blockSignals(False)


class IntegrateView(LessonPanel):
    def __init__(self, model: IntegrateModel, parent=None) -> None:
        self.model = model
        super().__init__(model.preset_items(), model.set_preset, _("step"), model.set_param,
                         parent, param_tooltip=_("Step of the integration shown in 3D and by "
                                                 "the cursor"),
                         param_decimals=0)
        self.set_legend([(COLOURS["integrated"], _("integrated q")),
                                         (COLOURS["exact"], _("exact spin"))])
        self._build_options()
        self.scene.set_root_only(True)  # a rigid body spins; a curling chain would distract
        # 10,000 steps of both recursions take about 0.1 s, and the two trails
        # of 10,001 samples a few tens of ms more: all on a worker thread, so
        # the window keeps painting (input waits until the run is back).
        self.runner = PreparingRunner(self._trail_preparer, key=lambda results: results[0])
        model.runner = self.runner
        # New curves are set at once but painted after the rest of the view
        # and its 3D frame: their first paint alone is most of a frozen frame.
        self.plots_paint = PaintLater(self.plots, after=self.scene,
                                      stagger=(self.plots.plots["speed"],))
        self.scene.set_label("exact", _("exact spin"))
        for item in self.plots.plots.values():
            # pyqtgraph would print a drift of 1e-5 as "10 (x1e-06)": plain
            # tick values are what the explanation quotes.
            item.getAxis("left").enableAutoSIPrefix(False)
            # Ticks such as 0.0008 are wider than the fixed axis the angle
            # lessons use; let the axis fit them.
            item.getAxis("left").setWidth(None)
        # Where q v q* would put the tip with the integrated, unnormalized q:
        # |q|^2 times as far from the root. The chain itself is drawn
        # normalized, so this line is what makes "the body grows" visible.
        self.stretch = gl.GLLinePlotItem(mode="lines", width=2.0, antialias=True,
                                         color=rgba(COLOURS["integrated"], 0.9),
                                         glOptions="translucent")
        self.scene.addItem(self.stretch)
        model.events.connect("data", self.on_data)
        model.events.connect("param", self.on_param)
        self.on_data()

    def _build_options(self) -> None:
        m = self.model
        row = self.add_option_row()
        row.addWidget(QtWidgets.QLabel("<b>q</b>"))
        self.frame = _combo("frame", _FRAMES, self._guarded(m.set_frame))
        self.step_rule = _combo("step_rule", _STEPS, self._guarded(m.set_step))
        self.renormalize = QtWidgets.QCheckBox(_("renormalize"))
        self.renormalize.setObjectName("renormalize")
        self.renormalize.setToolTip(_("Divide q by |q| after every step"))
        self.renormalize.toggled.connect(self._guarded(m.set_renormalize))
        self.dt = QtWidgets.QDoubleSpinBox()
        self.dt.setObjectName("dt")
        self.dt.setDecimals(4)
        self.dt.setRange(0.0005, 1.0)
        self.dt.setSingleStep(0.01)
        self.dt.setSuffix(" s")
        self.dt.setToolTip(_("Time step (1 / rate): 0.05 s is 20 Hz"))
        self.steps = QtWidgets.QSpinBox()
        self.steps.setObjectName("steps")
        self.steps.setRange(1, m.MAX_STEPS)
        self.steps.setToolTip(_("Number of steps integrated"))
        # Apply on Enter, focus out or the arrows, not per keystroke: every
        # change re-runs both recursions.
        for spin in (self.dt, self.steps):
            spin.setKeyboardTracking(False)
        self.dt.valueChanged.connect(self._guarded(m.set_dt))
        self.steps.valueChanged.connect(self._guarded(m.set_steps))
        # Shown when a change takes longer than a blink to compute; its room
        # is kept while hidden, so showing it moves nothing (no re-layout).
        self.busy = QtWidgets.QLabel(_("computing…"))
        self.busy.setObjectName("integrate_busy")
        policy = self.busy.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.busy.setSizePolicy(policy)
        self.busy.hide()
        self._busy_after = QtCore.QTimer(self)
        self._busy_after.setSingleShot(True)
        self._busy_after.setInterval(40)
        self._busy_after.timeout.connect(self.busy.show)
        for w in (self.frame, self.step_rule, self.renormalize, QtWidgets.QLabel("dt"),
                  self.dt, QtWidgets.QLabel(_("steps")), self.steps, self.busy):
            row.addWidget(w)
        row.addStretch(1)

        row = self.add_option_row()
        row.addWidget(QtWidgets.QLabel("<b>" + _("matrix R") + "</b>"))
        self.dtype = _combo("dtype", {d: (d, _("Accumulate R in {dtype}").format(dtype=d))
                                     for d in m.DTYPES},
                            self._guarded(m.set_dtype))
        self.every = QtWidgets.QSpinBox()
        self.every.setObjectName("reorthonormalize_every")
        self.every.setRange(0, m.MAX_STEPS)
        self.every.setSpecialValueText(_("never"))
        self.every.setKeyboardTracking(False)
        self.every.setToolTip(_("Gram-Schmidt re-orthonormalization every N steps (0: never)"))
        self.every.valueChanged.connect(self._guarded(m.set_reorthonormalize_every))
        self.keep = _combo("keep", {i: (_("{axis} axis").format(axis=a), _(
                                        "Gram-Schmidt keeps the {axis} axis' direction exactly "
                                        "(e.g. the facing axis)").format(axis=a))
                                    for i, a in enumerate(m.AXES)}, self._guarded(m.set_keep))
        for w in (self.dtype, QtWidgets.QLabel(_("re-orthonormalize every")), self.every,
                  QtWidgets.QLabel(_("steps, keeping its")), self.keep):
            row.addWidget(w)
        row.addStretch(1)
        # A refused option (a run that overflows, a value out of range) is
        # said here; the controls go back to what the model computed.
        self.message = QtWidgets.QLabel()
        self.message.setObjectName("integrate_message")
        self.message.setWordWrap(True)
        self.message.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.message.setStyleSheet(f"color: {METHOD_COLORS['naive_nlerp']};")
        self.add_option_row().addWidget(self.message)
        self.message.hide()

    def _guarded(self, setter):
        """``setter`` for a control's signal: a ValueError is shown and the control reset."""
        def apply(value) -> None:
            self._busy_after.start()  # fires while the run computes off the GUI thread
            try:
                setter(value)
            except ValueError as exc:
                self.message.setText(_("Refused: {error}").format(error=exc))
                self.message.show()
                self._show_options()
                return
            finally:
                self._busy_after.stop()
                self.busy.hide()
            self.message.hide()
        return apply

    def _show_options(self) -> None:
        m = self.model
        _quietly(self.frame, "setCurrentIndex", self.frame.findData(m.frame))
        _quietly(self.step_rule, "setCurrentIndex", self.step_rule.findData(m.step))
        _quietly(self.renormalize, "setChecked", m.renormalize)
        _quietly(self.dt, "setValue", m.dt)
        _quietly(self.steps, "setValue", m.steps)
        _quietly(self.dtype, "setCurrentIndex", self.dtype.findData(m.dtype))
        _quietly(self.every, "setValue", m.reorthonormalize_every)
        _quietly(self.keep, "setCurrentIndex", self.keep.findData(m.keep))
        # Without repairs there is no axis to keep.
        self.keep.setEnabled(m.reorthonormalize_every > 0)

    def _trail_preparer(self):
        """The 3D trails of a new run, built on the worker (see PreparingRunner)."""
        integrated, exact = (self.scene.trail_shaper(k) for k in ("integrated", "exact"))
        return lambda results: {"integrated": integrated.shape(results[0].quats),
                                "exact": exact.shape(results[0].exact)}

    def on_data(self) -> None:
        m = self.model
        self.show_preset(m.preset)
        self.plots_paint.hold()
        self._show_options()
        x, run, mat = m.step_index, m.run, m.matrix
        with self.plots.batch():  # one refresh of the plots for all of it
            self.set_axes(_("step"), None, m.param_range,
                          {"angle": _("|q| − 1   and   ‖RᵀR − I‖"),
                           "speed": _("angle error (°)")},
                          y_range="auto", y_short={"speed": _("error (°)")})
            # Glued (docs/projector.md): the Chinese title at 1280x720 broke inside the
            # norm, "‖RᵀR" over "− I‖", and the lone "I‖" read as "≡".
            self.plots.set_y_axis(
                "angle", glue_formulas(_("| |q| − 1 |   and   ‖RᵀR − I‖   (log)")), "auto",
                log=True, short=_("drift (log)"))
            q_label, r_label = _("quaternion q"), _("matrix R ({dtype})").format(dtype=m.dtype)
            self.plots.set_series("angle", [
                Series("q", q_label, COLOURS["integrated"], False, x, run.norm_drift),
                Series("R", r_label, COLOURS["matrix"], True, x, mat.orthonormality_error)])
            self.plots.set_series("speed", [
                Series("q", q_label, COLOURS["integrated"], False, x, run.angle_error_deg),
                Series("R", r_label, COLOURS["matrix"], True, x, np.degrees(mat.angle_error))])
            repairs = m.repair_steps()
            self.plots.set_markers(repairs if repairs.size <= MAX_REPAIR_MARKS else [])
        shapes = self.runner.prepared(run) or {}
        self.scene.set_path("integrated", run.quats, COLOURS["integrated"],
                            shape=shapes.get("integrated"))
        self.scene.set_path("exact", run.exact, COLOURS["exact"], shape=shapes.get("exact"))
        self.on_param()

    def on_param(self) -> None:
        m = self.model
        at = m.at_param()
        # The chain is drawn normalized; the label keeps |q| in view.
        norm = float(np.linalg.norm(at["integrated"]))
        shown = f"{norm:.4f}" if norm < 1e4 else f"{norm:.3g}"
        self.scene.set_label("integrated", _("integrated q, |q| = {norm}").format(norm=shown))
        q = at["integrated"]
        stretch = None
        if np.isfinite(norm) and norm > 0:
            tip = tip_trail(q[None] / norm, root_only=True)[0]
            with np.errstate(over="ignore", invalid="ignore"):
                stretch = np.array([ROOT, ROOT + norm**2 * (tip - ROOT)])
        # Past float32 (|q|^2 > 3e38) there is no point to draw: hide the line
        # rather than hand GL an infinity; the label still gives |q|.
        if stretch is not None and _finite_f32(stretch):
            self.stretch.setData(pos=stretch.astype(np.float32))
            self.stretch.setVisible(True)
        else:
            self.stretch.setVisible(False)
        for k, q in at.items():
            # An overflowed q has no rotation: NaN hides the chain, keeps its label.
            self.scene.set_chain(k, q if np.all(np.isfinite(q)) else np.full(4, np.nan),
                                 COLOURS[k])
        self.slider.set_value(m.param)
        self.plots.set_cursor(m.param)
        self.explanation.setText(m.explanation())
        self.plots_paint.changed()  # after new data: the last of the view's changes


def create(window) -> QtWidgets.QWidget:
    return IntegrateView(IntegrateModel())
