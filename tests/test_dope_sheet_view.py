"""The Keyframes tab as a finder: the dope sheet's marks (state and pixels), N walking the findings.

Under the suite's Xvfb (tests/conftest.py), in the real main window on the
Keyframes tab at 1400x900. Oracles: ``quatlab check --json`` for what and
where each finding is (joint, keys, times), the drawn key ticks of a row as
the ruler its marks are read against, the scene's own projection for the
joint it centres on, and the tables' geometry for what is in view.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from bvh_oracle import MOCAPBANK
from PyQt6 import QtCore, QtWidgets
from test_keyframes_view import colour_mask, grab_rgb
from test_rig_view import open_rig

from quatlab.app.commands import cli
from quatlab.app.qt import keyframes_view as KV
from quatlab.app.qt import timeline as TL
from quatlab.rendering import themes

DATA = Path(__file__).resolve().parent / "data" / "gltf"
ROBOT = DATA / "RobotExpressive.glb"
FOX = DATA / "Fox.glb"
TRUCK = DATA / "CesiumMilkTruck.glb"


@pytest.fixture
def window(keyframes_window):
    return keyframes_window  # conftest: the window with the Keyframes tab shown


@pytest.fixture
def view(window) -> KV.KeyframesView:
    return window.views["keyframes"]


def check_findings(path, capsys) -> list[dict]:
    """The findings as ``quatlab check --json`` reports them, each with its track's names."""
    assert cli.main(["check", str(path), "--json"]) in (0, 1)
    report = json.loads(capsys.readouterr().out)
    return [dict(f, animation_index=t["animation_index"], node=t["node"],
                 node_index=t["node_index"]) for t in report["tracks"] for f in t["findings"]]


def mark_of(sheet, finding: dict) -> int:
    """The sheet's mark for a finding of the report (by animation, node, kind and keys)."""
    (k,) = [k for k, m in enumerate(sheet.marks)
            if sheet.tracks[m.track].animation_index == finding["animation_index"]
            and sheet.tracks[m.track].node_index == finding["node_index"]
            and m.kind == finding["kind"] and list(m.keys) == finding["keys"]]
    return k


def tick_columns(rgb: np.ndarray, lane: QtCore.QRect, colour: str) -> np.ndarray:
    """Columns of a lane's bottom pixel row drawn in the key ticks' colour."""
    row = rgb[lane.bottom() - 1, lane.left():lane.right() + 1]
    return np.flatnonzero(colour_mask(row[None], colour, tol=12)[0]) + lane.left()


# --------------------------------------------------------------------------- marks


def test_the_playhead_never_covers_a_time_label(qtbot):
    """At t = 0 the header's playhead triangle sat on the foot of the "0 s" label, no
    pixel between them: the two read as one blot. A clear gap of 2 px at least."""
    from quatlab.app.model.keyframes_model import KeyframesModel
    from quatlab.app.qt.dope_sheet import LANE, DopeSheetView

    model = KeyframesModel()
    model.load(ROBOT)
    sheet_view = DopeSheetView()
    qtbot.addWidget(sheet_view)
    sheet_view.resize(700, 300)
    sheet_view.show()
    qtbot.waitExposed(sheet_view)
    sheet = model.dope_sheet()
    sheet_view.set_sheet(sheet)
    header = sheet_view.header
    x0, width = header.sectionViewportPosition(LANE), header.sectionSize(LANE)

    def lane_header() -> np.ndarray:
        header.viewport().repaint()
        return grab_rgb(header.viewport())[:, x0:x0 + width].astype(int)

    sheet_view.set_cursor(None, None)
    plain = lane_header()
    # Ink: off each row's commonest colour (the header's face is a vertical gradient).
    face = np.array([_row_mode(r) for r in plain])
    ink = np.abs(plain - face[:, None, :]).sum(axis=-1) > 30
    for t in (sheet.start, 1.0, 2.0):
        sheet_view.set_cursor(t, None)
        moved = np.any(lane_header() != plain, axis=-1)
        rows, cols = np.nonzero(moved)
        assert len(rows) >= 20, t  # the playhead is drawn
        top = rows.min()
        # The label over the playhead: the ink above it in the playhead's columns.
        above = ink[:top, cols.min():cols.max() + 1]
        label_rows = np.flatnonzero(above.any(axis=1))
        assert len(label_rows) >= 6, t  # a label is there (the tick's, "0 s" at the start)
        assert top - label_rows.max() - 1 >= 2, (t, top, label_rows.max())



