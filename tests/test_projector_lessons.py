"""Every lesson tab at projector scale: 1280x720, and 1024x768 at 150 % (a lecture hall).

One window per size; the tabs, presets and t are walked in it and measured
from the widgets (``lesson_checks``): the 3D view's share of the window,
chains inside their view and not dots, one framing across t, labels and tick
labels that do not collide, coinciding chains that both show, and one story
for the angle at t in the readouts, the text, the plots and the 3D labels.

A representative set runs here (every preset at t = 0.75, every t of each
tab's first preset, the cases the issue named); the whole tab x preset x t
matrix at both sizes is ``benchmarks/bench_projector_lessons.py``, which
reports the same checks and their time.
"""

from __future__ import annotations

import numpy as np
import pytest
from lesson_checks import (
    SIZES,
    TABS,
    TS,
    build_window,
    chain_boxes,
    check_case,
    check_story,
    check_sweep_fill,
    settle,
    show_case,
    zoom_kept,
)
from PyQt6 import QtCore, QtWidgets

pytestmark = pytest.mark.gl

#: Share of the window each tab's 3D view takes at least: two fifths at 1280x720
#: (it was 22-30 %); at 1024x768 and 150 % three tenths (13-24 % before, with the
#: plots below the view), but the two-key tab, whose endpoints and readouts
#: stand beside its stage, keeps its plots below (19.6 %).
LEAST_SHARE = {"1280x720": 0.39, "1024x768@150%": 0.3}
LEAST_SHARE_BESIDE_PANELS = {"1280x720": 0.39, "1024x768@150%": 0.19}
#: Cases the issue names, checked at both sizes.
NAMED = [("main", "q-to-minus-q", t) for t in TS] + [
    ("main", "small-1", 0.5), ("main", "half-turn", 0.0), ("main", "negated-20", 0.5),
    ("euler", "pitch90_lock", 0.5), ("wrap", "yaw_wrap", 0.0)]


def representative() -> list[tuple[str, str, float]]:
    """Every preset at t = 0.75, every t of each tab's first preset, the named cases."""
    cases = [(tab, p, 0.75) for tab, names in TABS.items() for p in names]
    cases += [(tab, names[0], t) for tab, names in TABS.items() for t in TS]
    return list(dict.fromkeys(cases + NAMED))


@pytest.fixture(scope="module", params=list(SIZES))
def sized_window(request, qapp):
    size, zoom = SIZES[request.param]
    win = build_window(size, zoom)
    yield request.param, win
    win.close()
    win.deleteLater()
    settle()


@pytest.fixture(autouse=True)
def _zoom_kept(request):
    if "sized_window" in request.fixturenames:
        zoom_kept(request.getfixturevalue("sized_window")[1])


def test_every_tab_reads_at_projector_scale(sized_window):
    name, win = sized_window
    problems = []
    by_preset: dict[tuple[str, str], list] = {}
    for tab, preset, t in representative():
        show_case(win, tab, preset, t)
        boxes = by_preset.setdefault((tab, preset), [])
        problems += [f"{name} {tab} {preset} t={t}: {p}" for p in check_case(win, tab, boxes)]
    for (tab, preset), boxes in by_preset.items():
        if tab == "main" and preset == "q-to-minus-q" or preset == TABS[tab][0]:
            # Swept over every t: together they fill the view.
            show_case(win, tab, preset, 0.5)
            problems += [f"{name} {tab} {preset}: {p}"
                         for p in check_sweep_fill(win.views[tab].scene, boxes)]
    assert problems == [], "\n".join(problems)


def test_the_3d_view_takes_two_fifths_of_a_1280x720_window(sized_window):
    name, win = sized_window
    area = win.width() * win.height()
    for tab in TABS:
        win.show_view(tab)
        settle(8)
        scene = win.views[tab].scene.widget
        box = scene.visibleRegion().boundingRect()
        assert box.size() == scene.size(), (name, tab)  # none of it scrolled away
        least = (LEAST_SHARE_BESIDE_PANELS if tab == "main" else LEAST_SHARE)[name]
        assert box.width() * box.height() / area >= least, (name, tab, box)


