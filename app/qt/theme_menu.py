"""View > Theme: light, dark and high contrast for the whole window, switched at run time.

:func:`apply_theme` makes a theme (and the zoom) current and re-colours what
is on screen: the Qt widgets through a Fusion palette, the rich-text labels
and style sheets written with light colours, then every plot and 3D view
(:func:`quatlab.rendering.theme_apply.restyle`); the views of the two-key
lesson redraw so colours they derive (trail fades, label shades) follow.
:func:`add_theme_menu` adds the radio actions; the choice is remembered in
the window's settings (docs/curves.md, "Themes").
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import tempfile

from PyQt6 import QtCore, QtGui, QtWidgets, sip

from quatlab.app.i18n import _
from quatlab.rendering import themes
from quatlab.rendering.contrast import readable
from quatlab.rendering.theme_apply import light_to_theme, restyle

__all__ = ["THEME_KEY", "qt_palette", "indicator_sheet", "spin_box_sheet", "disabled_sheet",
           "ThemeStyle", "apply_theme",
           "add_theme_menu", "restore_theme", "refresh", "redraw", "schedule_refresh",
           "set_theme", "install"]

#: Settings key of the theme's name.
THEME_KEY = "view/theme"

#: Colours in rich text; style sheets also name white.
_HEX = re.compile(r"#[0-9A-Fa-f]{6}\b|#[0-9A-Fa-f]{3}\b")
_SHEET = re.compile(_HEX.pattern + r"|\bwhite\b")
_ATTR = "_quatlab_light_text"


def qt_palette(theme: themes.Theme) -> QtGui.QPalette:
    """The widgets' palette for ``theme`` (the Fusion style draws with it)."""
    if not theme.dark:
        return QtWidgets.QStyleFactory.create("Fusion").standardPalette()
    role, group = QtGui.QPalette.ColorRole, QtGui.QPalette.ColorGroup
    fg, bg = QtGui.QColor(theme.foreground), QtGui.QColor(theme.background)
    window = QtGui.QColor(theme.scene)
    button = window.lighter(125) if theme.name != "high-contrast" else QtGui.QColor("#1A1A1A")
    link = QtGui.QColor(theme.methods["shortest_nlerp"])
    pal = QtGui.QPalette()
    for r, c in ((role.Window, window), (role.WindowText, fg), (role.Base, bg),
                 (role.AlternateBase, window), (role.Text, fg), (role.Button, button),
                 (role.ButtonText, fg), (role.ToolTipBase, bg), (role.ToolTipText, fg),
                 (role.PlaceholderText, QtGui.QColor(theme.faint)), (role.Highlight, link),
                 (role.HighlightedText, QtGui.QColor("#000000")), (role.Link, link),
                 (role.BrightText, QtGui.QColor(theme.error)), (role.Light, button.lighter(150)),
                 (role.Midlight, button.lighter(120)), (role.Mid, button.darker(120)),
                 (role.Dark, button.darker(160)), (role.Shadow, QtGui.QColor("#000000"))):
        pal.setColor(r, c)
    off = QtGui.QColor(theme.disabled)
    for r in (role.WindowText, role.Text, role.ButtonText):
        pal.setColor(group.Disabled, r, off)
    # Disabled fields and buttons sit flat on the window (no raised face).
    for r in (role.Button, role.Base):
        pal.setColor(group.Disabled, r, window)
    return pal


