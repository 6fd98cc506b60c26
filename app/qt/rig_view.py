"""The Keyframes tab's rig panel: the file's rig in 3D as a spec player and a naive runtime play it.

Top to bottom: the animation selector, which players to show and the
legend; the node list beside the 3D view (:class:`~quatlab.rendering.rig_scene.RigScene`);
the shared :class:`~quatlab.app.qt.scrubber.Scrubber` in seconds (a spin
box step is one frame at the file's sampling rate, 1x plays in real time);
the curves of the selected track: its stored components against time
(:class:`~quatlab.rendering.component_plot.ComponentPlot`) or, on the
second tab beside it, the angular velocity vector of both players
(:class:`~quatlab.rendering.omega_plot.OmegaPlot`), and the unwrapped
rotation angle of both players beside the error, the angle between their
poses that the 3D view labels the joint with
(:class:`~quatlab.rendering.curve_plots.CurvePlots`; its right-hand plot,
``"speed"`` by name, holds the error).

The state is the Qt-free :class:`~quatlab.app.model.rig_playback.RigPlayback`
(time, animation, players, selected node) next to the tab's
:class:`~quatlab.app.model.keyframes_model.KeyframesModel` (file, tracks,
fixes, selected track). This panel keeps the two in step: choosing a track
selects its node in 3D; clicking a joint (or a row of the node list)
selects its track; the tracks after a fix are what the rig plays. A glTF
file's rig is read on a worker thread
(:class:`~quatlab.app.qt.rig_loader.RigLoader`), so opening a big file never
freezes the window; the panel says "Loading…" meanwhile.

The panel's parts are mixins of :class:`RigPanel`, one module each: loading
the rig (:mod:`quatlab.app.qt.rig_loader`), filling the plots of the
selected track (:mod:`quatlab.app.qt.rig_plots`), keeping the rig's
selection in step with the tab's (:mod:`quatlab.app.qt.rig_selection`),
the error paths shown near the time (:mod:`quatlab.app.qt.rig_errors`)
and framing a joint (:mod:`quatlab.app.qt.rig_camera`:
``RigPanel.frame_joint(node_index)``).
"""

from __future__ import annotations

import numpy as np
from PyQt6 import QtCore, QtWidgets

from quatlab.app.i18n import N_, _
from quatlab.app.model.keyframes_model import KeyframesModel
from quatlab.app.model.rig_playback import DIFFERENCE_DEG, SHOWN_PLAYERS, RigPlayback
from quatlab.app.qt import theme_menu
from quatlab.app.qt.flow_legend import RowLegend
from quatlab.app.qt.joint_tree import JointTree, node_tracks
from quatlab.app.qt.lesson_panel import swatch
from quatlab.app.qt.rig_camera import RigCamera
from quatlab.app.qt.rig_errors import RigErrors
from quatlab.app.qt.rig_loader import RigLoader, RigLoading
from quatlab.app.qt.rig_plots import RigPlots
from quatlab.app.qt.rig_selection import RigSelection
from quatlab.app.qt.scrubber import BoundParameter, Scrubber
from quatlab.rendering.component_plot import ComponentPlot
from quatlab.rendering.curve_plots import LEAST_HEIGHT, CurvePlots
from quatlab.rendering.flow_layout import FlowRow
from quatlab.rendering.omega_plot import OmegaPlot
from quatlab.rendering.rig_scene import NAIVE_COLOR, SPEC_COLOR, RigScene

__all__ = ["RigPanel", "PLAYER_LABELS"]

#: Narrower than this many text lines, the components plot moves beside the
#: scene (see RigPanel._arrange_plots).
_STACK_BELOW_LINES = 40
#: The angle and error plots' least height (px) when narrow, where the
#: components plot beside the scene needs height too (else CurvePlots' own):
#: at 175 the plots took the whole of a short panel (1024x768 at 150 %) and
#: left the components plot a 52-px data area under its legend.
_NARROW_CURVES_PX = 145
#: The components plot's least width beside the scene, in text lines (its
#: axis and side tabs take about half; 11 kept a 200-px data area while the
#: axis title was Qt's 9 pt, not the other plots' size).
_COMPONENTS_LINES = 12
PLAYER_LABELS = {"both": N_("both players"), "spec": N_("spec player only"),
                 "naive": N_("naive runtime only")}


