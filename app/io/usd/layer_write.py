"""Write a corrected USD copy or an override layer with usd-core (child process only).

The worker's ``"write_copy"`` and ``"write_layer"`` operations. Both receive, per
attribute to correct, the prim path, the attribute name, its USD type, the layer
its samples are authored in, and the new values at its time codes (quaternions in
usd-core's (i, j, k, real) order). Both check and open the layer stack again
(:func:`~quatlab.app.io.usd.composition.open_layers`) and never save a layer they
opened: edits stay in memory and the bytes go back to the parent, which publishes
them atomically (docs/formats.md, "USD: fixing").

* ``write_copy``: the samples are set in the layer that holds them, which must be
  the file's own layer (or a layer of its package) with the stage's time codes;
  the layer is exported in the output's encoding (``.usda`` text, ``.usdc``
  crate); a ``.usdz`` is repackaged with every member as it was except the
  corrected layers (:func:`~quatlab.app.io.usd.package.write_package`). No file
  from outside the asset enters the copy.
* ``write_layer``: a new layer that sublayers the original (by a relative path),
  copies the stage metadata, and holds ``over`` prims with only the corrected
  attributes, each with all its samples.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.io.usd import composition as C
from quatlab.app.io.usd import package as P
from quatlab.app.io.usd.stage_read import open_stage
from quatlab.app.io.usd.worker import WorkerError

__all__ = ["write_copy", "write_layer"]

_STAGE_METADATA = ("timeCodesPerSecond", "framesPerSecond", "startTimeCode", "endTimeCode",
                   "upAxis", "metersPerUnit", "defaultPrim")


def _vt_value(type_name: str, values: np.ndarray):
    """One sample's value as the Vt/Gf type ``type_name`` names."""
    from pxr import Sdf  # noqa: PLC0415

    vtype = Sdf.ValueTypeNames.Find(type_name)
    if not vtype:
        raise WorkerError(f"unknown USD type {type_name!r}")
    cls = vtype.type.pythonClass
    if type_name.endswith("[]"):
        return cls.FromNumpy(np.ascontiguousarray(values, dtype=_dtype(type_name)))
    v = np.asarray(values, dtype=np.float64).ravel()
    if len(v) == 1:
        return float(v[0])
    if type_name.startswith("quat"):
        return cls(float(v[3]), float(v[0]), float(v[1]), float(v[2]))
    return cls(*map(float, v))


def _dtype(type_name: str):
    base = type_name.rstrip("[]")
    if base.endswith("h"):
        return np.float16
    if base.endswith("d"):
        return np.float64
    return np.float32


def _export(layer, suffix: str, encoding: str | None = None) -> bytes:
    """The layer's bytes as ``.usda`` text or a ``.usdc`` crate (``.usd``: ``encoding``)."""
    if suffix == ".usda" or (suffix == ".usd" and encoding == "usda"):
        return layer.ExportToString().encode("utf-8")
    with tempfile.TemporaryDirectory(prefix="quatlab-usd-") as tmp:
        target = os.path.join(tmp, "layer" + suffix)
        ok = (layer.Export(target, args={"format": "usdc"}) if suffix == ".usd"
              else layer.Export(target))
        if not ok:
            raise WorkerError(_("usd-core could not write the layer"))
        with open(target, "rb") as f:
            return f.read()


def _encoding(path) -> str:
    """``"usdc"`` for a crate file (it starts with ``PXR-USDC``), else ``"usda"``."""
    with open(path, "rb") as f:
        return "usdc" if f.read(8) == b"PXR-USDC" else "usda"


def _edit_samples(stage, layer, spec_path, attr_name: str, item: dict, arrays: dict) -> None:
    values = arrays[item["array"]]
    times = arrays[item["array"] + "_times"]
    attr_path = spec_path.AppendProperty(attr_name)
    held = layer.ListTimeSamplesForPath(attr_path)
    if len(held) != len(times) or not np.allclose(held, times, rtol=0, atol=1e-9):
        raise WorkerError(_(
            "{prim}.{attr}: its samples sit at other time codes in {layer} (a layer offset); "
            "write an override layer instead (--as-layer)").format(
                prim=item["prim"], attr=attr_name, layer=os.path.basename(layer.identifier)))
    for t, v in zip(held, values, strict=True):
        layer.SetTimeSample(attr_path, t, _vt_value(item["type"], v))


