"""Pixel tests of quatlab.rendering.chain_scene.ChainScene under a real GL context.

Needs Xvfb/xcb (tests/conftest.py arranges it); offscreen Qt gives a GL
view no context at all. The scene is a native window: tests show and size
its container (``scene.widget``) and send input to the scene itself.
Colours are matched with tolerances: bones are lit, so a method colour is
recognized by its hue, while the unlit gizmo lines keep their exact colour
in the core of each line.
"""

from __future__ import annotations

import colorsys

import numpy as np
import pytest
from PyQt6 import QtCore, QtGui

from quatlab.math import quaternion as Q
from quatlab.math.curves import compute_curves
from quatlab.math.track import compute_track
from quatlab.rendering import themes
from quatlab.rendering.style import AXIS_COLORS, METHOD_COLORS, rgba

pytestmark = pytest.mark.gl

SIZE = (400, 300)
NAIVE = METHOD_COLORS["naive_nlerp"]
SHORTEST = METHOD_COLORS["shortest_nlerp"]


def _hue(hex_colour: str) -> float:
    return colorsys.rgb_to_hsv(*rgba(hex_colour)[:3])[0] * 360.0


def _grab(scene) -> np.ndarray:
    """The scene rendered now (offscreen) as an (H, W, 3) uint8 RGB array."""
    return _rgb(scene.grabFramebuffer())


def _screen(scene) -> np.ndarray:
    """What the X server shows in the scene's native window (which must be uncovered)."""
    return _rgb(QtGui.QGuiApplication.primaryScreen().grabWindow(int(scene.winId())).toImage())


def _rgb(img: QtGui.QImage) -> np.ndarray:
    img = img.convertToFormat(QtGui.QImage.Format.Format_RGB888)
    ptr = img.constBits()
    ptr.setsize(img.sizeInBytes())
    rows = np.frombuffer(ptr, np.uint8).reshape(img.height(), img.bytesPerLine())
    return rows[:, : 3 * img.width()].reshape(img.height(), img.width(), 3).copy()


def _count_hue(img: np.ndarray, hex_colour: str, tol: float = 7.0, min_sat: float = 0.45) -> int:
    """Pixels whose hue is within ``tol`` degrees of the colour's, and clearly coloured."""
    rgb = img.astype(np.float64) / 255.0
    mx, mn = rgb.max(axis=-1), rgb.min(axis=-1)
    sat = np.where(mx > 0, (mx - mn) / np.where(mx > 0, mx, 1.0), 0.0)
    r, g, b = np.moveaxis(rgb, -1, 0)
    delta = np.where(mx > mn, mx - mn, 1.0)
    hue = np.select(
        [mx == r, mx == g],
        [((g - b) / delta) % 6.0, (b - r) / delta + 2.0],
        (r - g) / delta + 4.0,
    ) * 60.0
    diff = np.abs((hue - _hue(hex_colour) + 180.0) % 360.0 - 180.0)
    return int(np.count_nonzero((diff <= tol) & (sat >= min_sat) & (mx > 0.15)))


def _count_near(img: np.ndarray, hex_colour: str, tol: int = 14) -> int:
    target = np.array(rgba(hex_colour)[:3]) * 255.0
    return int(np.count_nonzero(np.abs(img.astype(np.float64) - target).max(axis=-1) <= tol))


def _show_scene(qtbot, **kwargs):
    """A ChainScene on screen at SIZE, deleted with its container after the test."""
    from quatlab.rendering.chain_scene import ChainScene

    view = ChainScene(**kwargs)
    qtbot.addWidget(view.widget)
    view.widget.resize(*SIZE)
    view.widget.show()
    qtbot.waitExposed(view)
    # The GL context comes with the first frame, just after the expose.
    qtbot.waitUntil(view.isValid)
    return view


@pytest.fixture
def scene(qtbot):
    return _show_scene(qtbot)


def _seed_midpoint():
    """Seed 000 at t = 0.5: naive NLERP 170 degrees, shortest 10 degrees about Z."""
    q1 = -Q.from_axis_angle([0, 0, 1], np.radians(20.0))
    curves = compute_curves(Q.IDENTITY, q1, samples=101)
    return curves, curves["naive_nlerp"].quats[50], curves["shortest_nlerp"].quats[50]