def indicator_sheet(theme: themes.Theme) -> str:
    """Check box and radio button indicators drawn in ``theme``'s own colours ("" in light).

    Fusion outlines an indicator with a darker shade of the window colour,
    which on a black window is black: the high-contrast theme's boxes vanished.
    Here an empty box is a ring of text colour and a ticked one is filled
    and carries a tick (an image, :func:`_tick_image`); disabled ones are
    drawn in the disabled grey. Entry fields get the same ring, spin boxes
    too (:func:`spin_box_sheet`).
    """
    if not theme.dark:
        return ""
    ring = theme.foreground if theme.name == "high-contrast" else theme.faint
    fill, off, size = theme.methods["shortest_nlerp"], theme.disabled, _TICK_SIZE
    box = "QCheckBox::indicator"
    return (f"{box}, QRadioButton::indicator {{ width: {size}px; height: {size}px; "
            f"border: 2px solid {ring}; background: {theme.background}; }}"
            f"QRadioButton::indicator {{ border-radius: 8px; }}"
            f"{box}:checked, QRadioButton::indicator:checked {{ background: {fill}; }}"
            # A tick in the background colour on the fill: the state shows without the hue.
            f"{box}:checked {{ image: url({_tick_image(theme.background)}); }}"
            # Disabled: the ring and the fill in the disabled grey, the tick kept.
            f"{box}:disabled, QRadioButton::indicator:disabled {{ border-color: {off}; }}"
            f"{box}:checked:disabled, QRadioButton::indicator:checked:disabled {{ "
            f"background: {off}; }}"
            # The same outline made the entry fields read as plain text.
            f"QLineEdit {{ border: 1px solid {ring}; border-radius: 2px; padding: 0px; }}"
            + spin_box_sheet(theme, ring) + disabled_sheet(theme))


def disabled_sheet(theme: themes.Theme) -> str:
    """Disabled entry fields and spin boxes: dimmed text in a dashed frame ("" in light).

    The same frame as enabled, 1 px, so nothing moves. Combo boxes and
    buttons have no rule here (a frame in a style sheet would change their
    size hints and lose Fusion's look): :class:`ThemeStyle` draws theirs.
    """
    if not theme.dark:
        return ""
    off, spin = theme.disabled, "QAbstractSpinBox"
    return (f"QLineEdit:disabled, {spin}:disabled {{ color: {off}; "
            f"border: 1px dashed {off}; }}"
            f"{spin}::up-button:disabled, {spin}::down-button:disabled {{ "
            f"border-color: {off}; border-style: dashed; background: transparent; }}")


