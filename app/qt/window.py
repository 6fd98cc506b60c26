"""The QuatLab main window: wires the lesson model to the 3D scene, plots and editors.

Only this module (and the widgets it builds) connect the model and the views:
the model (:mod:`quatlab.app.model.state`) knows no Qt, and the rendering code draws
what it is given. Curves are pushed to the views when the endpoints change;
a change of t only moves the chains, the cursor and the readouts.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
from pathlib import Path

import numpy as np
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import _
from quatlab.app.io.atomic import atomic_write
from quatlab.app.io.safe_read import read_text  # the one bounded regular-file read
from quatlab.app.model import presets
from quatlab.app.model.explain import explain, explain_at_t
from quatlab.app.model.state import LessonState
from quatlab.app.qt import language_menu, theme_menu
from quatlab.app.qt.compare_dialog import add_compare_action
from quatlab.app.qt.endpoint_editor import EndpointEditor
from quatlab.app.qt.export_animation import add_export_action
from quatlab.app.qt.lesson_view import LessonView
from quatlab.app.qt.readouts import Readouts
from quatlab.app.qt.screen_modes import (  # noqa: F401 - re-exported for callers
    DEFAULT_SIZE,
    GEOMETRY_KEY,
    PRESENTATION_SPEED,
    ZOOM_KEY,
    ZOOM_STEPS,
    ScreenModes,
    SidePanel,
    ViewPage,
    fitted_geometry,
)
from quatlab.app.qt.scrubber import Scrubber
from quatlab.app.qt.tab_rows import TabRows

__all__ = ["MainWindow", "make_app", "view_names"]

#: Modules contributing one lesson view each (a tab): every module provides
#: ``VIEW_NAME`` (for ``--view``), ``TITLE`` (the tab) and ``create(window)``
#: returning the QWidget. Listed in tab order after the two-key lesson.
VIEW_MODULES = (
    "quatlab.app.qt.keyframes_view",
    "quatlab.app.qt.track_view",
    "quatlab.app.qt.blend_view",
    "quatlab.app.qt.euler_view",
    "quatlab.app.qt.integrate_view",
    "quatlab.app.qt.s3_view",
    "quatlab.app.qt.wrap_view",
    "quatlab.app.qt.same_keys_view",
)


def _view_modules():
    # Views land one by one; a module not written yet is simply not offered.
    return [importlib.import_module(m) for m in VIEW_MODULES if importlib.util.find_spec(m)]


def view_names() -> list[str]:
    """Names accepted by ``--view``: ``main`` and each lesson view's."""
    return ["main"] + [m.VIEW_NAME for m in _view_modules()]


#: Largest session file read: a session is a few hundred bytes.
MAX_SESSION_BYTES = 1 << 20


def _one_line(exc: BaseException) -> str:
    """An error as one line for a dialog: the readers' messages as they are, others typed.

    OSError and ValueError carry the readers' own "file: problem" text; any
    other exception (a nested JSON too deep, a number too large) is a
    problem of the file too, named by its type so it can be reported.
    """
    text = " ".join(str(exc).split()) or type(exc).__name__
    if isinstance(exc, (OSError, ValueError)):
        return text
    return f"{type(exc).__name__}: {text}"


def make_app(argv: list[str] | None = None) -> QtWidgets.QApplication:
    """The QApplication, created once with the attributes QuatLab needs."""
    app = QtWidgets.QApplication.instance()
    if app is None:
        # Two GL views in one process need shared contexts (docs/environment.md);
        # the attribute only counts before the application exists.
        QtCore.QCoreApplication.setAttribute(
            QtCore.Qt.ApplicationAttribute.AA_ShareOpenGLContexts)
        app = QtWidgets.QApplication(argv if argv is not None else sys.argv[:1])
        app.setApplicationName("QuatLab")
        app.setOrganizationName("QuatLab")
    return app


