"""An FBX clip played as ufbx plays it: layers blended, node transforms composed, any times. No Qt.

:class:`ClipEvaluator` evaluates one clip (animation stack) of an
:class:`~quatlab.app.io.fbx.scene.FbxScene` at an array of times, for every
node at once (docs/formats.md, "FBX"):

1. **Curves** (:mod:`quatlab.app.io.fbx.curves`): each animated property's
   components; a component without a curve keeps the property's default.
2. **Layers**, in the clip's order: the first layer's value replaces the
   static property; each later layer combines with the result so far, with
   its weight ``w`` (animated weights are read in percent) as the FBX SDK
   does and ufbx reproduces: *additive* adds ``w`` times its value (scale
   multiplies ``|v|^w``, rotation composes ``a * slerp(1, b, w)`` in the
   node's rotation order when the layer accumulates rotations by layer);
   *override passthrough* (``blended``) interpolates ``(1 - w) a + w b``
   (rotation: ``slerp(a, b, w)``; scale: ``|a|^(1-w) |b|^w``); *override*
   replaces.
3. **The node's local transform** ``T Roff Rp Rpre R Rpost^-1 Rp^-1 Soff Sp
   S Sp^-1`` as translation, rotation ``Rpre R Rpost^-1`` and scale; ``R``
   is the ``Lcl Rotation`` Euler triple in the node's (possibly animated)
   rotation order, ``"XYZ"`` meaning ``R = Rz Ry Rx``; pre- and
   post-rotations are always ``"XYZ"``.
4. **World matrices** down the hierarchy, with ufbx's inherit modes (normal,
   or a parent's scale not inherited: Maya's segment scale compensation).

Quaternions are (w, x, y, z), computed with the same products as ufbx, so
they carry the signs a runtime that bakes through ufbx receives.

Examples
--------
>>> from quatlab.app.io.fbx.evaluate import euler_to_quat
>>> import numpy as np
>>> np.round(euler_to_quat([[0.0, 0.0, 90.0]], [0]), 6) + 0.0     # XYZ order, 90 deg about Z
array([[0.707107, 0.      , 0.      , 0.707107]])
"""

from __future__ import annotations

import dataclasses

import numpy as np

from quatlab.app.io.fbx.curves import CurveBank
from quatlab.app.io.fbx.scene import PROP_NAMES, ROTATION_ORDERS, FbxScene
from quatlab.math import quaternion as Q

__all__ = ["ClipEvaluator", "LocalTransforms", "euler_to_quat", "quat_to_euler",
           "order_string", "compose_matrices", "euler_columns"]

_T, _R, _S, _ORDER, _WEIGHT = range(len(PROP_NAMES))
_SPHERIC = ROTATION_ORDERS.index("SPHERIC")


def order_string(order: int) -> str:
    """The extrinsic order string of :mod:`quatlab.math.euler` for an FBX rotation order.

    FBX ``"ZXY"`` (Z first) is ``"zxy"``, angles listed Z, X, Y.

    >>> order_string(0), order_string(4)
    ('xyz', 'zxy')
    """
    name = ROTATION_ORDERS[int(order)] if 0 <= int(order) < _SPHERIC else "XYZ"
    return name.lower()


def euler_columns(order: int) -> list[int]:
    """Indices of X, Y, Z values in the order's listing: ``[2, 0, 1]`` for ``"ZXY"``."""
    return ["XYZ".index(c) for c in order_string(order).upper()]


