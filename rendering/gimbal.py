"""A three-ring gimbal in the 3D scene, drawn from :func:`quatlab.math.gimbal.gimbal_rings`.

Each ring is a thin lit torus in the colour of the Euler angle that turns
it (:data:`ANGLE_COLOURS`: first, second, third angle of the order), the
same colour the lesson's plot of the Euler readout gives that angle,
centred on the chain root. None of these is a method colour or an axis
colour, so no ring reads as a method (docs/curves.md) or as "the X gizmo"; a
proper Euler order (Z-X-Z) turns two rings about one letter, and they still
differ because they are different angles. A
ring's plane is the one :class:`~quatlab.math.gimbal.GimbalRings` gives
(``normals``); its pivot (``pivots``) runs through two short axle stubs,
bridging the ring to the ring outside it, or for the outer ring to the base.

At the lock (the middle angle at +-90 deg for Y-X-Z) the outer and inner
pivots line up: the first and last rings now turn the carried object about
the same axis, so one of the three freedoms is gone. Both rings are then
drawn in :data:`LOCK_COLOUR` and the shared axis is drawn through the whole
gimbal in the same colour. (The middle ring at the same time folds into the
outer ring's plane, which the geometry shows by itself.)

Everything that moves is an item transform: the tori are built once, in
their local XY plane, and a pose only uploads three 4x4 matrices and a few
line vertices.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pyqtgraph.opengl as gl

from quatlab.math.gimbal import GimbalRings
from quatlab.rendering.chain import ROOT
from quatlab.rendering.gl_items import LIT_SHADER  # lit like the bones they carry
from quatlab.rendering.gl_view import GLWindowView
from quatlab.rendering.label_place import pair_segments
from quatlab.rendering.style import rgba
from quatlab.rendering.themes import LIGHT

__all__ = ["RADII", "ANGLE_COLOURS", "LOCK_COLOUR", "ring_frames", "ring_points", "torus",
           "GimbalItems"]

#: Ring radii, outer to inner, in root-bone lengths: inside the root bone's
#: reach so the bone pokes out of the gimbal like a carried instrument, and
#: far enough apart that three nested rings read as three.
RADII = (1.15, 0.95, 0.75)

#: First, second and third Euler angle (and the ring each turns): the themes'
#: violet, the deeper light sky blue (themes.LIGHT_DEEP: 3.8:1 on white, the
#: Okabe-Ito one was 2.3:1; the dark themes draw their own) and a mid grey. None is
#: a method colour (docs/curves.md) or the Euler lesson's orange, and none is the
#: plots' cursor: the first angle was the text colour, which the cursor is too
#: (both black in light, both white in high contrast). They differ in lightness
#: too, so they stay apart for every colour-vision deficiency (tests/test_themes.py).
ANGLE_COLOURS = (LIGHT.violet, "#0083F5", "#8C8C8C")

#: The two rings whose pivots coincide at the lock: Okabe-Ito yellow, the
#: one hue left, unlike every method colour (naive SLERP's reddish purple
#: was this colour before), every angle colour and the Euler chain's orange.
LOCK_COLOUR = "#F0E442"

_TUBE = 0.03                  # tube radius of a ring
_STUB = 0.22                  # length of the outer ring's axle beyond it, to the base
_AXLE_WIDTH = 4.0
_LOCK_AXIS_WIDTH = 3.0
_SEGMENTS, _SIDES = 96, 10    # torus resolution: round at the lesson's zoom



def ring_frames(rings: GimbalRings) -> np.ndarray:
    """Rotation matrices ``(..., 3, 3, 3)`` taking each ring's local frame to the world.

    Columns: the ring's pivot, ``normal x pivot``, the ring's plane normal.
    The pivot lies in the ring's plane (a ring hangs on its own axle), so
    the columns are orthonormal and the torus built in the local XY plane
    lands in the ring's plane with its bearings on the pivot.
    """
    p = rings.pivots / np.linalg.norm(rings.pivots, axis=-1, keepdims=True)
    n = rings.normals / np.linalg.norm(rings.normals, axis=-1, keepdims=True)
    return np.stack([p, np.cross(n, p), n], axis=-1)


def ring_points(rings: GimbalRings, radii=RADII, center=ROOT, samples: int = 97) -> np.ndarray:
    """World points ``(..., 3, samples, 3)`` on each ring's centre line, outer ring first."""
    a = np.linspace(0.0, 2 * np.pi, samples)
    circle = np.stack([np.cos(a), np.sin(a), np.zeros_like(a)], axis=-1)
    frames = ring_frames(rings)
    return np.asarray(center) + np.einsum("...kij,sj->...ksi", frames, circle) * np.asarray(
        radii, dtype=np.float64)[:, None, None]


def torus(radius: float, tube: float = _TUBE, segments: int = _SEGMENTS,
          sides: int = _SIDES) -> gl.MeshData:
    """A torus about local +Z, centre line of ``radius`` in the XY plane.

    Faces are wound counter-clockwise seen from outside, so the normals
    MeshData derives from them point outwards (the lit shader is one-sided).
    """
    u = np.linspace(0.0, 2 * np.pi, segments, endpoint=False)
    v = np.linspace(0.0, 2 * np.pi, sides, endpoint=False)
    uu, vv = np.meshgrid(u, v, indexing="ij")
    ring = radius + tube * np.cos(vv)
    verts = np.stack([ring * np.cos(uu), ring * np.sin(uu), tube * np.sin(vv)], axis=-1)
    i, j = np.meshgrid(np.arange(segments), np.arange(sides), indexing="ij")
    a = i * sides + j
    b = ((i + 1) % segments) * sides + j
    c = ((i + 1) % segments) * sides + (j + 1) % sides
    d = i * sides + (j + 1) % sides
    faces = np.concatenate([np.stack([a, b, c], -1).reshape(-1, 3),
                            np.stack([a, c, d], -1).reshape(-1, 3)])
    return gl.MeshData(vertexes=verts.reshape(-1, 3), faces=faces)


