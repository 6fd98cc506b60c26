"""A BVH file's Euler channels audited and filtered joint by joint. No Qt.

The math is :mod:`quatlab.math.euler_track`; this module applies it per joint.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.io.bvh.parse import MAX_ANGLE, error_at, short_text
from quatlab.math import euler_track as E

if TYPE_CHECKING:
    from quatlab.app.io.bvh import BvhFile

__all__ = ["audit_rotations", "audit_rotations_capped", "filtered_motion"]


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
    return [(j, f) for j, (found, _omitted, _frames) in audit_rotations_capped(
        bvh, None, **options).items() for f in found]


def audit_rotations_capped(bvh: BvhFile, limit: int | None, **options) -> dict[int, tuple]:
    """Per joint: :func:`quatlab.math.euler_track.audit_euler_capped`'s first ``limit``
    findings, the counts left out per kind and their first and last frame.

    Each joint's channels are audited a block of frames at a time, so a long
    capture costs little beyond its own numbers. ``options`` go to
    ``audit_euler_capped`` (``kinds=`` limits the kinds looked for).
    """
    out = {}
    for j, order, cols in _euler_joints(bvh):
        names = [f"{bvh.names[j]} {bvh.channels[j][c - bvh.channel_start[j]]}" for c in cols]
        found, omitted, frames = E.audit_euler_capped(_columns(bvh.motion, cols), order, limit,
                                                      channel_names=names, **options)
        if found or omitted:
            out[j] = (found, omitted, frames)
    return out


def _columns(motion: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """``motion[:, cols]`` without a copy when the columns are consecutive (the usual case)."""
    if len(cols) and np.array_equal(cols, np.arange(cols[0], cols[0] + len(cols))):
        return motion[:, cols[0]:cols[0] + len(cols)]
    return motion[:, cols]


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
    >>> bytes(format_bvh(b, filtered_motion(b))).splitlines()[-1]
    b'181 0 0'
    """
    out = np.array(bvh.motion, dtype=np.float64)
    done = set()
    for j, order, cols in _euler_joints(bvh):
        out[:, cols] = E.euler_filter(_columns(out, cols), order)
        done.add(j)
    for j in range(bvh.n_joints):
        cols = bvh.rotation_columns(j)
        if j in done or not cols.size or len(out) < 2:
            continue
        # Whole turns as integers, added once: the kept values stay exact.
        k = np.round(np.diff(out[:, cols], axis=0) / 360.0)
        out[1:, cols] -= 360.0 * np.cumsum(k, axis=0)
    _check_readable(bvh, out)
    return out


def _check_readable(bvh: BvhFile, out: np.ndarray) -> None:
    """Refuse a filtered value the reader would refuse (:data:`~.parse.MAX_ANGLE`).

    Only a channel that starts near the limit and keeps turning one way can
    get there; writing it would make a file that does not read back.
    """
    for j in range(bvh.n_joints):
        cols = bvh.rotation_columns(j)
        for c in cols:
            big = np.flatnonzero(np.abs(out[:, c]) > MAX_ANGLE)
            if big.size:
                f = int(big[0])
                name = bvh.channels[j][c - bvh.channel_start[j]]
                raise error_at(bvh.path, bvh.layout.first_row_line + f, _(
                    "the Euler filter would move {joint} {channel} from {old:.6g} to {new:.6g} "
                    "degrees, beyond +-{limit:.0e}, which no reader of this file would accept; "
                    "nothing was written").format(
                        joint=short_text(bvh.names[j]), channel=name,
                        old=float(bvh.motion[f, c]), new=float(out[f, c]), limit=MAX_ANGLE))