def euler_to_quat(angles, orders) -> np.ndarray:
    """Quaternions ``(..., 4)`` (w, x, y, z) of FBX Euler triples ``(..., 3)`` (X, Y, Z degrees).

    ``orders`` broadcasts against the triples' leading shape. The products
    are ufbx's (``ufbx_euler_to_quat``): the rotation of
    :func:`quatlab.math.euler.from_euler` in :func:`order_string`, with the
    sign ufbx gives (which a baked quaternion track inherits). ``SPHERIC``
    gives the identity, as in ufbx.
    """
    a = np.radians(np.asarray(angles, dtype=np.float64)) * 0.5
    orders = np.broadcast_to(np.asarray(orders, dtype=np.int64), a.shape[:-1])
    cx, cy, cz = np.cos(a[..., 0]), np.cos(a[..., 1]), np.cos(a[..., 2])
    sx, sy, sz = np.sin(a[..., 0]), np.sin(a[..., 1]), np.sin(a[..., 2])
    # ufbx's four products; each order picks the signs of its second terms.
    ccc, sss = cx * cy * cz, sx * sy * sz
    x1, x2 = cy * cz * sx, cx * sy * sz
    y1, y2 = cx * cz * sy, cy * sx * sz
    z1, z2 = cx * cy * sz, cz * sx * sy
    out = np.empty(a.shape[:-1] + (4,))
    out[...] = Q.IDENTITY
    for o in np.unique(orders):
        if not 0 <= o < _SPHERIC:
            continue
        m = orders == o
        sw, sx_, sy_, sz_ = _EULER_SIGNS[int(o)]
        out[m] = np.stack([ccc[m] + sw * sss[m], x1[m] + sx_ * x2[m], y1[m] + sy_ * y2[m],
                           z1[m] + sz_ * z2[m]], axis=-1)
    return out


# Signs of the second terms of w, x, y, z in ufbx_euler_to_quat, orders XYZ ... ZYX.
_EULER_SIGNS = ((1, -1, 1, -1), (-1, 1, 1, -1), (1, -1, -1, 1), (-1, -1, 1, 1),
                (1, 1, -1, -1), (-1, 1, -1, 1))


def quat_to_euler(q, orders) -> np.ndarray:
    """FBX Euler triples ``(..., 3)`` (X, Y, Z degrees) of quaternions, as ufbx converts them.

    ufbx's own formulas (``ufbx_quat_to_euler``), so that a rotation composed
    by a layer and turned back into angles gives the quaternion sign ufbx
    gives. The middle angle is in [-90, 90]; near gimbal lock the last
    angle is 0.
    """
    q = np.asarray(q, dtype=np.float64)
    orders = np.broadcast_to(np.asarray(orders, dtype=np.int64), q.shape[:-1])
    out = np.zeros(q.shape[:-1] + (3,))
    for o in np.unique(orders):
        if not 0 <= o < _SPHERIC:
            continue
        m = orders == o
        w, x, y, z = np.moveaxis(q[m], -1, 0)
        out[m] = np.degrees(_TO_EULER[int(o)](w, x, y, z))
    return out


def _to_euler_case(t_of, mid, a_of, b_of, lock_of, a_axis, b_axis):
    """One order of ``ufbx_quat_to_euler``: the middle axis ``mid`` from ``asin(t)``.

    ``a`` is the angle ufbx computes with ``atan2`` (kept at the lock),
    ``b`` the one it negates (set to 0 at the lock).
    """
    def convert(w, x, y, z):
        t = t_of(w, x, y, z)
        free = np.abs(t) < 0.999999999
        out = np.zeros(t.shape + (3,))
        with np.errstate(invalid="ignore"):
            out[..., mid] = np.where(free, np.arcsin(np.clip(t, -1.0, 1.0)),
                                     np.copysign(np.pi / 2, t))
        ay, ax = a_of(w, x, y, z)
        ly, lx = lock_of(w, x, y, z, t)
        out[..., a_axis] = np.where(free, np.arctan2(ay, ax), np.arctan2(ly, lx))
        by, bx = b_of(w, x, y, z)
        out[..., b_axis] = np.where(free, -np.arctan2(by, bx), 0.0)
        return out
    return convert