class _SteadyLabel(QtWidgets.QLabel):
    """A label of fixed size, fitted to the widest text it will show (:meth:`set_widest`).

    A QLabel's ``setText`` asks its layout to re-measure it, and the frame
    readout changes on every change of time: that re-laid out the whole tab
    (and repainted it) at every frame of playback. A fixed size (minimum =
    maximum) spares the layout; it is refitted when the font changes (zoom).
    """

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._widest = ""
        self._fit()

    def set_widest(self, text: str) -> None:
        """The longest text to expect (digits are equally wide in the UI fonts)."""
        self._widest = text
        self._fit()

    def _fit(self) -> None:
        metrics = self.fontMetrics()
        margins = self.contentsMargins()
        width = metrics.horizontalAdvance(self._widest) + metrics.averageCharWidth() \
            + margins.left() + margins.right()
        self.setFixedSize(max(width, 150), metrics.height() + margins.top() + margins.bottom())

    def changeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().changeEvent(ev)
        if ev.type() in (QtCore.QEvent.Type.FontChange, QtCore.QEvent.Type.StyleChange):
            self._fit()


def _legend_entries() -> list[str]:
    """The 3D view's legend, one entry each.

    A player's swatch is its colour in the 3D view (bones, joints, paths) and in
    the plots below, never the asset's: the meshes keep the colours they ship
    with, and a swatch in the robot's tan labelled a player the plots drew green.
    """
    # A no-break space after each swatch, as every legend here has it.
    return [f"{swatch(SPEC_COLOR)}&nbsp;" + _("spec player (shortest-arc SLERP)"),
            f"{swatch(NAIVE_COLOR)}&nbsp;" + _("naive runtime (ghost)"),
            f"{swatch(NAIVE_COLOR, '●')}&nbsp;"
            + _("joints differing &gt; {angle}°").format(angle=f"{DIFFERENCE_DEG:g}"),
            "◉&nbsp;" + _("selected")]


def _time_parameter(playback: RigPlayback) -> BoundParameter:
    p = BoundParameter(lambda: playback.time, playback.set_time, lambda: playback.range,
                       playback.events, "time", name=_("time"), decimals=3, suffix="s",
                       tooltip=_("Time in the animation (seconds); the arrows step one frame"))
    p.real_time = True  # 1x plays the animation at its own speed
    return p


