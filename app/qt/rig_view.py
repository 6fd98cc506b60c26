"""The Keyframes tab's rig panel: the file's rig in 3D as a spec player and a naive runtime play it.

Top to bottom: the animation selector, which players to show and the
legend; the node list beside the 3D view (:class:`~quatlab.rendering.rig_scene.RigScene`);
the shared :class:`~quatlab.app.qt.scrubber.Scrubber` in seconds (a spin
box step is one frame at the file's sampling rate, 1x plays in real time);
the curves of the selected track: its stored components against time
(:class:`~quatlab.rendering.component_plot.ComponentPlot`) beside the
rotation angle from the first key and the angular speed of both players
(:class:`~quatlab.rendering.curve_plots.CurvePlots`).

The state is the Qt-free :class:`~quatlab.app.model.rig_playback.RigPlayback`
(time, animation, players, selected node) next to the tab's
:class:`~quatlab.app.model.keyframes_model.KeyframesModel` (file, tracks,
fixes, selected track). This panel keeps the two in step: choosing a track
selects its node in 3D; clicking a joint (or a row of the node list)
selects its track; the tracks after a fix are what the rig plays. A glTF
file's rig is read on a worker thread (:class:`RigLoader`), so opening a
big file never freezes the window; the panel says "Loading…" meanwhile.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import N_, _
from quatlab.app.model.keyframes_model import KeyframesModel
from quatlab.app.model.rig import load_rig, rig_of
from quatlab.app.model.rig_curves import track_curves
from quatlab.app.model.rig_playback import DIFFERENCE_DEG, SHOWN_PLAYERS, RigPlayback
from quatlab.app.model.rig_players import evaluate
from quatlab.app.model.skinning import scene_bounds, skin_meshes
from quatlab.app.qt import theme_menu
from quatlab.app.qt.joint_tree import JointTree, node_tracks
from quatlab.app.qt.lesson_panel import swatch
from quatlab.app.qt.scrubber import BoundParameter, Scrubber
from quatlab.rendering.component_plot import ComponentPlot
from quatlab.rendering.curve_plots import CurvePlots
from quatlab.rendering.rig_meshes import to_view
from quatlab.rendering.rig_scene import NAIVE_COLOR, SPEC_COLOR, RigScene
from quatlab.rendering.series import Series

__all__ = ["RigPanel", "RigLoader", "RIG_FORMATS", "PLAYER_LABELS"]

#: Keyframe file formats that carry a rig (a scene graph to draw).
RIG_FORMATS = ("gltf", "glb", "bvh")
#: Narrower than this many text lines, the components plot moves beside the
#: scene (see RigPanel._arrange_plots).
_STACK_BELOW_LINES = 40
PLAYER_LABELS = {"both": N_("both players"), "spec": N_("spec player only"),
                 "naive": N_("naive runtime only")}


class RigLoader(QtCore.QThread):
    """Builds a glTF rig off the GUI thread and packs its first animation (``loaded`` on success).

    ``source`` is the file the Keyframes tab read (a ``GltfFile`` or a BVH file), or a path.
    """

    loaded = QtCore.pyqtSignal(int, object)
    failed = QtCore.pyqtSignal(int, str)

    def __init__(self, generation: int, source, parent=None) -> None:
        super().__init__(parent)
        self.generation, self.source = generation, source

    def run(self) -> None:
        try:
            # The tab's file as read for its tracks: no second parse of the JSON.
            rig = rig_of(self.source) if hasattr(self.source, "path") else load_rig(self.source)
            # The first frame's work (packing the channels, skinning) here too.
            anim = 0 if rig.animations else None
            start = rig.animations[0].start if rig.animations else 0.0
            pose = evaluate(rig, anim, start)
            bounds = scene_bounds(rig, pose, skin_meshes(rig, pose))
            if getattr(self.source, "format", None) == "bvh" and rig.animations:
                # Motion capture walks about: frame the whole motion, not the first frame.
                anim = rig.animations[0]
                for t in np.linspace(anim.start, anim.end, 48):
                    lo, hi = scene_bounds(rig, evaluate(rig, 0, t), [])
                    bounds = (np.minimum(bounds[0], lo), np.maximum(bounds[1], hi))
        except Exception as exc:  # noqa: BLE001 - any failure becomes a message, not a crash
            self.failed.emit(self.generation, str(exc))
            return
        self.loaded.emit(self.generation, (rig, bounds))


#: Loaders still running, kept alive until they finish (and waited for on quit).
_RUNNING: set[RigLoader] = set()


def _wait_for_loaders() -> None:
    for loader in list(_RUNNING):
        loader.wait(10000)


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


def _time_parameter(playback: RigPlayback) -> BoundParameter:
    p = BoundParameter(lambda: playback.time, playback.set_time, lambda: playback.range,
                       playback.events, "time", name=_("time"), decimals=3, suffix="s",
                       tooltip=_("Time in the animation (seconds); the arrows step one frame"))
    p.real_time = True  # 1x plays the animation at its own speed
    return p


class RigPanel(QtWidgets.QWidget):
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
        self.legend = QtWidgets.QLabel(
            f"{swatch(SPEC_COLOR)} " + _("spec player (shortest-arc SLERP)")
            + f" &nbsp;{swatch(NAIVE_COLOR)} " + _("naive runtime (ghost)")
            + f" &nbsp;{swatch(NAIVE_COLOR, '●')} "
            + _("joints differing &gt; {angle}°").format(angle=f"{DIFFERENCE_DEG:g}")
            + " &nbsp;◉ " + _("selected"))
        self.legend.setObjectName("rig_legend")
        # Wrapping, so that zoomed text cannot widen the panel past the window.
        self.legend.setWordWrap(True)
        top.addStretch(1)
        layout.addLayout(top)
        layout.addWidget(self.legend)

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
        self.curves.set_y_axis("angle", _("angle from key 0 (deg)"), (0.0, 185.0))
        self.curves.set_y_axis("speed", _("angular speed (deg / s)"))
        for plot in self.curves.plots.values():
            # Seconds as seconds: a 0.7 s clip must not read "time (s) (x0.001)".
            plot.getAxis("bottom").enableAutoSIPrefix(False)
        plots = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        plots.setObjectName("rig_plots")
        plots.addWidget(self.components)
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
        model.events.connect("file", self.on_file)
        model.events.connect("tracks", self.on_tracks)
        model.events.connect("selection", self.on_track_selection)
        self.on_rig()

    # ------------------------------------------------------------------ loading
    @property
    def loading(self) -> bool:
        """Whether a rig is being read, or its curves wait for its first frame."""
        return bool(self._loaders) or self._curves_pending

    def wait_loaded(self, timeout_ms: int = 20000) -> bool:
        """Process events until the rig being read has arrived, curves and all (scripts, tests)."""
        deadline = QtCore.QDeadlineTimer(timeout_ms)
        while self.loading and not deadline.hasExpired():
            QtCore.QCoreApplication.processEvents(
                QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 20)
            QtCore.QThread.msleep(2)
        return not self.loading

    def on_file(self) -> None:
        self._generation += 1
        self._staged = None  # the previous file's curves: no more of them
        f = self.model.file
        if f is None or f.format not in RIG_FORMATS:
            self.playback.set_rig(None)
            self.status.setText(_("The 3D view plays glTF and GLB files; this file has tracks "
                                  "only.") if f is not None else
                                _("Open a glTF or GLB file to see its rig here."))
            return
        self.status.setText(_("Loading {file} in 3D…").format(file=f.path.name))
        self.status.setVisible(True)
        # Not parented to the panel: a running thread must outlive a panel
        # closed meanwhile (Qt aborts on destroying a running QThread).
        loader = RigLoader(self._generation, f)
        _RUNNING.add(loader)
        loader.finished.connect(lambda ld=loader: _RUNNING.discard(ld))
        loader.loaded.connect(self._loaded)
        loader.failed.connect(self._failed)
        loader.finished.connect(lambda ld=loader: self._finished(ld))
        self._loaders.append(loader)
        app = QtCore.QCoreApplication.instance()
        if app is not None and not app.property("quatlab_waits_for_rigs"):
            app.setProperty("quatlab_waits_for_rigs", True)
            app.aboutToQuit.connect(_wait_for_loaders)
        loader.start()

    def _finished(self, loader: RigLoader) -> None:
        # After loaded/failed: both are queued before finished, in order.
        if loader in self._loaders:
            self._loaders.remove(loader)

    def _loaded(self, generation: int, loaded) -> None:
        if generation != self._generation:
            return  # another file was opened meanwhile
        rig, bounds = loaded
        # The keys the tab plays from the first frame, and the curves once
        # that frame is on screen: all at once kept the window from painting
        # for well over 100 ms (the curves and their first paint weigh most).
        self._curves_later = True
        try:
            with self.scene.held():  # its frame and the selected node: posed once
                self.playback.set_rig(rig, bounds, self._rig_tracks())
                self.on_track_selection()
        finally:
            self._curves_later = False
        self._fill_curves_after_frame()

    def _fill_curves_after_frame(self) -> None:
        """Fill the curves once the 3D view has swapped its next frame (now if it cannot draw)."""
        if not (self.scene.widget.isVisible() and self.isVisible()):
            self._fill_curves()
            return
        self._curves_pending = True
        if not self._awaiting_frame:
            self._awaiting_frame = True
            self.scene.frameSwapped.connect(self._frame_swapped)
        # No frame (the window got covered meanwhile): fill them anyway.
        self._curves_timer.start(500)

    def _frame_swapped(self) -> None:
        self._stop_awaiting_frame()
        # Not in the pass that swapped the frame: input and timers get a turn first.
        self._curves_timer.start(1)

    def _stop_awaiting_frame(self) -> None:
        if self._awaiting_frame:
            self._awaiting_frame = False
            self.scene.frameSwapped.disconnect(self._frame_swapped)

    def _curves_due(self) -> None:
        self._stop_awaiting_frame()
        if self._curves_pending:
            # One plot per event-loop pass, each painted before the next is
            # filled: all three and their first paint at once blocked the
            # window for over 100 ms.
            self._staged = self._curve_steps()
            self._next_curves()

    def _next_curves(self) -> None:
        steps = self._staged
        if steps is None:
            return
        if next(steps, "done") == "done":
            self._staged = None
            self._curves_pending = False
        else:
            self._steps_timer.start(0)

    def _failed(self, generation: int, message: str) -> None:
        if generation == self._generation:
            self.playback.set_rig(None)
            self.status.setText(_("No 3D view: {error}").format(error=message))
            self.status.setVisible(True)

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
        if self.components.parentWidget() is home:
            return
        if narrow:
            self._view_split.addWidget(self.components)
            self._view_split.setStretchFactor(2, 1)
            self._view_split.setSizes([100, 300, 340])  # proportions: scaled to the width
        else:
            self._plots.insertWidget(0, self.components)
            self._plots.setStretchFactor(0, 2)
            self._plots.setStretchFactor(1, 3)
            self._plots.setSizes([400, 600])
            self._view_split.setSizes([self.node_list.preferred_width(), 700])

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
        self._fill_nodes()
        self.time_param.step = 1.0 / pb.fps
        # Sized once for the animation's widest frame number, not per frame.
        self.frame_label.set_widest(self._frame_text(pb.range[1]) if pb.rig is not None else "")
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
        self.scene.set_frame(pb.frame())
        t = pb.time
        lo, hi = pb.range
        self.components.set_cursor(t)
        if hi > lo:
            self.curves.set_cursor(t)
        self.frame_label.setText(self._frame_text(t) if pb.rig is not None else "")

    def _frame_text(self, t: float) -> str:
        pb = self.playback
        lo, hi = pb.range
        fps = pb.fps
        return _("frame {i} / {n} at {fps} fps").format(
            i=round((t - lo) * fps), n=round((hi - lo) * fps), fps=f"{fps:g}")

    def on_keys(self) -> None:
        self.scene.set_frame(self.playback.frame())
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
        if rig is not None and len(sizes) > 1 and sizes[0] < want:
            self._view_split.setSizes([want, max(sizes[1] - (want - sizes[0]), 1), *sizes[2:]])

    # ------------------------------------------------------------------ curves
    def _fill_curves(self) -> None:
        if self._curves_later:
            return  # the rig just arrived: filled after its first frame
        if self._staged is not None:  # overtaken halfway: start again, all at once
            self._staged, self._curves_key = None, ()
        self._curves_pending = False
        for _step in self._curve_steps():
            pass

    def _fill_curves_staged(self) -> None:
        """Fill the curves over the next event-loop passes, a plot each (another track or clip).

        All three plots at once blocked the window for 100 to 300 ms at every
        step of the Keyframes tab's finding walk (N), which changes track and clip.
        """
        if self._curves_later:
            return
        self._staged = self._curve_steps()
        self._curves_pending = True
        self._steps_timer.start(0)

    def _curve_steps(self):
        """Fill the curves of the selected track; yields between the plots (see _curves_due)."""
        m, pb = self.model, self.playback
        i = m.selected_track
        track = m.tracks[i] if i is not None else None
        if (track is None or pb.rig is None or self._animation_of(track) != pb.animation_index):
            self.components.set_track(None, None)
            for plot in ("angle", "speed"):
                self.curves.set_series(plot, [])
            self._curves_key = ()
            return
        original = m.file.tracks[i] if m.file is not None else None
        before = original if original is not None and original is not track else None
        key = (track, before, pb.range)
        if key == self._curves_key:
            return
        self._curves_key = key
        lo, hi = pb.range
        seg = m.segments(i)
        flagged = seg.levels == "sign_flip"
        self.components.set_track(track.times, track.values,
                                  None if before is None else before.values,
                                  (seg.t0[flagged], seg.t1[flagged]), (lo, hi))
        yield
        cv = track_curves(track, lo, hi, before=before)
        series = {
            "angle": [Series("spec", _("spec player"), SPEC_COLOR, False, cv.t,
                             cv.angle["spec"]),
                      Series("naive", _("naive runtime"), NAIVE_COLOR, True, cv.t,
                             cv.angle["naive"])],
            "speed": [Series("spec", _("spec player"), SPEC_COLOR, False, cv.t,
                             cv.speed["spec"]),
                      Series("naive", _("naive runtime"), NAIVE_COLOR, True, cv.t,
                             cv.speed["naive"])],
        }
        if before is not None:
            old = track_curves(before, lo, hi)
            for plot, values in (("angle", old.angle), ("speed", old.speed)):
                series[plot].append(Series("before", _("naive, before the fix"), "#B0B0B0", True,
                                           old.t, values["naive"]))
        if hi > lo:
            self.curves.set_x_axis(_("time"), "s", (lo, hi))
        for k, (plot, s) in enumerate(series.items()):
            if k:
                yield
            self.curves.set_series(plot, s)
        # Keys are marked on the component plot; vertical lines at every key here
        # would hatch the angle and speed curves (and cost a line item each).
        self.curves.set_cursor(min(max(pb.time, lo), hi) if hi > lo else lo)

    # ------------------------------------------------------------------ user -> models
    def _animation_chosen(self, index: int) -> None:
        if self._syncing or index < 0 or self.playback.rig is None:
            return
        self.playback.set_animation(index)
        m = self.model
        current = m.tracks[m.selected_track] if m.selected_track is not None else None
        if current is None or self._animation_of(current) != index:
            mine = [k for k, t in enumerate(m.tracks) if self._animation_of(t) == index]
            flagged = [k for k in mine if m.findings(k)]
            if mine:
                m.select_track((flagged or mine)[0])

    def _node_clicked(self, node: int) -> None:
        pb = self.playback
        pb.select_node(node)
        gltf = int(pb.rig.gltf_index[node])
        hits = [k for k, t in enumerate(self.model.tracks)
                if self._animation_of(t) == pb.animation_index and t.node_index == gltf]
        if hits:
            self._syncing = True
            try:
                self.model.select_track(hits[0])
            finally:
                self._syncing = False
            self._fill_curves()

    # ------------------------------------------------------------------ keyframes model -> rig
    def on_tracks(self) -> None:
        self.playback.use_tracks(self._rig_tracks())
        self._fill_nodes()  # the findings the joint tree marks
        self._fill_curves()

    def on_track_selection(self) -> None:
        if self._syncing:
            return
        m, pb = self.model, self.playback
        if pb.rig is None:
            return
        i = m.selected_track
        track = m.tracks[i] if i is not None else None
        anim = self._animation_of(track) if track is not None else None
        if anim is not None and anim != pb.animation_index \
                and 0 <= anim < len(pb.rig.animations):
            pb.set_animation(anim)
        if track is not None and track.node_index is not None \
                and 0 <= track.node_index < len(pb.rig):
            pb.select_node(int(pb.rig.rig_index[track.node_index]))
        self._fill_curves_staged()

    def _animation_of(self, track) -> int | None:
        """The rig animation a track belongs to: its own, or 0 (the motion) for a BVH joint."""
        f = self.model.file
        if track.animation_index is None and f is not None and f.format == "bvh":
            return 0
        return track.animation_index

    def _rig_tracks(self) -> list:
        """The tab's tracks as the rig plays them (a BVH joint's track keys the motion)."""
        return [t if t.animation_index is not None or self._animation_of(t) is None
                else dataclasses.replace(t, animation_index=0) for t in self.model.tracks]

    def plays_selected(self) -> bool:
        """Whether the rig plays the selected track (its file, its animation)."""
        m, pb = self.model, self.playback
        i = m.selected_track
        return (i is not None and pb.rig is not None
                and self._animation_of(m.tracks[i]) == pb.animation_index)

    def frame_joint(self, node: int | None = None) -> bool:
        """Centre the 3D view on joint ``node`` (a rig index; default: the selected) as posed now.

        The one call the Keyframes tab's finding navigation makes into the
        camera: a thin wrapper that points the scene's camera at the joint's
        world position, keeping its distance and direction (the scene owns the
        camera and its framing).
        """
        pb = self.playback
        node = pb.selected_node if node is None else node
        frame = pb.frame()
        if frame is None or node is None or not 0 <= node < len(frame.spec.world):
            return False
        centre = to_view(frame.spec.world[node, :3, 3])
        if not np.all(np.isfinite(centre)):
            return False
        self.scene.setCameraParams(center=QtGui.QVector3D(*(float(v) for v in centre)))
        return True

    def show_segment(self, segment: int) -> bool:
        """Move the time to the middle of ``segment`` of the selected track, if the rig plays it."""
        if not self.plays_selected():
            return False
        m, pb = self.model, self.playback
        seg = m.segments(m.selected_track)
        pb.set_time(0.5 * (seg.t0[segment] + seg.t1[segment]))
        return True

