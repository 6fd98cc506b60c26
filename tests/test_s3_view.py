"""The S3 view (issue 6): it draws the geometry of quatlab.math.s3 and follows the state."""

from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np
import pytest
from PyQt6 import QtCore, QtGui, QtWidgets, sip
from text_layout import as_read

from quatlab.app.model.state import LessonState
from quatlab.app.qt import s3_circle, s3_stereo, s3_view
from quatlab.app.qt.scrubber import BASE_DURATION
from quatlab.math import s3
from quatlab.math.curves import METHODS
from quatlab.rendering import themes
from quatlab.rendering.label_place import Segments, costs, polyline_segments
from quatlab.rendering.labels import leaders_along, text_block
from quatlab.rendering.style import METHOD_COLORS


@pytest.fixture
def make_view(qtbot):
    views = []

    def make(preset="negated-20", t=0.5):
        state = LessonState.from_preset(preset, t=t)
        view = s3_view.S3View(state)
        views.append(view)
        view.resize(1100, 700)
        view.show()
        qtbot.waitExposed(view)
        return state, view

    yield make
    # Delete each view (and its native GL window and context) now, while
    # nothing else paints: a GL view torn down later by the event loop can
    # be asked to paint after its context is gone.
    for view in views:
        view.close()
        sip.delete(view)
    QtWidgets.QApplication.processEvents()


def _xy(item):
    x, y = item.getData()
    return np.c_[x, y]


def test_module_interface():
    assert s3_view.VIEW_NAME == "s3" and s3_view.TITLE == "S3 view"


def test_paths_lie_on_the_circle_and_end_at_q0_and_q1(make_view):
    state, view = make_view("negated-20")
    gc = view.great_circle
    b = s3.plane_basis(state.q0, state.q1)
    q0, q1 = s3.to_plane(np.stack([state.q0, state.q1]), b)
    for m in METHODS:
        xy = _xy(gc.paths[m])
        ok = np.all(np.isfinite(xy), axis=1)
        np.testing.assert_allclose(np.hypot(*xy[ok].T), 1.0, atol=1e-12)
        np.testing.assert_allclose(xy[0], q0, atol=1e-12)
        # naive ends at the stored q1, shortest at -q1 (dot < 0 here)
        np.testing.assert_allclose(xy[-1], q1 if m.startswith("naive") else -q1, atol=1e-12)
    for key, end in (("naive", q1), ("shortest", -q1)):
        chord = _xy(gc.chords[key])
        np.testing.assert_allclose(chord[[0, -1]], [q0, end], atol=1e-12)
        # the chord runs inside the circle; its projection is NLERP's path
        assert np.all(np.hypot(*chord.T) <= 1 + 1e-12)
        np.testing.assert_allclose(s3.project_to_circle(chord), _xy(gc.paths[f"{key}_nlerp"]),
                                   atol=1e-12)
    np.testing.assert_allclose(np.hypot(*_xy(gc.circle).T), 1.0, atol=1e-12)
    assert gc.angle_text.toPlainText() == "170.0°"


def test_markers_follow_t_and_paths_only_endpoints(make_view):
    state, view = make_view("quarter-turn", t=0.0)
    gc = view.great_circle
    before = _xy(gc.paths["shortest_slerp"]).copy()
    start = np.c_[gc.markers["shortest_slerp"].getData()]
    state.set_t(1.0)
    end = np.c_[gc.markers["shortest_slerp"].getData()]
    b = gc.basis
    np.testing.assert_allclose(start, s3.to_plane(state.q0, b)[None], atol=1e-12)
    np.testing.assert_allclose(end, s3.to_plane(state.q1, b)[None], atol=1e-12)
    np.testing.assert_allclose(_xy(gc.paths["shortest_slerp"]), before)
    # the 3D marker moved with it
    p = np.array(view.stereo.markers["shortest_slerp"].transform().copyDataTo()).reshape(4, 4)
    p = p[:3, 3]  # row-major: the translation column is where the ball's centre went
    np.testing.assert_allclose(p, s3.stereographic(state.q1), atol=1e-6)
    assert "t = 1.000" in as_read(view.stereo.axis_angle.text())


