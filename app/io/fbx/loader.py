"""Read an FBX file through ufbx in a child process, so a crash costs one line, not the app. No Qt.

:func:`read_fbx` reads the file's bytes with the safe reader (regular files
only, size bounded), hands them to :mod:`quatlab.app.io.fbx.worker` in a
fresh interpreter (``python -I``) with an address-space limit, a node depth
limit and a time limit, and turns the arrays it prints into an
:class:`~quatlab.app.io.fbx.scene.FbxScene`, after checking every index in
them. Whatever happens in the child (a ufbx error, a limit, a segfault of
the binding, a timeout) is a :class:`~quatlab.app.io.tracks.KeyframeFileError`
whose one line names the file (docs/formats.md, "FBX").

``ufbx`` is an optional dependency (``pip install 'quatlab[fbx]'``): without
it, reading an FBX file says so in one line.
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.io.fbx import worker
from quatlab.app.io.fbx.scene import FbxScene
from quatlab.app.io.safe_read import FileRefused, read_regular
from quatlab.app.io.tracks import KeyframeFileError

__all__ = ["read_fbx", "parse_fbx", "ufbx_available", "INSTALL_HINT", "MAX_BYTES",
           "BINARY_MAGIC", "LIMITS"]

#: Largest FBX file read (bytes).
MAX_BYTES = 512 * 2**20
#: The first bytes of a binary FBX file.
BINARY_MAGIC = b"Kaydara FBX Binary  \x00"
#: What the child may use: address space (bytes, plus 24 times the file's size, up to
#: ``memory_cap``), node depth, keyframes, mesh vertices, seconds.
LIMITS = {"memory_base": 1 << 30, "memory_cap": 6 << 30, "node_depth": 256,
          "max_keys": 50_000_000, "max_vertices": 20_000_000, "timeout": 120.0}
#: One line saying how to get FBX support.
INSTALL_HINT = "pip install 'quatlab[fbx]'"

_WORKER = Path(worker.__file__)


def ufbx_available() -> bool:
    """Whether the optional ``ufbx`` package is installed (found, not imported)."""
    return importlib.util.find_spec("ufbx") is not None


def read_fbx(path, *, eval_times=None, limits: dict | None = None,
             slow_keys: bool = False) -> FbxScene:
    """Read the FBX file at ``path`` (module docs); ``KeyframeFileError`` on any problem.

    ``eval_times`` (seconds) asks the loader for its own evaluation of every
    node's local transform at those times in every clip
    (:attr:`FbxScene.eval_local`), for tests. ``limits`` overrides
    :data:`LIMITS`. Linear and constant curves are read from their raw
    arrays, with the tangents ufbx gives them (see ``slow_keys`` in
    :func:`parse_fbx`).
    """
    path = Path(path)
    try:
        data = read_regular(path, limit=MAX_BYTES)
    except FileRefused as exc:
        raise KeyframeFileError(path, exc.problem) from None
    return parse_fbx(path, data, eval_times=eval_times, limits=limits, slow_keys=slow_keys)


def parse_fbx(path, data: bytes, *, eval_times=None, limits: dict | None = None,
              slow_keys: bool = False) -> FbxScene:
    """Read FBX ``data`` (the bytes of ``path``) in the child process (see :func:`read_fbx`).

    ``slow_keys`` reads every key through the binding's key objects, never
    from the raw arrays (tests compare the two).
    """
    path = Path(path)
    lim = dict(LIMITS, **(limits or {}))
    if not ufbx_available():
        raise KeyframeFileError(path, _("reading FBX needs the optional ufbx package: "
                                        "{hint}").format(hint=INSTALL_HINT))
    if not data:
        raise KeyframeFileError(path, _("the file is empty"))
    opts = {
        "memory_bytes": int(min(lim["memory_cap"], lim["memory_base"] + 24 * len(data))),
        "node_depth": int(lim["node_depth"]), "max_keys": int(lim["max_keys"]),
        "max_vertices": int(lim["max_vertices"]),
        "eval_times": [float(t) for t in eval_times] if eval_times is not None else None,
        "slow_keys": bool(slow_keys),
    }
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
               MKL_NUM_THREADS="1")
    try:
        proc = subprocess.run(
            [sys.executable, "-I", str(_WORKER), json.dumps(opts)], input=data,
            capture_output=True, timeout=float(lim["timeout"]), env=env, check=False)
    except subprocess.TimeoutExpired:
        raise KeyframeFileError(path, _("the FBX loader took more than {seconds:g} s and was "
                                        "stopped").format(seconds=lim["timeout"])) from None
    except OSError as exc:
        raise KeyframeFileError(path, _("cannot start the FBX loader: {error}").format(
            error=exc.strerror or exc)) from None
    if proc.returncode != 0:
        raise KeyframeFileError(path, _failure(proc))
    try:
        scene = _scene(path, proc.stdout)
    except (ValueError, KeyError, zipfile.BadZipFile, OSError) as exc:
        raise KeyframeFileError(path, _("the FBX loader returned inconsistent data ({error})")
                                .format(error=exc)) from None
    for what, values in ((_("curve keys"), scene.keys), (_("node properties"), scene.node_props),
                         (_("animated property defaults"), scene.prop_default),
                         (_("mesh vertices"), scene.mesh_positions),
                         (_("bind matrices"), scene.cluster_geometry_to_bone),
                         (_("clip time ranges"), scene.stack_range)):
        if not np.all(np.isfinite(values)):
            raise KeyframeFileError(path, _("the file's {what} hold NaN or infinite "
                                            "numbers").format(what=what))
    return scene


def _failure(proc: subprocess.CompletedProcess) -> str:
    """The one line of a child that did not succeed."""
    text = proc.stderr.decode("utf-8", "replace").strip().splitlines()
    last = " ".join(text[-1].split()) if text else ""
    if proc.returncode < 0:
        try:
            name = signal.Signals(-proc.returncode).name
        except ValueError:
            name = str(-proc.returncode)
        return _("the FBX loader (ufbx) crashed on this file ({signal}); nothing was "
                 "read").format(signal=name)
    if proc.returncode == worker.EXIT_REFUSED:
        kind, _sep, detail = last.partition(": ")
        if kind == "ModuleNotFoundError":
            return _("reading FBX needs the optional ufbx package: {hint}").format(
                hint=INSTALL_HINT)
        words = _ufbx_errors().get(kind)
        if kind == "Refused":
            problem = _refused(detail)
        elif words is not None:
            problem = words if detail in ("", "Failed to load") else f"{words} ({detail})"
        else:
            problem = last
        return _("not a readable FBX file: {problem}").format(problem=problem[:300])
    return _("the FBX loader failed (exit status {status}): {problem}").format(
        status=proc.returncode, problem=last[:300] or _("no message"))


def _refused(detail: str) -> str:
    """The worker's own limits (``Refused: ["code", {values}]``) in words."""
    try:
        code, values = json.loads(detail)
        return {
            "adjust": lambda: _("a node has an axis or unit adjustment, which this reader does "
                                "not apply"),
            "keys": lambda: _("{n} keyframes, more than the {limit} allowed").format(**values),
            "vertices": lambda: _("more than {limit} mesh vertices").format(**values),
            "face": lambda: _("a face points past the mesh's index list"),
            "version": lambda: _("FBX version {version} does not exist (QuatLab reads 6.x and "
                                 "7.x files)").format(**values),
        }[code]()
    except (ValueError, KeyError, TypeError):
        return detail


