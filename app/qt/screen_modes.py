"""How the main window fits its screen: geometry, scrolling tab pages, presentation mode, zoom.

:class:`ScreenModes` is the part of :class:`~quatlab.app.qt.window.MainWindow`
that decides sizes and modes rather than content (a mixin): it opens inside
the available screen area and restores the last geometry only when it still
fits, hands the side panels' width to the lesson on narrow screens, and
switches presentation mode (F5) and the View > Zoom font scale.
"""

from __future__ import annotations

from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import _
from quatlab.app.qt import theme_menu
from quatlab.app.qt.scrubber import Scrubber
from quatlab.app.qt.whole_rows import whole_rows_end
from quatlab.rendering import themes
from quatlab.rendering.flow_layout import FlowRow

__all__ = ["ScreenModes", "ViewPage", "fitted_geometry"]

#: Size the window opens at (and screenshots default to).
DEFAULT_SIZE = (1400, 900)
#: Playback speed presentation mode starts the scrubbers at (a slower sweep).
PRESENTATION_SPEED = 0.5
#: Settings key of the window's last geometry (a QRect).
GEOMETRY_KEY = "window/geometry"
#: Settings key of the View > Zoom factor, and the factors Zoom in / out step through.
ZOOM_KEY = "view/zoom"
ZOOM_STEPS = (0.8, 0.9, 1.0, 1.15, 1.3, 1.5, 1.75, 2.0, 2.5)
#: Presentation mode draws text, lines and points this much larger again, as far as
#: the window keeps PRESENTATION_LEAST_LINES lines of text (draw_scale).
PRESENTATION_SCALE = 1.25
#: Lines of text (the drawn font's) the window keeps in presentation mode. A zoom
#: chosen for the room comes first: at 150 % a 1024x768 screen holds 37 lines, and
#: presentation mode drew 1.25 times larger again, 29 lines, where the SQUAD and
#: wrap tabs cut their plots and the Keyframes tab's were 42 px tall. It adds what
#: keeps 40 (1280x720 at 100 % holds 51: the whole 1.25, as before).
PRESENTATION_LEAST_LINES = 40
#: Window width below which the explanation panel is hidden unless the user
#: showed it (View > Explanation panel): at 1280 px it left the two-key
#: lesson's 3D view 22 % of the window.
EXPLANATION_AUTO_WIDTH = 1360


def fitted_geometry(saved, available: QtCore.QRect,
                    default: tuple[int, int] = DEFAULT_SIZE) -> QtCore.QRect:
    """Where the window opens: ``saved`` if it lies inside ``available``, else the
    default size (shrunk to the available area) centred in it.

    ``saved`` is the last geometry from the settings (a QRect, or anything
    else when there is none or it is unreadable).
    """
    if isinstance(saved, QtCore.QRect) and saved.isValid() and available.contains(saved):
        return QtCore.QRect(saved)
    size = QtCore.QSize(*default).boundedTo(available.size())
    rect = QtCore.QRect(QtCore.QPoint(0, 0), size)
    rect.moveCenter(available.center())
    return rect


class ViewPage(QtWidgets.QScrollArea):
    """A tab page: one view in a frameless scroll area.

    When the page is at least the view's minimum size (1400x900 and most
    classroom screens) it shows exactly as the bare view would; below that,
    scroll bars appear instead of the view being squeezed and clipped. The
    view is sized here rather than by ``widgetResizable``, which sizes a
    layout with wrapping rows to its preferred height, not its minimum.
    """

    def __init__(self, view: QtWidgets.QWidget, name: str) -> None:
        super().__init__()
        self.setObjectName(name)
        self.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.setWidgetResizable(False)
        self.setWidget(view)
        # The page asks for no room of its own: the scroll bars make up the rest.
        self.setMinimumSize(200, 150)
        view.installEventFilter(self)

    def needed(self, width: int) -> QtCore.QSize:
        """The least size the view can have at ``width``, its wrapped rows included."""
        view = self.widget()
        least = view.minimumSizeHint().expandedTo(view.minimumSize())
        w = max(width, least.width())
        extra = sum(max(row.heightForWidth(w) - row.minimumSize().height(), 0)
                    for row in view.findChildren(FlowRow) if row.parentWidget() is view)
        return QtCore.QSize(w, least.height() + extra)

    def _fit(self) -> None:
        # The viewport is what the scroll bars shown leave.
        port = self.viewport().size()
        self.widget().resize(self.needed(port.width()).expandedTo(port))

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(ev)
        self._fit()

    def viewportEvent(self, ev) -> bool:  # noqa: N802 - Qt API
        if ev.type() == QtCore.QEvent.Type.Resize:
            self._fit()
        return super().viewportEvent(ev)

    def eventFilter(self, obj, ev) -> bool:  # noqa: N802 - Qt API
        if obj is self.widget() and ev.type() == QtCore.QEvent.Type.LayoutRequest:
            QtCore.QTimer.singleShot(0, self._fit)
        return False


