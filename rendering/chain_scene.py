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

The scene is one object whose parts move together (chains, ghosts, trails,
turn marks, labels and the camera fit all read the same per-chain state,
:class:`quatlab.rendering.chain_items._Chain`), so the parts are mixins of
:class:`ChainScene`, one module each: :mod:`quatlab.rendering.chain_labels`
(labels and notes), :mod:`quatlab.rendering.chain_ghosts` (ghosts),
:mod:`quatlab.rendering.chain_turns` (turn marks),
:mod:`quatlab.rendering.chain_trails` (trails),
:mod:`quatlab.rendering.chain_camera` (the camera fit) and
:mod:`quatlab.rendering.frame_hold` (frames held back). The geometry
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

import numpy as np
import pyqtgraph.opengl as gl
from OpenGL import GL
from PyQt6 import QtCore, QtGui

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
)
from quatlab.rendering.chain_camera import DEFAULT_CAMERA, ChainCamera
from quatlab.rendering.chain_ghosts import ChainGhosts
from quatlab.rendering.chain_items import (
    _ORDER_GIZMO,
    _ORDER_GRID,
    _ORDER_LABEL,
    _ORDER_SOLID,
    GIZMO_LENGTH,
    _as_local,
    _Chain,
)
from quatlab.rendering.chain_labels import ChainLabels
from quatlab.rendering.chain_trails import ChainTrails
from quatlab.rendering.chain_turns import ChainTurns
from quatlab.rendering.contrast import TEXT_CONTRAST, deepen
from quatlab.rendering.frame_hold import FrameHold
from quatlab.rendering.gl_items import LIT_SHADER, STRIPED_SHADER, BoneItem
from quatlab.rendering.gl_view import GLWindowView, UserCamera
from quatlab.rendering.label_place import pair_segments
from quatlab.rendering.labels import Label, LabelLayer, label_font
from quatlab.rendering.style import FOREGROUND, SCENE_BACKGROUND, rgba

__all__ = ["ChainScene"]

#: Chains whose rotations differ by less than this (degrees) are drawn striped.
COINCIDE_DEG = 1.5
_GRID_COLOR = (0, 0, 0, 38)      # translucent black: visible on the light clear colour
_GRID_SIZE = 8.0                 # metres of grid: room for the fully curled chain
_GRID_SPACING = 0.5
_JOINT_RADIUS = 0.075            # joint ball radius, fraction of the root bone's length
_GIZMO_WIDTH = 3.0


