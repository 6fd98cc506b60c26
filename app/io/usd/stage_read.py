"""Read a USD stage into plain arrays: skeletons, animations, meshes, transform ops (child only).

:func:`load` is the worker's ``"load"`` operation. It checks and opens the layer
stack (:func:`~quatlab.app.io.usd.composition.open_layers`), composes the stage,
and returns what :mod:`quatlab.app.io.usd.scene` rebuilds in the parent:

* stage metadata: ``timeCodesPerSecond``, start and end time codes, ``metersPerUnit``,
  ``upAxis``, the interpolation the stage was opened with (``"linear"``, usd-core's
  default, or ``"held"``);
* every ``Skeleton``: joint paths, parents (``UsdSkelTopology``), rest transforms
  (joint-local) and bind transforms (skeleton space), its world matrix, and the
  ``SkelAnimation`` bound to it (``UsdSkelSkeletonQuery``) with the map from the
  animation's joint order to the skeleton's;
* every ``SkelAnimation``: its rotations, translations and scales at every time
  sample of each attribute, exactly as stored (quaternions turned from usd-core's
  (i, j, k, real) memory order into (w, x, y, z));
* every ``Mesh``: points, triangles (polygons fanned, left-handed ones reversed),
  and for the meshes a skeleton drives (``UsdSkelBinding``) the joint influences
  remapped to the skeleton's joint order, with the ``geomBindTransform`` applied to
  the points; the others with their world matrix;
* transform animation: each prim whose op stack has a time-sampled rotation op
  (``xformOp:orient`` or a ``rotate*`` op), with the ops before and after it.

Matrices are returned for column vectors (usd-core's row-vector matrices transposed).
"""

from __future__ import annotations

import os

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.io.usd import composition as C
from quatlab.app.io.usd.worker import WorkerError

__all__ = ["load", "open_stage", "ROTATE_OPS"]

#: Euler rotate ops and the order of application their name spells (X first for rotateXYZ).
ROTATE_OPS = {"rotateX": "x", "rotateY": "y", "rotateZ": "z", "rotateXYZ": "xyz",
              "rotateXZY": "xzy", "rotateYXZ": "yxz", "rotateYZX": "yzx", "rotateZXY": "zxy",
              "rotateZYX": "zyx"}


def open_stage(path, interpolation: str = "linear"):
    """The composed stage of the file at ``path`` after its layers were checked, and the layers."""
    from pxr import Ar, Usd  # noqa: PLC0415 - child process only

    if hasattr(Ar, "DefaultResolver"):
        Ar.DefaultResolver.SetDefaultSearchPath([])
    layers = C.open_layers(path)
    stage = Usd.Stage.Open(layers.root, Usd.Stage.LoadAll)
    if stage is None:
        raise WorkerError(_("usd-core cannot compose it"))
    C.check_used_layers(stage, layers)
    if interpolation == "held":
        stage.SetInterpolationType(Usd.InterpolationTypeHeld)
    return stage, layers


def _col(m) -> np.ndarray:
    """A usd-core matrix (row vectors) as a float64 ``(4, 4)`` for column vectors."""
    return np.array(m, dtype=np.float64).reshape(4, 4).T


def _cols(ms) -> np.ndarray:
    arr = np.array(ms, dtype=np.float64).reshape(-1, 4, 4)
    return np.ascontiguousarray(arr.transpose(0, 2, 1))


def _quat_wxyz(stored: np.ndarray) -> np.ndarray:
    """usd-core's (i, j, k, real) arrays as float64 (w, x, y, z)."""
    a = np.asarray(stored, dtype=np.float64)
    return a[..., [3, 0, 1, 2]]


