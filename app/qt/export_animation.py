"""File > Export animation…: the sweep `quatlab record` writes, taken without freezing the window.

:class:`AnimationExport` takes the frames with
:func:`quatlab.app.qt.recorder.sweep_steps` (the frame loop of the command),
one step per turn of the event loop (the change of the parameter in one
turn, its grab in the next, a timer tick apart so the window repaints and
takes input between them), under a window-modal progress dialog with Cancel.
A few dropped grabs come first (:func:`~quatlab.app.qt.recorder.warm_up_steps`):
the first grab's set-up, spread over turns of its own.

Only the grabs are taken on the GUI thread. From the first one on, a worker
thread converts each grab to an RGB array and feeds it to the encoder, which
then encodes (Pillow or ffmpeg can take seconds for a long GIF) - the very
frames and the very bytes ``quatlab record`` makes. The file is published
with :func:`quatlab.app.io.atomic.write_files` only when encoding succeeded
and nobody cancelled, so a cancelled or failed export leaves nothing behind
(docs/formats.md, "Animations"). The file dialog has already asked before
an existing file is replaced.
"""

from __future__ import annotations

import queue
import threading
from pathlib import Path

from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import _
from quatlab.app.io.animation_io import (
    DEFAULT_DURATION,
    DEFAULT_FPS,
    MAX_FRAMES,
    AnimationError,
    check_output,
    encode_animation,
)
from quatlab.app.io.atomic import write_files
from quatlab.app.qt.recorder import image_to_rgb, sweep_steps, warm_up_steps

__all__ = ["AnimationExport", "add_export_action", "export_animation_dialog"]

#: How often the encoding thread is polled, ms.
_POLL_MS = 40
#: Delay between two steps of the capture, ms: a timer, not a zero-delay call,
#: so the event loop repaints and takes input between a change and its grab.
_STEP_MS = 1

#: Put on the frame queue: the sweep is over (encode) / the export was stopped.
_END, _STOP = object(), object()


class _Stopped(Exception):
    """The export was stopped while the encoder waited for frames."""


def _encode_from(frames: queue.SimpleQueue, path: Path, fps: float) -> tuple[str, object]:
    """Encode the grabs put on ``frames`` until ``_END``: ``("ok", bytes)`` or ``("error", text)``.

    Runs on the encoding thread; ``_STOP`` ends it with ``("stopped", None)``.
    """
    def arrays():
        while True:
            image = frames.get()
            if image is _END:
                return
            if image is _STOP:
                raise _Stopped
            yield image_to_rgb(image)

    try:
        return "ok", encode_animation(path, arrays(), fps=fps)
    except _Stopped:
        return "stopped", None
    except Exception as exc:  # noqa: BLE001 - reported on the GUI thread
        return "error", str(exc)