@pytest.mark.parametrize("theme", ["light", "dark", "high-contrast"])
def test_a_sign_flips_bar_leaves_the_ticks_of_its_keys_whole(qtbot, theme):
    """The truck's sign flip spans keys 6 px apart in a narrow lane (the Keyframes tab
    at 1024x768 and 150 %): its bar was drawn over the key ticks at its two ends, down
    to a pixel or two of each. Each key's tick is as tall as the ticks of the row's
    unflagged keys."""
    from quatlab.app.model.keyframes_model import KeyframesModel
    from quatlab.app.qt.dope_sheet import DopeSheetView
    from quatlab.app.qt.theme_menu import apply_theme

    model = KeyframesModel()
    model.load(TRUCK)
    host = QtWidgets.QWidget()
    qtbot.addWidget(host)
    sheet_view = DopeSheetView(host)
    sheet_view.resize(420, 200)
    host.resize(420, 200)
    host.show()
    qtbot.waitExposed(host)
    apply_theme(host, theme)
    sheet = model.dope_sheet()
    sheet_view.set_sheet(sheet)
    sheet_view.set_cursor(None, None)
    QtWidgets.QApplication.processEvents()
    (mark,) = [m for m in sheet.marks if m.kind == "sign_flip" and m.track == 0]
    track = sheet.tracks[mark.track]
    rgb = grab_rgb(sheet_view)
    lane = sheet_view.row_rect(mark.track)
    muted = themes.current().muted
    ticks = tick_columns(rgb, lane, muted)
    assert len(ticks) == len(track.times)
    cell = rgb[lane.top():lane.bottom() + 1, lane.left():lane.right() + 1]
    bar = np.flatnonzero(colour_mask(cell, themes.current().findings["sign_flip"]).any(axis=0))
    assert 4 <= len(bar) <= 10, len(bar)  # the case: a bar a few pixels wide

    def tick_height(x: int) -> int:
        return int(colour_mask(rgb[lane.top():lane.bottom() + 1, x][None], muted, tol=12).sum())

    order = np.argsort(track.times)
    flagged = [int(ticks[np.flatnonzero(order == k)[0]]) for k in mark.keys]
    whole = max(tick_height(int(x)) for x in ticks)
    assert whole >= 3
    assert [tick_height(x) for x in flagged] == [whole, whole], (flagged, whole)

def _row_mode(row: np.ndarray) -> np.ndarray:
    colours, counts = np.unique(row, axis=0, return_counts=True)
    return colours[np.argmax(counts)]



