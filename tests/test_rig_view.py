"""The Keyframes tab's rig view: pixels of the two players, selection both ways, time, screenshots.

GL needs the session's Xvfb (tests/conftest.py). Pixel oracles: the naive
runtime's colour (docs/curves.md: vermillion) appears in the 3D view
exactly while the players part, i.e. inside a flagged segment, and the view
with both players equals the spec player alone after "Fix signs".
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PyQt6 import QtCore, QtGui, QtTest, QtWidgets

from quatlab.app.qt import keyframes_view as KV
from quatlab.rendering.rig_scene import NAIVE_COLOR

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "gltf"
TRUCK = DATA / "CesiumMilkTruck.glb"
ROBOT = DATA / "RobotExpressive.glb"


@pytest.fixture
def window(keyframes_window):
    return keyframes_window  # conftest: the window with the Keyframes tab shown


@pytest.fixture
def view(window) -> KV.KeyframesView:
    return window.views["keyframes"]


def open_rig(view, path) -> None:
    view.open(path)
    assert view.rig_panel.wait_framed()  # the camera on the whole animation, to stay
    assert view.playback.rig is not None
    QtWidgets.QApplication.processEvents()


def scene_rgb(view) -> np.ndarray:
    img = view.rig_panel.scene.grabFramebuffer().convertToFormat(QtGui.QImage.Format.Format_RGB888)
    ptr = img.constBits()
    ptr.setsize(img.sizeInBytes())
    rows = np.frombuffer(ptr, np.uint8).reshape(img.height(), img.bytesPerLine())
    return rows[:, : 3 * img.width()].reshape(img.height(), img.width(), 3).astype(int)


def naive_pixels(rgb: np.ndarray) -> int:
    """Pixels of the naive colour family: red well above green, green above blue (vermillion)."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    return int(np.count_nonzero((r - g > 60) & (g - b > 25) & (r > 150)))


def wheel_segment_middle(view) -> float:
    seg = view.model.segments(0)
    (k,) = np.flatnonzero(seg.levels == "sign_flip")
    assert k == 14  # keys 14 and 15, what `quatlab check` reports
    return 0.5 * (seg.t0[k] + seg.t1[k])


# --------------------------------------------------------------------------- pixels


def test_the_players_pixels_differ_in_the_flagged_segment_and_coincide_after_the_fix(view):
    open_rig(view, TRUCK)
    pb = view.playback
    pb.set_time(wheel_segment_middle(view))
    both = scene_rgb(view)
    pb.set_players("spec")
    spec = scene_rgb(view)
    pb.set_players("naive")
    naive = scene_rgb(view)
    # The naive wheels are drawn as a vermillion ghost over the correct ones.
    assert naive_pixels(both) > 500
    assert naive_pixels(spec) < 20
    assert np.abs(both - spec).max(axis=2).astype(bool).sum() > 500
    # Alone, the naive runtime's wheels stand elsewhere than the spec player's.
    assert np.count_nonzero(np.abs(naive - spec).max(axis=2) > 40) > 100
    # Outside the flagged segment the players agree: no ghost.
    pb.set_players("both")
    pb.set_time(0.5 * (view.model.segments(0).t0[3] + view.model.segments(0).t1[3]))
    assert naive_pixels(scene_rgb(view)) < 20
    # Fix signs: the same time now shows both players on top of each other.
    pb.set_time(wheel_segment_middle(view))
    view.fix_all_button.click()
    QtWidgets.QApplication.processEvents()
    assert not pb.frame().differs
    fixed_both = scene_rgb(view)
    pb.set_players("spec")
    fixed_spec = scene_rgb(view)
    assert np.array_equal(fixed_spec, spec)  # the spec player never needed the fix
    assert np.array_equal(fixed_both, fixed_spec)
    assert naive_pixels(fixed_both) < 20
    # Undo brings the ghost back.
    pb.set_players("both")
    view.undo_button.click()
    assert naive_pixels(scene_rgb(view)) > 500


def test_a_figure_fills_the_view(view):
    open_rig(view, DATA / "CesiumMan.glb")
    rgb = scene_rgb(view)
    background = np.array(QtGui.QColor("#F5F5F3").getRgb()[:3])
    ink = np.abs(rgb - background).max(axis=2) > 30
    ys, xs = np.nonzero(ink)
    h, w = ink.shape
    # Framed on its bounds: the figure is in the middle and takes a good part of the height.
    assert (ys.max() - ys.min()) > 0.5 * h
    assert 0.25 * w < xs.mean() < 0.75 * w