class GimbalItems:
    """The GL items of one gimbal in ``view`` (a GL view), posed by :meth:`set_rings`."""

    def __init__(self, view: GLWindowView, *, center=ROOT, radii=RADII) -> None:
        self.center = np.asarray(center, dtype=np.float64)
        self.radii = tuple(float(r) for r in radii)
        self.rings: list[gl.GLMeshItem] = []
        for r in self.radii:
            item = gl.GLMeshItem(meshdata=torus(r), smooth=True, shader=LIT_SHADER,
                                 glOptions="opaque")
            view.addItem(item)
            self.rings.append(item)
        self.axles = gl.GLLinePlotItem(mode="lines", width=_AXLE_WIDTH, antialias=True,
                                       glOptions="opaque")
        self.lock_axis = gl.GLLinePlotItem(mode="lines", width=_LOCK_AXIS_WIDTH,
                                           antialias=True, color=rgba(LOCK_COLOUR),
                                           glOptions="translucent")
        self.lock_axis.setVisible(False)
        for item in (self.axles, self.lock_axis):
            view.addItem(item)
        self.colours: list[str] = []
        self.locked = False
        self._visible = True
        self._rings: GimbalRings | None = None

    @property
    def _lock_reach(self) -> float:
        """How far the lock axis runs from the centre, either way."""
        return self.radii[0] + 2 * _STUB

    def reach(self, poses: GimbalRings, locked) -> tuple[np.ndarray, float]:
        """World points the gimbal covers in ``poses``, and a pad for each.

        ``poses``: the rings of P poses at once (:func:`gimbal_rings` of
        angles ``(P, 3)``), ``locked`` one bool per pose. Points on each
        ring's centre line, the ends of the axle stubs and, where locked, of
        the shared lock axis; the pad is the ring tube's radius. For the
        camera fit (:meth:`~quatlab.rendering.chain_scene.ChainScene.set_framed_body`).
        """
        rings = ring_points(poses, self.radii, self.center, samples=33).reshape(-1, 3)
        pivot = ring_frames(poses)[..., 0, :, 0].reshape(-1, 3)   # the outer ring's
        ends = np.where(np.asarray(locked, dtype=bool).reshape(-1), self._lock_reach,
                        self.radii[0] + _STUB)
        stubs = self.center + np.stack([ends, -ends], axis=1)[..., None] * pivot[:, None]
        return np.vstack([rings, stubs.reshape(-1, 3)]), _TUBE

    def outline(self) -> list[np.ndarray]:
        """World polylines of what the gimbal draws now (none while hidden): each ring's
        centre line, the axle stubs and, at the lock, the shared axis; for the labels to
        keep clear of (the ring's tube is thinner than the gap they keep)."""
        if not self._visible or self._rings is None:
            return []
        lines = list(ring_points(self._rings, self.radii, self.center, samples=49))
        lines.append(pair_segments(self.axles.pos))
        if self.locked:
            lines.append(np.asarray(self.lock_axis.pos, dtype=np.float64))
        return lines

    def items(self) -> list:
        return [*self.rings, self.axles, self.lock_axis]

    def set_visible(self, visible: bool) -> None:
        self._visible = bool(visible)
        for item in self.items():
            item.setVisible(self._visible)
        self.lock_axis.setVisible(self._visible and self.locked)

    def set_rings(self, rings: GimbalRings, locked: bool) -> None:
        """Pose the rings as ``rings`` says; ``locked`` highlights the outer and inner ring."""
        self.locked = bool(locked)
        self._rings = rings
        frames = ring_frames(rings)
        base = [ANGLE_COLOURS[i] for i in rings.angle_index]
        self.colours = [LOCK_COLOUR if locked and k != 1 else c for k, c in enumerate(base)]
        for item, frame, colour in zip(self.rings, frames, self.colours, strict=True):
            m = np.eye(4)
            m[:3, :3] = frame
            m[:3, 3] = self.center
            item.setTransform(pg.Transform3D(m))
            item.setColor(rgba(colour))
        # Axle stubs along each pivot, from the ring out to the one holding
        # it (the base for the outer ring), on both sides.
        outer = (self.radii[0] + _STUB, *self.radii[:-1])
        pos, colour = [], []
        for k, p in enumerate(frames[:, :, 0]):
            for side in (1.0, -1.0):
                pos += [self.center + side * self.radii[k] * p, self.center + side * outer[k] * p]
                dark = tuple(0.7 * c for c in rgba(self.colours[k])[:3]) + (1.0,)
                colour += [dark, dark]
        self.axles.setData(pos=np.array(pos, dtype=np.float32),
                           color=np.array(colour, dtype=np.float32))
        # The one axis the outer and inner rings share at the lock, through
        # the whole gimbal and beyond, so the coincidence reads at a glance.
        reach = self._lock_reach
        p = frames[0, :, 0]
        self.lock_axis.setData(pos=np.array([self.center - reach * p, self.center + reach * p],
                                            dtype=np.float32))
        self.lock_axis.setVisible(self._visible and self.locked)