def test_every_finding_of_check_is_marked_at_its_time_on_its_joints_row(view, capsys):
    findings = check_findings(ROBOT, capsys)
    assert len(findings) == 15
    open_rig(view, ROBOT)
    dope = view.dope_sheet
    sheet = dope.sheet
    assert dope.only_box.isChecked()  # the file has findings: only the flagged rows
    colour = themes.current().findings["sign_flip"]
    for f in findings:
        k = mark_of(sheet, f)
        mark = sheet.marks[k]
        # The model: the mark's row is shown, names the joint, and holds the mark.
        track = sheet.tracks[mark.track]
        assert (track.node_name, track.animation_index) == (f["node"], f["animation_index"])
        assert (mark.t0, mark.t1) == tuple(f["times"])
        assert k in dope.drawn_marks(sheet.row_of_track[mark.track])
        # The pixels: bring the row into view, then read the mark off the screen.
        dope.set_current(None)
        dope.set_cursor(None, None)  # the time line would hide the first key's tick
        dope._reveal(sheet.row_of_track[mark.track])
        QtWidgets.QApplication.processEvents()
        rgb = grab_rgb(dope)
        lane = dope.row_rect(mark.track)
        assert lane is not None
        ys, xs = np.nonzero(colour_mask(rgb[lane.top():lane.bottom() + 1,
                                            lane.left():lane.right() + 1], colour))
        xs = xs + lane.left()
        # The key ticks of the row are the ruler: the mark lies between the ticks of
        # its two keys, and the ticks are where a linear time axis puts the keys.
        ticks = tick_columns(rgb, lane, themes.current().muted)
        times = track.times
        fit = np.polyfit(times, ticks, 1) if len(ticks) == len(times) else None
        assert fit is not None, (len(ticks), len(times))
        assert np.max(np.abs(np.polyval(fit, times) - ticks)) <= 1.0
        x0, x1 = np.polyval(fit, [mark.t0, mark.t1])
        near = (xs >= x0 - 1.5) & (xs <= x1 + 1.5)
        assert near.sum() >= 20, f  # a bar of the segment's width, the row's height
        assert xs[near].min() <= x0 + 1.5 and xs[near].max() >= x1 - 1.5


def test_n_walks_all_fifteen_findings_in_order_and_shows_each(window, view, qtbot, capsys):
    findings = check_findings(ROBOT, capsys)
    open_rig(view, ROBOT)
    # Shortcuts go to the active window. (A bare qtbot.waitActive(window) call
    # only builds its context manager and waits for nothing: in 1 run of 7 the
    # first N went to the tree's keyboard search instead.)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    sheet = view.dope_sheet.sheet
    rig = view.playback.rig
    # The order the walk promises: animation by animation, then time, then row.
    want = sorted(findings, key=lambda f: (f["animation_index"], f["times"][0],
                                           sheet.row_of_track[sheet.marks[mark_of(sheet, f)]
                                                              .track]))
    view.dope_sheet.tree.setFocus()
    QtWidgets.QApplication.processEvents()
    seen = []
    for f in want:
        qtbot.keyClick(view.dope_sheet.tree, QtCore.Qt.Key.Key_N)
        QtWidgets.QApplication.processEvents()
        k = view.navigator.current
        assert k == mark_of(sheet, f)
        seen.append(k)
        mark = sheet.marks[k]
        m = view.model
        assert m.selected_track == mark.track and m.selected_segment == f["keys"][0]
        # The rig plays the finding's clip, at a time inside the segment.
        assert view.playback.animation_index == f["animation_index"]
        t0, t1 = f["times"]
        assert t0 <= view.playback.time <= t1
        assert view.timeline._cursor.isVisible()
        # The segment's row is in view in the segment table.
        table = view.segment_table
        rect = table.visualRect(table.model().index(f["keys"][0], 0))
        assert table.viewport().rect().contains(rect), f
        # The joint is selected in 3D and the joint tree, and the view framed on it
        # and what hangs from it (RigPanel.frame_joint): the joint is in sight.
        node = int(rig.rig_index[f["node_index"]])
        assert view.playback.selected_node == node
        assert view.rig_panel.node_list.current_node() == node
        scene = view.rig_panel.scene
        x, y = scene.project(view.playback.frame().spec.world[[node], :3, 3])[0]
        assert 0.03 * scene.width() < x < 0.97 * scene.width(), (x, scene.width(), f)
        assert 0.03 * scene.height() < y < 0.97 * scene.height(), (y, scene.height(), f)
        assert view.dope_sheet.position_label.text() == f"{len(seen)} / 15"
        assert view.dope_sheet.position_label.toolTip() == f"finding {len(seen)} of 15"
    assert sorted(seen) == list(range(15))
    # The sixteenth press goes round to the first; Shift+N back to the last.
    qtbot.keyClick(view.dope_sheet.tree, QtCore.Qt.Key.Key_N)
    assert view.navigator.current == seen[0]
    assert "first finding" in view.model.message.text
    qtbot.keyClick(view.dope_sheet.tree, QtCore.Qt.Key.Key_N,
                   QtCore.Qt.KeyboardModifier.ShiftModifier)
    assert view.navigator.current == seen[-1]


