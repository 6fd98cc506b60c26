"""Test session set-up: a real X display (Xvfb) for GL, Qt attributes set early, and
widgets deleted at the end of the test that made them.

Test modules import their helpers (``oracles``, ``text_layout``, other test modules) by
their bare names: pytest puts this folder on ``sys.path``. Never ``from tests.x import``:
pyblish-base (a test dependency) installs a top-level regular package called ``tests``,
which wins over this folder, a namespace portion.

pyqtgraph's GL views get no OpenGL context on the ``offscreen`` platform
(docs/environment.md), so the whole suite runs on ``xcb``. When no ``DISPLAY`` is set
we start our own Xvfb for the session, so the README's single test command
works on a bare machine and on a desktop alike.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

import pytest
from hypothesis import settings

# No per-example deadline: a shared 2-core CI machine makes timings noise, and
# speed is measured by the benchmarks, not by tests. In CI the examples are
# derandomized so a run is reproducible; locally each run explores anew.
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

_xvfb: subprocess.Popen | None = None


def _start_xvfb() -> None:
    global _xvfb
    exe = shutil.which("Xvfb")
    if exe is None:
        raise RuntimeError(
            "No DISPLAY and no Xvfb: install xvfb (apt-get install xvfb) or run under a desktop"
        )
    read_fd, write_fd = os.pipe()
    # -displayfd makes Xvfb pick a free display and tell us which.
    _xvfb = subprocess.Popen(
        [exe, "-displayfd", str(write_fd), "-screen", "0", "1920x1200x24", "-nolisten", "tcp"],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    with os.fdopen(read_fd) as f:
        display = f.readline().strip()
    if not display:
        raise RuntimeError("Xvfb did not start")
    os.environ["DISPLAY"] = f":{display}"


def pytest_configure(config):
    if not os.environ.get("DISPLAY"):
        _start_xvfb()
    os.environ["QT_QPA_PLATFORM"] = "xcb"
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if not runtime or not os.path.isdir(runtime):
        runtime = tempfile.mkdtemp(prefix="quatlab-xdg-")
        os.chmod(runtime, 0o700)
        os.environ["XDG_RUNTIME_DIR"] = runtime
    # Must precede the QApplication (pytest-qt creates it lazily): two GL
    # views in one process need shared contexts (docs/environment.md).
    from PyQt6 import QtCore

    QtCore.QCoreApplication.setAttribute(QtCore.Qt.ApplicationAttribute.AA_ShareOpenGLContexts)


def _delete_deferred() -> None:
    """Carry out pending ``deleteLater()`` calls now.

    Outside a running event loop ``processEvents()`` leaves them alone: a
    widget pytest-qt closed would be deleted in whichever later test next
    runs an event loop (``qtbot.wait``), or never, and its native GL window
    with it. Asking for the DeferredDelete events by type delivers them.
    """
    from PyQt6 import QtCore

    if QtCore.QCoreApplication.instance() is not None:
        QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete.value)
        QtCore.QCoreApplication.processEvents()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_teardown(item):
    # Outermost: runs after pytest-qt's teardown has closed the test's
    # widgets (close + deleteLater) and after the fixtures' own teardown.
    result = yield
    _delete_deferred()
    return result


def pytest_unconfigure(config):
    from PyQt6 import QtCore, QtWidgets, sip

    # Tear Qt down while the display is still there: GL views destroyed at
    # interpreter exit, after their context's display went away, crash the
    # process, and killing Xvfb under a live QApplication makes Qt abort
    # ("X11 connection broke"): either way a green run would exit non-zero.
    app = QtWidgets.QApplication.instance()
    if app is not None:
        app.closeAllWindows()
        # Left over are windows no test handed to qtbot (run_window's, on a
        # bad file). Only those that reached the screen hold native windows
        # and GL contexts. The other parentless top-levels include pyqtgraph's
        # menu parts, which their owners delete: deleting them here as well
        # crashes.
        for w in app.topLevelWidgets():
            if w.parentWidget() is None and w.testAttribute(
                    QtCore.Qt.WidgetAttribute.WA_WState_Created):
                w.deleteLater()
        _delete_deferred()
        sip.delete(app)
    if _xvfb is not None:
        _xvfb.terminate()
        _xvfb.wait(timeout=10)


@pytest.fixture
def warnings_shown(monkeypatch):
    """Replace the modal QMessageBox.warning with a recorder of (title, text)."""
    from PyQt6 import QtWidgets

    shown = []

    def fake(parent, title, text, *args, **kwargs):
        shown.append((title, text))
        return QtWidgets.QMessageBox.StandardButton.Ok

    monkeypatch.setattr(QtWidgets.QMessageBox, "warning", staticmethod(fake))
    return shown


@pytest.fixture
def rng():
    import numpy as np

    return np.random.default_rng(20261130)


@pytest.fixture(autouse=True)
def _language_kept():
    """Put back the language a test found: View > Language (the GUI fuzz reaches it)
    and ``--lang`` switch the process-wide catalog."""
    from quatlab.app import i18n

    before = i18n.current_language()
    yield
    if i18n.current_language() != before:
        i18n.set_language(before)


@pytest.fixture(autouse=True)
def _light_theme_afterwards():
    """Put the process back in the light theme at 100% after each test.

    The theme and zoom are process-wide (one window per process in the app);
    a test that switches them (View > Theme, the GUI fuzz) must not change
    what the next test's window draws.
    """
    yield
    import sys

    themes = sys.modules.get("quatlab.rendering.themes")
    if themes is None or (themes.current() is themes.LIGHT and themes.scale() == 1.0):
        return
    themes.set_current(themes.LIGHT, 1.0)
    from PyQt6 import QtWidgets

    from quatlab.app.qt.theme_menu import qt_palette

    app = QtWidgets.QApplication.instance()
    if app is not None:
        app.setPalette(qt_palette(themes.LIGHT))
        app.setStyleSheet("")


@pytest.fixture
def keyframes_window(qtbot, monkeypatch):
    """The main window with only the two-key lesson and the Keyframes tab, shown on
    the Keyframes tab at 1400x900 (the other tabs are tested by their own modules)."""
    from PyQt6 import QtWidgets

    from quatlab.app.model.state import LessonState
    from quatlab.app.qt import keyframes_view, window

    monkeypatch.setattr(window, "_view_modules", lambda: [keyframes_view], raising=False)
    win = window.MainWindow(LessonState.from_preset("negated-20", t=0.25))
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    win.show_view("keyframes")
    QtWidgets.QApplication.processEvents()
    return win


@pytest.fixture
def main_window(qtbot, monkeypatch):
    """``build(preset, t, size)``: the main window on a lesson preset, shown, its scene valid.

    Only the main lesson is built (the other views are left out), so a test
    of the main scene does not pay for every tab.
    """
    from PyQt6 import QtWidgets

    import quatlab.app.qt.window as window_module
    from quatlab.app.model.state import LessonState
    from quatlab.app.qt.window import MainWindow

    monkeypatch.setattr(window_module, "_view_modules", lambda: [], raising=False)

    def build(preset: str, t: float, size=(1400, 900)):
        win = MainWindow(LessonState.from_preset(preset, t=t))
        qtbot.addWidget(win)
        win.resize(*size)
        win.show()
        qtbot.waitExposed(win)
        qtbot.waitUntil(win.lesson.scene.isValid)
        QtWidgets.QApplication.processEvents()
        return win

    return build


@pytest.fixture(autouse=True)
def _qtbot_widgets_live_until_closed(monkeypatch):
    """Widgets given to ``qtbot.addWidget`` stay alive until pytest-qt has closed them.

    pytest-qt keeps them by weak reference only, so a widget a test held in
    a local variable was destroyed by Python the moment the test returned,
    with Qt events still posted for it: a pyqtgraph label's resize then ran
    on its deleted text item, and the process crashed (seen once in a full
    run, in the plot export test). Held here, each is closed and deleted
    through Qt's own deferred deletion first, and only then let go.
    """
    import pytestqt.qtbot as qtbot_module

    held = []
    original = qtbot_module._add_widget

    def add_widget(item, widget, *, before_close_func=None):
        held.append(widget)
        original(item, widget, before_close_func=before_close_func)

    monkeypatch.setattr(qtbot_module, "_add_widget", add_widget)
    yield
    if held:
        _delete_deferred()
    held.clear()
