"""The lesson's 3D viewport: joint chains driven by interpolated rotations.

:class:`ChainScene` is a pyqtgraph GL view (:class:`GLWindowView`) showing

* a ground grid in the XY plane (z up) and a small world-axes marker at the
  origin, under the chain root;
* one chain per key (the window uses ``"naive"`` and ``"shortest"``) drawn as
  solid, lit, faceted bones in the method colour, each with a fin along its
  local +Z and a flat hand at the tip, so a turn about the bone's own axis
  shows; a ball at every joint, and small Y (green) and Z (blue) axis
  gizmos at every joint, depth-tested so they never paint over a bone (the
  bone itself is the X axis);
* translucent grey ghosts of the poses at t = 0 and t = 1, fainter than the chains;
* the trail of each chain's hand over t in [0, 1], fading in from t = 0,
  with ticks at every tenth of t (NLERP's uneven speed shows as uneven
  spacing) and arrowheads at t = 0.5 and 1 (the direction of travel), and
  gaps where the rotation does not exist;
* with :meth:`ChainScene.set_turn_reference`, the turn of each chain's root
  since t = 0: its axis (an arrow through the root) and an arc about it with
  a label of the angle turned so far;
* a text label beside each chain so a screenshot says which chain is
  which, placed in screen space clear of the other labels, the chains,
  their turn marks, trails and the ghosts (:mod:`quatlab.rendering.labels`),
  and a note pinned to the viewport's
  corner for every chain that has no pose at this t.

Every chain hangs from :data:`quatlab.rendering.chain.ROOT` unless
:meth:`ChainScene.set_chain` gives it a ``root`` of its own: lessons that
compare several results side by side (the pose blend) spread them out so
they do not overlap; the default camera then frames all the roots.

The pose comes from :mod:`quatlab.rendering.chain`; this module only maps it
to GL items. Every GL item costs a fixed slice of a frame (about 0.5 ms of
PyOpenGL calls and state changes under llvmpipe for a lit mesh), so a chain
is one mesh item, its bones baked in the root bone's frame, and what changes
with t is that item's *transform* (one 4x4 matrix) and two small line items
per chain (the joint gizmos and the turn marks, a few dozen vertices). The
bake is redone only when the joints bend relative to the root (every joint
turning); with the root only turning, the default, a t change uploads no
mesh at all. Things that do not change with t (the two ghosts, the trails)
are baked into as few items as possible, and all labels share one QPainter pass.

Why a light background: the method colours are the Okabe-Ito palette, chosen
and checked for colour-vision deficiencies against white; on black the blue
(#0072B2) and the reddish purple lose most of their contrast. The 2D plots
use :data:`quatlab.rendering.style.BACKGROUND` (white), so a light 3D view
keeps the window one piece and screenshots paste into slides and handouts as
they are. The viewport is a hair darker than pure white so the bright
specular highlights of the bones keep an outline.

The view is a native :class:`GLWindowView`, not a QOpenGLWidget, because one
QOpenGLWidget in a window makes Qt compose the whole window through OpenGL
on every repaint (see the class).

The module is longer than most (about 950 lines) because the scene is one
object whose parts move together: chains, ghosts, trails, turn marks,
labels and the camera fit all read the same per-chain state. The geometry
that needs no GL state lives in :mod:`quatlab.rendering.scene_marks`,
:mod:`quatlab.rendering.chain`, :mod:`quatlab.rendering.trail_shape` (which a
worker thread may build, see :meth:`ChainScene.trail_shaper`) and
:mod:`quatlab.rendering.bone_mesh`.

Rendering needs a real OpenGL context:
under ``QT_QPA_PLATFORM=offscreen`` pyqtgraph's GL views draw nothing
(docs/environment.md); tests run on Xvfb/xcb.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from math import atan, radians, tan

import numpy as np
import pyqtgraph.opengl as gl
from OpenGL import GL
from PyQt6 import QtCore, QtGui
from pyqtgraph.opengl.GLGraphicsItem import GLOptions

from quatlab.app.i18n import _
from quatlab.math import quaternion as Q
from quatlab.rendering import themes
from quatlab.rendering.bone_mesh import (
    as_rgba,
    bake,
    bone_geometry,
    fin_outline,
    frame_transform,
    gizmo_lines,
)
from quatlab.rendering.chain import (
    DEFAULT_BONES,
    ROOT,
    bone_lengths,
    chain_frames,
    chain_reach,
    hand_height,
    marker_trail,
)
from quatlab.rendering.contrast import TEXT_CONTRAST, deepen
from quatlab.rendering.gl_items import (
    GHOST_SHADER,
    LIT_SHADER,
    OVERLAY,
    BoneItem,
    GhostItem,
    TrailItem,
)
from quatlab.rendering.gl_view import GLWindowView, UserCamera
from quatlab.rendering.label_place import pair_segments
from quatlab.rendering.labels import Label, LabelLayer, label_font
from quatlab.rendering.scene_marks import (
    cross3,
    fit_view,
    last_turn_axis,
    turn_arc,
    turn_of,
)
from quatlab.rendering.style import SCENE_BACKGROUND, rgba
from quatlab.rendering.trail_shape import TrailShape, TrailShaper, trail_colours, trail_shape

__all__ = ["ChainScene", "DEFAULT_CAMERA"]

#: Default camera: oblique, from the front right and a little above, so the
#: rest pose (along +X) runs left to right and a turn about Z shows as an
#: ellipse rather than a line.
DEFAULT_CAMERA = {"elevation": 28.0, "azimuth": -60.0, "fov": 45.0}

_GRID_COLOR = (0, 0, 0, 38)      # translucent black: visible on the light clear colour
_GRID_SIZE = 8.0                 # metres of grid: room for the fully curled chain
_GRID_SPACING = 0.5
_JOINT_RADIUS = 0.075            # joint ball radius, fraction of the root bone's length
_GIZMO_LENGTH = 0.4              # gizmo axis length, fraction of the root bone's length
_GIZMO_WIDTH = 3.0
_TRAIL_WIDTH = 3.0
#: Antialiased wide lines are llvmpipe's costliest primitive (a tangled
#: 24,000-vertex trail: 40 ms a frame with, 10 without); a trail with more
#: vertices than this is a tangle whose edges nobody follows, drawn without.
_TRAIL_AA_VERTICES = 12_000
_TURN_RADIUS = (0.5, 0.36)       # arc radius of the first, second... chain, root bone lengths
_TURN_WIDTH = 2.5
_FIT_MARGIN = 1.03               # breathing room around the fully reached sphere
_FIT_PAD = 0.12                  # ball radius around fitted points, root bone lengths
_AXIS_LENGTH = 0.85              # turn axis drawn from the root, root bone lengths
_FIT_SAMPLES = 41                # path samples the camera fit looks at
_AUTO_ELEVATIONS = (18.0, 28.0, 40.0)          # degrees, set_auto_direction's candidates
_AUTO_AZIMUTHS = (-30.0, -45.0, -60.0, -75.0, -90.0, -105.0, -120.0)
_NOTE_BAND = 24.0                # pixels kept free of the fitted content at the bottom, for notes
_NOTE_STEP = 24.0                # pixels between notes, stacked up from the bottom

# Draw order (GLGraphicsItem.depthValue): the opaque geometry first so the
# translucent ghosts and trails blend over what is behind them, then gizmos
# as an overlay (the X axis runs inside its own bone, so a depth-tested gizmo
# would hide exactly the axis the bone is built on), then text.
_ORDER_GRID = -10
_ORDER_SOLID = 0
_ORDER_TRAIL = 5
_ORDER_GHOST = 10
_ORDER_GIZMO = 20
_ORDER_LABEL = 30


@dataclass
class _Chain:
    """The GL items of one live chain and what it was last told to show."""

    #: Every bone in one item, baked in the root bone's frame; the item's
    #: transform is the root bone's world frame.
    body: BoneItem
    gizmo: gl.GLLinePlotItem
    label: Label
    note: Label
    angle_label: Label
    index: int = 0
    text: str = ""
    missing: str | None = None    # the caller's note for a chain without a pose
    turn: gl.GLLinePlotItem | None = None
    turn_axis: np.ndarray | None = None   # of the whole path, for t = 0 where none is turned
    plane: np.ndarray | None = None       # normal of the plane its trail lies in, if any
    q: np.ndarray | None = None
    color: tuple | None = None
    design_color: object = None   # the caller's colour, re-derived in a new theme (retheme)
    wanted: bool = True           # the caller's set_chain_visible
    trail: TrailItem | None = None
    trail_color: tuple | None = None
    trail_design: object = None
    trail_shape: TrailShape | None = None
    path: np.ndarray | None = None
    #: Rotations the camera fit takes the chain at instead of its path (set_framed_poses).
    framed: np.ndarray | None = None
    root: np.ndarray = field(default_factory=lambda: ROOT.copy())
    #: Bone frames relative to the root bone that ``body`` was baked with.
    baked: tuple[np.ndarray, np.ndarray] | None = None


class ChainScene(UserCamera, GLWindowView):
    """3D view of joint chains driven by one local rotation each.

    Parameters
    ----------
    parent : QWidget, optional
    n_bones : int
        Bones per chain (at least 1; the lesson uses 3).
    bone_length : float or sequence of float
        Root bone length, or every length; see
        :func:`quatlab.rendering.chain.bone_lengths`.

    Notes
    -----
    Camera: left-drag orbits, Ctrl+left-drag or middle-drag pans, the wheel
    zooms; ``R`` or ``Home`` calls :meth:`reset_camera`. Chains are keyed by
    any string; a new key is created on its first :meth:`set_chain`. The
    scene only draws what it is given and never changes the lesson model.

    Layouts take :attr:`widget` (see :class:`GLWindowView`). Screenshots:
    ``grabFramebuffer()``, ``renderToArray()`` and :func:`grab_widget` of any
    parent all include the labels. More than one scene (or any other GL
    view) per process needs ``AA_ShareOpenGLContexts`` set before the
    QApplication exists, because shader programs are compiled once per
    process (docs/environment.md).
    """

    def __init__(self, parent=None, *, n_bones: int = DEFAULT_BONES, bone_length=1.0):
        self._frame_due = True  # nothing drawn yet
        self._frames_held = False
        super().__init__(parent)
        self.frameSwapped.connect(self._frame_swapped)
        self._hold_timer = QtCore.QTimer()
        self._hold_timer.setSingleShot(True)
        self._hold_timer.timeout.connect(self.release_frames)
        self._lengths = bone_lengths(n_bones, bone_length)
        self._n_bones = len(self._lengths)
        self._bone_length = (bone_length if isinstance(bone_length, (Sequence, np.ndarray))
                             else float(bone_length))
        self._reach = chain_reach(n_bones, bone_length)
        self._root_only = False
        self._turn_reference: np.ndarray | None = None
        self._turn_frame: np.ndarray | None = None
        self._camera_touched = False
        self._auto_direction = False
        self._camera_defaults = dict(DEFAULT_CAMERA)
        self._chains: dict[str, _Chain] = {}
        #: What labels keep clear of, world polylines by what draws them
        #: (a chain, its turn marks or trail, the ghosts): see _set_obstacles.
        self._obstacles: dict[tuple, list[np.ndarray]] = {}
        self._bodies: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._labels: dict[str, str] = {}
        self._visible: dict[str, bool] = {}
        # Geometry is built once and shared by every chain; each item keeps
        # its own GPU buffers and only the item transforms change afterwards.
        ball = _JOINT_RADIUS * self._lengths[0]
        last = self._n_bones - 1
        self._hand = hand_height(n_bones, bone_length)
        self._geometry = [
            bone_geometry(length, ball, 0.8 * ball if k == last else None,
                          self._hand if k == last else None)
            for k, length in enumerate(self._lengths)
        ]
        # Y and Z only: X runs inside the bone, and drawn over it (it cannot
        # be depth-tested there) it made every bone read red.
        pos, col = gizmo_lines(_GIZMO_LENGTH * self._lengths[0])
        self._gizmo = (pos[2:], col[2:])
        # Each bone's fin (the hand on the last), closed, in its local frame:
        # labels keep clear of them as of the bones (quatlab.rendering.labels).
        # The straight chain along +X, each bone in the root's frame.
        rest_rot = np.repeat(np.eye(3)[None], self._n_bones, axis=0)
        self._rest = (np.column_stack([np.r_[0.0, np.cumsum(self._lengths)[:-1]],
                                       np.zeros((self._n_bones, 2))]), rest_rot)
        self._outlines = []
        for k, length in enumerate(self._lengths):
            corners = [(x, 0.0, z) for x, z in fin_outline(length,
                                                           self._hand if k == last else None)]
            self._outlines.append(np.array([*corners, corners[0]]))

        self.setBackgroundColor(SCENE_BACKGROUND)
        grid = gl.GLGridItem(size=QtGui.QVector3D(_GRID_SIZE, _GRID_SIZE, 1), color=_GRID_COLOR)
        grid.setSpacing(_GRID_SPACING, _GRID_SPACING, 1)
        grid.setDepthValue(_ORDER_GRID)
        self.addItem(grid)
        axes_pos, axes_color = gizmo_lines(0.6 * self._lengths[0])
        axes_color[:, 3] = 0.7  # quieter than the joint gizmos: a reference, not a subject
        # A hair above the grid: the X and Y axes lie on grid lines and would
        # z-fight with them into dotted lines.
        axes_pos[:, 2] += 0.01
        world_axes = gl.GLLinePlotItem(pos=axes_pos, color=axes_color, mode="lines", width=2.0,
                                       antialias=True, glOptions="translucent")
        world_axes.setDepthValue(_ORDER_GRID)
        self.addItem(world_axes)

        self._label_layer = LabelLayer()
        self._label_layer.setDepthValue(_ORDER_LABEL)
        self.addItem(self._label_layer)

        # Both ghosts in one translucent item, baked in world space: they
        # change with the endpoints, not with t.
        self._ghost_q: list[np.ndarray | None] = [None, None]
        self._ghost_points: list[np.ndarray] = []
        # Their colour is the theme's (Theme.ghost_rgba), here and at every
        # switch (retheme). Faces turned from the camera are culled: the
        # ghost blends its front over the scene, not its front over its own
        # back, so its contrast is the one the theme chose.
        self._ghost_item = GhostItem(bake([], []), shader=GHOST_SHADER,
                                      color=themes.current().ghost_rgba(),
                                      glOptions={**GLOptions["translucent"],
                                                 GL.GL_POLYGON_OFFSET_FILL: False,
                                                 GL.GL_CULL_FACE: True})
        self._ghost_item.setDepthValue(_ORDER_GHOST)
        self._ghost_item.setVisible(False)
        self.addItem(self._ghost_item)
        # Ghost labels go left of the tip, chain labels right, so the two
        # kinds never stack; the first of each kind above, the second below.
        ghost_font = label_font(10.0, QtGui.QFont.Weight.Normal)
        self._ghost_labels = [
            self._add_label(Label(ghost_font, offset, text=text, priority=-1,
                                   color=QtGui.QColor.fromRgbF(0.4, 0.4, 0.43)))
            for text, offset in (("t = 0", (-9.0, -4.0)), ("t = 1", (-9.0, 4.0)))
        ]
        self.reset_camera()

    # ------------------------------------------------------------------ construction

    def update(self):
        """Render a new frame soon (see :class:`GLWindowView`); :attr:`frame_due` until it is."""
        self._frame_due = True
        if not self._frames_held:
            super().update()

    def hold_frames(self, ms: int) -> None:
        """Render no frame for ``ms`` ms from now, then one if anything changed.

        For a view whose other widgets change in the same event as the scene:
        their paint and the scene's frame then come in separate turns of the
        event loop, not in one long block (:mod:`quatlab.app.qt.paint_later`).
        An expose (the view shown) still renders at once.
        """
        self._frames_held = True
        self._hold_timer.start(max(int(ms), 0))

    def release_frames(self) -> None:
        """End :meth:`hold_frames` now: render the frame it held back, if any."""
        self._hold_timer.stop()
        if self._frames_held:
            self._frames_held = False
            if self._frame_due:
                super().update()

    @property
    def frame_due(self) -> bool:
        """Whether something changed since the last frame this view swapped.

        Also while the view waits to be shown: its first frame then comes
        with the expose. Views that paint after the scene wait on this.
        """
        return self._frame_due

    def _frame_swapped(self) -> None:
        self._frame_due = False

    def _add_label(self, label: Label) -> Label:
        self._label_layer.labels.append(label)
        return label

    def _chain(self, key: str) -> _Chain:
        if not isinstance(key, str):
            raise TypeError(f"chain key must be a str, got {key!r}")
        chain = self._chains.get(key)
        if chain is not None:
            return chain
        index = len(self._chains)
        # When two chains coincide (dot >= 0 makes naive == shortest) the
        # later one is pushed back in depth, so one colour wins cleanly
        # instead of z-fighting into speckles.
        opts = {GL.GL_DEPTH_TEST: True, GL.GL_BLEND: False, GL.GL_CULL_FACE: False,
                GL.GL_POLYGON_OFFSET_FILL: True, "glPolygonOffset": (index, index)}
        # One item for all the bones: each GL item costs a fixed slice of a
        # frame (about 0.5 ms here), more than re-baking a chain whose joints
        # bend; with the root only turning, the bake never changes.
        body = BoneItem(bake(self._geometry, [self._rest], edges=True), shader=LIT_SHADER,
                        drawEdges=True, glOptions=opts)
        body.setDepthValue(_ORDER_SOLID)
        self.addItem(body)
        # One item for the gizmos of every joint, in world space: one GL item
        # costs more per frame than a few vertices uploaded with the pose.
        gizmo = gl.GLLinePlotItem(mode="lines", width=_GIZMO_WIDTH, antialias=True,
                                  glOptions="opaque")
        gizmo.setDepthValue(_ORDER_GIZMO)
        self.addItem(gizmo)
        # Chains in one pose end at one tip: their labels share a plate there.
        label = self._add_label(Label(label_font(11.0, QtGui.QFont.Weight.DemiBold),
                                       (9.0, -4.0 if index % 2 == 0 else 4.0), priority=2,
                                       group="chain"))
        note = self._add_label(Label(label_font(11.0, QtGui.QFont.Weight.DemiBold), (0.0, 0.0),
                                      priority=3))
        angle_label = self._add_label(Label(label_font(11.0, QtGui.QFont.Weight.DemiBold),
                                             (-8.0 if index % 2 == 0 else 8.0, -6.0),
                                             priority=1))
        chain = _Chain(body=body, gizmo=gizmo, label=label, note=note, angle_label=angle_label,
                       index=index, text=self._labels.get(key, key),
                       wanted=self._visible.get(key, True))
        self._chains[key] = chain
        self._apply_color(chain, (0.5, 0.5, 0.5, 1.0))
        self._pose(chain, None)
        return chain

    def _apply_color(self, chain: _Chain, color) -> None:
        chain.design_color = color
        rgba_ = as_rgba(color)
        if rgba_ == chain.color:
            return
        chain.color = rgba_
        # Edges a darker shade of the face colour: crisp facets without the
        # cartoon look of black outlines.
        chain.body.opts["edgeColor"] = tuple(0.55 * c for c in rgba_[:3]) + (1.0,)
        chain.body.setColor(rgba_)
        # A darker shade of the chain colour keeps the text readable on the
        # light background, deepened further where it still is not 4.5:1 (the
        # pale grey of input poses was 2.7:1); the dark themes' colours are
        # light enough as they are.
        if themes.current().dark:
            ink = rgba_[:3]
        else:
            ink = deepen([0.8 * c for c in rgba_[:3]], rgba(SCENE_BACKGROUND), TEXT_CONTRAST)
        text_colour = QtGui.QColor.fromRgbF(*(float(c) for c in ink))
        for label in (chain.label, chain.note, chain.angle_label):
            label.color = text_colour
        if chain.turn is not None:
            chain.turn.setData(color=rgba_)
        self.update()

    # ------------------------------------------------------------------ posing

    def _frames(self, q: np.ndarray, root: np.ndarray = ROOT) -> tuple[np.ndarray, np.ndarray]:
        """Joint positions and bone rotation matrices of the chain at ``q`` hung from ``root``."""
        positions, rotations = chain_frames(q, self._n_bones, self._bone_length,
                                            root_only=self._root_only)
        # chain_frames always starts at ROOT; a chain of its own root is the
        # same pose moved over, so the kinematics stay in one place.
        return positions + (root - ROOT), Q.to_matrix(rotations)

    def _pose(self, chain: _Chain, q) -> None:
        """Move ``chain`` to local rotation ``q``; None or NaN hides it."""
        q = _as_local(q)
        # Kept as given, NaN included, so re-posing (root-only toggle, a new
        # label) keeps telling a collapse from "no chain at all".
        chain.q = q
        defined = q is not None and bool(np.all(np.isfinite(q)))
        shown = defined and chain.wanted
        chain.body.setVisible(shown)
        chain.gizmo.setVisible(shown)
        chain.label.visible = shown and bool(chain.text)
        if shown:
            positions, matrices = self._frames(q, chain.root)
            self._pose_body(chain, positions, matrices)
            pos, _colors = self._gizmo
            starts = np.repeat(positions[:-1], 2, axis=0)        # (2 per joint, 3)
            ends = np.einsum("kij,aj->kai", matrices, pos[1::2]).reshape(-1, 3) + starts
            verts = np.empty((2 * len(starts), 3), np.float32)
            verts[0::2], verts[1::2] = starts, ends
            chain.gizmo.setData(pos=verts, color=np.tile(self._gizmo[1], (self._n_bones, 1)))
            hand = positions[-1] + matrices[-1][:, 2] * self._hand
            chain.label.pos, chain.label.text = hand, chain.text
            self._set_obstacles(("chain", id(chain)), [
                *self._bone_lines(positions, matrices), pair_segments(verts)])
        else:
            self._set_obstacles(("chain", id(chain)), [])
        # A collapse is a labelled gap, never an invented pose: a note pinned
        # to the viewport says which chain is missing and why.
        chain.note.visible = chain.wanted and q is not None and not defined
        if chain.note.visible:
            chain.note.text = chain.missing or _("{chain}: no rotation at this t").format(
                chain=chain.text)
        self._stack_notes()
        self._pose_turn(chain)
        self.update()

    def _bone_lines(self, positions: np.ndarray, matrices: np.ndarray) -> list[np.ndarray]:
        """A posed chain's joints and each bone's fin (the hand's outline on the last), world."""
        return [positions] + [positions[k] + outline @ matrices[k].T
                              for k, outline in enumerate(self._outlines)]

    def _set_obstacles(self, key: tuple, lines: list[np.ndarray]) -> None:
        """What ``key`` draws now, for the labels to keep clear of (empty: nothing).

        The chains, their joint gizmos, turn marks (axis arrow, arc) and
        trails (with their ticks), and the ghosts: a label over any of them
        hides what it names or what it is read against.
        """
        if lines:
            self._obstacles[key] = lines
        else:
            self._obstacles.pop(key, None)
        self._label_layer.obstacles = [line for group in self._obstacles.values()
                                       for line in group]

    def _pose_body(self, chain: _Chain, positions: np.ndarray, matrices: np.ndarray) -> None:
        """Move ``chain.body`` to the root bone's frame; re-bake only if the joints bent."""
        r0, p0 = matrices[0], positions[0]
        rel = (np.einsum("ji,kjl->kil", r0, matrices), (positions[:-1] - p0) @ r0)
        if chain.baked is None or not all(np.allclose(a, b, rtol=0.0, atol=1e-9)
                                          for a, b in zip(rel, chain.baked, strict=True)):
            chain.baked = rel
            chain.body.set_geometry(bake(self._geometry, [(rel[1], rel[0])], edges=True))
        chain.body.setTransform(frame_transform(r0, p0))

    def _turn_verts(self, chain: _Chain, axis: np.ndarray, angle: float) -> np.ndarray:
        """Line vertices of ``chain``'s turn: the axis through its root and the arc of ``angle``."""
        length = self._lengths[0]
        radius = _TURN_RADIUS[chain.index % len(_TURN_RADIUS)] * length
        # The arc starts from the root bone's direction at t = 0, or from its
        # fin when the turn is about the bone itself.
        start_rot = self._turn_frame
        start = start_rot[:, 0]
        if np.linalg.norm(cross3(start, axis)) < 0.3:
            start = start_rot[:, 2]
        return turn_arc(chain.root, axis, start, angle, radius, _AXIS_LENGTH * length,
                        0.12 * length)

    def _path_turn(self, chain: _Chain) -> float:
        """Largest angle (radians) ``chain`` turns along its path from the reference."""
        step = max(len(chain.path) // 20, 1)
        angles = [turn_of(self._turn_reference, q)[1]
                  for q in (*chain.path[::step], chain.path[-1])]
        finite = [a for a in angles if np.isfinite(a)]
        return max(finite) if finite else 0.0

    def _stack_notes(self) -> None:
        # In the band reset_camera keeps free at the bottom, so a note never
        # hides the chains of a framed view.
        y = self.height() - _NOTE_BAND + 2.0
        for chain in self._chains.values():
            if chain.note.visible:
                chain.note.fixed = (10.0, y)
                y -= _NOTE_STEP

    def _pose_turn(self, chain: _Chain) -> None:
        """Draw the turn of ``chain``'s root since t = 0: axis, arc and angle."""
        q = chain.q
        ref = self._turn_reference
        show = (ref is not None and chain.wanted and q is not None
                and bool(np.all(np.isfinite(q))))
        chain.angle_label.visible = show
        if not show:
            if chain.turn is not None:
                chain.turn.setVisible(False)
            self._set_obstacles(("turn", id(chain)), [])
            return
        axis, angle = turn_of(ref, q)
        if axis is None:
            axis = chain.turn_axis
        if chain.turn is None:
            chain.turn = gl.GLLinePlotItem(mode="lines", width=_TURN_WIDTH, antialias=True,
                                           color=chain.color, glOptions=OVERLAY)
            chain.turn.setDepthValue(_ORDER_GIZMO)
            self.addItem(chain.turn)
        degrees = float(np.degrees(angle))
        if axis is None:
            # No axis at all: nothing turned (or a whole turn to -q0, the same pose).
            chain.turn.setVisible(False)
            self._set_obstacles(("turn", id(chain)), [])
            chain.angle_label.pos = chain.root.copy()
            chain.angle_label.text = (_("0° (−q0: same pose)") if degrees > 359.995
                                      else "0°")
            return
        verts = self._turn_verts(chain, axis, angle)
        chain.turn.setData(pos=verts.astype(np.float32), color=chain.color)
        chain.turn.setVisible(True)
        self._set_obstacles(("turn", id(chain)), [pair_segments(verts)])
        chain.angle_label.pos = (verts[-4] if angle > 1e-6
                                 else chain.root + _AXIS_LENGTH * self._lengths[0] * axis)
        chain.angle_label.text = f"{degrees:.1f}°"

    def _pose_ghosts(self) -> None:
        poses = []
        for q, label in zip(self._ghost_q, self._ghost_labels, strict=True):
            label.visible = q is not None and bool(np.all(np.isfinite(q)))
            if label.visible:
                positions, matrices = self._frames(q)
                label.pos = positions[-1]
                poses.append((positions, matrices))
        # Rebuilt only here (new endpoints or kinematics), never per t.
        self._ghost_item.set_geometry(bake(self._geometry, poses))
        self._ghost_item.setVisible(bool(poses))
        self._ghost_points = [p for p, _ in poses]
        self._set_obstacles(("ghosts",), [line for p, m in poses
                                          for line in self._bone_lines(p, m)])
        self.update()

    def set_chain(self, key: str, q, color=None, root=None, missing: str | None = None) -> None:
        """Pose the chain ``key`` with local rotation ``q``, drawn in ``color``.

        Parameters
        ----------
        key : str
            Chain name, e.g. ``"naive"`` or ``"shortest"``; created on first use.
        q : array_like, shape (4,), or None
            Local joint rotation (w, x, y, z); its sign does not matter.
            NaN components (a collapse: the rotation does not exist at this
            t) hide the chain and leave its label at the root saying so;
            ``None`` hides chain and label (nothing to show).
        color : str or tuple, optional
            Anything :func:`pyqtgraph.mkColor` accepts, e.g. a value of
            :data:`quatlab.rendering.style.METHOD_COLORS`. Kept when omitted.
        root : array_like, shape (3,), optional
            World position of the chain's root joint, for chains shown side
            by side instead of on top of each other. Kept when omitted; a
            new chain starts at :data:`quatlab.rendering.chain.ROOT`. The
            chain's :meth:`set_path` trail moves with it, and the default
            camera (:meth:`reset_camera`) frames every root.
        missing : str, optional
            The note pinned to the viewport while ``q`` is NaN, saying why
            there is no pose (default: "<label>: no rotation at this t").
        """
        chain = self._chain(key)
        chain.missing = missing
        if color is not None:
            self._apply_color(chain, color)
        if root is not None:
            root = np.array(root, dtype=np.float64)
            if root.shape != (3,) or not np.all(np.isfinite(root)):
                raise ValueError(f"root must be a finite point of shape (3,), got {root!r}")
            if not np.array_equal(root, chain.root):
                chain.root = root
                if chain.path is not None:
                    self.set_path(key, chain.path)
                if not self._camera_touched:
                    self.reset_camera()
        self._pose(chain, q)

    def retheme(self) -> None:
        """Derive the colours again in the current theme (View > Theme): shades, fades, ghosts."""
        self._ghost_item.setColor(themes.current().ghost_rgba())
        for chain in self._chains.values():
            if chain.design_color is not None:
                chain.color = None  # the shades change even where the colour does not
                self._apply_color(chain, chain.design_color)
            if chain.trail_design is not None:
                chain.trail_color = as_rgba(chain.trail_design)
            if chain.trail_shape is not None:
                self._draw_trail(chain, chain.trail_shape)

    def set_chain_visible(self, key: str, visible: bool) -> None:
        """Show or hide chain ``key`` together with its trail and label."""
        self._visible[key] = bool(visible)
        chain = self._chains.get(key)
        if chain is None:
            return
        chain.wanted = bool(visible)
        self._pose(chain, chain.q)
        if chain.trail is not None:
            chain.trail.setVisible(chain.wanted and len(chain.trail.pos) > 0)
            self._trail_obstacles(chain)

    def set_turn_reference(self, q_start) -> None:
        """Draw each chain's turn since ``q_start`` (t = 0) at its root; None hides them.

        The axis through the root, with an arrow, and an arc about it from
        the t = 0 direction of the root bone to the current one, labelled
        with the angle turned so far (the path angle of docs/curves.md, so a
        naive chain that goes the long way reads 340°, not 20°).
        """
        self._turn_reference = _as_local(q_start)
        # Its frame, made once: every turn mark at every t starts from it.
        self._turn_frame = (None if self._turn_reference is None else
                            Q.to_matrix(Q.as_quaternion(self._turn_reference, "reference")))
        for chain in self._chains.values():
            self._path_axis(chain)
            self._pose_turn(chain)
        self.update()

    def notes(self) -> list[str]:
        """Texts of the notes pinned to the viewport now (one per chain without a pose)."""
        return [c.note.text for c in self._chains.values() if c.note.visible]

    def placed_labels(self) -> list[tuple[str, QtCore.QRectF]]:
        """Every label the last frame drew, with its plate in widget pixels."""
        return [(lb.text, QtCore.QRectF(lb.rect)) for lb in self._label_layer.labels
                if lb.rect is not None]

    def angle_label(self, key: str) -> str | None:
        """The angle label of chain ``key`` if shown (see :meth:`set_turn_reference`)."""
        chain = self._chains.get(key)
        return chain.angle_label.text if chain is not None and chain.angle_label.visible else None

    def set_label(self, key: str, text: str) -> None:
        """Text shown beside the tip of chain ``key`` (default: the key itself)."""
        self._labels[key] = str(text)
        chain = self._chains.get(key)
        if chain is not None and chain.text != str(text):  # views set them again with new data
            chain.text = str(text)
            self._pose(chain, chain.q)

    def set_ghosts(self, q_start, q_end) -> None:
        """Show faint grey chains at the t = 0 and t = 1 rotations (None hides one)."""
        self._ghost_q = [_as_local(q_start), _as_local(q_end)]
        self._pose_ghosts()

    def set_trail(self, key: str, points, color=None) -> None:
        """Draw the tip trail of chain ``key`` through ``points``.

        Parameters
        ----------
        key : str
        points : array_like, shape (N, 3), or None
            World positions in order of t; NaN rows are gaps (the trail is
            not bridged across them). ``None`` removes the trail.
        color : optional
            Trail colour; defaults to the chain's colour at the time of the
            call. It fades from pale at the first point to full strength at
            the last, so the direction of travel shows.

        See Also
        --------
        set_path : the same from the rotation path, kept in step with
            :meth:`set_root_only`.
        """
        chain = self._chain(key)
        if points is None:
            points = np.empty((0, 3))
        self._draw_trail(chain, trail_shape(points, self._reach), color)

    def _draw_trail(self, chain: _Chain, shape: TrailShape, color=None) -> None:
        """Upload ``shape`` as ``chain``'s trail, coloured (cheap: the shape is the work)."""
        if color is not None:
            chain.trail_design, chain.trail_color = color, as_rgba(color)
        chain.trail_shape = shape
        seg = shape.vertices
        base = chain.trail_color or chain.color
        # Mixed towards the background, its palest end still at 3:1 on it.
        colors = np.ones((len(seg), 4), dtype=np.float32)
        colors[:, :3] = trail_colours(base, rgba(SCENE_BACKGROUND), shape.strength)
        if chain.trail is None:
            chain.trail = TrailItem(mode="lines", width=_TRAIL_WIDTH, antialias=True,
                                     glOptions="translucent")
            chain.trail.setDepthValue(_ORDER_TRAIL)
            self.addItem(chain.trail)
        if len(seg):
            chain.trail.setData(pos=seg.astype(np.float32), color=colors,
                                antialias=len(seg) <= _TRAIL_AA_VERTICES)
        else:
            chain.trail.pos = np.empty((0, 3), dtype=np.float32)
        chain.trail.setVisible(chain.wanted and len(seg) > 0)
        self._trail_obstacles(chain)

    def _trail_obstacles(self, chain: _Chain) -> None:
        shown = chain.trail is not None and chain.trail.visible() and chain.trail_shape is not None
        self._set_obstacles(("trail", id(chain)),
                            [pair_segments(chain.trail_shape.vertices)] if shown else [])

    def trail_shaper(self, key: str) -> TrailShaper:
        """A :class:`TrailShaper` for chain ``key`` as the scene stands now (any thread may use it).

        A lesson that computes its paths on a worker thread builds their
        shapes there (``shaper.shape(path_q)``) and passes them to
        :meth:`set_path`, which uses a shape only if the chain's kinematics
        (root only or not, its root) are still the ones it was made for.
        """
        chain = self._chains.get(key)
        root = ROOT if chain is None else chain.root
        bone_length = (tuple(float(v) for v in self._bone_length)
                       if isinstance(self._bone_length, (Sequence, np.ndarray))
                       else self._bone_length)
        return TrailShaper(self._n_bones, bone_length, self._root_only,
                           tuple(float(v) for v in root))

    def set_path(self, key: str, path_q, color=None, *, shape: TrailShape | None = None) -> None:
        """Draw the tip trail of chain ``key`` along the sampled rotations ``path_q``.

        ``path_q`` (``(N, 4)``, w first, NaN rows for undefined samples) is
        kept, so :meth:`set_root_only` can redraw the trail for the other
        kinematics. ``None`` removes the trail. ``shape``, from
        :meth:`trail_shaper`'s shaper on the same path, saves working the
        trail out again; it is ignored (and the trail worked out here) if
        it was made for other kinematics or another path.
        """
        chain = self._chain(key)
        if path_q is None:
            chain.path = None
            self.set_trail(key, None, color)
        else:
            path = np.asarray(path_q, dtype=np.float64)
            if (shape is None or shape.path is None
                    or shape.kinematics != self.trail_shaper(key).kinematics
                    or not np.array_equal(shape.path, path, equal_nan=True)):
                shape = self.trail_shaper(key).shape(path)
            chain.path = shape.path
            self._draw_trail(chain, shape, color)
        chain.plane = None if chain.path is None else chain.trail_shape.plane
        self._path_axis(chain)
        self._pose_turn(chain)

    def _path_axis(self, chain: _Chain) -> None:
        """The axis of ``chain``'s path, for the samples that have turned nothing yet.

        Every NLERP and SLERP path keeps one axis (it stays on one great
        circle through q0), so the last sample with an axis gives it.
        """
        chain.turn_axis = None
        if chain.path is None or self._turn_reference is None:
            return
        chain.turn_axis = last_turn_axis(self._turn_reference, chain.path)

    def set_root_only(self, root_only: bool) -> None:
        """Turn only the root joint (True) or every joint by the local rotation (False)."""
        self._root_only = bool(root_only)
        self._pose_ghosts()
        for key, chain in self._chains.items():
            self._pose(chain, chain.q)
            if chain.path is not None:
                self.set_path(key, chain.path)

    def root_only(self) -> bool:
        """Whether only the root joint turns."""
        return self._root_only

    # ------------------------------------------------------------------ camera

    def reset_camera(self) -> None:
        """Oblique default view framing what the chains do, as large as it fits.

        What must fit: every chain that has a path (:meth:`set_path`), at
        every pose along it, the ghosts, the turn marks and every other body
        the lesson draws (:meth:`set_framed_body`); a chain without a path is taken
        at its largest reach, the sphere of its straight length about its
        root. The camera looks at the middle of all that from the default
        direction and backs off until each point, padded by a bone's
        thickness, lies inside both fields of view of the current widget
        shape. A lesson whose chains sweep a small arc therefore fills the
        view instead of leaving it to the grid.
        """
        centres, radii = self._fit_balls()
        cam = self._camera_defaults
        fov = cam["fov"]
        w, h = max(self.width(), 1), max(self.height(), 1)
        half_x = radians(fov) / 2
        half_y = atan(tan(half_x) * h / w)
        # Fit the content into the height less a band at each end (the notes
        # go in the bottom one), so it stays centred.
        half_y = atan(tan(half_y) * max(h - 2 * _NOTE_BAND, 0.5 * h) / h)
        directions = [(cam["elevation"], cam["azimuth"])]
        if self._auto_direction:
            directions += [(e, a) for e in _AUTO_ELEVATIONS for a in _AUTO_AZIMUTHS]
        best = None
        for elevation, azimuth in directions:
            center, distance, back = fit_view(centres, radii, elevation, azimuth, half_x, half_y)
            distance *= _FIT_MARGIN
            score = self._view_score(distance, back)
            if best is None or score > best[0]:
                best = (score, center, distance, elevation, azimuth)
        _score, center, distance, elevation, azimuth = best
        self.setCameraParams(center=QtGui.QVector3D(*center), distance=distance,
                             elevation=elevation, azimuth=azimuth, fov=fov)
        self._camera_touched = False

    def _view_score(self, distance: float, back: np.ndarray) -> float:
        """How well a view shows the scene: large, and no trail seen edge-on.

        The fitted size (1 / distance) counts most; a direction that sees the
        plane of a trail within ~30° of edge-on loses up to 40 %, because the
        ticks and arrows of that trail would collapse into a line.
        """
        facing = 1.0
        for chain in self._chains.values():
            if chain.plane is not None:
                facing = min(facing, abs(float(chain.plane @ back)))
        return (0.6 + 0.4 * min(1.0, facing / 0.5)) / distance

    def set_auto_direction(self, auto: bool) -> None:
        """Let :meth:`reset_camera` pick the side it looks from, to show the paths best.

        Off by default: a lesson that lays its chains out for one side keeps
        :data:`DEFAULT_CAMERA` or :meth:`set_default_direction`. On, the
        camera tries a few elevations and azimuths around the front and keeps
        the one that frames the bodies largest without looking along the
        plane of a trail (a turn about the bone axis seen edge-on is a line).
        """
        self._auto_direction = bool(auto)
        if not self._camera_touched:
            self.reset_camera()

    def _fit_balls(self) -> tuple[np.ndarray, np.ndarray]:
        """Centres and radii of the balls :meth:`reset_camera` fits into the view."""
        pad = _FIT_PAD * self._lengths[0]
        # Farthest any point of the chain gets from its root: the straight
        # chain's tip with the hand on it, and a bone's thickness around that.
        reach = float(np.hypot(self._reach, self._hand)) + pad
        centres, radii = [], []
        chains = list(self._chains.values())
        for chain in chains:
            if chain.framed is not None:
                path = chain.framed  # every pose the caller named, none skipped
            elif chain.path is None or not np.any(np.isfinite(chain.path)):
                centres.append(chain.root[None])
                radii.append(np.array([reach]))
                continue
            else:
                path = chain.path[np.all(np.isfinite(chain.path), axis=-1)]
                path = path[np.linspace(0, len(path) - 1,
                                        min(_FIT_SAMPLES, len(path))).astype(int)]
            if not len(path):
                continue
            joints, _frames = chain_frames(path, self._n_bones, self._bone_length,
                                     root_only=self._root_only)
            marker = marker_trail(path, self._n_bones, self._bone_length,
                                  root_only=self._root_only)
            pts = np.vstack([joints.reshape(-1, 3), marker]) + (chain.root - ROOT)
            centres.append(pts)
            radii.append(np.full(len(pts), pad))
        for positions in self._ghost_points:
            centres.append(positions)
            radii.append(np.full(len(positions), pad))
        if self._turn_reference is not None:
            # The turn axes and arcs at the roots, as _pose_turn draws them
            # at the end of the path, where the arc is longest.
            for chain in chains:
                if chain.turn_axis is None:
                    continue
                pts = self._turn_verts(chain, chain.turn_axis, self._path_turn(chain))
                centres.append(pts)
                radii.append(np.full(len(pts), 0.05 * self._lengths[0]))
        for points, body_radii in self._bodies.values():
            centres.append(points)
            radii.append(body_radii)
        if not centres:
            return ROOT[None].copy(), np.array([reach])
        return np.vstack(centres), np.concatenate(radii)

    def set_framed_poses(self, key: str, poses) -> None:
        """Have :meth:`reset_camera` frame chain ``key`` at each of ``poses`` (None: no more).

        For a chain that draws no path but can only take some rotations (a
        blend of given poses): ``poses`` ``(K, 4)``, local rotations as for
        :meth:`set_chain`, NaN rows skipped, every one fitted (not sampled
        as a path is). Without them the fit takes the chain's path, or the
        whole sphere of its reach. The view re-frames unless the user moved
        the camera.
        """
        chain = self._chain(key)
        if poses is None:
            chain.framed = None
        else:
            poses = np.array(poses, dtype=np.float64).reshape(-1, 4)
            chain.framed = poses[np.all(np.isfinite(poses), axis=-1)]
        if not self._camera_touched:
            self.reset_camera()

    def set_framed_body(self, key: str, points, radius) -> None:
        """Have :meth:`reset_camera` frame another body drawn in the view (None: no more).

        For items the lesson adds beside the chains (the Euler lesson's
        gimbal): ``points`` ``(N, 3)`` in world space, every place the body
        reaches over the lesson's range (not only now, so the camera does not
        move with t), each padded by ``radius`` (a number or ``(N,)``). The
        view re-frames unless the user moved the camera.
        """
        if points is None:
            if self._bodies.pop(key, None) is None:
                return
        else:
            points = np.array(points, dtype=np.float64).reshape(-1, 3)
            points = points[np.all(np.isfinite(points), axis=-1)]
            radii = np.broadcast_to(np.asarray(radius, dtype=np.float64), (len(points),))
            self._bodies[key] = (points, radii.copy())
        if not self._camera_touched:
            self.reset_camera()

    def set_default_direction(self, elevation: float, azimuth: float) -> None:
        """Look from ``elevation`` / ``azimuth`` (degrees) on :meth:`reset_camera`, and now.

        For a lesson whose chains are laid out differently (side by side
        along Y instead of on one root) and read better from another side
        than :data:`DEFAULT_CAMERA`'s; the fit to the reach is unchanged.
        """
        self._camera_defaults.update(elevation=float(elevation), azimuth=float(azimuth))
        self.reset_camera()

    def resizeEvent(self, ev):
        super().resizeEvent(ev)
        self._stack_notes()
        # Until the user moves the camera, keep the default view fitted to
        # the widget's current shape (the first show happens after __init__).
        if not self._camera_touched:
            self.reset_camera()

    def mousePressEvent(self, ev):
        self._camera_touched = True
        super().mousePressEvent(ev)


def _as_local(q) -> np.ndarray | None:
    """``q`` as a (4,) float array (NaN allowed: a collapse), or None."""
    if q is None:
        return None
    q = np.array(q, dtype=np.float64)
    if q.shape != (4,):
        raise ValueError(f"q must be one quaternion of shape (4,), got shape {q.shape}")
    return q
