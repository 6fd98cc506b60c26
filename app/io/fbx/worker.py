"""The FBX loader's child process: ufbx reads the bytes on stdin, plain arrays go to stdout.

Run by :mod:`quatlab.app.io.fbx.loader` as ``python -I worker.py LIMITS_JSON``,
never imported by the app for its work (importing it has no effect and does
not import ufbx). The ``ufbx`` binding (0.0.5) can crash the interpreter
(docs/formats.md, "FBX"), so it only ever runs here; the parent turns a
death into one line naming the file. This script imports nothing of
QuatLab (``-I`` keeps the app's folders off ``sys.path``): numpy, ufbx and
the standard library.

Protocol: stdin holds the FBX file's bytes (already read by the parent's
safe reader); ``argv[1]`` is a JSON object of limits and requests
(``memory_bytes``, ``node_depth``, ``max_keys``, ``max_vertices``,
``eval_times``); on success the process writes one ``.npz`` archive
(numpy's format, no pickles) to stdout and exits 0. A problem ufbx reports
is one line on stderr and exit status :data:`EXIT_REFUSED`.

The binding hands out each scene element (node, layer, curve...) from a
cache without counting the reference it returns, so an element read twice
from a list is freed while the cache still points at it (the segfault of
docs/formats.md). Every element this script touches goes through
:func:`pin`, which adds the missing reference; the process never frees the
scene and leaves with ``os._exit``.
"""

from __future__ import annotations

import ctypes
import gc
import io
import json
import os
import sys

EXIT_REFUSED = 3
#: FBX versions read (6.0 to 7.x; ufbx reads both, and the 7.x files of 2011-2020 exporters).
MIN_VERSION, MAX_VERSION = 6000, 7999

#: Node properties read as vectors, in the order of the ``node_props`` array.
VECTOR_PROPS = ("Lcl Translation", "Lcl Rotation", "Lcl Scaling", "PreRotation",
                "PostRotation", "RotationPivot", "RotationOffset", "ScalingPivot",
                "ScalingOffset")
#: Animated properties kept (others, e.g. Visibility, are not transforms).
ANIMATED_PROPS = ("Lcl Translation", "Lcl Rotation", "Lcl Scaling", "RotationOrder", "Weight")


class Refused(Exception):
    """A limit this worker enforces itself: a code and its values (the parent words them)."""

    def __str__(self) -> str:
        return json.dumps(list(self.args))


def pin(obj):
    """Add the reference the binding forgot, so the element outlives every read of it."""
    if obj is not None:
        _incref(obj)
    return obj


def _items(seq) -> list:
    return [pin(seq[i]) for i in range(len(seq))]


def _set_memory_limit(limit: int) -> None:
    try:
        import resource  # noqa: PLC0415 - not on Windows
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _matrix(m, np):
    """A ufbx Matrix (four column Vec3s) as a 4x4 array acting on column vectors."""
    out = np.eye(4)
    out[:3, :4] = np.array([tuple(c) for c in m], dtype=np.float64).T
    return out


def _vec3(props, name, default):
    prop = pin(props.find_prop(name))
    return tuple(prop.value_vec4)[:3] if prop is not None else default


