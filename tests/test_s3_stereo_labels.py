"""The projection panel names every ball a reader could confuse, and its leaders read as
leaders, not axes (docs/curves.md).

For "negated-20" at t = 0.5 the shortest NLERP and SLERP balls lay 3-4 px from q0
and -q1 with no label (a class could not tell where the short way was), while
"naive N" and "naive S" were named; and the "q0 / -q1" plate hung 60 px to the
left of its ball on a level leader, which read as the negative x axis. Measured
here from what the view draws: the balls' meshes through the view's matrices,
the plates and leaders the last paint placed, the axes' line item.
"""

from __future__ import annotations

import lesson_checks
import numpy as np
import pytest
from PyQt6 import QtWidgets, sip
from test_s3_projection_fit import _balls, _to_pixels

from quatlab.app import i18n
from quatlab.math.curves import METHODS

#: Balls whose centres are this near (pixels x zoom) can be told apart only by a label.
NEAR_PX = 20.0
#: A method's ball centred this near a key's centre (pixels) is the key itself:
#: every method starts at q0 and ends at q1 or -q1, and the key's label names the spot.
ON_KEY_PX = 0.5
#: A leader within this many degrees of an axis' direction ...
PARALLEL_DEG = 15.0
#: ... and within this many pixels (x zoom) of the axis' line reads as that axis.
AXIS_NEAR_PX = 16.0

TS = (0.0, 0.5, 1.0)


@pytest.fixture(scope="module", params=[(size, lang) for size in lesson_checks.SIZES
                                        for lang in ("en", "zh_CN")],
                ids=lambda p: f"{p[0]}-{p[1]}")
def built(request, qapp):
    """The main window at 1280x720 and at 1024x768 and 150 %, in English and Chinese."""
    name, lang = request.param
    i18n.set_language(lang)
    size, zoom = lesson_checks.SIZES[name]
    win = lesson_checks.build_window(size, zoom)
    yield f"{name} {lang}", zoom, win
    win.close()
    sip.delete(win)
    QtWidgets.QApplication.processEvents()
    i18n.set_language("en")


@pytest.fixture
def window(built):
    """:func:`built`, at its own zoom again (a test elsewhere may have changed it)."""
    lesson_checks.zoom_kept(built[2])
    return built


def _cases(win):
    """The S3 tab at each of its presets and each t of the issue: (preset, t, stereo)."""
    for preset in lesson_checks.TABS["main"]:
        for t in TS:
            view = lesson_checks.show_case(win, "s3", preset, t)
            view.stereo.view.grabFramebuffer()  # a paint places the labels
            yield preset, t, view.stereo


def _named(stereo, name: str) -> bool:
    label = stereo.labels[name]
    return label.visible and label.rect is not None


def _segment_gap(a0, a1, b0, b1) -> float:
    """Pixels between segments a0-a1 and b0-b1 (0 where they meet)."""
    def to_segment(p, s0, s1):
        d = s1 - s0
        k = np.clip(np.dot(p - s0, d) / max(np.dot(d, d), 1e-12), 0.0, 1.0)
        return float(np.hypot(*(s0 + k * d - p)))
    da, db = a1 - a0, b1 - b0
    cross = da[0] * db[1] - da[1] * db[0]
    if abs(cross) > 1e-12:
        u = ((b0 - a0)[0] * db[1] - (b0 - a0)[1] * db[0]) / cross
        v = ((b0 - a0)[0] * da[1] - (b0 - a0)[1] * da[0]) / cross
        if 0.0 <= u <= 1.0 and 0.0 <= v <= 1.0:
            return 0.0
    return min(to_segment(a0, b0, b1), to_segment(a1, b0, b1),
               to_segment(b0, a0, a1), to_segment(b1, a0, a1))


def test_every_method_ball_near_another_ball_is_named(window):
    name, zoom, win = window
    bad = []
    for preset, t, stereo in _cases(win):
        balls = _balls(stereo)
        keys = {k: c for k, (c, _r, _o) in balls.items() if k not in METHODS}
        for m in METHODS:
            if m not in balls:
                continue
            c = balls[m][0]
            if any(np.hypot(*(c - k)) <= ON_KEY_PX for k in keys.values()):
                continue  # on a key: its label names the spot
            near = [o for o, (oc, _r, _o) in balls.items()
                    if o != m and np.hypot(*(c - oc)) <= NEAR_PX * zoom]
            if near and not _named(stereo, m):
                bad.append((preset, t, m, "unnamed, near", near))
    assert bad == [], (name, bad)


def test_no_leader_runs_along_an_axis(window):
    name, zoom, win = window
    bad = []
    for preset, t, stereo in _cases(win):
        axes = _to_pixels(stereo.view, np.asarray(stereo.axes.pos, float)).reshape(-1, 2, 2)
        for a, e in stereo.layer.leaders:
            p0, p1 = np.array([a.x(), a.y()]), np.array([e.x(), e.y()])
            lead = p1 - p0
            for k, (s0, s1) in enumerate(axes):
                axis = s1 - s0
                cos = abs(lead @ axis) / (np.linalg.norm(lead) * np.linalg.norm(axis))
                angle = np.degrees(np.arccos(min(cos, 1.0)))
                gap = _segment_gap(p0, p1, s0, s1)
                if angle < PARALLEL_DEG and gap <= AXIS_NEAR_PX * zoom:
                    bad.append((preset, t, "xyz"[k], f"{angle:.1f} deg, {gap:.1f} px"))
    assert bad == [], (name, bad)


def test_the_plates_overlap_nothing_named(window):
    # The new plates keep clear of the keys', the axes' and each other's.
    name, zoom, win = window
    bad = []
    for preset, t, stereo in _cases(win):
        rects = {k: lb.rect for k, lb in stereo.labels.items()
                 if lb.visible and lb.rect is not None}
        plates = {(r.left(), r.top(), r.right(), r.bottom()): k for k, r in rects.items()}
        keys = list(plates.items())
        for i, (a, na) in enumerate(keys):
            for b, nb in keys[i + 1:]:
                if min(a[2], b[2]) - max(a[0], b[0]) > 0 and min(a[3], b[3]) - max(a[1], b[1]) > 0:
                    bad.append((preset, t, na, nb))
    assert bad == [], (name, bad)