class ThemeStyle(QtWidgets.QProxyStyle):
    """Fusion, with disabled buttons and combo boxes drawn flat in a dashed frame in the
    dark themes (light: Fusion as it is).

    High contrast drew a disabled combo box like an enabled one: near-white
    text on the same raised face. Here a disabled one has no face, its text
    and arrow in the theme's disabled grey (the palette's) and a dashed grey
    frame, so "not now" does not rest on the text's shade alone. Painting
    only: the sizes are Fusion's, so nothing moves when a widget is enabled.
    """

    def __init__(self) -> None:
        super().__init__("Fusion")

    @staticmethod
    def _off(option) -> QtGui.QColor | None:
        """The dashed frame's colour for a disabled ``option`` in a dark theme, else None."""
        theme = themes.current()
        if not theme.dark or option.state & QtWidgets.QStyle.StateFlag.State_Enabled:
            return None
        return QtGui.QColor(theme.disabled)

    @staticmethod
    def _frame(painter: QtGui.QPainter, rect: QtCore.QRect, colour: QtGui.QColor) -> None:
        painter.save()
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, False)
        pen = QtGui.QPen(colour, 1.0, QtCore.Qt.PenStyle.CustomDashLine)
        pen.setDashPattern([3.0, 2.0])
        painter.setPen(pen)
        painter.setBrush(QtCore.Qt.BrushStyle.NoBrush)
        painter.drawRect(rect.adjusted(0, 0, -1, -1))
        painter.restore()

    def drawPrimitive(self, element, option, painter, widget=None) -> None:  # noqa: N802
        off = self._off(option) if element in _PANELS else None
        if off is None:
            super().drawPrimitive(element, option, painter, widget)
            return
        painter.fillRect(option.rect, option.palette.color(QtGui.QPalette.ColorRole.Window))
        self._frame(painter, option.rect, off)

    def drawComplexControl(self, control, option, painter, widget=None) -> None:  # noqa: N802
        off = self._off(option) if control == QtWidgets.QStyle.ComplexControl.CC_ComboBox \
            else None
        if off is None or getattr(option, "editable", False):
            super().drawComplexControl(control, option, painter, widget)
            return
        painter.fillRect(option.rect, option.palette.color(QtGui.QPalette.ColorRole.Window))
        arrow = self.subControlRect(control, option,
                                    QtWidgets.QStyle.SubControl.SC_ComboBoxArrow, widget)
        down = QtWidgets.QStyleOption(option)
        down.rect = arrow.adjusted(arrow.width() // 4, arrow.height() // 4,
                                   -(arrow.width() // 4), -(arrow.height() // 4))
        super().drawPrimitive(QtWidgets.QStyle.PrimitiveElement.PE_IndicatorArrowDown, down,
                              painter, widget)
        self._frame(painter, option.rect, off)


#: The button panels :class:`ThemeStyle` draws flat when disabled.
_PANELS = (QtWidgets.QStyle.PrimitiveElement.PE_PanelButtonCommand,
           QtWidgets.QStyle.PrimitiveElement.PE_PanelButtonBevel)

#: The application's :class:`ThemeStyle` (Qt owns it once set; this is to find it again).
_STYLE: list[ThemeStyle] = []


#: Size (px) of the spin boxes' arrow images: Fusion's own arrows are about this size.
_ARROW_SIZE = (9, 6)
#: Size (px) of the check boxes' tick image: the indicator's content box (:func:`indicator_sheet`).
_TICK_SIZE = 12
_image_dir: list[str] = []


def _sheet_image(name: str, size: tuple[int, int], draw) -> str:
    """Path of a PNG ``name`` of ``size`` painted once by ``draw(painter, w, h)``.

    Style sheets take arrows and ticks only as images (a zero-size box with
    borders draws a square, not the CSS triangle). They are drawn here at run
    time into a directory of this process, removed at exit.
    """
    if not _image_dir:
        folder = tempfile.mkdtemp(prefix="quatlab-arrows-")
        atexit.register(shutil.rmtree, folder, True)
        _image_dir.append(folder)
    path = os.path.join(_image_dir[0], name + ".png")
    if not os.path.exists(path):
        w, h = size
        img = QtGui.QImage(w, h, QtGui.QImage.Format.Format_ARGB32)
        img.fill(QtCore.Qt.GlobalColor.transparent)
        painter = QtGui.QPainter(img)
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        draw(painter, w, h)
        painter.end()
        img.save(path, "PNG")
    return path.replace(os.sep, "/")


def _arrow_image(up: bool, colour: str) -> str:
    """Path of a PNG of a filled triangle pointing up or down in ``colour``."""
    def draw(painter: QtGui.QPainter, w: int, h: int) -> None:
        painter.setPen(QtCore.Qt.PenStyle.NoPen)
        painter.setBrush(QtGui.QColor(colour))
        tip, base = (0.0, float(h)) if up else (float(h), 0.0)
        painter.drawPolygon(QtGui.QPolygonF([QtCore.QPointF(0.0, base), QtCore.QPointF(w, base),
                                             QtCore.QPointF(w / 2, tip)]))
    return _sheet_image(f"{'up' if up else 'down'}-{colour.lstrip('#')}", _ARROW_SIZE, draw)


def _tick_image(colour: str) -> str:
    """Path of a PNG of a tick mark in ``colour``, filling a check box's content box.

    A checked box told from an empty one by its fill alone is lost to a
    colour-blind reader or a washed-out projector; Fusion's light boxes have
    a tick, and so do the dark themes' with this.
    """
    def draw(painter: QtGui.QPainter, w: int, h: int) -> None:
        pen = QtGui.QPen(QtGui.QColor(colour), w / 6.0)
        pen.setCapStyle(QtCore.Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(QtCore.Qt.PenJoinStyle.RoundJoin)
        painter.setPen(pen)
        painter.drawPolyline(QtGui.QPolygonF([QtCore.QPointF(w * 0.16, h * 0.52),
                                              QtCore.QPointF(w * 0.42, h * 0.78),
                                              QtCore.QPointF(w * 0.86, h * 0.22)]))
    return _sheet_image(f"tick-{colour.lstrip('#')}", (_TICK_SIZE, _TICK_SIZE), draw)


def spin_box_sheet(theme: themes.Theme, ring: str) -> str:
    """Spin boxes with a frame and up/down arrows in ``ring`` ("" in light).

    Fusion outlines a spin box with a darker window colour, black on the
    high-contrast window; and a style-sheet border alone makes Qt draw the
    buttons without arrows. So the frame, the two buttons and their arrows
    (images, :func:`_arrow_image`) are all given here; an arrow that cannot
    step further (at the range's end) or a disabled box is drawn half-way to
    the background.
    """
    if not theme.dark:
        return ""
    off = QtGui.QColor(ring)
    bg = QtGui.QColor(theme.background)
    off = QtGui.QColor((off.red() + bg.red()) // 2, (off.green() + bg.green()) // 2,
                       (off.blue() + bg.blue()) // 2).name()
    button = qt_palette(theme).color(QtGui.QPalette.ColorRole.Button).name()
    hover = QtGui.QColor(button).lighter(160).name()
    sel = "QAbstractSpinBox"
    out = (f"{sel} {{ border: 1px solid {ring}; border-radius: 2px; padding: 0px 1px; "
           f"background: {theme.background}; }}"
           f"{sel}::up-button, {sel}::down-button {{ subcontrol-origin: padding; width: 15px; "
           f"border-left: 1px solid {ring}; background: {button}; }}"
           f"{sel}::up-button {{ subcontrol-position: top right; }}"
           f"{sel}::down-button {{ subcontrol-position: bottom right; "
           f"border-top: 1px solid {ring}; }}"
           f"{sel}::up-button:hover, {sel}::down-button:hover {{ background: {hover}; }}")
    w, h = _ARROW_SIZE
    for name, up in (("up", True), ("down", False)):
        out += (f"{sel}::{name}-arrow {{ image: url({_arrow_image(up, ring)}); "
                f"width: {w}px; height: {h}px; }}"
                f"{sel}::{name}-arrow:disabled, {sel}::{name}-arrow:off {{ "
                f"image: url({_arrow_image(up, off)}); }}")
    return out


def _restyle_text(obj, getter: str, setter: str, theme: themes.Theme, pattern=_HEX) -> None:
    """Rewrite the light colours in ``obj``'s rich text or style sheet into ``theme``'s.

    The light text is kept so a later switch starts from it; a text the view
    has set since the last switch is the new light text.
    """
    now = getattr(obj, getter)()
    store = obj.__dict__.setdefault(_ATTR, {})
    light, shown = store.get(getter, (None, None))
    if shown != now:
        light = now
    if not light or not pattern.search(light):
        store[getter] = (light, now)
        return
    new = pattern.sub(lambda m: theme.colour(m.group(0)), light)
    store[getter] = (light, new)
    if new != now:
        getattr(obj, setter)(new)


#: Item data role holding a table item's (light colour, colour set) names.
_ITEM_ROLE = QtCore.Qt.ItemDataRole.UserRole + 0x7E


def _restyle_table(table: QtWidgets.QTableWidget) -> None:
    """Cells and headers given a colour of their own (the method names in the readouts)."""
    items = [table.verticalHeaderItem(r) for r in range(table.rowCount())]
    items += [table.horizontalHeaderItem(c) for c in range(table.columnCount())]
    items += [table.item(r, c) for r in range(table.rowCount()) for c in range(table.columnCount())]
    for item in items:
        if item is None:
            continue
        brush = item.foreground()
        if brush.style() != QtCore.Qt.BrushStyle.NoBrush:
            now = brush.color().name()
            light, shown = item.data(_ITEM_ROLE) or (now, now)
            if shown != now:
                light = now
            set_item_colour(item, light)


def set_item_colour(item: QtWidgets.QTableWidgetItem, light: str) -> None:
    """Draw ``item``'s text in ``light`` (a light-palette colour) as the current theme does.

    The theme's colour, deepened to 4.5:1 on the theme's background where it
    is paler (naive SLERP's pink is 3.0:1 on white, too faint for a
    projector); the light colour is kept with the item so that a theme
    switch starts from it again, not from the deepened one.
    """
    theme = themes.current()
    themed = light_to_theme(QtGui.QColor(light)).name().upper()
    shown = QtGui.QColor(readable(themed, theme.background.upper()))
    item.setData(_ITEM_ROLE, (light, shown.name()))
    item.setForeground(QtGui.QBrush(shown))


def _restyle_widgets(root: QtWidgets.QWidget, theme: themes.Theme) -> None:
    for table in root.findChildren(QtWidgets.QTableWidget):
        _restyle_table(table)
    for w in [root, *root.findChildren(QtWidgets.QWidget)]:
        _restyle_text(w, "styleSheet", "setStyleSheet", theme, _SHEET)
        if isinstance(w, QtWidgets.QLabel) and w.textFormat() != QtCore.Qt.TextFormat.PlainText:
            _restyle_text(w, "text", "setText", theme)


def apply_theme(win, theme=None, zoom=None) -> None:
    """Make ``theme`` (a Theme or name; None keeps it) and ``zoom`` current and redraw ``win``."""
    themes.set_current(theme, zoom)
    t = themes.current()
    app = QtWidgets.QApplication.instance()
    if not _STYLE or sip.isdeleted(_STYLE[0]):
        # Once: setting a style re-polishes every widget. Qt deletes the style it
        # replaces, so a deleted one means another style was set since.
        _STYLE[:] = [ThemeStyle()]
        app.setStyle(_STYLE[0])
    app.setPalette(qt_palette(t))
    sheet = indicator_sheet(t)
    if app.styleSheet() != sheet:
        app.setStyleSheet(sheet)
    refresh(win)
    for act in getattr(win, "theme_actions", {}).values():
        act.setChecked(act.data() == t.name)


def refresh(win) -> None:
    """Redraw ``win`` in the current theme and scale (after a view changed what it shows)."""
    state = getattr(win, "state", None)
    if state is not None:
        # The lesson's views redraw from the model in the new theme, deriving their shades.
        state.events.emit("endpoints")
    redraw(win)


def redraw(win) -> None:
    """Restyle ``win``'s widgets, plots and 3D views for the current theme and scale, now."""
    win._restyled = True
    _restyle_widgets(win, themes.current())
    restyle(win)


def schedule_refresh(win) -> None:
    """Restyle ``win`` once the events of the present change have run (coalesced).

    For what views redraw with design sizes (a new curve pen after an edit, a
    tab shown for the first time); nothing to do in the light theme at 100%.
    """
    if themes.current() is themes.LIGHT and themes.scale() == 1.0 \
            and not getattr(win, "_restyled", False):
        return
    if getattr(win, "_restyle_pending", False):
        return
    win._restyle_pending = True

    def run() -> None:
        win._restyle_pending = False
        redraw(win)

    QtCore.QTimer.singleShot(0, run)


def set_theme(win, name: str) -> None:
    """View > Theme: switch and remember."""
    apply_theme(win, name)
    settings = getattr(win, "_settings", None)
    if settings is not None:
        settings.setValue(THEME_KEY, name)
    win.status.showMessage(_("Theme: {name}").format(name=_(themes.current().title)), 3000)


def restore_theme(win, settings: QtCore.QSettings | None) -> None:
    """The remembered theme, if any and known (an unknown name keeps the light theme)."""
    name = settings.value(THEME_KEY, themes.DEFAULT_THEME) if settings is not None else None
    if name in themes.THEMES and name != themes.current().name:
        apply_theme(win, name)


def install(win, view_menu: QtWidgets.QMenu) -> None:
    """The window's hook: View > Theme, and a restyle after a tab change or an edit."""
    add_theme_menu(win, view_menu)
    win.tabs.currentChanged.connect(lambda _index: schedule_refresh(win))
    win.state.events.connect("endpoints", lambda: schedule_refresh(win))


def add_theme_menu(win, view_menu: QtWidgets.QMenu) -> QtWidgets.QMenu:
    """View > Theme with one radio action per theme (``win.theme_actions``)."""
    menu = view_menu.addMenu(_("Theme"))
    group = QtGui.QActionGroup(win)
    group.setExclusive(True)
    win.theme_actions = {}
    for theme in themes.THEMES.values():
        act = QtGui.QAction(_(theme.title), win)
        act.setCheckable(True)
        act.setData(theme.name)
        act.setObjectName(f"theme_{theme.name}")
        act.setChecked(theme.name == themes.current().name)
        act.triggered.connect(lambda _on=False, n=theme.name: set_theme(win, n))
        group.addAction(act)
        menu.addAction(act)
        win.theme_actions[theme.name] = act
    return menu