def extract(data: bytes, opts: dict) -> dict:
    """Load ``data`` with ufbx and return the arrays of the scene (module docs)."""
    import numpy as np  # noqa: PLC0415
    import ufbx  # noqa: PLC0415

    load = {"ignore_embedded": True, "load_external_files": False, "retain_dom": True,
            "node_depth_limit": int(opts.get("node_depth", 256))}
    scene = pin(ufbx.load_memory(data, **load))
    meta = pin(scene.metadata)
    settings = pin(scene.settings)
    if not MIN_VERSION <= int(meta.version) <= MAX_VERSION:
        # ufbx reads a header of 9999 as a 7.x file; no such FBX exists.
        raise Refused("version", {"version": int(meta.version)})
    info = {
        "version": int(meta.version), "ascii": bool(meta.ascii), "creator": str(meta.creator),
        "fps": float(settings.frames_per_second), "ktime_second": int(meta.ktime_second),
        "unit_meters": float(settings.unit_meters),
        "warnings": [str(pin(w).description) for w in _items(meta.warnings)][:20],
    }
    max_keys = int(opts.get("max_keys", 50_000_000))
    max_vertices = int(opts.get("max_vertices", 20_000_000))

    # ---- nodes (ufbx's synthetic root is left out: its children are our roots)
    all_nodes = _items(scene.nodes)
    root = pin(scene.root_node)
    nodes = [n for n in all_nodes if n.element_id != root.element_id]
    index = {n.element_id: i for i, n in enumerate(nodes)}
    n_nodes = len(nodes)
    parent = np.full(n_nodes, -1, dtype=np.int64)
    scale_node = np.full(n_nodes, -1, dtype=np.int64)
    order = np.zeros(n_nodes, dtype=np.int64)
    inherit = np.zeros(n_nodes, dtype=np.int64)
    kind = np.zeros(n_nodes, dtype=np.int64)
    props = np.zeros((n_nodes, len(VECTOR_PROPS), 3))
    geometry = np.tile(np.eye(4), (n_nodes, 1, 1))
    rest_local = np.tile(np.eye(4), (n_nodes, 1, 1))
    names = []
    defaults = {"Lcl Scaling": (1.0, 1.0, 1.0)}
    for i, n in enumerate(nodes):
        names.append(str(n.name))
        p = pin(n.parent)
        parent[i] = index.get(p.element_id, -1) if p is not None else -1
        s = pin(n.inherit_scale_node)
        scale_node[i] = index.get(s.element_id, -1) if s is not None else -1
        order[i] = int(n.rotation_order)
        inherit[i] = int(n.inherit_mode)
        kind[i] = int(n.attrib_type)
        node_props = pin(n.props)
        for k, name in enumerate(VECTOR_PROPS):
            props[i, k] = _vec3(node_props, name, defaults.get(name, (0.0, 0.0, 0.0)))
        geometry[i] = _matrix(n.geometry_to_node, np)
        rest_local[i] = _matrix(n.node_to_parent, np)
        if n.has_adjust_transform:
            raise Refused("adjust", {})

    # ---- animation: stacks, layers, animated properties, curves
    stacks = _items(scene.anim_stacks)
    layers = _items(scene.anim_layers)
    layer_index = {lay.element_id: i for i, lay in enumerate(layers)}
    stack_range = np.array([[s.time_begin, s.time_end] for s in stacks],
                           dtype=np.float64).reshape(-1, 2)
    stack_layers = [[layer_index[pin(lay).element_id] for lay in _items(s.layers)]
                    for s in stacks]
    layer_weight = np.array([lay.weight for lay in layers], dtype=np.float64)
    layer_flags = np.array([[lay.weight_is_animated, lay.blended, lay.additive,
                             lay.compose_rotation, lay.compose_scale] for lay in layers],
                           dtype=bool).reshape(-1, 5)
    curves: list = []
    curve_index: dict[int, int] = {}
    prop_rows = []       # (layer, target node or -2 for the layer, property)
    prop_default = []
    prop_curves = []
    for li, lay in enumerate(layers):
        for ap in _items(lay.anim_props):
            name = str(ap.prop_name)
            if name not in ANIMATED_PROPS:
                continue
            element = pin(ap.element)
            if element is None:
                continue
            if element.element_id == lay.element_id:
                target = -2
            elif element.element_id in index:
                target = index[element.element_id]
            else:
                continue
            value = pin(ap.anim_value)
            if value is None:
                continue
            ids = []
            for c in (pin(x) for x in value.curves):
                if c is None:
                    ids.append(-1)
                    continue
                if c.element_id not in curve_index:
                    curve_index[c.element_id] = len(curves)
                    curves.append(c)
                ids.append(curve_index[c.element_id])
            prop_rows.append((li, target, ANIMATED_PROPS.index(name)))
            prop_default.append(tuple(value.default_value))
            prop_curves.append(ids)
    counts = [len(c.keyframes) for c in curves]
    if sum(counts) > max_keys:
        raise Refused("keys", {"n": sum(counts), "limit": max_keys})
    key_start = np.concatenate([[0], np.cumsum(counts, dtype=np.int64)]).astype(np.int64)
    keys = np.zeros((int(key_start[-1]), 7))  # time, value, interpolation, left dx dy, right
    extrap = np.zeros((len(curves), 4), dtype=np.int64)  # pre mode, count, post mode, count
    ktime = float(meta.ktime_second)
    for ci, c in enumerate(curves):
        fast = None if opts.get("slow_keys") else _linear_keys(c, ktime, np)
        if fast is not None and len(fast) == counts[ci]:
            keys[key_start[ci]:key_start[ci + 1]] = fast
            continue
        rows = [(k.time, k.value, int(k.interpolation), k.left.dx, k.left.dy, k.right.dx,
                 k.right.dy) for k in c.keyframes]
        if rows:
            keys[key_start[ci]:key_start[ci + 1]] = rows
        pre, post = c.pre_extrapolation, c.post_extrapolation
        extrap[ci] = (int(pre.mode), int(pre.repeat_count), int(post.mode),
                      int(post.repeat_count))

    # ---- meshes placed at nodes, and their skins
    mesh_rows = []       # node, first vertex, first triangle, skin deformer (-1), method
    mesh_order = []      # (mesh element id, first vertex) of each row, for the evaluation
    positions, triangles = [], []
    clusters = []        # mesh row, bone node, geometry_to_bone (16)
    influence_start, influence_cluster, influence_weight, dq_weight = [0], [], [], []
    n_vertices = 0
    for mesh in _items(scene.meshes):
        verts = np.array(mesh.vertices, dtype=np.float64).reshape(-1, 3)
        n_vertices += len(verts)
        if n_vertices > max_vertices:
            raise Refused("vertices", {"limit": max_vertices})
        corner = np.array(mesh.vertex_indices, dtype=np.int64)
        faces = np.array(mesh.faces, dtype=np.int64).reshape(-1, 2)
        tris = _fan(faces, corner, np)
        skins = _items(mesh.skin_deformers)
        for inst in _items(mesh.instances):
            if inst.element_id not in index:
                continue
            row = len(mesh_rows)
            first_v = sum(len(p) for p in positions)
            method = -1
            if skins:
                skin = skins[0]
                method = int(skin.skinning_method)
                cl = _items(skin.clusters)
                base = len(clusters)
                for c in cl:
                    bone = pin(c.bone_node)
                    clusters.append((row, index.get(bone.element_id, -1) if bone else -1,
                                     _matrix(c.geometry_to_bone, np)))
                sv = list(skin.vertices)
                weights = list(skin.weights)
                dq = np.array(skin.dq_weights, dtype=np.float64) if skin.num_dq_weights else None
                dq_vertices = (np.array(skin.dq_vertices, dtype=np.int64)
                               if skin.num_dq_weights else None)
                per_vertex_dq = np.zeros(len(verts))
                if dq is not None and len(dq_vertices):
                    per_vertex_dq[dq_vertices[dq_vertices < len(verts)]] = dq[
                        dq_vertices < len(verts)]
                for v in range(len(verts)):
                    if v < len(sv):
                        begin, count = int(sv[v].weight_begin), int(sv[v].num_weights)
                        for w in weights[begin:begin + count]:
                            influence_cluster.append(base + int(w.cluster_index))
                            influence_weight.append(float(w.weight))
                    influence_start.append(len(influence_cluster))
                dq_weight.append(per_vertex_dq)
            else:
                influence_start.extend([influence_start[-1]] * len(verts))
                dq_weight.append(np.zeros(len(verts)))
            mesh_order.append((mesh.element_id, first_v))
            mesh_rows.append((index[inst.element_id], first_v,
                              sum(len(t) for t in triangles), method))
            positions.append(verts)
            triangles.append(tris)

    arrays = {
        "node_parent": parent, "node_scale_node": scale_node, "node_order": order,
        "node_inherit": inherit, "node_kind": kind, "node_props": props,
        "node_geometry": geometry, "node_rest_local": rest_local,
        "stack_range": stack_range,
        "stack_layer_start": np.concatenate(
            [[0], np.cumsum([len(x) for x in stack_layers], dtype=np.int64)]).astype(np.int64),
        "stack_layers": np.array([i for x in stack_layers for i in x], dtype=np.int64),
        "layer_weight": layer_weight, "layer_flags": layer_flags,
        "prop_rows": np.array(prop_rows, dtype=np.int64).reshape(-1, 3),
        "prop_default": np.array(prop_default, dtype=np.float64).reshape(-1, 3),
        "prop_curves": np.array(prop_curves, dtype=np.int64).reshape(-1, 3),
        "curve_key_start": key_start, "keys": keys, "curve_extrapolation": extrap,
        "mesh_rows": np.array(mesh_rows, dtype=np.int64).reshape(-1, 4),
        "mesh_positions": (np.concatenate(positions) if positions else np.zeros((0, 3))),
        "mesh_triangles": (np.concatenate(triangles) if triangles
                           else np.zeros((0, 3), dtype=np.int64)),
        "cluster_mesh": np.array([c[0] for c in clusters], dtype=np.int64),
        "cluster_bone": np.array([c[1] for c in clusters], dtype=np.int64),
        "cluster_geometry_to_bone": (np.array([c[2] for c in clusters]).reshape(-1, 4, 4)),
        "influence_start": np.array(influence_start, dtype=np.int64),
        "influence_cluster": np.array(influence_cluster, dtype=np.int64),
        "influence_weight": np.array(influence_weight, dtype=np.float64),
        "vertex_dq_weight": (np.concatenate(dq_weight) if dq_weight else np.zeros(0)),
    }
    info["node_names"] = names
    info["stack_names"] = [str(s.name) for s in stacks]
    info["layer_names"] = [str(lay.name) for lay in layers]
    times = opts.get("eval_times")
    if times:
        arrays["eval_local"], arrays["eval_world"], arrays["eval_skinned"] = _evaluate(
            scene, stacks, nodes, times, np, mesh_order, len(arrays["mesh_positions"]))
    arrays["info"] = np.frombuffer(json.dumps(info).encode("utf-8"), dtype=np.uint8)
    return arrays


