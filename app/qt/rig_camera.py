"""Pointing the rig panel's camera: at one joint, or back at the whole animation.

:class:`RigCamera` is the part of :class:`quatlab.app.qt.rig_view.RigPanel`
that frames the 3D view on a joint (a mixin): navigation to a finding
(the dope sheet, the tables, the joint tree, N and Shift+N) calls
:meth:`RigCamera.frame_joint` with the finding's node. The camera looks at
the joint and what hangs from it in the pose shown
(:func:`~quatlab.app.model.rig_bounds.part_bounds`), never closer than a
twelfth of the whole animation's box, so an end site does not fill the
view; ``R`` in the view (or :meth:`RigCamera.frame_all`) frames the whole
animation again.
"""

from __future__ import annotations

import numpy as np

from quatlab.app.model.rig_bounds import part_bounds

__all__ = ["RigCamera", "LEAST_PART"]

#: A framed part is at least this fraction of the whole animation's box across.
LEAST_PART = 1.0 / 12.0


class RigCamera:
    """Framing a joint, for :class:`RigPanel` (a mixin)."""

    def frame_joint(self, node_index: int, *, select: bool = False) -> bool:
        """Frame the 3D view on the file's node ``node_index`` (a track's ``node_index``).

        ``node_index`` is the node's index in the file (glTF ``nodes[i]``; a
        BVH joint's number), as :class:`~quatlab.app.io.tracks.Track` carries
        it. ``select``: also select the node (and so its track). Returns
        False, changing nothing, when no rig is shown or it has no such node.
        """
        pb = self.playback
        rig = pb.rig
        if rig is None or not 0 <= int(node_index) < len(rig):
            return False
        node = int(rig.rig_index[int(node_index)])
        if select:
            self._node_clicked(node)
        frame = pb.frame()
        naive = self.scene.players == "naive"  # the pose drawn solid
        pose = frame.naive if naive else frame.spec
        meshes = frame.naive_meshes if naive else frame.spec_meshes
        lo, hi = part_bounds(rig, pose, meshes, node)
        whole_lo, whole_hi = pb.bounds()
        least = LEAST_PART * float(np.linalg.norm(np.asarray(whole_hi) - whole_lo))
        radius = max(0.5 * float(np.linalg.norm(hi - lo)), 0.5 * least)
        self.scene.frame_ball(0.5 * (lo + hi), radius)
        return True

    def frame_all(self) -> None:
        """Frame the whole animation again (what ``R`` in the 3D view does)."""
        self.scene.reset_camera()
