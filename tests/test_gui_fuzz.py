"""A seeded random walk through the whole window: no exception, no Qt warning, no NaN in a view.

Every action is one a user can take: switch tabs, choose presets, type
garbage into any field and press Enter, click buttons and check boxes, move
sliders, pick combo entries, trigger menu shortcuts (file dialogs answer with
good and hostile files), drop files, play, resize. The run fails on

* any exception that escapes into Qt's event loop (pytest-qt's capture),
* a Qt warning or critical message (``qInstallMessageHandler``, via
  pytest-qt's ``qtlog``), except the few listed in ``FOREIGN_MESSAGES`` that
  come from the test machine, not from QuatLab,
* a non-finite value handed to a GL item, or an infinity handed to a plot
  item (NaN is how the plots draw gaps, docs/curves.md).

It also measures the longest time one action held the event loop and the
resident memory after warm-up and at the end, and prints them. Timing and
memory are asserted only in the long run asked for on demand
(``QUATLAB_FUZZ_ACTIONS=5000``), never in CI, where the machine's load
decides the numbers (docs/environment.md). ``QUATLAB_FUZZ_SEED`` picks
another walk; a failure names the seed and the action.
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import numpy as np
import pyqtgraph as pg
import pyqtgraph.opengl as gl
import pytest
from PyQt6 import QtCore, QtGui, QtTest, QtWidgets, sip

from quatlab.app.model.state import LessonState
from quatlab.app.qt.window import MainWindow

ROOT = Path(__file__).resolve().parents[1]
ACTIONS = int(os.environ.get("QUATLAB_FUZZ_ACTIONS", "300"))
SEED = int(os.environ.get("QUATLAB_FUZZ_SEED", "20261201"))
LONG_RUN = "QUATLAB_FUZZ_ACTIONS" in os.environ
#: Bounds of the on-demand long run only (generous: a shared machine).
MAX_BLOCK_S = 0.5
MAX_GROWTH_MB = 40.0
#: Qt messages that come from the test machine (Xvfb's GL, fonts), not from us.
FOREIGN_MESSAGES = ("propagateSizeHints", "QXcbConnection", "Mesa", "libEGL",
                    "QFont::setPointSize", "This plugin does not support")

GARBAGE = ["", "abc", "1e400", "-1e400", "-795102", "nan", "inf", "-inf", "1e-320", "9" * 40,
           "−0.5", "0", "-0", "20000", "8824", "1", "0.5", "2", "-1", ",", "1,2", "0x10",
           "(1, 0, 0, 0)", "1 0 0 1", "0 0 0 0", "<b>x</b>", "é", "\t", "1e5"]
SIZES = [(1400, 900), (1600, 1200), (1100, 700), (900, 650), (1920, 1150)]


# --------------------------------------------------------------------------- files offered


def _files(tmp: Path) -> list[str]:
    """Good and hostile files for the dialogs and drops (never FIFOs: the readers'
    own tests cover those, and one that blocked would hang the run)."""
    good = LessonState.from_preset("half-turn").to_session()
    sessions = {
        "good.quatlab.json": json.dumps(good),
        "t_list.json": json.dumps({**good, "t": [0.1, 0.2]}),
        "t_huge.json": json.dumps(good)[:-1] + ', "t": ' + "9" * 400 + "}",
        "deep.json": "[" * 50_000 + "]" * 50_000,
        "empty.json": "",
        "not_session.json": '{"format": "x"}',
    }
    tracks = {
        "huge_int.json": '{"order": "wxyz", "times": [0, 1], "values": [[1, 0, 0, 0], '
                         '[1, 0, 0, ' + "9" * 400 + "]]}",
        "track.json": json.dumps({"order": "wxyz", "times": [0, 0.5, 1, 1.5],
                                  "values": [[1, 0, 0, 0], [0.7, 0, 0.7, 0],
                                             [0, 0, -1, 0], [-0.7, 0, 0.7, 0]]}),
        "flip.csv": "t,w,x,y,z\n0,1,0,0,0\n1,0,0,0,1\n2,-1,0,0,0\n",
        "bom.csv": "\ufeff\ufefft,w,x,y,z\n0,1,0,0,0\n",
        "garbage.gltf": "\x00\x01 not json",
        "nan.json": '{"order": "wxyz", "times": [0, NaN], "values": [[1,0,0,0],[1,0,0,0]]}',
    }
    paths = []
    for name, text in {**sessions, **tracks}.items():
        p = tmp / name
        p.write_text(text, encoding="utf-8")
        paths.append(str(p))
    paths += [str(p) for p in sorted((ROOT / "tests" / "data" / "gltf").glob("*.gl*"))][:6]
    paths += [str(tmp / "missing.json"), str(tmp)]  # a missing file, a folder
    return paths


# --------------------------------------------------------------------------- what reaches the views


class ViewData:
    """Wraps the GL and plot items' data setters and records non-finite input."""

    def __init__(self, monkeypatch) -> None:
        self.bad: list[str] = []
        self.where = "start"
        for cls, name, rule in (
                (gl.GLLinePlotItem, "setData", "finite"),
                (gl.GLScatterPlotItem, "setData", "finite"),
                (gl.GLMeshItem, "setMeshData", "finite"),
                (pg.PlotDataItem, "setData", "no_inf"),
                (pg.ScatterPlotItem, "setData", "no_inf"),
                (pg.InfiniteLine, "setValue", "finite")):
            monkeypatch.setattr(cls, name, self._wrap(cls, getattr(cls, name), rule))

    def _wrap(self, cls, original, rule):
        def checked(item, *args, **kwargs):
            for key, value in [*enumerate(args), *kwargs.items()]:
                if key in ("color", "brush", "pen", "symbolBrush", "symbolPen", "name"):
                    continue
                self._check(f"{cls.__name__}.{original.__name__}({key})", value, rule)
            return original(item, *args, **kwargs)
        return checked

    def _check(self, what: str, value, rule: str) -> None:
        if isinstance(value, (QtCore.QPointF, QtGui.QColor, str, bool)) or value is None:
            return
        try:
            arr = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError):
            return
        bad = ~np.isfinite(arr) if rule == "finite" else np.isinf(arr)
        if np.any(bad):
            self.bad.append(f"{self.where}: {what} got {'inf' if np.isinf(arr).any() else 'NaN'}")


