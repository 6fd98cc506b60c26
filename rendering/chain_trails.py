"""The trails of the lesson's 3D view: each chain's hand over t, drawn from points or its path.

:class:`ChainTrails` is the trail-drawing part of
:class:`quatlab.rendering.chain_scene.ChainScene` (a mixin); the trail's
shape (ticks, arrows, gaps) comes from :mod:`quatlab.rendering.trail_shape`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from quatlab.rendering.bone_mesh import as_rgba
from quatlab.rendering.chain import ROOT
from quatlab.rendering.chain_items import _ORDER_TRAIL, _Chain
from quatlab.rendering.gl_items import TrailItem
from quatlab.rendering.label_place import pair_segments
from quatlab.rendering.style import SCENE_BACKGROUND, rgba
from quatlab.rendering.trail_shape import TrailShape, TrailShaper, trail_colours, trail_shape

__all__ = ["ChainTrails"]

_TRAIL_WIDTH = 3.0
#: Antialiased wide lines are llvmpipe's costliest primitive (a tangled
#: 24,000-vertex trail: 40 ms a frame with, 10 without); a trail with more
#: vertices than this is a tangle whose edges nobody follows, drawn without.
_TRAIL_AA_VERTICES = 12_000


class ChainTrails:
    """Hand trails of :class:`~quatlab.rendering.chain_scene.ChainScene` (a mixin)."""

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
        lines = pair_segments(chain.trail_shape.vertices) if shown else None
        # Where the lesson allows it, the chain's label may cover this to stay by it.
        chain.label.trail = lines if self._labels_over_own_trails else None
        self._set_obstacles(("trail", id(chain)), [lines] if shown else [])

    def set_labels_over_own_trails(self, allowed: bool) -> None:
        """Let a chain's label stand over its own trail where no free place is near
        (:data:`quatlab.rendering.labels.Label.trail`).

        For a lesson whose trails ring its chains: the Euler lesson's hand trails
        are circles through the tips round the gimbal, and "Euler angles, lerped"
        found its nearest free place 133 px below its chain (1024x768 at 150 %).
        Elsewhere labels keep clear of the trails, as the reviewed two-key
        pictures ask.
        """
        self._labels_over_own_trails = bool(allowed)
        for chain in self._chains.values():
            self._trail_obstacles(chain)

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