class _Reader:
    def __init__(self, stage, layers):
        from pxr import Usd, UsdGeom  # noqa: PLC0415

        self.stage = stage
        self.layers = layers
        self.t0 = Usd.TimeCode.EarliestTime()
        self.xf_cache = UsdGeom.XformCache(self.t0)
        self.data: dict = {"skeletons": [], "animations": [], "meshes": [], "xforms": [],
                           "notes": []}
        self.arrays: dict[str, np.ndarray] = {}
        self._anim_index: dict[str, int] = {}

    def note(self, text: str) -> None:
        if len(self.data["notes"]) < 200:
            self.data["notes"].append(text)

    # ---------------------------------------------------------------- metadata
    def meta(self, interpolation: str) -> None:
        from pxr import UsdGeom  # noqa: PLC0415

        st = self.stage
        root = self.layers.root
        self.data["meta"] = {
            "time_codes_per_second": float(st.GetTimeCodesPerSecond()),
            "frames_per_second": float(st.GetFramesPerSecond()),
            "start": float(st.GetStartTimeCode()) if st.HasAuthoredTimeCodeRange() else None,
            "end": float(st.GetEndTimeCode()) if st.HasAuthoredTimeCodeRange() else None,
            "meters_per_unit": float(UsdGeom.GetStageMetersPerUnit(st)),
            "up_axis": str(UsdGeom.GetStageUpAxis(st)),
            "interpolation": interpolation,
            "default_prim": str(root.defaultPrim) if root.defaultPrim else None,
            "root_format": root.GetFileFormat().formatId,
            "layers": [C.relative_name(f, self.layers.folder) for f in self.layers.files],
            "root_layer": root.identifier,
        }

    # ---------------------------------------------------------------- samples
    def samples(self, attr, what: str, width: int, count: int | None):
        """``(times, values (S, n, width), type name)`` of an array attribute; None if unset."""
        times = [float(t) for t in attr.GetTimeSamples()]
        type_name = _authored_type(attr)
        values = []
        kept = []
        if not times:
            value = attr.Get()
            if value is None:
                return None
            times, raw = [None], [value]
        else:
            raw = [attr.Get(t) for t in times]
        for t, v in zip(times, raw, strict=True):
            if v is None:
                self.note(_("{attr}: the sample at time code {time} is blocked; skipped").format(
                    attr=what, time=t))
                continue
            arr = np.asarray(v)
            if arr.ndim != 2 or arr.shape[1] != width or (count is not None and len(arr) != count):
                raise WorkerError(_(
                    "{attr}: the value at time code {time} has shape {shape}, expected ({n}, "
                    "{width}) for the animation's joints").format(
                        attr=what, time="default" if t is None else f"{t:g}",
                        shape=tuple(arr.shape), n=count, width=width))
            values.append(arr)
            kept.append(t)
        if not values:
            return None
        stack = np.stack(values)
        return kept, stack, type_name

    # ---------------------------------------------------------------- skeletons
    def skeletons(self) -> None:
        from pxr import Usd, UsdSkel  # noqa: PLC0415

        cache = UsdSkel.Cache()
        prims = list(Usd.PrimRange.Stage(self.stage, Usd.TraverseInstanceProxies()))
        for prim in prims:
            if prim.IsA(UsdSkel.Root):
                cache.Populate(UsdSkel.Root(prim), Usd.TraverseInstanceProxies())
        skel_index: dict[str, int] = {}
        for prim in prims:
            if not prim.IsA(UsdSkel.Skeleton):
                continue
            skel = UsdSkel.Skeleton(prim)
            query = cache.GetSkelQuery(skel)
            tokens = [str(t) for t in (skel.GetJointsAttr().Get() or [])]
            i = len(self.data["skeletons"])
            skel_index[str(prim.GetPath())] = i
            entry = {"path": str(prim.GetPath()), "joints": tokens,
                     "names": [t.rsplit("/", 1)[-1] for t in tokens], "animation": None,
                     "anim_map": None}
            if query:
                parents = [int(p) for p in query.GetTopology().GetParentIndices()]
            else:
                topo = UsdSkel.Topology(tokens)
                parents = [int(p) for p in topo.GetParentIndices()]
            ok, why = UsdSkel.Topology(tokens).Validate()
            if not ok:
                raise WorkerError(_("{skel}: the joints do not form a hierarchy: {why}").format(
                    skel=prim.GetPath(), why=why))
            entry["parents"] = parents
            n = len(tokens)
            rest = skel.GetRestTransformsAttr().Get()
            bind = skel.GetBindTransformsAttr().Get()
            if bind is None or len(bind) != n:
                raise WorkerError(_("{skel}: bindTransforms must hold one matrix per joint "
                                    "({n})").format(skel=prim.GetPath(), n=n))
            if rest is None or len(rest) != n:
                # UsdSkel's fallback: the rest pose is the bind pose made joint-local.
                self.note(_("{skel}: no restTransforms; the bind pose is used").format(
                    skel=prim.GetPath()))
                bind_c = _cols(bind)
                rest_c = bind_c.copy()
                for j, p in enumerate(parents):
                    if p >= 0:
                        rest_c[j] = np.linalg.solve(bind_c[p], bind_c[j])
            else:
                rest_c = _cols(rest)
            self.arrays[f"skel{i}_rest"] = rest_c
            self.arrays[f"skel{i}_bind"] = _cols(bind)
            self.arrays[f"skel{i}_world"] = _col(self.xf_cache.GetLocalToWorldTransform(prim))
            anim_query = query.GetAnimQuery() if query else None
            if anim_query:
                a = self.animation(anim_query.GetPrim())
                if a is not None:
                    entry["animation"] = a
                    # UsdSkel reads the components with the schema's types (quatf[],
                    # float3[], half3[]); with any other it drops the whole animation and
                    # the skeleton keeps its rest pose. Ask it, and play what it plays.
                    times = anim_query.GetJointTransformTimeSamples() or [self.t0]
                    if not len(anim_query.ComputeJointLocalTransforms(times[0])):
                        entry["ignored"] = True
                        self.note(_(
                            "{anim}: usd-core's UsdSkel cannot evaluate this animation (a "
                            "component is missing or stored with another type than the "
                            "schema's quatf[], float3[], half3[]), so {skel} stays in its rest "
                            "pose in USD; its keys are audited all the same").format(
                                anim=anim_query.GetPrim().GetPath(), skel=prim.GetPath()))
                    index = {t: k for k, t in enumerate(tokens)}
                    anim_tokens = self.data["animations"][a]["joints"]
                    entry["anim_map"] = [index.get(t, -1) for t in anim_tokens]
            self.data["skeletons"].append(entry)
        self._skel_index = skel_index
        self._cache = cache
        self._prims = prims

    def animation(self, prim) -> int | None:
        from pxr import UsdSkel  # noqa: PLC0415

        key = str(prim.GetPath())
        if key in self._anim_index:
            return self._anim_index[key]
        anim = UsdSkel.Animation(prim)
        tokens = [str(t) for t in (anim.GetJointsAttr().Get() or [])]
        n = len(tokens)
        a = len(self.data["animations"])
        entry = {"path": key, "joints": tokens, "names": [t.rsplit("/", 1)[-1] for t in tokens]}
        for part, attr, width in (("rotations", anim.GetRotationsAttr(), 4),
                                  ("translations", anim.GetTranslationsAttr(), 3),
                                  ("scales", anim.GetScalesAttr(), 3)):
            got = self.samples(attr, f"{key}.{part}", width, n)
            if got is None:
                entry[part] = None
                continue
            times, values, type_name = got
            values = _quat_wxyz(values) if part == "rotations" else values.astype(np.float64)
            entry[part] = {"type": type_name, "default": times[0] is None,
                           "layer": self._authored_in(attr)}
            self.arrays[f"anim{a}_{part}_times"] = np.array(
                [0.0] if times[0] is None else times, dtype=np.float64)
            self.arrays[f"anim{a}_{part}"] = values
        self.data["animations"].append(entry)
        self._anim_index[key] = a
        return a

    def _authored_in(self, attr) -> str | None:
        """The identifier of the strongest layer holding the attribute's samples (or value)."""
        for spec in attr.GetPropertyStack():
            if spec.HasInfo("timeSamples") or spec.HasInfo("default"):
                return spec.layer.identifier
        return None

    # ---------------------------------------------------------------- meshes
    def meshes(self) -> None:
        from pxr import Usd, UsdGeom, UsdSkel  # noqa: PLC0415

        skinned: dict[str, tuple[int, object]] = {}
        for prim in self._prims:
            if not prim.IsA(UsdSkel.Root):
                continue
            for binding in self._cache.ComputeSkelBindings(UsdSkel.Root(prim),
                                                           Usd.TraverseInstanceProxies()):
                s = self._skel_index.get(str(binding.GetSkeleton().GetPrim().GetPath()))
                if s is None:
                    continue
                for sq in binding.GetSkinningTargets():
                    skinned[str(sq.GetPrim().GetPath())] = (s, sq)
        for prim in self._prims:
            if not prim.IsA(UsdGeom.Mesh):
                continue
            mesh = UsdGeom.Mesh(prim)
            key = str(prim.GetPath())
            points = mesh.GetPointsAttr().Get(self.t0)
            counts = mesh.GetFaceVertexCountsAttr().Get(self.t0)
            indices = mesh.GetFaceVertexIndicesAttr().Get(self.t0)
            if points is None or counts is None or indices is None or not len(points):
                continue
            pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
            tris = _triangles(np.asarray(counts, dtype=np.int64),
                              np.asarray(indices, dtype=np.int64), len(pts), key)
            if mesh.GetOrientationAttr().Get() == UsdGeom.Tokens.leftHanded:
                tris = tris[:, ::-1]
            m = len(self.data["meshes"])
            entry = {"path": key, "skeleton": None, "xform": None}
            if key in skinned:
                s, sq = skinned[key]
                entry["skeleton"] = s
                got = self._influences(sq, len(pts), s, key)
                if got is not None:
                    jidx, w = got
                    geom = _col(sq.GetGeomBindTransform(self.t0))
                    pts = pts @ geom[:3, :3].T + geom[:3, 3]
                    self.arrays[f"mesh{m}_joints"] = jidx
                    self.arrays[f"mesh{m}_weights"] = w
                    method = str(sq.GetSkinningMethod())
                    if method != "classicLinear":
                        self.note(_("{mesh}: skinned with {method}; drawn with linear blend "
                                    "skinning").format(mesh=key, method=method))
                else:
                    entry["skeleton"] = None
            if entry["skeleton"] is None:
                self.arrays[f"mesh{m}_world"] = _col(self.xf_cache.GetLocalToWorldTransform(prim))
            self.arrays[f"mesh{m}_points"] = pts
            self.arrays[f"mesh{m}_triangles"] = tris
            self.data["meshes"].append(entry)

    def _influences(self, sq, n_points: int, s: int, key: str):
        if not sq.HasJointInfluences():
            return None
        got = sq.ComputeVaryingJointInfluences(n_points, self.t0)
        if not got:
            self.note(_("{mesh}: its joint influences do not match its points; drawn "
                        "rigid").format(mesh=key))
            return None
        indices, weights = got
        k = int(sq.GetNumInfluencesPerComponent())
        jidx = np.asarray(indices, dtype=np.int64).reshape(n_points, k)
        w = np.asarray(weights, dtype=np.float64).reshape(n_points, k)
        order = sq.GetJointOrder()
        skel_tokens = self.data["skeletons"][s]["joints"]
        if order:
            index = {t: i for i, t in enumerate(skel_tokens)}
            remap = np.array([index.get(str(t), -1) for t in order], dtype=np.int64)
            ok = (jidx >= 0) & (jidx < len(remap))
            jidx = np.where(ok, remap[np.clip(jidx, 0, max(len(remap) - 1, 0))], -1)
        # usd-core skips an influence whose joint is out of range; so does the rig.
        bad = (jidx < 0) | (jidx >= len(skel_tokens))
        w = np.where(bad, 0.0, w)
        jidx = np.where(bad, 0, jidx)
        return jidx, w

    # ---------------------------------------------------------------- xform ops
    def xforms(self) -> None:
        from pxr import UsdGeom, UsdSkel  # noqa: PLC0415

        animated: dict[str, int] = {}
        for prim in self._prims:
            if not prim.IsA(UsdGeom.Xformable) or prim.IsA(UsdSkel.Skeleton):
                continue
            xf = UsdGeom.Xformable(prim)
            ops = xf.GetOrderedXformOps()
            rot = [k for k, op in enumerate(ops)
                   if op.GetNumTimeSamples() > 0 and _op_kind(op) is not None]
            if not rot:
                continue
            key = str(prim.GetPath())
            k = rot[0]
            op = ops[k]
            for other in rot[1:]:
                self.note(_("{prim}: only the first animated rotation op is a track; {op} is "
                            "drawn at its first sample").format(
                                prim=key, op=ops[other].GetOpName()))
            for j, o in enumerate(ops):
                if j != k and o.GetNumTimeSamples() > 0 and j not in rot:
                    self.note(_("{prim}: {op} is animated but drawn at its first sample").format(
                        prim=key, op=o.GetOpName()))
            kind, order = _op_kind(op)
            x = len(self.data["xforms"])
            pre = np.eye(4)
            for o in ops[:k]:
                pre = pre @ _col(o.GetOpTransform(self.t0))
            post = np.eye(4)
            for o in ops[k + 1:]:
                post = post @ _col(o.GetOpTransform(self.t0))
            parent_world = (np.eye(4) if xf.GetResetXformStack()
                            else _col(self.xf_cache.GetParentToWorldTransform(prim)))
            anchor = self._animated_ancestor(prim, animated)
            if anchor is not None:
                anchor_world = _col(self.xf_cache.GetLocalToWorldTransform(
                    self.stage.GetPrimAtPath(self.data["xforms"][anchor]["path"])))
                parent_world = np.linalg.solve(anchor_world, parent_world)
            attr = op.GetAttr()
            times = [float(t) for t in attr.GetTimeSamples()]
            type_name = _authored_type(attr)
            values = []
            for t in times:
                v = attr.Get(t)
                if hasattr(v, "GetReal"):  # one Gf quaternion: usd-core's (i, j, k, real) order
                    v = [*v.GetImaginary(), v.GetReal()]
                values.append(np.atleast_1d(np.asarray(v, dtype=np.float64)))
            vals = np.stack(values)
            if kind == "orient":
                vals = _quat_wxyz(vals)
            self.arrays[f"xf{x}_times"] = np.array(times, dtype=np.float64)
            self.arrays[f"xf{x}_values"] = vals
            self.arrays[f"xf{x}_pre"] = parent_world @ pre
            self.arrays[f"xf{x}_post"] = post
            self.data["xforms"].append({
                "path": key, "name": prim.GetName(), "op": op.GetOpName(), "kind": kind,
                "order": order, "type": type_name, "parent": anchor,
                "inverse": bool(op.IsInverseOp()), "layer": self._authored_in(attr)})
            animated[key] = x
        for m, entry in enumerate(self.data["meshes"]):
            if entry["skeleton"] is not None:
                continue
            prim = self.stage.GetPrimAtPath(entry["path"])
            anchor = self._animated_ancestor(prim, animated, include_self=True)
            if anchor is not None:
                anchor_world = _col(self.xf_cache.GetLocalToWorldTransform(
                    self.stage.GetPrimAtPath(self.data["xforms"][anchor]["path"])))
                self.arrays[f"mesh{m}_world"] = np.linalg.solve(
                    anchor_world, self.arrays[f"mesh{m}_world"])
                entry["xform"] = anchor

    def _animated_ancestor(self, prim, animated: dict[str, int], include_self=False):
        p = prim if include_self else prim.GetParent()
        while p and not p.IsPseudoRoot():
            hit = animated.get(str(p.GetPath()))
            if hit is not None:
                return hit
            p = p.GetParent()
        return None


