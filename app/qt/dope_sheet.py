"""The Keyframes tab's dope sheet: every animated joint of the file along time, every finding on it.

A tree of rows (:class:`~quatlab.app.model.dope_sheet.DopeSheet`: an
animation's group row, its joints by the rig's hierarchy, collapsible) with
three columns: the joint, how many findings it has (the summary column, a
swatch of the most important family before the count), and its lane: the
whole file's time across (the header is the time axis), the track's keys as
short ticks, each finding as a mark in its family's colour (a bar over a
segment, a diamond on a key; the Euler families in a lower lane of their own
when a file has both kinds), the playback time as a line. A group row, and a
joint row collapsed over its children, shows the marks of the rows under it.

Above it: a filter (joint or animation names), "findings only" (on
when the file has any: the few flagged joints of 147 in view at once), the
previous / next finding buttons and where the walk is. Clicking a mark emits
:attr:`DopeSheetView.findingChosen`; clicking elsewhere in a lane selects the
joint and the time there. Colours come from the theme
(:attr:`~quatlab.rendering.themes.Theme.findings`), read when painting, so a
theme switch repaints in the new colours.
"""

from __future__ import annotations

import math

from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import _, ngettext
from quatlab.app.model.dope_sheet import DopeSheet, Mark
from quatlab.app.model.finding_families import EULER_FAMILIES, primary
from quatlab.app.model.keyframes_model import describe_kinds, kind_name
from quatlab.app.qt.whole_rows import WholeRowsTree
from quatlab.rendering import themes

__all__ = ["DopeSheetView", "labelled_ticks", "mix", "row_shades", "time_ticks"]

#: The model's columns.
NAME, COUNT, LANE = range(3)
#: Item data roles: the sheet row of an item, and whether it is shown only as context.
ROW_ROLE = QtCore.Qt.ItemDataRole.UserRole + 1
CONTEXT_ROLE = QtCore.Qt.ItemDataRole.UserRole + 2
#: Pixels kept free at both ends of a lane, so marks at the first and last key show whole.
LANE_PAD = 6
#: Least width of a segment's mark, and a click's reach around a mark, in pixels.
MIN_MARK_PX = 3
CLICK_SLOP_PX = 5
#: Key ticks are drawn while keys are at least this many pixels apart.
TICK_SPACING_PX = 3
#: Height (px) of the playhead's triangle under the header's time labels.
PLAYHEAD_PX = 6
#: The most of the view's width the joint names take (the lanes keep the rest but the count).
NAME_SHARE = 0.5
#: Files with more tracks than this get the filter row (a few rows need no filtering,
#: and a small window zoomed in needs the height).
FILTER_FROM_TRACKS = 12


def mix(a: str, b: str, f: float) -> QtGui.QColor:
    """Colour ``a`` moved a fraction ``f`` towards ``b``."""
    ca, cb = QtGui.QColor(a), QtGui.QColor(b)
    return QtGui.QColor.fromRgbF(*(x + f * (y - x) for x, y in (
        (ca.redF(), cb.redF()), (ca.greenF(), cb.greenF()), (ca.blueF(), cb.blueF()))))


def row_shades(theme: themes.Theme) -> dict[str, QtGui.QColor]:
    """The lane backgrounds of ``theme``: plain, every other row, and the selected row.

    The marks keep 3:1 on all three (tests/test_dope_sheet_theme.py); the
    selected row is a tint of the text colour, not the palette's highlight,
    on which a coloured mark could vanish.
    """
    return {"plain": QtGui.QColor(theme.background),
            "alternate": mix(theme.background, theme.foreground, 0.05),
            "selected": mix(theme.background, theme.foreground, 0.12)}


def time_ticks(start: float, end: float, width_px: float, spacing_px: float) -> list[float]:
    """Round times between ``start`` and ``end`` at least ``spacing_px`` apart on ``width_px``.

    >>> time_ticks(0.0, 3.3, 600, 60)
    [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0]
    """
    span = end - start
    if not (span > 0 and width_px > 0):
        return []
    least = span * spacing_px / width_px
    step = 10.0 ** math.floor(math.log10(least))
    step *= next(m for m in (1, 2, 5, 10) if m * step >= least)
    first = math.ceil(start / step - 1e-9)
    return [round((first + i) * step, 10)
            for i in range(int((end - first * step) / step + 1e-9) + 1)]