def test_degenerate_plane_shows_a_message(make_view):
    state, view = make_view("q-to-minus-q")
    gc = view.great_circle
    assert gc.degenerate
    assert gc.stack.currentWidget() is gc.message
    assert "q1 = −q0" in gc.message.text()
    state.set_t(0.3)  # no crash while degenerate
    state.load_preset("quarter-turn")
    assert not gc.degenerate and gc.stack.currentWidget() is gc.plot


@pytest.mark.parametrize("pole", list(s3_view.POLES))
def test_stereographic_curves_match_s3(make_view, pole):
    state, view = make_view("quarter-turn")
    st = view.stereo
    st.pole_box.setCurrentText(pole)
    p = s3_view.POLES[pole](state.q0)
    for m in METHODS:
        want = s3_view.split_finite(s3.stereographic(state.curves[m].quats, p))
        got = [item.pos for item in st.segments[m]]
        assert len(got) == len(want) >= 1
        for g, w in zip(got, want, strict=True):
            np.testing.assert_allclose(g, w, atol=1e-6)


def test_split_finite():
    pts = np.array([[0, 0], [1, 1], [np.nan, np.nan], [2, 2], [np.nan, np.nan], [3, 3], [4, 4.]])
    runs = s3_view.split_finite(pts)
    assert [len(r) for r in runs] == [2, 2]


def _has_colour(img, hex_colour, tol=40, min_count=20):
    c = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)])
    return int((np.abs(img[..., :3].astype(int) - c).sum(axis=-1) < tol).sum()) >= min_count


def test_stereographic_view_is_a_native_gl_window_in_the_layout(make_view, qtbot):
    # No QOpenGLWidget (it would make every repaint of the window go
    # through OpenGL); the layout holds the native window's container.
    from PyQt6 import QtOpenGLWidgets

    state, view = make_view()
    assert view.findChildren(QtOpenGLWidgets.QOpenGLWidget) == []
    box = view.stereo.view.widget
    assert view.findChild(QtWidgets.QWidget, "stereographic") is box
    qtbot.waitUntil(lambda: view.stereo.view.isExposed() and view.stereo.view.size() == box.size())


def test_method_colours_appear_in_both_panels(make_view, qtbot):

    state, view = make_view("negated-20", t=0.3)
    qtbot.wait(50)
    img = view.great_circle.plot.grab().toImage()
    arr = _qimage_rgb(img)
    for m in METHODS:
        assert _has_colour(arr, METHOD_COLORS[m]), m
    gl_img = view.stereo.view.renderToArray((400, 400))
    rgb = np.asarray(gl_img)[..., [2, 1, 0]] if gl_img.shape[-1] == 4 else np.asarray(gl_img)
    assert any(_has_colour(rgb, METHOD_COLORS[m], tol=60, min_count=5) for m in METHODS)


def test_a_slerp_disc_shows_round_the_nlerp_square_on_it(make_view, qtbot):
    """negated-20 at t = 0.5: NLERP is SLERP there, and the naive NLERP square covered
    the naive SLERP disc, rim and all; a ring of the disc's colour shows round it."""
    state, view = make_view("negated-20", t=0.5)
    qtbot.wait(50)
    gc = view.great_circle
    (x,), (y,) = gc.markers["naive_nlerp"].getData()
    img = gc.plot.grab().toImage()
    ratio = img.devicePixelRatio() or 1.0
    centre = gc.plot.mapFromScene(gc.plot.getViewBox().mapViewToScene(QtCore.QPointF(x, y)))
    origin = gc.plot.mapFromScene(gc.plot.getViewBox().mapViewToScene(QtCore.QPointF(0, 0)))
    arr = _qimage_rgb(img)
    c = np.array([centre.x(), centre.y()]) * ratio
    out = c - np.array([origin.x(), origin.y()]) * ratio
    out /= np.hypot(*out)  # across the arc (9 px wide), whose own pink lies along it
    ring = [arr[int(round(p[1])), int(round(p[0]))] for k in (-1, 1)
            for p in (c + k * 6.5 * ratio * out,)]
    pink = np.array([int(METHOD_COLORS["naive_slerp"][i:i + 2], 16) for i in (1, 3, 5)])
    assert all(np.abs(px.astype(int) - pink).sum() < 60 for px in ring), (ring, pink)