def test_the_buttons_walk_too_and_the_window_menu_lends_its_n(view, window, qtbot):
    view.open(ROBOT)
    QtWidgets.QApplication.processEvents()
    qtbot.mouseClick(view.dope_sheet.next_button, QtCore.Qt.MouseButton.LeftButton)
    first = view.navigator.current
    qtbot.mouseClick(view.dope_sheet.next_button, QtCore.Qt.MouseButton.LeftButton)
    assert view.navigator.current == first + 1
    qtbot.mouseClick(view.dope_sheet.previous_button, QtCore.Qt.MouseButton.LeftButton)
    assert view.navigator.current == first
    assert "(N)" in view.dope_sheet.next_button.toolTip()
    assert "(Shift+N)" in view.dope_sheet.previous_button.toolTip()
    # View > Chains: NLERP (the two-key lesson's N) is off here, on again in the lesson.
    nlerp = next(a for a in window.findChildren(type(window.undo_action))
                 if a.shortcut().toString() == "N")
    assert not nlerp.isEnabled()
    window.show_view("main")
    assert nlerp.isEnabled()


def test_a_click_on_a_mark_goes_to_its_finding(view, qtbot):
    open_rig(view, ROBOT)
    dope, sheet = view.dope_sheet, view.dope_sheet.sheet
    k = next(k for k, m in enumerate(sheet.marks) if sheet.tracks[m.track].node_name == "Head")
    dope._reveal(sheet.row_of_track[sheet.marks[k].track])
    QtWidgets.QApplication.processEvents()
    rect = dope.mark_rect(k)
    pos = dope.tree.viewport().mapFrom(dope, rect.center())
    qtbot.mouseClick(dope.tree.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=pos)
    mark = sheet.marks[k]
    assert view.navigator.current == k
    assert view.model.selected_segment == mark.segment
    assert mark.t0 <= view.playback.time <= mark.t1
    # Elsewhere in the lane: the joint and the time there, no finding.
    lane = dope.row_rect(mark.track)
    pos = dope.tree.viewport().mapFrom(dope, QtCore.QPoint(lane.left() + 8, lane.center().y()))
    qtbot.mouseClick(dope.tree.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=pos)
    assert view.playback.time < mark.t0


def test_the_tables_timeline_and_joint_tree_go_to_findings(view, qtbot):
    open_rig(view, ROBOT)
    sheet = view.dope_sheet.sheet
    m = view.model
    arm = next(i for i, t in enumerate(m.tracks)
               if t.animation == "Dance" and t.node_name == "LowerArm.L")
    first = sheet.rows[sheet.row_of_track[arm]].marks[0]
    # The track table's findings cell.
    view.file_tabs.setCurrentWidget(view.track_table)
    QtWidgets.QApplication.processEvents()
    table = view.track_table
    index = table.model().index(arm, len(KV.KeyframesView.TRACK_HEADERS) - 1)
    table.scrollTo(index)
    qtbot.mouseClick(table.viewport(), QtCore.Qt.MouseButton.LeftButton,
                     pos=table.visualRect(index).center())
    assert view.navigator.current == first and m.selected_track == arm
    # The timeline's bar of another of the arm's flips.
    second = sheet.rows[sheet.row_of_track[arm]].marks[2]
    seg = sheet.marks[second].segment
    bar = view.timeline.bar_rect(seg)
    qtbot.mouseClick(view.timeline.viewport(), QtCore.Qt.MouseButton.LeftButton,
                     pos=view.timeline.viewport().mapFrom(view.timeline, bar.center()))
    assert view.navigator.current == second
    assert sheet.marks[second].t0 <= view.playback.time <= sheet.marks[second].t1
    # The joint tree's count of another joint: its first finding.
    head = next(i for i, t in enumerate(m.tracks)
                if t.animation == "Dance" and t.node_name == "Head")
    joints = view.rig_panel.node_list
    node = int(view.playback.rig.rig_index[m.tracks[head].node_index])
    assert joints.marked()[node] == 1
    item = joints.item_of(node)
    joints.scrollToItem(item)
    rect = joints.visualItemRect(item)
    x = joints.header().sectionPosition(1) + 4
    qtbot.mouseClick(joints.viewport(), QtCore.Qt.MouseButton.LeftButton,
                     pos=QtCore.QPoint(x, rect.center().y()))
    assert m.selected_track == head
    assert view.navigator.current == sheet.rows[sheet.row_of_track[head]].marks[0]