@pytest.mark.parametrize("name, time", [("RobotExpressive.glb", 0.854),
                                        ("CesiumMilkTruck.glb", 0.604)])
def test_the_per_vertex_light_draws_the_per_pixel_picture(view, name, time):
    # The rig's soups have one normal per face, so lighting each corner
    # gives every pixel of a face the colour lighting the pixel gives it.
    from quatlab.rendering.gl_items import FLAT_LIT_SHADER, LIT_SHADER

    open_rig(view, DATA / name)
    view.playback.set_time(time)  # inside a flagged segment: ghosts drawn too
    scene = view.rig_panel.scene
    items = [i for i in scene.items if getattr(i, "opts", {}).get("shader") is FLAT_LIT_SHADER]
    assert len(items) >= 4  # meshes, ghost meshes, bones, ghost bones
    per_vertex = scene_rgb(view)
    for item in items:
        item.setShader(LIT_SHADER)
    per_pixel = scene_rgb(view)
    d = np.abs(per_vertex - per_pixel).max(axis=2)
    assert naive_pixels(per_pixel) > 200  # a ghost is in the picture
    assert d.max() <= 2  # rounding: the pixel shader works at medium precision


def test_the_naive_pose_is_skinned_only_where_its_ghost_is_drawn(view):
    open_rig(view, ROBOT)
    pb = view.playback
    pb.set_time(0.1)  # Dance: no flip at the start
    frame = pb.frame()
    assert not (frame.world_difference[pb.rig.skins[0].joints] > 1.0).any()
    assert "spec_meshes" in vars(frame) and "naive_meshes" not in vars(frame)
    pb.set_time(0.854)  # UpperArm.L's keys 20-21 are flagged
    frame = pb.frame()
    assert frame.differs and "naive_meshes" in vars(frame)
    assert naive_pixels(scene_rgb(view)) > 200
    pb.set_players("naive")  # drawn alone, the naive pose is skinned whatever the time
    pb.set_time(0.1)
    assert "naive_meshes" in vars(pb.frame())


def test_warming_the_glyph_cache_changes_no_pixel(view):
    open_rig(view, TRUCK)
    view.playback.set_time(wheel_segment_middle(view))  # two labelled wheels
    layer = view.rig_panel.scene.label_layer
    layer._warm_fonts.clear()  # the next frame warms again
    warming = scene_rgb(view)
    assert layer._warm_fonts  # it did
    steady = scene_rgb(view)
    assert layer.placed and all(spot is not None for spot in layer.placed)
    assert np.array_equal(warming, steady)


# --------------------------------------------------------------------------- selection


def test_choosing_a_track_selects_its_node_in_3d(view):
    open_rig(view, TRUCK)
    rig = view.playback.rig
    for row in (1, 0):
        view.track_table.selectRow(row)
        QtWidgets.QApplication.processEvents()
        node = view.model.tracks[row].node_index
        assert view.playback.selected_node == rig.rig_index[node]
        assert view.rig_panel.scene.selected == rig.rig_index[node]
        item = view.rig_panel.node_list.currentItem()
        assert item is not None and item.text(0).strip().endswith(rig.names[rig.rig_index[node]])


def test_clicking_a_joint_in_3d_selects_its_track(qtbot, view):
    open_rig(view, TRUCK)
    view.model.select_track(0)
    scene = view.rig_panel.scene
    rig = view.playback.rig
    other = int(rig.rig_index[view.model.tracks[1].node_index])
    x, y = scene.project(view.playback.frame().spec.world[[other], :3, 3])[0]
    pos = QtCore.QPoint(round(x), round(y))
    QtTest.QTest.mouseClick(scene, QtCore.Qt.MouseButton.LeftButton,
                            QtCore.Qt.KeyboardModifier.NoModifier, pos)
    QtWidgets.QApplication.processEvents()
    assert view.playback.selected_node == other
    assert view.model.selected_track == 1
    assert view.track_table.currentIndex().row() == 1
    # A click on empty background selects nothing new.
    QtTest.QTest.mouseClick(scene, QtCore.Qt.MouseButton.LeftButton,
                            QtCore.Qt.KeyboardModifier.NoModifier, QtCore.QPoint(3, 3))
    assert view.model.selected_track == 1