# ufbx's key attribute flags (ufbx.c, UFBXI_KEY_*).
_KEY_CONSTANT, _KEY_LINEAR, _KEY_CUBIC, _KEY_CONSTANT_NEXT = 0x2, 0x4, 0x8, 0x100


def _linear_keys(curve, ktime: float, np):
    """A curve's keys ``(k, 7)`` read from its raw arrays when every key is linear or constant.

    The binding builds three Python objects per key (most of a large file's
    reading time); the raw arrays come as buffers. The tangents follow
    ufbx's reader (``ufbxi_read_animation_curve``) for these two modes:
    weights of 0.333333, slopes of the linear segments (0 for constant
    ones), in float32 as ufbx stores them. None when a key is cubic or the
    arrays are not as ufbx requires: the caller then reads the keys one by one.
    """
    dom = pin(curve.dom_node)
    if dom is None:
        return None
    parts = [pin(dom.find(name)) for name in ("KeyTime", "KeyValueFloat", "KeyAttrFlags",
                                              "KeyAttrRefCount")]
    if any(p is None for p in parts):
        return None
    ticks = np.array(list(parts[0].as_int64_list()), dtype=np.int64)
    values = np.array(parts[1].as_real_list(), dtype=np.float64)
    flags = np.array(parts[2].as_int32_list(), dtype=np.int64)
    refs = np.array(parts[3].as_int32_list(), dtype=np.int64)
    n = len(ticks)
    if (n == 0 or len(values) != n or len(flags) != len(refs) or (refs <= 0).any()
            or refs.sum() < n):
        return None
    per_key = np.repeat(flags, refs)[:n]
    constant = (per_key & _KEY_CONSTANT) != 0
    if ((per_key & _KEY_CUBIC) != 0)[~constant].any():
        return None
    f32 = np.float32
    t = ticks.astype(np.float64) / ktime
    nxt = np.append(t[1:], t[-1])                  # ufbx keeps the last key's own time
    gap = nxt - t
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = np.where(gap > 0.0, (np.append(values[1:], values[-1]) - values) / gap, 0.0)
    slope_right = np.where(constant, 0.0, slope).astype(f32)
    slope_left = np.concatenate([[0.0], slope_right[:-1]]).astype(f32)
    weight = f32(0.333333)
    prev = np.concatenate([[0.0], t[:-1]])         # ufbx starts with a previous time of 0
    left_dx = np.where(t > prev, (np.float64(weight) * (t - prev)).astype(f32), f32(0.0))
    right_dx = np.where(gap > 0.0, (np.float64(weight) * gap).astype(f32), f32(0.0))
    out = np.empty((n, 7))
    out[:, 0] = t
    out[:, 1] = values
    out[:, 2] = np.where(constant, np.where((per_key & _KEY_CONSTANT_NEXT) != 0, 1, 0), 2)
    out[:, 3] = left_dx
    out[:, 4] = (left_dx * slope_left).astype(f32)
    out[:, 5] = right_dx
    out[:, 6] = (right_dx * slope_right).astype(f32)
    return out