def test_one_framing_across_t_and_a_new_one_per_preset(sized_window):
    _name, win = sized_window
    for tab, names in TABS.items():
        scene = win.views[tab].scene
        seen = []
        for t in TS:
            show_case(win, tab, names[0], t)
            params = scene.cameraParams()
            seen.append((params["distance"], params["elevation"], params["azimuth"],
                         (params["center"].x(), params["center"].y(), params["center"].z())))
        assert len(set(seen)) == 1, (tab, seen)
        show_case(win, tab, names[1], 0.5)
        settle(4)  # the new preset is framed a turn of the event loop later
        params = scene.cameraParams()
        scene.reset_camera()
        assert scene.cameraParams() == params, tab  # it is the new preset's framing


def test_q_to_minus_q_tells_one_story_with_nlerp_chains(sized_window):
    """At t = 0.75 naive NLERP's quaternion is -q0: the table read 360.00, the text
    "0.00°, not turned". Now every widget gives the path angle, 360, and the words."""
    _name, win = sized_window
    state = win.state
    show_case(win, "main", "q-to-minus-q", 0.75)
    state.set_chain_family("nlerp")
    settle()
    try:
        assert check_story(win, "main") == []
        assert win.readouts.cell("naive_nlerp", "angle").text() == "360.00"
        label = win.lesson.scene.angle_label("naive")
        assert label.startswith("360.0°") and "−q0" in label and "not turned" in label
        assert "not turned" in win.explanation_t.text()
    finally:
        state.set_chain_family("slerp")


def test_the_tab_bar_shows_every_title_and_the_explanation_panel_folds(sized_window):
    name, win = sized_window
    bar = win.tab_bar
    for i in range(bar.count()):
        assert bar.rect().contains(bar.tabRect(i)), (name, bar.tabText(i))
    assert bar.rows() == 1 if name == "1280x720" else bar.rows() <= 2
    # Below 1360 px the explanation gives its width to the lesson; F7 shows it.
    win.show_view("main")
    settle()
    left, right = win._side_panels
    assert left.isVisible() and not right.isVisible()
    win.panel_actions[1].trigger()
    settle()
    assert right.isVisible() and win.panel_actions[1].isChecked()
    win.panel_actions[1].trigger()
    settle()
    assert not right.isVisible()


def test_legend_entries_are_not_checkboxes(sized_window):
    """The ghosts' entry was an empty box, read as an unchecked checkbox while the
    ghosts were shown: it is a filled swatch now, and no legend label holds a box."""
    _name, win = sized_window
    note = win.lesson.ghosts_note.text()
    assert "□" not in note and "●" in note
    for label in win.findChildren(QtWidgets.QLabel):
        assert "□" not in label.text() and "☐" not in label.text(), label.text()
    # Nor a filled square: beside the toolbar's checkboxes it read as one more.
    for tab in ("squad", "engines", "blend"):
        entries = win.views[tab].legend.entries
        assert entries and all("●" in e.text() and "■" not in e.text() for e in entries), tab


def test_plots_fit_small_motions_and_keep_the_whole_turn_as_a_gauge(sized_window):
    _name, win = sized_window
    show_case(win, "main", "small-1", 0.5)
    plots = win.lesson.plots
    lo, hi = plots.plots["angle"].getViewBox().viewRange()[1]
    assert hi < 5.0  # a 1° turn fills its plot
    gauge = plots.angle_gauge()
    assert gauge is not None
    # The gauge's texts lie inside the plot and clear of the tick labels.
    box = plots.plots["angle"].getViewBox()
    for rect in gauge.label_rects():
        assert QtCore.QRectF(box.rect()).contains(rect)
    show_case(win, "main", "negated-20", 0.5)
    assert plots.plots["angle"].getViewBox().viewRange()[1][1] >= 360.0
    assert plots.angle_gauge() is None


