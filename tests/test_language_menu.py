"""View > Language and ``--lang``: the window switches live, remembers the choice in its
QSettings (a temporary file here, never the user's), and ``--lang`` reaches the window."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app import i18n
from quatlab.app.commands.common import requested_language
from quatlab.app.qt import language_menu
from quatlab.app.qt.window import MainWindow

HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def english():
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture
def settings(tmp_path):
    return QtCore.QSettings(str(tmp_path / "lang.ini"), QtCore.QSettings.Format.IniFormat)


def _menu_titles(win) -> list[str]:
    return [a.text() for a in win.menuBar().actions()]


def _action(win, name) -> QtGui.QAction:
    return win.findChild(QtGui.QAction, name)


def test_choosing_chinese_switches_the_window_live_and_is_remembered(qtbot, english, settings):
    win = MainWindow()
    qtbot.addWidget(win)
    win.place_on_screen(settings)
    win.show()
    win.show_view("blend")
    state = win.state
    state.set_t(0.3)
    listeners = state.events.count()
    assert _menu_titles(win)[0] == "&File"
    assert _action(win, "language_system").isChecked()

    _action(win, "language_zh_CN").trigger()
    # The window that took over: on the same lesson state (other tests' windows have theirs).
    new = next(w for w in QtWidgets.QApplication.topLevelWidgets()
               if isinstance(w, MainWindow) and w is not win and w.state is state)
    qtbot.addWidget(new)
    assert settings.value(language_menu.LANGUAGE_KEY) == "zh_CN"
    titles = _menu_titles(new)
    assert all(HAN.search(t) for t in titles), titles
    assert titles[0].startswith("文件")
    assert HAN.search(new.tabs.tabText(0)) and HAN.search(new.windowTitle())
    assert HAN.search(new.findChild(QtWidgets.QMenu, "language_menu").title())
    assert _action(new, "language_zh_CN").isChecked()
    # The lesson goes on where it was: the same state, the same tab and t.
    assert new.state is state and state.t == pytest.approx(0.3)
    assert new.current_view().objectName() == "blend"
    # The old window's widgets no longer listen to the state: no leak, no call
    # into deleted widgets.
    assert state.events.count() == listeners
    QtWidgets.QApplication.processEvents()
    state.set_t(0.6)
    assert new.scrubbers()

    back = language_menu.choose_language(new, language_menu.SYSTEM)
    qtbot.addWidget(back)
    assert settings.value(language_menu.LANGUAGE_KEY) == "system"
    assert _menu_titles(back)[0] == "&File"   # this machine's locale is not Chinese


def test_the_remembered_language_is_used_at_the_next_start(english, settings):
    settings.setValue(language_menu.LANGUAGE_KEY, "zh_CN")
    assert language_menu.start_language(settings) == "zh_CN"
    assert language_menu.start_language(settings, "en") == "en"   # --lang wins for this run
    settings.setValue(language_menu.LANGUAGE_KEY, "klingon")      # a broken setting: the system
    assert language_menu.start_language(settings) == i18n.system_language()


def test_lang_is_found_anywhere_before_a_double_dash():
    assert requested_language(["screenshot", "--lang", "zh_CN", "-o", "a.png"]) == ("zh_CN", True)
    assert requested_language(["--lang=en"]) == ("en", True)
    assert requested_language(["check", "--", "--lang"]) == (None, False)


def test_an_unknown_lang_is_one_line_and_exit_2():
    out = subprocess.run([sys.executable, "-m", "quatlab.app", "--lang", "fr", "presets"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert out.stderr.strip() == ("quatlab: error: unknown language 'fr'; choose one of: "
                                  "en, zh_CN")


def test_lang_translates_a_headless_command(english):
    out = subprocess.run([sys.executable, "-m", "quatlab.app", "presets", "--lang", "zh_CN"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert HAN.search(out.stdout)


def test_screenshot_with_lang_zh_cn_builds_a_chinese_window(qtbot, english, tmp_path,
                                                            monkeypatch):
    from quatlab.app.commands import cli, screenshot

    seen = {}
    real = screenshot.show_window

    def spy(*args, **kwargs):
        shown, problem = real(*args, **kwargs)
        if shown:
            seen["win"] = shown[0]
        return shown, problem

    monkeypatch.setattr(screenshot, "show_window", spy)
    out = tmp_path / "zh.png"
    assert cli.main(["screenshot", "--lang", "zh_CN", "-o", str(out), "--view", "euler",
                     "--size", "1280x720"]) == 0
    win = seen["win"]
    qtbot.addWidget(win)
    assert out.stat().st_size > 1000
    assert _menu_titles(win)[0].startswith("文件")
    assert HAN.search(win.tabs.tabText(win.tabs.currentIndex()))
    labels = [w.text() for w in win.current_view().findChildren(QtWidgets.QLabel) if w.text()]
    assert labels and any(HAN.search(t) for t in labels)


def test_lang_may_come_before_the_subcommand(english):
    out = subprocess.run([sys.executable, "-m", "quatlab.app", "--lang", "zh_CN", "presets"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert HAN.search(out.stdout)


def test_a_file_problem_is_one_chinese_line_with_lang(tmp_path, english):
    fifo = tmp_path / "anim.gltf"
    os.mkfifo(fifo)
    out = subprocess.run([sys.executable, "-m", "quatlab.app", "check", str(fifo), "--lang",
                          "zh_CN"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and str(fifo) in lines[0]
    assert "不是普通文件" in lines[0], lines[0]