def _fan(faces, corner, np):
    """Triangles ``(T, 3)`` of vertex indices: each polygon ``(first corner, count)`` as a fan."""
    counts = faces[:, 1]
    keep = counts >= 3
    faces = faces[keep]
    n_tri = faces[:, 1] - 2
    if not len(faces):
        return np.zeros((0, 3), dtype=np.int64)
    face = np.repeat(np.arange(len(faces)), n_tri)
    k = np.arange(int(n_tri.sum())) - np.repeat(np.cumsum(n_tri) - n_tri, n_tri)
    first = faces[face, 0]
    tri = np.stack([first, first + k + 1, first + k + 2], axis=1)
    if len(corner) and tri.max() >= len(corner):
        raise Refused("face", {})
    return corner[tri]


def _evaluate(scene, stacks, nodes, times, np, mesh_order, n_vertices):
    """The loader's own evaluation at ``times`` in every clip, for tests.

    ``(S, T, N, 10)`` local transforms (translation, rotation x y z w, scale)
    from ``evaluate_transform``, ``(S, T, N, 4, 4)`` world matrices of the
    scene ufbx evaluates, and ``(S, T, V, 3)`` its skinned vertex positions
    in world space (NaN for meshes ufbx leaves in their own space).
    """
    local = np.zeros((len(stacks), len(times), len(nodes), 10))
    world = np.zeros((len(stacks), len(times), len(nodes), 4, 4))
    skinned = np.full((len(stacks), len(times), n_vertices, 3), np.nan)
    ids = [n.element_id for n in nodes]
    for si, stack in enumerate(stacks):
        anim = pin(stack.anim)
        for ti, t in enumerate(times):
            for ni, n in enumerate(nodes):
                tr = n.evaluate_transform(anim, float(t))
                local[si, ti, ni] = (*tr.translation, *tr.rotation, *tr.scale)
            state = pin(scene.evaluate(anim, float(t), evaluate_skinning=True))
            by_id = {m.element_id: m for m in _items(state.nodes)}
            for ni, eid in enumerate(ids):
                world[si, ti, ni] = _matrix(by_id[eid].node_to_world, np)
            meshes = {m.element_id: m for m in _items(state.meshes)}
            for eid, first in mesh_order:
                m = meshes.get(eid)
                if m is None or m.skinned_is_local:
                    continue
                values = np.array(pin(m.skinned_position).values, dtype=np.float64)
                skinned[si, ti, first:first + len(values)] = values.reshape(-1, 3)
    return local, world, skinned


