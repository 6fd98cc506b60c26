"""The weighted rotation mean of Markley et al. (2007): the top eigenvector of ``sum w q q^T``.

For unit quaternions ``q_i`` (w, x, y, z) with weights ``w_i >= 0``
(``docs/rotations.md``, "Rotation mean"), the mean is the unit ``q`` that
maximizes ``sum_i w_i (q · q_i)^2``: the eigenvector of the 4 x 4 matrix

    M = sum_i w_i q_i q_i^T / sum_i w_i

with the largest eigenvalue. Equivalently it minimizes the weighted sum of
squared Frobenius distances between the rotation matrices (the chordal L2
mean), which is what scipy's ``Rotation.mean`` computes. ``q_i q_i^T`` does
not change when ``q_i`` becomes ``-q_i``, so the mean does not depend on the
stored signs, on the order of the inputs or on any reference: unlike the
normalized sum of :mod:`quatlab.math.blend`, which agrees with it only to
second order in the spread of the poses.

When the two largest eigenvalues are equal the mean is not unique (poses
0, 120 and 240 degrees about one axis with equal weights: every rotation on
a circle is as good). It is then refused (:class:`MeanUndefinedError`), or
NaN with ``undefined="nan"``, never an arbitrary pick: below a gap of
:data:`MEAN_GAP` the eigenvector would move by ~1e-16 / gap under rounding.

Examples
--------
>>> import numpy as np
>>> from quatlab.math import quaternion as Q
>>> poses = Q.from_axis_angle([0, 0, 1], np.radians([0.0, 90.0]))
>>> q = mean(poses, [3, 1])          # about one axis: the circular mean of 0 and 90 deg
>>> round(float(np.degrees(Q.to_axis_angle(q)[1])), 9)     # atan2(1, 3)
18.434948823
>>> np.allclose(mean(poses * [[1], [-1]], [3, 1]), q)     # the stored signs do not matter
True
"""

from __future__ import annotations

import numpy as np

from quatlab.math.blend import _validate
from quatlab.math.quaternion import canonical

__all__ = ["MEAN_GAP", "MeanUndefinedError", "mean_matrix", "mean"]

#: Smallest gap between the two largest eigenvalues of ``M`` (whose trace is 1)
#: for which the mean counts as unique. An exactly symmetric set of poses
#: shows a gap of ~1e-16 after rounding; at 1e-9 the eigenvector is still
#: determined to ~1e-7 rad.
MEAN_GAP = 1e-9

#: What :func:`mean` does where the mean is not unique.
UNDEFINED = ("raise", "nan")


class MeanUndefinedError(ValueError):
    """The weighted poses have no unique mean: the largest eigenvalue is repeated."""


def mean_matrix(quats, weights=None) -> np.ndarray:
    """``M = sum_i w_i q_i q_i^T / sum_i w_i`` (``(..., 4, 4)``, symmetric, trace 1).

    Parameters
    ----------
    quats : array_like, shape (..., N, 4)
        Poses (w, x, y, z), normalized here; zero, NaN or infinite ones raise.
    weights : array_like, shape (..., N), optional
        Non-negative, not all zero; only their ratios matter. Equal by default.

    Examples
    --------
    >>> mean_matrix([[1, 0, 0, 0], [0, 0, 0, -1]], [3, 1])
    array([[0.75, 0.  , 0.  , 0.  ],
           [0.  , 0.  , 0.  , 0.  ],
           [0.  , 0.  , 0.  , 0.  ],
           [0.  , 0.  , 0.  , 0.25]])
    """
    q, w = _validate(quats, np.ones(np.shape(quats)[-2:-1]) if weights is None else weights)
    w = w / np.sum(w, axis=-1, keepdims=True)
    return np.einsum("...n,...ni,...nj->...ij", w, q, q)


def mean(quats, weights=None, *, undefined: str = "raise") -> np.ndarray:
    """The weighted rotation mean of Markley et al.: sign-, order- and reference-free.

    Parameters
    ----------
    quats : array_like, shape (..., N, 4)
        Poses (w, x, y, z), normalized here; either sign of each will do.
    weights : array_like, shape (..., N), optional
        Non-negative, not all zero; equal by default. Leading shapes
        broadcast with those of ``quats``.
    undefined : {"raise", "nan"}
        Where the mean is not unique (the two largest eigenvalues of
        :func:`mean_matrix` within :data:`MEAN_GAP`): raise
        :class:`MeanUndefinedError`, or return NaN for that mean.

    Returns
    -------
    ndarray, shape (..., 4)
        Unit quaternion(s) in canonical form (w >= 0, see
        :func:`~quatlab.math.quaternion.canonical`).

    Raises
    ------
    ValueError
        For invalid input; the message names the argument and the shape
        it expects.
    MeanUndefinedError
        With ``undefined="raise"``, where the mean is not unique.

    Examples
    --------
    >>> from quatlab.math import quaternion as Q
    >>> poses = Q.from_axis_angle([0, 0, 1], np.radians([0.0, 120.0, 240.0]))
    >>> mean(poses, [0.25, 0.5, 0.5]).round(12) + 0.0   # 180 deg; the normalized sum says 0
    array([0., 0., 0., 1.])
    >>> mean(poses, [[1, 1, 1], [1, 0, 0]], undefined="nan")
    array([[nan, nan, nan, nan],
           [ 1.,  0.,  0.,  0.]])
    >>> mean(poses)
    Traceback (most recent call last):
    ...
    quatlab.math.rotation_mean.MeanUndefinedError: the rotation mean is not unique: ...
    """
    if undefined not in UNDEFINED:
        raise ValueError(f"undefined must be one of {UNDEFINED}, got {undefined!r}")
    m = mean_matrix(quats, weights)
    values, vectors = np.linalg.eigh(m)
    gap = values[..., 3] - values[..., 2]
    unique = gap > MEAN_GAP
    if undefined == "raise" and not np.all(unique):
        worst = float(np.min(gap))
        raise MeanUndefinedError(
            "the rotation mean is not unique: the two largest eigenvalues of sum w q q^T are "
            f"equal (gap {worst:.2g} < {MEAN_GAP:g}), as for poses spread evenly about one axis")
    top = vectors[..., :, 3]
    out = np.full(top.shape, np.nan)
    out[unique] = canonical(top[unique])
    return out