# --------------------------------------------------------------------------- the walk


def _rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


class Walk:
    def __init__(self, win: MainWindow, qtbot, rng: random.Random, files: list[str],
                 out: Path) -> None:
        self.win, self.qtbot, self.rng, self.files, self.out = win, qtbot, rng, files, out
        self.saves = self.rebuilds = 0
        self.dialogs = win.dialogs
        self.actions = [
            (3, self.tab), (2, self.preset), (6, self.type_garbage), (5, self.click),
            (3, self.slider), (3, self.combo), (3, self.shortcut), (1, self.drop),
            (1, self.resize), (2, self.key_cell), (1, self.play), (1, self.check_box)]

    # widgets of the tab shown (and the side panels when visible)
    def _widgets(self, kind):
        roots = [self.win.tabs.currentWidget()]
        roots += [p for p in self.win._side_panels if p.isVisible()]
        found = []
        for root in roots:
            found += [w for w in root.findChildren(kind) if w.isVisibleTo(self.win)
                      and w.isEnabled()]
        return found

    def _pick(self, items):
        return self.rng.choice(items) if items else None

    def step(self) -> str:
        self._follow_rebuilt_window()
        weights = [w for w, _ in self.actions]
        action = self.rng.choices([a for _, a in self.actions], weights)[0]
        return action() or action.__name__

    def _follow_rebuilt_window(self) -> None:
        """Go on in the window View > Language built in place of this one.

        A change of language rebuilds the window on the same lesson state
        (docs/architecture.md, "Translations"); the old one is closed and deleted.
        """
        if not sip.isdeleted(self.win) and self.win.isVisible():
            return
        new = [w for w in QtWidgets.QApplication.topLevelWidgets()
               if isinstance(w, MainWindow) and w is not self.win and not sip.isdeleted(w)
               and w.isVisible()]
        assert len(new) == 1, f"{len(new)} windows after a rebuild"
        new[0].dialogs = self.win.dialogs if not sip.isdeleted(self.win) else self.dialogs
        self.win = new[0]
        self.qtbot.addWidget(self.win)
        self.rebuilds += 1

    def tab(self):
        i = self.rng.randrange(self.win.tabs.count())
        self.win.tabs.setCurrentIndex(i)
        return f"tab {self.win.tabs.widget(i).objectName()}"

    def preset(self):
        box = self.win.preset_box if self.rng.random() < 0.3 else self._pick(
            [b for b in self._widgets(QtWidgets.QComboBox) if b.objectName() == "lesson_preset"])
        if box is None:
            return "preset (none)"
        i = self.rng.randrange(box.count())
        box.setCurrentIndex(i)
        box.activated.emit(i)
        return f"preset {box.objectName()}={box.itemText(i)[:30]}"

    def type_garbage(self):
        edits = self._widgets(QtWidgets.QLineEdit)
        edit = self._pick(edits)
        if edit is None:
            return "type (none)"
        text = self.rng.choice(GARBAGE) if self.rng.random() < 0.7 else \
            f"{self.rng.uniform(-3, 3):.{self.rng.randrange(1, 8)}g}"
        edit.setFocus()
        edit.selectAll()
        edit.insert(text)
        QtTest.QTest.keyClick(edit, QtCore.Qt.Key.Key_Return)
        edit.clearFocus()   # editingFinished for spin boxes
        owner = edit.parentWidget()
        return f"type {text!r} into {owner.objectName() or type(owner).__name__}"

    def click(self):
        buttons = [b for b in self._widgets(QtWidgets.QAbstractButton)
                   if not isinstance(b, QtWidgets.QCheckBox)]
        b = self._pick(buttons)
        if b is None:
            return "click (none)"
        b.click()
        return f"click {b.objectName() or b.text()!r}"

    def check_box(self):
        b = self._pick(self._widgets(QtWidgets.QCheckBox))
        if b is None:
            return "check (none)"
        b.click()
        return f"check {b.objectName() or b.text()!r}"

    def slider(self):
        s = self._pick(self._widgets(QtWidgets.QAbstractSlider))
        if s is None:
            return "slider (none)"
        v = self.rng.randint(s.minimum(), s.maximum())
        s.setValue(v)
        return f"slider {s.objectName()}={v}"

    def combo(self):
        box = self._pick(self._widgets(QtWidgets.QComboBox))
        if box is None or box.count() == 0:
            return "combo (none)"
        i = self.rng.randrange(box.count())
        box.setCurrentIndex(i)
        box.activated.emit(i)
        return f"combo {box.objectName()}={i}"

    def shortcut(self):
        acts = [a for m in self.win.menuBar().findChildren(QtWidgets.QMenu)
                for a in m.actions() if a.text() and a.text() != "Quit" and not a.isSeparator()]
        act = self._pick(acts)
        text = act.text()
        act.trigger()  # View > Language may replace the window (and this action)
        return f"action {text!r}"

    def drop(self):
        path = self.rng.choice(self.files)
        mime = QtCore.QMimeData()
        mime.setUrls([QtCore.QUrl.fromLocalFile(path)])
        ev = QtGui.QDropEvent(QtCore.QPointF(200, 200), QtCore.Qt.DropAction.CopyAction, mime,
                              QtCore.Qt.MouseButton.LeftButton,
                              QtCore.Qt.KeyboardModifier.NoModifier)
        self.win.dropEvent(ev)
        return f"drop {Path(path).name}"

    def resize(self):
        size = self.rng.choice(SIZES)
        self.win.resize(*size)
        return f"resize {size}"

    def key_cell(self):
        view = self.win.views.get("squad")
        if view is None:
            return "cell (none)"
        model = view.keys.table.model()
        row = self.rng.randrange(max(model.rowCount(), 1))
        col = self.rng.randrange(model.columnCount())
        text = self.rng.choice(GARBAGE)
        model.setData(model.index(row, col), text)
        if self.rng.random() < 0.3:
            view.keys.negate(row)
        return f"cell ({row}, {col}) = {text!r}"

    def play(self):
        sc = self.win.current_scrubber()
        sc.toggle_play()
        for _ in range(self.rng.randrange(1, 6)):
            sc.advance(0.05)
        return "play"

    # the dialogs' answers
    def open_name(self, *args, **kwargs):
        return (self.rng.choice(self.files + [""]), "")

    def save_name(self, *args, **kwargs):
        self.saves += 1
        suffix = self.rng.choice([".png", ".svg", ".csv", ".json", ".txt", ""])
        folder = self.out if self.rng.random() < 0.9 else self.out / "missing"
        return (str(folder / f"out{self.saves}{suffix}"), "")


