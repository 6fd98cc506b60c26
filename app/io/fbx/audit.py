"""Both families of trouble in an FBX clip: its Euler curves, and the quaternions a runtime gets.

For one node of one clip (docs/formats.md, "FBX"):

* **Euler family**, on the blended ``Lcl Rotation`` at the node's key times
  (the union of its rotation curves' keys over the clip's layers), through
  :func:`quatlab.math.euler_track.audit_euler` in the node's rotation order
  (the audit BVH channels get): ``euler_wrap`` (neighbouring keys more than
  180 deg apart), ``euler_flip`` (the exporter switched between the two
  triples of a rotation), ``gimbal_lock`` (the middle angle near +-90 deg),
  and ``euler_range`` (:func:`~quatlab.math.euler_track.beyond_half_turn`:
  a curve outside [-180, 180] deg, which a clamp or a re-export turns into a
  jump).
* **Quaternion family**, on the local rotations ``Rpre R Rpost^-1``
  evaluated as ufbx evaluates them (with ufbx's signs): at the keys (the
  track of :mod:`quatlab.app.io.fbx.keyframes`, audited like any track:
  ``sign_flip``, ``half_turn``) and at the file's frame rate over the clip
  (``frame_sign_flip``: what a runtime that bakes a quaternion per frame
  receives; its ``keys`` are the track's keys around the two frames).

Examples
--------
>>> import numpy as np
>>> euler = np.array([[0.0, 0.0, 170.0], [0.0, 0.0, -170.0]])   # X, Y, Z degrees, order XYZ
>>> [(f.kind, f.keys) for f in euler_findings(euler, 0, "j")]
[('euler_wrap', (0, 1))]
"""

from __future__ import annotations

import numpy as np

from quatlab.app.i18n import N_, LazyText
from quatlab.app.io.fbx.evaluate import ClipEvaluator, euler_columns, order_string
from quatlab.app.io.tracks import Finding
from quatlab.math import euler_track as E

__all__ = ["euler_findings", "frame_findings", "frame_times", "FBX_KINDS"]

#: :class:`~quatlab.math.euler_track.EulerFinding` kinds and the report's names for them.
FBX_KINDS = {"wrap": "euler_wrap", "flip": "euler_flip", "gimbal": "gimbal_lock",
             "range": "euler_range"}

# Each Euler finding in FBX's words (keys, not frames; the FBX player is per channel), with
# the parameters of quatlab.math.euler_track.audit_euler's finding.
_TEMPLATES = {
    "wrap": N_("{channel} goes from {v0:.6g} to {v1:.6g} deg between keys {i} and {j}: the FBX "
               "player (Maya, ufbx) follows the curve {long:.6g} deg the long way, as "
               "authored; a runtime that converts the keys to quaternions and SLERPs turns "
               "{short:.6g} deg the short way unless the export inserts keys"),
    "flip": N_("the Euler triple jumps between keys {i} and {j} ({before} -> {after} deg, a "
               "channel moves {jump:.4g} deg) while the rotation turns only {turn:.3g} deg; the "
               "key's other triple is within {other:.4g} deg of the previous one: the FBX "
               "player swings through poses that are in neither key, a quaternion runtime "
               "does not"),
    "gimbal": N_("key {i}: {middle} is {angle:.6g} deg, within {tol:g} deg of +-90 (gimbal "
                 "lock): the first and third axes nearly coincide, so the curves need large "
                 "changes of {first} and {third} for small turns; resampling or filtering "
                 "them is risky"),
}


def euler_findings(euler: np.ndarray, order: int, node_name: str) -> list[Finding]:
    """Euler-family findings of a node's blended rotation at its keys ``(K, 3)`` (X, Y, Z deg).

    ``keys`` are key indices: ``(k - 1, k)`` for a wrap or a triple switch,
    ``(k,)`` for gimbal lock, ``(first, last)`` for a run outside +-180 deg.
    """
    cols = euler_columns(order)
    listed = np.asarray(euler, dtype=np.float64)[:, cols]
    names = [f"{node_name} Lcl Rotation {'XYZ'[c]}" for c in cols]
    out: list[Finding] = []
    if len(listed) == 0:
        return out
    for f in E.audit_euler(listed, order_string(order), channel_names=names):
        if f.kind not in _TEMPLATES:      # sign_flip: the quaternion family covers it
            continue
        keys = (f.frame,) if f.kind == "gimbal" else (f.frame - 1, f.frame)
        out.append(Finding(FBX_KINDS[f.kind], keys, LazyText(_TEMPLATES[f.kind], **f.params)))
    for f in E.beyond_half_turn(listed, channel_names=names):
        last, peak = f.values
        message = LazyText(N_(
            "{channel} lies outside [-180, 180] deg from key {first} to key {last} (up to "
            "{peak:.6g} deg). The FBX player follows it; a tool that clamps or re-exports the "
            "angle into that range puts a 360 deg jump at key {first}, which a per-channel "
            "player then spins through"), channel=names[f.channel], first=f.frame, last=last,
            peak=peak)
        out.append(Finding(FBX_KINDS["range"], (f.frame, int(last)), message))
    return out


def frame_times(start: float, end: float, fps: float) -> np.ndarray:
    """The frame times of ``[start, end]`` at ``fps`` (both ends included when on the grid).

    >>> frame_times(0.0, 0.1, 30.0).tolist()
    [0.0, 0.03333333333333333, 0.06666666666666667, 0.1]
    """
    n = int(np.floor((end - start) * fps + 1e-6)) + 1
    return start + np.arange(max(n, 1)) / fps


def frame_findings(evaluator: ClipEvaluator, node: int, key_times: np.ndarray, *,
                   frames: np.ndarray, rotations: np.ndarray | None = None) -> list[Finding]:
    """``frame_sign_flip`` findings of ``node`` evaluated at the frame times ``frames``.

    ``rotations`` ``(F, 4)``, if given, are that evaluation already made.
    """
    if rotations is None:
        rotations = evaluator.local(frames, [node]).rotation[:, 0]
    if len(frames) < 2:
        return []
    dots = np.einsum("ij,ij->i", rotations[:-1], rotations[1:])
    out = []
    for f in np.flatnonzero(dots < 0.0):
        f = int(f)
        t0, t1 = float(frames[f]), float(frames[f + 1])
        k = int(np.clip(np.searchsorted(key_times, t0, side="right") - 1, 0,
                        max(len(key_times) - 1, 0)))
        keys = (k, k + 1) if k + 1 < len(key_times) else (k,)
        turn = float(np.degrees(2.0 * np.arccos(min(1.0, abs(float(dots[f]))))))
        out.append(Finding("frame_sign_flip", keys, LazyText(N_(
            "frames {f0} and {f1} ({t0:.4g} s, {t1:.4g} s) of the per-frame evaluation have "
            "dot {dot:.4g} < 0: a runtime that bakes a quaternion per frame receives a sign "
            "flip here, and one that lerps components without a hemisphere check turns "
            "{long:.4g} deg instead of {short:.4g} deg"), f0=f, f1=f + 1, t0=t0, t1=t1,
            dot=float(dots[f]), long=360.0 - turn, short=turn)))
    return out