def test_the_node_list_selects_the_track(view):
    open_rig(view, ROBOT)
    panel = view.rig_panel
    rig = view.playback.rig
    anim = view.playback.animation_index
    target = next(k for k, t in enumerate(view.model.tracks)
                  if t.animation_index == anim and t.node_name == "Head")
    node = rig.rig_index[view.model.tracks[target].node_index]
    panel.node_list.setCurrentItem(panel.node_list.item_of(int(node)))
    assert view.model.selected_track == target
    assert view.playback.selected_node == rig.rig_index[view.model.tracks[target].node_index]


def test_the_animation_selector_lists_every_animation_and_follows_tracks(view):
    open_rig(view, ROBOT)
    box = view.rig_panel.animation_box
    assert box.count() == 14
    box.setCurrentIndex(3)
    assert view.playback.animation_index == 3
    assert view.model.tracks[view.model.selected_track].animation_index == 3
    # Choosing a track of another animation switches the rig to it.
    k = next(k for k, t in enumerate(view.model.tracks) if t.animation_index == 5)
    view.model.select_track(k)
    assert view.playback.animation_index == 5 and box.currentIndex() == 5


# --------------------------------------------------------------------------- time and curves


def test_the_scrubber_is_in_seconds_and_plays_in_real_time(view):
    open_rig(view, ROBOT)
    panel = view.rig_panel
    lo, hi = view.playback.range
    assert panel.scrubber.spin.suffix() == " s"
    assert panel.scrubber.spin.singleStep() == pytest.approx(1 / 24)
    view.playback.set_time(lo)
    panel.scrubber.mode.setCurrentText("loop")
    panel.scrubber.advance(0.5)
    assert view.playback.time == pytest.approx(lo + 0.5)
    panel.scrubber.speed.setValue(2.0)
    panel.scrubber.advance(0.25)
    assert view.playback.time == pytest.approx(lo + 1.0)
    assert "frame 24 /" in panel.frame_label.text()


class LayoutRequests(QtCore.QObject):
    """Counts the LayoutRequest events delivered to any widget (an application event filter)."""

    def __init__(self):
        super().__init__()
        self.count = 0
        QtWidgets.QApplication.instance().installEventFilter(self)

    def eventFilter(self, obj, ev):  # noqa: N802 - Qt API
        if ev.type() == QtCore.QEvent.Type.LayoutRequest:
            self.count += 1
        return False

    def remove(self):
        QtWidgets.QApplication.instance().removeEventFilter(self)


@pytest.mark.parametrize("name", ["CesiumMan.glb", "RobotExpressive.glb"])
def test_a_change_of_time_re_lays_out_nothing(view, name):
    # CesiumMan's animation ends at 1.9167 s, which the time spin box rounds
    # to 1.917: comparing with the rounded range re-set the range (and
    # re-measured the box) at every frame; the frame readout's text did the
    # same. Each re-laid out, and repainted, the whole tab.
    open_rig(view, DATA / name)
    panel = view.rig_panel
    lo, hi = view.playback.range
    QtTest.QTest.qWait(300)
    spy = LayoutRequests()
    try:
        for t in np.linspace(lo, hi, 12)[1:]:
            view.playback.set_time(float(t))
            QtWidgets.QApplication.processEvents()
    finally:
        spy.remove()
    assert panel.frame_label.text().startswith(f"frame {round((hi - lo) * view.playback.fps)} /")
    assert spy.count == 0


def test_the_frame_readout_fits_its_widest_text_and_follows_the_font(view):
    open_rig(view, ROBOT)
    label = view.rig_panel.frame_label
    lo, hi = view.playback.range
    view.playback.set_time(hi)
    widest = label.fontMetrics().horizontalAdvance(label.text())
    assert label.width() >= widest
    font = label.font()
    font.setPointSizeF(font.pointSizeF() * 2)
    label.setFont(font)
    assert label.width() >= label.fontMetrics().horizontalAdvance(label.text()) > 1.8 * widest
    assert label.height() >= label.fontMetrics().height()


@pytest.mark.parametrize("shown", [True, False])
def test_the_curves_arrive_after_the_rigs_first_frame_or_at_once_unseen(window, view, shown):
    if not shown:
        window.hide()  # no frame will come: the curves are filled with the rig
    swaps = []

    def swapped():
        xs = view.rig_panel.components.curves[0].getData()[0]
        swaps.append((view.playback.rig is not None, xs is not None and len(xs) > 0))

    view.rig_panel.scene.frameSwapped.connect(swapped)
    view.open(TRUCK)
    assert view.rig_panel.wait_loaded()
    xs, ys = view.rig_panel.components.curves[0].getData()
    assert np.array_equal(xs, view.model.tracks[0].times)
    _, angle = view.rig_panel.curves.curve_item("angle", "naive").getData()
    assert np.nanmax(angle) > 60  # the wheel's long way round
    # Shown, the rig's first frame is swapped before its curves are filled.
    assert ((True, False) in swaps) == shown


