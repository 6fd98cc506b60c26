"""An FBX file as keyframe tracks: one quaternion track per clip and rotated node, both audits.

:class:`FbxKeyframeFile` is the :class:`~quatlab.app.io.tracks.KeyframeFile`
that :func:`quatlab.app.io.keyframe_files.load_keyframes` returns for
``.fbx`` (docs/formats.md, "FBX"). For every clip (animation stack) and every
node whose ``Lcl Rotation`` has a curve in one of the clip's layers, a
:class:`Track`: times are the node's rotation key times in that clip (the
union over its layers and components), keys the node's whole local rotation
``Rpre R Rpost^-1`` there as ufbx evaluates it (w, x, y, z, with ufbx's
signs), interpolation ``LINEAR`` (a quaternion runtime's view of the keys),
storage ``euler XYZ`` (the node's rotation order), ``animation`` the clip.

:meth:`FbxKeyframeFile.audit` (:class:`~quatlab.app.io.track_audit.FileFindings`) reports both
families
(:mod:`quatlab.app.io.fbx.audit`). FBX cannot be written back (no maintained
library writes it): :meth:`~FbxKeyframeFile.write_copy` refuses in one line
naming what QuatLab writes instead (:data:`WRITE_INSTEAD`).

Examples
--------
>>> import sys
>>> sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests"))  # the test forge
>>> from fbx_forge import ascii_fbx, chain
>>> text = ascii_fbx(chain(2), {("j1", "R", 2): ([0.0, 0.5, 1.0], [0.0, 170.0, -170.0])})
>>> kf = load_fbx_bytes("spin.fbx", text.encode())
>>> [(t.node_name, len(t), t.storage) for t in kf.tracks]
[('j1', 3, 'euler XYZ')]
>>> [(f.kind, f.keys) for r in kf.audit() for f in r.findings]
[('sign_flip', (1, 2)), ('euler_wrap', (1, 2))]
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.io.fbx import audit as A
from quatlab.app.io.fbx.evaluate import ClipEvaluator, euler_columns, order_string
from quatlab.app.io.fbx.loader import parse_fbx, read_fbx
from quatlab.app.io.fbx.scene import ROTATION_ORDERS, VECTOR_PROPS, FbxScene
from quatlab.app.io.track_audit import FileFindings
from quatlab.app.io.tracks import Finding, KeyframeFile, KeyframeFileError, Track

__all__ = ["FbxKeyframeFile", "load_fbx_keyframes", "load_fbx_bytes", "WRITE_INSTEAD"]

_PRE, _POST = VECTOR_PROPS.index("PreRotation"), VECTOR_PROPS.index("PostRotation")

#: What ``quatlab fix`` writes for an FBX input (the refusal names it).
WRITE_INSTEAD = ("bvh", "csv", "npy")


def refusal() -> str:
    """The one line that refuses to write an FBX file and names what is written instead."""
    return _("FBX cannot be written (no maintained library writes FBX); QuatLab writes the "
             "Euler-filtered motion as BVH (quatlab fix IN.fbx OUT.bvh) or the corrected, "
             "sign-continuous tracks as CSV or NPY (quatlab fix IN.fbx OUT.csv|OUT.npy)")


class FbxKeyframeFile(FileFindings, KeyframeFile):
    """An FBX file as rotation tracks, one per clip and rotated node (module docs)."""

    format = "fbx"

    def __init__(self, path: Path, scene: FbxScene):
        self.scene = scene
        self._evaluators: dict[int, ClipEvaluator] = {}
        #: ``(clip, node)`` of each track.
        self.entries: list[tuple[int, int]] = []
        self._euler: list[np.ndarray] = []
        self._orders: list[int] = []
        #: Whether the track's rotation order is the same at every key (it may be animated).
        self._one_order: list[bool] = []
        tracks = []
        for stack, name in enumerate(scene.stack_names):
            ev = self.evaluator(stack)
            for node in scene.animated_nodes(stack):
                node = int(node)
                times = scene.rotation_key_times(node, stack)
                if not len(times):
                    continue
                local = ev.local(times, [node])
                order = int(local.order[0, 0])
                tracks.append(Track(
                    times=times, values=local.rotation[:, 0], interpolation="LINEAR",
                    animation=name, animation_index=stack, node_name=scene.node_names[node],
                    node_index=node, storage=f"euler {ROTATION_ORDERS[order]}"))
                self.entries.append((stack, node))
                self._euler.append(local.euler[:, 0])
                self._orders.append(order)
                self._one_order.append(bool(np.all(local.order[:, 0] == order)))
        super().__init__(path, tracks)
        self._findings: dict[int, tuple[Finding, ...]] = {}

    def evaluator(self, stack: int) -> ClipEvaluator:
        """The :class:`ClipEvaluator` of clip ``stack`` (made once)."""
        if stack not in self._evaluators:
            self._evaluators[stack] = ClipEvaluator(self.scene, stack)
        return self._evaluators[stack]

    def euler(self, track: int) -> np.ndarray:
        """Track ``track``'s blended ``Lcl Rotation`` at its keys, ``(K, 3)`` X, Y, Z degrees."""
        return self._euler[track]

    def euler_channels(self, track: int) -> tuple[np.ndarray, str] | None:
        """The node's blended ``Lcl Rotation`` at the track's keys, in its rotation order.

        ``(degrees (K, 3), order)``: the columns in the order the axes apply and
        ``order`` the extrinsic string of :func:`~quatlab.app.io.fbx.evaluate.order_string`
        (FBX ``ZXY`` is ``"zxy"``, angles Z, X, Y), so ``from_euler`` of a row is the
        key's rotation. None when the channels alone are not the track's rotation
        or not one Euler order: a node with pre- or post-rotation (its key is
        ``Rpre R Rpost^-1``; the FBX SDK resamples such curves into quaternion
        curves for Unity, docs/runtimes.md), a rotation order that changes
        during the clip, or the spheric order.
        """
        stack, node = self.entries[track]
        order = self._orders[track]
        props = self.scene.node_props[node]
        if (not self._one_order[track] or ROTATION_ORDERS[order] == "SPHERIC"
                or np.any(props[[_PRE, _POST]] != 0.0)):
            return None
        return self._euler[track][:, euler_columns(order)], order_string(order)

    def rotation_order(self, track: int) -> int:
        """Track ``track``'s rotation order at its first key (:data:`ROTATION_ORDERS`)."""
        return self._orders[track]

    def frame_times(self, stack: int) -> np.ndarray:
        """The file's frames over clip ``stack`` (its frame rate, both ends)."""
        start, end = self.scene.stack_range[stack]
        return A.frame_times(float(start), float(end), self.scene.fps)

    def file_findings(self, track: int) -> tuple[Finding, ...]:
        """The findings that come from the file, not the keys' values: Euler and frame rate."""
        if track not in self._findings:
            stack, node = self.entries[track]
            found = A.euler_findings(self._euler[track], self._orders[track],
                                     self.scene.node_names[node])
            found += A.frame_findings(self.evaluator(stack), node, self.tracks[track].times,
                                      frames=self.frame_times(stack))
            self._findings[track] = tuple(found)
        return self._findings[track]

    def _encode(self, out: Path, tracks: list[Track]) -> list[tuple[Path, bytes]]:
        raise KeyframeFileError(out, refusal())


def load_fbx_keyframes(path) -> FbxKeyframeFile:
    """An FBX file read by :func:`~quatlab.app.io.fbx.loader.read_fbx`, as an FbxKeyframeFile."""
    path = Path(path)
    return FbxKeyframeFile(path, read_fbx(path))


def load_fbx_bytes(path, data: bytes) -> FbxKeyframeFile:
    """An :class:`FbxKeyframeFile` of FBX ``data`` already read from ``path``."""
    path = Path(path)
    return FbxKeyframeFile(path, parse_fbx(path, data))
