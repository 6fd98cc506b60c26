"""The key-track lesson's presets: key times and keys of each (docs/presets.md, "Tracks").

Kept as data, JSON-able, beside the code they exercise
(:mod:`quatlab.math.track`); :func:`preset_track` reads one as arrays.
"""

from __future__ import annotations

import numpy as np

from quatlab.math.marks import N_
from quatlab.math.quaternion import from_xyzw

__all__ = ["PRESETS", "preset_track"]

#: Lesson presets (JSON-able; ``docs/presets.md``, "Tracks"): key times in seconds
#: and keys (w, x, y, z).
PRESETS = {
    "four_keys": {
        "label": N_("Four keys, unequal turns"),
        "description": N_(
            "Turns of 90°, 60° and 120° per second about changing axes: piecewise "
            "SLERP jumps in speed (and direction) at every key, SQUAD does not."
        ),
        "times": [0.0, 1.0, 2.0, 3.0],
        "keys": [
            [1.0, 0.0, 0.0, 0.0],
            [0.7071067811865476, 0.0, 0.0, 0.7071067811865475],
            [0.6123724356957946, 0.35355339059327373, 0.3535533905932737, 0.6123724356957945],
            [0.0, -0.35355339059327373, 0.7071067811865476, 0.6123724356957945],
        ],
    },
    "negated_key": {
        "label": N_("Four keys, key 2 stored as -q"),
        "description": N_(
            "The same rotations with key 2 negated, as an exporter may write it. The "
            "sign-aware curves do not change; SQUAD with control points from the stored "
            "signs (as numpy-quaternion's squad computes them) leaves the path by 40°."
        ),
        "times": [0.0, 1.0, 2.0, 3.0],
        "keys": [
            [1.0, 0.0, 0.0, 0.0],
            [0.7071067811865476, 0.0, 0.0, 0.7071067811865475],
            [-0.6123724356957946, -0.35355339059327373, -0.3535533905932737, -0.6123724356957945],
            [0.0, -0.35355339059327373, 0.7071067811865476, 0.6123724356957945],
        ],
    },
    "uneven_times": {
        "label": N_("Uneven key times"),
        "description": N_(
            "Keys at 0, 0.5, 2.5 and 3 s. With the usual uniform tangents SQUAD's "
            "speed jumps at the keys; time-scaled tangents make it continuous."
        ),
        "times": [0.0, 0.5, 2.5, 3.0],
        "keys": [
            [1.0, 0.0, 0.0, 0.0],
            [0.7071067811865476, 0.0, 0.0, 0.7071067811865475],
            [0.6123724356957946, 0.35355339059327373, 0.3535533905932737, 0.6123724356957945],
            [0.0, -0.35355339059327373, 0.7071067811865476, 0.6123724356957945],
        ],
    },
    "gltf_animated_triangle": {
        "label": N_("glTF AnimatedTriangle (real asset)"),
        "description": N_(
            "Khronos glTF-Sample-Assets AnimatedTriangle (CC0, Marco Hutter): five "
            "LINEAR keys about Z, stored (x, y, z, w) as (0,0,0,1) (0,0,.707,.707) "
            "(0,0,1,0) (0,0,.707,-.707) (0,0,0,1). The last pair has dot -0.707: sign-aware "
            "evaluation keeps turning (270° → 360°), the stored signs turn back 270°, "
            "and sign-unaware SQUAD control points pull the curve 27° off."
        ),
        "times": [0.0, 0.25, 0.5, 0.75, 1.0],
        "keys_xyzw": [
            [0.0, 0.0, 0.0, 1.0],
            [0.0, 0.0, 0.7070000171661377, 0.7070000171661377],
            [0.0, 0.0, 1.0, 0.0],
            [0.0, 0.0, 0.7070000171661377, -0.7070000171661377],
            [0.0, 0.0, 0.0, 1.0],
        ],
    },
}


def preset_track(name: str) -> tuple[np.ndarray, np.ndarray]:
    """``(times, keys)`` of preset ``name``, keys (w, x, y, z) as stored (not normalized).

    Examples
    --------
    >>> times, keys = preset_track("gltf_animated_triangle")
    >>> keys[3].tolist()                      # (x, y, z, w) reordered to (w, x, y, z)
    [-0.7070000171661377, 0.0, 0.0, 0.7070000171661377]
    """
    if name not in PRESETS:
        raise ValueError(f"name must be one of {tuple(PRESETS)}, got {name!r}")
    p = PRESETS[name]
    keys = from_xyzw(p["keys_xyzw"]) if "keys_xyzw" in p else np.asarray(p["keys"], float)
    return np.asarray(p["times"], dtype=np.float64), keys
