"""The shortest-arc rotation taking one direction onto another, as a (w, x, y, z) quaternion.

For non-zero vectors ``a`` and ``b`` (``docs/rotations.md``, "Rotation between
two vectors") the rotation of least angle with ``R a ∥ b`` turns about
``a × b`` by the angle between them::

    θ = atan2(|â × b̂|, â · b̂) ∈ [0, π],    q = (cos θ/2, sin θ/2 (â × b̂) / |â × b̂|)

``atan2`` keeps full accuracy near 0 and π, where ``acos(â · b̂)`` loses
half its digits. Two cases have no cross product to turn about:

* parallel (``â × b̂ = 0``, ``â · b̂ > 0``): the identity;
* antiparallel (``â × b̂ = 0``, ``â · b̂ < 0``): every half turn about an axis
  perpendicular to ``a`` will do. The one chosen is the half turn about the
  coordinate axis ``e`` along which ``a`` has its smallest absolute component
  (the first of x, y, z on ties), made perpendicular to ``a``:
  ``n = (e - (e · â) â) / |e - (e · â) â|``. So ``x`` goes onto ``-x`` about
  ``y``, and ``y`` or ``z`` onto their negatives about ``x``. ``|e × â|`` is at
  least ``sqrt(2/3)``, so the axis is well conditioned.

The result is :func:`~quatlab.math.quaternion.canonical` (w >= 0, and at
w = 0, the half turns, the first non-zero component positive), so it is one
definite quaternion, not "q or -q".

Examples
--------
>>> import numpy as np
>>> from quatlab.math import quaternion as Q
>>> q = rotation_between([1, 0, 0], [0, 2, 0])      # a quarter turn about z
>>> np.round(q, 12) + 0.0
array([0.70710678, 0.        , 0.        , 0.70710678])
>>> np.round(Q.rotate_vector(q, [1, 0, 0]), 12) + 0.0
array([0., 1., 0.])
>>> rotation_between([1, 0, 0], [-3, 0, 0])         # antiparallel: a half turn about y
array([0., 0., 1., 0.])
"""

from __future__ import annotations

import numpy as np

from quatlab.math.quaternion import _as_vector, _broadcast, _vector_norm, canonical, from_axis_angle

__all__ = ["rotation_between"]


def _unit(v: np.ndarray, name: str) -> np.ndarray:
    n = _vector_norm(v)
    if np.any(n == 0):
        raise ValueError(f"{name} has zero length: it has no direction to rotate")
    return v / n[..., None]


def _perpendicular(a: np.ndarray) -> np.ndarray:
    """Unit vector(s) perpendicular to unit ``a``: the coordinate axis least along it, projected."""
    e = np.eye(3)[np.argmin(np.abs(a), axis=-1)]
    n = e - np.einsum("...i,...i->...", e, a)[..., None] * a
    return n / _vector_norm(n)[..., None]


def rotation_between(a, b) -> np.ndarray:
    """The rotation of least angle taking the direction of ``a`` onto that of ``b``.

    Parameters
    ----------
    a, b : array_like, shape (..., 3)
        Non-zero, finite vectors; only their directions count. Leading
        shapes broadcast.

    Returns
    -------
    ndarray, shape (..., 4)
        Unit quaternion(s) (w, x, y, z) in canonical form, with
        ``rotate_vector(q, a)`` along ``b``. Parallel vectors give the
        identity; antiparallel ones a half turn about the axis chosen in the
        module documentation.

    Raises
    ------
    ValueError
        For a wrong shape, NaN or infinity, a zero vector, or shapes that do
        not broadcast; the message names the argument.

    Examples
    --------
    >>> from quatlab.math import quaternion as Q
    >>> q = rotation_between([[0, 0, 1], [0, 0, 1]], [[0, 0, 5], [0, 1, 1]])
    >>> np.round(np.degrees(Q.to_axis_angle(q)[1]), 9)
    array([ 0., 45.])
    >>> rotation_between([0, 0, 1], [0, 0, -1])         # z onto -z: a half turn about x
    array([0., 1., 0., 0.])
    >>> rotation_between([0, 0, 0], [1, 0, 0])
    Traceback (most recent call last):
    ...
    ValueError: a has zero length: it has no direction to rotate
    """
    a = _as_vector(a, "a")
    b = _as_vector(b, "b")
    shape = _broadcast(("a", a, 1), ("b", b, 1))
    ua = np.broadcast_to(_unit(a, "a"), shape + (3,))
    ub = np.broadcast_to(_unit(b, "b"), shape + (3,))
    cross = np.cross(ua, ub)
    s = _vector_norm(cross)
    angle = np.arctan2(s, np.einsum("...i,...i->...", ua, ub))
    # No cross product: parallel (angle 0, any axis gives the identity) or
    # antiparallel (angle pi about the documented perpendicular).
    axis = np.where((s > 0)[..., None], cross, _perpendicular(ua))
    return canonical(from_axis_angle(axis, angle))
