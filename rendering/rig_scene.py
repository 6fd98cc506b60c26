"""The Keyframes tab's 3D view: a glTF rig as a spec-conforming player and a naive runtime pose it.

:class:`RigScene` draws :class:`~quatlab.app.model.rig_playback.RigFrame`
snapshots and never changes the model:

* every mesh of the scene, flat shaded in the file's base colours and
  textures (a neutral grey where it has no material): meshes of plain
  nodes rigidly (shaded once in their node's space, moved by its world
  matrix), skinned meshes deformed by linear blend skinning; all of them
  one vertex array, replaced per frame, because every GL item costs a
  fixed slice of Python and of the driver per frame
  (:mod:`quatlab.rendering.rig_meshes`);
* the skin joints as octahedral bones from joint to child (a stub at each
  leaf), in the spec player's colour, drawn in front of the meshes; a small
  local-axis gizmo (X red, Y green, Z blue) at every joint and at every node
  a rotation channel animates (the truck's wheels have no skin). This
  overlay is off by default (:meth:`RigScene.set_overlay`): then only the
  selected joint shows its axes and its bones, and the asset is seen as it
  ships; a rig without meshes (a BVH skeleton) always shows its bones,
  which are all there is to see;
* the naive runtime's pose as a translucent ghost in the naive colour
  (docs/curves.md: vermillion) over the correct one, for the parts of the
  rig whose world rotation differs by more than
  :data:`~quatlab.app.model.rig_playback.DIFFERENCE_DEG`: after "Fix signs"
  nothing differs and no ghost is drawn;
* the joints whose own channel differs by more than that between the
  players, ringed in the naive colour and labelled with the difference
  angle; labels are placed in screen space so they never overlap
  (:mod:`quatlab.rendering.rig_labels`);
* the selected node ringed in yellow and labelled with its name;
* over a segment where the players part (and a moment around it), the
  path a marker on the joint sweeps under each player, with ticks and
  arrows, a spoke to where each player has it now and the turn each makes
  (:mod:`quatlab.rendering.rig_sweep_items`), and the naive runtime's pose
  at a few times of the segment as a faint onion skin, so the long way
  and its direction show even on a symmetric part
  (:meth:`RigScene.set_sweeps`).

:meth:`RigScene.set_players` shows both players or either alone (alone, the
naive pose is drawn solid, its bones in the naive colour). glTF is Y-up and
pyqtgraph's camera orbits about Z, so the whole rig is turned by
:data:`Y_UP` on the way in. The camera frames the asset's bounds on
:meth:`RigScene.set_rig` and again when a better box arrives
(:meth:`RigScene.set_bounds`: the box every frame of the animation sweeps)
unless the user has moved it; :meth:`RigScene.frame_ball` looks at one
part (a joint and what hangs from it). Left-drag orbits, Ctrl+left-drag
or middle-drag pans, the wheel zooms, ``R`` or ``Home`` frames the whole
animation again. A click (no drag) on a joint emits
:attr:`RigScene.nodeClicked` with its rig index.
"""

from __future__ import annotations

import contextlib
from math import atan, cos, radians, sin, tan

import numpy as np
import pyqtgraph.opengl as gl
from OpenGL import GL
from PyQt6 import QtCore, QtGui

from quatlab.app.i18n import _
from quatlab.app.model.rig_bounds import descendants
from quatlab.app.model.rig_playback import DIFFERENCE_DEG
from quatlab.rendering.bone_mesh import BoneGeometry, bone_geometry
from quatlab.rendering.gl_items import FLAT_LIT_SHADER, OVERLAY, BoneItem, GhostItem
from quatlab.rendering.gl_view import GLWindowView, UserCamera
from quatlab.rendering.labels import Label, label_font
from quatlab.rendering.rig_labels import PlacedLabelLayer
from quatlab.rendering.rig_meshes import (
    Y_UP,
    MeshSoups,
    cross_rows,
    empty_geometry,
    flat_soup,
    norm_rows,
    to_view,
)
from quatlab.rendering.rig_sweep_items import SweepItems
from quatlab.rendering.style import AXIS_COLORS, METHOD_COLORS, SCENE_BACKGROUND, rgba

