"""An independent FBX player for the tests: raw curves, layers and Euler composition via scipy.

It reads only the raw keys of an :class:`~quatlab.app.io.fbx.scene.FbxScene`
(times, values, tangents) and the layer settings, and composes rotations with
``scipy.spatial.transform.Rotation`` (extrinsic ``"xyz"`` for FBX's ``XYZ``
order: X first) and Bezier curves with ``scipy.optimize.brentq``; nothing of
``quatlab.app.io.fbx.evaluate`` or ``curves`` is used.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy.optimize import brentq
from scipy.spatial.transform import Rotation, Slerp

ORDERS = ("xyz", "xzy", "yzx", "yxz", "zxy", "zyx")


def curve_value(keys: np.ndarray, t: float) -> float:
    """One curve at one time inside its key range (or clamped to it)."""
    times, values = keys[:, 0], keys[:, 1]
    if t <= times[0]:
        return float(values[0])
    if t >= times[-1]:
        return float(values[-1])
    i = int(np.nonzero(times <= t)[0][-1])
    if times[i] == t:
        return float(values[i])
    t0, t1, v0, v1 = times[i], times[i + 1], values[i], values[i + 1]
    mode = int(keys[i, 2])
    if mode == 0:
        return float(v0)
    if mode == 1:
        return float(v1)
    u = (t - t0) / (t1 - t0)
    if mode == 2:
        return float(v0 + (v1 - v0) * u)
    # Cubic Bezier (t0, v0), (t0 + r.dx, v0 + r.dy), (t1 - l.dx, v1 - l.dy), (t1, v1).
    px = np.array([t0, t0 + keys[i, 5], t1 - keys[i + 1, 3], t1])
    py = np.array([v0, v0 + keys[i, 6], v1 - keys[i + 1, 4], v1])

    def bez(p, s):
        return ((1 - s) ** 3 * p[0] + 3 * (1 - s) ** 2 * s * p[1] + 3 * (1 - s) * s ** 2 * p[2]
                + s ** 3 * p[3])

    s = brentq(lambda s: bez(px, s) - t, 0.0, 1.0, xtol=1e-15)
    return float(bez(py, s))


def _layer_value(scene, row: int, t: float) -> np.ndarray:
    out = np.array(scene.prop_default[row], dtype=np.float64)
    for k, c in enumerate(scene.prop_curves[row]):
        if c >= 0:
            out[k] = curve_value(scene.curve_keys(int(c)), t)
    return out


def _rot(euler_xyz, order: int) -> Rotation:
    seq = ORDERS[order]
    return Rotation.from_euler(seq, [euler_xyz["xyz".index(c)] for c in seq], degrees=True)


def local_rotation(scene, stack: int, node: int, t: float) -> Rotation:
    """The node's local rotation ``Rpre R Rpost^-1`` at ``t`` (inside the clip's key range)."""
    order = int(scene.node_order[node])
    layers = [int(x) for x in scene.stack_layers[stack]]
    rows = [(layers.index(int(lay)), r) for r, (lay, tgt, prop) in enumerate(scene.prop_rows)
            if tgt == node and prop == 1 and int(lay) in layers]
    euler = np.array(scene.node_props[node, 1], dtype=np.float64)
    for pos, r in sorted(rows):
        v = _layer_value(scene, r, t)
        layer = layers[pos]
        _anim, blended, additive, compose_rot, _cs = scene.layer_flags[layer]
        w = float(scene.layer_weight[layer])
        weight_rows = [r2 for r2, (lay, tgt, prop) in enumerate(scene.prop_rows)
                       if int(lay) == layer and tgt == -2 and prop == 4]
        if _anim and blended and weight_rows:
            w = min(max(_layer_value(scene, weight_rows[0], t)[0] / 100.0, 0.0), 1.0)
            w = 1.0 if w > 0.99999 else w
        if pos == 0:
            euler = v
        elif additive and compose_rot:
            b = Rotation.from_rotvec(_rot(v, order).as_rotvec() * w)
            euler = _to_euler(_rot(euler, order) * b, order)
        elif additive:
            euler = euler + w * v
        elif blended and compose_rot:
            pair = Rotation.concatenate([_rot(euler, order), _rot(v, order)])
            euler = _to_euler(Slerp([0.0, 1.0], pair)([w])[0], order)
        elif blended:
            euler = (1 - w) * euler + w * v
        else:
            euler = v
    pre = Rotation.from_euler("xyz", scene.node_props[node, 3], degrees=True)
    post = Rotation.from_euler("xyz", scene.node_props[node, 4], degrees=True)
    return pre * _rot(euler, order) * post.inv()


def _to_euler(r: Rotation, order: int) -> np.ndarray:
    seq = ORDERS[order]
    with warnings.catch_warnings():   # at gimbal lock any triple of the rotation will do
        warnings.simplefilter("ignore", UserWarning)
        listed = r.as_euler(seq, degrees=True)
    out = np.empty(3)
    for i, c in enumerate(seq):
        out["xyz".index(c)] = listed[i]
    return out