def write_copy(path, params: dict, arrays: dict) -> tuple[dict, dict]:
    """The worker's ``"write_copy"`` (module docs): ``{"data": bytes of the copy}``."""
    stage, layers = open_stage(os.fspath(path))
    root = layers.root
    suffix = params["out_suffix"]
    is_package = os.fspath(path).lower().endswith(".usdz")
    external = [f for f in layers.files if os.path.abspath(f) != os.path.abspath(path)]
    if external and os.path.abspath(params["out_folder"]) != os.path.abspath(layers.folder):
        names = ", ".join(C.relative_name(f, layers.folder) for f in external[:3])
        raise WorkerError(_(
            "it refers to other files ({files}) by relative paths, which a copy in another "
            "folder would lose; write the copy beside it, or an override layer (--as-layer)"
        ).format(files=names))
    edited: dict[str, object] = {}
    for item in params["attrs"]:
        prim = stage.GetPrimAtPath(item["prim"])
        attr = prim.GetAttribute(item["attr"]) if prim else None
        if not attr:
            raise WorkerError(f"{item['prim']}.{item['attr']}: not found")
        spec = next((s for s in attr.GetPropertyStack() if s.HasInfo("timeSamples")), None)
        if spec is None:
            raise WorkerError(f"{item['prim']}.{item['attr']}: no time samples")
        layer = spec.layer
        ident = layer.identifier
        in_root_package = is_package and ident.startswith(os.fspath(root.identifier) + "[")
        if ident != root.identifier and not in_root_package:
            raise WorkerError(_(
                "{prim}.{attr} is authored in {layer}, not in the file itself; a copy would "
                "not hold the fix: write an override layer instead (--as-layer)").format(
                    prim=item["prim"], attr=item["attr"],
                    layer=C.relative_name(ident, layers.folder)))
        _edit_samples(stage, layer, spec.path.GetPrimPath(), item["attr"], item, arrays)
        edited[ident] = layer
    if not is_package:
        data = _export(root, suffix, _encoding(path))
        return {}, {"data": np.frombuffer(data, dtype=np.uint8)}
    members = []
    for k, (name, blob) in enumerate(P.read_members(path)):
        # The package's own layer is its first member.
        ident = root.identifier if k == 0 else P.member_path(root.identifier, name)
        layer = edited.get(ident)
        if layer is not None:
            member_suffix = Path(name).suffix.lower()
            blob = _export(layer, member_suffix, "usdc" if blob[:8] == b"PXR-USDC" else "usda")
        members.append((name, blob))
    data = P.write_package(members)
    return {}, {"data": np.frombuffer(data, dtype=np.uint8)}


def write_layer(path, params: dict, arrays: dict) -> tuple[dict, dict]:
    """The worker's ``"write_layer"`` (module docs): ``{"data": bytes of the override layer}``."""
    from pxr import Sdf, UsdGeom  # noqa: F401, PLC0415 - UsdGeom registers upAxis, metersPerUnit

    stage, layers = open_stage(os.fspath(path))
    suffix = params["out_suffix"]
    layer = Sdf.Layer.CreateAnonymous("override" + (".usda" if suffix == ".usd" else suffix))
    source = layers.root.pseudoRoot
    for key in _STAGE_METADATA:
        if source.HasInfo(key):
            layer.pseudoRoot.SetInfo(key, source.GetInfo(key))
    # Written into the file: English, like every other file format QuatLab writes.
    name = os.path.basename(os.fspath(path))
    layer.comment = f"QuatLab: rotation fixes over {name}; the original is unchanged"
    layer.subLayerPaths.append(params["sublayer"])
    for item in params["attrs"]:
        prim = stage.GetPrimAtPath(item["prim"])
        if not prim or prim.IsInstanceProxy():
            raise WorkerError(_("{prim}: inside an instance; an override layer cannot change "
                                "it").format(prim=item["prim"]))
        attr = prim.GetAttribute(item["attr"])
        prim_spec = Sdf.CreatePrimInLayer(layer, Sdf.Path(item["prim"]))
        vtype = Sdf.ValueTypeNames.Find(item["type"])
        spec = Sdf.AttributeSpec(prim_spec, item["attr"], vtype,
                                 Sdf.VariabilityVarying, declaresCustom=bool(attr.IsCustom()))
        values = arrays[item["array"]]
        times = arrays[item["array"] + "_times"]
        for t, v in zip(times.tolist(), values, strict=True):
            layer.SetTimeSample(spec.path, t, _vt_value(item["type"], v))
    data = _export(layer, suffix, "usda")
    return {}, {"data": np.frombuffer(data, dtype=np.uint8)}