class RigPanel(RigLoading, RigPlots, RigSelection, RigCamera, RigErrors, QtWidgets.QWidget):
    """See the module docstring. ``playback`` is created when not given."""

    def __init__(self, model: KeyframesModel, playback: RigPlayback | None = None,
                 parent=None) -> None:
        super().__init__(parent)
        self.model = model
        self.playback = playback or RigPlayback()
        self._generation = 0
        self._loaders: list[RigLoader] = []
        self._syncing = False
        self._curves_key: tuple = ()
        self._curves_later = False  # while the rig arrives: the curves wait for its first frame
        self._curves_pending = False  # ... and until it is swapped
        self._staged = None  # the steps of a fill spread over event-loop passes
        self._awaiting_frame = False
        # Timers and connections of the panel's own: they die with it.
        self._curves_timer = QtCore.QTimer(self)
        self._curves_timer.setSingleShot(True)
        self._curves_timer.timeout.connect(self._curves_due)
        self._steps_timer = QtCore.QTimer(self)
        self._steps_timer.setSingleShot(True)
        self._steps_timer.timeout.connect(self._next_curves)
        # Moving the components plot between splitters waits for the event loop:
        # never while Qt is delivering a resize or re-polishing every widget.
        self._arrange_timer = QtCore.QTimer(self)
        self._arrange_timer.setSingleShot(True)
        self._arrange_timer.setInterval(0)
        self._arrange_timer.timeout.connect(self._arrange_plots)
        self._nodes: np.ndarray = np.zeros(0, dtype=np.int64)

        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        top = QtWidgets.QHBoxLayout()
        top.addWidget(QtWidgets.QLabel(_("Animation")))
        self.animation_box = QtWidgets.QComboBox()
        self.animation_box.setObjectName("rig_animation")
        self.animation_box.setToolTip(_("Which animation of the file to play"))
        self.animation_box.setMinimumContentsLength(14)
        self.animation_box.currentIndexChanged.connect(self._animation_chosen)
        top.addWidget(self.animation_box)
        top.addWidget(QtWidgets.QLabel(_("Show")))
        self.players_box = QtWidgets.QComboBox()
        self.players_box.setObjectName("rig_players")
        self.players_box.setToolTip(_("Both players (the naive runtime as a ghost over the "
                                      "spec player), or either alone"))
        for key in SHOWN_PLAYERS:
            self.players_box.addItem(_(PLAYER_LABELS[key]), key)
        self.players_box.currentIndexChanged.connect(
            lambda i: self.playback.set_players(self.players_box.itemData(i)))
        top.addWidget(self.players_box)
        self.overlay_box = QtWidgets.QCheckBox(_("Bones and axes"))
        self.overlay_box.setObjectName("rig_overlay")
        self.overlay_box.setToolTip(_("Draw every bone and joint axis over the meshes; off, only "
                                      "the selected joint's (a skeleton without meshes always "
                                      "shows its bones)"))
        self.overlay_box.toggled.connect(lambda on: self.scene.set_overlay(on))
        top.addStretch(1)
        layout.addLayout(top)
        # The legend flows, one unbreakable label per entry, so that zoomed text
        # cannot widen the panel past the window: a word-wrapped label broke
        # "naive / runtime (ghost)" across two lines at 1024x768 and 150 %. The
        # overlay switch ends the legend's row (a widget more in the top row
        # widened the panel past a zoomed 1024-px window).
        legend_row = FlowRow(spacing=10)
        legend_row.addWidget(self.overlay_box)
        self.legend = RowLegend(legend_row, before=self.overlay_box)
        self.legend.set_entries(_legend_entries())
        layout.addLayout(legend_row)

        self.scene = RigScene()
        self.scene.widget.setObjectName("rig_scene")
        self.scene.widget.setMinimumSize(320, 150)
        self.scene.nodeClicked.connect(self._node_clicked)
        self.node_list = JointTree()
        self.node_list.nodeChosen.connect(self._node_clicked)
        self.status = QtWidgets.QLabel(_("Open a glTF or GLB file to see its rig here."))
        self.status.setObjectName("rig_status")
        self.status.setWordWrap(True)
        self.status.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
        scene_box = QtWidgets.QWidget()
        sl = QtWidgets.QVBoxLayout(scene_box)
        sl.setContentsMargins(0, 0, 0, 0)
        sl.addWidget(self.status)
        sl.addWidget(self.scene.widget, 1)
        view_split = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        view_split.addWidget(self.node_list)
        view_split.addWidget(scene_box)
        view_split.setStretchFactor(1, 1)
        view_split.setSizes([self.node_list.preferred_width(), 700])
        view_split.setChildrenCollapsible(False)
        # The joint tree folds where the panel is narrow (see _arrange_plots).
        view_split.setCollapsible(0, True)

        self.time_param = _time_parameter(self.playback)
        self.scrubber = Scrubber(self.time_param, prefix="rig_time")
        self.scrubber.mode.setCurrentIndex(self.scrubber.mode.findData("loop"))
        self.frame_label = _SteadyLabel()
        self.frame_label.setObjectName("rig_frame")
        self.scrubber.layout().addWidget(self.frame_label)

        self.components = ComponentPlot()
        self.components.cursorMoved.connect(self.playback.set_time)
        self.curves = CurvePlots()
        self.curves.setObjectName("rig_curves")
        self.curves.cursorMoved.connect(self.playback.set_time)
        # Short titles: a two-line title takes width from a plot of 160 px.
        # The short ones are what a plot too short for those says (the Keyframes
        # tab at 150 %).
        # Not "turn": on its side at 11 pt this font draws "rn" as "m" ("unwrapped tum").
        self.curves.set_y_axis("angle", _("unwrapped angle (°)"), "auto", short=_("angle (°)"))
        # The right-hand plot holds the error (see the module docstring).
        self.curves.set_y_axis("speed", _("naive vs spec (°)"), (0.0, 185.0),
                               short=_("error (°)"))
        # Its ticks have at most three digits and no sign (0 to 180): a narrower
        # axis leaves the curve the room a zoomed 1024-px window has.
        self.curves.plots["speed"].getAxis("left").setWidth(50)
        self.omega = OmegaPlot()
        self.omega.cursorMoved.connect(self.playback.set_time)
        for plot in self.curves.plots.values():
            # Seconds as seconds: a 0.7 s clip must not read "time (s) (x0.001)".
            plot.getAxis("bottom").enableAutoSIPrefix(False)
        plots = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        plots.setObjectName("rig_plots")
        # The keys as stored and omega share a place: four plots side by side
        # left each about 130 px at 1400 x 900.
        self.plot_tabs = QtWidgets.QTabWidget()
        self.plot_tabs.setObjectName("rig_plot_tabs")
        self.plot_tabs.setDocumentMode(True)
        self.plot_tabs.addTab(self.components, _("stored keys"))
        self.plot_tabs.addTab(self.omega, _("angular velocity ω"))
        self.plot_tabs.setTabToolTip(0, _("The track's quaternion components as stored: a sign "
                                          "flip is a jump of all four"))
        self.plot_tabs.setTabToolTip(1, _("The angular velocity vector of both players (x, y, z "
                                          "in the parent's frame) and its length, the speed"))
        plots.addWidget(self.plot_tabs)
        plots.addWidget(self.curves)
        plots.setStretchFactor(0, 2)
        plots.setStretchFactor(1, 3)
        plots.setChildrenCollapsible(False)

        split = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        split.addWidget(view_split)
        split.addWidget(plots)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setChildrenCollapsible(False)
        layout.addWidget(split, 1)
        layout.addWidget(self.scrubber)
        split.setSizes([440, 280])
        self._split = split
        self._plots = plots
        self._view_split = view_split

        ev = self.playback.events
        ev.connect("rig", self.on_rig)
        ev.connect("animation", self.on_animation)
        ev.connect("time", self.on_time)
        ev.connect("players", lambda: self.scene.set_players(self.playback.players))
        ev.connect("selection", self.on_node_selection)
        ev.connect("keys", self.on_keys)
        ev.connect("bounds", lambda: self.scene.set_bounds(self.playback.bounds()))
        model.events.connect("file", self.on_file)
        model.events.connect("tracks", self.on_tracks)
        model.events.connect("selection", self.on_track_selection)
        self.on_rig()

    # ------------------------------------------------------------------ playback -> widgets
    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(ev)
        self._arrange_timer.start()

    def changeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().changeEvent(ev)
        if ev.type() == QtCore.QEvent.Type.FontChange:  # View > Zoom
            self._arrange_timer.start()

    def _arrange_plots(self) -> None:
        """The components plot beside the angle and speed plots, or beside the scene when narrow.

        Side by side under the scene, the speed plot got under a third of the
        panel: in a 1024-px window zoomed in, a strip of 80 px. Stacking the
        plots instead would need height the window does not have. So when
        the panel is narrow the components plot moves up, right of the 3D
        view, and the angle and speed plots share the whole width below.
        """
        narrow = self.width() < _STACK_BELOW_LINES * self.fontMetrics().height()
        home = self._view_split if narrow else self._plots
        if self.plot_tabs.parentWidget() is home:
            return
        # Beside the scene the height is short: the tabs go to the side, in short
        # words. Words, not symbols: "ω" turned on its side read as "3".
        tabs = self.plot_tabs
        tabs.setTabPosition(QtWidgets.QTabWidget.TabPosition.West if narrow
                            else QtWidgets.QTabWidget.TabPosition.North)
        tabs.setTabText(0, _("stored") if narrow else _("stored keys"))
        tabs.setTabText(1, _("velocity") if narrow else _("angular velocity ω"))
        # Beside the scene, the angle and error plots right below say "time (s)":
        # the title's line is the data area's (docs/projector.md).
        for plot in (self.components, self.omega):
            plot.hide_time_title(narrow)
        if narrow:
            self._view_split.addWidget(self.plot_tabs)
            self._view_split.setStretchFactor(2, 1)
            # The joint tree folds (its handle drags it open): beside a 320-px
            # scene and this plot it kept 70 px, names cut to two letters, and
            # the dope sheet lists the same joints in their hierarchy.
            self._view_split.setSizes([0, 240, 430])  # proportions: scaled to the width
            # A plot, not a sliver: the splitter gave it 96 px of data once the
            # time row no longer held the panel wide (docs/projector.md).
            tabs.setMinimumWidth(round(_COMPONENTS_LINES * self.fontMetrics().height()))
            # The row beside the scene holds a plot now: it gets half the height,
            # and the plots below ask for less of it (a 53-px plot at zoom 1.5).
            self.curves.set_least_height(_NARROW_CURVES_PX)
            self._split.setSizes([500, 500])
            # The frame readout at the end of the plots' checkbox row, over their
            # time axes: in the time row it left the slider a 20-px stub at
            # 1024x768 and 150 %.
            self.curves.add_to_legend_row(self.frame_label)
        else:
            tabs.setMinimumWidth(0)
            self._plots.insertWidget(0, self.plot_tabs)
            self._plots.setStretchFactor(0, 2)
            self._plots.setStretchFactor(1, 3)
            self._plots.setSizes([400, 600])
            self._view_split.setSizes([self.node_list.preferred_width(), 700])
            self.curves.set_least_height(LEAST_HEIGHT)
            self._split.setSizes([440, 280])
            self.scrubber.layout().addWidget(self.frame_label)

    def on_rig(self) -> None:
        pb = self.playback
        rig = pb.rig
        self.scene.set_rig(rig, pb.bounds() if rig is not None else None)
        self.status.setVisible(rig is None)
        self.scene.widget.setVisible(rig is not None)
        if rig is not None:
            # The 3D view was hidden when the theme's last walk ran (the rig is
            # built off the GUI thread): it takes the theme and zoom in use now.
            theme_menu.schedule_refresh(self.window())
        self._syncing = True
        try:
            self.animation_box.clear()
            self.animation_box.addItems(pb.animation_names())
            self.animation_box.setEnabled(bool(pb.animation_names()))
            if pb.animation_index is not None:
                self.animation_box.setCurrentIndex(pb.animation_index)
        finally:
            self._syncing = False
        if rig is not None and rig.notes:
            self.scene.widget.setToolTip("\n".join(_(n) for n in rig.notes))
        self.on_animation()

    def on_animation(self) -> None:
        pb = self.playback
        self.scene.set_markable(pb.animated_nodes())
        if pb.rig is not None:
            self.scene.set_bounds(pb.bounds())
            self.sweep_animation()
        self._fill_nodes()
        self.time_param.step = 1.0 / pb.fps
        # Sized once for the animation's widest frame number, not per frame.
        self.frame_label.set_widest(self._frame_text(pb.range[1]) if pb.rig is not None else "")
        self.frame_label.setToolTip(_("The frame shown, of the animation's frames at the "
                                      "file's rate of {fps} fps").format(fps=f"{pb.fps:g}")
                                    if pb.rig is not None else "")
        self._syncing = True
        try:
            if pb.animation_index is not None:
                self.animation_box.setCurrentIndex(pb.animation_index)
        finally:
            self._syncing = False
        self.scrubber.refresh()
        self._fill_curves_staged()
        self.on_time()

    def on_time(self) -> None:
        pb = self.playback
        self.scene.set_frame(pb.frame(), self.sweeps_now())
        t = pb.time
        lo, hi = pb.range
        self.components.set_cursor(t)
        self.omega.set_cursor(t)
        if hi > lo:
            self.curves.set_cursor(t, self._cursor_values())
        self.frame_label.setText(self._frame_text(t) if pb.rig is not None else "")

    def _frame_text(self, t: float) -> str:
        pb = self.playback
        lo, hi = pb.range
        fps = pb.fps
        # The rate is in the tooltip: "at 24 fps" after it widened the time
        # row past a 1024-px window at 150 % (docs/projector.md).
        return _("frame {i} / {n}").format(i=round((t - lo) * fps), n=round((hi - lo) * fps))

    def on_keys(self) -> None:
        self.scene.set_frame(self.playback.frame(), self.sweeps_now())
        self._fill_curves()

    def on_node_selection(self) -> None:
        pb = self.playback
        self.scene.set_selected(pb.selected_node)
        self.node_list.select_node(pb.selected_node)

    def _fill_nodes(self) -> None:
        """The joint tree (app/qt/joint_tree.py): the pickable nodes, those with findings marked."""
        pb, rig = self.playback, self.playback.rig
        self._nodes = self.scene.pickable() if rig is not None else np.zeros(0, dtype=np.int64)
        tracks = node_tracks(rig, self.model.tracks, pb.animation_index, self._animation_of)
        self.node_list.fill(rig, self._nodes, pb.animated_nodes(), tracks, self.model.findings)
        self.node_list.select_node(pb.selected_node)
        sizes = self._view_split.sizes()
        want = self.node_list.preferred_width()
        # A folded tree stays folded: the narrow arrangement, or the user, folded it.
        if rig is not None and len(sizes) > 1 and 0 < sizes[0] < want:
            self._view_split.setSizes([want, max(sizes[1] - (want - sizes[0]), 1), *sizes[2:]])

    # ------------------------------------------------------------------ curves
