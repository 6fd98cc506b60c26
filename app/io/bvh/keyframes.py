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

import functools
from pathlib import Path

import numpy as np

from quatlab.app.i18n import N_, LazyText, _
from quatlab.app.io import bvh as B
from quatlab.app.io.track_audit import MAX_FINDINGS, FileFindings, audit_file
from quatlab.app.io.tracks import (
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
    "euler_finding",
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


class BvhKeyframeFile(FileFindings, KeyframeFile):
    """A BVH file as rotation tracks, one per joint with rotation channels (module docs)."""

    format = "bvh"

    def __init__(self, path: Path, bvh: B.BvhFile):
        # Not KeyframeFile.__init__: the tracks are made when first asked for
        # (see :attr:`tracks`); ``fix`` writes the Euler-filtered copy without them.
        self.path = Path(path)
        self.bvh = bvh
        #: Joint index of each track.
        self.joints: tuple[int, ...] = tuple(
            j for j in range(bvh.n_joints) if bvh.rotation_order(j)
        )
        self.notes = bvh.notes
        self._euler: dict[int, tuple[Finding, ...]] | None = None

    def euler_channels(self, track: int) -> tuple[np.ndarray, str] | None:
        """The joint's three rotation channels ``(F, 3)`` degrees and their order (intrinsic).

        None for a joint with fewer than three rotation channels or an axis
        twice in a row (not an Euler order).
        """
        joint = self.joints[track]
        order = self.bvh.rotation_order(joint)
        if len(order) != 3 or order[0] == order[1] or order[1] == order[2]:
            return None
        return self.bvh.euler_degrees(joint), order

    @functools.cached_property
    def tracks(self) -> tuple[Track, ...]:  # type: ignore[override]
        """A quaternion track per joint with rotation channels, made on first use.

        Each joint's keys are converted on their own (``(F, 4)``, read-only,
        shared by the track without a copy) and all tracks share one times
        array: their memory is the quaternions themselves.
        """
        bvh = self.bvh
        times = np.arange(bvh.n_frames, dtype=np.float64) * bvh.frame_time
        times.flags.writeable = False
        tracks = []
        for j in self.joints:
            q = B.joint_rotations(bvh, j)
            q.flags.writeable = False
            tracks.append(Track(times=times, values=q, interpolation="LINEAR",
                                node_name=bvh.names[j], node_index=j,
                                storage=f"euler {bvh.rotation_order(j)}"))
        return tuple(tracks)

    def euler_findings(self, track: int) -> tuple[Finding, ...]:
        """The Euler-family findings of track ``track`` (its joint's channels as stored).

        ``keys`` are frame indices: ``(f - 1, f)`` for a wrap or a triple
        switch between frames ``f - 1`` and ``f``, ``(f,)`` for gimbal lock.
        Past :data:`~quatlab.app.io.track_audit.MAX_FINDINGS` findings the rest
        are counted in one finding of kind ``"more"``.
        """
        if self._euler is None:
            self._euler = {}
            # sign_flip is audit_track's, on the converted track: not looked for here.
            for j, (found, omitted, frames) in B.audit_rotations_capped(
                    self.bvh, MAX_FINDINGS, kinds=tuple(EULER_KINDS)).items():
                out = [e for f in found
                       if (e := euler_finding(f, _ROTATION_PLAYER.get(f.kind, ""))) is not None]
                left = {EULER_KINDS[k]: n for k, n in omitted.items() if k in EULER_KINDS}
                if left:
                    what = ", ".join(f"{n:,} {k}" for k, n in left.items())
                    out.append(Finding("more", frames, LazyText(N_(
                        "{n} more Euler findings past the first {first} of this joint ({what}) "
                        "between frames {lo} and {hi}; each is described like those above."),
                        n=f"{sum(left.values()):,}", first=f"{MAX_FINDINGS:,}", what=what,
                        lo=frames[0], hi=frames[1])))
                self._euler[j] = tuple(out)
        return self._euler.get(self.joints[track], ())

    def file_findings(self, track: int) -> tuple[Finding, ...]:
        """The Euler findings (:meth:`euler_findings`): the file's, whatever the keys become."""
        return self.euler_findings(track)

    def node_parents(self) -> dict[int, int]:
        """Each joint's parent joint (tracks' ``node_index`` is the joint index)."""
        return {j: int(p) for j, p in enumerate(self.bvh.parents.tolist()) if p >= 0}

    def filtered_motion(self) -> np.ndarray:
        """The Euler-filtered motion ``(F, C)`` that :meth:`write_copy` writes.

        Kept until the next write (``fix`` reports what changed from the same
        array it writes, without filtering twice), then released.
        """
        if self._filtered is None:
            try:
                self._filtered = B.filtered_motion(self.bvh)
            except B.BvhError as exc:
                raise bvh_error_to_keyframe_error(exc, self.path) from None
        return self._filtered

    _filtered: np.ndarray | None = None

    def _unchanged_tracks(self) -> None:
        return None   # the Euler-filtered copy needs no track (nor their conversion)

    def _encode(self, out: Path, tracks: list[Track] | None) -> list[tuple[Path, bytes]]:
        # ``tracks`` None: the loaded tracks unchanged (nothing to compare).
        for new, old in zip(tracks or (), self.tracks if tracks else (), strict=True):
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
        finally:
            self._filtered = None
        return [(out, data)]


def euler_finding(f, after: str) -> Finding | None:
    """The report's :class:`Finding` of an :class:`~quatlab.math.euler_track.EulerFinding`.

    None for its ``sign_flip`` (:func:`audit_track` finds that on the converted
    track). ``keys`` are ``(f - 1, f)`` for a wrap or a triple switch, ``(f,)`` for
    gimbal lock; the message is the finding's, then ``after`` (a marked text saying
    what a player does), made again where shown in the language of the moment.
    """
    kind = EULER_KINDS.get(f.kind)
    if kind is None:
        return None
    keys = (f.frame,) if f.kind == "gimbal" else (f.frame - 1, f.frame)
    message = LazyText(N_("{finding}. {players}"),
                       finding=LazyText(f.template, **f.params) if f.template else f.message,
                       players=LazyText(after))
    return Finding(kind, keys, message)


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
    """The full audit of any loaded keyframe file: its own ``audit()`` (both families for BVH,
    FBX and USD) where it has one, else ``audit_file``."""
    own = getattr(keyframes, "audit", None)
    return own() if callable(own) else audit_file(keyframes)
