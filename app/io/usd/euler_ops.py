"""USD Euler rotate ops (``xformOp:rotateXYZ`` ... ``rotateZ``) as rotations, audited and filtered.

A rotate op stores degrees as ``(x, y, z)`` components whatever its name; the name
says the order the axes apply: ``rotateXYZ`` turns about X first, then Y, then Z,
so on column vectors ``R = Rz Ry Rx``, QuatLab's extrinsic order ``"xyz"`` with the
angles in that order (docs/formats.md, "USD"; checked against usd-core's
``UsdGeomXformOp.GetOpTransform`` in the tests). Single-axis ops (``rotateZ``)
store one angle. An inverse op (``!invert!``) is the inverse rotation.

The audit is :func:`quatlab.math.euler_track.audit_euler` on the angles in
application order, plus, for single-axis ops, the wrap (a change of more than
180 degrees between samples). usd-core interpolates an Euler op component by
component, so a wrap really spins the prim the long way in USD; the filter
(:func:`filtered_values`) moves angles by whole turns (and, for three-axis ops,
to the other equivalent triple) so that every sample is the same rotation and
neighbours are close.

Examples
--------
>>> import numpy as np
>>> np.round(rotations(np.array([[0.0, 0.0, 90.0]]), "xyz"), 6) + 0.0   # 90 deg about Z
array([[0.707107, 0.      , 0.      , 0.707107]])
>>> filtered_values(np.array([[170.0], [-170.0]]), "z").ravel().tolist()
[170.0, 190.0]
"""

from __future__ import annotations

import numpy as np

from quatlab.math import euler_track as E
from quatlab.math import quaternion as Q

__all__ = ["rotations", "sequence", "channels", "audit", "filtered_values",
           "single_axis_wraps"]

_COMPONENT = {"x": 0, "y": 1, "z": 2}
_AXIS = {"x": np.array([1.0, 0, 0]), "y": np.array([0, 1.0, 0]), "z": np.array([0, 0, 1.0])}


def sequence(values: np.ndarray, order: str) -> np.ndarray:
    """The stored angles ``(S, k)`` in application order: the columns ``order`` names."""
    values = np.asarray(values, dtype=np.float64)
    if len(order) == 1:
        return values.reshape(len(values), 1)
    return values[:, [_COMPONENT[a] for a in order]]


def rotations(values: np.ndarray, order: str, inverse: bool = False) -> np.ndarray:
    """Quaternions ``(S, 4)`` (w, x, y, z) of a rotate op's samples (degrees, stored order)."""
    seq = np.radians(sequence(values, order))
    if len(order) == 1:
        q = Q.from_axis_angle(_AXIS[order], seq[:, 0])
    else:
        q = Q.from_euler(seq, order)
    q = np.asarray(q, dtype=np.float64).reshape(-1, 4)
    if inverse:
        q = q * np.array([1.0, -1.0, -1.0, -1.0])
    return q


def channels(values: np.ndarray, order: str, inverse: bool = False) -> tuple[np.ndarray, str]:
    """The op as three Euler channels: ``(degrees (S, 3), order)`` with ``from_euler`` of a row
    the sample's rotation (``order`` extrinsic, the angles listed in it).

    What a player that blends each channel on its own needs, and what usd-core
    does (it interpolates the stored components, then builds the op). A
    single-axis op is that channel with the two others at 0; an inverse op
    ``R^-1`` is the reversed order with the angles negated
    (``(Rz Ry Rx)^-1 = Rx^-1 Ry^-1 Rz^-1``), so a blend of its channels is the
    inverse of the blend of the stored ones.

    >>> channels(np.array([[10.0, 20.0, 30.0]]), "zxy")[0].tolist(), channels([[5.0]], "y")
    ([[30.0, 10.0, 20.0]], (array([[0., 5., 0.]]), 'xyz'))
    >>> channels(np.array([[10.0, 20.0, 30.0]]), "xyz", inverse=True)
    (array([[-30., -20., -10.]]), 'zyx')
    """
    seq = sequence(values, order)
    if len(order) == 1:
        angles = np.zeros((len(seq), 3))
        angles[:, _COMPONENT[order]] = seq[:, 0]
        order = "xyz"
    else:
        angles = seq
    if inverse:
        angles, order = -angles[:, ::-1], order[::-1]
    return angles, order


def single_axis_wraps(values: np.ndarray) -> np.ndarray:
    """Indices ``i`` where one stored angle changes by more than 180 degrees to ``i + 1``."""
    v = np.asarray(values, dtype=np.float64).reshape(-1)
    return np.flatnonzero(np.abs(np.diff(v)) > 180.0)


def audit(values: np.ndarray, order: str, names) -> list:
    """The :class:`~quatlab.math.euler_track.EulerFinding` list of a three-axis op (else [])."""
    if len(order) != 3:
        return []
    return E.audit_euler(sequence(values, order), order, channel_names=names)


def filtered_values(values: np.ndarray, order: str) -> np.ndarray:
    """The op's samples without wraps or triple switches, in stored component order."""
    values = np.asarray(values, dtype=np.float64)
    if len(order) == 1:
        v = values.reshape(len(values), -1).copy()
        if len(v) > 1:
            k = np.round(np.diff(v[:, 0]) / 360.0)
            v[1:, 0] -= 360.0 * np.cumsum(k)
        return v.reshape(values.shape)
    out = values.copy()
    cols = [_COMPONENT[a] for a in order]
    out[:, cols] = E.euler_filter(values[:, cols], order)
    return out