def test_the_curves_fill_one_plot_per_event_loop_pass_and_all_of_them(view):
    # After the rig's first frame the component plot, then omega, then the
    # angle, then the error: each its own pass of the event loop (and paint),
    # none left out.
    panel = view.rig_panel

    def filled(item) -> bool:
        xs = item.getData()[0]
        return xs is not None and len(xs) > 0

    def plotted(plot: str, name: str) -> bool:
        try:
            return filled(panel.curves.curve_item(plot, name))
        except KeyError:  # no curve of that name yet
            return False

    def state() -> tuple:
        return (filled(panel.components.curves[0]), filled(panel.omega.naive[0]),
                plotted("angle", "naive"), plotted("speed", "error"))

    seen = []
    probe = QtCore.QTimer()
    probe.timeout.connect(lambda: seen.append(state()) if not seen or seen[-1] != state() else None)
    probe.start(0)
    view.open(TRUCK)
    assert panel.wait_loaded()
    probe.stop()
    assert state() == (True, True, True, True)
    for stage in ((True, False, False, False), (True, True, False, False),
                  (True, True, True, False)):
        assert stage in seen
    # The same curves as filled at once (the track chosen again).
    _, angle = panel.curves.curve_item("angle", "naive").getData()
    _, error = panel.curves.curve_item("speed", "error").getData()
    panel._curves_key = ()
    panel._fill_curves()
    assert np.array_equal(panel.curves.curve_item("angle", "naive").getData()[1], angle,
                          equal_nan=True)
    assert np.array_equal(panel.curves.curve_item("speed", "error").getData()[1], error,
                          equal_nan=True)


def test_curves_show_the_selected_track_and_the_fix(view):
    open_rig(view, TRUCK)
    panel = view.rig_panel
    track = view.model.tracks[0]
    xs, ys = panel.components.curves[0].getData()
    assert np.array_equal(xs, track.times) and np.array_equal(ys, track.values[:, 0])
    seg = view.model.segments(0)

    def data(plot, name):  # as given to the plot (the item draws it downsampled)
        s = panel.curves._series[plot][name]
        return s.x, s.y

    def gap(name="naive"):
        t, other = data("angle", name)
        ts, spec = data("angle", "spec")
        spec = np.interp(t, ts, spec)  # "before" has samples of its own
        inside = (t > seg.t0[14]) & (t < seg.t1[14])
        # Unwrapped, the naive runtime ends a whole turn behind: the same pose.
        d = np.abs((other - spec + 180.0) % 360.0 - 180.0)
        return d[inside].max(), d[~inside].max()

    def error(name="error"):
        t, e = data("speed", name)
        inside = (t > seg.t0[14]) & (t < seg.t1[14])
        return e[inside].max(), e[~inside].max()

    inside, outside = gap()
    assert inside > 60 and outside < 0.05  # they part in the flagged segment only
    assert error()[0] > 60 and error()[1] < 0.05
    assert not panel.components.has_before
    view.fix_button.click()
    assert panel.components.has_before
    assert max(gap()) < 0.05 and max(error()) < 0.05  # after the fix the two coincide
    assert gap("before")[0] > 60  # and the naive curve before the fix is overlaid
    assert error("before")[0] > 60


# --------------------------------------------------------------------------- screenshot


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "quatlab.app", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_screenshot_of_the_keyframes_view_at_a_time(tmp_path):
    out = tmp_path / "truck.png"
    proc = run_cli("screenshot", "-o", out, "--view", "keyframes", "--open", TRUCK,
                   "--time", 0.6, "--track", 1, "--size", "1280x720")
    assert proc.returncode == 0, proc.stderr
    img = QtGui.QImage(str(out))
    assert (img.width(), img.height()) == (1280, 720)
    rgb = np.array([[QtGui.QColor(img.pixel(x, y)).getRgb()[:3] for x in range(0, 1280, 4)]
                    for y in range(0, 720, 4)])
    assert naive_pixels(rgb) > 20  # the naive wheels' ghost is in the picture
    assert NAIVE_COLOR  # the colour the ghost is drawn in