def test_the_joint_tree_marks_flagged_joints_and_gives_names_room(view, capsys):
    findings = check_findings(ROBOT, capsys)
    open_rig(view, ROBOT)
    joints = view.rig_panel.node_list
    rig = view.playback.rig
    dance = [f for f in findings if f["animation_index"] == 0]
    want = {}
    for f in dance:
        node = int(rig.rig_index[f["node_index"]])
        want[node] = want.get(node, 0) + 1
    assert joints.marked() == want
    # Names are not cut to a few letters: the tree is at least as wide as it asks.
    assert joints.width() >= joints.preferred_width() - 2
    item = joints.item_of(int(rig.rig_index[next(f["node_index"] for f in dance
                                                 if f["node"] == "UpperArm.L")]))
    assert "UpperArm.L" in item.toolTip(0) and "sign flip" in item.toolTip(0)


# --------------------------------------------------------------------------- rows


def test_fox_has_all_sixty_rows_reachable_by_scrolling(view):
    view.open(FOX)
    QtWidgets.QApplication.processEvents()
    dope = view.dope_sheet
    assert not dope.only_box.isChecked()  # nothing flagged: every row
    sheet = dope.sheet
    tree = dope.tree
    rows = [r for r in range(len(sheet.rows)) if sheet.rows[r].track is not None]
    assert len(rows) == 60
    assert tree.verticalScrollBar().isVisible()  # more rows than room: the bar shows it
    for r in rows:
        index = dope._items[r].index()
        tree.scrollTo(index)
        assert tree.viewport().rect().contains(tree.visualRect(index)), sheet.rows[r].label


def test_the_filter_keeps_matching_joints_and_their_way_up(view, qtbot):
    view.open(FOX)
    QtWidgets.QApplication.processEvents()
    dope = view.dope_sheet
    qtbot.keyClicks(dope.filter_box, "leg")
    QtWidgets.QApplication.processEvents()
    shown = {r: ctx for r, ctx in dope._shown}
    names = [dope.sheet.rows[r].label for r, ctx in shown.items()
             if not ctx and dope.sheet.rows[r].track is not None]
    assert names and all("leg" in n.lower() for n in names)
    assert dope.item_model.rowCount() == 3  # the three clips, each with its leg joints
    qtbot.keyClicks(dope.filter_box, "no such joint")
    assert dope.item_model.rowCount() == 0
    dope.filter_box.clear()
    assert len(dope._shown) == 63


def test_only_rows_with_findings_can_be_switched_off(view, qtbot):
    view.open(ROBOT)
    QtWidgets.QApplication.processEvents()
    dope = view.dope_sheet
    assert "7 of 147" in dope.only_box.text()
    tracks = lambda: sum(1 for r, _c in dope._shown if dope.sheet.rows[r].track is not None)  # noqa: E731
    assert tracks() == 7 + 5  # the flagged joints and the joints they hang from
    dope.only_box.setChecked(False)
    assert tracks() == 147


# --------------------------------------------------------------------------- BVH and colours


