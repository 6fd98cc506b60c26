"""Scrubbing the rig view: what a time change repaints, and that the cheaper drawing is the same.

A change of time moves the cursors of the component plot and the timeline;
their curves, symbols and axes did not change and are re-blitted from a
cache, not drawn again. The 3D view's meshes are posed as one soup; the
oracles are plain per-part matrix products and the pixels of the view.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PyQt6 import QtGui, QtWidgets
from test_rig_view import DATA, ROBOT, open_rig

from quatlab.app.qt import keyframes_view as KV


@pytest.fixture
def view(keyframes_window) -> KV.KeyframesView:
    return keyframes_window.views["keyframes"]


def _settle() -> None:
    for _ in range(3):
        QtWidgets.QApplication.processEvents()


def _rgb(widget: QtWidgets.QWidget) -> np.ndarray:
    img = widget.grab().toImage().convertToFormat(QtGui.QImage.Format.Format_RGB888)
    ptr = img.constBits()
    ptr.setsize(img.sizeInBytes())
    rows = np.frombuffer(ptr, np.uint8).reshape(img.height(), img.bytesPerLine())
    return rows[:, : 3 * img.width()].reshape(img.height(), img.width(), 3).astype(int)


def _count_paints(monkeypatch, cls) -> dict:
    """Count ``cls.paint`` calls per item (Qt calls the Python method found on the class)."""
    counts: dict = {}
    original = cls.paint

    def paint(self, *args):
        counts[id(self)] = counts.get(id(self), 0) + 1
        return original(self, *args)

    monkeypatch.setattr(cls, "paint", paint)
    return counts


def test_moving_the_time_repaints_the_cursors_not_the_curves_and_symbols(view, monkeypatch):
    open_rig(view, ROBOT)  # Head: 81 keys, drawn with symbols
    panel, pb = view.rig_panel, view.playback
    plot = panel.components
    pb.set_time(1.0)
    _settle()
    before = _rgb(plot)
    lines = _count_paints(monkeypatch, pg.PlotCurveItem)
    symbols = _count_paints(monkeypatch, pg.ScatterPlotItem)
    axes = _count_paints(monkeypatch, pg.AxisItem)
    cursors = _count_paints(monkeypatch, pg.InfiniteLine)
    pb.set_time(1.5)
    _settle()
    after = _rgb(plot)
    # The cursor moved: the picture changed, and the cursor line was drawn ...
    assert np.abs(after - before).max() > 100
    assert id(plot.cursor) in cursors and id(view.timeline._cursor) in cursors
    # ... over curves, symbols and axes copied from their caches.
    for curve in plot.curves:
        assert id(curve.curve) not in lines and id(curve.scatter) not in symbols
    for axis in (*(plot.getPlotItem().getAxis(s) for s in ("left", "bottom")),
                 view.timeline.getPlotItem().getAxis("bottom")):
        assert id(axis) not in axes
    # Going back draws the first picture again.
    pb.set_time(1.0)
    _settle()
    assert np.abs(_rgb(plot) - before).max() <= 2  # antialiased edges blended once more


def test_a_new_track_redraws_the_cached_curves(view):
    open_rig(view, ROBOT)
    panel, model = view.rig_panel, view.model
    plot = panel.components
    first = plot.curves[0].getData()[1].copy()
    _settle()
    shown = _rgb(plot)
    other = next(k for k, t in enumerate(model.tracks)
                 if t.animation_index == model.tracks[model.selected_track].animation_index
                 and not np.allclose(t.values[:, 0], first))
    model.select_track(other)
    _settle()
    assert not np.allclose(plot.curves[0].getData()[1], first)
    assert np.abs(_rgb(plot) - shown).max() > 100  # not the old curves from the cache


@pytest.mark.parametrize("name", ["RobotExpressive.glb", "CesiumMilkTruck.glb"])
def test_timeline_and_plots_follow_the_time(view, name):
    open_rig(view, DATA / name)
    pb = view.playback
    lo, hi = pb.range
    for t in (lo + 0.25 * (hi - lo), lo + 0.75 * (hi - lo)):
        pb.set_time(t)
        _settle()
        assert view.timeline._cursor.value() == pytest.approx(t)
        assert view.rig_panel.components.cursor.value() == pytest.approx(t)


# --------------------------------------------------------------------------- meshes


def _turn(axis: np.ndarray, angle: float) -> np.ndarray:
    """Rotation matrix about ``axis`` (Rodrigues), a plain oracle."""
    k = axis / np.linalg.norm(axis)
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + np.sin(angle) * kx + (1 - np.cos(angle)) * kx @ kx


def test_rigid_parts_pose_each_part_by_its_nodes_matrix():
    from quatlab.app.model.rig import MeshInstance
    from quatlab.rendering.rig_meshes import Y_UP, RigidParts, flat_soup

    rng = np.random.default_rng(7)
    meshes = [MeshInstance(node, 0, None, rng.normal(size=(5, 3)),
                           np.array([[0, 1, 2], [1, 3, 4], [0, 2, 4]]), None, None)
              for node in (2, 0, 2)]  # two parts on one node
    world = np.tile(np.eye(4), (3, 1, 1))
    world[0, :3, :3] = _turn(np.array([1.0, 2, 3]), 0.7) @ np.diag([1.0, 2.5, 0.4])
    world[0, :3, 3] = [1, -2, 3]
    world[2, :3, :3] = _turn(np.array([0.0, 1, 0]), -2.1) * 3.0
    world[2, :3, 3] = [-4, 0.5, 2]
    parts = RigidParts(meshes)
    for chosen in ([0, 1, 2], [2, 0], []):
        chosen = np.array(chosen, dtype=np.int64)
        n = parts.size(chosen)
        verts, normals = np.empty((n, 3)), np.empty((n, 3))
        parts.pose(world, chosen, verts, normals)
        at = 0
        for k in chosen:
            m = Y_UP @ world[meshes[k].node]  # glTF world, then turned Z-up
            g = flat_soup(meshes[k].positions, meshes[k].triangles)
            rows = slice(at, at + len(g.vertexes))
            homogeneous = np.c_[g.vertexes, np.ones(len(g.vertexes))] @ m.T
            np.testing.assert_allclose(verts[rows], homogeneous[:, :3], atol=1e-5)
            # A normal stays perpendicular to the posed triangle's edges.
            tri = verts[rows].reshape(-1, 3, 3)
            for edge in (tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]):
                np.testing.assert_allclose(np.einsum("ij,ij->i", normals[rows][::3], edge), 0,
                                           atol=1e-5)
            # ... on the side it faced (the cross product of the posed edges; no mirror here).
            facing = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
            assert (np.einsum("ij,ij->i", normals[rows][::3], facing) > 0).all()
            np.testing.assert_allclose(np.linalg.norm(normals[rows], axis=1), 1.0, atol=1e-6)
            at += len(g.vertexes)
        assert at == n


def test_every_mesh_of_a_rig_is_one_solid_item(view):
    from quatlab.rendering.rig_textures import TexturedSoupItem

    open_rig(view, ROBOT)  # rigid parts and skinned meshes, in the file's colours
    rig, scene = view.playback.rig, view.rig_panel.scene
    shown = [m for m in rig.meshes if rig.in_scene[m.node]]
    assert {m.skin is None for m in shown} == {True, False}
    solid = [i for i in scene.items if i.visible() and isinstance(i, TexturedSoupItem)]
    assert len(solid) == 1
    assert len(solid[0]._geometry.vertexes) == 3 * sum(len(m.triangles) for m in shown)


def test_a_rig_without_skins_is_drawn_without_skinning(view):
    open_rig(view, DATA / "CesiumMilkTruck.glb")
    pb = view.playback
    pb.set_time(0.6)
    QtWidgets.QApplication.processEvents()
    # The rigid parts are posed from the node matrices alone.
    assert "spec_meshes" not in vars(pb.frame())
    pb.set_players("naive")
    assert "naive_meshes" not in vars(pb.frame())


def test_the_naive_bones_are_laid_out_only_where_their_ghost_is_drawn(view):
    open_rig(view, ROBOT)
    view.rig_panel.overlay_box.setChecked(True)  # every bone drawn
    pb = view.playback
    pb.set_time(0.1)  # Dance: no flip at the start, no ghost
    QtWidgets.QApplication.processEvents()
    frame = pb.frame()
    assert not frame.differs
    assert "spec_bones" in vars(frame) and "naive_bones" not in vars(frame)
    pb.set_time(0.854)  # UpperArm.L's keys 20-21 are flagged: ghost bones drawn
    frame = pb.frame()
    assert "naive_bones" in vars(frame)
    assert view.rig_panel.scene.ghost_bones.visible()
    pb.set_players("naive")  # drawn alone, the naive bones are the bones
    pb.set_time(0.1)
    assert "naive_bones" in vars(pb.frame()) and "spec_bones" not in vars(pb.frame())


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_row_helpers_compute_what_numpy_computes_bit_for_bit(dtype):
    from quatlab.rendering.rig_meshes import cross_rows, norm_rows

    rng = np.random.default_rng(3)
    u, v = ((rng.normal(size=(500, 3)) * 10.0 ** rng.integers(-8, 8, (500, 1))).astype(dtype)
            for _ in range(2))
    assert cross_rows(u, v).dtype == dtype and norm_rows(u).dtype == dtype
    assert np.array_equal(cross_rows(u, v), np.cross(u, v))
    assert np.array_equal(norm_rows(u), np.linalg.norm(u, axis=1))
    stacked = u.reshape(50, 10, 3)
    assert np.array_equal(norm_rows(stacked), np.linalg.norm(stacked, axis=2))


def test_a_time_change_uploads_the_gizmo_lines_not_their_colours(view):
    from pyqtgraph.opengl.items.GLLinePlotItem import DirtyFlag

    from quatlab.rendering import theme_apply, themes

    open_rig(view, ROBOT)
    view.rig_panel.overlay_box.setChecked(True)  # every joint's axes
    scene, pb = view.rig_panel.scene, view.playback
    pb.set_time(1.0)
    _settle()  # painted: nothing left to upload
    colours, lines = scene.gizmos.color.copy(), scene.gizmos.pos.copy()
    pb.set_time(1.2)
    assert DirtyFlag.POSITION in scene.gizmos.dirty_bits
    assert DirtyFlag.COLOR not in scene.gizmos.dirty_bits
    assert not np.array_equal(scene.gizmos.pos, lines)
    assert np.array_equal(scene.gizmos.color, colours)
    # Another theme: the colours follow it at once and stay with the next frames.
    before = themes.current().name
    dark = next(name for name in themes.THEMES if name != before)
    try:
        themes.set_current(dark)
        theme_apply.restyle(view.window())
        themed = scene.gizmos.color.copy()
        assert not np.array_equal(themed, colours)
        pb.set_time(1.4)
        np.testing.assert_allclose(scene.gizmos.color, themed, atol=1e-6)
    finally:
        themes.set_current(before)
        theme_apply.restyle(view.window())
    pb.set_time(1.6)
    np.testing.assert_allclose(scene.gizmos.color, colours, atol=1e-6)
