"""What a chain's tip trail draws, from its rotation path: numpy only, so any thread may build it.

:class:`ChainScene <quatlab.rendering.chain_scene.ChainScene>` draws every
chain's trail as one GL ``'lines'`` item: the trail thinned to what the
screen resolves, with ticks at every tenth of t and arrowheads
(:func:`quatlab.rendering.scene_marks.trail_marks`). Working that out from a
long path (12,000 samples of a 200-key track, 10,000 integration steps) takes
tens of milliseconds, most of it the forward kinematics of every sample; a
lesson computing its curves on a worker thread builds the shape there too
(:meth:`TrailShaper.shape`) and hands it to ``set_path``, so the GUI thread
only uploads vertices. A :class:`TrailShaper` holds the scene's kinematics
(bones, lengths, root only or not, the chain's root) as they were when it was
made; the scene uses a shape only if they still hold.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from quatlab.rendering.chain import ROOT, chain_reach, marker_trail, segment_indices
from quatlab.rendering.contrast import contrast_ratio, deepen, least_mix
from quatlab.rendering.scene_marks import TICKS, plane_normal, trail_marks

__all__ = ["TrailShape", "TrailShaper", "trail_shape", "trail_colours", "contrast_ratio",
           "TRAIL_FADE", "TRAIL_FAINTEST", "TRAIL_FULL"]

#: Colour strength at t = 0 and t = 1: the trail fades in along t.
TRAIL_FADE = (0.4, 1.0)
#: Least contrast (WCAG 2) of the trail's palest end against the 3D background:
#: 3:1, what a line must keep to be seen (WCAG 1.4.11), with a little room for
#: the antialiased edge. At 0.4 of an orange the trail was 1.4:1 on the light
#: scene, next to nothing on a projector.
TRAIL_FAINTEST = 3.2
#: Least contrast of the trail's full-strength end: a colour paler than this
#: (the Euler orange is 2.1:1 on the light scene) is deepened away from the
#: background until it reaches it, so the fade still has room above 3:1.
TRAIL_FULL = 4.0
#: Tick half length / arrowhead, fraction of the chain's reach.
MARK_SIZE = 0.05
#: Trail vertices closer along the trail than this fraction of the reach are
#: merged, and a pass over the same place drawn once: below a pixel of the
#: framed view. A 12,000-sample trail (a 200-key track) or a spin integrated
#: over a hundred turns shrinks to what the screen resolves, which every frame
#: uploads and draws again.
TRAIL_RESOLUTION = 1.0 / 400


@dataclass(frozen=True, eq=False)
class TrailShape:
    """The vertices of one trail, before colour.

    Attributes
    ----------
    points : numpy.ndarray, shape (N, 3)
        The trail in world space, in order of t; NaN rows are gaps.
    vertices : numpy.ndarray, shape (2 M, 3)
        Segment ends for GL ``'lines'``: the thinned trail, then its marks.
    strength : numpy.ndarray, shape (2 M,)
        Colour strength of each vertex (:data:`TRAIL_FADE`, by its t).
    plane : numpy.ndarray, shape (3,), or None
        Normal of the plane the trail lies in, if it lies in one.
    kinematics : tuple
        What the points were computed with (see :class:`TrailShaper`).
    path : numpy.ndarray or None
        The rotation path it was made from (None for a trail given as points).
    """

    points: np.ndarray
    vertices: np.ndarray
    strength: np.ndarray
    plane: np.ndarray | None
    kinematics: tuple
    path: np.ndarray | None = None


def trail_shape(points, reach: float, kinematics: tuple = (),
                path: np.ndarray | None = None) -> TrailShape:
    """The :class:`TrailShape` of trail ``points`` ``(N, 3)`` of a chain reaching ``reach``."""
    points = np.asarray(points, dtype=np.float64)
    if points.ndim != 2 or points.shape[-1] != 3:
        raise ValueError(f"points must have shape (N, 3), got shape {points.shape}")
    index = segment_indices(points, TRAIL_RESOLUTION * reach)
    ends = points[index].reshape(-1, 2, 3)
    length = float(np.linalg.norm(ends[:, 1] - ends[:, 0], axis=-1).sum())
    # Marks small enough that neighbouring ticks never run into each other.
    marks, marked = trail_marks(points, min(MARK_SIZE * reach, 0.35 * length / TICKS))
    # Ticks and arrowheads are more segments of the same item: no extra item
    # to draw per frame, and they take their sample's colour.
    vertices = np.concatenate([points[index], marks])
    # Strength goes by sample index, taken at the segment-end indices, so each
    # end keeps the strength of its own t across gaps.
    strength = np.linspace(*TRAIL_FADE, max(len(points), 1))[
        np.concatenate([index, marked]).astype(int)]
    return TrailShape(points, vertices, strength, plane_normal(points), kinematics, path)


def trail_colours(base, background, strength) -> np.ndarray:
    """RGB ``(M, 3)`` of trail vertices of ``strength`` ``(M,)`` (:data:`TRAIL_FADE`).

    The fade mixes from the background towards the chain's colour (not by
    alpha: overlapping segment ends would darken into beads), but never below
    :data:`TRAIL_FAINTEST` against the background; a colour under
    :data:`TRAIL_FULL` is first deepened towards black (white on a dark
    background) until it reaches it.
    """
    base = np.asarray(base, dtype=np.float64)[:3]
    bg = np.asarray(background, dtype=np.float64)[:3]
    ink = deepen(base, bg, TRAIL_FULL)
    lo, hi = TRAIL_FADE
    floor = max(lo, least_mix(bg, ink, bg, TRAIL_FAINTEST))
    s = floor + (np.asarray(strength, dtype=np.float64) - lo) / (hi - lo) * (hi - floor)
    return bg + np.clip(s, 0.0, 1.0)[:, None] * (ink - bg)


@dataclass(frozen=True)
class TrailShaper:
    """Builds trail shapes for one scene's kinematics, on any thread (nothing here is shared).

    ``kinematics`` is ``(n_bones, bone_length, root_only, root)`` as the
    scene had them when it made the shaper (``ChainScene.trail_shaper``);
    bone_length is a float or a tuple of lengths, root a tuple.
    """

    n_bones: int
    bone_length: float | tuple
    root_only: bool
    root: tuple = tuple(ROOT)

    @property
    def kinematics(self) -> tuple:
        return (self.n_bones, self.bone_length, self.root_only, self.root)

    def shape(self, path_q) -> TrailShape:
        """The trail of the top of the hand along the sampled rotations ``path_q`` ``(N, 4)``."""
        path = np.array(path_q, dtype=np.float64)
        lengths = (list(self.bone_length) if isinstance(self.bone_length, tuple)
                   else self.bone_length)
        points = marker_trail(path, self.n_bones, lengths, root_only=self.root_only)
        points += np.asarray(self.root) - ROOT
        return trail_shape(points, chain_reach(self.n_bones, lengths), self.kinematics, path)