class SidePanel(QtWidgets.QScrollArea):
    """A side panel that scrolls up and down and is never narrower than its content.

    Its content (the endpoint editors and the readouts) only scrolls
    vertically: a minimum width taken once, at 100 %, cut off the editors'
    "−q" column at 130 % on a 1024-px screen. The minimum follows the
    content's whenever its layout changes (a zoom, a language, a theme).
    """

    #: The controls a row is made of: the panel's edge never cuts one of them.
    ROW_WIDGETS = (QtWidgets.QAbstractButton, QtWidgets.QComboBox, QtWidgets.QAbstractSpinBox,
                   QtWidgets.QLineEdit, QtWidgets.QLabel)

    def __init__(self, content: QtWidgets.QWidget) -> None:
        super().__init__()
        self.setWidget(content)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        content.installEventFilter(self)
        self._follow()

    def _whole_rows(self) -> None:
        """End the visible part under a whole row of controls, the few pixels short of
        the next left blank: at 1024x768 and 150 % q1's "w x y z" fields were cut
        in half at the panel's edge, which read as a broken layout. (Scrolled,
        a row can still be cut at the top: the margin only trims the end.)"""
        content = self.widget()
        room = self.height() - 2 * self.frameWidth()
        cut = 0
        if content is not None and content.height() > room > 0:
            spans = []
            for w in content.findChildren(QtWidgets.QWidget):
                if isinstance(w, self.ROW_WIDGETS) and w.isVisibleTo(content) \
                        and not isinstance(w.parentWidget(), (QtWidgets.QAbstractSpinBox,
                                                               QtWidgets.QComboBox)):
                    top = w.mapTo(content, QtCore.QPoint(0, 0)).y()
                    spans.append((top, top + w.height()))
            # The lowest edge at or above the room's end that cuts no control.
            cut = room - whole_rows_end(spans, room)
        if cut != self.viewportMargins().bottom():
            self.setViewportMargins(0, 0, 0, cut)

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(ev)
        QtCore.QTimer.singleShot(0, self._whole_rows)

    def _follow(self) -> None:
        content = self.widget()
        if content is None:
            return
        least = (content.minimumSizeHint().width() + self.verticalScrollBar().sizeHint().width()
                 + 2 * self.frameWidth())
        if least != self.minimumWidth():
            self.setMinimumWidth(least)

    def eventFilter(self, obj, ev) -> bool:  # noqa: N802 - Qt API
        if obj is self.widget() and ev.type() in (QtCore.QEvent.Type.LayoutRequest,
                                                  QtCore.QEvent.Type.Resize):
            QtCore.QTimer.singleShot(0, self._follow)
            QtCore.QTimer.singleShot(0, self._whole_rows)
        return False


def _unzoomed_font(app: QtWidgets.QApplication) -> QtGui.QFont:
    """The application's font before any window zoomed it (taken the first time)."""
    font = app.property("quatlab_unzoomed_font")
    if not isinstance(font, QtGui.QFont):
        font = QtGui.QFont(app.font())
        app.setProperty("quatlab_unzoomed_font", font)
    return QtGui.QFont(font)


