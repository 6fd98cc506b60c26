"""``quatlab`` without a subcommand: open the window, optionally on a keyframe file."""

from __future__ import annotations

import os
import shlex
import signal
import socket
import sys
from pathlib import Path

from quatlab.app.commands.common import fail
from quatlab.app.i18n import _
from quatlab.app.model import presets
from quatlab.app.model.state import LessonState

__all__ = ["run_window", "no_display_reason"]

#: Exit status after Ctrl-C, as a shell reports a process ended by SIGINT.
EXIT_INTERRUPTED = 128 + signal.SIGINT


def no_display_reason(environ=os.environ, platform: str = sys.platform) -> str | None:
    """Why the window cannot open here (None when it can, as far as we can tell).

    On Linux Qt needs an X11 or Wayland display unless a platform such as
    ``offscreen`` is chosen; without one it aborts the process (exit 134)
    with a message about xcb libraries that misleads (docs/environment.md).
    """
    if not platform.startswith("linux"):
        return None
    qpa = environ.get("QT_QPA_PLATFORM", "")
    if qpa and not qpa.startswith(("xcb", "wayland")):
        return None  # offscreen, vnc, ...: the user chose a platform without a screen
    if environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"):
        return None
    return _("no display to open the window on (DISPLAY is not set)")


def _quit_on_sigint(app) -> tuple:
    """Make Ctrl-C in the terminal close the window and end the event loop.

    Python runs its signal handlers only between bytecodes, and Qt's event
    loop runs none while it waits: the C-level handler writes to a socket
    (``set_wakeup_fd``) that Qt watches, which wakes the loop and lets the
    handler run. Returns what must stay alive while the loop runs.
    """
    from PyQt6 import QtCore

    reader, writer = socket.socketpair()
    reader.setblocking(False)
    writer.setblocking(False)
    signal.set_wakeup_fd(writer.fileno())
    notifier = QtCore.QSocketNotifier(reader.fileno(), QtCore.QSocketNotifier.Type.Read, app)

    def drain() -> None:
        try:
            reader.recv(64)
        except OSError:
            pass

    notifier.activated.connect(drain)

    def interrupted(signum, frame) -> None:
        app.setProperty("quatlab_interrupted", True)
        # Queued, not done here: the handler may run in the middle of a GL
        # paint. Closing the last window ends the loop as Quit does.
        QtCore.QTimer.singleShot(0, app.closeAllWindows)

    signal.signal(signal.SIGINT, interrupted)
    return reader, writer, notifier


def run_window(file: str | None = None, preset: str | None = None, t: float | None = None,
               lang: str | None = None) -> int:
    """Open the window (the ``quatlab`` command without a subcommand).

    ``lang`` (``--lang``) wins over the language chosen in View > Language,
    which wins over the system's.
    """
    why = no_display_reason()
    if why is not None:
        again = shlex.join(["xvfb-run", "-a", *sys.argv])
        return fail("quatlab", _("{why}; on a machine without a screen run it under a virtual "
                                 "one: {again} (nothing will be visible), or save a picture "
                                 "with `xvfb-run -a quatlab screenshot -o quatlab.png`").format(
                                     why=why, again=again))
    from PyQt6 import QtCore

    from quatlab.app.qt.language_menu import start_language
    from quatlab.app.qt.window import MainWindow, make_app

    app = make_app()
    start_language(QtCore.QSettings(), lang)
    # From here on Ctrl-C closes the window (also while it is being built).
    keep = _quit_on_sigint(app)
    try:
        return _run(app, MainWindow, file, preset, t)
    finally:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for sock in keep[:2]:
            sock.close()


def _run(app, main_window, file, preset, t) -> int:
    try:
        state = LessonState.from_preset(preset or presets.DEFAULT_PRESET,
                                        t=0.5 if t is None else t)
    except ValueError as exc:
        return fail("quatlab", str(exc))
    win = main_window(state)
    if file:
        try:
            win.open_keyframes(file)
        except (OSError, ValueError) as exc:
            # Started from a desktop there may be no terminal: say it in both.
            win._error(_("Could not open {file}").format(file=Path(file).name), exc)
            return fail("quatlab", str(exc))
    if app.property("quatlab_interrupted"):
        return EXIT_INTERRUPTED  # Ctrl-C while the window was being built
    from PyQt6 import QtCore

    win.place_on_screen(QtCore.QSettings())
    win.show()
    status = app.exec()
    return EXIT_INTERRUPTED if app.property("quatlab_interrupted") else status