def _qimage_rgb(img):
    from PyQt6 import QtGui

    img = img.convertToFormat(QtGui.QImage.Format.Format_RGB888)
    ptr = img.constBits()
    ptr.setsize(img.sizeInBytes())
    arr = np.frombuffer(ptr, np.uint8).reshape(img.height(), img.bytesPerLine())
    # Copy: the buffer belongs to the converted QImage, freed when it goes.
    return arr[:, : img.width() * 3].reshape(img.height(), img.width(), 3).copy()


class _Text:
    """A stand-in for a TextItem: only its box's size counts."""

    def __init__(self, width, height):
        self.textItem = SimpleNamespace(boundingRect=lambda: QtCore.QRectF(0, 0, width, height))


def test_a_circle_label_is_tried_touching_its_ball_straight_out_first():
    # A 40 x 20 label of a point 100 px right of the centre, 5 px of ball round it.
    rects, penalty = s3_circle._candidates(_Text(40, 20), np.array([100.0, 0.0]),
                                           np.zeros(2), 5.0)
    np.testing.assert_allclose(rects[0], (105, -10, 145, 10), atol=1e-12)
    assert penalty[0] == 0.0
    # Turned a quarter (the third turn, +60 deg, is not; 90 deg is the fifth): above or
    # below the point, its bottom or top 5 px from it.
    np.testing.assert_allclose(rects[5, [0, 2]], (80, 120), atol=1e-9)
    assert min(abs(rects[5, 1]), abs(rects[5, 3])) == pytest.approx(5.0)


@pytest.mark.parametrize("seed", range(5))
def test_circle_label_spots_clear_the_ball_by_their_step_out(seed):
    rng = np.random.default_rng(seed)
    for _ in range(20):
        width, height = rng.uniform(4, 90, 2)
        end, centre = rng.uniform(-300, 300, (2, 2))
        reach = rng.uniform(0, 20)
        rects, penalty = s3_circle._candidates(_Text(width, height), end, centre, reach)
        turns = np.tile(s3_circle._LABEL_TURNS, len(s3_circle._LABEL_FARTHER))
        farther = np.repeat(s3_circle._LABEL_FARTHER, len(s3_circle._LABEL_TURNS))
        assert len(rects) == len(turns)
        np.testing.assert_allclose(rects[:, 2] - rects[:, 0], width)
        np.testing.assert_allclose(rects[:, 3] - rects[:, 1], height)
        # Its centre lies in the direction turned from straight out (away from the centre).
        out = np.degrees(np.arctan2(*(end - centre)[::-1]))
        mid = (rects[:, :2] + rects[:, 2:]) / 2 - end
        # The ray from the point to that centre enters the box reach + farther out:
        # that point lies on the box's edge (inside it, on one of its sides).
        enter = end + mid / np.hypot(*mid.T)[:, None] * (reach + farther)[:, None]
        assert np.all(enter >= rects[:, :2] - 1e-7) and np.all(enter <= rects[:, 2:] + 1e-7)
        side = np.abs(np.c_[enter - rects[:, :2], enter - rects[:, 2:]]).min(axis=1)
        np.testing.assert_allclose(side, 0.0, atol=1e-7)
        turned = (np.degrees(np.arctan2(mid[:, 1], mid[:, 0])) - out - turns + 180) % 360 - 180
        np.testing.assert_allclose(turned, 0.0, atol=1e-7)
        # The penalty orders the spots as a reader would: straight out and near first,
        # dearer the more it turns within a ring, and ring by ring farther out.
        pen = penalty.reshape(len(s3_circle._LABEL_FARTHER), -1)
        bend = np.abs(np.asarray(s3_circle._LABEL_TURNS, float))
        by_bend = np.argsort(bend, kind="stable")
        assert np.all(np.diff(pen[:, by_bend], axis=1) >= -1e-12)
        assert np.all(pen[:, by_bend[-1]] > pen[:, by_bend[0]])
        assert np.all(np.diff(pen[:, bend == bend.min()], axis=0) > 0)
        assert np.all(np.diff(pen[:, by_bend[-1:]], axis=0) > 0)
        assert penalty.argmin() == int(np.flatnonzero(bend == bend.min())[0])