class ScreenModes:
    """Window sizing and modes for :class:`~quatlab.app.qt.window.MainWindow` (a mixin)."""

    def scrubbers(self) -> list[Scrubber]:
        """Every tab's playback scrubber."""
        return [s for s in self.findChildren(Scrubber) if s.speed.isVisibleTo(s)]

    def set_presenting(self, on: bool, *, full_screen: bool = True) -> None:
        """Presentation mode: full screen, the side panels and the status bar hidden so
        the 3D view and the plots get the room, and playback at PRESENTATION_SPEED.

        Leaving restores the window state and the speeds it found. Without
        ``full_screen`` the window keeps its size (``quatlab screenshot
        --present`` renders the mode at ``--size``).
        """
        on = bool(on)
        self.presentation_action.setChecked(on)
        if on == self.presenting:
            return
        self.presenting = on
        self._leave_shortcut.setEnabled(on)
        if on:
            self._before_presenting = {
                "state": self.windowState(),
                "speeds": {s: s.speed.value() for s in self.scrubbers()},
            }
            for s in self._before_presenting["speeds"]:
                s.speed.setValue(PRESENTATION_SPEED)
            self.status.hide()
            if full_screen:
                self.showFullScreen()
        else:
            for s, speed in self._before_presenting.get("speeds", {}).items():
                s.speed.setValue(speed)
            self.status.show()
            self.setWindowState(self._before_presenting.get(
                "state", QtCore.Qt.WindowState.WindowNoState))
        self._apply_scale()
        self._on_tab_changed(self.tabs.currentIndex())

    # ------------------------------------------------------------------ side panels
    def set_panel_shown(self, index: int, shown: bool) -> None:
        """Show or hide side panel ``index`` (0 the endpoints, 1 the explanation) on the
        tabs that have them; the choice holds at any window width until changed."""
        self._panel_choice[index] = bool(shown)
        self._show_panels()
        self._fit_panels()

    def panel_wanted(self, index: int) -> bool:
        """Whether side panel ``index`` is to be shown on the two-key tabs now.

        The user's choice if any; else the endpoints always, and the
        explanation from :data:`EXPLANATION_AUTO_WIDTH` up.
        """
        choice = self._panel_choice[index]
        if choice is not None:
            return choice
        return index == 0 or self.width() >= EXPLANATION_AUTO_WIDTH

    def _show_panels(self) -> None:
        if not hasattr(self, "panel_actions"):
            return  # still being built
        bound = self.current_view().objectName() in self.LESSON_BOUND_VIEWS
        for k, panel in enumerate(self._side_panels):
            wanted = self.panel_wanted(k)
            panel.setVisible(bound and not self.presenting and wanted)
            action = self.panel_actions[k]
            if action.isChecked() != wanted:
                action.blockSignals(True)
                action.setChecked(wanted)
                action.blockSignals(False)

    # ------------------------------------------------------------------ zoom
    def set_zoom(self, factor: float) -> None:
        """Scale text, line widths, point sizes and gizmos by ``factor`` (1 = as designed):
        the application font, the plots and the 3D views together. Remembered in
        the settings given to :meth:`place_on_screen`."""
        factor = min(max(float(factor), ZOOM_STEPS[0]), ZOOM_STEPS[-1])
        self.zoom = factor
        self._apply_scale()
        self.status.showMessage(_("Zoom {percent}").format(percent=f"{factor:.0%}"), 3000)
        if self._settings is not None:
            self._settings.setValue(ZOOM_KEY, factor)

    def draw_scale(self) -> float:
        """What everything is drawn larger by: the zoom, and more in presentation mode."""
        return self.zoom * (self._presentation_factor() if self.presenting else 1.0)

    def _presentation_factor(self) -> float:
        """What presentation mode adds to the zoom: PRESENTATION_SCALE, or less, down to
        none, where the window would hold fewer than PRESENTATION_LEAST_LINES lines."""
        app = QtWidgets.QApplication.instance()
        line = QtGui.QFontMetricsF(_unzoomed_font(app)).height() * self.zoom
        room = self.height() / (PRESENTATION_LEAST_LINES * line) if line > 0 else 1.0
        return min(max(room, 1.0), PRESENTATION_SCALE)

    def _apply_scale(self) -> None:
        app = QtWidgets.QApplication.instance()
        if self._base_font is None:
            self._base_font = _unzoomed_font(app)
        scale = self.draw_scale()
        font = QtGui.QFont(self._base_font)
        font.setPointSizeF(self._base_font.pointSizeF() * scale)
        before = app.font().pointSizeF()
        widgets = self.findChildren(QtWidgets.QWidget)
        sizes = [w.font().pointSizeF() for w in widgets]
        app.setFont(font)
        # Widgets polished under a style sheet (the dark themes' one, a label's
        # own) keep their font when the application's changes: in high contrast
        # zoom left them at 9 pt. Those are scaled here, in their own font.
        # (Setting the style sheet again re-polishes them too, in 650 ms.)
        ratio = font.pointSizeF() / before if before > 0 else 1.0
        if abs(ratio - 1.0) > 1e-9:
            for w, size in zip(widgets, sizes, strict=True):
                if size > 0 and abs(w.font().pointSizeF() - size) < 1e-6:
                    own = QtGui.QFont(w.font())
                    own.setPointSizeF(size * ratio)
                    w.setFont(own)
        if scale != themes.scale() or getattr(self, "_restyled", False):
            themes.set_current(zoom=scale)
            theme_menu.redraw(self)

    def step_zoom(self, direction: int) -> None:
        """One step of ZOOM_STEPS up (``direction`` > 0) or down from the present zoom."""
        if direction > 0:
            bigger = [z for z in ZOOM_STEPS if z > self.zoom + 1e-9]
            self.set_zoom(bigger[0] if bigger else ZOOM_STEPS[-1])
        else:
            smaller = [z for z in ZOOM_STEPS if z < self.zoom - 1e-9]
            self.set_zoom(smaller[-1] if smaller else ZOOM_STEPS[0])

    # ------------------------------------------------------------------ geometry
    def place_on_screen(self, settings: QtCore.QSettings | None = None) -> None:
        """Open inside the screen's available area, at the last geometry when it fits.

        With ``settings`` the geometry is also saved there when the window closes.
        """
        self._settings = settings
        screen = self.screen() or QtGui.QGuiApplication.primaryScreen()
        saved = settings.value(GEOMETRY_KEY) if settings is not None else None
        self.setGeometry(fitted_geometry(saved, screen.availableGeometry()))
        theme_menu.restore_theme(self, settings)
        try:
            zoom = float(settings.value(ZOOM_KEY, 1.0)) if settings is not None else 1.0
        except (TypeError, ValueError):
            zoom = 1.0  # an unreadable setting: the default
        if zoom != 1.0:
            self.set_zoom(zoom)

    def closeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        if self._settings is not None and not self.presenting:
            self._settings.setValue(GEOMETRY_KEY, self.geometry())
        if self.presenting:
            self.set_presenting(False)
        if self._base_font is not None:
            # The zoomed font is the application's: a closed window gives it back
            # (the zoom itself stays in the settings).
            QtWidgets.QApplication.instance().setFont(self._base_font)
        super().closeEvent(ev)

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(ev)
        if self.presenting and abs(self.draw_scale() - themes.scale()) > 1e-6:
            # Full screen comes after the mode is set, and a screen's height sets
            # how much larger presentation mode draws (draw_scale).
            self._apply_scale()
        self._show_panels()
        self._fit_panels()
        # Once more after the splitter has laid out at the new size.
        QtCore.QTimer.singleShot(0, self._fit_panels)

    def _fit_panels(self) -> None:
        """Narrow the side panels (down to their minimums) until the lesson gets its width.

        The splitter keeps the side panels' widths as the window shrinks; on a
        1024-px projector that would leave the lesson scrolling sideways while
        the panels keep room they can spare.
        """
        sizes = self._split.sizes()
        if len(sizes) != 3 or not any(p.isVisibleTo(self) for p in self._side_panels):
            return
        view = self.tabs.currentWidget().widget()
        # At least its minimum, and the share of the width it has at 1400 px.
        want = max(view.minimumSizeHint().width(), int(0.56 * self.width()))
        short = want - sizes[1]
        if short <= 0:
            return
        for k, panel in ((0, self._side_panels[0]), (2, self._side_panels[1])):
            if not panel.isVisibleTo(self):
                continue
            least = max(panel.minimumWidth(), panel.minimumSizeHint().width())
            give = min(short, max(sizes[k] - least, 0))
            sizes[k] -= give
            sizes[1] += give
            short -= give
        self._split.setSizes(sizes)
