"""The lesson's 3D viewport: joint chains driven by interpolated rotations.

:class:`ChainScene` is a pyqtgraph GL view (:class:`GLWindowView`) showing

* a ground grid in the XY plane (z up) and a small world-axes marker at the
  origin, under the chain root;
* one chain per key (the window uses ``"naive"`` and ``"shortest"``) drawn as
  solid, lit, faceted bones in the method colour, a ball at every joint and at
  the tip, and a local axis gizmo (X red, Y green, Z blue) at every joint;
* faint grey ghosts of the poses at t = 0 and t = 1;
* the tip trail of each chain over t in [0, 1], fading in from t = 0 so the
  direction of travel reads without arrows, with gaps where the rotation
  does not exist;
* a text label beside each chain tip so a screenshot says which chain is
  which.

Every chain hangs from :data:`quatlab.rendering.chain.ROOT` unless
:meth:`ChainScene.set_chain` gives it a ``root`` of its own: lessons that
compare several results side by side (the pose blend) spread them out so
they do not overlap; the default camera then frames all the roots.

The pose comes from :mod:`quatlab.rendering.chain`; this module only maps it
to GL items. Everything that changes with t changes item *transforms* (one
4x4 matrix per bone): vertex data is built once, in ``__init__``, so moving
the t slider costs a few matrix uploads, not a mesh rebuild. Things that do
not change with t (the two ghosts, the trails) are baked into as few items
as possible, because every GL item costs a fixed slice of Python per frame
(about 0.2 ms of PyOpenGL calls), and all labels share one QPainter pass.

Why a light background: the method colours are the Okabe-Ito palette, chosen
and checked for colour-vision deficiencies against white; on black the blue
(#0072B2) and the reddish purple lose most of their contrast. The 2D plots
use :data:`quatlab.rendering.style.BACKGROUND` (white), so a light 3D view
keeps the window one piece and screenshots paste into slides and handouts as
they are. The viewport is a hair darker than pure white so the bright
specular highlights of the bones keep an outline.

The view is a native :class:`GLWindowView`, not a QOpenGLWidget, because one
QOpenGLWidget in a window makes Qt compose the whole window through OpenGL
on every repaint (see the class). Rendering needs a real OpenGL context:
under ``QT_QPA_PLATFORM=offscreen`` pyqtgraph's GL views draw nothing
(docs/environment.md); tests run on Xvfb/xcb.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from math import atan, radians, sin, tan

import numpy as np
import pyqtgraph.opengl as gl
from OpenGL import GL
from PyQt6 import QtCore, QtGui
from pyqtgraph.opengl.GLGraphicsItem import GLOptions

from quatlab.math import quaternion as Q
from quatlab.rendering.bone_mesh import (
    as_rgba,
    bake,
    bone_geometry,
    frame_transform,
    gizmo_lines,
)
from quatlab.rendering.chain import (
    DEFAULT_BONES,
    ROOT,
    bone_lengths,
    chain_frames,
    chain_reach,
    segment_indices,
    tip_trail,
)
from quatlab.rendering.gl_items import LIT_SHADER, OVERLAY, BoneItem, GhostItem, TrailItem
from quatlab.rendering.gl_view import GLWindowView
from quatlab.rendering.labels import Label, LabelLayer, label_font
from quatlab.rendering.style import SCENE_BACKGROUND, rgba

__all__ = ["ChainScene", "GHOST_COLOR", "DEFAULT_CAMERA"]

#: Ghost poses (t = 0 and t = 1): neutral grey, faint.
GHOST_COLOR = (0.35, 0.35, 0.38, 0.2)

#: Default camera: oblique, from the front right and a little above, so the
#: rest pose (along +X) runs left to right and a turn about Z shows as an
#: ellipse rather than a line.
DEFAULT_CAMERA = {"elevation": 28.0, "azimuth": -60.0, "fov": 45.0}

_GRID_COLOR = (0, 0, 0, 38)      # translucent black: visible on the light clear colour
_GRID_SIZE = 8.0                 # metres of grid: room for the fully curled chain
_GRID_SPACING = 0.5
_JOINT_RADIUS = 0.075            # joint ball radius, fraction of the root bone's length
_GIZMO_LENGTH = 0.42             # gizmo axis length, fraction of the root bone's length
_GIZMO_WIDTH = 3.0
_TRAIL_WIDTH = 3.0
_TRAIL_FADE = (0.4, 1.0)         # colour strength at t = 0 and t = 1: fades in along t
_FIT_MARGIN = 1.03               # breathing room around the fully reached sphere

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

    bones: list[BoneItem]
    gizmos: list[gl.GLLinePlotItem]
    label: Label
    text: str = ""
    q: np.ndarray | None = None
    color: tuple | None = None
    wanted: bool = True           # the caller's set_chain_visible
    trail: TrailItem | None = None
    trail_color: tuple | None = None
    path: np.ndarray | None = None
    root: np.ndarray = field(default_factory=lambda: ROOT.copy())


class ChainScene(GLWindowView):
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
        super().__init__(parent)
        self._lengths = bone_lengths(n_bones, bone_length)
        self._n_bones = len(self._lengths)
        self._bone_length = (bone_length if isinstance(bone_length, (Sequence, np.ndarray))
                             else float(bone_length))
        self._reach = chain_reach(n_bones, bone_length)
        self._root_only = False
        self._camera_touched = False
        self._camera_defaults = dict(DEFAULT_CAMERA)
        self._chains: dict[str, _Chain] = {}
        self._labels: dict[str, str] = {}
        self._visible: dict[str, bool] = {}
        # Geometry is built once and shared by every chain; each item keeps
        # its own GPU buffers and only the item transforms change afterwards.
        ball = _JOINT_RADIUS * self._lengths[0]
        self._geometry = [
            bone_geometry(length, ball, 0.8 * ball if k == self._n_bones - 1 else None)
            for k, length in enumerate(self._lengths)
        ]
        self._gizmo = gizmo_lines(_GIZMO_LENGTH * self._lengths[0])

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
        self._ghost_item = GhostItem(bake([], []), shader=LIT_SHADER, color=GHOST_COLOR,
                                      glOptions={**GLOptions["translucent"],
                                                 GL.GL_POLYGON_OFFSET_FILL: False})
        self._ghost_item.setDepthValue(_ORDER_GHOST)
        self._ghost_item.setVisible(False)
        self.addItem(self._ghost_item)
        # Ghost labels go left of the tip, chain labels right, so the two
        # kinds never stack; the first of each kind above, the second below.
        ghost_font = label_font(10.0, QtGui.QFont.Weight.Normal)
        self._ghost_labels = [
            self._add_label(Label(ghost_font, offset, text=text,
                                   color=QtGui.QColor.fromRgbF(0.4, 0.4, 0.43)))
            for text, offset in (("t = 0", (-9.0, -4.0)), ("t = 1", (-9.0, 4.0)))
        ]
        self.reset_camera()

    # ------------------------------------------------------------------ construction

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
        bones, gizmos = [], []
        for geometry in self._geometry:
            bone = BoneItem(geometry, shader=LIT_SHADER, drawEdges=True, glOptions=opts)
            bone.setDepthValue(_ORDER_SOLID)
            self.addItem(bone)
            bones.append(bone)
            pos, col = self._gizmo
            gizmo = gl.GLLinePlotItem(pos=pos, color=col, mode="lines", width=_GIZMO_WIDTH,
                                      antialias=True, glOptions=OVERLAY)
            gizmo.setDepthValue(_ORDER_GIZMO)
            self.addItem(gizmo)
            gizmos.append(gizmo)
        label = self._add_label(Label(label_font(11.0, QtGui.QFont.Weight.DemiBold),
                                       (9.0, -4.0 if index % 2 == 0 else 4.0)))
        chain = _Chain(bones=bones, gizmos=gizmos, label=label,
                       text=self._labels.get(key, key), wanted=self._visible.get(key, True))
        self._chains[key] = chain
        self._apply_color(chain, (0.5, 0.5, 0.5, 1.0))
        self._pose(chain, None)
        return chain

    def _apply_color(self, chain: _Chain, color) -> None:
        rgba_ = as_rgba(color)
        if rgba_ == chain.color:
            return
        chain.color = rgba_
        for bone in chain.bones:
            # Edges a darker shade of the face colour: crisp facets without
            # the cartoon look of black outlines.
            bone.opts["edgeColor"] = tuple(0.55 * c for c in rgba_[:3]) + (1.0,)
            bone.setColor(rgba_)
        # A darker shade of the chain colour keeps the text readable on the
        # light background.
        chain.label.color = QtGui.QColor.fromRgbF(*(0.8 * c for c in rgba_[:3]))
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
        for item in (*chain.bones, *chain.gizmos):
            item.setVisible(shown)
        if shown:
            positions, matrices = self._frames(q, chain.root)
            for k, bone in enumerate(chain.bones):
                frame = frame_transform(matrices[k], positions[k])
                bone.setTransform(frame)
                chain.gizmos[k].setTransform(frame)
            chain.label.pos, chain.label.text = positions[-1], chain.text
        elif q is not None:
            # A collapse is a labelled gap, never an invented pose: the
            # label stays, at the root, and says why the chain is missing.
            chain.label.pos = chain.root.copy()
            chain.label.text = f"{chain.text}: no rotation at this t"
        chain.label.visible = chain.wanted and q is not None
        self.update()

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
        self.update()

    def set_chain(self, key: str, q, color=None, root=None) -> None:
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
        """
        chain = self._chain(key)
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

    def set_label(self, key: str, text: str) -> None:
        """Text shown beside the tip of chain ``key`` (default: the key itself)."""
        self._labels[key] = str(text)
        chain = self._chains.get(key)
        if chain is not None:
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
        if color is not None:
            chain.trail_color = as_rgba(color)
        if points is None:
            points = np.empty((0, 3))
        points = np.asarray(points, dtype=np.float64)
        if points.ndim != 2 or points.shape[-1] != 3:
            raise ValueError(f"points must have shape (N, 3), got shape {points.shape}")
        index = segment_indices(points)
        seg = points[index]
        base = chain.trail_color or chain.color
        # The fade mixes towards the background colour instead of lowering
        # alpha, so overlapping segment ends do not darken into beads.
        # Strength goes by sample index, taken at the segment-end indices,
        # so each end keeps the strength of its own t across gaps.
        strength = np.linspace(*_TRAIL_FADE, max(len(points), 1))[index, None]
        bg = np.array(rgba(SCENE_BACKGROUND)[:3])
        colors = np.ones((len(seg), 4), dtype=np.float32)
        colors[:, :3] = bg + strength * (np.array(base[:3]) - bg)
        if chain.trail is None:
            chain.trail = TrailItem(mode="lines", width=_TRAIL_WIDTH, antialias=True,
                                     glOptions="translucent")
            chain.trail.setDepthValue(_ORDER_TRAIL)
            self.addItem(chain.trail)
        if len(seg):
            chain.trail.setData(pos=seg.astype(np.float32), color=colors)
        else:
            chain.trail.pos = np.empty((0, 3), dtype=np.float32)
        chain.trail.setVisible(chain.wanted and len(seg) > 0)

    def set_path(self, key: str, path_q, color=None) -> None:
        """Draw the tip trail of chain ``key`` along the sampled rotations ``path_q``.

        ``path_q`` (``(N, 4)``, w first, NaN rows for undefined samples) is
        kept, so :meth:`set_root_only` can redraw the trail for the other
        kinematics. ``None`` removes the trail.
        """
        chain = self._chain(key)
        chain.path = None if path_q is None else np.array(path_q, dtype=np.float64)
        points = None if chain.path is None else tip_trail(
            chain.path, self._n_bones, self._bone_length, root_only=self._root_only
        ) + (chain.root - ROOT)
        self.set_trail(key, points, color)

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
        """Oblique default view framing every pose the chains can reach.

        A chain reaches at most its straight length from its root, so each
        root's sphere of that radius must fit the view. The camera looks at
        the centre of the roots' bounding box (:data:`ROOT` while no chain
        has a root of its own) from the default direction and backs off
        until every sphere, with a margin, lies inside both fields of view
        of the current widget shape. For one root at the centre that is the
        sphere fitted in the narrower field of view.
        """
        roots = np.array([ROOT] + [c.root for c in self._chains.values()])
        center = (roots.min(axis=0) + roots.max(axis=0)) / 2
        cam = self._camera_defaults
        fov = cam["fov"]
        w, h = max(self.width(), 1), max(self.height(), 1)
        half_x = radians(fov) / 2
        half_y = atan(tan(half_x) * h / w)
        elev, azim = radians(cam["elevation"]), radians(cam["azimuth"])
        # Camera frame: towards the camera, screen right, screen up.
        back = np.array([np.cos(elev) * np.cos(azim), np.cos(elev) * np.sin(azim), np.sin(elev)])
        right = np.array([-np.sin(azim), np.cos(azim), 0.0])
        up = np.cross(back, right)
        rel = roots - center
        radius = _FIT_MARGIN * self._reach
        # A sphere of radius r whose centre sits x off the view axis and z
        # towards the camera fits a half-angle a from distance
        # z + |x| / tan(a) + r / sin(a).
        distance = max(float(np.max(rel @ back + np.abs(rel @ axis) / tan(half)))
                       + radius / sin(half) for axis, half in ((right, half_x), (up, half_y)))
        self.setCameraParams(center=QtGui.QVector3D(*center), distance=distance,
                             elevation=cam["elevation"], azimuth=cam["azimuth"], fov=fov)
        self._camera_touched = False

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
        # Until the user moves the camera, keep the default view fitted to
        # the widget's current shape (the first show happens after __init__).
        if not self._camera_touched:
            self.reset_camera()

    def mousePressEvent(self, ev):
        self._camera_touched = True
        super().mousePressEvent(ev)

    def wheelEvent(self, ev):
        self._camera_touched = True
        super().wheelEvent(ev)

    def keyPressEvent(self, ev):
        if ev.key() in (QtCore.Qt.Key.Key_R, QtCore.Qt.Key.Key_Home):
            self.reset_camera()
            ev.accept()
            return
        if ev.key() in self.noRepeatKeys:
            self._camera_touched = True
        super().keyPressEvent(ev)


def _as_local(q) -> np.ndarray | None:
    """``q`` as a (4,) float array (NaN allowed: a collapse), or None."""
    if q is None:
        return None
    q = np.array(q, dtype=np.float64)
    if q.shape != (4,):
        raise ValueError(f"q must be one quaternion of shape (4,), got shape {q.shape}")
    return q
