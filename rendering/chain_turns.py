"""The turn marks of the lesson's 3D view: each chain root's axis, arc and angle turned since t = 0.

:class:`ChainTurns` is the turn-marking part of
:class:`quatlab.rendering.chain_scene.ChainScene` (a mixin); the marks' geometry
comes from :mod:`quatlab.rendering.scene_marks`.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph.opengl as gl

from quatlab.app.i18n import _
from quatlab.math import quaternion as Q
from quatlab.rendering import themes
from quatlab.rendering.chain_camera import TURN_ARC_PX
from quatlab.rendering.chain_items import _ORDER_GIZMO, _as_local, _Chain
from quatlab.rendering.gl_items import OVERLAY
from quatlab.rendering.label_place import pair_segments
from quatlab.rendering.scene_marks import cross3, last_turn_axis, turn_arc, turn_of

__all__ = ["ChainTurns"]

_TURN_RADIUS = (0.5, 0.36)       # arc radius of the first, second... chain, root bone lengths
_TURN_WIDTH = 2.5
_AXIS_LENGTH = 0.85              # turn axis drawn from the root, root bone lengths


class ChainTurns:
    """Turn marks of :class:`~quatlab.rendering.chain_scene.ChainScene` (a mixin)."""

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

    def _turn_verts(self, chain: _Chain, axis: np.ndarray, angle: float,
                    *, on_screen: bool = True) -> np.ndarray:
        """Line vertices of ``chain``'s turn: the axis through its root and the arc of ``angle``.

        ``on_screen``: at least TURN_ARC_PX across at the present framing;
        without, the arc's own size (what the framing itself takes in, so a
        framing cannot grow the arc that grows the framing).
        """
        length = self._lengths[0]
        radius = _TURN_RADIUS[chain.index % len(_TURN_RADIUS)] * length
        # At least so many pixels across on screen, at the framing's scale:
        # "170°" must point at an arc one can see.
        least_px = TURN_ARC_PX * themes.scale() * _TURN_RADIUS[chain.index % len(_TURN_RADIUS)] \
            / _TURN_RADIUS[0]
        if on_screen:
            radius = max(radius, least_px * self._world_per_px)
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
            # The path angle, as the plots and readouts give it: −q0 reads 360°.
            chain.angle_label.text = (_("{angle:.1f}° (−q0: same pose, not turned)").format(
                angle=360.0) if degrees > 359.995 else f"{0.0:.1f}°")
            return
        verts = self._turn_verts(chain, axis, angle)
        chain.turn.setData(pos=verts.astype(np.float32), color=chain.color)
        chain.turn.setVisible(True)
        self._set_obstacles(("turn", id(chain)), [pair_segments(verts)])
        chain.angle_label.pos = (verts[-4] if angle > 1e-6
                                 else chain.root + _AXIS_LENGTH * self._lengths[0] * axis)
        # The readouts' precision where a tenth would round a small angle
        # away from theirs (0.75° is not "0.8°").
        chain.angle_label.text = f"{degrees:.2f}°" if degrees < 10.0 else f"{degrees:.1f}°"

    def _path_axis(self, chain: _Chain) -> None:
        """The axis of ``chain``'s path, for the samples that have turned nothing yet.

        Every NLERP and SLERP path keeps one axis (it stays on one great
        circle through q0), so the last sample with an axis gives it.
        """
        chain.turn_axis = None
        if chain.path is None or self._turn_reference is None:
            return
        chain.turn_axis = last_turn_axis(self._turn_reference, chain.path)

    def angle_label(self, key: str) -> str | None:
        """The angle label of chain ``key`` if shown (see :meth:`set_turn_reference`)."""
        chain = self._chains.get(key)
        return chain.angle_label.text if chain is not None and chain.angle_label.visible else None
