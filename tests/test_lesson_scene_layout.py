"""The lesson tabs' 3D views: labels never overlap each other or hide a chain, the camera
frames every body drawn (the Euler tab's gimbal rings too), all in screen space.

For every preset of the SQUAD, Euler, blend and integration tabs at the start,
middle and end of the slider's range, at 1400x900: the label plates the
scene drew are projected by nothing but themselves, the chains are rebuilt
from each chain's rotation and root (:func:`quatlab.rendering.chain.chain_frames`,
with their fins and hands) and projected by the view's own camera, and every
outline segment is clipped against every plate.
"""

from __future__ import annotations

import numpy as np
import pytest
from PyQt6 import QtCore, QtWidgets
from test_scene_explains import _projector
from test_scene_gl import _grab

from quatlab.app.model.blend_lesson import BlendModel
from quatlab.app.model.euler_lesson import EulerModel
from quatlab.app.model.integrate_lesson import IntegrateModel
from quatlab.app.model.track_lesson import TrackModel
from quatlab.math import quaternion as Q
from quatlab.rendering.bone_mesh import FIN_HEIGHT
from quatlab.rendering.chain import ROOT, bone_lengths, chain_frames, hand_height

pytestmark = pytest.mark.gl


@pytest.fixture
def lesson_tab(qtbot):
    """The window at ``size`` showing tab ``kind`` on ``preset``: as a screenshot shows it."""
    from quatlab.app.qt.window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)

    def show(kind: str, preset: str, size=(1400, 900)):
        win.resize(*size)
        win.show_view(kind)
        win.show()
        qtbot.waitExposed(win)
        view = win.views[kind]
        qtbot.waitUntil(view.scene.isValid)
        view.model.set_preset(preset)
        for _ in range(3):
            QtWidgets.QApplication.processEvents()
        return view

    return show


_PRESETS = ([("squad", p) for p in TrackModel.PRESETS] + [("euler", p) for p in EulerModel.PRESETS]
            + [("blend", p) for p in BlendModel.PRESETS]
            + [("integrate", p) for p in IntegrateModel.PRESETS])


def segment_hits_rect(a, b, rect) -> bool:
    """Whether the segment ``a``-``b`` (pixels) meets the closed rectangle.

    An end inside, or a crossing of one of the four sides (orientation tests),
    independent of the clipping the label layer does.

    >>> from PyQt6 import QtCore
    >>> r = QtCore.QRectF(0, 0, 10, 10)
    >>> segment_hits_rect((-5, 5), (15, 5), r), segment_hits_rect((-5, -1), (15, -1), r)
    (True, False)
    >>> segment_hits_rect((-5, 8), (8, -5), r), segment_hits_rect((-5, 3), (3, -5), r)
    (True, False)
    """
    def inside(p):
        return rect.left() <= p[0] <= rect.right() and rect.top() <= p[1] <= rect.bottom()

    def orient(p, q, r):
        return np.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]))

    def crosses(p1, p2, q1, q2):
        d = (orient(q1, q2, p1), orient(q1, q2, p2), orient(p1, p2, q1), orient(p1, p2, q2))
        return d[0] * d[1] <= 0 and d[2] * d[3] <= 0

    if inside(a) or inside(b):
        return True
    c = [(rect.left(), rect.top()), (rect.right(), rect.top()),
         (rect.right(), rect.bottom()), (rect.left(), rect.bottom())]
    return any(crosses(a, b, c[i], c[(i + 1) % 4]) for i in range(4))


def _chains_on_screen(scene):
    """Each posed chain as pixel polylines: root -> joints -> tip, every fin and the hand.

    The outlines are those the bone meshes are built from (docs/architecture.md:
    a fin on each bone, a flat hand rising from the tip): fin corners at 0.3,
    0.85 and (0.42, up 0.24) of the bone, hand corners at 0.35 and 1 of the
    last bone and (1, 0.8) of it at the hand's height.
    """
    to_px = _projector(scene)
    lengths = bone_lengths()
    hand = hand_height()
    lines = []
    for chain in scene._chains.values():
        shown = chain.wanted and chain.q is not None and np.all(np.isfinite(chain.q))
        if not shown:
            continue
        joints, rotations = chain_frames(chain.q, root_only=scene.root_only())
        joints = joints + (chain.root - ROOT)
        lines.append(to_px(joints))
        for k, (length, rot) in enumerate(zip(lengths, rotations, strict=True)):
            last = k == len(lengths) - 1
            outline = ([(0.35, 0.0), (1.0, 0.0), (1.0, hand / length), (0.8, hand / length)]
                       if last else [(0.3, 0.0), (0.85, 0.0), (0.42, FIN_HEIGHT)])
            local = np.array([[length * x, 0.0, length * z] for x, z in outline])
            world = joints[k] + Q.rotate_vector(rot, local)
            lines.append(to_px(np.vstack([world, world[:1]])))
    return lines


def assert_labels_clear(scene, where) -> None:
    placed = scene.placed_labels()
    assert placed, ("no label drawn", where)
    w, h = scene.width(), scene.height()
    for i, (text, rect) in enumerate(placed):
        assert rect.left() >= 0 and rect.top() >= 0 and rect.right() <= w \
            and rect.bottom() <= h, (where, text, rect)
        for other, r2 in placed[i + 1 :]:
            assert not rect.intersects(r2), (where, text, other)
    for line in _chains_on_screen(scene):
        for a, b in zip(line[:-1], line[1:], strict=True):
            for text, rect in placed:
                assert not segment_hits_rect(a, b, rect), (where, text, a, b)