_X, _Y, _Z = range(3)
# Transcribed from ufbx's ``ufbx_quat_to_euler`` (orders XYZ, XZY, YZX, YXZ, ZXY, ZYX).
_TO_EULER = (
    _to_euler_case(lambda w, x, y, z: 2 * (w * y - x * z), _Y,
                   lambda w, x, y, z: (2 * (w * z + x * y), 2 * (w * w + x * x) - 1),
                   lambda w, x, y, z: (-2 * (w * x + y * z), 2 * (w * w + z * z) - 1),
                   lambda w, x, y, z, t: (-2 * t * (w * x - y * z), t * (2 * w * y + 2 * x * z)),
                   _Z, _X),
    _to_euler_case(lambda w, x, y, z: 2 * (w * z + x * y), _Z,
                   lambda w, x, y, z: (2 * (w * y - x * z), 2 * (w * w + x * x) - 1),
                   lambda w, x, y, z: (-2 * (w * x - y * z), 2 * (w * w + y * y) - 1),
                   lambda w, x, y, z, t: (2 * t * (w * x + y * z), -t * (2 * x * y - 2 * w * z)),
                   _Y, _X),
    _to_euler_case(lambda w, x, y, z: 2 * (w * z - x * y), _Z,
                   lambda w, x, y, z: (2 * (w * x + y * z), 2 * (w * w + y * y) - 1),
                   lambda w, x, y, z: (-2 * (w * y + x * z), 2 * (w * w + x * x) - 1),
                   lambda w, x, y, z, t: (-2 * t * (w * y - x * z), t * (2 * w * z + 2 * x * y)),
                   _X, _Y),
    _to_euler_case(lambda w, x, y, z: 2 * (w * x + y * z), _X,
                   lambda w, x, y, z: (2 * (w * z - x * y), 2 * (w * w + y * y) - 1),
                   lambda w, x, y, z: (-2 * (w * y - x * z), 2 * (w * w + z * z) - 1),
                   lambda w, x, y, z, t: (2 * t * (w * y + x * z), -t * (2 * y * z - 2 * w * x)),
                   _Z, _Y),
    _to_euler_case(lambda w, x, y, z: 2 * (w * x - y * z), _X,
                   lambda w, x, y, z: (2 * (w * y + x * z), 2 * (w * w + z * z) - 1),
                   lambda w, x, y, z: (-2 * (w * z + x * y), 2 * (w * w + y * y) - 1),
                   lambda w, x, y, z, t: (-2 * t * (w * z - x * y), t * (2 * w * x + 2 * y * z)),
                   _Y, _Z),
    _to_euler_case(lambda w, x, y, z: 2 * (w * y + x * z), _Y,
                   lambda w, x, y, z: (2 * (w * x - y * z), 2 * (w * w + z * z) - 1),
                   lambda w, x, y, z: (-2 * (w * z - x * y), 2 * (w * w + x * x) - 1),
                   lambda w, x, y, z, t: (2 * t * (w * z + x * y), -t * (2 * x * z - 2 * w * y)),
                   _X, _Z),
)