class MainWindow(ScreenModes, QtWidgets.QMainWindow):
    """Editors and readouts on the left, the lesson in the middle, explanations on the right."""

    def __init__(self, state: LessonState | None = None) -> None:
        super().__init__()
        self.state = state or LessonState.from_preset(presets.DEFAULT_PRESET)
        self.setWindowTitle(_("QuatLab — quaternion interpolation"))
        self.resize(*DEFAULT_SIZE)

        # Left: the two endpoint editors and the readouts.
        left = QtWidgets.QWidget()
        ll = QtWidgets.QVBoxLayout(left)
        ll.setContentsMargins(4, 4, 4, 4)
        self.preset_box = QtWidgets.QComboBox()
        self.preset_box.setObjectName("preset_box")
        self.preset_box.setToolTip(_("Load one of the classic cases"))
        # Long preset titles must not widen the left column past the window.
        self.preset_box.setSizeAdjustPolicy(
            QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.preset_box.setMinimumContentsLength(18)
        self.preset_box.addItem(_("(edited)"), None)
        for p in presets.all_presets():
            self.preset_box.addItem(f"{p.name} — {p.shown_title}", p.name)
            self.preset_box.setItemData(self.preset_box.count() - 1, p.shown_text,
                                        QtCore.Qt.ItemDataRole.ToolTipRole)
        self.preset_box.activated.connect(self._preset_chosen)
        pl = QtWidgets.QHBoxLayout()
        pl.addWidget(QtWidgets.QLabel(_("Preset")))
        pl.addWidget(self.preset_box, 1)
        ll.addLayout(pl)
        self.editors = [EndpointEditor(self.state, 0), EndpointEditor(self.state, 1)]
        for e in self.editors:
            ll.addWidget(e)
        ll.addStretch(1)
        # Narrow enough to leave the lesson room on a 1024-px projector, and
        # as wide as its content at any zoom; View > Endpoints panel (F6)
        # hides it.
        left_scroll = SidePanel(left)
        # The readouts under the editors' scroll area, not in it: on a short
        # screen (1024x768 at 150 %) the editors scroll, the numbers a class
        # reads stay whole.
        self.readouts = Readouts(self.state)
        left_column = QtWidgets.QWidget()
        left_column.setObjectName("endpoints_panel")
        lc = QtWidgets.QVBoxLayout(left_column)
        lc.setContentsMargins(0, 0, 0, 0)
        lc.setSpacing(2)
        lc.addWidget(left_scroll, 1)
        lc.addWidget(self.readouts)

        # Middle: the views, one tab each.
        self.tabs = QtWidgets.QTabWidget()
        self.tabs.setObjectName("views")
        self.lesson = LessonView(self.state)
        self.views = {"main": self.lesson}
        titles = {"main": _("Two keys")}
        for module in _view_modules():
            widget = module.create(self)
            widget.setObjectName(module.VIEW_NAME)
            self.views[module.VIEW_NAME] = widget
            titles[module.VIEW_NAME] = _(module.TITLE)
        # Each tab scrolls when the window is smaller than the view can be
        # (a 1024x768 projector): nothing is squeezed under its minimum and
        # clipped, and no view widens the whole window.
        for name, widget in self.views.items():
            self.tabs.addTab(ViewPage(widget, name), titles[name])

        # Right: the explanation that follows the state.
        self.explanation = QtWidgets.QTextBrowser()
        self.explanation.setObjectName("explanation")
        self.explanation.setOpenExternalLinks(False)
        self.explanation.setMinimumWidth(170)
        self.explanation.document().setDefaultStyleSheet("p { margin-bottom: 6px; }")

        split = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        split.addWidget(left_column)
        split.addWidget(self.tabs)
        self.explanation_t = QtWidgets.QLabel()
        self.explanation_t.setObjectName("explanation_t")
        self.explanation_t.setWordWrap(True)
        self.explanation_t.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.explanation_t.setContentsMargins(6, 4, 6, 6)
        self.explanation_t.setStyleSheet("background: white;")
        right = QtWidgets.QWidget()
        right.setObjectName("explanation_panel")
        rl = QtWidgets.QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.setSpacing(0)
        rl.addWidget(self.explanation, 1)
        rl.addWidget(self.explanation_t)
        split.addWidget(right)
        split.setStretchFactor(0, 0)
        split.setStretchFactor(1, 1)
        split.setStretchFactor(2, 0)
        # The lesson's toolbar fits on one line at 1400 px; narrower windows
        # give the side panels' width to the lesson first (_fit_panels).
        split.setSizes([356, 824, 210])
        self._split = split
        # The tabs' bar spans the whole window, side panels included: inside
        # the middle column nine titles did not fit a 1024- or 1280-px screen
        # and hid behind scroll arrows; where the whole width is too narrow
        # too (1024 px at 150 %) it wraps onto a second row. The tab widget's
        # own bar is hidden and this one drives it.
        self.tab_bar = TabRows()
        self.tab_bar.setObjectName("view_tabs")
        for i in range(self.tabs.count()):
            self.tab_bar.addTab(self.tabs.tabText(i))
        self.tabs.tabBar().hide()
        self.tabs.currentChanged.connect(self.tab_bar.setCurrentIndex)
        self.tab_bar.currentChanged.connect(self.tabs.setCurrentIndex)
        central = QtWidgets.QWidget()
        cl = QtWidgets.QVBoxLayout(central)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.setSpacing(0)
        cl.addWidget(self.tab_bar)
        cl.addWidget(split, 1)
        self.setCentralWidget(central)
        self.status = self.statusBar()
        # The endpoint editors and the explanation belong to the two-key
        # lesson; lessons with their own models get the whole width.
        self._side_panels = (left_column, right)
        #: Per side panel, the user's choice (View menu) or None: shown by the width.
        self._panel_choice: list[bool | None] = [None, None]
        self.presenting = False
        self._before_presenting: dict = {}
        self._settings: QtCore.QSettings | None = None
        self.zoom = 1.0
        self._base_font: QtGui.QFont | None = None
        self._yielded: set[QtGui.QAction] = set()  # actions off while a tab claims their keys
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self._leave_shortcut = QtGui.QShortcut(QtGui.QKeySequence("Esc"), self)
        self._leave_shortcut.activated.connect(lambda: self.set_presenting(False))
        self._leave_shortcut.setEnabled(False)

        self._build_menus()
        self._yield_keys(self.tabs.currentIndex())
        self.setAcceptDrops(True)
        self.state.events.connect("endpoints", self._on_endpoints)
        self.state.events.connect("t", self._refresh_explanation_t)
        self._on_endpoints()

    # ------------------------------------------------------------------ menus
    def _action(self, menu, text, slot, shortcut=None, tip=None) -> QtGui.QAction:
        act = QtGui.QAction(text, self)
        if shortcut:
            act.setShortcut(QtGui.QKeySequence(shortcut))
        if tip:
            act.setStatusTip(tip)
            act.setToolTip(tip)
        act.triggered.connect(slot)
        menu.addAction(act)
        return act

    def _build_menus(self) -> None:
        bar = self.menuBar()
        f = bar.addMenu(_("&File"))
        self._action(f, _("Open keyframes…"), self.open_keyframes_dialog, "Ctrl+K",
                     _("Open a glTF, GLB, BVH, FBX, CSV or JSON keyframe file and audit its "
                       "rotations"))
        add_compare_action(self, f)
        self._action(f, _("Open session…"), self.open_session, "Ctrl+O",
                     _("Restore endpoints, t and options from a session JSON file"))
        self._action(f, _("Save session as…"), self.save_session, "Ctrl+S",
                     _("Save endpoints, t and options as JSON"))
        f.addSeparator()
        self._action(f, _("Export plots…"), self.export_plots, "Ctrl+E",
                     _("Save the plots as PNG or SVG, or their data as CSV"))
        self._action(f, _("Save screenshot…"), self.save_screenshot, "Ctrl+Shift+S",
                     _("Save a PNG of the whole window"))
        add_export_action(self, f)
        f.addSeparator()
        self._action(f, _("Quit"), self.close, "Ctrl+Q")

        e = bar.addMenu(_("&Edit"))
        keys = QtGui.QKeySequence.StandardKey
        self.undo_action = self._action(e, _("Undo edit"), self.state.undo, keys.Undo)
        self.redo_action = self._action(e, _("Redo edit"), self.state.redo, keys.Redo)
        e.addSeparator()
        # Ctrl+0 is View > Reset zoom, as in every browser a class knows.
        self._action(e, _("Negate q0"), lambda: self.state.negate(0), "Ctrl+Alt+0",
                     _("Store −q0: same rotation, other hemisphere"))
        self._action(e, _("Negate q1"), lambda: self.state.negate(1), "Ctrl+Alt+1",
                     _("Store −q1: same rotation, other hemisphere"))

        p = bar.addMenu(_("&Presets"))
        for i, pr in enumerate(presets.all_presets()):
            act = self._action(p, f"{pr.name} — {pr.shown_title}",
                               lambda _=False, n=pr.name: self.state.load_preset(n),
                               f"Alt+{i + 1}", pr.shown_text)
            act.setObjectName(f"preset_{pr.name}")

        v = bar.addMenu(_("&View"))
        self._action(v, _("Reset camera"), self.lesson.scene.reset_camera, "R")
        self._action(v, _("Chains: SLERP"), lambda: self.state.set_chain_family("slerp"), "S")
        self._action(v, _("Chains: NLERP"), lambda: self.state.set_chain_family("nlerp"), "N")
        self._action(v, _("Root joint only"), lambda: self.state.set_root_only(
            not self.state.root_only), "O")
        v.addSeparator()
        self.presentation_action = self._action(
            v, _("Presentation mode"), lambda on: self.set_presenting(on), "F5",
            _("Full screen, side panels hidden, a slower playback; Esc leaves"))
        self.presentation_action.setCheckable(True)
        self.panel_actions = [
            self._action(v, _("Endpoints panel"), lambda on: self.set_panel_shown(0, on), "F6",
                         _("Show or hide the endpoint editors and the readouts")),
            self._action(v, _("Explanation panel"), lambda on: self.set_panel_shown(1, on), "F7",
                         _("Show or hide “What you see”; hidden by itself on a narrow window, "
                           "so the 3D view and the plots get the room")),
        ]
        for act in self.panel_actions:
            act.setCheckable(True)
        self.panel_actions[1].setIconText(_("What you see"))
        self.lesson.add_toolbar_action(self.panel_actions[1])
        self.zoom_in_action = self._action(v, _("Zoom in"), lambda: self.step_zoom(1), "Ctrl+=",
                                           _("Larger text for the back row"))
        self.zoom_in_action.setShortcuts([QtGui.QKeySequence("Ctrl+="),
                                          QtGui.QKeySequence("Ctrl++")])
        self._action(v, _("Zoom out"), lambda: self.step_zoom(-1), "Ctrl+-", _("Smaller text"))
        self._action(v, _("Reset zoom"), lambda: self.set_zoom(1.0), "Ctrl+0", _("Text at 100%"))
        theme_menu.install(self, v)
        language_menu.install(self, v)

        t = bar.addMenu(_("&Playback"))
        # Every tab's scrubber answers the same keys: the one of the tab shown.
        self._action(t, _("Play / pause"), lambda: self.current_scrubber().toggle_play(), "Space")
        self._action(t, _("Step forward"), lambda: self._step(0.01), "Right")
        self._action(t, _("Step back"), lambda: self._step(-0.01), "Left")
        self._action(t, _("Big step forward"), lambda: self._step(0.1), "Shift+Right")
        self._action(t, _("Big step back"), lambda: self._step(-0.1), "Shift+Left")
        self._action(t, _("Go to the start"), lambda: self._go(0.0), "Home")
        self._action(t, _("Go to the middle"), lambda: self._go(0.5), "M")
        self._action(t, _("Go to the end"), lambda: self._go(1.0), "End")

        h = bar.addMenu(_("&Help"))
        self._action(h, _("Keyboard shortcuts"), self._show_shortcuts, "F1")
        self._action(h, _("About QuatLab"), lambda: QtWidgets.QMessageBox.about(
            self, _("About QuatLab"),
            _("QuatLab teaches quaternion rotation interpolation: naive vs shortest-arc "
              "NLERP and SLERP.\nQuaternions are (w, x, y, z), scalar first.")))

    def _show_shortcuts(self) -> None:
        lines = []
        for menu in self.menuBar().findChildren(QtWidgets.QMenu):
            for act in menu.actions():
                if not act.shortcut().isEmpty():
                    lines.append(f"{act.shortcut().toString():>14}   {act.text()}")
        QtWidgets.QMessageBox.information(self, _("Keyboard shortcuts"), "\n".join(lines))

    # ------------------------------------------------------------------ model -> window
    def _on_endpoints(self) -> None:
        self.undo_action.setEnabled(self.state.can_undo)
        self.redo_action.setEnabled(self.state.can_redo)
        idx = self.preset_box.findData(self.state.preset)
        self.preset_box.setCurrentIndex(max(idx, 0))
        self._refresh_explanation()
        self._refresh_explanation_t()

    def _refresh_explanation_t(self) -> None:
        self.explanation_t.setText(explain_at_t(self.state))

    def _refresh_explanation(self) -> None:
        self.explanation.setHtml(
            "<h3 style='margin-top:0'>" + _("What you see") + "</h3>"
            + "".join(f"<p>{p}</p>" for p in explain(self.state))
        )

    def _preset_chosen(self, index: int) -> None:
        name = self.preset_box.itemData(index)
        if name:
            self.state.load_preset(name)

    # ------------------------------------------------------------------ files
    def _ask_path(self, title: str, filters: str, default: str) -> str | None:
        path, _filter = QtWidgets.QFileDialog.getSaveFileName(self, title, default, filters)
        return path or None

    def _error(self, title: str, exc: BaseException | str) -> None:
        text = exc if isinstance(exc, str) else _one_line(exc)
        QtWidgets.QMessageBox.warning(self, title, text)
        self.status.showMessage(_("{title}: {error}").format(title=title, error=text), 8000)

    def save_session(self, path: str | None = None) -> None:
        path = path or self._ask_path(_("Save session"), _("QuatLab session") + " (*.json)",
                                      "session.quatlab.json")
        if not path:
            return
        try:
            atomic_write(path, json.dumps(self.state.to_session(), indent=2) + "\n")
        except OSError as exc:
            self._error(_("Could not save the session"), exc)
            return
        self.status.showMessage(_("Session saved to {path}").format(path=path), 5000)

    def open_session(self, path: str | None = None) -> None:
        if not path:
            path, _filter = QtWidgets.QFileDialog.getOpenFileName(
                self, _("Open session"), "", _("QuatLab session") + " (*.json)")
        if not path:
            return
        try:
            # A regular file of bounded size only: a FIFO would block the
            # window forever, a device would never end (docs/formats.md).
            data = json.loads(read_text(Path(path), limit=MAX_SESSION_BYTES))
            self.state.apply_session(data)
        except Exception as exc:  # noqa: BLE001 - any failure is the file's: say so, keep the state
            self._error(_("Could not open {file}").format(file=Path(path).name), exc)
            return
        self.status.showMessage(_("Session {path} opened").format(path=path), 5000)

    def export_plots(self, path: str | None = None) -> None:
        path = path or self._ask_path(
            _("Export plots"), _("PNG image") + " (*.png);;" + _("SVG image") + " (*.svg);;"
            + _("CSV data") + " (*.csv)", "quatlab-plots.png")
        if not path:
            return
        try:
            self.lesson.catch_up()  # the plots wait while their tab is hidden
            self.lesson.plots.export(path)
        except (OSError, ValueError) as exc:
            self._error(_("Could not export the plots"), exc)
            return
        self.status.showMessage(_("Plots exported to {path}").format(path=path), 5000)

    def grab_image(self) -> QtGui.QImage:
        """The whole window as an image, 3D views included (QWidget.grab() misses them)."""
        from quatlab.rendering.gl_view import grab_widget

        return grab_widget(self)

    def save_screenshot(self, path: str | None = None) -> None:
        path = path or self._ask_path(_("Save screenshot"), _("PNG image") + " (*.png)",
                                      "quatlab.png")
        if not path:
            return
        img = self.grab_image()
        buf = QtCore.QBuffer()
        buf.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
        img.save(buf, "PNG")
        try:
            atomic_write(path, bytes(buf.data()))
        except OSError as exc:
            self._error(_("Could not save the screenshot"), exc)
            return
        self.status.showMessage(_("Screenshot saved to {path}").format(path=path), 5000)

    # ------------------------------------------------------------------ keyframes
    def open_keyframes(self, path: str | os.PathLike, order: str | None = None) -> None:
        """Load a keyframe file into the Keyframes tab and show it.

        Raises the loader's error (it names the file and the problem); the
        previously loaded file stays.
        """
        view = self.views.get("keyframes")
        if view is None:
            raise ValueError(_("this build has no keyframes view"))
        view.open(path, order)
        self.show_view("keyframes")
        # The file's rig scene and plots are new: they take the theme and zoom in use.
        theme_menu.schedule_refresh(self)
        self.status.showMessage(_("Opened {path}").format(path=path), 5000)

    def open_keyframes_dialog(self) -> None:
        view = self.views.get("keyframes")
        loaded = getattr(getattr(view, "model", None), "file", None)
        start = str(loaded.path.parent) if loaded is not None else ""
        path, _filter = QtWidgets.QFileDialog.getOpenFileName(
            self, _("Open keyframes"), start,
            _("Keyframes") + " (*.gltf *.glb *.bvh *.fbx *.csv *.json *.usda *.usdc *.usdz *.usd);;"
            + _("All files") + " (*)")
        if path:
            self._open_keyframes_reporting(path)

    def _open_keyframes_reporting(self, path: str) -> bool:
        title = _("Could not open {file}").format(file=Path(path).name)
        try:
            self.open_keyframes(path)
        except (OSError, ValueError) as exc:  # the readers' one line: "FILE: problem"
            self._error(title, exc)
            return False
        except Exception as exc:  # noqa: BLE001 - a hostile file must not end in a traceback
            # Not a message a reader wrote: a defect of QuatLab's. Its raw text
            # ("'bool' object has no attribute ...") would tell the user nothing.
            self._error(title, _(
                "{file}: QuatLab's reader failed on this file with an unexpected "
                "{kind}. This is a defect in QuatLab; please report it together with the "
                "file").format(file=path, kind=type(exc).__name__))
            return False
        return True

    def dragEnterEvent(self, ev) -> None:  # noqa: N802 - Qt API
        if ev.mimeData().hasUrls() and any(u.isLocalFile() for u in ev.mimeData().urls()):
            ev.acceptProposedAction()

    def dropEvent(self, ev) -> None:  # noqa: N802 - Qt API
        files = [u.toLocalFile() for u in ev.mimeData().urls() if u.isLocalFile()]
        if files:
            ev.acceptProposedAction()
            # After the drop returns: a modal box inside the handler stalls the drag source.
            QtCore.QTimer.singleShot(0, lambda: self._open_keyframes_reporting(files[0]))

    def current_scrubber(self) -> Scrubber:
        """The scrubber of the tab shown (the two-key lesson's on tabs without one)."""
        view = self.current_view()
        for name in ("scrubber", "slider"):
            sc = getattr(view, name, None)
            if isinstance(sc, Scrubber):
                return sc
        return self.lesson.scrubber

    def _step(self, fraction: float) -> None:
        """Step the shown tab's parameter by a fraction of its range (at least one unit
        for whole-step parameters)."""
        sc = self.current_scrubber()
        lo, hi = sc.param.range
        delta = fraction * (hi - lo)
        if getattr(sc.param, "decimals", 3) == 0:
            delta = float(np.sign(delta) * max(1.0, round(abs(delta))))
        sc.step(delta)

    def _go(self, fraction: float) -> None:
        sc = self.current_scrubber()
        lo, hi = sc.param.range
        sc.step(lo + fraction * (hi - lo) - sc.param.get())

    #: Views that show the two-key lesson's state (the side panels edit and explain it).
    LESSON_BOUND_VIEWS = ("main", "s3")

    def _on_tab_changed(self, index: int) -> None:
        self._show_panels()
        self._fit_panels()
        self._yield_keys(index)

    def _yield_keys(self, index: int) -> None:
        """Menu shortcuts a tab claims for itself (``CLAIMED_KEYS``: the Keyframes tab's N)
        are off while it is shown: two shortcuts on one key would fire neither."""
        page = self.tabs.widget(index)
        view = page.widget() if isinstance(page, QtWidgets.QScrollArea) else page
        claimed = {QtGui.QKeySequence(k).toString()
                   for k in getattr(view, "CLAIMED_KEYS", ())}
        for act in self.findChildren(QtGui.QAction):
            keys = {k.toString() for k in act.shortcuts()}
            if keys & claimed:
                act.setEnabled(False)
                self._yielded.add(act)
            elif act in self._yielded:
                act.setEnabled(True)
                self._yielded.discard(act)

    # ------------------------------------------------------------------ presentation
    def current_view(self) -> QtWidgets.QWidget:
        """The view of the tab shown (the tab page is a scroll area around it)."""
        return self.tabs.currentWidget().widget()

    def show_view(self, name: str) -> None:
        for i in range(self.tabs.count()):
            if self.tabs.widget(i).objectName() == name:
                self.tabs.setCurrentIndex(i)
                return
        raise ValueError(_("unknown view {view!r}; choose one of: {views}").format(
            view=name, views=", ".join(view_names())))
