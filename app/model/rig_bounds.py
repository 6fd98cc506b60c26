"""The box a rig sweeps over a whole animation, every vertex of every frame: what the camera frames.

:func:`animation_bounds` poses the rig as the spec player plays it at
:func:`sweep_times` (every key, every frame at the animation's sampling
rate, and at least :data:`LEAST_SAMPLES` evenly between, so a part that
turns a quarter turn from one key to the next is caught in between too),
skins its meshes and takes the bounds of every vertex and joint
(:func:`~quatlab.app.model.skinning.scene_bounds`). Framing the first frame
only hid BoxAnimated's inner box once it rose out of the outer one and
clipped AnimatedTriangle as it turned. No Qt; slow enough (about 2 ms a
frame for a skinned character) to run on a worker thread.

:func:`part_bounds` is the box of one joint and what hangs from it in one
pose (its descendants, the meshes they carry, the skinned vertices they
lead), for framing that joint.

Examples
--------
>>> import numpy as np
>>> from quatlab.app.io.gltf.scene import Animation, Channel
>>> from quatlab.app.model.rig import Rig
>>> import dataclasses
>>> c = np.sqrt(0.5)
>>> turn = Channel(0, "rotation", "LINEAR", np.array([0.0, 1.0]),
...                np.array([[1.0, 0, 0, 0], [c, 0, 0, c]]), None, None, 0, 1)   # 90 deg about z
>>> rig = dataclasses.replace(Rig.chain(2), animations=(Animation(0, "t", (turn,), 0, 1),))
>>> lo, hi = animation_bounds(rig, 0)
>>> np.round(lo, 3).tolist(), np.round(hi, 3).tolist()    # the tip swings from +y to -x
([-1.0, 0.0, 0.0], [0.0, 1.0, 0.0])
"""

from __future__ import annotations

import numpy as np

from quatlab.app.model.rig import Rig
from quatlab.app.model.rig_playback import sampling_rate
from quatlab.app.model.rig_players import evaluate
from quatlab.app.model.skinning import PosedMesh, scene_bounds

__all__ = ["animation_bounds", "sweep_times", "part_bounds", "descendants", "Stopped",
           "LEAST_SAMPLES", "MAX_SAMPLES"]

#: Times sampled between the keys at least (a clip of few keys still sweeps in between).
LEAST_SAMPLES = 61
#: At most this many poses (evenly thinned beyond): a 10-minute capture stays a few seconds.
MAX_SAMPLES = 2000


def sweep_times(rig: Rig, animation) -> np.ndarray:
    """The times :func:`animation_bounds` poses the rig at (see the module docstring)."""
    anim = rig.animation(animation)
    start, end = float(anim.start), float(anim.end)
    if not end > start:
        return np.array([start])
    fps = sampling_rate(anim)
    frames = np.arange(start, end, 1.0 / fps)
    keys = np.concatenate([c.times for c in anim.channels]) if anim.channels else np.zeros(0)
    even = np.linspace(start, end, LEAST_SAMPLES)
    t = np.unique(np.concatenate([frames, keys, even, [end]]))
    if len(t) > MAX_SAMPLES:
        t = t[np.round(np.linspace(0, len(t) - 1, MAX_SAMPLES)).astype(np.int64)]
    return t


class Stopped(Exception):
    """Raised when a caller's ``stop()`` asked a long computation to give up."""


def animation_bounds(rig: Rig, animation=None, *, stop=None) -> tuple[np.ndarray, np.ndarray]:
    """``(lo, hi)`` of every vertex and joint over ``animation`` (index, name or object).

    None: the rest pose only. ``stop``: a callable asked before each pose;
    when it answers True, :class:`Stopped` is raised (a worker thread whose
    result is no longer wanted).
    """
    if animation is None or not rig.animations:
        return scene_bounds(rig, evaluate(rig))
    anim = rig.animation(animation)
    lo, hi = np.full(3, np.inf), np.full(3, -np.inf)
    for t in sweep_times(rig, anim):
        if stop is not None and stop():
            raise Stopped
        a, b = scene_bounds(rig, evaluate(rig, anim, float(t)))
        lo, hi = np.minimum(lo, a), np.maximum(hi, b)
    return lo, hi


def descendants(rig: Rig, node: int) -> np.ndarray:
    """``node`` and every node below it (rig indices, parents first).

    >>> descendants(Rig.chain(4), 1).tolist()
    [1, 2, 3]
    """
    inside = np.zeros(len(rig), dtype=bool)
    inside[node] = True
    for i in range(node + 1, len(rig)):  # parents come first (parents[i] < i)
        p = rig.parents[i]
        inside[i] = p >= 0 and inside[p]
    return np.flatnonzero(inside)


def part_bounds(rig: Rig, pose, meshes: list[PosedMesh], node: int):
    """``(lo, hi)`` of ``node``, its descendants and the vertices they carry, in ``pose``.

    ``meshes`` are the pose's :func:`~quatlab.app.model.skinning.skin_meshes`
    (in the order of ``rig.meshes`` in the scene). A rigid mesh counts when
    its node is in the part, a skinned vertex when the joint weighing most
    on it is.

    >>> from quatlab.app.model.rig_players import evaluate
    >>> rig = Rig.chain(3)
    >>> lo, hi = part_bounds(rig, evaluate(rig), [], 1)
    >>> lo.tolist(), hi.tolist()
    ([0.0, 1.0, 0.0], [0.0, 2.0, 0.0])
    """
    part = descendants(rig, node)
    inside = np.zeros(len(rig), dtype=bool)
    inside[part] = True
    pts = [pose.world[part, :3, 3]]
    shown = [m for m in rig.meshes if rig.in_scene[m.node]]
    for m, posed in zip(shown, meshes, strict=False):
        if m.skin is None:
            if inside[m.node]:
                pts.append(posed.vertices)
        else:
            lead = rig.skins[m.skin].joints[np.argmax(m.weights, axis=1)]
            pts.append(posed.vertices[inside[lead]])
    pts = np.concatenate(pts)
    return pts.min(axis=0), pts.max(axis=0)