def test_tab_scrubber_moves_t_and_the_markers(make_view):
    state, view = make_view("quarter-turn", t=0.0)
    sc = view.scrubber
    assert sc.slider.objectName() == "s3_t_slider" and sc.isVisible()
    sc.slider.setValue(sc.slider.maximum())
    assert state.t == 1.0
    b = view.great_circle.basis
    np.testing.assert_allclose(np.c_[view.great_circle.markers["shortest_slerp"].getData()],
                               s3.to_plane(state.q1, b)[None], atol=1e-12)
    assert "t = 1.000" in as_read(view.stereo.axis_angle.text())
    # t set elsewhere (the two-key tab) shows in this tab's scrubber too
    state.set_t(0.25)
    assert sc.slider.value() == 250 and sc.spin.value() == 0.25
    # and it plays t: at 1x, BASE_DURATION / 2 seconds is half of [0, 1]
    sc.advance(BASE_DURATION / 2)
    assert state.t == pytest.approx(0.75)


def test_hidden_tab_follows_its_scrubber_only_when_shown(make_view):
    state, view = make_view("quarter-turn", t=0.0)
    view.hide()
    before = np.c_[view.great_circle.markers["shortest_slerp"].getData()].copy()
    view.scrubber.spin.setValue(1.0)
    assert state.t == 1.0
    # hidden: the panels wait (scrubbing another tab costs nothing here) ...
    np.testing.assert_allclose(np.c_[view.great_circle.markers["shortest_slerp"].getData()],
                               before)
    view.show()
    # ... and catch up when shown
    np.testing.assert_allclose(np.c_[view.great_circle.markers["shortest_slerp"].getData()],
                               s3.to_plane(state.q1, view.great_circle.basis)[None], atol=1e-12)


def _camera_direction(view):
    o = view.stereo.view.opts
    e, a = np.radians(o["elevation"]), np.radians(o["azimuth"])
    return np.array([np.cos(e) * np.cos(a), np.cos(e) * np.sin(a), np.sin(e)])