def _authored_type(attr) -> str:
    """The type the strongest opinion is written with (``quath[]``), not the schema's.

    A ``SkelAnimation``'s ``rotations`` is ``quatf[]`` in the schema, and usd-core's
    ``GetTypeName`` says so even when the file stores ``quath[]``.
    """
    for spec in attr.GetPropertyStack():
        if spec.typeName:
            return str(spec.typeName)
    return str(attr.GetTypeName())


def _op_kind(op):
    """``("orient", None)``, ``("euler", "xyz")`` for a rotate op, or None."""
    from pxr import UsdGeom  # noqa: PLC0415

    name = str(UsdGeom.XformOp.GetOpTypeToken(op.GetOpType()))
    if name == "orient":
        return "orient", None
    if name in ROTATE_OPS:
        return "euler", ROTATE_OPS[name]
    return None


def _triangles(counts: np.ndarray, indices: np.ndarray, n_points: int, key: str) -> np.ndarray:
    """Polygons ``faceVertexCounts``/``faceVertexIndices`` fanned into triangles ``(T, 3)``."""
    if (counts < 0).any() or counts.sum() != len(indices):
        raise WorkerError(_("{mesh}: faceVertexCounts add up to {total}, but there are {n} "
                            "faceVertexIndices").format(mesh=key, total=int(counts.sum()),
                                                        n=len(indices)))
    if len(indices) and (indices.min() < 0 or indices.max() >= n_points):
        raise WorkerError(_("{mesh}: a face uses a point that does not exist").format(mesh=key))
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    keep = counts >= 3
    starts, counts = starts[keep], counts[keep]
    n_tri = counts - 2
    face = np.repeat(np.arange(len(counts)), n_tri)
    k = np.arange(int(n_tri.sum())) - np.repeat(np.cumsum(n_tri) - n_tri, n_tri)
    first = starts[face]
    tris = np.stack([indices[first], indices[first + k + 1], indices[first + k + 2]], axis=1)
    return tris.astype(np.int64).reshape(-1, 3)


def load(path, params: dict, arrays: dict) -> tuple[dict, dict]:
    """The worker's ``"load"``: everything of the module docs; ``params["interpolation"]``."""
    interpolation = params.get("interpolation", "linear")
    if interpolation not in ("linear", "held"):
        raise WorkerError(f"unknown interpolation {interpolation!r}")
    stage, layers = open_stage(os.fspath(path), interpolation)
    reader = _Reader(stage, layers)
    reader.meta(interpolation)
    reader.skeletons()
    if params.get("meshes", True):
        reader.meshes()
    reader.xforms()
    return reader.data, reader.arrays
