"""A BVH file's Euler channels audited and filtered joint by joint. No Qt.

The math is :mod:`quatlab.math.euler_track`; this module applies it per joint.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from quatlab.math import euler_track as E

if TYPE_CHECKING:
    from quatlab.app.io.bvh import BvhFile

__all__ = ["audit_rotations", "filtered_motion"]


def _euler_joints(bvh: BvhFile):
    """Joints with three rotation channels forming an Euler order, with their columns."""
    for j in range(bvh.n_joints):
        order = bvh.rotation_order(j)
        if len(order) == 3 and order[0] != order[1] and order[1] != order[2]:
            yield j, order, bvh.rotation_columns(j)


def audit_rotations(bvh: BvhFile, **options) -> list[tuple[int, E.EulerFinding]]:
    """:func:`quatlab.math.euler_track.audit_euler` of every joint: ``(joint index, finding)``.

    Messages name the file's channels (``Zrotation``...) and the joint;
    ``options`` go to ``audit_euler``. Joints with fewer than three rotation
    channels are not audited.

    Examples
    --------
    >>> from quatlab.app.io.bvh import format_bvh, parse_bvh
    >>> b = parse_bvh(b"HIERARCHY\\nROOT A\\n{\\n OFFSET 0 0 0\\n CHANNELS 3 Zrotation Xrotation"
    ...               b" Yrotation\\n}\\nMOTION\\nFrames: 2\\nFrame Time: 1\\n"
    ...               b"179 0 0\\n-179 0 0\\n")
    >>> [(j, f.kind, f.frame) for j, f in audit_rotations(b)]
    [(0, 'wrap', 1), (0, 'sign_flip', 1)]
    """
    out = []
    for j, order, cols in _euler_joints(bvh):
        names = [f"{bvh.names[j]} {bvh.channels[j][c - bvh.channel_start[j]]}" for c in cols]
        for f in E.audit_euler(bvh.motion[:, cols], order, channel_names=names, **options):
            out.append((j, f))
    return out


def filtered_motion(bvh: BvhFile) -> np.ndarray:
    """Motion ``(F, C)`` with every joint's rotation channels through the Euler filter.

    Position channels are kept. Rotation channels that are not a three-axis
    Euler order (one or two channels, an axis twice in a row) are only
    unwrapped: each moved by whole turns to within 180 degrees of the
    previous frame. The rotations are the same (see
    :func:`quatlab.math.euler_track.euler_filter`). Write it back with
    :func:`write_bvh`.

    Examples
    --------
    >>> from quatlab.app.io.bvh import format_bvh, parse_bvh
    >>> b = parse_bvh(b"HIERARCHY\\nROOT A\\n{\\n OFFSET 0 0 0\\n CHANNELS 3 Zrotation Xrotation"
    ...               b" Yrotation\\n}\\nMOTION\\nFrames: 2\\nFrame Time: 1\\n"
    ...               b"179 0 0\\n-179 0 0\\n")
    >>> filtered_motion(b)
    array([[179.,   0.,   0.],
           [181.,   0.,   0.]])
    >>> format_bvh(b, filtered_motion(b)).splitlines()[-1]
    b'181 0 0'
    """
    out = np.array(bvh.motion, dtype=np.float64)
    done = set()
    for j, order, cols in _euler_joints(bvh):
        out[:, cols] = E.euler_filter(out[:, cols], order)
        done.add(j)
    for j in range(bvh.n_joints):
        cols = bvh.rotation_columns(j)
        if j in done or not cols.size or len(out) < 2:
            continue
        # Whole turns as integers, added once: the kept values stay exact.
        k = np.round(np.diff(out[:, cols], axis=0) / 360.0)
        out[1:, cols] -= 360.0 * np.cumsum(k, axis=0)
    return out