def test_stereographic_panel_labels_axes_and_half_angle(make_view):
    state, view = make_view()
    st = view.stereo
    texts = {lb.text for lb in st.layer.labels if lb.visible}
    assert {"q0", "q1", "−q1", "x", "y", "z"} <= texts
    # negated-20 at t = 0.5: the short way has turned 5 deg on S3, 0.044 from
    # q0 (at the origin from w = -1: tan(5 deg / 2) = 0.0437), its balls drawn
    # over q0's and -q1's; named all the same (unnamed, no one could tell where
    # the short way was), as the naive ones halfway to q1.
    assert texts >= {"naive N", "short N", "naive S", "short S"}
    for m in ("shortest_nlerp", "shortest_slerp"):
        assert np.linalg.norm(st.ball_pos[m] - st.ball_pos["q0"]) == pytest.approx(
            np.tan(np.radians(2.5)), abs=1e-3)
    # At t = 0.25 naive SLERP has turned 85 deg on S3 (tan(42.5 deg / 2) = 0.389
    # from q0) and is named; naive NLERP, slow at the ends of a long chord, is
    # still within 0.05 of q0, over its ball, and named too. At t = 0 every
    # method is on q0, whose label names the spot.
    state.set_t(0.25)
    shown = {lb.text for lb in st.layer.labels if lb.visible}
    assert {"naive S", "naive N"} <= shown
    assert np.linalg.norm(st.ball_pos["naive_slerp"]) == pytest.approx(np.tan(np.radians(21.25)))
    assert np.linalg.norm(st.ball_pos["naive_nlerp"]) < 0.05
    state.set_t(0.0)
    assert not {lb.text for lb in st.layer.labels if lb.visible} & {
        "naive N", "short N", "naive S", "short S"}
    state.set_t(0.5)
    np.testing.assert_allclose(st.labels["q0"].pos, st.project(state.q0), atol=1e-12)
    np.testing.assert_allclose(st.labels["shortest_slerp"].pos,
                               st.project(state.at_t()["shortest_slerp"].quats[0]), atol=1e-12)
    # Painted: every label got a plate, and no two plates overlap.
    st.view.grabFramebuffer()
    rects = [lb.rect for lb in st.layer.labels if lb.visible]
    assert all(r is not None for r in rects)
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert not a.intersects(b)
    # negated-20: dot = -cos(10 deg), 170 deg apart on S3, a turn of 340 deg
    # the naive way and 20 deg the short way (hand-worked).
    text = as_read(st.turning.text())
    assert "170.0° on S3 = 340.0° of turning" in text and "10.0° on S3 = 20.0° of turning" in text
    assert st.turning.isVisible()


def test_stereographic_camera_looks_at_the_oblique_circle_face_on(make_view):
    state, view = make_view()
    view.stereo.pole_box.setCurrentIndex(list(s3_view.POLES).index("oblique"))
    pts = view.stereo.project(state.curves["naive_slerp"].quats)
    pts = pts[np.all(np.isfinite(pts), axis=1)]
    # The image of a great circle is a circle: its plane's normal, by SVD.
    normal = np.linalg.svd(pts - pts.mean(axis=0))[2][2]
    cos = abs(float(_camera_direction(view) @ normal))
    assert cos > np.cos(np.radians(20))  # seen within 20 deg of face-on
    # And the camera frames the path: every point of it lies in front of the
    # camera, inside the 60 deg field of view.
    o = view.stereo.view.opts
    centre = np.array([o["center"].x(), o["center"].y(), o["center"].z()])
    eye = centre + o["distance"] * _camera_direction(view)
    to_pts = pts - eye
    ang = np.degrees(np.arccos((to_pts @ (centre - eye)) / (
        np.linalg.norm(to_pts, axis=1) * np.linalg.norm(centre - eye))))
    assert ang.max() < 30.0


def test_great_circle_states_the_half_angle(make_view):
    # negated-20: q1 = -(20 deg about z), dot = -cos(10 deg) = -0.98481, 170 deg
    # apart on S3 (hand-worked). The circle names the arc's value; the text
    # under the panels says what it is and its cosine.
    _, view = make_view()
    assert view.great_circle.angle_text.toPlainText() == "170.0°"
    text = as_read(_plain(view.stereo.turning.text()))
    assert "∠(q0, q1) = 170.0° on S3 = 340.0° of turning" in text
    assert "cos ∠(q0, q1) = dot(q0, q1) = −0.9848." in text