def test_bvh_euler_findings_take_their_own_colours_not_the_warning_ones(view):
    view.open(MOCAPBANK)
    QtWidgets.QApplication.processEvents()
    m = view.model
    knee = next(i for i, t in enumerate(m.tracks) if t.node_name == "RightKnee")
    m.select_track(knee)
    QtWidgets.QApplication.processEvents()
    seg = m.segments(knee)
    # The triple switch between frames 129 and 130 is the segment's, not a key's.
    assert seg.families[129] == "euler_flip" and not seg.key_flagged[129 - 1]
    assert seg.key_families[129] == "gimbal"
    bar = view.timeline.bar_rect(129)
    rgb = grab_rgb(view.timeline)[bar.top():bar.bottom() + 1]  # the strip, not the axis text
    assert colour_mask(rgb, TL.FAMILY_COLOURS["euler_flip"]).any()
    assert colour_mask(grab_rgb(view.timeline), TL.FAMILY_COLOURS["gimbal"]).any()
    for other in ("half_turn", "broken", "sign_flip"):
        assert not colour_mask(rgb, TL.FAMILY_COLOURS[other]).any(), other
    assert not colour_mask(rgb, TL.HIGHLIGHT["warning"]).any()
    # The legend names every family drawn.
    legend = view.legend.text()
    for name in ("Euler wrap", "Euler flip", "gimbal lock", "sign flip", "half turn"):
        assert name in legend


def test_a_bvh_sign_flip_and_wrap_at_one_frame_both_show_in_the_dope_sheet(view):
    view.open(MOCAPBANK)
    QtWidgets.QApplication.processEvents()
    dope = view.dope_sheet
    sheet = dope.sheet
    assert sheet.two_lanes
    hip = next(i for i, t in enumerate(sheet.tracks) if t.node_name == "LeftHip")
    flip, wrap = (next(k for k in sheet.rows[sheet.row_of_track[hip]].marks
                       if sheet.marks[k].kind == kind) for kind in ("sign_flip", "euler_wrap"))
    assert sheet.marks[flip].keys == sheet.marks[wrap].keys == (210, 211)
    dope._reveal(sheet.row_of_track[hip])
    QtWidgets.QApplication.processEvents()
    rgb = grab_rgb(dope)
    colours = themes.current().findings
    for k, family in ((flip, "sign_flip"), (wrap, "euler_wrap")):
        r = dope.mark_rect(k)
        box = rgb[r.top():r.bottom() + 1, r.left():r.right() + 1]
        assert colour_mask(box, colours[family]).mean() > 0.5, family
    assert dope.mark_rect(flip).bottom() <= dope.mark_rect(wrap).top() + 1  # lanes


@pytest.mark.parametrize("theme", ["dark", "high-contrast"])
def test_the_marks_take_the_themes_colours(window, view, theme):
    from quatlab.app.qt.theme_menu import apply_theme

    view.open(TRUCK)
    apply_theme(window, theme)
    QtWidgets.QApplication.processEvents()
    dope = view.dope_sheet
    k = 0
    r = dope.mark_rect(k)
    box = grab_rgb(dope)[r.top():r.bottom() + 1, r.left():r.right() + 1]
    assert colour_mask(box, themes.THEMES[theme].findings["sign_flip"]).mean() > 0.5


def test_n_leaves_the_lesson_alone_until_it_is_opened(window, view):
    # Redrawing the hidden two-key lesson at every N blocked the window; the lesson
    # gets the finding's keys, as stored, when it is opened.
    view.open(ROBOT)
    QtWidgets.QApplication.processEvents()
    lesson = window.state
    before = lesson.endpoints
    view.navigator.step(1)
    mark = view.dope_sheet.sheet.marks[view.navigator.current]
    assert lesson.endpoints is before and view.model.lesson_pending
    window.show_view("main")
    track = view.model.tracks[mark.track]
    assert np.array_equal(lesson.entered(0), track.values[mark.segment])
    assert np.array_equal(lesson.entered(1), track.values[mark.segment + 1])
    assert lesson.t == 0.5 and not view.model.lesson_pending