@pytest.mark.parametrize("args, words", [
    (["--time", "9"], "outside animation 'Wheels' [0, 1.25]"),
    (["--track", "7"], "no track 7"),
    (["--animation", "Dance"], "no animation 'Dance'"),
])
def test_screenshot_rig_errors_are_one_line(tmp_path, args, words):
    proc = run_cli("screenshot", "-o", tmp_path / "x.png", "--view", "keyframes",
                   "--open", TRUCK, *args)
    assert proc.returncode == 2
    err = proc.stderr.strip()
    assert "\n" not in err and words in err
    assert not (tmp_path / "x.png").exists()


def test_screenshot_time_needs_a_file(tmp_path):
    proc = run_cli("screenshot", "-o", tmp_path / "x.png", "--view", "keyframes", "--time", 1)
    assert proc.returncode == 2 and "--open FILE" in proc.stderr


# ----------------------------------------------------------------------- the GUI thread stays free


def test_reading_off_thread_returns_raises_and_keeps_the_loop_running(qtbot):
    import time

    from quatlab.app.qt.background import run_off_thread

    ticks = []
    timer = QtCore.QTimer()
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(5)

    def slow(x):
        time.sleep(0.3)
        return 2 * x

    assert run_off_thread(slow, 21) == 42
    assert len(ticks) >= 5  # timers fired while the worker slept: the window was not frozen

    def broken():
        time.sleep(0.05)
        raise ValueError("bad file")

    with pytest.raises(ValueError, match="bad file"):
        run_off_thread(broken)
    timer.stop()


def test_opening_a_big_file_lets_the_window_paint(view, monkeypatch):
    # A big file takes a while to read: it is read on a worker thread and the rig built
    # on another, so the event loop keeps turning meanwhile. The read is made slow here
    # (RobotExpressive itself now parses in tens of milliseconds), so the count of
    # event-loop turns does not depend on the machine's speed.
    import time

    real = KV.load_keyframes

    def slow_read(path, **kw):
        time.sleep(0.3)
        return real(path, **kw)

    monkeypatch.setattr(KV, "load_keyframes", slow_read)
    ticks = []
    timer = QtCore.QTimer()
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(10)
    view.open(ROBOT)
    during_read = len(ticks)
    assert view.rig_panel.wait_loaded()
    timer.stop()
    assert during_read >= 3
    assert view.model.file.path.name == "RobotExpressive.glb"
    assert view.playback.rig is not None and len(view.playback.rig.animations) == 14


def test_closing_the_tab_while_the_rig_loads_is_safe(qtbot, monkeypatch):
    import time

    from quatlab.app.model.keyframes_model import KeyframesModel
    from quatlab.app.qt import rig_loader

    real = rig_loader.rig_of

    def slow_rig_of(source):
        time.sleep(0.5)  # a big rig: still building when the tab goes away
        return real(source)

    monkeypatch.setattr(rig_loader, "rig_of", slow_rig_of)
    view = KV.KeyframesView(KeyframesModel())
    view.open(ROBOT)
    assert view.rig_panel.loading  # the rig is built on its thread after the file is read
    from PyQt6 import sip

    assert rig_loader._RUNNING and all(ld.isRunning() for ld in rig_loader._RUNNING)
    sip.delete(view)  # the tab's widgets are gone now, the loader still running
    del view
    deadline = QtCore.QDeadlineTimer(20000)
    while rig_loader._RUNNING and not deadline.hasExpired():
        QtWidgets.QApplication.processEvents()
        QtCore.QThread.msleep(10)
    assert not rig_loader._RUNNING  # the loader finished and let go; nothing aborted


def test_a_rig_arriving_is_posed_once_and_held_changes_draw_on_exit(view, monkeypatch):
    import quatlab.rendering.rig_scene as RS

    real, calls = RS.bake_bones, []

    def bake(unit, segments):
        calls.append(len(segments))
        return real(unit, segments)

    monkeypatch.setattr(RS, "bake_bones", bake)
    view.open(ROBOT)
    assert view.rig_panel.wait_loaded()
    assert len(calls) == 2  # the spec bones and the ghost's, of one redraw
    scene = view.rig_panel.scene
    node = next(int(n) for n in scene.pickable() if n != scene.selected)
    ring = scene.selection_mark.pos.copy()
    with scene.held():
        scene.set_selected(node)
        scene.set_frame(view.playback.frame())
        assert len(calls) == 2 and np.array_equal(scene.selection_mark.pos, ring)
    assert len(calls) == 4 and not np.array_equal(scene.selection_mark.pos, ring)
    world = view.playback.frame().spec.world[node, :3, 3]
    np.testing.assert_allclose(scene.selection_mark.pos[0], world @ RS.Y_UP[:3, :3].T)
