"""A USD file as rotation tracks: UsdSkel joint rotations and rotate ops, audited and fixed.

:class:`UsdKeyframeFile` is the :class:`~quatlab.app.io.tracks.KeyframeFile` that
:func:`quatlab.app.io.keyframe_files.load_keyframes` returns for ``.usda``,
``.usdc``, ``.usdz`` and ``.usd`` (docs/formats.md, "USD"). Its tracks:

* one per joint of each ``SkelAnimation`` with time-sampled ``rotations``: keys
  the stored quaternions (w, x, y, z), times in seconds (time code /
  ``timeCodesPerSecond``; non-integer time codes kept), ``animation`` the
  attribute (``/Root/Skel/Anim.rotations``), ``node_name`` the joint's name,
  ``node_index`` the rig node it drives (:meth:`~quatlab.app.io.usd.scene.UsdScene.layout`),
  storage ``float`` (quatf), ``half`` (quath, with its step as quantum) or ``double``;
* one per prim with a time-sampled ``xformOp:orient`` (its quaternions) or
  ``rotate*`` op (the angles converted, :mod:`quatlab.app.io.usd.euler_ops`;
  storage ``euler XYZ``, the axes in the order they apply).

``animation_index`` is 0 for all: the stage has one timeline, and every skeleton
and prim plays on it. Interpolation is ``LINEAR`` (usd-core's default, GfSlerp on
the shortest arc for quaternions) or ``STEP`` when the stage is read with held
interpolation.

The audit (:meth:`UsdKeyframeFile.audit`) is the glTF one
(:func:`quatlab.app.io.track_audit.audit_track`) plus, for Euler ops, the Euler
family (``euler_wrap``, ``euler_flip``, ``gimbal_lock``). Two fixes write files:
:meth:`~quatlab.app.io.tracks.KeyframeFile.write_copy` (a corrected copy in the
same encoding) and :meth:`UsdKeyframeFile.write_layer` (a small override layer
that sublayers the original); both are written by usd-core in the child
(:mod:`quatlab.app.io.usd.layer_write`) and published here atomically.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from quatlab.app.i18n import N_, LazyText, _
from quatlab.app.io.atomic import write_files
from quatlab.app.io.bvh.keyframes import euler_finding
from quatlab.app.io.track_audit import FileFindings
from quatlab.app.io.tracks import (
    Finding,
    KeyframeFile,
    KeyframeFileError,
    Track,
    _would_replace,
)
from quatlab.app.io.usd import euler_ops, isolate
from quatlab.app.io.usd.scene import UsdScene, load_scene

__all__ = ["UsdKeyframeFile", "load_usd_keyframes", "LAYER_SUFFIXES", "HALF_STEP"]

#: Suffixes an override layer may have.
LAYER_SUFFIXES = (".usda", ".usdc", ".usd")
#: Step of a half-precision component near 1 (0.5 <= |v| < 1): quath keys' quantum.
HALF_STEP = 2.0 ** -11
#: |dot| of a written key against the loaded one that counts as the same rotation.
_SAME_ROTATION = 1e-6

_STORAGE = {"quatf": ("float", 0.0), "quath": ("half", HALF_STEP), "quatd": ("double", 0.0)}
_IN_USD = {
    "wrap": N_("usd-core interpolates an Euler op component by component, so in USD the prim "
               "really turns the long way here; quatlab fix unwraps the angles."),
    "flip": N_("usd-core interpolates an Euler op component by component, so in USD the prim "
               "swings through poses that are in neither sample; quatlab fix picks the other "
               "triple."),
    "gimbal": N_("Blending the converted quaternions is well defined here; only the angles are "
                 "unstable, so resampling or editing them is risky."),
}


def _storage(type_name: str) -> tuple[str, float]:
    return _STORAGE.get(type_name.rstrip("[]"), ("float", 0.0))


class UsdKeyframeFile(FileFindings, KeyframeFile):
    """A USD file as rotation tracks (module docs); :attr:`scene` is everything read."""

    def __init__(self, path: Path, scene: UsdScene):
        self.scene = scene
        self.format = str(scene.meta.get("root_format") or Path(path).suffix[1:]).lower()
        interp = scene.interpolation
        tracks: list[Track] = []
        #: What each track is: ("skel", animation, joint) or ("xform", index, None).
        self.sources: list[tuple[str, int, int | None]] = []
        layout = scene.layout()
        for a, anim in enumerate(scene.animations):
            rot = anim.rotations
            if rot is None or rot.default:
                continue
            times = scene.seconds(rot.times)
            times.flags.writeable = False
            storage, quantum = _storage(rot.type)
            for j, name in enumerate(anim.names):
                values = rot.values[:, j]
                tracks.append(Track(times=times, values=values, interpolation=interp,
                                    animation=f"{anim.path}.rotations", animation_index=0,
                                    node_name=name, node_index=scene.joint_node(a, j),
                                    storage=storage, quantum=quantum))
                self.sources.append(("skel", a, j))
        for x, xf in enumerate(scene.xforms):
            if xf.kind == "orient":
                values = xf.values * (np.array([1.0, -1, -1, -1]) if xf.inverse else 1.0)
                storage, quantum = _storage(xf.type)
            else:
                values = euler_ops.rotations(xf.values, xf.order, xf.inverse)
                storage, quantum = f"euler {xf.order.upper()}", 0.0
            tracks.append(Track(times=scene.seconds(xf.times), values=values, interpolation=interp,
                                animation=f"{xf.path}.{xf.op}", animation_index=0,
                                node_name=xf.name, node_index=layout.xform_nodes[x][1],
                                storage=storage, quantum=quantum))
            self.sources.append(("xform", x, None))
        super().__init__(path, tracks)
        self._euler: dict[int, tuple[Finding, ...]] = {}

    @property
    def input_files(self) -> tuple[Path, ...]:
        folder = self.path.parent
        return tuple(folder / name for name in self.scene.meta.get("layers", ())) or (self.path,)

    def euler_channels(self, track: int) -> tuple[np.ndarray, str] | None:
        """An Euler rotate op's stored angles as channels (:func:`euler_ops.channels`), else None.

        The Euler-curve players (docs/runtimes.md) then blend the file's own
        angles, as usd-core itself interpolates a rotate op.
        """
        kind, x, _j = self.sources[track]
        xf = self.scene.xforms[x] if kind == "xform" else None
        if xf is None or xf.kind != "euler":
            return None
        return euler_ops.channels(xf.values, xf.order, xf.inverse)

    # ------------------------------------------------------------------ audit
    def euler_findings(self, track: int) -> tuple[Finding, ...]:
        """The Euler family of track ``track`` (an Euler op's stored angles), else ()."""
        if track in self._euler:
            return self._euler[track]
        kind, x, _j = self.sources[track]
        found: list[Finding] = []
        if kind == "xform" and self.scene.xforms[x].kind == "euler":
            xf = self.scene.xforms[x]
            if len(xf.order) == 1:
                for i in euler_ops.single_axis_wraps(xf.values).tolist():
                    v0, v1 = float(xf.values[i].ravel()[0]), float(xf.values[i + 1].ravel()[0])
                    short = abs((v1 - v0 + 180.0) % 360.0 - 180.0)
                    found.append(Finding("euler_wrap", (i, i + 1), LazyText(N_(
                        "{op} goes from {v0:.6g} to {v1:.6g} deg between samples {i} and {j}: "
                        "a per-component lerp turns {long:.6g} deg the long way instead of "
                        "{short:.6g} deg. {usd}"), op=xf.op, v0=v0, v1=v1, i=i, j=i + 1,
                        long=abs(v1 - v0), short=short, usd=LazyText(_IN_USD["wrap"]))))
            else:
                names = [f"{xf.op} {axis.upper()}" for axis in xf.order]
                for f in euler_ops.audit(xf.values, xf.order, names):
                    finding = euler_finding(f, _IN_USD.get(f.kind, ""))
                    if finding is not None:
                        found.append(finding)
        self._euler[track] = tuple(found)
        return self._euler[track]

    def file_findings(self, track: int) -> tuple[Finding, ...]:
        """The Euler findings (:meth:`euler_findings`): the file's, whatever the keys become."""
        return self.euler_findings(track)

    # ------------------------------------------------------------------ writing
    def _edits(self, tracks: list[Track], out: Path) -> tuple[dict, dict]:
        """The request of a write: per animation and op, the values to store (changed ones only)."""
        self._check_tracks(tracks)
        scene = self.scene
        new_rot = {a: None for a in range(len(scene.animations))}
        arrays: dict[str, np.ndarray] = {}
        attrs: list[dict] = []
        for (kind, i, j), new, old in zip(self.sources, tracks, self.tracks, strict=True):
            if kind == "skel":
                if new.values is old.values or np.array_equal(new.values, old.values):
                    continue
                if new_rot[i] is None:
                    new_rot[i] = np.array(scene.animations[i].rotations.values)
                new_rot[i][:, j] = new.values
                continue
            xf = scene.xforms[i]
            if xf.kind == "euler":
                dots = np.abs(np.einsum("ij,ij->i", new.values, old.values))
                if not np.all(np.abs(dots - 1.0) <= _SAME_ROTATION):
                    raise KeyframeFileError(out, _(
                        "{track}: an Euler op keeps the file's rotations (the Euler filter only "
                        "changes how they are stored); edited rotations cannot be written").format(
                            track=old.label))
                values = euler_ops.filtered_values(xf.values, xf.order)
                if np.array_equal(values, xf.values):
                    continue
            else:
                if np.array_equal(new.values, old.values):
                    continue
                values = new.values * (np.array([1.0, -1, -1, -1]) if xf.inverse else 1.0)
                values = values[:, [1, 2, 3, 0]]  # usd-core's (i, j, k, real)
            key = f"attr{len(attrs)}"
            arrays[key] = np.ascontiguousarray(values)
            arrays[key + "_times"] = np.asarray(xf.times, dtype=np.float64)
            attrs.append({"prim": xf.path, "attr": xf.op, "type": xf.type, "layer": xf.layer,
                          "array": key})
        for a, values in new_rot.items():
            if values is None:
                continue
            anim = scene.animations[a]
            key = f"attr{len(attrs)}"
            arrays[key] = np.ascontiguousarray(values[..., [1, 2, 3, 0]])
            arrays[key + "_times"] = np.asarray(anim.rotations.times, dtype=np.float64)
            attrs.append({"prim": anim.path, "attr": "rotations", "type": anim.rotations.type,
                          "layer": anim.rotations.layer, "array": key})
        return {"attrs": attrs, "out_suffix": out.suffix.lower(),
                "out_folder": os.fspath(Path(os.path.abspath(out)).parent)}, arrays

    def existing_outputs(self, out, tracks) -> list[Path]:
        """The file :meth:`write_copy` would replace, found without running usd-core.

        A USD copy is one file; the base class encodes the copy to learn its files,
        which here would start the child process just to ask a question.
        """
        self._check_tracks(tracks)
        out = Path(out)
        self._check_output(out)
        return [out] if os.path.lexists(out) else []

    def _encode(self, out: Path, tracks: list[Track]) -> list[tuple[Path, bytes]]:
        params, arrays = self._edits(tracks, out)
        reply = isolate.call("write_copy", self.path, params, arrays)
        return [(out, reply.arrays["data"].tobytes())]

    def write_layer(self, out, tracks, *, force: bool = False) -> list[Path]:
        """Write an override layer ``out`` that sublayers this file and holds only the fixes.

        ``out`` must be a ``.usda`` (or ``.usdc``, ``.usd``) file in this file's folder
        or a folder above it (its sublayer path is relative and never leaves its own
        folder). Only the rotation attributes whose values change are authored, each
        with all its samples (USD takes an attribute's samples from the strongest
        layer that has any). The stage metadata (``timeCodesPerSecond``, the time
        range, ``upAxis``, ``metersPerUnit``, ``defaultPrim``) is copied, so the
        layer plays on the same timeline. The original is never written.
        """
        out = Path(out)
        if out.suffix.lower() not in LAYER_SUFFIXES:
            raise KeyframeFileError(out, _("an override layer is a .usda, .usdc or .usd "
                                           "file"))
        if out.is_dir():
            raise KeyframeFileError(out, _("is a directory; give a file name"))
        self.check_output_path(out)
        rel = os.path.relpath(os.path.abspath(self.path), os.path.abspath(out.parent))
        if rel.startswith(".."):
            raise KeyframeFileError(out, _(
                "an override layer refers to the original by a relative path inside its own "
                "folder: write it in {folder} or a folder above it").format(
                    folder=self.path.parent))
        params, arrays = self._edits(list(tracks), out)
        params["sublayer"] = "./" + Path(rel).as_posix()
        if not force and os.path.lexists(out):
            raise _would_replace(out, [out])
        reply = isolate.call("write_layer", self.path, params, arrays)
        try:
            write_files([(out, reply.arrays["data"].tobytes())], force=force)
        except FileExistsError:
            raise _would_replace(out, [out]) from None
        except OSError as exc:
            raise KeyframeFileError(exc.filename or out, _("cannot write: {error}").format(
                error=exc.strerror or exc)) from None
        return [out]


def load_usd_keyframes(path, *, interpolation: str = "linear") -> UsdKeyframeFile:
    """Read a USD file (:func:`~quatlab.app.io.usd.scene.load_scene`) as a :class:`UsdKeyframeFile`.

    ``interpolation`` is the stage's (``"linear"``, usd-core's default, or ``"held"``).
    """
    path = Path(path)
    return UsdKeyframeFile(path, load_scene(path, interpolation=interpolation))