class ChainScene(ChainLabels, ChainGhosts, ChainTurns, ChainTrails, ChainCamera, FrameHold,
                 UserCamera, GLWindowView):
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
        self._labels_over_own_trails = False  # set_labels_over_own_trails
        self._labels_over_trails = False  # set_labels_over_trails
        self._turn_reference: np.ndarray | None = None
        self._turn_frame: np.ndarray | None = None
        self._camera_touched = False
        self._auto_direction = False
        self._camera_defaults = dict(DEFAULT_CAMERA)
        self._world_per_px = 0.0  # set by each framing (reset_camera)
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
        pos, col = gizmo_lines(GIZMO_LENGTH * self._lengths[0])
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
        # Sized and centred under what the camera frames (reset_camera).
        self._grid, self._grid_spacing, self._grid_least = grid, _GRID_SPACING, _GRID_SIZE
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
        # Says what the stripes are while chains share a pose: without it a
        # class took them for a rendering fault (z-fighting).
        self._stripe_note = self._add_label(Label(
            label_font(10.0, QtGui.QFont.Weight.Normal), (0.0, 0.0), color=QtGui.QColor(FOREGROUND),
            optional=True))

        self._add_ghosts()
        self.reset_camera()

    # ------------------------------------------------------------------ construction

    def _chain(self, key: str) -> _Chain:
        if not isinstance(key, str):
            raise TypeError(f"chain key must be a str, got {key!r}")
        chain = self._chains.get(key)
        if chain is not None:
            return chain
        index = len(self._chains)
        # Chains that nearly coincide are pushed apart in depth by their
        # index, so they do not z-fight; chains in one pose are striped
        # (_stripe_coincident), so both colours show.
        opts = self._body_options(index, striped=False)
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

    @staticmethod
    def _body_options(index: int, *, striped: bool) -> dict:
        """GL state of chain ``index``'s body: pushed back by its index, or, striped,
        pulled in front of the chain it coincides with."""
        offset = -1.0 if striped else float(index)
        return {GL.GL_DEPTH_TEST: True, GL.GL_BLEND: False, GL.GL_CULL_FACE: False,
                GL.GL_POLYGON_OFFSET_FILL: True, "glPolygonOffset": (offset, offset)}

    def _stripe_coincident(self) -> None:
        """Stripe each shown chain that lies in the pose of an earlier shown one.

        Same root, same rotation within COINCIDE_DEG (sign-blind): the later
        chain is drawn in alternate diagonal stripes in front of the earlier,
        so both colours stay on screen (pixel-tested).
        """
        shown = [c for c in self._chains.values()
                 if c.body.visible() and c.q is not None and np.all(np.isfinite(c.q))]
        cos_half = np.cos(np.radians(COINCIDE_DEG) / 2)
        for k, chain in enumerate(shown):
            q = chain.q / np.linalg.norm(chain.q)
            striped = any(
                np.array_equal(other.root, chain.root)
                and abs(float(q @ (other.q / np.linalg.norm(other.q)))) >= cos_half
                for other in shown[:k])
            if striped != chain.striped:
                chain.striped = striped
                chain.body.setShader(STRIPED_SHADER if striped else LIT_SHADER)
                chain.body.setGLOptions(self._body_options(chain.index, striped=striped))
                self.update()
        for chain in self._chains.values():
            if chain.striped and chain not in shown:
                chain.striped = False
                chain.body.setShader(LIT_SHADER)
                chain.body.setGLOptions(self._body_options(chain.index, striped=False))
        note = self._stripe_note
        striped = any(c.striped for c in self._chains.values())
        if striped != note.visible:
            note.visible = striped
            note.text = _("striped: two chains in one pose")
            self._stack_notes()
            self.update()

    def coincident(self) -> list[str]:
        """Keys of the chains drawn striped over another in the same pose (tests, tools)."""
        return [k for k, c in self._chains.items() if c.striped]

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
        if themes.current().dark and isinstance(color, str):
            # The light colour: labels draw through labels.ink, which translates it into
            # the theme. The theme's own colour translated again went wrong where it is
            # a light role colour too: high contrast's white (grey runtimes, muted)
            # read as the light background, black, and its label was deepened to grey.
            text_colour = QtGui.QColor(color)
        else:
            ink = rgba_[:3] if themes.current().dark else deepen(
                [0.8 * c for c in rgba_[:3]], rgba(SCENE_BACKGROUND), TEXT_CONTRAST)
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
            chain.label.body = np.vstack([positions, hand])  # what it names (labels.Label)
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
        self._stripe_coincident()
        self.update()

    def _bone_lines(self, positions: np.ndarray, matrices: np.ndarray) -> list[np.ndarray]:
        """A posed chain's joints and each bone's fin (the hand's outline on the last), world."""
        return [positions] + [positions[k] + outline @ matrices[k].T
                              for k, outline in enumerate(self._outlines)]

    def _pose_body(self, chain: _Chain, positions: np.ndarray, matrices: np.ndarray) -> None:
        """Move ``chain.body`` to the root bone's frame; re-bake only if the joints bent."""
        r0, p0 = matrices[0], positions[0]
        rel = (np.einsum("ji,kjl->kil", r0, matrices), (positions[:-1] - p0) @ r0)
        if chain.baked is None or not all(np.allclose(a, b, rtol=0.0, atol=1e-9)
                                          for a, b in zip(rel, chain.baked, strict=True)):
            chain.baked = rel
            chain.body.set_geometry(bake(self._geometry, [(rel[1], rel[0])], edges=True))
        chain.body.setTransform(frame_transform(r0, p0))

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
