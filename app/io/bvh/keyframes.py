"""BVH motion capture as a keyframe file: a quaternion track per joint, Euler findings beside.

:class:`BvhKeyframeFile` is the :class:`~quatlab.app.io.tracks.KeyframeFile`
that :func:`quatlab.app.io.keyframe_files.load_keyframes` returns for
``.bvh``. Each joint with rotation channels becomes a :class:`Track` of
quaternions (w, x, y, z) converted frame by frame from its Euler channels
(:func:`quatlab.app.io.bvh.local_rotations`; channel order meaning in
docs/formats.md, "BVH"), times ``frame * Frame Time``, interpolation
LINEAR, storage ``"euler ZXY"`` (the joint's channel order).

Two families of trouble are audited together (:meth:`BvhKeyframeFile.audit`):
the quaternion family of the converted tracks (sign flips, half turns: what
:func:`quatlab.app.io.track_audit.audit_track` finds) and the Euler family of
the channels as stored (``euler_wrap``, ``euler_flip``, ``gimbal_lock``:
:func:`quatlab.math.euler_track.audit_euler`), as :class:`Finding` objects in
one report. A corrected copy (:meth:`KeyframeFile.write_copy`) is the
Euler-filtered BVH (:func:`quatlab.app.io.bvh.filtered_motion`): the same
rotations, hierarchy and formatting, no wrap or triple switch left. Quaternion
signs do not exist in a BVH, so sign fixes of the tracks change nothing there.

Examples
--------
>>> import pathlib, tempfile
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "a.bvh").write_text("HIERARCHY\\nROOT A\\n{\\n OFFSET 0 0 0\\n CHANNELS 3 Zrotation "
...     "Xrotation Yrotation\\n}\\nMOTION\\nFrames: 2\\nFrame Time: 0.5\\n179 0 0\\n-179 0 0\\n")
>>> kf = load_bvh_keyframes(d / "a.bvh")
>>> t = kf.tracks[0]
>>> t.label, t.storage, t.times.tolist()
("node 'A' (#0)", 'euler ZXY', [0.0, 0.5])
>>> [(f.kind, f.keys) for r in kf.audit() for f in r.findings]
[('sign_flip', (0, 1)), ('euler_wrap', (0, 1))]
>>> kf.write_copy(d / "b.bvh", kf.tracks) == [d / "b.bvh"]
True
>>> (d / "b.bvh").read_text().splitlines()[-1]
'181 0 0'
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from quatlab.app.i18n import N_, LazyText, _
from quatlab.app.io import bvh as B
from quatlab.app.io.track_audit import audit_file, audit_track
from quatlab.app.io.tracks import (
    FINDING_KINDS,
    Finding,
    KeyframeFile,
    KeyframeFileError,
    Track,
    TrackReport,
)

__all__ = [
    "BvhKeyframeFile",
    "EULER_KINDS",
    "load_bvh_keyframes",
    "audit_keyframes",
    "bvh_error_to_keyframe_error",
]

#: :class:`~quatlab.math.euler_track.EulerFinding` kinds and the report's names for them.
EULER_KINDS = {"wrap": "euler_wrap", "flip": "euler_flip", "gimbal": "gimbal_lock"}

# What a player that blends rotations (not channels) does, appended to the
# per-channel lerp sentence of each Euler finding.
_ROTATION_PLAYER = {
    "wrap": N_("A player that converts each frame to a rotation and blends on the shortest "
               "arc (quaternion SLERP with the hemisphere check) is not affected."),
    "flip": N_("A player that converts each frame to a rotation and blends on the shortest "
               "arc is not affected."),
    "gimbal": N_("Blending converted quaternions is well defined here; only the channels are "
                 "unstable, so resampling or editing them is risky."),
}

# Tolerance on |dot| of a written track's key against the file's key: sign
# fixes give exactly -1 or 1; anything else is an edited rotation.
_SAME_ROTATION = 1e-9


def bvh_error_to_keyframe_error(exc: B.BvhError, path) -> KeyframeFileError:
    """The :class:`KeyframeFileError` of a :class:`~quatlab.app.io.bvh.BvhError` (same one line)."""
    text = str(exc)
    prefix = f"{path}: "
    return KeyframeFileError(path, text[len(prefix):] if text.startswith(prefix) else text)


class BvhKeyframeFile(KeyframeFile):
    """A BVH file as rotation tracks, one per joint with rotation channels (module docs)."""

    format = "bvh"

    def __init__(self, path: Path, bvh: B.BvhFile):
        self.bvh = bvh
        q = B.local_rotations(bvh)
        times = np.arange(bvh.n_frames, dtype=np.float64) * bvh.frame_time
        #: Joint index of each track.
        self.joints: tuple[int, ...] = tuple(
            j for j in range(bvh.n_joints) if bvh.rotation_order(j)
        )
        tracks = [
            Track(
                times=times,
                values=q[:, j],
                interpolation="LINEAR",
                node_name=bvh.names[j],
                node_index=j,
                storage=f"euler {bvh.rotation_order(j)}",
            )
            for j in self.joints
        ]
        super().__init__(path, tracks)
        self._euler: dict[int, tuple[Finding, ...]] | None = None

    def euler_findings(self, track: int) -> tuple[Finding, ...]:
        """The Euler-family findings of track ``track`` (its joint's channels as stored).

        ``keys`` are frame indices: ``(f - 1, f)`` for a wrap or a triple
        switch between frames ``f - 1`` and ``f``, ``(f,)`` for gimbal lock.
        """
        if self._euler is None:
            per_joint: dict[int, list[Finding]] = {}
            for j, f in B.audit_rotations(self.bvh):
                kind = EULER_KINDS.get(f.kind)
                if kind is None:          # sign_flip: audit_track finds it on the track
                    continue
                keys = (f.frame,) if f.kind == "gimbal" else (f.frame - 1, f.frame)
                # Made again where shown, in the language of the moment.
                message = LazyText(N_("{finding}. {players}"),
                                   finding=LazyText(f.template, **f.params) if f.template
                                   else f.message, players=LazyText(_ROTATION_PLAYER[f.kind]))
                per_joint.setdefault(j, []).append(Finding(kind, keys, message))
            self._euler = {j: tuple(fs) for j, fs in per_joint.items()}
        return self._euler.get(self.joints[track], ())

    def node_parents(self) -> dict[int, int]:
        """Each joint's parent joint (tracks' ``node_index`` is the joint index)."""
        return {j: int(p) for j, p in enumerate(self.bvh.parents.tolist()) if p >= 0}

    def audit_track(self, track: int, current: Track | None = None) -> list[Finding]:
        """Both families for one track, sorted by key and :data:`FINDING_KINDS` order.

        ``current`` replaces the loaded track for the quaternion audit (e.g.
        after sign fixes); the Euler findings are the file's.
        """
        t = self.tracks[track] if current is None else current
        found = audit_track(t) + list(self.euler_findings(track))
        found.sort(key=lambda f: (f.keys[0], FINDING_KINDS.index(f.kind)))
        return found

    def audit(self) -> list[TrackReport]:
        """A :class:`TrackReport` per track with both families (see :meth:`audit_track`)."""
        return [TrackReport(t, tuple(self.audit_track(i))) for i, t in enumerate(self.tracks)]

    def filtered_motion(self) -> np.ndarray:
        """The Euler-filtered motion ``(F, C)`` that :meth:`write_copy` writes."""
        return B.filtered_motion(self.bvh)

    def _encode(self, out: Path, tracks: list[Track]) -> list[tuple[Path, bytes]]:
        for new, old in zip(tracks, self.tracks, strict=True):
            dots = np.abs(np.einsum("ij,ij->i", new.values, old.values))
            if not np.all(np.abs(dots - 1.0) <= _SAME_ROTATION):
                raise KeyframeFileError(
                    out,
                    _("{track}: a BVH copy keeps the file's rotations (the Euler filter only "
                      "changes how they are stored); edited rotations cannot be written").format(
                        track=old.label),
                )
        try:
            data = B.format_bvh(self.bvh, self.filtered_motion())
        except B.BvhError as exc:
            raise bvh_error_to_keyframe_error(exc, self.path) from None
        return [(out, data)]


def load_bvh_keyframes(path) -> BvhKeyframeFile:
    """Read a BVH file (:func:`quatlab.app.io.bvh.read_bvh`) as a :class:`BvhKeyframeFile`.

    Any problem is a :class:`KeyframeFileError` whose one line names the
    file, the line and the problem.
    """
    path = Path(path)
    try:
        bvh = B.read_bvh(path)
    except B.BvhError as exc:
        raise bvh_error_to_keyframe_error(exc, path) from None
    return BvhKeyframeFile(path, bvh)


def audit_keyframes(keyframes: KeyframeFile) -> list[TrackReport]:
    """The full audit of any loaded keyframe file: both families for BVH, else ``audit_file``."""
    if isinstance(keyframes, BvhKeyframeFile):
        return keyframes.audit()
    return audit_file(keyframes)