def test_the_keyboard_reaches_findings_from_the_dope_sheet_and_the_joint_tree(view, qtbot):
    open_rig(view, ROBOT)
    dope, sheet = view.dope_sheet, view.dope_sheet.sheet
    arm = next(i for i, t in enumerate(sheet.tracks)
               if t.animation == "Dance" and t.node_name == "LowerArm.L")
    dope.tree.setFocus()
    dope.tree.setCurrentIndex(dope._items[sheet.row_of_track[arm]].index())
    qtbot.keyClick(dope.tree, QtCore.Qt.Key.Key_Return)
    assert view.navigator.current == sheet.rows[sheet.row_of_track[arm]].marks[0]
    # Up a row: the joint above, then Enter on the joint tree's flagged head.
    qtbot.keyClick(dope.tree, QtCore.Qt.Key.Key_Up)
    assert view.model.selected_track != arm
    head = next(i for i, t in enumerate(sheet.tracks)
                if t.animation == "Dance" and t.node_name == "Head")
    joints = view.rig_panel.node_list
    node = int(view.playback.rig.rig_index[sheet.tracks[head].node_index])
    joints.setFocus()
    joints.setCurrentItem(joints.item_of(node))
    qtbot.keyClick(joints, QtCore.Qt.Key.Key_Return)
    assert view.navigator.current == sheet.rows[sheet.row_of_track[head]].marks[0]


def test_tracks_without_a_rig_walk_too(view, tmp_path):
    # A CSV track: no rig, no hierarchy; N selects the flagged segment and the dope
    # sheet's time line stands in the segment's middle.
    path = tmp_path / "flip.csv"
    path.write_text("time,w,x,y,z\n0,1,0,0,0\n0.5,0.7071,0,0,0.7071\n1,-0.7071,0,0,-0.7071\n"
                    "1.5,0,0,0,-1\n")
    view.open(path, order="wxyz")
    QtWidgets.QApplication.processEvents()
    sheet = view.dope_sheet.sheet
    assert [r.depth for r in sheet.rows] == [0] and not sheet.grouped
    flips = [m for m in sheet.marks if m.kind == "sign_flip"]
    assert len(flips) == 1
    view.navigator.step(1)
    mark = sheet.marks[view.navigator.current]
    assert view.model.selected_segment == mark.segment
    assert view.dope_sheet.cursor_time == pytest.approx(mark.time)


@pytest.mark.parametrize("zoom", [1.0, 1.5])
@pytest.mark.parametrize("lane", [130, 300, 600])
def test_the_time_header_labels_as_many_times_as_fit(qapp, zoom, lane):
    """Spaced for "00.00 s" each, RobotExpressive's 3.33-s clip in a 130-px lane at
    150 % showed "0 s" alone. Now every label that fits is drawn, none overlapping
    (centred on its tick, the first from the lane's edge), with the unit on the first."""
    from PyQt6 import QtGui

    from quatlab.app.qt.dope_sheet import labelled_ticks

    font = QtGui.QFont(qapp.font())
    font.setPointSizeF(font.pointSizeF() * zoom)
    metrics = QtGui.QFontMetricsF(font)
    ticks = labelled_ticks(0.0, 3.3333, lane, metrics.horizontalAdvance)
    assert ticks[0] == (0.0, "0 s")
    # "0 s" and "2" in the narrowest lane (it was "0 s" alone), more where there is room.
    assert len(ticks) >= (2 if lane * 1.0 / zoom < 100 else 3), ticks
    spans = []
    for n, (t, text) in enumerate(ticks):
        x, w = t / 3.3333 * lane, metrics.horizontalAdvance(text)
        left = 0.0 if n == 0 else x - w / 2
        spans.append((left, left + w))
    assert all(b[0] - a[1] >= 12.0 - 1e-9 for a, b in zip(spans, spans[1:], strict=False)), spans