def _slerp(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    """ufbx's ``ufbx_quat_slerp`` (shortest arc, renormalized), vectorized; (w, x, y, z)."""
    d = np.einsum("...i,...i->...", a, b)
    b = np.where((d < 0.0)[..., None], -b, b)
    omega = np.arccos(np.clip(np.abs(d), 0.0, 1.0))
    small = omega <= 1.175494351e-38
    rcp_so = 1.0 / np.where(small, 1.0, np.sin(omega))
    af = np.sin((1.0 - t) * omega) * rcp_so
    bf = np.sin(t * omega) * rcp_so
    r = af[..., None] * a + bf[..., None] * b
    r = r * (1.0 / np.sqrt(np.einsum("...i,...i->...", r, r)))[..., None]
    return np.where(small[..., None], a, r)


def _pow_abs(v: np.ndarray, e: np.ndarray) -> np.ndarray:
    e = np.broadcast_to(e, v.shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.sign(v) * np.abs(v) ** e
    return np.where(e <= 0.0, 1.0, np.where(e >= 1.0, v, p))


@dataclasses.dataclass(frozen=True, eq=False)
class LocalTransforms:
    """Every node's local transform at ``T`` times: arrays ``(T, N, ...)``.

    ``euler`` is the blended ``Lcl Rotation`` (X, Y, Z degrees) and ``order``
    the rotation order in force; ``rotation`` is the whole local rotation
    ``Rpre R Rpost^-1`` (w, x, y, z).
    """

    times: np.ndarray
    translation: np.ndarray
    rotation: np.ndarray
    scale: np.ndarray
    euler: np.ndarray
    order: np.ndarray


class ClipEvaluator:
    """Evaluate clip ``stack`` of ``scene`` at any times (module docs)."""

    def __init__(self, scene: FbxScene, stack: int):
        self.scene = scene
        self.stack = int(stack)
        self.layers = [int(x) for x in scene.stack_layers[self.stack]]
        pos = {layer: i for i, layer in enumerate(self.layers)}
        #: (node, property) -> [(position of the layer in the clip, property row)], in order.
        self.rows: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for r, (layer, target, prop) in enumerate(scene.prop_rows):
            if int(layer) in pos:
                self.rows.setdefault((int(target), int(prop)), []).append((pos[int(layer)], r))
        for v in self.rows.values():
            v.sort()
        self._weight_rows = {p: r for (target, prop), lst in self.rows.items()
                             if target == -2 and prop == _WEIGHT for p, r in lst}
        self.bank = CurveBank(scene.curve_key_start, scene.keys, scene.curve_extrapolation,
                              scene.ktime_second)
        # Per property: the nodes whose value is one layer-0 row (no blending: most files),
        # with that row; the other animated nodes go through _blend.
        self._simple: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        for k in (_T, _R, _S):
            nodes, rows = [], []
            for (target, prop), lst in self.rows.items():
                if prop == k and target >= 0 and len(lst) == 1 and lst[0][0] == 0:
                    nodes.append(target)
                    rows.append(lst[0][1])
            self._simple[k] = (np.array(nodes, dtype=np.int64), np.array(rows, dtype=np.int64))
        self._levels = _levels(scene.node_parent)
        self._last = None   # the blended properties of the last times asked for

    # ------------------------------------------------------------------ properties
    def _values(self, rows, times: np.ndarray) -> np.ndarray:
        """Animated properties' values ``(R, T, 3)`` in their own layers (rows of ``prop_rows``)."""
        sc = self.scene
        rows = np.asarray(rows, dtype=np.int64).reshape(-1)
        ids = sc.prop_curves[rows]                          # (R, 3)
        out = np.empty((len(rows), len(times), 3))
        out[...] = sc.prop_default[rows][:, None, :]
        have = ids >= 0
        if have.any():
            vals = self.bank.evaluate(ids[have], times, sc.prop_default[rows][have])
            out.transpose(0, 2, 1)[have] = vals
        return out

    def _value(self, row: int, times: np.ndarray) -> np.ndarray:
        """One animated property's value ``(T, 3)`` in its own layer."""
        return self._values([row], times)[0]

    def layer_weight(self, position: int, times: np.ndarray) -> np.ndarray:
        """The weight ``(T,)`` (0..1) of the clip's ``position``-th layer at ``times``."""
        sc = self.scene
        layer = self.layers[position]
        w = np.full(len(times), float(sc.layer_weight[layer]))
        animated, blended = sc.layer_flags[layer, 0], sc.layer_flags[layer, 1]
        row = self._weight_rows.get(position)
        if animated and blended and row is not None:
            w = self._value(row, times)[:, 0] / 100.0
            w = np.where(w < 0.0, 0.0, np.where(w > 0.99999, 1.0, w))
        return w

    def rotation_order(self, node: int, times: np.ndarray) -> np.ndarray:
        """The node's rotation order ``(T,)`` (an animated ``RotationOrder`` included)."""
        static = np.full(len(times), int(self.scene.node_order[node]), dtype=np.int64)
        if (node, _ORDER) not in self.rows:
            return static
        value = self._blend(node, _ORDER, times, np.zeros((len(times), 3)), None)[:, 0]
        with np.errstate(invalid="ignore"):
            v = np.trunc(value)
        ok = np.isfinite(v) & (v >= 0) & (v <= _SPHERIC)
        return np.where(ok, v, 0).astype(np.int64)

    def property(self, node: int, prop: str, times: np.ndarray) -> np.ndarray:
        """``prop`` (a name of :data:`PROP_NAMES` but ``Weight``) of ``node``, layers blended."""
        k = PROP_NAMES.index(prop)
        sc = self.scene
        times = np.asarray(times, dtype=np.float64).reshape(-1)
        if k == _ORDER:
            return self.rotation_order(node, times).astype(np.float64)[:, None].repeat(3, 1)
        static = np.broadcast_to(sc.node_props[node, k], (len(times), 3)).copy()
        order = self.rotation_order(node, times) if k == _R else None
        return self._blend(node, k, times, static, order)

    def _blend(self, node, k, times, result, order) -> np.ndarray:
        sc = self.scene
        for position, row in self.rows.get((node, k), ()):
            v = self._value(row, times)
            if position == 0:
                result = v
                continue
            layer = self.layers[position]
            _animated, blended, additive, compose_rot, compose_scale = sc.layer_flags[layer]
            w = self.layer_weight(position, times)
            if additive:
                if compose_scale and k == _S:
                    result = result * _pow_abs(v, w[:, None])
                elif compose_rot and k == _R:
                    a = euler_to_quat(result, order)
                    b = _slerp(np.broadcast_to(Q.IDENTITY, v.shape[:-1] + (4,)),
                               euler_to_quat(v, order), w)
                    result = quat_to_euler(Q.multiply(a, b), order)
                else:
                    result = result + v * w[:, None]
            elif blended:
                if compose_scale and k == _S:
                    result = _pow_abs(result, 1.0 - w[:, None]) * _pow_abs(v, w[:, None])
                elif compose_rot and k == _R:
                    q = _slerp(euler_to_quat(result, order), euler_to_quat(v, order), w)
                    result = quat_to_euler(q, order)
                else:
                    result = result * (1.0 - w[:, None]) + v * w[:, None]
            else:
                result = v
        return result

    def _blended(self, k: int, nodes: np.ndarray, times: np.ndarray,
                 order: np.ndarray | None) -> np.ndarray:
        """Property ``k`` of ``nodes`` at ``times``, ``(T, n, 3)``: one batched evaluation for
        the nodes with a single layer-0 curve set, :meth:`_blend` for the others."""
        sc = self.scene
        T = len(times)
        out = np.empty((T, len(nodes), 3))
        out[...] = sc.node_props[nodes, k][None]
        simple_nodes, simple_rows = self._simple[k]
        at = {int(nd): j for j, nd in enumerate(nodes.tolist())}
        pick = [i for i, nd in enumerate(simple_nodes.tolist()) if nd in at]
        if pick:
            cols = [at[int(simple_nodes[i])] for i in pick]
            out[:, cols] = self._values(simple_rows[pick], times).transpose(1, 0, 2)
        simple = set(simple_nodes.tolist())
        for j, nd in enumerate(nodes.tolist()):
            if nd not in simple and (nd, k) in self.rows:
                out[:, j] = self._blend(nd, k, times, out[:, j].copy(),
                                        None if order is None else order[:, j])
        return out

    # ------------------------------------------------------------------ transforms
    def local(self, times, nodes=None, *, euler=None, rotation=None) -> LocalTransforms:
        """Local transforms of ``nodes`` (default: all) at ``times``.

        ``euler`` ``(T, n, 3)``, if given, replaces the blended ``Lcl
        Rotation``; ``rotation`` ``(T, n, 4)`` replaces the whole local
        rotation ``Rpre R Rpost^-1`` (NaN rows: keep the clip's). The naive
        players of :mod:`quatlab.app.model.fbx_rig` interpolate these their
        own way; pivots, translation and scale are the clip's.
        """
        sc = self.scene
        times = np.asarray(times, dtype=np.float64).reshape(-1)
        nodes = np.arange(sc.n_nodes) if nodes is None else np.asarray(nodes, dtype=np.int64)
        key = (times.tobytes(), nodes.tobytes())
        last = self._last
        if last is not None and last[0] == key:
            tr, rot_clip, sca, order = last[1]           # the spec and naive poses of one time
        else:
            order = np.empty((len(times), len(nodes)), dtype=np.int64)
            order[...] = sc.node_order[nodes][None]
            for j, node in enumerate(nodes.tolist()):
                if (node, _ORDER) in self.rows:
                    order[:, j] = self.rotation_order(node, times)
            tr = self._blended(_T, nodes, times, None)
            rot_clip = self._blended(_R, nodes, times, order)
            sca = self._blended(_S, nodes, times, None)
            for a in (tr, rot_clip, sca, order):
                a.flags.writeable = False                 # shared by the next call
            self._last = (key, (tr, rot_clip, sca, order))
        rot = rot_clip if euler is None else euler
        props = sc.node_props[nodes]                        # (n, 9, 3)
        pre = euler_to_quat(props[:, 3], 0)                 # (n, 4), XYZ
        post_inv = Q.conjugate(euler_to_quat(props[:, 4], 0))
        r = euler_to_quat(rot, order)                       # (T, n, 4)
        q = Q.multiply(pre, Q.multiply(r, post_inv))
        rp, roff, sp, soff = props[:, 5], props[:, 6], props[:, 7], props[:, 8]
        # The chain of ufbx's transform builder, from the scale pivot outwards.
        v = (-sp) * sca + sp + soff - rp                    # (T, n, 3)
        v0 = v
        v = _rotate(post_inv, v)
        v = _rotate(r, v)
        v = _rotate(pre, v)
        if rotation is not None:
            given = ~np.isnan(rotation[..., 0])
            q = np.where(given[..., None], rotation, q)
            v = np.where(given[..., None], _rotate(np.where(given[..., None], rotation, q), v0), v)
        translation = v + rp + roff + tr
        return LocalTransforms(times, translation, q, sca, rot, order)

    def world(self, local: LocalTransforms) -> np.ndarray:
        """World matrices ``(T, N, 4, 4)`` of all nodes from :meth:`local` of all nodes."""
        sc = self.scene
        return compose_matrices(sc.node_parent, sc.node_inherit, sc.node_scale_node,
                                local.translation, local.rotation, local.scale, self._levels)


def _rotate(q: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``q v q*`` for unit quaternions (w, x, y, z), broadcasting, without normalizing."""
    w = q[..., :1]
    u = q[..., 1:]
    uv = np.cross(u, v)
    return v + 2.0 * (w * uv + np.cross(u, uv))


def _trs(t, q, s) -> np.ndarray:
    m = np.zeros(t.shape[:-1] + (4, 4))
    m[..., :3, :3] = Q.to_matrix(q) * s[..., None, :]
    m[..., :3, 3] = t
    m[..., 3, 3] = 1.0
    return m


def compose_matrices(parent, inherit, scale_node, t, q, s, levels=None) -> np.ndarray:
    """World matrices ``(T, N, 4, 4)`` from local TRS ``(T, N, ...)`` with ufbx's inherit modes.

    Mode 0 composes ``parent_world @ local``; the others start from the
    parent's world matrix without its scale, scale the translation by the
    parent's inherited scale and the scale by that of ``scale_node``.
    Composed one depth level at a time (``levels``: :func:`_levels` of
    ``parent``, made when not given).
    """
    T, n = t.shape[:2]
    parent = np.asarray(parent, dtype=np.int64)
    normal = np.asarray(inherit) == 0
    world = np.empty((T, n, 4, 4))
    unscaled = np.empty((T, n, 4, 4))
    inherit_scale = np.ones((T, n, 3))
    for level in (_levels(parent) if levels is None else levels):
        p = parent[level]
        ti, qi, si = t[:, level], q[:, level], s[:, level]
        if p[0] < 0:                                  # the roots
            world[:, level] = _trs(ti, qi, si)
            unscaled[:, level] = _trs(ti, qi, np.ones_like(si))
            inherit_scale[:, level] = si
            continue
        odd = ~normal[level]
        if odd.any():
            sn = np.asarray(scale_node)[level]
            from_node = np.where((sn >= 0)[None, :, None], inherit_scale[:, np.maximum(sn, 0)],
                                 1.0)
            si = np.where(odd[None, :, None], si * from_node, si)
            ti = np.where(odd[None, :, None], ti * inherit_scale[:, p], ti)
        base = np.where(odd[None, :, None, None], unscaled[:, p], world[:, p])
        world[:, level] = base @ _trs(ti, qi, si)
        unscaled[:, level] = base @ _trs(ti, qi, np.ones_like(si))
        inherit_scale[:, level] = si
    return world


def _levels(parent) -> list[np.ndarray]:
    """Nodes by depth, roots first (each level's parents are in earlier levels)."""
    order = _parents_first(parent)
    depth = np.zeros(len(parent), dtype=np.int64)
    for i in order:
        depth[i] = depth[int(parent[i])] + 1 if parent[i] >= 0 else 0
    return [np.flatnonzero(depth == d) for d in range(int(depth.max()) + 1)] if len(depth) else []


def _parents_first(parent) -> list[int]:
    depth = np.zeros(len(parent), dtype=np.int64)
    for i in range(len(parent)):
        j, d = int(parent[i]), 0
        while j >= 0 and d <= len(parent):
            d += 1
            j = int(parent[j])
        depth[i] = d
    return [int(i) for i in np.argsort(depth, kind="stable")]