def labelled_ticks(start: float, end: float, width_px: float, advance, gap: float = 12.0
                   ) -> list[tuple[float, str]]:
    """``(t, text)`` of the header's time labels: as dense as their own widths allow.

    ``advance(text)`` is the text's width in pixels. The first label says the
    unit ("0 s"); the others are bare numbers. Spaced for "00.00 s" each, a
    3.3-s clip in a 130-px lane (1024x768 at 150 %) showed "0 s" alone.
    Adjacent labels, centred on their ticks (the first from the lane's left
    edge), keep ``gap`` pixels between them.
    """
    spacing = advance("0") + gap
    ticks: list[float] = []
    for _round in range(8):
        ticks = time_ticks(start, end, width_px, spacing)
        texts = [(_("{t} s") if n == 0 else "{t}").format(t=f"{t:g}") for n, t in enumerate(ticks)]
        widths = [advance(text) for text in texts]
        pairs = [(a + b) / 2 + gap for a, b in zip(widths[1:-1], widths[2:], strict=True)]
        if len(widths) > 1:
            pairs.append(widths[0] + widths[1] / 2 + gap)
        need = max(pairs, default=0.0)
        if need <= spacing:
            return list(zip(ticks, texts, strict=True))
        spacing = need
    return list(zip(ticks, texts, strict=True))


class _Axis:
    """Time to x in a lane (or the header's section) ``[left, left + width)``."""

    def __init__(self, start: float, end: float) -> None:
        self.start, self.end = start, end

    def x(self, t: float, left: float, width: float) -> float:
        inner = max(width - 2 * LANE_PAD, 1.0)
        return left + LANE_PAD + (t - self.start) / (self.end - self.start) * inner

    def time(self, x: float, left: float, width: float) -> float:
        inner = max(width - 2 * LANE_PAD, 1.0)
        return self.start + (x - left - LANE_PAD) / inner * (self.end - self.start)

    def seconds_per_px(self, width: float) -> float:
        return (self.end - self.start) / max(width - 2 * LANE_PAD, 1.0)


def _tick_height(lane_height: float) -> float:
    """Height (px) of the key ticks along a lane's bottom."""
    return max(lane_height * 0.3, 3)


def _mark_shape(mark: Mark, axis: _Axis, lane: QtCore.QRectF, two_lanes: bool) -> QtCore.QRectF:
    """Where ``mark`` is drawn in a lane cell ``lane`` (its bounding box).

    Above the key ticks, a pixel clear of them: a sign flip's bar between two
    keys 6 px apart (1024x768 at 150 %) covered the very keys it marks, whose
    ticks stand on its edges, and no tick colour reads on every finding's.
    """
    top = lane.top() + 2
    height = lane.height() - _tick_height(lane.height()) - 3  # a pixel over the ticks
    if two_lanes:
        height = height / 2
        if mark.family in EULER_FAMILIES:
            top += height
    if mark.key_mark:
        x = axis.x(mark.t0, lane.left(), lane.width())
        half = max(min(height / 2, 5.0), 2.0)
        return QtCore.QRectF(x - half, top + height / 2 - half, 2 * half, 2 * half)
    x0 = axis.x(mark.t0, lane.left(), lane.width())
    x1 = axis.x(mark.t1, lane.left(), lane.width())
    if x1 - x0 < MIN_MARK_PX:
        mid = 0.5 * (x0 + x1)
        x0, x1 = mid - MIN_MARK_PX / 2, mid + MIN_MARK_PX / 2
    return QtCore.QRectF(x0, top, x1 - x0, height)


def _tip(sheet: DopeSheet, k: int) -> str:
    """A mark in one line: its kind, times, keys and track."""
    m = sheet.marks[k]
    track = sheet.tracks[m.track]
    keys = "–".join(map(str, m.keys))
    times = "–".join(f"{t:.3f}" for t in sorted({m.t0, m.t1}) if math.isfinite(t)) or "—"
    head = _("{kind} at {times} s (keys {keys}) — {track}").format(
        kind=kind_name(m.kind), times=times, keys=keys, track=track.label)
    return head