__all__ = ["RigScene", "Y_UP", "MESH_COLOR", "SPEC_COLOR", "NAIVE_COLOR", "SELECT_COLOR",
           "flat_soup", "bake_bones"]

MESH_COLOR = "#C3C7CF"
#: The spec player plays the keys along the shortest arc (SLERP): its colour.
SPEC_COLOR = METHOD_COLORS["shortest_slerp"]
#: The naive runtime blends the stored components (NLERP): vermillion.
NAIVE_COLOR = METHOD_COLORS["naive_nlerp"]
SELECT_COLOR = "#F0E442"  # Okabe-Ito yellow
DEFAULT_CAMERA = {"elevation": 14.0, "azimuth": -62.0, "fov": 40.0}
_GHOST_ALPHA = 0.42
_FIT_MARGIN = 1.08

_ORDER_GRID, _ORDER_MESH, _ORDER_GHOST_MESH = -10, 0, 10
_ORDER_BONES, _ORDER_GHOST_BONES, _ORDER_GIZMO, _ORDER_MARK, _ORDER_LABEL = 20, 21, 25, 28, 30
_ORDER_SWEEPS = 26  # .. 28: paths, spokes, dots

_SOLID = {GL.GL_DEPTH_TEST: True, GL.GL_BLEND: False, GL.GL_CULL_FACE: False,
          GL.GL_POLYGON_OFFSET_FILL: False}
# The ghost is pushed back a little in depth: where it (nearly) coincides with
# the correct pose the correct one wins instead of both flickering.
_GHOST = {GL.GL_DEPTH_TEST: True, GL.GL_BLEND: True, GL.GL_CULL_FACE: False,
          "glBlendFuncSeparate": (GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA,
                                  GL.GL_ONE, GL.GL_ONE_MINUS_SRC_ALPHA),
          GL.GL_POLYGON_OFFSET_FILL: True, "glPolygonOffset": (1.0, 4.0)}


def bake_bones(unit: BoneGeometry, segments: np.ndarray) -> BoneGeometry:
    """One soup of ``unit`` (a bone of length 1 along +X) stretched over each segment ``(B, 2, 3)``.

    Each bone is the unit bone turned so +X runs along the segment and
    stretched to its length. Its girth is slimmer than the lesson's bones
    (these sit inside a mesh) and follows the length only up to the median
    bone, so the long reach of an IK target does not turn into a slab that
    hides the body.
    """
    a, b = segments[:, 0], segments[:, 1]
    d = b - a
    length = norm_rows(d)
    keep = length > 1e-9
    if not keep.any():
        return empty_geometry()
    a, d, length = a[keep], d[keep], length[keep]
    girth = 0.6 * np.minimum(length, float(np.median(length)))
    x = d / length[:, None]
    helper = np.where(np.abs(x[:, 2:3]) < 0.9, [[0.0, 0.0, 1.0]], [[1.0, 0.0, 0.0]])
    y = cross_rows(helper, x)
    y /= norm_rows(y)[:, None]
    z = cross_rows(x, y)
    # Rows: the bone's axes, so a point (B, V, 3) turns by a product with them
    # (np.matmul: einsum took 6 times as long over a rig's bones).
    axes = np.stack([x, y, z], axis=1)
    scale = np.stack([length, girth, girth], axis=1)  # (B, 3)
    verts = a[:, None, :] + (unit.vertexes[None] * scale[:, None]) @ axes
    # Normals of a stretched solid: the inverse transpose, i.e. divide by the scale.
    normals = (unit.normals[None] / scale[:, None]) @ axes
    normals /= np.maximum(norm_rows(normals)[..., None], 1e-20)
    z3 = np.zeros((0, 3), np.float32)
    return BoneGeometry(verts.reshape(-1, 3).astype(np.float32),
                        normals.reshape(-1, 3).astype(np.float32), z3, np.zeros((0, 2), np.uint32))


