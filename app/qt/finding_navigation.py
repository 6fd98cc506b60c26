"""Going to a finding of the Keyframes tab from anywhere: dope sheet, tables, timeline, joints, N.

:class:`FindingNavigator` holds the file's
:class:`~quatlab.app.model.dope_sheet.DopeSheet` (made again when the file or
its keys change) and which finding is shown. Showing a finding
(:meth:`FindingNavigator.go_to`) does, in this order: select its track (the
rig switches to its animation and selects its joint), select its segment (the
segment table scrolls to the row; the two-key lesson gets the keys when it is
opened: redrawing a hidden lesson at every N blocked the window), put the
rig's time in the middle of the segment (on the key, for a key's finding),
frame the 3D view on the joint (:meth:`~quatlab.app.qt.rig_view.RigPanel.frame_joint`),
and outline the mark in the dope sheet.

N and Shift+N (and the dope sheet's buttons) walk the findings in the
sheet's order: animation by animation, in time order across all joints
(docs/keyframes.md, "Finding the findings"); from a segment without a finding, the walk continues
from the rig's time. A click on a finding does the same: a mark in the dope
sheet, a flagged row of the segment table or its bar in the timeline, the
findings cell of the track table, the count of a joint in the joint tree.
"""

from __future__ import annotations

import math

from PyQt6 import QtCore, QtGui

from quatlab.app.i18n import _
from quatlab.app.model.dope_sheet import DopeSheet
from quatlab.app.model.explain import sentences

__all__ = ["FindingNavigator", "NEXT_KEY", "PREVIOUS_KEY"]

NEXT_KEY = "N"
PREVIOUS_KEY = "Shift+N"


class FindingNavigator(QtCore.QObject):
    """See the module docstring; ``view`` is the tab's
    :class:`~quatlab.app.qt.keyframes_view.KeyframesView`."""

    def __init__(self, view) -> None:
        super().__init__(view)
        self.view = view
        self.model = view.model
        self.sheet: DopeSheet | None = None
        #: The mark shown (index into the sheet's marks), None when none is.
        self.current: int | None = None
        self._going = False
        dope = view.dope_sheet
        dope.findingChosen.connect(self.go_to)
        dope.stepRequested.connect(self.step)
        dope.trackChosen.connect(self._track_chosen)
        dope.timeChosen.connect(self._time_chosen)
        view.rig_panel.node_list.findingClicked.connect(self.go_to_track)
        for key, direction in ((NEXT_KEY, 1), (PREVIOUS_KEY, -1)):
            shortcut = QtGui.QShortcut(QtGui.QKeySequence(key), view)
            shortcut.setContext(QtCore.Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(lambda d=direction: self.step(d))
        self.model.events.connect("file", self.rebuild)
        self.model.events.connect("tracks", self.rebuild)
        self.model.events.connect("selection", self.on_selection)
        pb = view.playback
        for event in ("time", "animation", "rig"):
            pb.events.connect(event, self.show_cursor)
        self.rebuild()

    # ------------------------------------------------------------------ the sheet
    def rebuild(self) -> None:
        """The sheet of the current tracks and findings (another file, or keys fixed)."""
        self.sheet = self.model.dope_sheet()
        self.current = None
        self.view.dope_sheet.set_sheet(self.sheet)
        self.on_selection()

    def on_selection(self) -> None:
        """Follow the tab's selection: its track's row, and its segment's finding if any."""
        if self._going:
            return
        m = self.model
        self.view.dope_sheet.set_selected_track(m.selected_track)
        if self.sheet is not None and not self._current_matches():
            # Another segment or track: its finding (a flagged row clicked), or none.
            self.current = self.sheet.mark_of(m.selected_track, m.selected_segment)
        self.view.dope_sheet.set_current(self.current)
        self.show_cursor()

    def _current_matches(self) -> bool:
        if self.current is None or self.sheet is None:
            return False
        mark = self.sheet.marks[self.current]
        m = self.model
        return mark.track == m.selected_track and m.selected_segment in (None, mark.segment)

    # ------------------------------------------------------------------ going
    def go_to(self, k: int) -> None:
        """Show finding ``k`` everywhere (module docs)."""
        sheet = self.sheet
        if sheet is None or not 0 <= k < len(sheet.marks):
            return
        mark = sheet.marks[k]
        view, m = self.view, self.model
        panel = view.rig_panel
        # The 3D view posed once, at the end (a clip, a joint and a time change).
        with panel.scene.held():
            self._going = True
            try:
                self.current = k
                m.select_track(mark.track)
                if mark.segment is not None:
                    # The two-key lesson gets the keys when it is opened, not at every N.
                    m.select_segment(mark.segment, lesson=False)
            finally:
                self._going = False
            if panel.plays_selected() and math.isfinite(mark.time):
                view.playback.set_time(mark.time)
                node = m.tracks[mark.track].node_index
                if node is not None:
                    panel.frame_joint(node)
        self.on_selection()

    def go_to_track(self, track: int) -> None:
        """The first finding of ``track`` (its count clicked in the track table or joint tree)."""
        if self.sheet is None or track not in self.sheet.row_of_track:
            return
        marks = self.sheet.rows[self.sheet.row_of_track[track]].marks
        if marks:
            self.go_to(marks[0])

    def go_to_segment(self, track: int, segment: int) -> bool:
        """The finding of ``segment`` of ``track``, if it has one (True: shown)."""
        k = self.sheet.mark_of(track, segment) if self.sheet is not None else None
        if k is None:
            return False
        self.go_to(k)
        return True

    def step(self, direction: int) -> None:
        """The next (``direction`` 1) or previous (-1) finding in the walk's order."""
        sheet = self.sheet
        if sheet is None or not sheet.marks:
            self.model.say(_("This file has no findings to go to."))
            return
        m = self.model
        current = self.current if self._current_matches() else None
        walk = sheet.following if direction > 0 else sheet.preceding
        k = walk(current, track=m.selected_track, time=self._time())
        wrapped = current is not None and (k < current) == (direction > 0)
        self.go_to(k)
        if wrapped:  # said with what showing the finding said
            m.say(sentences(_("Back to the first finding.") if direction > 0
                            else _("Back to the last finding."), m.message.text))

    def _time(self) -> float | None:
        """Where the walk continues from without a finding shown: the rig's time, if it plays."""
        if self.view.rig_panel.plays_selected():
            return float(self.view.playback.time)
        return None

    # ------------------------------------------------------------------ clicks
    def _track_chosen(self, track: int) -> None:
        if track != self.model.selected_track:
            self.model.select_track(track)

    def _time_chosen(self, track: int, time: float) -> None:
        self._track_chosen(track)
        if self.view.rig_panel.plays_selected():
            self.view.playback.set_time(time)

    # ------------------------------------------------------------------ the time line
    def show_cursor(self) -> None:
        """The dope sheet's time line: the rig's time in its animation's rows."""
        sheet, view = self.sheet, self.view
        if sheet is None:
            view.dope_sheet.set_cursor(None, None)
            return
        m = self.model
        if view.rig_panel.plays_selected():
            group = sheet.rows[sheet.row_of_track[m.selected_track]].group
            view.dope_sheet.set_cursor(float(view.playback.time), group)
        elif self.current is not None:
            mark = sheet.marks[self.current]
            view.dope_sheet.set_cursor(mark.time, sheet.rows[sheet.row_of_track[mark.track]].group)
        else:
            view.dope_sheet.set_cursor(None, None)