def _ufbx_errors() -> dict[str, str]:
    """ufbx's error classes (what the worker prints before ": ") in words."""
    return {
        "UnknownError": _("ufbx could not parse it"),
        "TruncatedFileError": _("the file is truncated"),
        "UnsupportedVersionError": _("unsupported FBX version"),
        "UnrecognizedFileFormatError": _("not an FBX file"),
        "EmptyFileError": _("the file is empty"),
        "OutOfMemoryError": _("out of memory (the reader's limit)"),
        "MemoryLimitError": _("out of memory (the reader's limit)"),
        "AllocationLimitError": _("too many allocations (the reader's limit)"),
        "MemoryError": _("out of memory (the reader's limit)"),
        "NodeDepthLimitError": _("the node hierarchy is deeper than the reader's limit"),
        "InvalidUtf8Error": _("a name is not valid UTF-8"),
        "BadIndexError": _("an index points outside its array"),
        "BadNurbsError": _("a NURBS object is malformed"),
        "TruncatedVertexStreamError": _("a vertex array is shorter than declared"),
        "ZeroVertexSizeError": _("a vertex array has no size"),
        "FeatureDisabledError": _("the file needs a ufbx feature this build lacks"),
    }


def _scene(path: Path, blob: bytes) -> FbxScene:
    with np.load(io.BytesIO(blob), allow_pickle=False) as z:
        a = {k: z[k] for k in z.files}
    info = json.loads(a.pop("info").tobytes().decode("utf-8"))
    names = tuple(str(x) for x in info["node_names"])
    n = len(names)
    parent = a["node_parent"]
    _within(parent, -1, n, "node parents")
    _within(a["node_scale_node"], -1, n, "scale nodes")
    _forest(parent)
    n_layers = len(info["layer_names"])
    start = a["stack_layer_start"]
    layers = a["stack_layers"]
    _within(layers, 0, n_layers, "clip layers")
    stack_layers = tuple(layers[start[i]:start[i + 1]] for i in range(len(start) - 1))
    if len(stack_layers) != len(info["stack_names"]):
        raise ValueError("clip count")
    n_curves = len(a["curve_key_start"]) - 1
    _within(a["prop_rows"][:, 0], 0, n_layers, "property layers")
    _within(a["prop_rows"][:, 1], -2, n, "property targets")
    _within(a["prop_curves"], -1, n_curves, "property curves")
    key_start = a["curve_key_start"]
    if key_start[0] != 0 or np.any(np.diff(key_start) < 0) or key_start[-1] != len(a["keys"]):
        raise ValueError("curve key ranges")
    rows = a["mesh_rows"]
    _within(rows[:, 0], 0, n, "mesh nodes")
    n_vertices = len(a["mesh_positions"])
    _within(a["mesh_triangles"].reshape(-1), 0, n_vertices, "triangles")
    _within(a["cluster_mesh"], 0, len(rows), "cluster meshes")
    _within(a["cluster_bone"], -1, n, "cluster bones")
    _within(a["influence_cluster"], 0, len(a["cluster_mesh"]), "influences")
    if len(a["influence_start"]) != n_vertices + 1:
        raise ValueError("influence ranges")
    return FbxScene(
        path=path, version=int(info["version"]), ascii=bool(info["ascii"]),
        creator=str(info["creator"]), fps=float(info["fps"]) or 30.0,
        ktime_second=int(info["ktime_second"]), unit_meters=float(info["unit_meters"]),
        warnings=tuple(str(w) for w in info["warnings"]), node_names=names,
        node_parent=parent, node_order=a["node_order"], node_inherit=a["node_inherit"],
        node_scale_node=a["node_scale_node"], node_kind=a["node_kind"],
        node_props=a["node_props"], node_geometry=a["node_geometry"],
        node_rest_local=a["node_rest_local"],
        stack_names=tuple(str(x) for x in info["stack_names"]), stack_range=a["stack_range"],
        stack_layers=stack_layers, layer_names=tuple(str(x) for x in info["layer_names"]),
        layer_weight=a["layer_weight"], layer_flags=a["layer_flags"],
        prop_rows=a["prop_rows"], prop_default=a["prop_default"],
        prop_curves=a["prop_curves"], curve_key_start=key_start, keys=a["keys"],
        curve_extrapolation=a["curve_extrapolation"], mesh_rows=rows,
        mesh_positions=a["mesh_positions"], mesh_triangles=a["mesh_triangles"],
        cluster_mesh=a["cluster_mesh"], cluster_bone=a["cluster_bone"],
        cluster_geometry_to_bone=a["cluster_geometry_to_bone"],
        influence_start=a["influence_start"], influence_cluster=a["influence_cluster"],
        influence_weight=a["influence_weight"], vertex_dq_weight=a["vertex_dq_weight"],
        eval_local=a.get("eval_local"), eval_world=a.get("eval_world"),
        eval_skinned=a.get("eval_skinned"),
    )


def _within(values: np.ndarray, lo: int, hi: int, what: str) -> None:
    if values.size and (values.min() < lo or values.max() >= hi):
        raise ValueError(f"{what} out of range")


def _forest(parent: np.ndarray) -> None:
    """Refuse a parent list with a cycle (ufbx builds a tree; this is the parent's check)."""
    state = np.zeros(len(parent), dtype=np.int8)  # 0 new, 1 on the walk, 2 done
    for i in range(len(parent)):
        walk = []
        j = i
        while j >= 0 and state[j] == 0:
            state[j] = 1
            walk.append(j)
            j = int(parent[j])
        if j >= 0 and state[j] == 1:
            raise ValueError("node parents form a cycle")
        state[walk] = 2