@pytest.mark.parametrize("size", [(1400, 900), (1280, 720)])
@pytest.mark.parametrize(("kind", "preset"), _PRESETS)
def test_lesson_labels_never_overlap_each_other_or_a_chain(lesson_tab, kind, preset, size):
    view = lesson_tab(kind, preset, size)
    lo, hi = view.model.param_range
    for f in (0.0, 0.5, 1.0):
        view.model.set_param(lo + f * (hi - lo))
        QtWidgets.QApplication.processEvents()
        _grab(view.scene)
        assert_labels_clear(view.scene, (preset, f))


def test_labels_of_chains_in_one_pose_share_one_plate(lesson_tab):
    """At t = 0 the Euler tab's two chains, on one root, sit on the start pose: one
    plate, a line per chain."""
    view = lesson_tab("euler", next(iter(EulerModel.PRESETS)))
    view.model.set_param(view.model.param_range[0])
    _grab(view.scene)
    rects = dict(view.scene.placed_labels())
    chain_texts = ["Euler angles, lerped", "SLERP"]
    assert set(chain_texts) <= set(rects)
    bands = [rects[t] for t in chain_texts]
    # Stacked in order, same left edge and width, each band right under the last.
    assert len({(round(r.left(), 3), round(r.width(), 3)) for r in bands}) == 1
    for upper, lower in zip(bands, bands[1:], strict=False):
        assert lower.top() == pytest.approx(upper.bottom())


def test_squad_chains_apart_have_a_plate_each(lesson_tab):
    """The SQUAD tab's four chains hang side by side: at t = 0, all on key 0, each
    has a plate of its own, none over another (they shared one on one root)."""
    view = lesson_tab("squad", "four_keys")
    view.model.set_param(0.0)
    _grab(view.scene)
    rects = dict(view.scene.placed_labels())
    bands = [rects[t] for t in ["piecewise NLERP", "piecewise SLERP", "SQUAD",
                                "SQUAD, sign-unaware"]]
    for i, a in enumerate(bands):
        for b in bands[i + 1:]:
            assert not a.intersects(b), (a, b)


@pytest.mark.parametrize("size", [(1400, 900), (1280, 720)])
@pytest.mark.parametrize("preset", list(EulerModel.PRESETS))
def test_the_euler_camera_frames_the_gimbal_rings(lesson_tab, preset, size):
    from quatlab.math.gimbal import gimbal_rings
    from quatlab.rendering.gimbal import ring_points

    view = lesson_tab("euler", preset, size)
    scene, m = view.scene, view.model
    w, h = scene.width(), scene.height()
    seen = []
    for t in (0.0, 0.5, 1.0):
        m.set_param(t)
        QtWidgets.QApplication.processEvents()
        to_px = _projector(scene)
        px = to_px(ring_points(gimbal_rings(m.angles_at_param(), m.order)))
        assert px[:, 0].min() >= 0 and px[:, 0].max() <= w and px[:, 1].min() >= 0 \
            and px[:, 1].max() <= h, (preset, t, px.min(0), px.max(0), (w, h))
        seen.append(px)
    # The chains over the whole path and the rings still fill the view: the
    # rings did not push the camera away.
    c = m.comparison
    path = np.vstack([c.euler_quats[::10], c.slerp_quats[::10]])
    seen = np.vstack([*seen, to_px(chain_frames(path, root_only=True)[0])])
    assert max(np.ptp(seen[:, 0]) / w, np.ptp(seen[:, 1]) / h) > 0.5, preset


def test_hiding_the_gimbal_frames_the_chains_alone(lesson_tab):
    view = lesson_tab("euler", "pitch90_lock")
    with_rings = view.scene.opts["distance"]
    view.show_gimbal.setChecked(False)
    assert view.scene.opts["distance"] < with_rings
    view.show_gimbal.setChecked(True)
    assert view.scene.opts["distance"] == pytest.approx(with_rings)


@pytest.mark.parametrize("final", [(1400, 720), (1000, 760)])
def test_scene_and_plots_split_the_same_whatever_the_resize_path(qtbot, final):
    """The split came from the stretch factors sharing out each resize's change, so
    the same final size gave the scene 358 or 329 px by the sizes gone through.
    Wide (1400x720) the plots stand beside the view, else below it, 5 : 4."""
    from quatlab.app.qt.window import MainWindow

    heights = []
    for path in ([final], [(1000, 500), (1900, 1100), final]):
        win = MainWindow()
        qtbot.addWidget(win)
        win.show()
        qtbot.waitExposed(win)
        for size in path:
            win.resize(*size)
            for _ in range(3):
                QtWidgets.QApplication.processEvents()
        split = win.lesson.findChild(QtWidgets.QSplitter)
        beside = split.orientation() == QtCore.Qt.Orientation.Horizontal
        heights.append((beside, *split.sizes()))
        total = sum(split.sizes())
        if beside:  # a wide stage: the plots in a column, a third of the width
            want = max(int(total * split.BESIDE_SHARE), split.widget(1).minimumSizeHint().width())
        else:
            want = max(total * 4 // 9, split.widget(1).minimumSizeHint().height())
        assert abs(split.sizes()[1] - want) <= 1, (beside, split.sizes())
    assert heights[0][0] == heights[1][0] == (final == (1400, 720)), heights  # one arrangement
    assert abs(heights[0][1] - heights[1][1]) <= 1, heights  # one pixel of rounding
