"""SQUAD track lesson: piecewise NLERP and SLERP, SQUAD and sign-unaware SQUAD along a key track.

Left of the 3D view a small key editor (:class:`KeyEditor`) shows the track
as entered: time and w, x, y, z per key, each cell editable, a "−q" button
per key and add/remove buttons. It is a view over a table model
(:class:`KeyTable`), so an imported track of any length opens at once. The
model validates every edit; a refused one is reported under the table and
the cell goes back to the model's value.
"""

from __future__ import annotations

import numpy as np
from PyQt6 import QtCore, QtWidgets

from quatlab.app.i18n import N_, _
from quatlab.app.model.track_lesson import TrackModel
from quatlab.app.qt.background import PreparingRunner
from quatlab.app.qt.lesson_panel import LessonPanel
from quatlab.app.qt.paint_later import PaintLater
from quatlab.math import track as T
from quatlab.rendering.chain import ROW_VIEW, roots_in_a_row
from quatlab.rendering.series import Series
from quatlab.rendering.style import METHOD_COLORS
from quatlab.rendering.themes import LIGHT, PETROL

VIEW_NAME = "squad"
TITLE = N_("SQUAD track")

#: The piecewise methods keep the two-key lesson's shortest-arc colours; the
#: SQUAD pair gets Okabe-Ito colours not used by the four methods. Written in
#: the light palette by role: each theme draws its own sky blue and orange,
#: chosen to stay apart from its method blue and green (docs/curves.md, "Themes").
#: SQUAD is the light theme's deep petrol shade of the sky blue (themes.LIGHT_DEEP):
#: its 3D trail deepened to 4:1 was a steel blue beside piecewise NLERP's blue.
COLOURS = {
    "nlerp": METHOD_COLORS["shortest_nlerp"],
    "slerp": METHOD_COLORS["shortest_slerp"],
    "squad": PETROL,                 # sky blue; petrol in the light theme
    "squad_unaware": LIGHT.accent,   # orange: the buggy variant stands out
}
DASHED = {"nlerp": True, "slerp": False, "squad": False, "squad_unaware": True}
#: Root of each method's chain, in a row along Y: the piecewise pair, then
#: SQUAD with its sign-unaware variant beside it. Curled chains in a row, not
#: rigid limbs two by two: those were 40-50 px long at 1280x720, shorter
#: than a class reads.
ROOTS = roots_in_a_row(TrackModel.SHOWN)
#: Editor columns: the key's time, its components as entered, the −q button.
COLUMNS = (N_("t (s)"), "w", "x", "y", "z", "")
_NEGATE = len(COLUMNS) - 1
#: Most key markers drawn in the plots.
MAX_KEY_MARKERS = 100
#: Rows shown before the table scrolls: the presets' four keys (five scroll).
_VISIBLE_ROWS = 4


def _number(value: float) -> str:
    """A cell's text: short, but re-enterable without changing a typed value."""
    return f"{value:.6g}"