def _two_chains(scene):
    curves, naive, shortest = _seed_midpoint()
    scene.set_chain("naive", naive, NAIVE)
    scene.set_chain("shortest", shortest, SHORTEST)
    return curves


def test_render_size_and_background(scene):
    img = _grab(scene)
    assert img.shape == (SIZE[1], SIZE[0], 3)
    # The top rows show sky only: the light background the module promises.
    from quatlab.rendering.style import SCENE_BACKGROUND

    assert _count_near(img[:20], SCENE_BACKGROUND, tol=3) == 20 * SIZE[0]


def test_grid_is_visible_but_subtle(scene):
    img = _grab(scene).astype(int)
    bg = np.array(rgba("#F5F5F3")[:3]) * 255
    lower = np.abs(img[SIZE[1] * 3 // 4 :] - bg).max(axis=-1)
    lines = lower[lower > 6]
    assert lines.size > 500          # grid lines are there ...
    assert np.median(lines) < 90     # ... as light grey, not black


def test_gizmo_colours_present(scene):
    before = _grab(scene)
    _two_chains(scene)
    img = _grab(scene)
    for colour in AXIS_COLORS[1:]:
        # The world-axes marker is translucent, so it never hits the exact
        # colour; the joint gizmos must add clearly more exact pixels.
        assert _count_near(img, colour) >= _count_near(before, colour) + 30, colour


def test_gizmos_do_not_recolour_the_bones(scene):
    """The joint gizmos draw no X axis: it ran inside every bone, over it, so bones read red."""
    before = _grab(scene)
    _two_chains(scene)
    img = _grab(scene)
    assert _count_near(img, AXIS_COLORS[0]) <= _count_near(before, AXIS_COLORS[0]) + 5


def test_method_colours_of_both_chains_present(scene):
    assert _count_hue(_grab(scene), NAIVE) == 0
    assert _count_hue(_grab(scene), SHORTEST) == 0
    _two_chains(scene)
    img = _grab(scene)
    assert _count_hue(img, NAIVE) > 300
    assert _count_hue(img, SHORTEST) > 300


def test_slerp_colours_too(scene):
    scene.set_chain("naive", Q.from_axis_angle([0, 1, 0], 1.0), METHOD_COLORS["naive_slerp"])
    scene.set_chain("shortest", Q.from_axis_angle([0, 0, 1], -0.5),
                    METHOD_COLORS["shortest_slerp"])
    img = _grab(scene)
    assert _count_hue(img, METHOD_COLORS["naive_slerp"], min_sat=0.3) > 300
    assert _count_hue(img, METHOD_COLORS["shortest_slerp"]) > 300


def test_pose_changes_the_image(scene):
    curves, _, _ = _seed_midpoint()
    scene.set_chain("naive", curves["naive_nlerp"].quats[0], NAIVE)
    at_start = _grab(scene)
    scene.set_chain("naive", curves["naive_nlerp"].quats[30], NAIVE)
    later = _grab(scene)
    changed = np.abs(at_start.astype(int) - later.astype(int)).max(axis=-1) > 30
    assert np.count_nonzero(changed) > 1000


def test_minus_q_draws_the_same_image(scene):
    q = Q.from_axis_angle([1, -2, 0.5], 2.2)
    scene.set_chain("naive", q, NAIVE)
    scene.set_ghosts(Q.IDENTITY, q)
    plus = _grab(scene)
    scene.set_chain("naive", -q, NAIVE)
    scene.set_ghosts(-Q.IDENTITY, -q)
    minus = _grab(scene)
    assert np.count_nonzero(np.abs(plus.astype(int) - minus.astype(int)) > 2) == 0


def test_none_removes_the_chain(scene):
    _, naive, shortest = _seed_midpoint()
    scene.set_chain("shortest", shortest, SHORTEST)
    alone = _grab(scene)
    scene.set_chain("naive", naive, NAIVE)
    assert _count_hue(_grab(scene), NAIVE) > 300
    scene.set_chain("naive", None)
    img = _grab(scene)
    # Exactly the picture without the naive chain: nothing left, nothing invented.
    assert np.array_equal(img, alone)
    assert _count_hue(img, SHORTEST) > 300


def test_collapse_hides_the_chain_but_keeps_a_label(scene):
    _, naive, shortest = _seed_midpoint()
    scene.set_chain("shortest", shortest, SHORTEST)
    scene.set_chain("naive", naive, NAIVE)
    scene.set_chain("naive", None)
    nothing = _grab(scene)
    scene.set_chain("naive", [np.nan] * 4)
    collapsed = _grab(scene)
    # All that differs from "no naive chain" is one line of text, in the
    # naive colour: no bone, no gizmo, no invented pose.
    rows, cols = np.nonzero(np.abs(collapsed.astype(int) - nothing.astype(int)).max(axis=-1) > 30)
    assert rows.size > 50
    assert rows.max() - rows.min() < 25
    assert _count_hue(collapsed, NAIVE, min_sat=0.3) > 50


def test_chain_visibility_toggle(scene):
    _, naive, shortest = _seed_midpoint()
    scene.set_chain("naive", naive, NAIVE)
    naive_only = _grab(scene)
    scene.set_chain("shortest", shortest, SHORTEST)
    with_both = _grab(scene)
    scene.set_chain_visible("shortest", False)
    assert np.array_equal(_grab(scene), naive_only)
    scene.set_chain_visible("shortest", True)
    assert np.array_equal(_grab(scene), with_both)


def test_ghosts_are_fainter_than_chains(scene):
    baseline = _grab(scene).astype(int)
    q = Q.from_axis_angle([0, 0, 1], 0.6)
    scene.set_ghosts(q, None)
    ghost = np.abs(_grab(scene).astype(int) - baseline).max(axis=-1)
    scene.set_ghosts(None, None)
    scene.set_chain("naive", q, themes.current().ghost)  # a chain in the ghosts' own grey
    chain = np.abs(_grab(scene).astype(int) - baseline).max(axis=-1)
    ghost_px, chain_px = ghost[ghost > 8], chain[chain > 8]
    assert ghost_px.size > 100
    # Translucent (about half opacity, docs/curves.md "Themes"), lit more flatly.
    assert np.median(ghost_px) < 0.6 * np.median(chain_px)


def test_trail_draws_the_long_way(scene):
    curves = _two_chains(scene)
    without = _count_hue(_grab(scene), NAIVE, min_sat=0.2)
    scene.set_path("naive", curves["naive_nlerp"].quats, NAIVE)
    scene.set_path("shortest", curves["shortest_nlerp"].quats, SHORTEST)
    img = _grab(scene)
    # The 340-degree naive trail is far longer on screen than the 20-degree one.
    naive_trail = _count_hue(img, NAIVE, min_sat=0.2) - without
    assert naive_trail > 400
    scene.set_path("naive", None)
    # What is left is the chain (a few pixels of antialiasing may differ).
    assert abs(_count_hue(_grab(scene), NAIVE, min_sat=0.2) - without) <= 0.01 * naive_trail


def test_trail_with_a_gap_renders(scene):
    q0 = Q.from_axis_angle([0, 1, 0], 0.6)
    curves = compute_curves(q0, -q0, samples=101)  # naive NLERP collapses at t = 0.5
    scene.set_path("naive", curves["naive_nlerp"].quats, NAIVE)
    scene.set_trail("shortest", [[0, 0, 0.5], [np.nan] * 3, [1, 1, 0.5], [2, 0, 0.5]], SHORTEST)
    assert _count_hue(_grab(scene), SHORTEST, min_sat=0.2) > 20
    with pytest.raises(ValueError, match="points"):
        scene.set_trail("shortest", np.zeros((3, 2)))


def test_a_tangled_trail_is_drawn_without_antialiasing_and_a_plain_one_with(scene):
    """A trail of thousands of swings is a tangle (a jittery 200-key track):
    antialiased wide lines cost llvmpipe most of a frame, and nobody follows
    its edges. A trail of ordinary length keeps smooth edges, and a dense
    sampling of a simple path is resolved to a fraction of its samples."""
    rng = np.random.default_rng(3)
    steps = Q.from_rotvec(rng.normal(scale=0.3, size=(200, 3)))
    keys = np.array([Q.IDENTITY] * 200)
    for k in range(1, 200):
        keys[k] = Q.multiply(keys[k - 1], steps[k])
    keys[::5] *= -1
    tangle = compute_track(np.arange(200) / 10, keys, samples=12_001)["squad_unaware"].quats
    scene.set_path("naive", tangle, NAIVE)
    trail = scene._chains["naive"].trail
    assert len(trail.pos) > 12_000 and not trail.antialias
    assert _count_hue(_grab(scene), NAIVE, min_sat=0.2) > 2000  # drawn all the same
    arc = Q.from_axis_angle([0, 0, 1], np.linspace(0, 2.0, 12_000))
    scene.set_path("shortest", arc, SHORTEST)
    plain = scene._chains["shortest"].trail
    assert plain.antialias and len(plain.pos) < 0.5 * 2 * len(arc)


def test_root_only_redraws_chain_and_trail(scene):
    curves = _two_chains(scene)
    scene.set_path("naive", curves["naive_nlerp"].quats, NAIVE)
    compounding = _grab(scene)
    scene.set_root_only(True)
    assert scene.root_only()
    root_only = _grab(scene)
    assert np.count_nonzero(np.abs(compounding.astype(int) - root_only.astype(int)) > 30) > 500
    scene.set_root_only(False)
    assert np.array_equal(_grab(scene), compounding)


def test_labels_follow_set_label(scene):
    _two_chains(scene)
    before = _grab(scene)
    scene.set_label("naive", "naive NLERP, a much longer label")
    after = _grab(scene)
    assert np.count_nonzero(np.abs(before.astype(int) - after.astype(int)) > 30) > 50


def test_reset_camera_and_keys(scene, qtbot):
    _two_chains(scene)
    home = _grab(scene)
    scene.orbit(40, 10)
    scene.opts["distance"] *= 0.7
    assert not np.array_equal(_grab(scene), home)
    qtbot.keyClick(scene, QtCore.Qt.Key.Key_R)
    assert np.array_equal(_grab(scene), home)
    scene.orbit(-25, 5)
    qtbot.keyClick(scene, QtCore.Qt.Key.Key_Home)
    assert np.array_equal(_grab(scene), home)
    scene.orbit(10, 0)
    scene.reset_camera()
    assert np.array_equal(_grab(scene), home)


def test_default_view_frames_the_reach(scene):
    # The straight chain pointing up, down or sideways stays inside the view.
    scene.set_root_only(True)
    scene.set_label("naive", "")
    for axis, angle in [([0, 1, 0], -np.pi / 2), ([0, 1, 0], np.pi / 2),
                        ([0, 0, 1], np.pi / 2), ([0, 0, 1], -np.pi / 2), ([0, 0, 1], np.pi)]:
        scene.set_chain("naive", Q.from_axis_angle(axis, angle), NAIVE)
        img = _grab(scene)
        inside = _count_hue(img[3:-3, 3:-3], NAIVE)
        assert inside > 200 and inside == _count_hue(img, NAIVE), (axis, angle)


def test_two_scenes_share_shaders(qtbot):
    # The window may hold two views; pyqtgraph caches programs per class,
    # which needs AA_ShareOpenGLContexts (set by conftest, as the app does).
    views = []
    for _ in range(2):
        view = _show_scene(qtbot, n_bones=4, bone_length=0.8)
        view.set_chain("naive", Q.from_axis_angle([0, 0, 1], 1.0), NAIVE)
        views.append(view)
    for view in views:
        assert _count_hue(_grab(view), NAIVE) > 200


def test_bad_arguments(scene):
    with pytest.raises(ValueError, match="q must be one quaternion"):
        scene.set_chain("naive", [1.0, 0.0, 0.0])
    with pytest.raises(TypeError, match="key"):
        scene.set_chain(3, Q.IDENTITY)


def test_labels_survive_a_grab_of_the_parent_window(qtbot):
    # The window's screenshot is grab_widget() of the whole window, which
    # paints the scene's offscreen frame in; text painted outside that
    # frame would be missing from it.
    from PyQt6 import QtWidgets

    from quatlab.rendering.chain_scene import ChainScene
    from quatlab.rendering.gl_view import grab_widget

    window = QtWidgets.QWidget()
    qtbot.addWidget(window)
    view = ChainScene(window)
    QtWidgets.QVBoxLayout(window).addWidget(view.widget)
    window.resize(*SIZE)
    window.show()
    qtbot.waitExposed(view)
    view.set_chain("naive", Q.from_axis_angle([0, 0, 1], 1.0), NAIVE)

    def grab_window():
        img = grab_widget(window).convertToFormat(QtGui.QImage.Format.Format_RGB888)
        ptr = img.constBits()
        ptr.setsize(img.sizeInBytes())
        rows = np.frombuffer(ptr, np.uint8).reshape(img.height(), img.bytesPerLine())
        return rows[:, : 3 * img.width()].reshape(img.height(), img.width(), 3).astype(int)

    view.set_label("naive", "")
    bare = grab_window()
    view.set_label("naive", "naive NLERP")
    labelled = grab_window()
    assert np.count_nonzero(np.abs(labelled - bare).max(axis=-1) > 60) > 40


def _screen_matches_render(scene) -> bool:
    """The screen shows what grabFramebuffer renders, but for a few z-fighting edge pixels."""
    differ = np.abs(_screen(scene).astype(int) - _grab(scene).astype(int)).max(axis=-1) > 30
    return np.count_nonzero(differ) < 50


def test_the_screen_hides_far_faces(qtbot):
    # A QOpenGLWindow's surface has no depth buffer unless its format asks
    # for one; the bones then show their far faces through the near ones
    # (about 2000 pixels differ here). grabFramebuffer renders into an FBO
    # with its own depth attachment, so only the screen shows the fault.
    scene = _show_scene(qtbot, n_bones=1)
    assert scene.context().format().depthBufferSize() >= 24
    scene.set_label("naive", "")
    scene.set_chain("naive", Q.IDENTITY, NAIVE)
    scene.widget.raise_()
    assert _count_hue(_grab(scene), NAIVE) > 300
    qtbot.waitUntil(lambda: _screen_matches_render(scene), timeout=3000)


def test_a_burst_of_changes_renders_one_frame(scene, qtbot):
    # update() posts one UpdateRequest however often it is called, and does
    # not also go through QPaintDeviceWindow.update(), whose own request
    # would render a second frame for the same change of t.
    qtbot.waitUntil(lambda: not scene.update_pending)
    frames = []
    scene.frameSwapped.connect(lambda: frames.append(1))
    curves = _two_chains(scene)
    scene.set_path("naive", curves["naive_nlerp"].quats, NAIVE)
    scene.set_ghosts(Q.IDENTITY, curves["naive_nlerp"].quats[-1])
    assert scene.update_pending and not frames
    qtbot.wait(200)
    assert len(frames) == 1 and not scene.update_pending


def test_a_paint_before_the_posted_frame_renders_it_once(scene, qtbot):
    # An expose (the view resized by a new explanation's height) paints a
    # frame at once with every change so far: the UpdateRequest posted for
    # those changes would render the same frame a second time.
    qtbot.waitUntil(lambda: not scene.update_pending)
    frames = []
    scene.frameSwapped.connect(lambda: frames.append(1))
    curves = _two_chains(scene)
    assert scene.update_pending and not frames
    QtCore.QCoreApplication.sendEvent(scene, QtGui.QPaintEvent(QtCore.QRect(QtCore.QPoint(),
                                                                            scene.size())))
    assert len(frames) == 1 and not scene.update_pending
    qtbot.wait(200)
    assert len(frames) == 1
    # A change after that paint gets its own frame, showing it.
    scene.set_path("naive", curves["naive_nlerp"].quats, NAIVE)
    assert scene.update_pending
    qtbot.waitUntil(lambda: len(frames) == 2, timeout=2000)
    qtbot.waitUntil(lambda: _screen_matches_render(scene), timeout=3000)


def test_changes_while_hidden_show_when_shown(scene, qtbot):
    # A hidden view (another tab) is not exposed: no frame is posted, and
    # the expose that shows it again renders the latest state.
    scene.widget.hide()
    qtbot.waitUntil(lambda: not scene.isExposed())
    _two_chains(scene)
    assert not scene.update_pending
    scene.widget.show()
    scene.widget.raise_()
    qtbot.waitExposed(scene)
    assert _count_hue(_grab(scene), NAIVE) > 300
    qtbot.waitUntil(lambda: _screen_matches_render(scene), timeout=3000)
