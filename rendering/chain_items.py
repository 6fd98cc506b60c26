"""The per-chain record of the lesson's 3D view, the draw order of its GL items, its rotation check.

Shared by :class:`quatlab.rendering.chain_scene.ChainScene` and the mixins
it is made of (see its module).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pyqtgraph.opengl as gl

from quatlab.rendering.chain import ROOT
from quatlab.rendering.gl_items import BoneItem, TrailItem
from quatlab.rendering.labels import Label
from quatlab.rendering.trail_shape import TrailShape

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

#: Joint gizmo axis length, a fraction of the root bone's length (the camera
#: fit pads the joints by it).
GIZMO_LENGTH = 0.4


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
    #: Drawn in stripes over an earlier chain in the same pose (ChainScene).
    striped: bool = False


def _as_local(q) -> np.ndarray | None:
    """``q`` as a (4,) float array (NaN allowed: a collapse), or None."""
    if q is None:
        return None
    q = np.array(q, dtype=np.float64)
    if q.shape != (4,):
        raise ValueError(f"q must be one quaternion of shape (4,), got shape {q.shape}")
    return q
