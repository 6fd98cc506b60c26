"""Lesson "same keys, six engines": one two-key segment played by several runtimes at once.

Two stored keys ``q0``, ``q1`` (w, x, y, z, signs as stored) at times 0 and 1
are played by the runtime players of :mod:`quatlab.math.runtimes`
(``docs/runtimes.md``); :func:`compare` samples each one over t in [0, 1]
and gives its rotations, its **path angle** (the angle turned from ``q0``
along the way, :func:`quatlab.math.curves.path_angle`, past 180 deg for a
path that went the long way round), how far it is from the glTF reference at
each t, and how much it turned in all. So a class sees why a segment "works
in three.js and breaks in engine X": the same numbers, different rules for
the sign and for Euler curves.

Examples
--------
>>> import numpy as np
>>> p = PRESETS["stored_minus_q"]
>>> c = compare(p["q0"], p["q1"], ("gltf", "three", "unity_quat"))
>>> {k: round(v, 1) for k, v in c.swept.items()}             # degrees turned in all
{'gltf': 90.0, 'three': 90.0, 'unity_quat': 270.0}
>>> {k: round(float(np.max(v)), 1) for k, v in c.off.items()}  # worst distance from gltf
{'gltf': 0.0, 'three': 0.0, 'unity_quat': 180.0}
"""

from __future__ import annotations

import dataclasses

import numpy as np

from quatlab.math import runtimes as R
from quatlab.math.curves import path_angle
from quatlab.math.marks import N_
from quatlab.math.quaternion import angle_between, as_quaternion

__all__ = ["ENGINES", "PRESETS", "SAMPLES", "EngineComparison", "compare", "play_at"]

#: The six runtimes the lesson plays side by side, in legend order: the glTF
#: reference first, then engines whose rules differ (docs/runtimes.md).
ENGINES = ("gltf", "three", "playcanvas", "unity_quat", "unity_euler", "unreal")

SAMPLES = 241

_C = np.sqrt(0.5)

#: Lesson presets (JSON-able): the two keys (w, x, y, z) as stored.
PRESETS = {
    "stored_minus_q": {
        "label": N_("90° about Z, q1 stored as −q"),
        "description": N_(
            "A quarter turn about Z whose second key an exporter wrote as −q: the same "
            "rotation, the opposite hemisphere."
        ),
        "q0": [1.0, 0.0, 0.0, 0.0],
        "q1": [-_C, 0.0, 0.0, -_C],
    },
    "truck_wheel": {
        "label": N_("Real asset: the milk truck's wheel, keys 14 → 15"),
        "description": N_(
            "Khronos CesiumMilkTruck (CC BY 4.0): a wheel turns 11.7° between keys 14 and 15, "
            "stored in opposite hemispheres."
        ),
        "q0": [0.057432621717453, 0.0, -0.9983493685722351, -0.0],
        "q1": [0.0442814975976944, 0.0, 0.9990191459655762, -0.0],
    },
    "euler_wrap": {
        "label": N_("20° about Y across 180°"),
        "description": N_(
            "A 20° turn about Y, from 170° to 190°, with sign-continuous quaternion keys: "
            "written as Unity Euler angles, its Y channel goes 170° → −170°."
        ),
        "q0": [0.08715574274765814, 0.0, 0.9961946980917455, 0.0],
        "q1": [-0.08715574274765814, 0.0, 0.9961946980917455, 0.0],
    },
    "half_turn": {
        "label": N_("Real asset: BoxAnimated's half turn"),
        "description": N_(
            "Khronos BoxAnimated (CC BY 4.0): the box turns 180° about X between two keys "
            "whose dot is a rounding error below zero: both ways round are equally short, and "
            "that sign chooses."
        ),
        "q0": [-1.0, -0.0, -0.0, -0.0],
        "q1": [4.4896593387466766e-11, 1.0, 0.0, 0.0],
    },
}


@dataclasses.dataclass(frozen=True, eq=False)
class EngineComparison:
    """The runtimes' paths between two keys, sampled at ``t``.

    ``q0``, ``q1`` are the keys as stored and ``dot`` their dot product
    (normalized keys); per runtime id: ``quats`` ``(N, 4)`` (NaN where its blend
    has no rotation), ``angle`` the path angle from ``q0`` (deg, 0..360) of
    the sampled poses made sign-continuous (the motion, whatever sign the
    runtime returns),
    ``off`` the angle from the reference's rotation at the same t (deg,
    0..180; 180 where undefined), ``swept`` the total turn (deg).
    """

    q0: np.ndarray
    q1: np.ndarray
    dot: float
    runtimes: tuple[str, ...]
    t: np.ndarray
    quats: dict
    angle: dict
    off: dict
    swept: dict