class InFront:
    """Mixin: clear the depth buffer first: the item shows in front of the meshes drawn before."""

    def paint(self):
        GL.glClear(GL.GL_DEPTH_BUFFER_BIT)
        super().paint()


class _FrontBones(InFront, BoneItem):
    pass


class RigScene(UserCamera, GLWindowView):
    """3D view of a rig's two players; see the module docstring."""

    nodeClicked = QtCore.pyqtSignal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setBackgroundColor(SCENE_BACKGROUND)
        self.rig = None
        self.frame = None
        self.players = "both"
        self.selected: int | None = None
        self.overlay = False
        self._markable = np.zeros(0, dtype=np.int64)
        self._meshes: MeshSoups | None = None
        self._gizmo_colours: dict[int, tuple] = {}  # id(gizmo item) -> (shades, nodes) uploaded
        self._camera_touched = False
        self._held, self._stale = 0, False  # see held()
        self._press = None
        self._scale = 1.0
        # The octahedron alone (its first 8 triangles): a joint ball would
        # stretch with the bone; the joints are dots instead.
        g = bone_geometry(1.0, 1e-3, None)
        self._unit_bone = BoneGeometry(g.vertexes[:24], g.normals[:24], g.edge_verts, g.edges)

        self.grid = gl.GLGridItem(color=(0, 0, 0, 38))
        self.grid.setDepthValue(_ORDER_GRID)
        self.addItem(self.grid)
        self.bones = _FrontBones(empty_geometry(), shader=FLAT_LIT_SHADER, color=rgba(SPEC_COLOR),
                                 glOptions=dict(_SOLID))
        self.bones.setDepthValue(_ORDER_BONES)
        self.ghost_bones = GhostItem(empty_geometry(), shader=FLAT_LIT_SHADER,
                                     color=rgba(NAIVE_COLOR, 0.6), glOptions=dict(_GHOST))
        self.ghost_bones.setDepthValue(_ORDER_GHOST_BONES)
        self.gizmos = gl.GLLinePlotItem(mode="lines", width=2.5, antialias=True,
                                        glOptions=dict(OVERLAY))
        self.gizmos.setDepthValue(_ORDER_GIZMO)
        self.ghost_gizmos = gl.GLLinePlotItem(mode="lines", width=2.5, antialias=True,
                                              glOptions=dict(OVERLAY))
        self.ghost_gizmos.setDepthValue(_ORDER_GIZMO + 1)
        self.joint_dots = gl.GLScatterPlotItem(pxMode=True, glOptions=dict(OVERLAY))
        self.joint_dots.setDepthValue(_ORDER_GIZMO - 1)
        self.marks = gl.GLScatterPlotItem(pxMode=True, glOptions=dict(OVERLAY))
        self.marks.setDepthValue(_ORDER_MARK)
        self.selection_mark = gl.GLScatterPlotItem(pxMode=True, glOptions=dict(OVERLAY))
        self.selection_mark.setDepthValue(_ORDER_MARK + 1)
        self.label_layer = PlacedLabelLayer()
        self.label_layer.setDepthValue(_ORDER_LABEL)
        for item in (self.bones, self.ghost_bones, self.joint_dots, self.gizmos,
                     self.ghost_gizmos, self.marks, self.selection_mark, self.label_layer):
            self.addItem(item)
        self.sweep_items = SweepItems(self, _ORDER_SWEEPS)
        self.sweeps: list = []
        self._label_font = label_font(10.5, QtGui.QFont.Weight.DemiBold)
        self.reset_camera()

    # ------------------------------------------------------------------ model -> items
    def set_rig(self, rig, bounds=None) -> None:
        """Build the items of another rig (None: empty) and frame ``bounds`` (glTF ``(lo, hi)``)."""
        for item in self._meshes.items if self._meshes is not None else ():
            self.removeItem(item)
        self._meshes = None
        self.rig = rig
        self.frame = None
        self.selected = None
        if rig is not None:
            shown = [m for m in rig.meshes if rig.in_scene[m.node]]
            if shown:
                images = {i: (image, rig.textures[i].wrap) for i in range(len(rig.textures))
                          if (image := rig.texture_image(i)) is not None}
                self._meshes = MeshSoups(shown, color=MESH_COLOR, ghost_color=NAIVE_COLOR,
                                         ghost_alpha=_GHOST_ALPHA, solid_options=_SOLID,
                                         ghost_options=_GHOST,
                                         order=(_ORDER_MESH, _ORDER_GHOST_MESH),
                                         materials=getattr(rig, "materials", ()),
                                         images=images)
                for item in self._meshes.items:
                    self.addItem(item)
            joints = np.unique(np.concatenate([sk.joints for sk in rig.skins])) if rig.skins \
                else np.zeros(0, dtype=np.int64)
            self._joints = joints
        if bounds is None:
            bounds = (np.full(3, -1.0), np.full(3, 1.0))
        self._fit(*bounds)
        self._camera_touched = False
        self.reset_camera()

    def set_bounds(self, bounds) -> None:
        """Frame another box (glTF ``(lo, hi)``), unless the user has moved the camera."""
        self._fit(*bounds)
        if not self._camera_touched:
            self.reset_camera()

    def frame_ball(self, center, radius: float) -> None:
        """Look at the ball of ``radius`` about ``center`` (glTF world) from the default angles.

        The camera keeps its angles and backs off until the ball fits both
        fields of view; it then counts as moved by the user (a new box does
        not take it away; ``R`` frames the whole animation again).
        """
        w, h = max(self.width(), 1), max(self.height(), 1)
        fov = self.opts["fov"]
        half_x = radians(fov) / 2
        half_y = atan(tan(half_x) * h / w)
        radius = max(float(radius), 1e-6)
        distance = radius / sin(min(half_x, half_y))
        c = to_view(np.asarray(center, dtype=float).reshape(1, 3))[0]
        self.setCameraParams(center=QtGui.QVector3D(*c), distance=_FIT_MARGIN * distance)
        self._camera_touched = True
        self.update()

    def set_markable(self, nodes) -> None:
        """Nodes that get a gizmo and can be clicked besides the skin joints (the animated ones)."""
        self._markable = np.asarray(nodes, dtype=np.int64)

    def _fit(self, lo, hi) -> None:
        lo_v, hi_v = (to_view(np.array([lo, hi], dtype=float)).min(axis=0),
                      to_view(np.array([lo, hi], dtype=float)).max(axis=0))
        self._box = (lo_v, hi_v)
        center = (lo_v + hi_v) / 2
        self._scale = max(float(np.linalg.norm(hi_v - lo_v)) / 2, 1e-6)
        size = 10 ** np.ceil(np.log10(4 * self._scale))
        self.grid.setSize(size, size, 1)
        self.grid.setSpacing(size / 20, size / 20, 1)
        self.grid.resetTransform()
        self.grid.translate(center[0], center[1], lo_v[2])

    def reset_camera(self) -> None:
        """Look at the asset's bounds from the front right, a little above, all of it in view.

        The camera backs off until the eight corners of the bounding box lie
        inside both fields of view of the current widget shape: a corner
        ``x`` off the view axis and ``z`` towards the camera fits a
        half-angle ``a`` from distance ``z + |x| / tan(a)``.
        """
        cam = DEFAULT_CAMERA
        w, h = max(self.width(), 1), max(self.height(), 1)
        fov = cam["fov"]  # pyqtgraph's fov is horizontal
        half_x = radians(fov) / 2
        half_y = atan(tan(half_x) * h / w)
        elev, azim = radians(cam["elevation"]), radians(cam["azimuth"])
        back = np.array([cos(elev) * cos(azim), cos(elev) * sin(azim), sin(elev)])
        right = np.array([-sin(azim), cos(azim), 0.0])
        up = np.cross(back, right)
        lo, hi = getattr(self, "_box", (np.full(3, -1.0), np.full(3, 1.0)))
        center = (lo + hi) / 2
        corners = np.array([[(lo, hi)[i][0], (lo, hi)[j][1], (lo, hi)[k][2]]
                            for i in (0, 1) for j in (0, 1) for k in (0, 1)]) - center
        distance = max(float(np.max(corners @ back + np.abs(corners @ axis) / tan(half)))
                       for axis, half in ((right, half_x), (up, half_y)))
        self.setCameraParams(center=QtGui.QVector3D(*center),
                             distance=_FIT_MARGIN * max(distance, 1e-6),
                             elevation=cam["elevation"], azimuth=cam["azimuth"], fov=fov)
        self._camera_touched = False

    def set_players(self, players: str) -> None:
        self.players = players
        self._redraw()

    def set_selected(self, node: int | None) -> None:
        self.selected = node
        self._redraw()

    def set_overlay(self, on: bool) -> None:
        """Every bone and joint axis (True), or only the selected joint's (module docstring)."""
        self.overlay = bool(on)
        self._redraw()

    def set_frame(self, frame, sweeps=None) -> None:
        """Draw a :class:`~quatlab.app.model.rig_playback.RigFrame` (None: nothing).

        ``sweeps``: the :class:`~quatlab.app.model.rig_sweeps.SegmentSweep` to
        show with it (None: those shown so far).
        """
        self.frame = frame
        if sweeps is not None:
            self.sweeps = list(sweeps)
        self._redraw()

    def set_sweeps(self, sweeps) -> None:
        """Show these :class:`~quatlab.app.model.rig_sweeps.SegmentSweep` (none: ``[]``)."""
        self.sweeps = list(sweeps)
        self._redraw()

    @contextlib.contextmanager
    def held(self):
        """Changes made inside (a new rig, its frame, the selection) are drawn once, on exit."""
        self._held += 1
        try:
            yield
        finally:
            self._held -= 1
            if not self._held and self._stale:
                self._redraw()

    def _redraw(self) -> None:
        if self._held:
            self._stale = True
            return
        self._stale = False
        frame, rig = self.frame, self.rig
        if frame is None or rig is None:
            if self._meshes is not None:
                self._meshes.hide()
            for item in (self.bones, self.ghost_bones, self.joint_dots, self.gizmos,
                         self.ghost_gizmos, self.marks, self.selection_mark):
                item.setVisible(False)
            self.sweep_items.hide()
            self.label_layer.labels = []
            self.update()
            return
        main_naive = self.players == "naive"
        main = frame.naive if main_naive else frame.spec
        main_bones = frame.naive_bones if main_naive else frame.spec_bones
        ghost = self.players == "both"
        moved = frame.world_difference > DIFFERENCE_DEG
        if self._meshes is not None:
            # Skinned when there are skinned meshes to draw, not before.
            self._meshes.show(main.world, lambda: frame.naive_meshes if main_naive
                              else frame.spec_meshes)
            # The ghost: only the meshes whose pose differs between the players.
            self._meshes.show_ghost(frame.naive.world, lambda: frame.naive_meshes,
                                    lambda m: ghost and self._mesh_moved(m, moved))
        # The whole skeleton with the overlay on, or when it is all there is
        # to see; else the selected joint's bones alone.
        every_bone = self.overlay or self._meshes is None
        kept = self._bones_shown(main_bones, every_bone)
        self.bones.opts["color"] = rgba(NAIVE_COLOR if main_naive else SPEC_COLOR)
        self.bones.set_geometry(bake_bones(self._unit_bone,
                                           to_view(main_bones.segments[kept])))
        self.bones.setVisible(bool(kept.any()))
        if len(main_bones.joints) and every_bone:
            dark = tuple(0.6 * c for c in rgba(NAIVE_COLOR if main_naive else SPEC_COLOR)[:3])
            self.joint_dots.setData(pos=to_view(main_bones.positions), size=6.0,
                                    color=(*dark, 1.0))
        self.joint_dots.setVisible(len(main_bones.joints) > 0 and every_bone)
        # Ghost bones: those whose far end moved (a bone follows its child joint).
        g_segments = np.zeros((0, 2, 3))
        if ghost and moved.any() and len(frame.naive_bones.segments):
            nb = frame.naive_bones
            g_segments = nb.segments[moved[nb.ends] & self._bones_shown(nb, every_bone)]
        self.ghost_bones.set_geometry(bake_bones(self._unit_bone, to_view(g_segments)))
        self.ghost_bones.setVisible(len(g_segments) > 0)

        nodes = np.union1d(self._joints, self._markable)
        if not self.overlay:
            nodes = nodes[nodes == self.selected] if self.selected is not None else nodes[:0]
        size = 0.2 * self._scale if len(self._joints) == 0 else main_bones.axis_length
        self._set_gizmos(self.gizmos, main, nodes, size, naive=main_naive)
        ghost_nodes = nodes[moved[nodes]] if ghost else nodes[:0]
        self._set_gizmos(self.ghost_gizmos, frame.naive, ghost_nodes, size, naive=True)

        flagged = frame.flagged if self.players == "both" else frame.flagged[:0]
        pos = to_view(main.world[:, :3, 3])
        if flagged.size:
            self.marks.setData(pos=pos[flagged], size=15.0, color=rgba(NAIVE_COLOR, 0.9))
        self.marks.setVisible(bool(flagged.size))
        labels = []
        for i in flagged:
            labels.append(Label(self._label_font, (14, -14),
                                f"{_node_name(rig, i)}: {frame.local_difference[i]:.0f}°",
                                pos[i], QtGui.QColor(NAIVE_COLOR), True))
        if self.selected is not None:
            self.selection_mark.setData(pos=np.array([pos[self.selected]] * 2),
                                        size=np.array([20.0, 13.0]),
                                        color=np.array([rgba("#202020"), rgba(SELECT_COLOR)]))
            if self.selected not in set(flagged.tolist()):
                labels.insert(0, Label(self._label_font, (14, -14),
                                       _node_name(rig, self.selected), pos[self.selected],
                                       QtGui.QColor("#202020"), True))
        self.selection_mark.setVisible(self.selected is not None)
        labels += self._draw_sweeps(frame, ghost)
        self.label_layer.labels = labels
        self.update()

    def _draw_sweeps(self, frame, ghost: bool) -> list:
        """The sweeps' paths and spokes, and the naive onion skin; their labels."""
        sweeps = self.sweeps
        colours = {"spec": SPEC_COLOR, "naive": NAIVE_COLOR}
        background = np.array(rgba(SCENE_BACKGROUND)[:3])
        labels = self.sweep_items.draw(sweeps, frame, self.players, colours, background,
                                       self._label_font, self._scale, self.selected)
        if self._meshes is not None:
            if ghost and sweeps:
                parts = [self._part(s.node) for s in sweeps]

                def moved(mesh) -> bool:
                    return any(self._mesh_in(mesh, part) for part in parts)

                poses = [pose for s in sweeps for pose in s.onion]
                self._meshes.show_onion(poses, moved, tuple(id(s) for s in sweeps))
            else:
                self._meshes.hide_onion()
        return labels

    def _part(self, node: int) -> np.ndarray:
        """``node`` and the nodes below it, as a mask over the rig's nodes."""
        inside = np.zeros(len(self.rig), dtype=bool)
        inside[descendants(self.rig, node)] = True
        return inside

    def _mesh_in(self, mesh, part: np.ndarray) -> bool:
        if mesh.skin is None:
            return bool(part[mesh.node])
        return bool(part[self.rig.skins[mesh.skin].joints].any())

    def _bones_shown(self, bones, every: bool) -> np.ndarray:
        """Which of ``bones``' segments to draw: all, or those of the selected joint."""
        if every:
            return np.ones(len(bones.segments), dtype=bool)
        if self.selected is None or not len(bones.ends):
            return np.zeros(len(bones.segments), dtype=bool)
        # A joint's bones: the one ending at it and those leaving it (to its
        # children, or its stub when it is a leaf).
        return (bones.ends == self.selected) | (self.rig.parents[bones.ends] == self.selected)

    def _mesh_moved(self, mesh, moved: np.ndarray) -> bool:
        if mesh.skin is None:
            return bool(moved[mesh.node])
        return bool(moved[self.rig.skins[mesh.skin].joints].any())

    def _set_gizmos(self, item, pose, nodes, size: float, *, naive: bool) -> None:
        if not len(nodes):
            item.setVisible(False)
            return
        rot = pose.world[nodes, :3, :3]
        rot = rot / np.maximum(np.linalg.norm(rot, axis=1, keepdims=True), 1e-300)
        origin = to_view(pose.world[nodes, :3, 3])
        tips = origin[:, None, :] + size * to_view(rot.transpose(0, 2, 1))  # (n, axis, 3)
        pts = np.stack([np.repeat(origin[:, None, :], 3, axis=1), tips], axis=2).reshape(-1, 3)
        if naive:
            shades = (rgba(NAIVE_COLOR), rgba("#E69F00"), rgba("#8C3B00"))
        else:
            shades = tuple(rgba(c) for c in AXIS_COLORS)
        # The colours change with the nodes drawn and the theme, not with the
        # time: uploaded again only then (a time change moves the lines only).
        key = (shades, len(nodes))
        if self._gizmo_colours.get(id(item)) == key:
            item.setData(pos=pts.astype(np.float32))
        else:
            self._gizmo_colours[id(item)] = key
            colors = np.repeat(np.tile(np.array(shades), (len(nodes), 1)), 2, axis=0)
            item.setData(pos=pts.astype(np.float32), color=colors.astype(np.float32))
        item.setVisible(True)

    # ------------------------------------------------------------------ picking
    def pickable(self) -> np.ndarray:
        """Rig indices a click can select: the skin joints and the animated nodes."""
        if self.rig is None:
            return np.zeros(0, dtype=np.int64)
        return np.union1d(self._joints, self._markable)

    def project(self, points: np.ndarray) -> np.ndarray:
        """glTF world points ``(n, 3)`` to this view's logical pixels ``(n, 2)``."""
        w, h = max(self.width(), 1), max(self.height(), 1)
        proj = np.array(self.projectionMatrix((0, 0, w, h), (0, 0, w, h)).data()).reshape(4, 4).T
        view = np.array(self.viewMatrix().data()).reshape(4, 4).T
        m = proj @ view @ Y_UP
        p = np.c_[points, np.ones(len(points))] @ m.T
        ndc = p[:, :2] / p[:, 3:4]
        return np.c_[(ndc[:, 0] + 1) * w / 2, (1 - ndc[:, 1]) * h / 2]

    def node_at(self, x: float, y: float, radius: float = 14.0) -> int | None:
        """The pickable node drawn nearest to pixel ``(x, y)``, within ``radius`` px."""
        nodes = self.pickable()
        if self.frame is None or not len(nodes):
            return None
        pose = self.frame.naive if self.players == "naive" else self.frame.spec
        px = self.project(pose.world[nodes, :3, 3])
        d = np.hypot(px[:, 0] - x, px[:, 1] - y)
        k = int(np.argmin(d))
        return int(nodes[k]) if d[k] <= radius else None

    # ------------------------------------------------------------------ camera and mouse
    def resizeEvent(self, ev):
        super().resizeEvent(ev)
        if not self._camera_touched:
            self.reset_camera()

    def mousePressEvent(self, ev):
        self._press = ev.position()
        super().mousePressEvent(ev)

    def mouseMoveEvent(self, ev):
        if self._press is not None and (ev.position() - self._press).manhattanLength() > 4:
            self._camera_touched = True
        super().mouseMoveEvent(ev)

    def mouseReleaseEvent(self, ev):
        press, self._press = self._press, None
        if (press is not None and ev.button() == QtCore.Qt.MouseButton.LeftButton
                and (ev.position() - press).manhattanLength() <= 4):
            node = self.node_at(ev.position().x(), ev.position().y())
            if node is not None:
                self.nodeClicked.emit(node)
        super().mouseReleaseEvent(ev)


def _node_name(rig, i: int) -> str:
    name = rig.names[i]
    return name if name else _("node #{index}").format(index=int(rig.gltf_index[i]))