@pytest.fixture
def fuzz_window(qtbot, monkeypatch, tmp_path):
    dialogs = []
    for name in ("warning", "information", "critical", "question"):
        monkeypatch.setattr(QtWidgets.QMessageBox, name, staticmethod(
            lambda parent, title, text, *a, _n=name, **k: dialogs.append((_n, title, text))
            or QtWidgets.QMessageBox.StandardButton.Ok))
    monkeypatch.setattr(QtWidgets.QMessageBox, "about", staticmethod(
        lambda *a, **k: dialogs.append(("about",))))
    # A modal input dialog (File > Export animation asks for a length) would
    # wait for a user the walk does not have: it answers Cancel. The walk hung
    # there once it reached that shortcut.
    for name in ("getDouble", "getInt", "getText", "getItem"):
        monkeypatch.setattr(QtWidgets.QInputDialog, name, staticmethod(
            lambda parent, title, *a, _n=name, **k: dialogs.append((_n, title)) or (None, False)))
    win = MainWindow(LessonState.from_preset("negated-20", t=0.5))
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    win.dialogs = dialogs
    return win


def test_random_walk_through_the_window(qtbot, qtlog, monkeypatch, tmp_path, fuzz_window):
    win = fuzz_window
    data = ViewData(monkeypatch)
    out = tmp_path / "out"
    out.mkdir()
    walk = Walk(win, qtbot, random.Random(SEED), _files(tmp_path), out)
    monkeypatch.setattr(QtWidgets.QFileDialog, "getOpenFileName", staticmethod(walk.open_name))
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", staticmethod(walk.save_name))

    log, errors, longest = [], [], (0.0, "")
    warm_up = max(ACTIONS // 3, 1)
    rss_warm = None
    app = QtWidgets.QApplication.instance()
    with qtbot.capture_exceptions() as exceptions:
        for i in range(ACTIONS):
            data.where = f"action {i}"
            start = time.perf_counter()
            what = walk.step()
            app.processEvents()
            walk._follow_rebuilt_window()
            took = time.perf_counter() - start
            data.where = f"action {i} ({what})"
            log.append(what)
            if took > longest[0]:
                longest = (took, f"action {i}: {what}")
            if len(exceptions) > len(errors):
                errors.append(f"action {i} ({what}): {exceptions[len(errors)][1]!r}")
                while len(errors) < len(exceptions):
                    errors.append(f"action {i} ({what}): {exceptions[len(errors)][1]!r}")
            if i + 1 == warm_up:
                rss_warm = _rss_mb()
            if walk.win.views["main"].scrubber.playing and walk.rng.random() < 0.5:
                walk.win.views["main"].scrubber.toggle_play()
        walk._follow_rebuilt_window()
        win = walk.win
        for sc in [v.slider for v in win.views.values() if hasattr(v, "slider")]:
            if getattr(sc, "playing", False):
                sc.toggle_play()
        app.processEvents()
    rss_end = _rss_mb()
    ours = [r for r in qtlog.records
            if r.type in (QtCore.QtMsgType.QtWarningMsg, QtCore.QtMsgType.QtCriticalMsg)
            and not any(f in r.message for f in FOREIGN_MESSAGES)]
    print(f"\nGUI random walk: {ACTIONS} actions (walk {SEED}), {len(errors)} exceptions, "
          f"{len(ours)} Qt warnings, {len(data.bad)} non-finite values to views, "
          f"{len(walk.dialogs)} message boxes, {walk.rebuilds} windows rebuilt; "
          f"longest block {longest[0] * 1000:.0f} ms "
          f"({longest[1]}); RSS {rss_warm:.0f} MB after warm-up, {rss_end:.0f} MB at the end")
    assert errors == [], "\n".join(errors[:10])
    assert ours == [], "\n".join(f"{r.type.name}: {r.message}" for r in ours[:10])
    assert data.bad == [], "\n".join(data.bad[:10])
    if LONG_RUN:
        assert longest[0] < MAX_BLOCK_S, longest
        assert rss_end - rss_warm < MAX_GROWTH_MB, (rss_warm, rss_end)
