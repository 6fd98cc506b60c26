"""The ghosts of the lesson's 3D view: faint grey chains at the t = 0 and t = 1 poses.

:class:`ChainGhosts` is the ghost-drawing part of
:class:`quatlab.rendering.chain_scene.ChainScene` (a mixin): both ghosts are
one translucent item, baked in world space, labelled ``t = 0`` and ``t = 1``.
"""

from __future__ import annotations

import numpy as np
from OpenGL import GL
from PyQt6 import QtGui
from pyqtgraph.opengl.GLGraphicsItem import GLOptions

from quatlab.rendering import themes
from quatlab.rendering.bone_mesh import bake
from quatlab.rendering.chain_items import _ORDER_GHOST, _as_local
from quatlab.rendering.gl_items import GHOST_SHADER, GhostItem
from quatlab.rendering.labels import Label, label_font

__all__ = ["ChainGhosts", "GHOST_LABEL_COLOUR"]

#: The "t = 0" and "t = 1" labels: the secondary-text grey, which each theme
#: draws by role (Theme.muted: 6.9:1 on the light scene, white on high contrast's
#: black). A grey of no role was turned into its light twin in the dark themes,
#: 7.4:1 on high contrast's black where all its other text is 15-21:1.
GHOST_LABEL_COLOUR = themes.LIGHT.muted


class ChainGhosts:
    """The t = 0 and t = 1 ghosts of :class:`ChainScene` (a mixin)."""

    def _add_ghosts(self) -> None:
        """Make the (hidden) ghost item and its two labels; the scene's ``__init__`` calls it."""
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
                                   color=QtGui.QColor(GHOST_LABEL_COLOUR)))
            for text, offset in (("t = 0", (-9.0, -4.0)), ("t = 1", (-9.0, 4.0)))
        ]

    def set_ghosts(self, q_start, q_end) -> None:
        """Show faint grey chains at the t = 0 and t = 1 rotations (None hides one)."""
        self._ghost_q = [_as_local(q_start), _as_local(q_end)]
        self._pose_ghosts()

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