class _TimeHeader(QtWidgets.QHeaderView):
    """The header: column titles, and the time axis over the lanes.

    From the bottom up: the playhead's triangle (:data:`PLAYHEAD_PX` high, the
    tick marks inside it), then the time labels in a band of their own, so
    the playhead never covers a label ("0 s" at the start, where it rests).
    """

    def __init__(self, sheet_view: DopeSheetView) -> None:
        super().__init__(QtCore.Qt.Orientation.Horizontal)
        self._owner = sheet_view

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt API
        # The style's height fits one line of text; the playhead's band comes below it.
        hint = super().sizeHint()
        line = self.fontMetrics().height()
        hint.setHeight(max(hint.height(), line + 2) + PLAYHEAD_PX + 1)
        return hint

    @staticmethod
    def playhead(rect: QtCore.QRect | QtCore.QRectF, x: float) -> QtGui.QPolygonF:
        """The playhead's triangle at ``x`` in the lane's header section ``rect``."""
        half, tip = PLAYHEAD_PX - 1, float(rect.bottom())
        return QtGui.QPolygonF([QtCore.QPointF(x - half, tip - PLAYHEAD_PX),
                                QtCore.QPointF(x + half, tip - PLAYHEAD_PX),
                                QtCore.QPointF(x, tip)])

    def paintSection(self, painter, rect, logical) -> None:  # noqa: N802 - Qt API
        super().paintSection(painter, rect, logical)
        sheet = self._owner.sheet
        if logical != LANE or sheet is None or rect.width() <= 2 * LANE_PAD:
            return
        painter.save()
        theme = themes.current()
        axis = self._owner.axis
        metrics = painter.fontMetrics()
        pen = QtGui.QPen(QtGui.QColor(theme.foreground))
        painter.setPen(pen)
        for t, text in labelled_ticks(sheet.start, sheet.end, rect.width() - 2 * LANE_PAD,
                                      metrics.horizontalAdvance):
            x = axis.x(t, rect.left(), rect.width())
            painter.drawLine(QtCore.QLineF(x, rect.bottom() - 4, x, rect.bottom()))
            w = metrics.horizontalAdvance(text)
            left = min(max(x - w / 2, rect.left() + 1), rect.right() - w - 1)
            # Clipped to the band above the playhead's (drawText clips to its rect).
            painter.drawText(QtCore.QRectF(left, rect.top(), w + 1,
                                           rect.height() - PLAYHEAD_PX - 1),
                             QtCore.Qt.AlignmentFlag.AlignVCenter, text)
        cursor = self._owner.cursor_time
        if cursor is not None and math.isfinite(cursor):
            x = axis.x(cursor, rect.left(), rect.width())
            painter.setBrush(QtGui.QColor(theme.cursor))
            painter.setPen(QtCore.Qt.PenStyle.NoPen)
            painter.drawPolygon(self.playhead(rect, x))
        painter.restore()


class _Delegate(QtWidgets.QStyledItemDelegate):
    """Paints the summary and lane columns; the names are the style's own."""

    def __init__(self, sheet_view: DopeSheetView) -> None:
        super().__init__(sheet_view)
        self._owner = sheet_view

    def initStyleOption(self, option, index) -> None:  # noqa: N802 - Qt API
        super().initStyleOption(option, index)
        if index.column() == NAME and index.data(CONTEXT_ROLE):
            # A joint shown for its place in the hierarchy only.
            option.font.setItalic(True)
            option.palette.setColor(QtGui.QPalette.ColorRole.Text,
                                    QtGui.QColor(themes.current().muted))

    def paint(self, painter, option, index) -> None:
        col = index.column()
        if col == NAME:
            super().paint(painter, option, index)
            return
        owner = self._owner
        sheet = owner.sheet
        r = index.data(ROW_ROLE)
        if sheet is None or r is None:
            return
        theme = themes.current()
        shades = row_shades(theme)
        row = sheet.rows[r]
        selected = row.track is not None and row.track == owner.selected_track
        shade = ("selected" if selected else
                 "alternate" if owner.visual_row(index) % 2 else "plain")
        painter.save()
        rect = QtCore.QRectF(option.rect)
        painter.fillRect(rect, shades[shade])
        if col == COUNT:
            self._paint_count(painter, rect, sheet, r, theme)
        else:
            self._paint_lane(painter, rect, sheet, r, index, theme)
        painter.restore()

    def _paint_count(self, painter, rect, sheet: DopeSheet, r: int, theme) -> None:
        marks = self._owner.drawn_marks(r)
        if not marks:
            return
        family = primary(sheet.marks[k].kind for k in marks)
        metrics = painter.fontMetrics()
        text = str(len(marks))
        w = metrics.horizontalAdvance(text)
        side = min(rect.height() - 8, 10)
        x = rect.right() - 6 - w
        painter.setPen(QtGui.QColor(theme.foreground))
        painter.drawText(QtCore.QRectF(x, rect.top(), w + 2, rect.height()),
                         QtCore.Qt.AlignmentFlag.AlignVCenter, text)
        swatch = QtCore.QRectF(x - 4 - side, rect.center().y() - side / 2, side, side)
        painter.fillRect(swatch, QtGui.QColor(theme.findings[family]))

    def _paint_lane(self, painter, rect, sheet: DopeSheet, r: int, index, theme) -> None:
        owner = self._owner
        axis = owner.axis
        row = sheet.rows[r]
        painter.setClipRect(rect)
        # Crisp: a key tick is one pixel column, a bar's edges whole pixels (the
        # diamonds alone are smoothed).
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, False)
        left, width = rect.left(), rect.width()
        keys = row.key_times
        ticks = len(keys) and (len(keys) < 2 or (keys[-1] - keys[0]) / axis.seconds_per_px(width)
                               >= TICK_SPACING_PX * (len(keys) - 1))
        if math.isfinite(row.start):
            # The clip's span along the bottom: a faint line under the key ticks, or,
            # when the keys are too dense to tick apart, a band in the ticks' colour.
            x0, x1 = axis.x(row.start, left, width), axis.x(row.end, left, width)
            y = rect.bottom() - 1.5
            if ticks or row.track is None:
                painter.setPen(QtGui.QPen(mix(theme.background, theme.foreground, 0.3), 1))
                painter.drawLine(QtCore.QLineF(x0, y, x1, y))
            else:
                painter.fillRect(QtCore.QRectF(x0, rect.bottom() - 3, max(x1 - x0, 1), 3),
                                 QtGui.QColor(theme.muted))
        if ticks:
            painter.setPen(QtGui.QPen(QtGui.QColor(theme.muted), 1))
            h = _tick_height(rect.height())
            lines = [QtCore.QLineF(x, rect.bottom() - h, x, rect.bottom() - 1)
                     for x in (round(axis.x(float(t), left, width)) for t in keys)]
            painter.drawLines(lines)
        current = owner.current_mark
        for k in owner.drawn_marks(r):
            m = sheet.marks[k]
            if not math.isfinite(m.t0):
                continue
            shape = _mark_shape(m, axis, rect, sheet.two_lanes)
            colour = QtGui.QColor(theme.findings[m.family])
            painter.setPen(QtCore.Qt.PenStyle.NoPen)
            painter.setBrush(colour)
            if m.key_mark:
                c = shape.center()
                half = shape.width() / 2
                painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, True)
                painter.drawPolygon(QtGui.QPolygonF([
                    QtCore.QPointF(c.x(), c.y() - half), QtCore.QPointF(c.x() + half, c.y()),
                    QtCore.QPointF(c.x(), c.y() + half), QtCore.QPointF(c.x() - half, c.y())]))
                painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, False)
            else:
                painter.fillRect(shape.toAlignedRect(), colour)
            if k == current:
                painter.setBrush(QtCore.Qt.BrushStyle.NoBrush)
                painter.setPen(QtGui.QPen(QtGui.QColor(theme.foreground), 2))
                painter.drawRect(shape.adjusted(-2.5, -1.5, 2.5, 1.5))
        cursor, group = owner.cursor_time, owner.cursor_group
        if cursor is not None and math.isfinite(cursor) and group == row.group:
            x = axis.x(cursor, left, width)
            painter.setPen(QtGui.QPen(QtGui.QColor(theme.cursor), 1))
            painter.drawLine(QtCore.QLineF(x, rect.top(), x, rect.bottom()))

    def helpEvent(self, event, view, option, index) -> bool:  # noqa: N802 - Qt API
        if index.column() == LANE and event.type() == QtCore.QEvent.Type.ToolTip:
            k = self._owner.mark_at_point(index, event.pos())
            if k is not None:
                QtWidgets.QToolTip.showText(event.globalPos(), self._owner.mark_tip(k), view)
                return True
        return super().helpEvent(event, view, option, index)