#: Lesson tabs with plots (the S3 view has none; the six engines share the layout).
PLOT_TABS = (*TABS, "engines")
#: Text lines of height each plot's data area keeps at least: its two-line y title
#: then reads whole ("path angle (°)", "angle from the first key"), which is
#: checked on its own below. Stacked beside the 3D view on a short page the Euler
#: tab's plots, under a legend of four rows, are 5.7 lines (119 px at 21-px lines).
PLOT_LEAST_LINES = 5.5


def test_every_lessons_page_holds_its_plots_whole(sized_window):
    """At 1024x768 and 150 % the SQUAD keys and the engines' two editors pushed the
    plots to 49 px with titles cut to "p…" and the page scrolled (the engines'
    one-label legend also sideways); the blend's pose weights left its plots 99 px.
    The column of controls folds on a short page, the legend wraps per entry."""
    from quatlab.rendering.curve_plots import CurvePlots

    name, win = sized_window
    problems = []
    for tab in PLOT_TABS:
        win.show_view(tab)
        settle(8)
        page = win.tabs.currentWidget()
        if page.verticalScrollBar().isVisible() or page.horizontalScrollBar().isVisible():
            problems.append(f"{tab}: the page scrolls")
        line = page.widget().fontMetrics().height()
        plots = [p for p in page.findChildren(CurvePlots) if p.isVisible()]
        assert plots, tab
        # The checkboxes' own lines only: the "⟲ all" button took a line of its own.
        boxes = [b for b in plots[0].findChildren(QtWidgets.QCheckBox) if b.isVisible()]
        lines = {b.y() for b in boxes}
        row = plots[0]._checks_row.geometry().height()
        if row > len(lines) * (boxes[0].height() + 4) + 4:
            problems.append(f"{tab}: the legend row is {row} px for {len(lines)} line(s)")
        for item in plots[0].plots.values():
            height = item.getViewBox().height()
            title = item.getAxis("left").shown_title()
            if height < PLOT_LEAST_LINES * line:
                problems.append(f"{tab}: a plot {height:.0f} px tall ({line} px lines)")
            if "…" in title:
                problems.append(f"{tab}: y title cut to {title!r}")
    assert problems == [], f"{name}: " + "; ".join(problems)


def test_the_column_of_controls_folds_on_a_short_page_and_the_button_shows_it(sized_window):
    name, win = sized_window
    short = name != "1280x720"
    for tab, column in (("squad", "track_keys"), ("engines", "engines_endpoint0"),
                        ("blend", "weight_spin_0")):
        win.show_view(tab)
        settle(8)
        view = win.views[tab]
        button = view.findChild(QtWidgets.QToolButton, "controls_fold")
        control = view.findChild(QtWidgets.QWidget, column)
        assert button.isVisible() and view.folded() == short, (tab, name)
        assert control.isVisible() == (not short) == button.isChecked(), tab
        button.click()
        settle(8)
        try:
            assert control.isVisible() == short, tab
            win.resize(win.width(), win.height() - 1)  # the user's choice outlives a resize
            settle(8)
            assert control.isVisible() == short, tab
        finally:
            button.click()
            win.resize(win.width(), win.height() + 1)
            settle(8)
        assert control.isVisible() == (not short), tab


