"""Reading the rig panel's rig off the GUI thread: the loader threads and the panel's side of them.

:class:`RigLoader` builds a rig from the Keyframes tab's file on a worker
thread, so opening a big file never freezes the window; :class:`SweepLoader`
then works out, on another, the box the animation sweeps over all its
frames (:func:`~quatlab.app.model.rig_bounds.animation_bounds`: up to a
second for a skinned character), which the camera frames once it is there
(the first frame's box meanwhile). :class:`RigLoading` is the part of
:class:`quatlab.app.qt.rig_view.RigPanel` that starts them, says
"Loading…" meanwhile and hands the rig and the box to the playback (a
mixin).
"""

from __future__ import annotations

import numpy as np
from PyQt6 import QtCore

from quatlab.app.i18n import _
from quatlab.app.model.rig import load_rig, rig_of
from quatlab.app.model.rig_bounds import animation_bounds
from quatlab.app.model.rig_players import evaluate
from quatlab.app.model.rig_sweeps import parted_segments
from quatlab.app.model.skinning import scene_bounds, skin_meshes
from quatlab.app.qt.background import fast_switching, normal_switching
from quatlab.app.qt.rig_errors import sweeps_of

__all__ = ["RigLoader", "SweepLoader", "RigLoading", "RIG_FORMATS"]

#: Keyframe file formats that carry a rig (a scene graph to draw).
RIG_FORMATS = ("gltf", "glb", "bvh", "fbx", "usda", "usdc", "usdz", "usd")


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
            if getattr(self.source, "format", None) in ("bvh", "fbx") and rig.animations:
                # Motion capture walks about: frame the whole motion, not the first frame.
                anim = rig.animations[0]
                for t in np.linspace(anim.start, anim.end, 48):
                    lo, hi = scene_bounds(rig, evaluate(rig, 0, t), [])
                    bounds = (np.minimum(bounds[0], lo), np.maximum(bounds[1], hi))
            # The textures the meshes use, decoded here rather than by the view.
            for m in {m.texture for m in rig.materials if m.texture is not None}:
                rig.texture_image(m)
        except Exception as exc:  # noqa: BLE001 - any failure becomes a message, not a crash
            self.failed.emit(self.generation, str(exc))
            return
        self.loaded.emit(self.generation, (rig, bounds))


class SweepLoader(QtCore.QThread):
    """One animation's box over all its frames, and the paths of its parted segments, off the
    GUI thread (``swept`` when done: ``(bounds, animation, segments, sweeps)``)."""

    swept = QtCore.pyqtSignal(int, int, object)  # generation, animation index, what was made

    def __init__(self, generation: int, rig, index: int, animation, parent=None) -> None:
        super().__init__(parent)
        self.generation, self.rig, self.index, self.animation = generation, rig, index, animation
        #: Set from the GUI thread when the result is no longer wanted (another file).
        self.cancelled = False

    def run(self) -> None:
        stop = lambda: self.cancelled  # noqa: E731 - read between poses
        try:
            bounds = animation_bounds(self.rig, self.index, stop=stop)
            if not (np.all(np.isfinite(bounds[0])) and np.all(np.isfinite(bounds[1]))):
                return
            segments = parted_segments(self.rig, self.animation)
            sweeps = sweeps_of(self.rig, self.animation, bounds, segments, stop=stop)
        except Exception:  # noqa: BLE001 - stopped, or the first frame's box stays framed
            return
        self.swept.emit(self.generation, self.index, (bounds, self.animation, segments, sweeps))


#: Loaders still running, kept alive until they finish (and waited for on quit).
_RUNNING: set[QtCore.QThread] = set()


def _done(loader: QtCore.QThread) -> None:
    if loader in _RUNNING:
        _RUNNING.discard(loader)
        normal_switching()


def _wait_for_loaders() -> None:
    for loader in list(_RUNNING):
        loader.wait(10000)


class RigLoading:
    """Loading the rig of each file the tab opens, for :class:`RigPanel` (a mixin)."""

    @property
    def loading(self) -> bool:
        """Whether a rig is being read, or its curves wait for its first frame."""
        return any(isinstance(ld, RigLoader) for ld in self._loaders) or self._curves_pending

    @property
    def framing(self) -> bool:
        """Whether the box the chosen animation sweeps is being worked out (the camera waits)."""
        return any(isinstance(ld, SweepLoader) for ld in self._loaders)

    def wait_loaded(self, timeout_ms: int = 20000) -> bool:
        """Process events until the rig being read has arrived, curves and all (scripts, tests)."""
        deadline = QtCore.QDeadlineTimer(timeout_ms)
        while self.loading and not deadline.hasExpired():
            QtCore.QCoreApplication.processEvents(
                QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 20)
            QtCore.QThread.msleep(2)
        return not self.loading

    def wait_framed(self, timeout_ms: int = 20000) -> bool:
        """:meth:`wait_loaded`, then until the camera frames the whole animation (tests)."""
        deadline = QtCore.QDeadlineTimer(timeout_ms)
        if not self.wait_loaded(timeout_ms):
            return False
        while self.framing and not deadline.hasExpired():
            QtCore.QCoreApplication.processEvents(
                QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 20)
            QtCore.QThread.msleep(2)
        QtCore.QCoreApplication.processEvents()
        return not self.framing

    def on_file(self) -> None:
        self._generation += 1
        for loader in self._loaders:  # the last file's animation boxes: not wanted now
            if isinstance(loader, SweepLoader):
                loader.cancelled = True
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
        loader = RigLoader(self._generation, f)
        loader.loaded.connect(self._loaded)
        loader.failed.connect(self._failed)
        self._start(loader)

    def _start(self, loader: QtCore.QThread) -> None:
        # Not parented to the panel: a running thread must outlive a panel
        # closed meanwhile (Qt aborts on destroying a running QThread).
        # The GUI thread's callbacks wait for the GIL from a worker busy in
        # Python: 1 ms turns instead of 5 while one runs (as run_off_thread).
        fast_switching()
        _RUNNING.add(loader)
        loader.finished.connect(lambda ld=loader: _done(ld))
        loader.finished.connect(lambda ld=loader: self._finished(ld))
        self._loaders.append(loader)
        app = QtCore.QCoreApplication.instance()
        if app is not None and not app.property("quatlab_waits_for_rigs"):
            app.setProperty("quatlab_waits_for_rigs", True)
            app.aboutToQuit.connect(_wait_for_loaders)
        loader.start()

    def sweep_animation(self) -> None:
        """Work out the box the chosen animation sweeps (off the GUI thread), once per animation.

        Not while a new rig's curves are still to come: the first frame and
        the curves of a file just opened go first, then this (it shares the
        machine's cores with them).
        """
        pb = self.playback
        index = pb.animation_index
        if pb.rig is None or index is None or pb.swept():
            return
        if self._curves_later or self._curves_pending:
            self._sweep_due = True
            return
        self._sweep_due = False
        if any(isinstance(ld, SweepLoader) and ld.index == index
               and ld.generation == self._generation for ld in self._loaders):
            return
        loader = SweepLoader(self._generation, pb.rig, index, pb.animation)
        loader.swept.connect(self._swept)
        self._start(loader)

    def _swept(self, generation: int, index: int, made) -> None:
        if generation == self._generation:
            bounds, animation, segments, sweeps = made
            self.install_errors(animation, segments, sweeps)
            self.playback.set_swept(index, bounds)

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

    def _failed(self, generation: int, message: str) -> None:
        if generation == self._generation:
            self.playback.set_rig(None)
            self.status.setText(_("No 3D view: {error}").format(error=message))
            self.status.setVisible(True)