class _Tree(WholeRowsTree, QtWidgets.QTreeView):
    """The rows; a click on a mark chooses the finding instead of only the row.

    The rows end whole at the bottom edge (:class:`~quatlab.app.qt.whole_rows.WholeRowsTree`):
    a joint cut in half there ("Upp…m.R" at 1024x768 and 150 %) read as a fault.
    """

    def __init__(self, owner: DopeSheetView) -> None:
        super().__init__()
        self._owner = owner

    def drawRow(self, painter, option, index) -> None:  # noqa: N802 - Qt API
        # The row's shade under all of it (branches and names too), as its lane has.
        owner = self._owner
        shade = "alternate" if owner.visual_row(index) % 2 else "plain"
        painter.fillRect(QtCore.QRect(0, option.rect.y(), self.viewport().width(),
                                      option.rect.height()),
                         row_shades(themes.current())[shade])
        super().drawRow(painter, option, index)

    def mousePressEvent(self, ev) -> None:  # noqa: N802 - Qt API
        index = self.indexAt(ev.position().toPoint())
        if (ev.button() == QtCore.Qt.MouseButton.LeftButton and index.isValid()
                and index.column() == LANE):
            if self._owner.lane_clicked(index, ev.position().toPoint()):
                ev.accept()
                return
        super().mousePressEvent(ev)


