"""The "Keyframes" tab: open a keyframe file, see where rotation keys turn the long way, fix them.

Top to bottom: the file and its tracks (animation, node, interpolation, key
count, findings), a timeline strip of the selected track (keys as ticks,
segments as bars, flagged segments in colour, click to select), the
per-segment table (times, dot, naive and shortest angle, flags), the audit's
explanation of the selection, and the actions: "Fix signs" for the track or
for all tracks (undoable with this tab's own Undo and Redo: the window's
Ctrl+Z belongs to the two-key lesson), "Export fixed…" and "jump to the lesson
on select".

Selecting a segment loads its two keys, as stored, into the two-key lesson
with t = 0.5 (:data:`quatlab.app.model.keyframes_model.TROUBLE_T`), so the lesson's
chains and plots show the turn a naive runtime makes there. All state lives in
the Qt-free :class:`~quatlab.app.model.keyframes_model.KeyframesModel`; this module
only shows it and forwards the user's actions.

It is longer than the ~500 lines the modules aim for because it is one tab's
wiring: the tables (``keyframe_tables``), the explanation's fit
(``details_fit``), the timeline and the rig view live in modules of their own,
and what is left is the signals between them and the model.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from pathlib import Path

import numpy as np
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import N_, _
from quatlab.app.io.keyframe_files import load_keyframes
from quatlab.app.io.runtime_check import runtime_matrix
from quatlab.app.io.tracks import KeyframeFileError
from quatlab.app.model.explain import glue_formulas
from quatlab.app.model.finding_families import FAMILIES, FAMILY_NAMES, primary
from quatlab.app.model.keyframes_model import KeyframesModel, describe_kinds, kind_name
from quatlab.app.qt.background import run_off_thread
from quatlab.app.qt.details_fit import MIN_TOP_ROWS, fit_text_below_table
from quatlab.app.qt.dope_sheet import DopeSheetView
from quatlab.app.qt.finding_navigation import NEXT_KEY, PREVIOUS_KEY, FindingNavigator
from quatlab.app.qt.flow_legend import FlowLegend
from quatlab.app.qt.keyframe_tables import (
    CellTable,
    fit_columns,
    format_dot,
    format_number,
    table_view,
    time_decimals,
)
from quatlab.app.qt.lesson_panel import swatch
from quatlab.app.qt.rig_view import RigPanel
from quatlab.app.qt.runtime_matrix_view import RuntimeMatrixDialog
from quatlab.app.qt.timeline import FAMILY_COLOURS, HIGHLIGHT, KEY_TICK, ROW_TINT, Timeline

__all__ = ["VIEW_NAME", "TITLE", "KeyframesView", "create"]

VIEW_NAME = "keyframes"
TITLE = N_("Keyframes")

ORDER_CHOICES = ((N_("as declared"), None), ("wxyz", "wxyz"), ("xyzw", "xyzw"))
#: Findings explained in full below the table; a long track's thousand sign
#: flips would bury the first ones (the table and timeline still show all).
DETAILS_LIMIT = 30
#: The most of the left splitter's height the dope sheet (or track table) takes for its rows.
FILE_PANE_SHARE = 0.45
#: What each family's legend entry explains in its tooltip.
FAMILY_TIPS = {
    "sign_flip": N_("Keys stored in opposite hemispheres: a spec player takes the short arc, "
                    "a naive runtime turns the long way (more than 180°)"),
    "half_turn": N_("Keys half a turn apart: both ways are equally long, and the direction "
                    "hangs on rounding"),
    "euler_wrap": N_("An Euler channel jumps by about 360° between frames: a per-channel "
                     "blend spins a whole turn (files of Euler angles, such as BVH)"),
    "euler_flip": N_("The channels switch to the other angle triple of the same rotation "
                     "(other triple): a per-channel blend swings through other poses"),
    "gimbal": N_("The middle angle at ±90°: the other two channels are unstable"),
    "broken": N_("Key times out of order, or a key that is zero, not finite or not unit "
                 "length"),
    "other": N_("Findings counted past a track's first thousand, or of a kind this version "
                "does not name"),
}


def family_legend() -> FlowLegend:
    """The legend of the finding families and the key ticks, with tooltips."""
    entries = [(("◆" if f == "gimbal" else "■"), FAMILY_COLOURS[f], _(FAMILY_NAMES[f]),
                _(FAMILY_TIPS[f])) for f in FAMILIES if f != "other"]
    entries += [("│", KEY_TICK, _("key"), _("A key of the track"))]
    legend = FlowLegend([f"{swatch(c, mark)}&nbsp;{text}" for mark, c, text, _tip in entries])
    for label, (_mark, _c, _text, tip) in zip(legend.entries, entries, strict=True):
        label.setToolTip(tip)
    return legend


class KeyframesView(QtWidgets.QWidget):
    """Shows a :class:`KeyframesModel`; ``jump`` switches to the two-key lesson."""

    #: Keys this tab takes from the window's menus while it is shown (the next and
    #: previous finding; View > Chains: NLERP belongs to the two-key lesson).
    CLAIMED_KEYS = (NEXT_KEY, PREVIOUS_KEY)

    TRACK_HEADERS = [
        (N_("animation"), N_("glTF animation (name and index)")),
        (N_("node"), N_("Target node (name and index)")),
        (N_("interpolation"), N_("How the file says to interpolate: LINEAR (SLERP for "
                                 "rotations), STEP or CUBICSPLINE")),
        (N_("keys"), N_("Number of rotation keys")),
        (N_("findings"), N_("What the audit found (hover a row for the details)")),
    ]
    #: Short headers, so that the seven columns fit the side panel of a 1024-px
    #: window; each says in full, with its unit, in its tooltip.
    SEGMENT_HEADERS = [
        (N_("segment"), N_("Keys i → i+1")),
        ("t₀", N_("Time of key i (s)")),
        ("t₁", N_("Time of key i+1 (s)")),
        (N_("dot"), N_("dot(q_i, q_i+1) of the normalized keys: negative = opposite "
                       "hemispheres")),
        (N_("naive°"), N_("Rotation swept when blending the stored components (naive "
                          "NLERP/SLERP), in degrees: 360° − shortest when dot < 0")),
        (N_("short°"), N_("Angle between the two rotations, in degrees: what a shortest-arc "
                          "blend turns")),
        (N_("flags"), N_("Findings of the segment and of its two keys")),
    ]

    def __init__(self, model: KeyframesModel, jump: Callable[[], None] | None = None,
                 open_file: Callable[[], None] | None = None, parent=None,
                 open_track: Callable[[np.ndarray, np.ndarray, str], None] | None = None,
                 status: Callable[[str], None] | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self._jump = jump
        self._status = status
        self._open_track = open_track
        self._shown_track: object = ()  # the Track object the segment table shows
        self._syncing = False

        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(4)

        top = QtWidgets.QHBoxLayout()
        self.open_button = QtWidgets.QPushButton(_("Open keyframes…"))
        self.open_button.setObjectName("kf_open")
        self.open_button.setToolTip(_("Open a glTF (.gltf, .glb), CSV or JSON keyframe file; "
                                      "you can also drop a file on the window"))
        # The window's File > Open keyframes (dialog and error box): one place
        # asks for files and reports what is wrong with them.
        if open_file is not None:
            self.open_button.clicked.connect(lambda: open_file())
        self.open_button.setVisible(open_file is not None)
        top.addWidget(self.open_button)
        top.addWidget(QtWidgets.QLabel(_("CSV/JSON order")))
        self.order_box = QtWidgets.QComboBox()
        self.order_box.setObjectName("kf_order")
        self.order_box.setToolTip(_("Component order of CSV and JSON tracks that do not declare "
                                    "it (glTF always stores x, y, z, w)"))
        for text, value in ORDER_CHOICES:
            self.order_box.addItem(_(text), value)
        top.addWidget(self.order_box)
        self.file_label = QtWidgets.QLabel()
        self.file_label.setObjectName("kf_file")
        self.file_label.setTextFormat(QtCore.Qt.TextFormat.RichText)
        # Wrapping, so a long file name cannot widen the tab.
        self.file_label.setWordWrap(True)
        self.file_label.setTextInteractionFlags(
            QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        top.addWidget(self.file_label, 1)
        layout.addLayout(top)

        self.track_model = CellTable(self.TRACK_HEADERS, {3}, self)
        self.track_table = table_view(self.track_model, "kf_tracks")
        self.track_table.selectionModel().currentRowChanged.connect(self._track_chosen)
        # A click on a track's findings goes to its first finding.
        self.track_table.clicked.connect(self._track_cell_clicked)
        # The file-wide dope sheet and the track table, one tab each.
        self.dope_sheet = DopeSheetView()
        self.file_tabs = QtWidgets.QTabWidget()
        self.file_tabs.setObjectName("kf_file_tabs")
        self.file_tabs.setDocumentMode(True)
        self.file_tabs.addTab(self.dope_sheet, _("Dope sheet"))
        self.file_tabs.addTab(self.track_table, _("Tracks"))
        self.file_tabs.setTabToolTip(0, _("Every animated joint along time, with every finding "
                                          "marked; {next} / {previous} go to the next / "
                                          "previous finding").format(next=NEXT_KEY,
                                                                     previous=PREVIOUS_KEY))
        self.file_tabs.setTabToolTip(1, _("The file's rotation tracks, one row each"))
        # The finding walk beside the tabs: it serves both.
        self.file_tabs.setCornerWidget(self.dope_sheet.walk_bar, QtCore.Qt.Corner.TopRightCorner)

        # Only the swatches are coloured: the pale "ok" colour is unreadable as text.
        # Each entry (a swatch and its words) one unbreakable unit; the legend
        # wraps between entries only, so the tab can give the rig panel the room.
        # One legend for the dope sheet, the timeline and the tables' tints.
        self.legend = family_legend()
        self.legend.setObjectName("kf_legend")
        self.timeline = Timeline(self)
        self.timeline.segmentClicked.connect(self._timeline_clicked)

        self.segment_model = CellTable(self.SEGMENT_HEADERS, {1, 2, 3, 4, 5}, self)
        # Zoomed in on a narrow window, t₁ (the next row's t₀), then short°
        # (360° − naive° when dot < 0, else naive°), then t₀ (on the timeline)
        # make way for the rest; the row's tooltip still says them.
        self.segment_table = table_view(self.segment_model, "kf_segments", optional=(2, 5, 1))
        # Arrow keys browse (each row goes into the lesson, the tab stays); a
        # click or Enter also jumps to the lesson when the box is ticked.
        self.segment_table.selectionModel().currentRowChanged.connect(
            lambda cur, _prev: self._segment_chosen(cur.row(), jump=False))
        self.segment_table.clicked.connect(lambda i: self._segment_chosen(i.row(), jump=True))
        self.segment_table.activated.connect(lambda i: self._segment_chosen(i.row(), jump=True))

        self.details = QtWidgets.QTextBrowser()
        self.details.setObjectName("kf_details")
        self.details.document().setDefaultStyleSheet("p { margin: 0 0 4px 0; }")
        # The explanation wraps to the panel, long names and numbers too: never sideways.
        self.details.setWordWrapMode(QtGui.QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.details.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

        middle = QtWidgets.QWidget()
        ml = QtWidgets.QVBoxLayout(middle)
        ml.setContentsMargins(0, 0, 0, 0)
        ml.setSpacing(2)
        ml.addWidget(self.timeline)
        ml.addWidget(self.segment_table, 1)
        split = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        split.addWidget(self.file_tabs)
        split.addWidget(middle)
        split.addWidget(self.details)
        split.setChildrenCollapsible(False)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 3)
        split.setStretchFactor(2, 1)
        split.setSizes([360, 270, 80])
        self._split = split
        left = QtWidgets.QWidget()
        left_layout = QtWidgets.QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.setSpacing(2)
        left_layout.addWidget(self.legend)
        left_layout.addWidget(split, 1)
        # The explanation gets the height its text needs (see fit_text_below_table),
        # refitted when its text, the panel's size, the fonts or the legend's
        # height (the table's size then) change.
        self._fit_timer = QtCore.QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(0)
        self._fit_timer.timeout.connect(self._fit_details)
        for watched in (split, self.details, self.segment_table):
            watched.installEventFilter(self)
        self.dope_sheet.rowsChanged.connect(self._fit_timer.start)
        # The file's own rig, played by both players (glTF files).
        self.rig_panel = RigPanel(model, parent=self)
        self.playback = self.rig_panel.playback
        self.scrubber = self.rig_panel.scrubber  # the window's play/step shortcuts use it
        self.playback.events.connect("time", self._show_time)
        self.playback.events.connect("rig", self._show_time)
        sides = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        sides.setObjectName("kf_sides")
        sides.addWidget(left)
        sides.addWidget(self.rig_panel)
        sides.setChildrenCollapsible(False)
        sides.setStretchFactor(0, 2)
        sides.setStretchFactor(1, 3)
        # The audit side gets the room its seven columns need in a 1024-px window.
        sides.setSizes([580, 820])
        layout.addWidget(sides, 1)

        # Two rows of actions side by side, or one above the other when the
        # window (zoomed in) is too narrow for both (see _arrange_actions).
        actions = QtWidgets.QHBoxLayout()
        self._action_rows = QtWidgets.QBoxLayout(QtWidgets.QBoxLayout.Direction.LeftToRight)
        self._action_rows.addLayout(actions)

        def button(text, name, tip, slot) -> QtWidgets.QPushButton:
            b = QtWidgets.QPushButton(text)
            b.setObjectName(name)
            b.setToolTip(tip)
            b.clicked.connect(slot)
            actions.addWidget(b)
            return b

        self.fix_button = button(
            _("Fix signs"), "kf_fix", _("Negate keys so each lies in its predecessor's "
                                        "hemisphere, in the selected track (same rotations; "
                                        "naive runtimes stop turning the long way)"),
            lambda: self.model.fix_signs(self.model.selected_track))
        self.fix_all_button = button(_("Fix all tracks"), "kf_fix_all",
                                     _("Fix signs in every track"),
                                     lambda: self.model.fix_signs(None))
        self.undo_button = button(_("Undo"), "kf_undo", "", self.model.undo)
        self.redo_button = button(_("Redo"), "kf_redo", "", self.model.redo)
        self.export_button = button(
            _("Export fixed…"), "kf_export", _("Write a copy with the current keys to a new "
                                               "file (never over the input)"),
            self.export_dialog)
        self.squad_button = button(
            _("Open track in SQUAD lesson"), "kf_squad",
            _("Interpolate the selected track, keys as stored, by piecewise NLERP and SLERP, "
              "SQUAD and sign-unaware SQUAD"),
            self._open_in_squad)
        self.squad_button.setVisible(open_track is not None)
        actions.removeWidget(self.squad_button)  # it opens the second row
        actions = QtWidgets.QHBoxLayout()
        self._action_rows.addLayout(actions, 1)
        actions.addWidget(self.squad_button)
        self.runtimes_button = QtWidgets.QPushButton(_("Runtimes…"))
        self.runtimes_button.setObjectName("kf_runtimes")
        self.runtimes_button.setToolTip(_("Play every track with each runtime player and list "
                                          "which runtimes glitch where (docs/runtimes.md)"))
        self.runtimes_button.clicked.connect(self.show_runtimes)
        self.runtimes_button.setEnabled(False)
        actions.addWidget(self.runtimes_button)
        self._runtimes_dialog = None
        actions.addStretch(1)
        self.jump_box = QtWidgets.QCheckBox(_("jump to the lesson on select"))
        self.jump_box.setObjectName("kf_jump")
        self.jump_box.setToolTip(_("Clicking a segment also switches to the two-key lesson "
                                   "(arrow keys in the table only load it, so you can browse)"))
        self.jump_box.setChecked(True)
        actions.addWidget(self.jump_box)
        layout.addLayout(self._action_rows)
        self._arrange_timer = QtCore.QTimer(self)
        self._arrange_timer.setSingleShot(True)
        self._arrange_timer.setInterval(0)
        self._arrange_timer.timeout.connect(self._arrange_actions)

        self.message = QtWidgets.QLabel()
        self.message.setObjectName("kf_message")
        # Messages quote file names and audit text ("dot < 0"): never markup.
        self.message.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.message)

        model.events.connect("file", self.on_file)
        model.events.connect("tracks", self.on_tracks)
        model.events.connect("selection", self.on_selection)
        model.events.connect("message", self.on_message)
        # After the tab's own subscriptions: the navigator follows what they showed.
        self.navigator = FindingNavigator(self)
        self.on_file()
        self.on_message()

    def showEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().showEvent(ev)
        self._fit_timer.start()

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(ev)
        # Relaid out from the event loop, not inside Qt's delivery of the resize.
        self._arrange_timer.start()

    def eventFilter(self, obj, ev) -> bool:  # noqa: N802 - Qt API
        if ev.type() in (QtCore.QEvent.Type.FontChange, QtCore.QEvent.Type.StyleChange) or (
                obj in (self._split, self.segment_table)
                and ev.type() == QtCore.QEvent.Type.Resize):
            self._fit_timer.start()
        return super().eventFilter(obj, ev)

    def _fit_details(self) -> None:
        fit_text_below_table(self._split, self.segment_table, self.details,
                             top_pane=self._file_pane())

    def _file_pane(self) -> tuple[int, int] | None:
        """The dope sheet's pane as tall as its rows (a file of two tracks leaves no blank
        rows), up to :data:`FILE_PANE_SHARE` of the splitter, the rest going to the
        segments; and the least it can do with, :data:`MIN_TOP_ROWS` rows, where it
        lends the explanation its third line (Chinese at 1024x768 and 150 %)."""
        sizes = self._split.sizes()
        if len(sizes) != 3 or min(sizes) <= 0 or not self.dope_sheet.isVisible():
            return None
        top = sizes[0]
        tree = self.dope_sheet.tree
        chrome = top - tree.viewport().height()  # the tabs, the filter, the header, frames
        row = self.dope_sheet.row_height()
        rows = max(self.dope_sheet.shown_rows(), 1)
        least = chrome + MIN_TOP_ROWS * row
        most = max(int(FILE_PANE_SHARE * sum(sizes)), least)
        return min(chrome + rows * row, most), min(least, chrome + rows * row)

    def _arrange_actions(self) -> None:
        """The action rows side by side when they fit the width on offer, else stacked."""
        rows = self._action_rows
        one_row = sum(rows.itemAt(i).sizeHint().width() for i in range(rows.count())) \
            + rows.spacing() + self.layout().contentsMargins().left() \
            + self.layout().contentsMargins().right()
        # The width the window gives, not the tab's own (which its minimum can widen).
        room = self.parentWidget().width() if self.parentWidget() is not None else self.width()
        want = (QtWidgets.QBoxLayout.Direction.LeftToRight if one_row <= room
                else QtWidgets.QBoxLayout.Direction.TopToBottom)
        if rows.direction() != want:
            rows.setDirection(want)

    # ------------------------------------------------------------------ files
    def open(self, path, order: str | None = None) -> None:
        """Load ``path`` (``order``: the combo's choice when None).

        Raises KeyframeFileError or OSError; the previous file stays loaded.
        The file is read and audited on a worker thread, the window painting
        meanwhile.
        """
        self.model.load(path, order=order if order is not None else self.order_box.currentData(),
                        read=load_keyframes, run=run_off_thread)

    def export_dialog(self) -> None:
        default = self.model.default_export_path()
        if default is None:
            return
        suffix = default.suffix
        # The dialog does not ask about replacing: a glTF copy may also replace
        # its companion .bin, so one question below lists every file.
        path, _filter = QtWidgets.QFileDialog.getSaveFileName(
            self, _("Export fixed copy"), str(default),
            _("{kind} file (*{suffix})").format(kind=suffix[1:], suffix=suffix),
            options=QtWidgets.QFileDialog.Option.DontConfirmOverwrite)
        if not path:
            return
        out = Path(path)
        # Some dialogs return the name as typed; the copy keeps the input's type.
        if not out.suffix:
            out = out.with_suffix(suffix)
        try:
            existing = self.model.existing_outputs(out)
            if existing:
                names = "\n".join(str(p) for p in existing)
                answer = QtWidgets.QMessageBox.question(
                    self, _("Replace existing files?"),
                    _("These files exist already and would be replaced:\n{files}").format(
                        files=names))
                if answer != QtWidgets.QMessageBox.StandardButton.Yes:
                    return
            self.model.export(out, force=bool(existing))
        except (OSError, ValueError) as exc:
            QtWidgets.QMessageBox.warning(self, _("Could not export"), str(exc))

    # ------------------------------------------------------------------ user -> model
    def show_runtimes(self) -> RuntimeMatrixDialog | None:
        """The findings x runtimes table of the file as loaded (app/qt/runtime_matrix_view.py)."""
        kf = self.model.file
        if kf is None:
            return None
        self.model.say(_("Playing every track of {file} with each runtime…").format(
            file=kf.path.name))
        try:
            matrix = run_off_thread(runtime_matrix, kf)
        except (ValueError, KeyframeFileError) as exc:
            self.model.say(_("Cannot play {file} with the runtimes: {error}").format(
                file=kf.path.name, error=exc))
            return None
        if self._runtimes_dialog is None:
            self._runtimes_dialog = RuntimeMatrixDialog(self)
            self._runtimes_dialog.rowChosen.connect(self._runtime_row_chosen)
        dialog = self._runtimes_dialog
        dialog.show_matrix(matrix, kf.path.name)
        self.model.say(dialog.summary.text())
        dialog.show()
        dialog.raise_()
        return dialog

    def _runtime_row_chosen(self, track: int, key: int) -> None:
        if not self.navigator.go_to_segment(track, key):
            self.model.select_track(track)
            self.model.select_segment(key, lesson=False)

    def _open_in_squad(self) -> None:
        i = self.model.selected_track
        if i is None or self._open_track is None:
            return
        track = self.model.tracks[i]
        try:
            self._open_track(track.times, track.values, track.label)
        except ValueError as exc:
            # A broken key or times out of order: the lesson keeps its track.
            self.message.setText(_("Cannot open {track} in the SQUAD lesson: {error}").format(
                track=track.label, error=exc))
            self.message.setStyleSheet(f"color: {HIGHLIGHT['sign_flip']}; font-weight: bold;")

    def _track_chosen(self, current: QtCore.QModelIndex, _previous=None) -> None:
        if not self._syncing and current.isValid():
            self.model.select_track(current.row())

    def _track_cell_clicked(self, index: QtCore.QModelIndex) -> None:
        if index.column() == len(self.TRACK_HEADERS) - 1:  # the findings
            self.navigator.go_to_track(index.row())

    def _timeline_clicked(self, segment: int) -> None:
        # With the rig playing this track, a click moves the time to the
        # segment's middle and stays here; otherwise it loads the lesson.
        plays = self.rig_panel.plays_selected()
        track = self.model.selected_track
        if track is not None and self.navigator.go_to_segment(track, segment):
            if not plays and self.jump_box.isChecked() and self._jump is not None:
                self._jump()
            return
        self._segment_chosen(segment, jump=not plays)
        if plays:
            self.rig_panel.show_segment(segment)

    def _show_time(self) -> None:
        self.timeline.set_cursor(self.playback.time if self.rig_panel.plays_selected() else None)

    def _segment_chosen(self, row: int, *, jump: bool) -> None:
        if self._syncing or row < 0:
            return
        track = self.model.selected_track
        if jump and track is not None and self.navigator.go_to_segment(track, row):
            # A flagged row clicked: its finding is shown everywhere (time, joint,
            # dope sheet) before the lesson takes over, as the box asks.
            if self.jump_box.isChecked() and self._jump is not None:
                self._jump()
            return
        shown = self.model.select_segment(row)
        if shown and jump and self.jump_box.isChecked() and self._jump is not None:
            self._jump()

    # ------------------------------------------------------------------ model -> widgets
    def on_file(self) -> None:
        self._fill_tracks()
        self._shown_track = ()  # another file: redraw even an identical-looking track
        self.on_selection()

    def on_tracks(self) -> None:
        self._fill_tracks()
        self.on_selection()

    def _fill_tracks(self) -> None:
        m = self.model
        tracks = m.tracks

        def name(value, index) -> str:
            if value is not None and index is not None:
                return f"{value} (#{index})"
            return value if value is not None else (f"#{index}" if index is not None else "—")

        def cell(r: int, c: int) -> str:
            t = tracks[r]
            if c == 0:
                return name(t.animation, t.animation_index)
            if c == 1:
                return name(t.node_name, t.node_index)
            if c == 2:
                return t.interpolation
            if c == 3:
                return str(len(t))
            kinds = [f.kind for f in m.findings(r)]
            return describe_kinds(kinds) if kinds else _("none")

        def tint(r: int) -> str | None:
            family = primary(f.kind for f in m.findings(r))
            return ROW_TINT.get(family) if family else None

        def tip(r: int) -> str:
            return "\n\n".join(_("keys {keys}: {message}").format(
                keys=", ".join(map(str, f.keys)), message=_(f.message)) for f in m.findings(r))

        self.track_model.reset(len(tracks), cell, tint, tip)
        fit_columns(self.track_table)
        if m.file is not None:
            text = (_("<b>{file}</b> ({format}) — {summary} — fixed, not exported") if m.modified
                    else _("<b>{file}</b> ({format}) — {summary}"))
            self.file_label.setText(text.format(file=escape(m.file.path.name),
                                                format=m.file.format, summary=m.summary()))
            self.file_label.setToolTip(str(m.file.path))
        else:
            self.file_label.setText(escape(m.summary()) if tracks else _("no file open"))
        has_track = m.selected_track is not None
        self.fix_button.setEnabled(has_track)
        self.squad_button.setEnabled(has_track)
        self.runtimes_button.setEnabled(m.file is not None)
        self.fix_all_button.setEnabled(bool(tracks))
        self.export_button.setEnabled(m.file is not None)
        self.undo_button.setEnabled(m.can_undo)
        self.redo_button.setEnabled(m.can_redo)
        self.undo_button.setToolTip(_("Undo: {action}").format(action=m.undo_text)
                                    if m.can_undo else _("Nothing to undo"))
        self.redo_button.setToolTip(_("Redo: {action}").format(action=m.redo_text)
                                    if m.can_redo else _("Nothing to redo"))

    def _fill_segments(self) -> None:
        m = self.model
        i = m.selected_track
        track = m.tracks[i] if i is not None else None
        if track is self._shown_track:
            return
        self._shown_track = track
        if track is None:
            self.segment_model.reset(0, lambda r, c: "")
            self.timeline.set_track(None, None)
            return
        seg = m.segments(i)
        times = f".{time_decimals(track.times)}f"

        # One function per column: a cell formats its own number only (fitting the
        # columns reads 200 rows of each, at every change of track).
        columns = (
            lambda r: f"{r} → {r + 1}",
            lambda r: format_number(seg.t0[r], times),
            lambda r: format_number(seg.t1[r], times),
            lambda r: format_dot(seg.dot[r]),
            lambda r: format_number(seg.naive_deg[r], ".1f"),
            lambda r: format_number(seg.shortest_deg[r], ".1f"),
            seg.flag_text,
        )

        def cell(r: int, c: int) -> str:
            return columns[c](r)

        def tint(r: int) -> str | None:
            family = primary(f.kind for f in seg.findings[r])
            return ROW_TINT[family] if family else None

        def tip(r: int) -> str:
            # The columns hidden to make room (see FittedTable), then the findings.
            table = self.segment_table
            hidden = [_("{column} = {value}").format(column=_(self.SEGMENT_HEADERS[c][0]),
                                                   value=cell(r, c))
                      for c in table.optional if table.isColumnHidden(c)]
            return "\n\n".join([", ".join(hidden)] * bool(hidden)
                                 + [_(f.message) for f in seg.findings[r]])

        self.segment_model.reset(len(seg), cell, tint, tip)
        fit_columns(self.segment_table)
        self.timeline.set_track(track.times, seg)

    def _show_first_finding(self) -> None:
        """Scroll the segment table to the track's first flagged segment: the details
        name it ("keys 51 → 52") while the table stood at "0 → 1"."""
        track = self.model.selected_track
        if track is None or self.model.selected_segment is not None:
            return  # (called a turn late) a segment chosen since is shown already
        flagged = [r for r, found in enumerate(self.model.segments(track).findings) if found]
        if flagged:
            self.segment_table.scrollTo(self.segment_model.index(flagged[0], 0),
                                        QtWidgets.QAbstractItemView.ScrollHint.PositionAtCenter)

    def on_selection(self) -> None:
        m = self.model
        self._fill_segments()
        self._syncing = True
        try:
            for table, row in ((self.track_table, m.selected_track),
                               (self.segment_table, m.selected_segment)):
                sel = table.selectionModel()
                if row is None:
                    sel.clearSelection()
                    sel.setCurrentIndex(QtCore.QModelIndex(),
                                        QtCore.QItemSelectionModel.SelectionFlag.NoUpdate)
                    if table is self.segment_table:
                        # After the table's layout: a table not yet shown scrolls nowhere.
                        QtCore.QTimer.singleShot(0, self._show_first_finding)
                else:
                    index = table.model().index(row, 0)
                    sel.setCurrentIndex(index, QtCore.QItemSelectionModel.SelectionFlag
                                        .ClearAndSelect | QtCore.QItemSelectionModel
                                        .SelectionFlag.Rows)
                    table.scrollTo(index)
        finally:
            self._syncing = False
        self.timeline.set_selected(m.selected_segment)
        self.fix_button.setEnabled(m.selected_track is not None)
        self.squad_button.setEnabled(m.selected_track is not None)
        self._fill_details()
        self._show_time()

    def _set_details(self, html: str) -> None:
        # Formulas of the findings ("dot(q14, q15) = -0.9948 < 0") never break inside a line.
        self.details.setHtml(glue_formulas(html))
        self._fit_timer.start()

    def _fill_details(self) -> None:
        m = self.model
        if m.selected_track is None:
            self._set_details("<p>" + (_("No track selected.") if m.file else
                                          _("Open a keyframe file (button above, File menu, or "
                                            "drop it on the window) to audit its rotation "
                                            "keys.")) + "</p>")
            return
        track = m.tracks[m.selected_track]
        if m.selected_segment is None:
            findings = m.findings(m.selected_track)
            head = "<p>" + _("<b>{track}</b>: {n} keys, {interpolation}.").format(
                track=escape(track.label), n=len(track), interpolation=track.interpolation) + "</p>"
            if not findings:
                self._set_details(head + "<p>" + _("No findings: every segment turns the "
                                                      "short way for naive and shortest-arc "
                                                      "blends alike.") + "</p>")
                return
            body = "".join("<p>" + _("<b>{kind}</b> (keys {keys}): {message}").format(
                kind=kind_name(f.kind), keys=", ".join(map(str, f.keys)),
                message=escape(_(f.message))) + "</p>" for f in findings[:DETAILS_LIMIT])
            if len(findings) > DETAILS_LIMIT:
                body += "<p>" + _("… and {n} more: the flags column and the timeline show "
                                  "them all.").format(n=len(findings) - DETAILS_LIMIT) + "</p>"
            self._set_details(head + body + "<p><i>" + _("Select a segment to load its keys "
                                                            "into the two-key lesson.")
                                 + "</i></p>")
            return
        s = m.selected_segment
        seg = m.segments(m.selected_track)
        head = "<p>" + _("<b>Segment {i} → {j}</b> of {track}: dot {dot}, naive {naive}°, "
                         "shortest {shortest}°.").format(
            i=s, j=s + 1, track=escape(track.label), dot=format_dot(seg.dot[s]),
            naive=format_number(seg.naive_deg[s], ".1f"),
            shortest=format_number(seg.shortest_deg[s], ".1f")) + "</p>"
        body = "".join("<p>" + _("<b>{kind}</b>: {message}").format(
            kind=kind_name(f.kind), message=escape(_(f.message))) + "</p>"
            for f in seg.findings[s]) or "<p>" + _("No findings on this segment.") + "</p>"
        self._set_details(head + body)

    def on_message(self) -> None:
        msg = self.model.message
        self.message.setText(msg.text)
        self.message.setStyleSheet(
            f"color: {HIGHLIGHT['sign_flip']}; font-weight: bold;" if msg.error else "")
        # With a file open, a report of what an action did goes to the window's
        # status bar: a line of its own here cost the details box and the plot
        # beside the scene their last readable rows at 1024x768 and 150 %
        # (docs/gui.md). Errors, and the hint of an empty tab, stay in the tab.
        in_tab = self._status is None or msg.error or self.model.file is None
        self.message.setVisible(in_tab and bool(msg.text))
        if not in_tab and msg.text:
            self._status(msg.text)


def create(window) -> QtWidgets.QWidget:
    """The tab: its model loads selected segments into the window's lesson state."""
    model = KeyframesModel(window.state)

    def open_track(times, keys, name) -> None:
        # Looked up when clicked: the tabs are built after this one.
        if "squad" not in window.views:
            raise ValueError(_("this build has no SQUAD lesson"))
        window.views["squad"].load_track(times, keys, name)
        window.show_view("squad")

    def lesson_opened(index: int) -> None:
        # A finding shown with N waits for the lesson to be opened to load its keys.
        if model.lesson_pending and window.tabs.widget(index).objectName() == "main":
            model.show_in_lesson()

    window.tabs.currentChanged.connect(lesson_opened)
    return KeyframesView(model, jump=lambda: window.show_view("main"),
                         open_file=lambda: window.open_keyframes_dialog(),
                         open_track=open_track,
                         status=lambda text: window.status.showMessage(text))