@pytest.mark.parametrize("width", [420, 520, 640])
def test_no_legend_entry_breaks_across_lines(qapp, width):
    """At 1024x768 and 150 % "shortest" ended one line and "SLERP" began the next:
    laid out at several widths, each method's name starts and ends on one line."""
    from PyQt6 import QtGui

    from quatlab.app.i18n import _
    from quatlab.math.curves import METHOD_LABELS

    doc = QtGui.QTextDocument()
    font = QtGui.QFont(qapp.font())
    font.setPointSizeF(font.pointSizeF() * 1.5)
    doc.setDefaultFont(font)
    doc.setHtml(s3_view._legend_html())
    doc.setTextWidth(width)
    doc.documentLayout()  # laid out
    block = doc.begin()
    layout = block.layout()
    assert layout.lineCount() >= 2  # the legend wraps at these widths
    for m in METHODS:
        found = doc.find(_(METHOD_LABELS[m]))
        assert not found.isNull(), m
        first = layout.lineForTextPosition(found.selectionStart() - block.position())
        last = layout.lineForTextPosition(found.selectionEnd() - 1 - block.position())
        assert first.lineNumber() == last.lineNumber(), (width, m)


_HYPHEN_MINUS = re.compile(r"(?<![\w.])-(?=\d)|(?<=\de)-(?=\d)")


def _plain(html: str) -> str:
    doc = QtGui.QTextDocument()
    doc.setHtml(html)
    return doc.toPlainText()


def test_every_number_the_tab_prints_has_a_minus_sign_not_a_hyphen(make_view):
    # "cos = dot(q0, q1) = -0.9848" and "(+0.00, +0.00, -11.43)": the rest of
    # the app writes U+2212 (explain.glue_formulas). Every text the tab
    # shows, for every preset, t and pole.
    from quatlab.app.model import presets

    state, view = make_view()
    shown = set()
    for name in presets.names():
        state.load_preset(name)
        for pole in range(len(s3_view.POLES)):
            view.stereo.pole_box.setCurrentIndex(pole)
            for t in (0.0, 0.5, 0.75, 1.0):
                state.set_t(t)
                gc, st = view.great_circle, view.stereo
                texts = {
                    "legend": _plain(view.legend.text()),
                    "turning": _plain(st.turning.text()),
                    "axis_angle": _plain(st.axis_angle.text()),
                    **{f"label {k}": lb.text for k, lb in st.labels.items()},
                    **{f"circle label {k}": lb.toPlainText() for k, lb in gc.labels.items()},
                }
                if gc.degenerate:
                    texts["message"] = _plain(gc.message.text())
                else:
                    texts["angle"] = gc.angle_text.toPlainText()
                for where, text in texts.items():
                    assert not _HYPHEN_MINUS.search(text), (name, pole, t, where, text)
                    shown.add(where)
                assert "−" in texts["axis_angle"] or name == "small-1", (name, texts["axis_angle"])
    assert {"message", "angle"} <= shown


# --------------------------------------------------------------------------- label spots
# Where the projection offers its labels (StereographicView._offer_spots), and its cost.


def _offsets(stereo) -> dict:
    return {name: (label.offset, label.priority, label.visible)
            for name, label in stereo.labels.items()}


def test_a_preset_change_places_the_labels_once_and_as_a_fresh_placement_would(make_view,
                                                                              monkeypatch):
    # The change framed the camera and placed every label with the methods'
    # balls still at the last preset's t, then placed them all again at the new t.
    state, view = make_view("negated-20", t=0.3)
    stereo = view.stereo
    calls = []
    offer = stereo._offer_spots
    monkeypatch.setattr(stereo, "_offer_spots", lambda zoom: (calls.append(zoom), offer(zoom)))
    state.load_preset("large-170")
    assert len(calls) == 1
    placed = _offsets(stereo)
    stereo._size_balls()   # again, with nothing changed: the same spots
    assert _offsets(stereo) == placed


def _pixels(stereo):
    """``(w, h, to_px)``: the panel's size and world points (N, 3) -> pixels, from the GL
    view's own matrices as they stand (nothing the panel kept)."""
    view = stereo.view
    w, h = view.widget.width(), view.widget.height()
    m = view.projectionMatrix((0, 0, w, h), (0, 0, w, h)) * view.viewMatrix()
    m = np.array(m.copyDataTo(), float).reshape(4, 4)

    def to_px(points):
        c = np.c_[np.asarray(points, float).reshape(-1, 3), np.ones(len(points))] @ m.T
        ndc = c[:, :2] / c[:, 3:4]
        return np.c_[(ndc[:, 0] + 1) * w / 2, (1 - ndc[:, 1]) * h / 2]
    return w, h, to_px


