"""The two-key lesson's centre: the 3D chains over the t scrubber and the angle and speed plots.

It subscribes to a :class:`~quatlab.app.model.state.LessonState` and pushes
its curves to the views when the endpoints change; a change of t only moves
the chains, the cursor and the readouts (docs/architecture.md).
"""

from __future__ import annotations

import numpy as np
from PyQt6 import QtWidgets

from quatlab.app.model.state import LessonState
from quatlab.app.qt.lesson_panel import scene_over_plots
from quatlab.app.qt.scrubber import Scrubber
from quatlab.rendering.chain import tip_trail
from quatlab.rendering.style import METHOD_COLORS

__all__ = ["LessonView"]


class LessonView(QtWidgets.QWidget):
    """The two-key lesson: 3D chains over the scrubber and the plots."""

    def __init__(self, state: LessonState, parent=None) -> None:
        super().__init__(parent)
        from quatlab.rendering.chain_scene import ChainScene
        from quatlab.rendering.curve_plots import CurvePlots

        self.state = state
        self.setObjectName("main")
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)

        # Scene toolbar: which family drives the chains, root-only, camera reset.
        bar = QtWidgets.QHBoxLayout()
        bar.setContentsMargins(6, 2, 6, 0)
        bar.addWidget(QtWidgets.QLabel("Chains show:"))
        self.family_buttons = {}
        group = QtWidgets.QButtonGroup(self)
        for fam in ("slerp", "nlerp"):
            b = QtWidgets.QRadioButton(fam.upper())
            b.setObjectName(f"family_{fam}")
            b.setToolTip(f"Drive the naive and the shortest chain with {fam.upper()}")
            b.toggled.connect(lambda on, f=fam: on and state.set_chain_family(f))
            group.addButton(b)
            bar.addWidget(b)
            self.family_buttons[fam] = b
        self.root_only = QtWidgets.QCheckBox("root joint only")
        self.root_only.setObjectName("root_only")
        self.root_only.setToolTip("Rotate only the root joint (unchecked: every joint shares "
                                  "the rotation, so the effect compounds along the chain)")
        self.root_only.toggled.connect(state.set_root_only)
        bar.addWidget(self.root_only)
        bar.addStretch(1)
        self.legend = QtWidgets.QLabel()
        bar.addWidget(self.legend)
        reset = QtWidgets.QPushButton("Reset camera")
        reset.setToolTip("Back to the default view (R)")
        bar.addWidget(reset)
        layout.addLayout(bar)

        self.scene = ChainScene(self)
        # Layout properties go on the container: the scene is a native window.
        self.scene.widget.setObjectName("scene")
        self.scene.widget.setMinimumSize(320, 240)
        reset.clicked.connect(self.scene.reset_camera)
        self.scrubber = Scrubber(state, self)
        self.plots = CurvePlots(self)
        self.plots.setObjectName("plots")
        self.plots.setMinimumHeight(200)

        layout.addWidget(scene_over_plots(self.scene.widget, self.scrubber, self.plots), 1)

        self.plots.cursorMoved.connect(state.set_t)
        self.plots.visibilityChanged.connect(state.set_visible)
        state.events.connect("endpoints", self.on_endpoints)
        state.events.connect("t", self.on_t)
        state.events.connect("options", self.on_options)
        self.on_options()
        self.on_endpoints()

    # ------------------------------------------------------------------ model -> views
    def _families(self) -> tuple[str, str]:
        fam = self.state.chain_family
        return f"naive_{fam}", f"shortest_{fam}"

    def on_endpoints(self) -> None:
        s = self.state
        self.plots.set_curves(s.curves)
        self.scene.set_ghosts(s.q0, s.q1)
        self._update_trails()
        self.on_t()

    def _update_trails(self) -> None:
        curves = self.state.curves
        for key, method in zip(("naive", "shortest"), self._families(), strict=True):
            pts = tip_trail(curves[method].quats, root_only=self.state.root_only)
            self.scene.set_trail(key, pts, METHOD_COLORS[method])

    def on_t(self) -> None:
        at = self.state.at_t()
        for key, method in zip(("naive", "shortest"), self._families(), strict=True):
            q = at[method].quats[0]
            self.scene.set_chain(key, q if np.all(np.isfinite(q)) else None,
                                 METHOD_COLORS[method])
        self.plots.set_cursor(self.state.t)

    def on_options(self) -> None:
        s = self.state
        self.family_buttons[s.chain_family].setChecked(True)
        self.root_only.setChecked(s.root_only)
        self.scene.set_root_only(s.root_only)
        for m, on in s.visible.items():
            self.plots.set_method_visible(m, on)
        naive, shortest = self._families()
        self.legend.setText(
            f"<span style='color:{METHOD_COLORS[naive]}'>■ naive</span>&nbsp; "
            f"<span style='color:{METHOD_COLORS[shortest]}'>■ shortest</span>&nbsp; "
            "<span style='color:#888'>□ ghosts t = 0, 1</span>"
        )
        self._update_trails()
        self.on_t()