def play_at(q0, q1, runtime: str, t) -> np.ndarray:
    """Rotations ``(len(t), 4)`` that ``runtime`` plays between keys at times 0 and 1.

    Examples
    --------
    >>> p = PRESETS["stored_minus_q"]
    >>> np.round(play_at(p["q0"], p["q1"], "playcanvas", [0.5]), 4) + 0.0
    array([[0.9239, 0.    , 0.    , 0.3827]])
    """
    keys = np.stack([np.asarray(q0, dtype=np.float64), np.asarray(q1, dtype=np.float64)])
    return R.play(runtime, keys, np.array([0.0, 1.0]), np.atleast_1d(np.asarray(t, float)))


def _continuous(path: np.ndarray, start: np.ndarray) -> np.ndarray:
    """``path`` ``(N, 4)`` with each sample's sign following the one before (the first ``start``'s).

    A runtime may return ``-q`` for the pose it shows (Unreal's FastLerp puts
    the sign on the first key); the path angle reads the motion only once the
    samples are sign-continuous, so it is taken on this copy. NaN samples
    (no rotation) stay NaN and are stepped over.

    Examples
    --------
    >>> _continuous(np.array([[-1.0, 0, 0, 0], [np.nan] * 4, [1.0, 0, 0, 0]]),
    ...             np.array([1.0, 0, 0, 0])).tolist()
    [[1.0, -0.0, -0.0, -0.0], [nan, nan, nan, nan], [1.0, 0.0, 0.0, 0.0]]
    """
    out = path.copy()
    previous = start
    for i in range(len(out)):
        if not np.all(np.isfinite(out[i])):
            continue
        if np.dot(out[i], previous) < 0:
            out[i] = -out[i]
        previous = out[i]
    return out


def compare(q0, q1, runtimes=ENGINES, samples: int = SAMPLES) -> EngineComparison:
    """Each runtime's path from ``q0`` to ``q1`` (stored signs) over ``samples`` values of t.

    Examples
    --------
    A quarter turn with q1 stored as -q (dot -0.707, like the glTF
    AnimatedTriangle's last segment): the stored-sign lerp turns three
    quarters the other way, at t = 1/4 by ``2 atan2(c/4, 3/4 - c/4)`` = 34.3 deg
    (c = cos 45 deg), the reference by 22.5 deg:

    >>> p = PRESETS["stored_minus_q"]
    >>> c = compare(p["q0"], p["q1"], ("gltf", "unity_quat"), samples=5)
    >>> np.round(c.angle["unity_quat"], 1).tolist(), np.round(c.angle["gltf"], 1).tolist()
    ([0.0, 34.3, 135.0, 235.7, 270.0], [0.0, 22.5, 45.0, 67.5, 90.0])
    """
    a = as_quaternion(q0, "q0", normalized=False)
    b = as_quaternion(q1, "q1", normalized=False)
    unit_a, unit_b = as_quaternion(a, "q0"), as_quaternion(b, "q1")
    runtimes = tuple(runtimes)
    t = np.linspace(0.0, 1.0, samples)
    ref = play_at(a, b, R.REFERENCE, t)
    quats, angle, off, swept = {}, {}, {}, {}
    for rid in runtimes:
        q = play_at(a, b, rid, t)
        with np.errstate(invalid="ignore"):
            unit = q / np.linalg.norm(q, axis=1, keepdims=True)
        finite = np.all(np.isfinite(unit), axis=1)
        angle[rid] = np.degrees(path_angle(unit_a, _continuous(unit, unit_a)))
        diff = np.full(samples, 180.0)
        diff[finite] = np.degrees(angle_between(unit[finite], ref[finite]))
        off[rid] = diff
        steps = np.degrees(angle_between(np.where(finite[:, None], unit, unit_a)[:-1],
                                         np.where(finite[:, None], unit, unit_a)[1:]))
        swept[rid] = float(np.sum(steps))
        quats[rid] = unit
        for arr in (unit, angle[rid], diff):
            arr.setflags(write=False)
    t.setflags(write=False)
    return EngineComparison(a, b, float(np.dot(unit_a, unit_b)), runtimes, t, quats, angle,
                            off, swept)

