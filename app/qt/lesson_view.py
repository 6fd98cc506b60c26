"""The two-key lesson's centre: the 3D chains over the t scrubber and the angle and speed plots.

It subscribes to a :class:`~quatlab.app.model.state.LessonState` and pushes
its curves to the views when the endpoints change; a change of t only moves
the chains, the cursor and the readouts (docs/architecture.md).
"""

from __future__ import annotations

from PyQt6 import QtCore, QtWidgets

from quatlab.app.i18n import _
from quatlab.app.model.state import LessonState
from quatlab.app.qt.lesson_panel import legend_html, scene_over_plots
from quatlab.app.qt.scrubber import Scrubber
from quatlab.rendering.flow_layout import FlowRow
from quatlab.rendering.style import METHOD_COLORS, METHOD_LABELS
from quatlab.rendering.themes import LIGHT

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
        bar = FlowRow()  # wraps on a narrow window
        bar.setContentsMargins(6, 2, 6, 0)
        bar.addWidget(QtWidgets.QLabel(_("Chains show:")))
        self.family_buttons = {}
        group = QtWidgets.QButtonGroup(self)
        for fam in ("slerp", "nlerp"):
            b = QtWidgets.QRadioButton(fam.upper())
            b.setObjectName(f"family_{fam}")
            b.setToolTip(_("Drive the naive and the shortest chain with {method}").format(
                method=fam.upper()))
            b.toggled.connect(lambda on, f=fam: on and state.set_chain_family(f))
            group.addButton(b)
            bar.addWidget(b)
            self.family_buttons[fam] = b
        self.root_only = QtWidgets.QCheckBox(_("root joint only"))
        self.root_only.setObjectName("root_only")
        self.root_only.setToolTip(_("Rotate only the root joint, so the chain turns as one "
                                    "rigid body about the axis drawn at its root (unchecked: "
                                    "every joint shares the rotation, so the effect compounds "
                                    "along the chain)"))
        self.root_only.toggled.connect(state.set_root_only)
        bar.addWidget(self.root_only)
        bar.addStretch(1)
        self.legend = QtWidgets.QLabel()
        bar.addWidget(self.legend)
        # Apart from the legend, so the row can wrap between them: as one label
        # it was the widest thing in the lesson (474 px at 130 %) and made the
        # tab scroll sideways at 1024x768.
        self.ghosts_note = QtWidgets.QLabel()
        bar.addWidget(self.ghosts_note)
        reset = QtWidgets.QPushButton(_("Reset camera"))
        reset.setToolTip(_("Back to the default view (R)"))
        bar.addWidget(reset)
        layout.addLayout(bar)
        self._bar = bar

        self.scene = ChainScene(self)
        # Layout properties go on the container: the scene is a native window.
        self.scene.widget.setObjectName("scene")
        # Tall enough for the chains to fill a 1400x720 view (the scene framing).
        self.scene.widget.setMinimumSize(320, 240)
        self.scene.set_auto_direction(True)
        reset.clicked.connect(self.scene.reset_camera)
        self.scrubber = Scrubber(state, self)
        self.plots = CurvePlots(self)
        self.plots.setObjectName("plots")
        self.plots.setMinimumHeight(180)
        # A 1° turn fills its plot; the gauge keeps the whole turn in view.
        self.plots.set_fit_angles(True)

        #: The 3D view and the plots: what ``quatlab record --region view`` records.
        self.stage = scene_over_plots(self.scene.widget, self.scrubber, self.plots)
        layout.addWidget(self.stage, 1)

        self.plots.cursorMoved.connect(state.set_t)
        self.plots.visibilityChanged.connect(state.set_visible)
        # Behind another tab of a shown window, changes only mark the views
        # stale and showing the tab catches up (as the S3 tab does): a preset
        # chosen from the Presets menu on the S3 tab redrew all of this too.
        self._stale: set[str] = set()
        state.events.connect("endpoints", lambda: self._follow("endpoints"))
        state.events.connect("t", lambda: self._follow("t"))
        state.events.connect("options", lambda: self._follow("options"))
        self._framed_preset: object = None
        self.on_options()
        self.on_endpoints()

    def _follow(self, change: str) -> None:
        window = self.window()
        if window is not self and window.isVisible() and not self.isVisible():
            self._stale.add(change)
            return
        {"endpoints": self.on_endpoints, "t": self.on_t, "options": self.on_options}[change]()

    def catch_up(self) -> None:
        """Draw what changed while the tab was hidden (each redraw below also moves t)."""
        stale, self._stale = self._stale, set()
        if "options" in stale:
            self.on_options()
        if "endpoints" in stale:
            self.on_endpoints()
        elif "t" in stale and "options" not in stale:
            self.on_t()

    def showEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().showEvent(ev)
        self.catch_up()

    def add_toolbar_action(self, action) -> QtWidgets.QToolButton:
        """A button for ``action`` (checkable: a toggle) at the end of the toolbar."""
        button = QtWidgets.QToolButton()
        button.setDefaultAction(action)
        button.setToolButtonStyle(QtCore.Qt.ToolButtonStyle.ToolButtonTextOnly)
        self._bar.addWidget(button)
        return button

    # ------------------------------------------------------------------ model -> views
    def _families(self) -> tuple[str, str]:
        fam = self.state.chain_family
        return f"naive_{fam}", f"shortest_{fam}"

    def on_endpoints(self) -> None:
        s = self.state
        self.plots.set_curves(s.curves)
        self.scene.set_ghosts(s.q0, s.q1)
        self.scene.set_turn_reference(s.q0)
        self._update_trails()
        if self._framed_preset is None or (s.preset is not None
                                           and s.preset != self._framed_preset):
            # A new lesson case (a preset chosen) is framed afresh, even after
            # the camera was moved; an edit (-q, a typed component) keeps the
            # view, so before and after can be compared.
            self._framed_preset = s.preset or ""
            self.scene.reset_camera()
        self.on_t()

    def _update_trails(self) -> None:
        curves = self.state.curves
        for key, method in zip(("naive", "shortest"), self._families(), strict=True):
            self.scene.set_path(key, curves[method].quats, METHOD_COLORS[method])

    def on_t(self) -> None:
        at = self.state.at_t()
        for key, method in zip(("naive", "shortest"), self._families(), strict=True):
            # NaN goes through: the scene shows a note saying why there is
            # no chain instead of letting it vanish.
            self.scene.set_chain(key, at[method].quats[0], METHOD_COLORS[method],
                                 missing=self._missing(method))
        self.plots.set_cursor(self.state.t)

    def _missing(self, method: str) -> str:
        """Why ``method`` has no pose at the current t (shown only when it has none)."""
        name = _(METHOD_LABELS[method])
        if method.endswith("nlerp"):
            return _("{method}: no pose at t = {t:.3f}, (1 − t)·q0 + t·q1 = 0 has no "
                     "direction").format(method=name, t=self.state.t)
        return _("{method}: no pose for 0 < t < 1, q1 = −q0 gives SLERP no unique arc").format(
            method=name)

    def on_options(self) -> None:
        s = self.state
        self.family_buttons[s.chain_family].setChecked(True)
        self.root_only.setChecked(s.root_only)
        self.scene.set_root_only(s.root_only)
        for m, on in s.visible.items():
            self.plots.set_method_visible(m, on)
        naive, shortest = self._families()
        for key, method in (("naive", naive), ("shortest", shortest)):
            self.scene.set_label(key, _(METHOD_LABELS[method]))
        self.legend.setText(legend_html([(METHOD_COLORS[naive], _("naive")),
                                         (METHOD_COLORS[shortest], _("shortest"))]))
        # A filled disc in the ghosts' grey (legend_html): an empty box read as
        # an unchecked checkbox while the ghosts were shown.
        self.ghosts_note.setText(legend_html([(LIGHT.faint,
                                               _("ghosts t = 0, 1 · ticks every 0.1 of t"))]))
        self._update_trails()
        self.on_t()