def main(argv: list[str]) -> None:
    # The binding's objects may hold references it never counted; the cyclic
    # collector would walk them (a segfault seen after evaluating skinned
    # scenes). Reference counting alone frees what this short process drops.
    gc.disable()
    opts = json.loads(argv[1]) if len(argv) > 1 else {}
    _set_memory_limit(int(opts.get("memory_bytes", 2 << 30)))
    data = sys.stdin.buffer.read()
    try:
        arrays = extract(data, opts)
    except MemoryError:
        sys.stderr.write("MemoryError: \n")
        sys.stderr.flush()
        os._exit(EXIT_REFUSED)
    except Exception as exc:  # noqa: BLE001 - ufbx raises its own classes; all become one line
        # "ClassName: message": the parent words the ufbx error classes it knows.
        text = " ".join(str(exc).split())
        sys.stderr.write(f"{type(exc).__name__}: {text}\n")
        sys.stderr.flush()
        os._exit(EXIT_REFUSED)
    import numpy as np  # noqa: PLC0415

    buf = io.BytesIO()
    np.savez(buf, **arrays)
    sys.stdout.buffer.write(buf.getvalue())
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    _incref = ctypes.pythonapi.Py_IncRef
    _incref.argtypes = [ctypes.py_object]
    _incref.restype = None
    main(sys.argv)