class KeyTable(QtCore.QAbstractTableModel):
    """The track's keys as a Qt table model: the view asks for the rows it shows.

    Nothing is built per key, so an imported 100,000-key track opens as fast
    as a preset. Edits (``setData``) go to ``on_edit(row, column, text)``,
    which returns whether the model took them.
    """

    def __init__(self, model: TrackModel, on_edit, parent=None) -> None:
        super().__init__(parent)
        self.model = model
        self._on_edit = on_edit
        self._rows = len(model.times)

    def rowCount(self, parent=QtCore.QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent=QtCore.QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: QtCore.QModelIndex, role=QtCore.Qt.ItemDataRole.DisplayRole):
        i, c = index.row(), index.column()
        if not index.isValid() or i >= len(self.model.times):
            return None
        roles = QtCore.Qt.ItemDataRole
        if role in (roles.DisplayRole, roles.EditRole):
            if c == _NEGATE:
                return "−q"
            return _number(self.model.times[i] if c == 0 else self.model.keys[i, c - 1])
        if role == roles.TextAlignmentRole:
            align = QtCore.Qt.AlignmentFlag
            return (align.AlignCenter if c == _NEGATE
                    else align.AlignRight | align.AlignVCenter).value
        if role == roles.ToolTipRole and c == _NEGATE:
            return _("Store key {i} as −q: the same rotation in the other hemisphere").format(i=i)
        return None

    def headerData(self, section, orientation, role=QtCore.Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if role != QtCore.Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == QtCore.Qt.Orientation.Horizontal:
            return _(COLUMNS[section]) if 0 <= section < len(COLUMNS) and COLUMNS[section] else (
                "" if 0 <= section < len(COLUMNS) else None)
        return str(section)

    def flags(self, index: QtCore.QModelIndex):
        f = QtCore.Qt.ItemFlag
        if not index.isValid():
            return f.NoItemFlags
        base = f.ItemIsEnabled | f.ItemIsSelectable
        return base if index.column() == _NEGATE else base | f.ItemIsEditable

    def setData(self, index, value, role=QtCore.Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        if not index.isValid() or role != QtCore.Qt.ItemDataRole.EditRole:
            return False
        return self._on_edit(index.row(), index.column(), str(value))

    def refresh(self) -> None:
        """Follow the model: a reset when the number of keys changed, else new values."""
        n = len(self.model.times)
        if n != self._rows:
            self.beginResetModel()
            self._rows = n
            self.endResetModel()
        elif n:
            self.dataChanged.emit(self.index(0, 0), self.index(n - 1, len(COLUMNS) - 1))


class ButtonDelegate(QtWidgets.QStyledItemDelegate):
    """Paints a cell as a push button (the −q column); the view's click does the work."""

    def paint(self, painter, option, index) -> None:
        button = QtWidgets.QStyleOptionButton()
        button.rect = option.rect.adjusted(1, 1, -1, -1)
        button.text = index.data()
        flag = QtWidgets.QStyle.StateFlag
        button.state = flag.State_Enabled | flag.State_Raised
        widget = option.widget
        style = widget.style() if widget is not None else QtWidgets.QApplication.style()
        style.drawControl(QtWidgets.QStyle.ControlElement.CE_PushButton, button, painter, widget)

    def sizeHint(self, option, index) -> QtCore.QSize:  # noqa: N802 - Qt API
        return QtCore.QSize(option.fontMetrics.horizontalAdvance("  −q  ") + 12,
                            option.fontMetrics.height() + 4)


class KeyEditor(QtWidgets.QWidget):
    """The model's keys as a table; edits go to the model, refusals are shown, not applied."""

    def __init__(self, model: TrackModel, parent=None) -> None:
        super().__init__(parent)
        self.model = model
        # The table over its buttons and message: the editor stands in a
        # column beside the 3D view, so it is narrow rather than short.
        column = QtWidgets.QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        self.keys = KeyTable(model, self._edited, self)
        self.table = QtWidgets.QTableView()
        self.table.setObjectName("track_keys")
        self.table.setModel(self.keys)
        self.table.setItemDelegateForColumn(_NEGATE, ButtonDelegate(self.table))
        self.table.setToolTip(_("Key times and quaternions (w, x, y, z) as stored; edit a "
                                "cell to change the track. −q stores a key negated: the same "
                                "rotation."))
        vheader = self.table.verticalHeader()
        # Fixed rows: the view never measures 100,000 keys to lay them out.
        vheader.setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.Fixed)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(_NEGATE, QtWidgets.QHeaderView.ResizeMode.Fixed)
        self._size_table()
        self.table.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
        self.table.clicked.connect(self._clicked)
        column.addWidget(self.table)

        buttons = QtWidgets.QHBoxLayout()
        self.add_button = QtWidgets.QPushButton(_("Add key"))
        self.add_button.setObjectName("track_add_key")
        self.add_button.setToolTip(_("Append a key one segment later, turning on as the "
                                     "last segment turned"))
        self.add_button.clicked.connect(lambda: self._apply(model.add_key))
        self.remove_button = QtWidgets.QPushButton(_("Remove key"))
        self.remove_button.setObjectName("track_remove_key")
        self.remove_button.setToolTip(_("Remove the selected key (the last if none is "
                                        "selected); a track keeps {n} keys").format(
                                            n=model.MIN_KEYS))
        self.remove_button.clicked.connect(self._remove)
        self.message = QtWidgets.QLabel()
        self.message.setObjectName("track_key_message")
        self.message.setWordWrap(True)
        # Messages quote the model's ValueError: plain text, never markup.
        self.message.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.message.setStyleSheet(f"color: {METHOD_COLORS['naive_nlerp']};")
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        column.addLayout(buttons)
        column.addWidget(self.message)

    def _size_table(self) -> None:
        """Rows, columns and height for the table's font (again after a zoom).

        Sized once, at 100 %, the table kept its height at 150 %: a scroll bar
        appeared and took the width the keys needed ("0.707…").
        """
        metrics = self.table.fontMetrics()
        vheader, header = self.table.verticalHeader(), self.table.horizontalHeader()
        vheader.setDefaultSectionSize(metrics.height() + 4)
        header.resizeSection(_NEGATE, metrics.horizontalAdvance("  −q  ") + 16)
        # Wide enough for every cell's widest text (_number's "-0.707107"):
        # stretched columns would otherwise elide the keys to "0.7…".
        cell = metrics.horizontalAdvance("−0.707107") + 14
        header.setMinimumSectionSize(cell)
        self.table.setMinimumWidth(
            vheader.sizeHint().width() + (len(COLUMNS) - 1) * cell
            + header.sectionSize(_NEGATE) + 2 * self.table.frameWidth()
            + self.table.style().pixelMetric(QtWidgets.QStyle.PixelMetric.PM_ScrollBarExtent))
        # Tall enough for the presets without scrolling, short enough to leave
        # the 3D view and the plots most of the height.
        self.table.setFixedHeight(header.sizeHint().height() + _VISIBLE_ROWS
                                  * vheader.defaultSectionSize() + 2 * self.table.frameWidth())

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() == QtCore.QEvent.Type.FontChange:
            self._size_table()

    def _apply(self, edit, *args) -> bool:
        """Run a model edit; a refusal goes to the message line and the table is restored."""
        try:
            edit(*args)
        except ValueError as exc:
            self._refuse(str(exc))
            return False
        self.message.clear()
        return True

    def _refuse(self, why: str) -> None:
        self.message.setText(_("Refused: {error}").format(error=why))
        self.refresh()  # the model still has the last valid value

    def _edited(self, i: int, c: int, text: str) -> bool:
        if c == _NEGATE or not 0 <= i < len(self.model.times):
            return False
        try:
            value = float(text.replace("−", "-"))
        except ValueError:
            self._refuse(_("“{text}” is not a number").format(text=text[:40]))
            return False
        if c == 0:
            return self._apply(self.model.set_time, i, value)
        q = self.model.keys[i].copy()
        q[c - 1] = value
        return self._apply(self.model.set_key, i, q)

    def _clicked(self, index: QtCore.QModelIndex) -> None:
        if index.column() == _NEGATE:
            self.negate(index.row())

    def negate(self, i: int) -> None:
        """The −q button of key ``i``: store it negated."""
        self._apply(self.model.negate_key, i)

    def _remove(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        i = rows[0].row() if rows else len(self.model.times) - 1
        self._apply(self.model.remove_key, i)

    def refresh(self) -> None:
        """Show the model's keys (the view reads them; nothing is rebuilt per key)."""
        self.keys.refresh()
        self.remove_button.setEnabled(len(self.model.times) > self.model.MIN_KEYS)

    def cell(self, i: int, c: int) -> str:
        """The text key ``i``'s column ``c`` shows."""
        return self.keys.index(i, c).data()


class TrackView(LessonPanel):
    def __init__(self, model: TrackModel, parent=None) -> None:
        self.model = model
        super().__init__(model.preset_items(), model.set_preset, _("time"), model.set_param,
                         parent, param_tooltip=_("Time along the track (s); drag in the plots "
                                                 "too"))
        self.tangents = QtWidgets.QCheckBox(_("time-scaled tangents"))
        self.tangents.setObjectName("time_scaled")
        self.tangents.setToolTip(_("SQUAD control points weighted by the segment durations "
                                   "(continuous speed for uneven key times)"))
        self.tangents.toggled.connect(model.set_time_scaled)
        self.toolbar.insertWidget(2, self.tangents)
        self.set_legend([(COLOURS[m], _(T.METHOD_LABELS[m]))
                                         for m in model.SHOWN])
        # The key editor in a column beside the 3D view, not in a row above
        # it: there it took 100 of the view's 280 px at 1280x720.
        self.keys = KeyEditor(model)
        side = self.add_scene_side(_("key table"))
        side.addWidget(self.keys)
        # The explanation under the keys it speaks of, not in a band above
        # the view: the column has the height, the view wants it. Its width
        # is the column's (the table's), whatever the text.
        self.explanation.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored,
                                       QtWidgets.QSizePolicy.Policy.Preferred)
        side.addStretch(1)
        self._arranged()
        # The four chains side by side, not on one root where they hid each
        # other; their trails follow their roots (the shapes are made for them).
        for k in model.SHOWN:
            self.scene.set_chain(k, None, COLOURS[k], root=ROOTS[k])
        self.scene.set_default_direction(*ROW_VIEW)
        # An imported 200-key track takes about 0.05 s to compute and its four
        # trails as long again: both on a worker thread, so the window keeps
        # painting (input waits until they are back).
        self.runner = PreparingRunner(self._trail_preparer, key=lambda computed: computed.track)
        model.runner = self.runner
        # New curves are set at once but painted after the rest of the view
        # and its 3D frame: their first paint alone is most of a frozen frame.
        self.plots_paint = PaintLater(self.plots, after=self.scene,
                                      stagger=(self.plots.plots["speed"],))
        model.events.connect("data", self.on_data)
        model.events.connect("param", self.on_param)
        self.on_data()
        self.on_param()

    def strip_height(self, width: int) -> int:
        """Over the stage the explanation stands beside the keys: the keys' height."""
        keys = getattr(self, "keys", None)
        return keys.sizeHint().height() if keys is not None else super().strip_height(width)

    def arrange_side(self, in_strip: bool) -> None:
        """Over the stage, the explanation beside the keys rather than over them."""
        if self._side is None or self._side.layout().indexOf(getattr(self, "keys", None)) < 0:
            return  # still being built
        if in_strip:
            self.add_to_strip(self.explanation_area, 1)
            self.explanation_area.set_top(
                True, self.SHORT_PAGE_LINES if self._short_page() else None)

    def load_track(self, times, keys, name: str | None = None) -> None:
        """Show an imported track, keys (w, x, y, z) as stored; ValueError if it is unusable."""
        self.model.set_track(times, keys, name)

    def _trail_preparer(self):
        """The 3D trails of a new track's curves, built on the worker (see PreparingRunner)."""
        shapers = {k: self.scene.trail_shaper(k) for k in self.model.SHOWN}
        return lambda computed: {k: shaper.shape(computed.track[k].quats)
                                 for k, shaper in shapers.items()}

    def on_data(self) -> None:
        self.show_preset(self.model.preset)
        self.plots_paint.hold()
        self.keys.refresh()
        m, tr = self.model, self.model.track
        with self.plots.batch():  # one refresh of the plots for all of it
            # The angle from the first key, not the turning so far: about changing
            # axes they differ (the four keys turn 150° by t = 2, 104° from the start),
            # and "path angle" read as the sum of the speed plot.
            self.set_axes(_("time"), "s", m.param_range,
                          {"angle": _("angle from the first key (°)")},
                          y_short={"angle": _("angle (°)")})
            for plot, attr in (("angle", "angle_deg"), ("speed", "speed_deg")):
                self.plots.set_series(plot, [
                    Series(k, _(T.METHOD_LABELS[k]), COLOURS[k], DASHED[k], tr.t,
                           getattr(tr[k], attr))
                    for k in m.SHOWN])
            # A line per key marks a short track; on a long one they would be a grey wall.
            self.plots.set_markers(tr.times if tr.times.size <= MAX_KEY_MARKERS else [])
        shapes = self.runner.prepared(tr) or {}
        for k in m.SHOWN:
            self.scene.set_path(k, tr[k].quats, COLOURS[k], shape=shapes.get(k))
            self.scene.set_label(k, _(T.METHOD_LABELS[k]))
        # The model announces "param" right after "data" (on_param follows):
        # a 200-key track's explanation and poses took 15-30 ms, twice.

    def on_param(self) -> None:
        m = self.model
        for k, q in m.at_param().items():
            self.scene.set_chain(k, q if np.all(np.isfinite(q)) else None, COLOURS[k])
        self.slider.set_value(m.param)
        self.plots.set_cursor(m.param)
        self.explanation.setText(m.explanation())
        self.plots_paint.changed()  # after new data: the last of the view's changes


def create(window) -> QtWidgets.QWidget:
    return TrackView(TrackModel())
