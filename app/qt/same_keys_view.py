"""Lesson "same keys, six engines": one two-key segment played side by side by six runtimes.

Left of the 3D view, the two-key lesson's endpoint editors (components,
axis-angle, Euler angles, paste, and −q to store a key in the other
hemisphere) edit the segment; six chains play it, one per runtime of
:data:`quatlab.math.same_keys.ENGINES` (docs/runtimes.md). The plots show
each runtime's path angle from q0 over t and how far it is from the glTF
reference; the explanation says which runtimes share the reference's motion
and which take another path, and why (:mod:`quatlab.app.model.same_keys_lesson`).
"""

from __future__ import annotations

from PyQt6 import QtCore, QtWidgets

from quatlab.app.i18n import N_, _
from quatlab.app.model.same_keys_lesson import SameKeysModel
from quatlab.app.qt.endpoint_editor import EndpointEditor
from quatlab.app.qt.lesson_panel import LessonPanel
from quatlab.math import runtimes as R
from quatlab.rendering.series import Series
from quatlab.rendering.themes import LIGHT

VIEW_NAME = "engines"
TITLE = N_("Same keys, six engines")

#: One colour per runtime (Okabe-Ito): the reference keeps the shortest-SLERP green of the
#: two-key lesson, the stored-sign lerp its naive vermillion, Euler curves their orange.
#: The other three were chosen so that every pair stays apart in every theme and for
#: every colour-vision deficiency tests/test_themes.py simulates. three.js is the themes'
#: violet (high contrast drew its light purple at 4.7:1 on black, the other curves at
#: 8-21:1); Unreal a grey unlike the cursor's. The sky blue and the orange are their
#: deeper light shades (themes.LIGHT_DEEP; the dark themes draw their own sky blue and
#: orange): every curve and 3D chain keeps 3:1 on its background in every theme
#: (tests/test_same_keys.py), where the Okabe-Ito ones were 2.1:1 on the light theme's.
COLOURS = {"gltf": "#009E73", "three": LIGHT.violet, "playcanvas": "#0083F5",
           "unity_quat": "#D55E00", "unity_euler": "#B86D37",
           # The themes' neutral grey for a mark (Theme.findings["other"]), not the
           # secondary-text grey it was: that is white in high contrast, the cursor's
           # colour there, and 14.9 Delta E from the light cursor.
           "unreal": LIGHT.findings["other"]}
#: Runtimes that blend the components (NLERP-like timing) are dashed, as NLERP is elsewhere.
DASHED = {"playcanvas", "unity_quat", "unreal"}


class SameKeysView(LessonPanel):
    # Two endpoint forms: over the stage they keep their own width.
    STRIP_FILL = False
    # Six chains in a row.
    WIDE_SCENE = True

    def __init__(self, model: SameKeysModel, parent=None) -> None:
        self.model = model
        self.editors: list[EndpointEditor] = []  # made after the panel, which asks (_across)
        super().__init__(model.preset_items(), model.set_preset, "t", model.set_param, parent,
                         param_tooltip=_("From the first key (t = 0) to the second (t = 1)"))
        ids = model.runtimes
        self.set_legend([(COLOURS[r], _(R.runtime(r).label)) for r in ids])
        side = self.add_scene_side(_("q0 and q1"))
        self.editors = [EndpointEditor(model.state, which) for which in (0, 1)]
        pair = QtWidgets.QWidget()
        # Down beside the view, across in the strip over it (arrange_side).
        self._pair = QtWidgets.QBoxLayout(QtWidgets.QBoxLayout.Direction.TopToBottom, pair)
        self._pair.setContentsMargins(0, 0, 0, 0)
        for editor in self.editors:
            # The two-key tab has editors of the same names: these get a prefix, so
            # a lookup by name (tests, the window) finds that tab's, not this one's.
            for widget in (editor, *editor.findChildren(QtCore.QObject)):
                if widget.objectName():
                    widget.setObjectName("engines_" + widget.objectName())
            self._pair.addWidget(editor)
        side.addWidget(pair)
        side.addStretch(1)
        self.scene.set_root_only(True)
        self.scene.set_auto_direction(True)
        for r in ids:
            self.scene.set_chain(r, None, COLOURS[r])
            self.scene.set_label(r, _(R.runtime(r).label))
        # Side by side by what each sweeps, in one row or two of three, seen from
        # the side that shows them longest (ChainCamera.set_row, docs/projector.md).
        self.scene.set_row(ids)
        # A label wider than the row's pitch may stand over a trail (the Unity ring)
        # to stand by its own chain, not beside a neighbour's.
        self.scene.set_labels_over_trails(True)
        model.events.connect("data", self.on_data)
        model.events.connect("param", self.on_param)
        self.on_data()

    def _across(self, width: int) -> bool:
        """Whether q0's and q1's forms stand side by side in a strip ``width`` wide."""
        if not self.editors:
            return False
        need = sum(e.minimumSizeHint().width() for e in self.editors) + self._pair.spacing()
        margins = self._side.contentsMargins()
        return width >= need + margins.left() + margins.right() + 12

    def arrange_side(self, in_strip: bool) -> None:
        # Over the stage, one form above the other took 270 of 900 px from the
        # picture at 1400x900; side by side they take half that.
        across = in_strip and self._across(self.width())
        if self.editors:
            self._pair.setDirection(QtWidgets.QBoxLayout.Direction.LeftToRight if across
                                    else QtWidgets.QBoxLayout.Direction.TopToBottom)

    def strip_height(self, width: int) -> int:
        if not self._across(width):
            return super().strip_height(width)
        margins = self._side.contentsMargins()
        return (max(e.sizeHint().height() for e in self.editors) + margins.top()
                + margins.bottom())

    def on_data(self) -> None:
        m = self.model
        self.show_preset(m.state.preset or m.preset)
        c = m.comparison
        with self.plots.batch():
            self.set_axes("t", None, (0.0, 1.0), {
                "angle": _("path angle from q0 (°)"),
                "speed": _("off the glTF reference (°)")},
                y_short={"angle": _("angle (°)"), "speed": _("error (°)")})
            for plot, values in (("angle", c.angle), ("speed", c.off)):
                self.plots.set_series(plot, [
                    Series(r, _(R.runtime(r).label), COLOURS[r], r in DASHED, c.t, values[r])
                    for r in m.runtimes])
        with self.scene.one_framing():
            for r in m.runtimes:
                self.scene.set_path(r, c.quats[r], COLOURS[r])
            # The chains stand side by side by what they sweep (set_row): after an
            # edit (−q) the long way round needs more room.
            self.scene.reframe()
        self.on_param()

    def on_param(self) -> None:
        m = self.model
        for r, q in m.at_param().items():
            self.scene.set_chain(r, q, COLOURS[r])
        self.slider.set_value(m.param)
        self.plots.set_cursor(m.param)
        self.explanation.setText(m.explanation())


def create(window) -> QtWidgets.QWidget:
    return SameKeysView(SameKeysModel())
