"""Lesson "Euler wrap vs double cover": an Euler channel wrap beside a quaternion sign flip.

Three chains side by side play the same two keys: the Euler channels lerped
per channel (spinning across the +-180 deg wrap), the quaternion keys with
the second in the opposite hemisphere lerped naively (the long way round
S^3), and SLERP on the shortest arc. The plots show the rotation angle from
the start pose and the angular speed over t; the explanation says why one
is a representation jump in R^3 angles and the other a sign on S^3
(:mod:`quatlab.app.model.wrap_lesson`).
"""

from __future__ import annotations

import numpy as np
from PyQt6 import QtWidgets

from quatlab.app.i18n import N_, _
from quatlab.app.model.wrap_lesson import METHODS, WrapModel
from quatlab.app.qt.lesson_panel import LessonPanel
from quatlab.rendering.chain import ROOT
from quatlab.rendering.series import Series
from quatlab.rendering.style import METHOD_COLORS

VIEW_NAME = "wrap"
TITLE = N_("Euler wrap vs double cover")

#: Euler lerp keeps the Euler lesson's orange; the naive and SLERP colours are the two-key lesson's.
COLOURS = {"euler": "#E69F00", "naive": METHOD_COLORS["naive_nlerp"],
           "slerp": METHOD_COLORS["shortest_slerp"]}
LABELS = {"euler": N_("Euler channels, lerped"), "naive": N_("quaternions ±q, naive NLERP"),
          "slerp": N_("SLERP, shortest arc")}
#: Chain roots side by side (y), farther apart than two reaches (2 x 2.44), so the
#: circles the tips sweep never cross and each spin is seen on its own.
SPACING = 5.5
ROOTS = {k: ROOT + [0.0, SPACING * (i - 1), 0.0] for i, k in enumerate(METHODS)}
#: Camera (elevation, azimuth), degrees.
VIEW_DIRECTION = (58.0, -28.0)


class WrapView(LessonPanel):
    def __init__(self, model: WrapModel, parent=None) -> None:
        self.model = model
        super().__init__(model.preset_items(), model.set_preset, "t", model.set_param, parent,
                         param_tooltip=_("From the first key (t = 0) to the second (t = 1)"))
        self.set_legend([(COLOURS[k], _(LABELS[k])) for k in METHODS])
        # One rigid limb per method: the turn of the joint, not a curl.
        self.scene.set_root_only(True)
        # From in front of the row and well above: the three roots run left
        # to right across the screen, each tip circle opens up, and the limbs,
        # which point away from +x (yaw 170°), are not seen end on (from
        # straight in front the SLERP limb and its 20° trail were a dot).
        self.scene.set_default_direction(*VIEW_DIRECTION)
        for k in METHODS:
            self.scene.set_chain(k, None, COLOURS[k], root=ROOTS[k])
            self.scene.set_label(k, _(LABELS[k]))
        model.events.connect("data", self.on_data)
        model.events.connect("param", self.on_param)
        self.on_data()

    def on_data(self) -> None:
        self.show_preset(self.model.preset)
        c = self.model.comparison
        with self.plots.batch():  # one refresh of the plots for all of it
            self.set_axes("t", None, (0.0, 1.0), {"angle": _("angle from the first key (°)"),
                                                 "speed": _("angular speed (°/t)")},
                          y_short={"angle": _("angle (°)"),
                                   "speed": _("speed (°/{unit})").format(unit="t")})
            for plot, values in (("angle", c.angle), ("speed", c.speed)):
                self.plots.set_series(plot, [
                    Series(k, _(LABELS[k]), COLOURS[k], k == "naive", c.t, values[k])
                    for k in METHODS])
        for k in METHODS:
            self.scene.set_path(k, c.quats[k], COLOURS[k])
        self.on_param()

    def on_param(self) -> None:
        m = self.model
        for k, q in m.at_param().items():
            self.scene.set_chain(k, q, COLOURS[k])
        self.slider.set_value(m.param)
        # The dots at the angles the sentence at t gives (exact), not read off
        # the sampled curves: near naive NLERP's spike the two differed.
        c, at = m.comparison, m.angles_at_param()
        self.plots.set_cursor(m.param, {k: (at[k], float(np.interp(m.param, c.t, c.speed[k])))
                                        for k in METHODS})
        self.explanation.setText(m.explanation())


def create(window) -> QtWidgets.QWidget:
    return WrapView(WrapModel())
