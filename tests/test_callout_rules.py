"""The plots' callouts at projector scale: never over a curve or the cursor, leaders never crossing.

A review at 1280x720 found, in the blending tab, the "sweep = 1.5" callout
on the left and the "0.5" one on the right with their leaders crossed and
both boxes over curves; in Chinese (dark) the second callout had lost its
second line; in the two-key tab (q to -q at t = 0.75) the t cursor ran
through both callouts, and the speed peak's callout (negated 20 deg) sat on
the top of the spike it names. A second review found the peak callouts
"↑ 2,612" (the wrapping lesson) and "↑ 2,620" (negated 20 deg, t = 0.5)
touching the dashed naive NLERP curve: clear of its centre line by the
clearance, but not of its 2.4 px stroke, nor the box's border of its
(callout_checks measures both as drawn). Measured here from the scene's items
(tests/callout_checks.py), not from the placer's numbers; the placer's
geometry helpers against independent oracles (exact rational arithmetic,
orientation tests).
"""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pyqtgraph as pg
import pytest
from callout_checks import (
    callout_problems,
    callouts,
    curves_crossed,
    drawn_box,
    leader,
    segment_hits_rect,
    segments_meet,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from PyQt6 import QtCore

from quatlab.rendering.label_place import crossings, meets

# -- the geometry the placer scores leaders with ------------------------------------


def _meet_exactly(p1, p2, q1, q2) -> bool:
    """Whether two closed segments meet, solved in rationals (parameters in [0, 1])."""
    p1, p2, q1, q2 = ([Fraction(v) for v in p] for p in (p1, p2, q1, q2))
    r = (p2[0] - p1[0], p2[1] - p1[1])
    d = (q2[0] - q1[0], q2[1] - q1[1])
    w = (q1[0] - p1[0], q1[1] - p1[1])

    def cross(a, b):
        return a[0] * b[1] - a[1] * b[0]

    def dot(a, b):
        return a[0] * b[0] + a[1] * b[1]

    def on(point, a, v):   # point on the segment a + f v, f in [0, 1]
        rel = (point[0] - a[0], point[1] - a[1])
        if v == (0, 0):
            return rel == (0, 0)
        return cross(rel, v) == 0 and 0 <= dot(rel, v) <= dot(v, v)

    if r == (0, 0):
        return on(p1, q1, d)
    if d == (0, 0):
        return on(q1, p1, r)
    denom = cross(r, d)
    if denom != 0:
        s, u = cross(w, d) / denom, cross(w, r) / denom
        return 0 <= s <= 1 and 0 <= u <= 1
    if cross(w, r) != 0:
        return False   # parallel, apart
    t0 = dot(w, r) / dot(r, r)
    t1 = dot((q2[0] - p1[0], q2[1] - p1[1]), r) / dot(r, r)
    return max(min(t0, t1), 0) <= min(max(t0, t1), 1)


_coord = st.integers(-6, 6)
_segment = st.tuples(st.tuples(_coord, _coord), st.tuples(_coord, _coord))


@settings(max_examples=300, deadline=None)
@given(st.lists(_segment, min_size=1, max_size=6), st.lists(_segment, min_size=1, max_size=4))
def test_crossings_count_what_exact_arithmetic_finds(segs, others):
    # Small integer grids: many collinear, touching and degenerate (point) segments.
    want = [sum(_meet_exactly(*a, *b) for b in others) for a in segs]
    assert crossings(np.array(segs, float), np.array(others, float)).tolist() == want


def test_a_missing_leader_crosses_nothing():
    none = np.full((1, 2, 2), np.nan)
    assert crossings(none, [[(0, 0), (10, 10)]]).tolist() == [0]
    assert meets(none, [(0, 0, 10, 10)]).tolist() == [[False]]


def test_meets_agrees_with_the_orientation_test(rng):
    segs = rng.uniform(-20, 120, size=(200, 2, 2))
    segs[:20, 1, 0] = segs[:20, 0, 0]      # vertical, like a leader over its x
    rects = np.array([(10.0, 20.0, 60.0, 35.0), (50.0, 50.0, 52.0, 90.0), (0, 0, 100, 100)])
    got = meets(segs, rects)
    for (a, b), row in zip(segs, got, strict=True):
        want = [segment_hits_rect(a, b, QtCore.QRectF(r[0], r[1], r[2] - r[0], r[3] - r[1]))
                for r in rects]
        assert row.tolist() == want


# -- the callouts as shown ------------------------------------------------------------


#: (view, preset, t): the cases of the reviews, and the speed peak.
_CASES = [("blend", "reference_switch", 0.0), ("blend", "reference_switch", 0.75),
          ("main", "q-to-minus-q", 0.75), ("main", "q-to-minus-q", 0.0),
          ("main", "negated-20", 0.75), ("main", "negated-20", 0.5),
          ("wrap", "yaw_wrap", 0.75)]


def _window(qtbot, size, zoom, lang, theme):
    import lesson_checks as lc

    from quatlab.app import i18n
    from quatlab.app.qt import theme_menu

    i18n.set_language(lang)
    win = lc.build_window(size, zoom)
    qtbot.addWidget(win)
    theme_menu.apply_theme(win, theme)
    return win


def _plots(win):
    from quatlab.rendering.curve_plots import CurvePlots

    return [cp for cp in win.findChildren(CurvePlots) if cp.isVisible()]


@pytest.mark.gl
@pytest.mark.parametrize(("size", "zoom", "lang", "theme", "least"), [
    ((1280, 720), 1.0, "en", "light", 10), ((1280, 720), 1.0, "zh_CN", "dark", 10),
    ((1024, 768), 1.5, "en", "light", 3)])
def test_no_callout_covers_a_curve_or_the_cursor_or_crosses_a_leader(qtbot, size, zoom, lang,
                                                                     theme, least):
    import lesson_checks as lc

    from quatlab.app import i18n

    try:
        win = _window(qtbot, size, zoom, lang, theme)
        shown = 0
        for tab, preset, t in _CASES:
            lc.show_case(win, tab, preset, t)
            lc.settle(4)
            for cp in _plots(win):
                for name, plot in cp.plots.items():
                    assert callout_problems(plot, f"{tab}/{preset}/{t} {name}") == []
                    shown += len(callouts(plot))
        # Not a pass by hiding them: as many as shown when this was written (at
        # 1024x768 and 150 % most have no room, and were over curves before).
        assert shown >= least, shown
    finally:
        i18n.set_language("en")


@pytest.mark.gl
def test_both_blending_callouts_keep_both_lines_in_chinese(qtbot):
    """zh_CN, dark, 1280x720: the second callout lost its "at sweep = 1.5" line."""
    import lesson_checks as lc

    from quatlab.app import i18n

    try:
        win = _window(qtbot, (1280, 720), 1.0, "zh_CN", "dark")
        lc.show_case(win, "blend", "reference_switch", 0.0)
        lc.settle(4)
        plot = win.views["blend"].plots.plots["angle"]
        texts = sorted(lb.textItem.toPlainText() for lb in callouts(plot))
        assert len(texts) == 2 and all(text.count("\n") == 1 for text in texts), texts
        assert "0.5" in texts[0] and "1.5" in texts[1], texts
        assert callout_problems(plot) == []
    finally:
        i18n.set_language("en")


def _gap_naming(plot) -> tuple[list[float], list[str]]:
    """The data x of each gap in a curve of ``plot``, and what leaves a gap unnamed or
    misnamed: every gap is under a box (or within 3 px beside it) or at a
    leader's top end; a box over a gap that leads to another gap leads to its
    own too, or hangs from the top (where a box over its x needs no leader)."""
    import pyqtgraph as pg

    from quatlab.rendering.plot_label import BoxedLabel

    vb = plot.getViewBox()
    top = vb.sceneBoundingRect().top()
    gaps = []   # the middle of each run of NaN in a shown curve (the mean's)
    for item in plot.listDataItems():
        x, y = item.getData()
        if isinstance(item, pg.PlotDataItem) and item.isVisible() and x is not None:
            edges = np.flatnonzero(np.diff(np.r_[0, np.isnan(y).astype(int), 0]))
            gaps += [float(x[i:j].mean()) for i, j in zip(edges[::2], edges[1::2], strict=True)]
    gaps.sort()
    at = {g: vb.childGroup.mapToScene(QtCore.QPointF(g, 0.0)).x() for g in gaps}
    boxes = [drawn_box(lb) for lb in callouts(plot)]
    # Every leader shown, a box's own and those of labels that draw none (none
    # hidden in a box-less label is missed: the label items, not the callouts).
    leaders = [line for it in vb.childGroup.childItems()
               if isinstance(it, BoxedLabel) and it.isVisible()
               and (line := leader(it)) is not None]

    def ends_at(line, g) -> bool:
        return abs(line[1][0] - at[g]) <= 1.5 and abs(line[1][1] - top) <= 3.0

    def starts_on(line, box) -> bool:
        return box.adjusted(-1.0, -1.0, 1.0, 1.0).contains(QtCore.QPointF(*line[0]))

    problems = []
    for g in gaps:
        if not (any(b.left() - 3.0 <= at[g] <= b.right() + 3.0 for b in boxes)
                or any(ends_at(line, g) for line in leaders)):
            problems.append(f"gap {g} unnamed")
    for b in boxes:
        own = [line for line in leaders if starts_on(line, b)]
        for g in (g for g in gaps if b.left() <= at[g] <= b.right()):
            elsewhere = [h for h in gaps if h != g and any(ends_at(line, h) for line in own)]
            if elsewhere and b.top() - top > 12.0 and not any(ends_at(line, g) for line in own):
                problems.append(f"box over {g} leads to {elsewhere} only")
    for i, a in enumerate(leaders):
        problems += [f"leaders cross: {a} {b}" for b in leaders[i + 1:] if segments_meet(*a, *b)]
    return gaps, problems


@pytest.mark.gl
@pytest.mark.parametrize(("size", "zoom", "lang"), [
    ((1024, 768), 1.5, "en"), ((1024, 768), 1.5, "zh_CN"), ((1280, 720), 1.0, "en")])
def test_each_not_unique_gap_of_the_blend_is_named(qtbot, size, zoom, lang):
    """1024x768 at 150 %, English: the "not unique" of sweep 0.5 took the only
    room, over the 1.5 line, with its one leader to 0.5, and the one of 1.5
    was not drawn: the box read as naming 1.5 alone. Both gaps are named, a
    box over one gap that leads to the other names its own as well."""
    import lesson_checks as lc

    from quatlab.app import i18n

    try:
        win = _window(qtbot, size, zoom, lang, "light")
        lc.show_case(win, "blend", "reference_switch", 0.0)
        lc.settle(4)
        plot = win.views["blend"].plots.plots["angle"]
        gaps, problems = _gap_naming(plot)
        # Equal weights (1/2, 1/2, 1/2) on 0, 120 and 240 deg about Z at sweep 0.5
        # and 1.5: the weighted doubled angles cancel (docs/presets.md).
        assert gaps == pytest.approx([0.5, 1.5], abs=0.01)
        assert problems == []
        assert callout_problems(plot) == []
    finally:
        i18n.set_language("en")


def _gap_pointers(plot, gaps) -> dict[float, list[tuple[float, list[str]]]]:
    """Per gap x, how each callout points at it: ``(length px, curves crossed)``.

    A box over the gap's line (within 3 px) that draws no leader points at it
    with nothing (the line runs down the whole plot, through the box); a
    leader, its own box's or a box-less callout's from another's, whose top
    end is over the gap, with its length and the curves it meets."""
    from quatlab.rendering.plot_label import BoxedLabel

    vb = plot.getViewBox()
    at = {g: vb.childGroup.mapToScene(QtCore.QPointF(g, 0.0)).x() for g in gaps}
    labels = [it for it in vb.childGroup.childItems()
              if isinstance(it, BoxedLabel) and it.isVisible()]
    out = {g: [] for g in gaps}
    for g in gaps:
        for lb in labels:
            line = leader(lb)
            if line is None and lb in callouts(plot):
                box = drawn_box(lb)
                if box.left() - 3.0 <= at[g] <= box.right() + 3.0:
                    out[g].append((0.0, []))
            elif line is not None and abs(line[1][0] - at[g]) <= 1.5:
                out[g].append((float(np.hypot(*(line[1] - line[0]))),
                               curves_crossed(plot, *line)))
    return out


@pytest.mark.gl
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_each_not_unique_gap_is_named_close_by_across_no_curve(qtbot, lang):
    """1024x768 at 150 %: in English the one box of sweep 0.5 stood over the 1.5
    line, its leader back to 0.5 (128 px) across the naive sum, the kept
    reference and the rotation mean, and the 1.5 one led up from it across
    the kept reference; in Chinese each box hung on its line with a leader
    up to the top across the naive sum or the kept reference. Each gap's
    callout points at it across no curve, from within a quarter of the plot's
    height."""
    import lesson_checks as lc

    from quatlab.app import i18n

    try:
        win = _window(qtbot, (1024, 768), 1.5, lang, "light")
        lc.show_case(win, "blend", "reference_switch", 0.0)
        lc.settle(4)
        plot = win.views["blend"].plots.plots["angle"]
        gaps, _problems = _gap_naming(plot)
        assert gaps == pytest.approx([0.5, 1.5], abs=0.01)
        bound = 0.25 * plot.getViewBox().sceneBoundingRect().height()
        for g, pointers in _gap_pointers(plot, gaps).items():
            clear = [length for length, crossed in pointers if not crossed]
            assert clear and min(clear) <= bound, (g, pointers, bound)
    finally:
        i18n.set_language("en")


@pytest.mark.gl
def test_callouts_keep_clear_of_the_cursor_as_it_sweeps(qtbot):
    """Playing q to -q: at every t the cursor runs through no callout (they move
    when it reaches them), and those shown at the end are where a fresh layout
    would put them clear of it."""
    import lesson_checks as lc

    win = _window(qtbot, (1280, 720), 1.0, "en", "light")
    lc.show_case(win, "main", "q-to-minus-q", 0.0)
    lc.settle(4)
    plots = win.lesson.plots
    seen = 0
    for t in [*np.linspace(0.0, 1.0, 41), *np.linspace(1.0, 0.0, 41)]:
        win.state.set_t(float(t))
        lc.settle(1)
        for name, plot in plots.plots.items():
            assert callout_problems(plot, f"t = {t:.3f} {name}") == []
            seen += len(callouts(plot))
    assert seen >= 82, seen   # most of the way two or more callouts are shown


@pytest.mark.gl
def test_a_callouts_leader_is_dotted_not_a_curve(qtbot):
    """1024x768 at 150 %: the blend's "not unique" leader, solid in the rotation
    mean's colour and width, read as that curve falling from 180 to 70 degrees.
    (Those boxes now stand on their lines, with none; the two-key speed peak's
    box, beside the spike and the cursor, leads to it.)"""
    import lesson_checks as lc

    from quatlab.rendering.plot_label import BoxedLabel

    win = _window(qtbot, (1024, 768), 1.5, "en", "light")
    labels = []
    for tab, preset, t in (("blend", "reference_switch", 0.0), ("main", "negated-20", 0.5)):
        lc.show_case(win, tab, preset, t)
        lc.settle(4)
        labels += [lb for cp in _plots(win) for plot in cp.plots.values()
                   for lb in callouts(plot)]
    led = [lb for lb in labels if isinstance(lb, BoxedLabel) and lb.leader.isVisible()]
    assert led, [lb.textItem.toPlainText() for lb in labels]
    for label in led:
        pen = label.leader.pen()
        assert pen.style() == QtCore.Qt.PenStyle.DotLine, label.textItem.toPlainText()
        assert pen.color() == label.border.color()  # still says whose it is


def _peak_said(text: str) -> float | None:
    """The value a peak callout gives ("↑ 2,620", "↑2.6k", "↑ naive NLERP peak 2,620 ..."),
    or None when it opens with no arrow or gives none."""
    found = re.match(r"↑.*?(-?[\d,]+(?:\.\d+)?)(k?)(?:\s|$)", text, re.S)
    if found is None:
        return None
    return float(found[1].replace(",", "")) * (1000.0 if found[2] else 1.0)


@pytest.mark.gl
@pytest.mark.parametrize(("tab", "preset", "t", "lang", "theme"), [
    ("wrap", "yaw_wrap", 0.35, "zh_CN", "light"), ("main", "negated-20", 0.5, "en", "light"),
    ("main", "negated-20", 0.5, "zh_CN", "dark")])
def test_an_off_scale_peak_is_named_at_projector_scale(qtbot, tab, preset, t, lang, theme):
    """1024x768 at 150 % in Chinese: naive NLERP's 2,620 deg/t went off the top of the
    wrap tab's speed plot unsaid: over the 340 of the Euler channels the range left
    a band too low for the label. The two-key tab's speed plot (negated 20 deg at
    t = 0.5), 186-195 px wide, has 66-69 px beside the spike and the cursor, and
    "↑ 2,620" (88 px) was not drawn at all: a callout there gives the peak, as
    the curve reaches it, to its two figures at least."""
    import lesson_checks as lc

    from quatlab.app import i18n

    try:
        win = _window(qtbot, (1024, 768), 1.5, lang, theme)
        lc.show_case(win, tab, preset, t)
        lc.settle(4)
        plots = _plots(win)
        for cp in plots:
            plot = cp.plots["speed"]
            top = plot.getViewBox().viewRange()[1][1]
            # The series as given (the curve items hold the spike cut at the top).
            peaks = [float(np.nanmax(s.y)) for s in cp._series["speed"].values()
                     if cp.curve_item("speed", s.name).isVisible() and np.nanmax(s.y) > top]
            assert len(peaks) == 1, peaks   # naive NLERP's spike
            said = [_peak_said(lb.textItem.toPlainText()) for lb in callouts(plot)]
            assert any(v is not None and abs(v - peaks[0]) <= 0.02 * peaks[0] for v in said), \
                ([lb.textItem.toPlainText() for lb in callouts(plot)], peaks)
            assert callout_problems(plot) == []
    finally:
        i18n.set_language("en")


@pytest.mark.gl
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_gap_callout_says_whose_angle_at_projector_scale(qtbot, lang):
    """1024x768 at 150 %, Euler tab near the lock at t = 0.45: the readout plot's
    callout said only "undefined" (its whole first line, "SLERP, about Y
    undefined", 266 px, beside the cursor's 133): which angle is undefined, the
    box's colour alone told. Each gap callout names its curve's axis."""
    import lesson_checks as lc

    from quatlab.app import i18n
    from quatlab.app.i18n import _

    try:
        win = _window(qtbot, (1024, 768), 1.5, lang, "light")
        lc.show_case(win, "euler", "near_lock", 0.45)
        lc.settle(4)
        plots = win.views["euler"].plots
        plot = plots.plots["speed"]
        axes = {_("SLERP, about {axis}").format(axis=n): n
                for n in win.views["euler"].model.angle_names}
        # The colour of each curve with a gap, and the axis its legend names.
        colours = {pg.mkPen(plots.curve_item("speed", s.name).opts["pen"]).color().name():
                   axes[s.label] for s in plots._series["speed"].values()
                   if np.isnan(s.y).any()}
        named = [(lb.textItem.toPlainText(), colours[lb.border.color().name()])
                 for lb in callouts(plot) if lb.border.color().name() in colours]
        assert named, [lb.textItem.toPlainText() for lb in callouts(plot)]
        for text, axis in named:
            assert axis in text, (text, axis)
        assert callout_problems(plot) == []
    finally:
        i18n.set_language("en")


@pytest.mark.gl
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize(("size", "zoom"), [((1024, 768), 1.5), ((1280, 720), 1.0)],
                         ids=["1024x768@150%", "1280x720"])
def test_every_angle_undefined_at_the_lock_is_named_at_projector_scale(qtbot, lang, size,
                                                                       zoom):
    """1024x768 at 150 %, Euler tab near the lock at t = 0.45: Y and Z″ are both
    undefined at the lock (t = 0.5), but in English only "Y undefined" found room
    (the second box had none beside the first), which told the class Z″ was fine.
    Every angle with a gap there is named in a shown callout, whichever of its
    forms the box shows (at 1280x720 in Chinese a shared box shows its first line)."""
    import lesson_checks as lc

    from quatlab.app import i18n

    try:
        win = _window(qtbot, size, zoom, lang, "light")
        lc.show_case(win, "euler", "near_lock", 0.45)
        lc.settle(4)
        view = win.views["euler"]
        plot = view.plots.plots["speed"]
        gapped = [n for n, s in zip(view.model.angle_names,
                                    view.plots._series["speed"].values(), strict=True)
                  if np.isnan(s.y).any()]
        assert len(gapped) >= 2, gapped   # the lesson's point: more than one angle
        shown = " | ".join(lb.textItem.toPlainText() for lb in callouts(plot))
        for axis in gapped:
            assert axis in shown, (axis, shown)
        assert callout_problems(plot) == []
    finally:
        i18n.set_language("en")