def _ink_rows(img) -> list[int]:
    """Pixels per row of ``img`` (a QImage) that differ from its commonest colour."""
    import numpy as np

    img = img.convertToFormat(img.Format.Format_RGB32)
    a = np.frombuffer(img.constBits().asstring(img.sizeInBytes()), np.uint8)
    a = a.reshape(img.height(), img.bytesPerLine() // 4, 4)[:, :img.width(), :3].astype(int)
    colours, counts = np.unique(a.reshape(-1, 3), axis=0, return_counts=True)
    ground = colours[counts.argmax()]
    return list((np.abs(a - ground).sum(axis=2) > 90).sum(axis=1))


def test_an_explanation_longer_than_its_room_stops_below_a_whole_line(sized_window):
    """At 1024x768 and 150 % the Euler, integration, wrap and engines explanations
    were cut through a line ("the angles jump, the rotation" lost its lower half).
    Where the text scrolls, the area's edge passes through the blank between two
    lines of the whole text as drawn."""
    name, win = sized_window
    checked, problems = 0, []
    for tab in PLOT_TABS:
        if tab == "main":
            continue  # its explanation is a side panel of its own
        win.show_view(tab)
        settle(8)
        area = win.views[tab].explanation_area
        label = area.widget()
        shown = area.viewport().height()
        if label.height() <= shown:
            continue
        area.verticalScrollBar().setValue(0)
        ink = _ink_rows(label.grab().toImage())
        if min(ink[max(shown - 2, 0):shown + 1]) > 0:
            problems.append(f"{tab}: cut through a line at {shown} px of {label.height()}")
        checked += 1
    assert problems == [], f"{name}: " + "; ".join(problems)
    if name != "1280x720":
        assert checked >= 3  # euler, integrate, wrap, engines scroll there


def test_the_engines_labels_neither_overlap_nor_cross_each_others_leaders(sized_window):
    """The "Unity Euler curves" leader ran through "PlayCanvas / glTFast" (1280x720)
    and labels butted into each other at 1024x768 and 150 %."""
    from lesson_checks import check_labels

    from quatlab.app.model.same_keys_lesson import PRESETS

    name, win = sized_window
    problems = []
    for preset in PRESETS:
        for t in (0.0, 0.5, 1.0):
            show_case(win, "engines", preset, t)
            settle(6)
            scene = win.views["engines"].scene
            problems += [f"{preset} t={t}: {p}" for p in check_labels(scene)]
    assert problems == [], f"{name}: " + "; ".join(problems)


#: Each engines chain's length on the screen (the larger side of its projected box), the
#: median over the six chains and the t of TS, in sides of the room each would have if
#: the six tiled the view (the side of a square of a sixth of its area: 209 px at
#: 1280x720, 177 px at 1024x768 and 150 %). The row of six framed as one row across,
#: 5.5 m apart and seen from +X, left 0.18-0.21 of that at 1280x720 (a chain 38-45 px
#: long in a 790x332 view) and 0.18-0.19 at 1024x768 and 150 % for the wheel and the
#: wrap, seen end on; laid out by what they sweep and seen side on they have 0.32-0.50.
ENGINES_LEAST_LENGTH = 0.28


def test_the_engines_chains_are_as_large_as_the_view_allows(sized_window):
    """Six chains in a row across a wide view were 40-60 px tall at 1280x720, the row
    framed whole and the view's height unused; the wheel's and the wrap's chains were
    seen end on, 2-4 px wide. Each preset keeps one framing across t, every chain
    inside the view at every t, and the chains are long on the screen."""
    from quatlab.app.model.same_keys_lesson import PRESETS

    name, win = sized_window
    problems = []
    for preset in PRESETS:
        lengths, cameras = [], set()
        for t in TS:
            scene = show_case(win, "engines", preset, t).scene
            settle(2)
            w, h = scene.width(), scene.height()
            params = scene.cameraParams()
            cameras.add((params["distance"], params["elevation"], params["azimuth"],
                         params["center"].x(), params["center"].y(), params["center"].z()))
            boxes = chain_boxes(scene)
            assert len(boxes) == 6, (preset, t, sorted(boxes))
            for key, (lo, hi) in boxes.items():
                if lo[0] < -1 or lo[1] < -1 or hi[0] > w + 1 or hi[1] > h + 1:
                    problems.append(f"{preset} t={t}: {key} leaves the {w}x{h} view: "
                                    f"{lo.round()}-{hi.round()}")
                lengths.append(float(np.max(hi - lo)))
        if len(cameras) != 1:
            problems.append(f"{preset}: {len(cameras)} framings over t")
        room = np.sqrt(w * h / 6)
        if np.median(lengths) < ENGINES_LEAST_LENGTH * room:
            problems.append(f"{preset}: chains {np.median(lengths):.0f} px long in a {w}x{h} "
                            f"view, under {ENGINES_LEAST_LENGTH} of {room:.0f} px")
    assert problems == [], f"{name}: " + "; ".join(problems)


def test_stripes_are_explained_where_there_is_room(sized_window):
    """Coinciding chains are drawn in stripes; a class took the stripes for a rendering
    fault (z-fighting). A note in the view says what they are while chains are
    striped, where no label needs its room; never without stripes."""
    name, win = sized_window
    show_case(win, "main", "half-turn", 0.0)  # every method at q0: naive and shortest coincide
    settle(6)
    scene = win.lesson.scene
    scene.widget.repaint()
    settle(4)
    assert scene.coincident()
    notes = [n for n in scene.notes() if n.startswith("striped:")]
    if name == "1280x720":
        assert notes == ["striped: two chains in one pose"]
        (rect,) = [r for t, r in scene.placed_labels() if t == notes[0]]
        view = QtCore.QRectF(0, 0, scene.width(), scene.height())
        assert view.contains(rect) and rect.top() > 0.8 * scene.height()  # the bottom band
        others = [r for t, r in scene.placed_labels() if t != notes[0]]
        assert not any(rect.intersects(r) for r in others)
    show_case(win, "main", "negated-20", 0.5)  # apart
    settle(6)
    scene.widget.repaint()
    settle(4)
    assert not scene.coincident()
    assert not [n for n in scene.notes() if n.startswith("striped:")]


#: What a row of the endpoint panel is made of (fields, buttons, combos, their labels).
ROW_CONTROLS = (QtWidgets.QAbstractButton, QtWidgets.QComboBox, QtWidgets.QAbstractSpinBox,
                QtWidgets.QLineEdit, QtWidgets.QLabel)


def test_the_endpoint_panel_ends_below_a_whole_row(sized_window):
    """At 1024x768 and 150 % the endpoint editors scroll, and the panel's edge cut q1's
    "w x y z" fields in half. Each control there is now wholly shown or wholly
    out of sight, as the panel opens (scrolled to its top)."""
    from quatlab.app.qt.screen_modes import SidePanel

    name, win = sized_window
    win.show_view("main")
    settle(8)
    (panel,) = [p for p in win.findChildren(SidePanel) if p.isVisible()]
    port = panel.viewport()
    bar = panel.verticalScrollBar()
    for value in (bar.minimum(),):
        bar.setValue(value)
        settle(4)
        seen, cut = 0, []
        for w in panel.widget().findChildren(QtWidgets.QWidget):
            if not isinstance(w, ROW_CONTROLS) or not w.isVisible() \
                    or isinstance(w.parentWidget(), (QtWidgets.QAbstractSpinBox,
                                                     QtWidgets.QComboBox)):
                continue
            rect = QtCore.QRect(w.mapTo(port, QtCore.QPoint(0, 0)), w.size())
            if rect.intersects(port.rect()):
                seen += 1
                if not port.rect().contains(rect):
                    cut.append(f"{type(w).__name__} {w.objectName()!r} {rect} in {port.rect()}")
        assert seen >= 5, (name, value)
        assert cut == [], (name, value, cut)
    bar.setValue(bar.minimum())


def test_the_engines_forms_over_the_stage_keep_their_fields_by_their_labels(qtbot):
    """At 1400x900 the engines' q0/q1 forms lie over the stage; stretched across the
    window, "w x y z" stood 900 px from its fields. Each field now follows its label
    within a few lines of text."""
    win = build_window((1400, 900), 1.0)
    try:
        win.set_zoom(1.0)  # the application font, whatever zoom a window before left
        settle(8)
        show_case(win, "engines", "stored_minus_q", 0.5)
        settle(8)
        view = win.views["engines"]
        # The forms are over the stage at this size (arranged a turn after a resize).
        qtbot.waitUntil(view._strip.isVisible, timeout=3000)
        editor = view.editors[0]
        label = editor._components_label
        field = view.findChild(QtWidgets.QLineEdit, "engines_q0_w")
        # From the end of the label's text (its widget stretched with the form).
        text_end = (label.mapTo(view, QtCore.QPoint(0, 0)).x() + label.contentsRect().left()
                    + label.fontMetrics().horizontalAdvance(label.text()))
        gap = field.mapTo(view, QtCore.QPoint(0, 0)).x() - text_end
        assert gap <= 3 * label.fontMetrics().height(), gap
    finally:
        win.close()
        win.deleteLater()
        settle()


def test_the_engines_forms_over_the_stage_stand_side_by_side(qtbot):
    """At 1400x900 q0's form stood over q1's in the strip over the stage: 270 of the
    window's 900 px, and the 3D view got 390. Side by side they take one form's
    height; where the strip is too narrow for both (beside the view at 1280x720)
    they stand one over the other as before."""
    win = build_window((1400, 900), 1.0)
    try:
        show_case(win, "engines", "stored_minus_q", 0.5)
        view = win.views["engines"]
        qtbot.waitUntil(view._strip.isVisible, timeout=3000)
        settle(8)
        q0, q1 = (e.mapTo(view, QtCore.QPoint(0, 0)) for e in view.editors)
        assert q1.y() == q0.y() and q1.x() >= q0.x() + view.editors[0].width(), (q0, q1)
        scene = view.scene
        assert scene.height() >= 0.5 * win.height(), scene.height()
        win.resize(1280, 720)
        settle(8)
        qtbot.waitUntil(lambda: not view._strip.isVisible(), timeout=3000)
        settle(4)
        q0, q1 = (e.mapTo(view, QtCore.QPoint(0, 0)) for e in view.editors)
        assert q1.y() >= q0.y() + view.editors[0].height(), (q0, q1)
    finally:
        win.close()
        win.deleteLater()
        settle()


def test_on_a_short_page_the_picture_takes_the_height_and_the_text_goes_over_it(qtbot):
    """At 1024x768 and 150 % the explanation stood beside the 3D view and took 400 of
    the 1024 px, and the plots below took half the height: the views were about
    610x250 px, the Euler gimbal 50 px across, the engines' six chains 40 px tall.
    On a short page the text goes over the stage, three whole lines that scroll; a
    wide picture (the engines' row) takes the page's width with the plots below it,
    the others the page's height with the plots stacked beside them."""
    from quatlab.app.qt.lesson_panel import LessonPanel

    win = build_window((1024, 768), 1.5)
    try:
        for tab in ("engines", "euler", "blend", "integrate"):
            show_case(win, tab, TABS[tab][0] if tab in TABS else "stored_minus_q", 0.5)
            settle(8)
            view = win.views[tab]
            scene, area = view.scene.widget, view.explanation_area
            qtbot.waitUntil(lambda s=scene: s.width() > 0, timeout=3000)
            settle(4)
            over = area.mapTo(view, QtCore.QPoint(0, area.height())).y() <= \
                scene.mapTo(view, QtCore.QPoint(0, 0)).y()
            assert over, (tab, area.geometry(), scene.geometry())
            label = area.widget()
            line = label.fontMetrics().height()
            # Three whole lines below the label's top margin, not two and the blank
            # left where a cut-off third was (its last line ends the viewport).
            top = label.contentsMargins().top()
            assert area.viewport().height() >= LessonPanel.SHORT_PAGE_LINES * line + top, (
                tab, area.viewport().height(), line)
            assert area.height() <= (LessonPanel.SHORT_PAGE_LINES + 1) * line, (tab, area.height())
            page = win.tabs.currentWidget().viewport()
            if view.WIDE_SCENE:
                assert not view.stage.beside, tab
                assert scene.width() >= 0.9 * view.width(), (scene.width(), view.width())
            else:
                assert view.stage.beside and view.plots.stacked, tab
                assert scene.height() >= 0.6 * page.height(), (tab, scene.height(), page.height())
                assert scene.width() >= 0.55 * page.width(), (tab, scene.width(), page.width())
    finally:
        win.close()
        win.deleteLater()
        settle()


def test_an_explanation_beside_the_view_shows_three_whole_lines_at_least(qtbot):
    """The engines at 1280x720: the explanation under q0's and q1's forms was given
    three lines of the font without the label's margins, so the third was cut off
    and two showed, the text breaking off at "dot is −0.707 < 0:"."""
    win = build_window((1280, 720), 1.0)
    try:
        show_case(win, "engines", "stored_minus_q", 0.5)
        settle(8)
        area = win.views["engines"].explanation_area
        label = area.widget()
        assert area.isVisible() and label.heightForWidth(label.width()) > area.height()
        line = label.fontMetrics().height()
        assert area.viewport().height() >= 3 * line + label.contentsMargins().top(), (
            area.viewport().height(), line)
    finally:
        win.close()
        win.deleteLater()
        settle()


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_stacked_plots_line_their_t_axes_up(qtbot, lang):
    """Stacked beside the 3D view, each plot's left axis was as wide as its own title
    and ticks: in Chinese at 1024x768 and 150 % SQUAD's t = 0 stood at x 717 over
    749, so the two cursor lines at one t were 16 px apart."""
    from quatlab.app import i18n

    i18n.set_language(lang)
    win = build_window((1024, 768), 1.5)
    try:
        for tab in ("squad", "blend", "euler", "integrate", "wrap"):
            show_case(win, tab, TABS[tab][0], 0.5)
            settle(8)
            plots = win.views[tab].plots
            assert plots.stacked, tab
            lefts = [item.getViewBox().sceneBoundingRect().left()
                     for item in plots.plots.values()]
            assert abs(lefts[0] - lefts[1]) <= 1.0, (tab, lefts)
    finally:
        i18n.set_language("en")
        win.close()
        win.deleteLater()
        settle()


@pytest.mark.parametrize("size, zoom, drawn", [((1024, 768), 1.5, 1.5), ((1280, 720), 1.0, 1.25),
                                               ((1024, 768), 1.0, 1.25)])
def test_presentation_mode_draws_larger_only_while_the_window_keeps_its_lines(qtbot, size, zoom,
                                                                            drawn):
    """Presentation mode drew 1.25 times larger again whatever the zoom: at 150 % on a
    1024x768 screen (1.875 in all, 29 lines) the SQUAD and wrap tabs put their plots
    side by side in a 406-px column, 70-px data areas, the right one cut off at the
    window's edge, and the blend's and Euler's cut theirs too. It now adds what keeps
    40 lines of text (PRESENTATION_LEAST_LINES): nothing at 150 % there (37 lines),
    the whole 1.25 at 100 % (51 and 55 lines). Every lesson plot stays inside the
    window with a data area 200 px wide or more."""
    win = build_window(size, zoom)
    try:
        win.set_presenting(True, full_screen=False)
        win.resize(*size)
        settle(8)
        assert win.draw_scale() == pytest.approx(drawn)
        for tab in ("squad", "blend", "euler", "integrate", "wrap"):
            show_case(win, tab, TABS[tab][0], 0.5)
            settle(8)
            for item in win.views[tab].plots.plots.values():
                box = item.getViewBox()
                view = box.scene().views()[0]  # the plots' graphics view
                rect = box.sceneBoundingRect()
                corner = view.mapTo(win, view.mapFromScene(rect.bottomRight()))
                assert corner.x() <= win.width() and corner.y() <= win.height(), (tab, corner)
                assert rect.width() >= 200, (tab, rect)
    finally:
        win.set_presenting(False)
        win.close()
        win.deleteLater()
        settle()