def _nearest_free_spots(stereo) -> dict:
    """Each plate's offset found the slow, plain way: every spot round its ball scored
    against every segment of every obstacle (no ring, no cache), nearest free one taken,
    plates in the order of the priorities the panel gave them; the home offset where none
    is free. A spot whose leader runs along an axis is not free. ``{first label's name:
    offset}``."""
    w, h, to_px = _pixels(stereo)
    segs = Segments(np.concatenate([polyline_segments(to_px(line))
                                    for line in stereo.layer.obstacles if len(line)]))
    to_window = QtGui.QMatrix4x4()
    to_window.viewport(0.0, float(h), float(w), -float(h))
    view = stereo.view
    project = to_window * view.projectionMatrix((0, 0, w, h), (0, 0, w, h)) * view.viewMatrix()
    units = sorted(stereo._plates(project), key=lambda u: -stereo.labels[u[0][0]].priority)
    axes = to_px(np.asarray(stereo.axes.pos, float)).reshape(-1, 2, 2)
    pad = s3_stereo._SPOT_PAD
    found, taken = {}, []
    for names, anchor in units:
        box = text_block([stereo.labels[n] for n in names])[0]
        radius = max(stereo.ball_px.get(n, 0.0) for n in names) * themes.scale()
        offsets, rects, far = s3_stereo._spots(anchor, box, radius)
        cost = costs(rects, segs, taken, (0.0, 0.0, float(w), float(h)))
        along = leaders_along(anchor, rects + [pad, pad, -pad, -pad], axes)
        free = [i for i in np.argsort(far, kind="stable") if cost[i] == 0.0 and not along[i]]
        if not free:
            found[names[0]] = stereo._home[names[0]][0]
            continue
        found[names[0]] = tuple(offsets[free[0]])
        left, top, right, bottom = rects[free[0]]
        taken.append((left + pad, top + pad, right - pad, bottom - pad))
    return found


@pytest.mark.parametrize("preset", ["negated-20", "large-170", "quarter-turn"])
def test_each_label_takes_the_nearest_spot_that_covers_nothing(make_view, preset):
    # The spots are searched a ring at a time, spots off the view or on a plate
    # left out before clipping, the lines drawn projected once per camera: the
    # spot taken is still the one a search of every spot against every line gives.
    state, view = make_view(preset, t=0.0)
    stereo = view.stereo
    for pole in range(stereo.pole_box.count()):
        stereo.pole_box.setCurrentIndex(pole)
        for t in (0.0, 0.37, 1.0):
            state.set_t(t)
            expected = _nearest_free_spots(stereo)
            assert expected
            for name, offset in expected.items():
                assert stereo.labels[name].offset == pytest.approx(offset), (pole, t, name)


def test_the_lines_projected_for_the_labels_follow_a_preset_change(make_view):
    # The lines' segments in pixels are kept between steps of t; a preset change
    # (new paths, a new camera) must project them again.
    state, view = make_view("negated-20", t=0.4)
    stereo = view.stereo
    for k, preset in enumerate(("large-170", "quarter-turn", "negated-20")):
        state.load_preset(preset)
        w, h, to_px = _pixels(stereo)
        fresh = np.concatenate([polyline_segments(to_px(line)) for line in stereo._lines()
                                if len(line)])
        kept = stereo._lines_cache[1]
        assert kept.shape == fresh.shape, preset
        np.testing.assert_allclose(kept, fresh, atol=1e-6, err_msg=preset)
        # ... and a step of t alone reuses them.
        state.set_t(0.5 + 0.1 * k)
        assert stereo._lines_cache[1] is kept, preset