class AnimationExport(QtCore.QObject):
    """One export of ``window``'s sweep to ``path``; :meth:`start`, then wait for :attr:`done`.

    ``done`` carries ``""`` when the file was written, else the reason
    (cancelled, or the problem in one line). The shown tab's parameter is
    put back where it was.
    """

    done = QtCore.pyqtSignal(str)

    def __init__(self, window, path, *, duration: float = DEFAULT_DURATION,
                 fps: float = DEFAULT_FPS) -> None:
        super().__init__(window)
        self.window = window
        self.path = Path(path)
        self.fps = float(fps)
        self.n_frames = round(float(duration) * self.fps)
        self.state = "new"  # capturing, encoding, written, cancelled, failed
        self.message = ""
        self.frames_taken = 0
        self._frames: queue.SimpleQueue = queue.SimpleQueue()
        self._result: tuple = ()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Check the output, open the progress dialog and take the first frame soon.

        Raises AnimationError (the path's problem) before anything happens.
        """
        if not 2 <= self.n_frames <= MAX_FRAMES:
            raise AnimationError(self.path, _(
                "the length and frame rate must give 2 to {most} frames, got {frames}").format(
                    most=MAX_FRAMES, frames=self.n_frames))
        check_output(self.path, force=True)  # the file dialog asked about replacing it
        scrubber = self.window.current_scrubber()
        self._scrubber, self._value = scrubber, scrubber.param.get()
        self._sweep = self._steps()
        self.progress = QtWidgets.QProgressDialog(
            _("Recording {file}…").format(file=self.path.name), _("Cancel"), 0,
            self.n_frames + 1, self.window)
        self.progress.setWindowTitle(_("Export animation"))
        self.progress.setWindowModality(QtCore.Qt.WindowModality.WindowModal)
        self.progress.setMinimumDuration(0)
        self.progress.setAutoClose(False)
        self.progress.setAutoReset(False)
        self.progress.canceled.connect(self.cancel)
        self.state = "capturing"
        frames, path, fps = self._frames, self.path, self.fps

        def work() -> None:
            self._result = _encode_from(frames, path, fps)

        self._thread = threading.Thread(target=work, name="quatlab-encode", daemon=True)
        self._thread.start()
        QtCore.QTimer.singleShot(0, self._next_frame)

    def _steps(self):
        # One generator, so that closing it closes the sweep it is in.
        yield from warm_up_steps(self.window)
        yield from sweep_steps(self.window, self.n_frames)

    def cancel(self) -> None:
        """Stop; nothing is written (also while encoding: the bytes are dropped)."""
        if self.state in ("capturing", "encoding"):
            self._finish("cancelled", _("cancelled"))

    def _next_frame(self) -> None:
        if self.state != "capturing":
            return
        if self.progress.wasCanceled():
            self.cancel()
            return
        if not self._thread.is_alive():  # the encoder refused a frame (a resized window)
            self._finish("failed", self._result[1] if self._result else _("encoding stopped"))
            return
        try:
            frame = next(self._sweep)
        except StopIteration:
            self._encode()
            return
        except Exception as exc:  # noqa: BLE001 - a failed grab ends the export with a message
            self._finish("failed", str(exc))
            return
        if frame is not None:
            self._frames.put(frame)  # converted and encoded on the worker thread
            self.frames_taken += 1
            self.progress.setValue(self.frames_taken)
        QtCore.QTimer.singleShot(_STEP_MS, self._next_frame)

    def _encode(self) -> None:
        self.state = "encoding"
        self._frames.put(_END)
        self._restore()
        self.progress.setLabelText(_("Encoding {file}…").format(file=self.path.name))
        self._poll = QtCore.QTimer(self)
        self._poll.timeout.connect(self._check_encoded)
        self._poll.start(_POLL_MS)

    def _check_encoded(self) -> None:
        if self.state != "encoding":
            self._poll.stop()
            return
        if self.progress.wasCanceled():
            self.cancel()
            return
        if self._thread.is_alive():
            return
        self._poll.stop()
        kind, value = self._result
        if kind == "error":
            self._finish("failed", value)
            return
        try:
            write_files([(self.path, value)], force=True)
        except OSError as exc:
            self._finish("failed", f"{self.path}: {exc.strerror or exc}")
            return
        self._finish("written", "")

    def _restore(self) -> None:
        sc = getattr(self, "_scrubber", None)
        if sc is not None:
            sc.step(self._value - sc.param.get())
            self._scrubber = None

    def _finish(self, state: str, message: str) -> None:
        self.state, self.message = state, message
        self._frames.put(_STOP)  # ends the encoder if it still waits for frames
        self._restore()
        self._sweep.close()
        self.progress.canceled.disconnect(self.cancel)
        self.progress.close()
        self.done.emit(message)


def export_animation_dialog(win) -> AnimationExport | None:
    """Ask for a file and a length, then export (the window keeps running meanwhile)."""
    title = _("Export animation")
    gif, mp4 = _("GIF animation (*.gif)"), _("MP4 video (*.mp4)")
    path, chosen = QtWidgets.QFileDialog.getSaveFileName(
        win, title, "quatlab-sweep.gif", f"{gif};;{mp4}")
    if not path:
        return None
    if Path(path).suffix.lower() not in (".gif", ".mp4"):
        path += ".mp4" if chosen == mp4 else ".gif"
    seconds, ok = QtWidgets.QInputDialog.getDouble(
        win, title, _("Length of the sweep, in seconds:"), DEFAULT_DURATION, 0.5, 120.0, 1)
    if not ok:
        return None
    return run_export(win, path, duration=seconds)


def run_export(win, path, *, duration: float = DEFAULT_DURATION,
               fps: float = DEFAULT_FPS) -> AnimationExport | None:
    """Start an export to ``path``; problems go to a message box and the status bar."""
    export = AnimationExport(win, path, duration=duration, fps=fps)

    def report(message: str) -> None:
        if export.state == "written":
            win.status.showMessage(_("Animation saved to {file}").format(file=path), 5000)
        elif export.state == "failed":
            win._error(_("Could not export the animation"), ValueError(message))

    export.done.connect(report)
    try:
        export.start()
    except AnimationError as exc:
        win._error(_("Could not export the animation"), exc)
        return None
    win._animation_export = export  # kept alive while it runs
    return export


def add_export_action(win, file_menu: QtWidgets.QMenu) -> None:
    """File > Export animation… (the window's hook)."""
    act = QtGui.QAction(_("Export animation…"), win)
    act.setObjectName("export_animation")
    tip = _("Save a sweep of the shown view's parameter as a GIF or MP4, for slides")
    act.setStatusTip(tip)
    act.setToolTip(tip)
    act.triggered.connect(lambda: export_animation_dialog(win))
    file_menu.addAction(act)