class DopeSheetView(QtWidgets.QWidget):
    """The dope sheet with its filter bar (module docs).

    Signals: :attr:`findingChosen` (a mark index of :attr:`sheet`),
    :attr:`trackChosen` (a track index), :attr:`timeChosen` (a track and a time in it),
    :attr:`stepRequested` (+1 next finding, -1 previous), :attr:`rowsChanged`.
    """

    findingChosen = QtCore.pyqtSignal(int)
    trackChosen = QtCore.pyqtSignal(int)
    timeChosen = QtCore.pyqtSignal(int, float)
    stepRequested = QtCore.pyqtSignal(int)
    #: The number of rows on screen changed (another file, the filter, a row collapsed).
    rowsChanged = QtCore.pyqtSignal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("dope_sheet")
        self.sheet: DopeSheet | None = None
        self.axis = _Axis(0.0, 1.0)
        self.selected_track: int | None = None
        self.current_mark: int | None = None
        self.cursor_time: float | None = None
        self.cursor_group: int | None = None
        self._shown: list[tuple[int, bool]] = []
        self._items: dict[int, QtGui.QStandardItem] = {}  # sheet row -> its name item
        self._visual: dict[int, int] = {}  # sheet row -> row number on screen (shading)
        self._collapsed: set[int] = set()
        self._syncing = False
        self._fitting = False
        self._user_sized = False

        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        self.filter_row = QtWidgets.QWidget()
        bar = QtWidgets.QHBoxLayout(self.filter_row)
        bar.setContentsMargins(0, 0, 0, 0)
        bar.setSpacing(6)
        self.filter_box = QtWidgets.QLineEdit()
        self.filter_box.setObjectName("dope_filter")
        self.filter_box.setPlaceholderText(_("Filter joints…"))
        self.filter_box.setToolTip(_("Show the joints (or animations) whose name contains "
                                     "this text"))
        self.filter_box.setClearButtonEnabled(True)
        self.filter_box.textChanged.connect(lambda _text: self._refill())
        bar.addWidget(self.filter_box, 1)
        self.only_box = QtWidgets.QCheckBox(_("findings only"))
        self.only_box.setObjectName("dope_only_findings")
        self.only_box.setToolTip(_("Hide the joints without findings (those above a flagged "
                                   "joint stay, in grey italics, to show where it hangs)"))
        self.only_box.toggled.connect(lambda _on: self._refill())
        bar.addWidget(self.only_box)
        self.previous_button = QtWidgets.QToolButton()
        self.previous_button.setObjectName("dope_previous")
        # Arrows only, beside the tabs (a narrow window zoomed in has no room for
        # words there); the tooltips and the accessible names say them.
        self.previous_button.setText("◀")
        self.previous_button.setAccessibleName(_("Previous finding"))
        self.previous_button.setToolTip(_("Go to the previous finding in the file (Shift+N)"))
        self.previous_button.clicked.connect(lambda: self.stepRequested.emit(-1))
        self.next_button = QtWidgets.QToolButton()
        self.next_button.setObjectName("dope_next")
        self.next_button.setText("▶")
        self.next_button.setAccessibleName(_("Next finding"))
        self.next_button.setToolTip(_("Go to the next finding in the file (N): animation by "
                                      "animation, in time order across all joints"))
        self.next_button.clicked.connect(lambda: self.stepRequested.emit(1))
        self.position_label = QtWidgets.QLabel()
        self.position_label.setObjectName("dope_position")
        #: The walk's controls, for a toolbar of the caller's (a tab bar's corner).
        self.walk_bar = QtWidgets.QWidget()
        walk = QtWidgets.QHBoxLayout(self.walk_bar)
        walk.setContentsMargins(0, 0, 0, 0)
        walk.setSpacing(4)
        walk.addWidget(self.position_label)
        walk.addWidget(self.previous_button)
        walk.addWidget(self.next_button)
        layout.addWidget(self.filter_row)

        self.item_model = QtGui.QStandardItemModel(0, 3, self)
        self.tree = _Tree(self)
        self.tree.setObjectName("dope_tree")
        self.tree.setAccessibleName(_("Dope sheet"))
        self.header = _TimeHeader(self)
        self.tree.setHeader(self.header)
        self.tree.setModel(self.item_model)
        self.tree.setItemDelegate(_Delegate(self))
        self.tree.setUniformRowHeights(True)
        self.tree.setAllColumnsShowFocus(True)
        self.tree.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        self.tree.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tree.setTextElideMode(QtCore.Qt.TextElideMode.ElideMiddle)
        self.tree.setVerticalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.tree.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tree.setIndentation(12)
        self.tree.setMouseTracking(True)
        self.header.setStretchLastSection(True)
        self.header.setSectionsMovable(False)
        self.header.setSectionResizeMode(NAME, QtWidgets.QHeaderView.ResizeMode.Interactive)
        self.header.setSectionResizeMode(COUNT, QtWidgets.QHeaderView.ResizeMode.Fixed)
        self.header.sectionResized.connect(self._section_resized)
        self.tree.selectionModel().currentRowChanged.connect(self._row_chosen)
        self.tree.activated.connect(self._activated)
        self.tree.expanded.connect(lambda i: self._expanded(i, True))
        self.tree.collapsed.connect(lambda i: self._expanded(i, False))
        layout.addWidget(self.tree, 1)
        self._set_headers()
        self.set_sheet(None)

    # ------------------------------------------------------------------ model -> view
    def _set_headers(self) -> None:
        for col, (text, tip) in enumerate((
                (_("joint"), _("Animated joints, by animation and by the rig's hierarchy; "
                               "hover a name for the track")),
                (_("found"), _("Findings of the row (of the rows under a collapsed or "
                               "animation row); the swatch is the most important kind")),
                ("", _("Time (s) across the whole file: keys as ticks, findings as marks in "
                       "their family's colour; click a mark to go to it")))):
            item = QtGui.QStandardItem(text)
            item.setToolTip(tip)
            self.item_model.setHorizontalHeaderItem(col, item)

    def set_sheet(self, sheet: DopeSheet | None) -> None:
        """Show another file's sheet (None: empty); only rows with findings when it has any."""
        self.sheet = sheet
        self.current_mark = None
        self._collapsed.clear()
        if sheet is not None:
            self.axis = _Axis(sheet.start, sheet.end)
        self.only_box.blockSignals(True)
        self.only_box.setChecked(bool(sheet is not None and sheet.marks))
        self.only_box.setEnabled(bool(sheet is not None and sheet.marks))
        self.only_box.blockSignals(False)
        self.filter_box.blockSignals(True)
        self.filter_box.clear()
        self.filter_box.blockSignals(False)
        self.filter_row.setVisible(sheet is not None and sheet.track_rows > FILTER_FROM_TRACKS)
        # Nothing to count, no count column: the names take its room.
        self.tree.setColumnHidden(COUNT, not (sheet is not None and sheet.marks))
        self._refill()

    def _refill(self) -> None:
        """Rebuild the rows for the sheet, the filter and the findings-only choice."""
        sheet = self.sheet
        self._syncing = True
        try:
            self.item_model.removeRows(0, self.item_model.rowCount())
            self._items.clear()
            self._shown = (sheet.visible(self.filter_box.text(), self.only_box.isChecked())
                           if sheet is not None else [])
            for r, context in self._shown:
                row = sheet.rows[r]
                items = [QtGui.QStandardItem(row.label), QtGui.QStandardItem(),
                         QtGui.QStandardItem()]
                for item in items:
                    item.setData(r, ROW_ROLE)
                    item.setData(context, CONTEXT_ROLE)
                    item.setEditable(False)
                items[NAME].setToolTip(self._row_tip(r))
                items[COUNT].setText(str(len(self.drawn_marks(r, expanded=True))))
                items[LANE].setData(self._lane_text(r), QtCore.Qt.ItemDataRole.AccessibleTextRole)
                if row.track is None:
                    font = items[NAME].font()
                    font.setBold(True)
                    items[NAME].setFont(font)
                parent = self._items.get(row.parent) if row.parent is not None else None
                (parent or self.item_model.invisibleRootItem()).appendRow(items)
                self._items[r] = items[NAME]
            for r, item in self._items.items():
                if r not in self._collapsed:
                    self.tree.setExpanded(item.index(), True)
            self._number_rows()
            self._fit_columns()
            self._select_row()
        finally:
            self._syncing = False
        self._say_summary()
        self._say_position()
        self.next_button.setEnabled(bool(sheet is not None and sheet.marks))
        self.previous_button.setEnabled(bool(sheet is not None and sheet.marks))
        self.rowsChanged.emit()

    def _number_rows(self) -> None:
        """Each shown row's place on screen (alternate rows are shaded)."""
        self._visual.clear()
        index = self.item_model.index(0, 0)
        n = 0
        while index.isValid():
            self._visual[index.data(ROW_ROLE)] = n
            n += 1
            index = self.tree.indexBelow(index)

    def shown_rows(self) -> int:
        """How many rows the tree shows (the expanded ones), scrolled into view or not."""
        return len(self._visual)

    def row_height(self) -> int:
        """The height of a row (all rows are alike)."""
        return max(self.tree.sizeHintForRow(0), self.tree.fontMetrics().height() + 2, 1) \
            if self._visual else self.tree.fontMetrics().height() + 6

    def visual_row(self, index: QtCore.QModelIndex) -> int:
        return self._visual.get(index.data(ROW_ROLE), 0)

    def _fit_columns(self) -> None:
        """The joint column as wide as the names it shows (at most :data:`NAME_SHARE` of
        the view), unless the user resized it.

        Measured as the tree lays its names out (``sizeHintForColumn``: the
        item's font, bold for an animation, its indentation, the style's text
        margins): an estimate from the plain font and a 42 % cap cut
        "LowerArm.L" to "Low…m.L" at 1024x768 and 150 %, where the names
        needed 45 %. Past the cap the names are elided in the middle, as the
        joint tree's are (the start and the side suffix both tell joints apart),
        and each row's tooltip names its track in full.
        """
        metrics = self.tree.fontMetrics()
        self._fitting = True
        try:
            if not self._user_sized:
                names = self.tree.sizeHintForColumn(NAME) if self._shown else -1
                room = max(self.tree.viewport().width(), 300)
                width = names if names > 0 else 120
                self.header.resizeSection(NAME, int(min(max(width, 110), NAME_SHARE * room)))
            self.header.resizeSection(COUNT, metrics.horizontalAdvance("0000") + 24)
        finally:
            self._fitting = False

    def _section_resized(self, logical: int, _old: int, _new: int) -> None:
        if logical == NAME and not self._fitting:
            self._user_sized = True  # the user's width stays

    def _row_tip(self, r: int) -> str:
        sheet = self.sheet
        row = sheet.rows[r]
        if row.track is None:
            return _("animation {name}").format(name=row.label)
        track = sheet.tracks[row.track]
        kinds = [sheet.marks[k].kind for k in row.marks]
        found = describe_kinds(kinds) if kinds else _("no findings")
        return _("{track}: {n} keys, {interpolation}; {found}").format(
            track=track.label, n=len(track), interpolation=track.interpolation, found=found)

    def _lane_text(self, r: int) -> str:
        """What a lane shows, in words (for screen readers)."""
        sheet = self.sheet
        marks = self.drawn_marks(r, expanded=True)
        if not marks:
            return _("no findings")
        return "; ".join(_tip(sheet, k) for k in marks[:20])

    def drawn_marks(self, r: int, expanded: bool | None = None) -> tuple[int, ...]:
        """Marks drawn in row ``r``: its own, or its subtree's when it is a group or collapsed."""
        sheet = self.sheet
        row = sheet.rows[r]
        if row.track is None:
            return sheet.subtree_marks(r)
        if expanded is None:
            item = self._items.get(r)
            expanded = item is None or not item.hasChildren() or self.tree.isExpanded(
                item.index())
        return row.marks if expanded else sheet.subtree_marks(r)

    def _say_summary(self) -> None:
        """How many rows have findings, on the check box that shows only them."""
        sheet = self.sheet
        if sheet is None:
            self.only_box.setText(_("findings only"))
            self.tree.setToolTip(_("Open a keyframe file: its joints appear here along time, "
                                   "with every finding marked."))
            return
        self.only_box.setText(_("findings only ({flagged} of {total})").format(
            flagged=sheet.flagged_rows, total=sheet.track_rows))
        shown = sum(1 for r, _ctx in self._shown if sheet.rows[r].track is not None)
        self.tree.setToolTip(_("{shown} of {total} tracks shown; {flagged} with findings, "
                               "{n} in all").format(shown=shown, total=sheet.track_rows,
                                                    flagged=sheet.flagged_rows,
                                                    n=len(sheet.marks)))

    def _say_position(self) -> None:
        """Where the walk is, "6 / 15" (the tooltip in words)."""
        sheet = self.sheet
        n = len(sheet.marks) if sheet is not None else 0
        if not n:
            self.position_label.setText(_("no findings"))
            self.position_label.setToolTip("")
            return
        i = "–" if self.current_mark is None else str(self.current_mark + 1)
        self.position_label.setText(f"{i} / {n}")
        self.position_label.setToolTip(
            ngettext("{n} finding in the file", "{n} findings in the file", n).format(n=n)
            if self.current_mark is None else
            _("finding {i} of {n}").format(i=self.current_mark + 1, n=n))
        self.position_label.setAccessibleName(self.position_label.toolTip())

    # ------------------------------------------------------------------ state from outside
    def set_current(self, mark: int | None) -> None:
        """Outline mark ``mark`` (the finding shown; None: none) and bring its row into view."""
        self.current_mark = mark
        if mark is not None and self.sheet is not None:
            r = self.sheet.row_of_track[self.sheet.marks[mark].track]
            if r not in self._items:  # filtered out: a finding is never hidden
                self.filter_box.blockSignals(True)
                self.filter_box.clear()
                self.filter_box.blockSignals(False)
                self._refill()
            self._reveal(r)
        self._say_position()
        self.tree.viewport().update()

    def set_selected_track(self, track: int | None) -> None:
        self.selected_track = track
        self._syncing = True
        try:
            self._select_row()
        finally:
            self._syncing = False
        self.tree.viewport().update()

    def _select_row(self) -> None:
        sheet, track = self.sheet, self.selected_track
        sel = self.tree.selectionModel()
        r = sheet.row_of_track.get(track) if sheet is not None and track is not None else None
        item = self._items.get(r) if r is not None else None
        if item is None:
            sel.clearSelection()
            return
        index = item.index()
        sel.setCurrentIndex(index, QtCore.QItemSelectionModel.SelectionFlag.ClearAndSelect
                            | QtCore.QItemSelectionModel.SelectionFlag.Rows)
        self.tree.scrollTo(index)

    def _reveal(self, r: int) -> None:
        """Expand the rows above row ``r`` and scroll it into view."""
        sheet = self.sheet
        p = sheet.rows[r].parent
        while p is not None:
            item = self._items.get(p)
            if item is not None and not self.tree.isExpanded(item.index()):
                self.tree.setExpanded(item.index(), True)
            p = sheet.rows[p].parent
        item = self._items.get(r)
        if item is not None:
            self.tree.scrollTo(item.index())

    def set_cursor(self, time: float | None, group: int | None) -> None:
        """The playback time (None: none), drawn in the rows of animation group ``group``."""
        if (time, group) == (self.cursor_time, self.cursor_group):
            return
        self.cursor_time, self.cursor_group = time, group
        self.tree.viewport().update()
        self.header.viewport().update()

    # ------------------------------------------------------------------ geometry
    def _lane_rect(self, r: int) -> QtCore.QRect | None:
        item = self._items.get(r)
        if item is None:
            return None
        index = item.index().siblingAtColumn(LANE)
        rect = self.tree.visualRect(index)
        return rect if rect.isValid() and not rect.isEmpty() else None

    def mark_rect(self, k: int) -> QtCore.QRect | None:
        """Where mark ``k`` is drawn, in this widget's pixels (None: not on screen)."""
        sheet = self.sheet
        m = sheet.marks[k]
        r = sheet.row_of_track[m.track]
        while r is not None and k not in self.drawn_marks(r):
            r = sheet.rows[r].parent  # inside a collapsed row: drawn in its summary
        lane = self._lane_rect(r) if r is not None else None
        if lane is None or not math.isfinite(m.t0):
            return None
        shape = _mark_shape(m, self.axis, QtCore.QRectF(lane), sheet.two_lanes).toAlignedRect()
        top_left = self.tree.viewport().mapTo(self, shape.topLeft())
        return QtCore.QRect(top_left, shape.size())

    def row_rect(self, track: int) -> QtCore.QRect | None:
        """The lane of ``track``'s row in this widget's pixels (None: not shown)."""
        r = self.sheet.row_of_track.get(track) if self.sheet is not None else None
        lane = self._lane_rect(r) if r is not None else None
        if lane is None:
            return None
        return QtCore.QRect(self.tree.viewport().mapTo(self, lane.topLeft()), lane.size())

    def mark_at_point(self, index: QtCore.QModelIndex, pos: QtCore.QPoint) -> int | None:
        """The mark drawn under (or within a few pixels of) viewport point ``pos`` in a lane."""
        sheet = self.sheet
        r = index.data(ROW_ROLE)
        if sheet is None or r is None:
            return None
        lane = QtCore.QRectF(self.tree.visualRect(index))
        best, dist = None, math.inf
        for k in self.drawn_marks(r):
            m = sheet.marks[k]
            if not math.isfinite(m.t0):
                continue
            shape = _mark_shape(m, self.axis, lane, sheet.two_lanes)
            dx = max(shape.left() - pos.x(), pos.x() - shape.right(), 0.0)
            if dx < dist:
                best, dist = k, dx
        return best if dist <= CLICK_SLOP_PX else None

    def mark_tip(self, k: int) -> str:
        """A mark's tooltip: what and where, then the audit's explanation."""
        message = _(self.sheet.finding(k).message)
        return _tip(self.sheet, k) + ("\n" + message if message else "")

    # ------------------------------------------------------------------ user -> signals
    def lane_clicked(self, index: QtCore.QModelIndex, pos: QtCore.QPoint) -> bool:
        """A click in a lane: a finding, else the joint and the time there (True: handled)."""
        k = self.mark_at_point(index, pos)
        if k is not None:
            self.findingChosen.emit(k)
            return True
        r = index.data(ROW_ROLE)
        row = self.sheet.rows[r] if self.sheet is not None and r is not None else None
        if row is None or row.track is None:
            return False
        lane = self.tree.visualRect(index)
        t = self.axis.time(pos.x(), lane.left(), lane.width())
        self.tree.setCurrentIndex(index.siblingAtColumn(NAME))
        self.timeChosen.emit(row.track, float(t))
        return True

    def _row_chosen(self, current: QtCore.QModelIndex, _previous=None) -> None:
        if self._syncing or not current.isValid():
            return
        r = current.data(ROW_ROLE)
        row = self.sheet.rows[r] if self.sheet is not None and r is not None else None
        if row is not None and row.track is not None:
            self.selected_track = row.track
            self.trackChosen.emit(row.track)
            self.tree.viewport().update()

    def _activated(self, index: QtCore.QModelIndex) -> None:
        """Enter (or a double click) on a row: its first finding."""
        r = index.data(ROW_ROLE)
        marks = self.drawn_marks(r) if self.sheet is not None and r is not None else ()
        if marks:
            self.findingChosen.emit(marks[0])

    def _expanded(self, index: QtCore.QModelIndex, on: bool) -> None:
        r = index.data(ROW_ROLE)
        if r is None:
            return
        if on:
            self._collapsed.discard(r)
        elif not self._syncing:
            self._collapsed.add(r)
        self._number_rows()
        self._fit_columns()  # the names shown changed
        self.tree.viewport().update()
        self.rowsChanged.emit()

    def changeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().changeEvent(ev)
        if ev.type() in (QtCore.QEvent.Type.PaletteChange, QtCore.QEvent.Type.FontChange):
            # A theme or zoom: the lanes read the theme when painting.
            self.tree.viewport().update()
            self.header.viewport().update()
            if ev.type() == QtCore.QEvent.Type.FontChange and self.sheet is not None:
                self._fit_columns()

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(ev)
        if self.sheet is not None:
            self._fit_columns()
