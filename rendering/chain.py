"""Forward kinematics of the demo joint chain (numpy only: no Qt, no GL).

The 3D viewport drives a small chain of bones with one interpolated rotation
``q``. What the chain looks like is decided here, so it can be tested without
a display and reused by anything that wants the same pose (the tip trail, a
future exporter):

* World frame is z-up, as in pyqtgraph: the ground grid lies in the XY plane
  at z = 0 and the chain root is lifted to :data:`ROOT` = (0, 0, 0.5) so the
  rest pose does not cut the grid.
* Every bone extends along its own local +X axis. Bone ``k`` starts at joint
  ``k`` and ends at joint ``k + 1``; the last joint is the tip.
* Bone lengths taper by :data:`BONE_TAPER` (1.0, 0.8, 0.64 for three bones):
  a slightly shorter bone after a longer one reads as "root to tip" at a
  glance, like a finger, and makes the compounded curl spiral inward instead
  of drawing a regular polygon whose sides are hard to tell apart.
* **Compounding** (the default): every joint carries the same local rotation
  ``q`` relative to its parent, so bone ``k``'s world rotation is
  ``q^(k+1)`` and a rotation the long way round is amplified down the chain.
  **Root only**: bone 0 turns by ``q`` and the rest follow it rigidly (local
  identity), so the whole chain is one rigid body.

The powers are products of copies of ``q`` through
:func:`quatlab.math.quaternion.multiply`, not
:func:`~quatlab.math.quaternion.power`: a product is exact to rounding and
keeps the sign the data has (``(-q)^2 = q^2`` but ``(-q)^3 = -q^3``), which is
the point of a tool about signs.

A row of ``local_q`` containing NaN (a sample where the interpolation does
not exist, such as the naive NLERP of q and -q at t = 0.5) yields NaN
positions and rotations for that row, never an exception and never an
invented pose; :func:`polyline_segments` turns those NaN rows into gaps.

Examples
--------
>>> import numpy as np
>>> from quatlab.math import quaternion as Q
>>> pos, rot = chain_frames(Q.IDENTITY)
>>> np.round(pos, 6).tolist()   # straight along +X, lifted to z = 0.5
[[0.0, 0.0, 0.5], [1.0, 0.0, 0.5], [1.8, 0.0, 0.5], [2.44, 0.0, 0.5]]
>>> q = Q.from_axis_angle([0, 0, 1], np.pi / 2)
>>> np.round(chain_frames(q)[0][-1], 6).tolist()   # bone k turned (k+1) * 90 deg
[-0.8, 0.36, 0.5]
>>> (np.round(chain_frames(q, root_only=True)[0][-1], 6) + 0.0).tolist()  # + 0.0: no -0.0
[0.0, 2.44, 0.5]
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from quatlab.math import quaternion as Q

__all__ = [
    "ROOT",
    "ROW_SPACING",
    "ROW_VIEW",
    "roots_in_a_row",
    "BONE_TAPER",
    "DEFAULT_BONES",
    "bone_lengths",
    "chain_reach",
    "chain_frames",
    "tip_trail",
    "HAND_HEIGHT",
    "hand_height",
    "marker_trail",
    "segment_indices",
    "polyline_segments",
]

#: World position of the chain root: above the ground grid (z = 0).
ROOT = np.array([0.0, 0.0, 0.5])

#: Distance between the roots of chains shown side by side (:func:`roots_in_a_row`):
#: even curled chains (reach 2.44, but a curl stays within about 1.3 of its
#: root sideways) do not touch, and four fit on the 8 m grid.
ROW_SPACING = 2.5

#: Camera (elevation, azimuth) in degrees for chains in a row along Y: seen
#: from nearer the X axis and higher up they spread across the screen instead
#: of into its depth, and curls in the ground plane read as curls.
ROW_VIEW = (35.0, -25.0)


def roots_in_a_row(keys, spacing: float = ROW_SPACING) -> dict:
    """Roots for chains ``keys`` side by side along Y, centred on :data:`ROOT`, in order.

    >>> {k: r.tolist() for k, r in roots_in_a_row("ab").items()}
    {'a': [0.0, -1.25, 0.5], 'b': [0.0, 1.25, 0.5]}
    """
    keys = list(keys)
    middle = (len(keys) - 1) / 2
    return {k: ROOT + [0.0, (i - middle) * spacing, 0.0] for i, k in enumerate(keys)}


#: Each bone is this fraction of the previous one's length.
BONE_TAPER = 0.8

#: Number of bones the viewport shows by default.
DEFAULT_BONES = 3

#: Height of the flat "hand" on the last bone, along that bone's local +Z,
#: as a fraction of the root bone's length. The tip trail follows the top
#: of the hand (:func:`marker_trail`), so a turn about the bone axis, which
#: leaves the tip itself where it is, still draws an arc.
HAND_HEIGHT = 0.38


def bone_lengths(n_bones: int = DEFAULT_BONES, bone_length=1.0) -> np.ndarray:
    """Lengths of the ``n_bones`` bones, root first.

    Parameters
    ----------
    n_bones : int
        Number of bones, at least 1.
    bone_length : float or sequence of float
        A number is the root bone's length; the others taper by
        :data:`BONE_TAPER`. A sequence gives every length explicitly and must
        have ``n_bones`` positive entries.

    Returns
    -------
    numpy.ndarray, shape (n_bones,)

    Examples
    --------
    >>> bone_lengths(3).tolist()
    [1.0, 0.8, 0.64]
    >>> bone_lengths(2, [2.0, 1.0]).tolist()
    [2.0, 1.0]
    """
    if isinstance(n_bones, bool) or not isinstance(n_bones, (int, np.integer)) or n_bones < 1:
        raise ValueError(f"n_bones must be a positive integer, got {n_bones!r}")
    if isinstance(bone_length, (Sequence, np.ndarray)):
        lengths = np.asarray(bone_length, dtype=np.float64)
        if lengths.shape != (n_bones,):
            raise ValueError(
                f"bone_length must be a number or {n_bones} lengths, got shape {lengths.shape}"
            )
    else:
        lengths = float(bone_length) * BONE_TAPER ** np.arange(n_bones)
    if not np.all(np.isfinite(lengths) & (lengths > 0)):
        raise ValueError(f"bone_length must be finite and positive, got {bone_length!r}")
    return lengths


#: How many answers of :func:`chain_frames` are kept, and up to how many values of input.
_MEMO_SIZE = 64
_MEMO_VALUES = 4 * 1024
_MEMO: OrderedDict[tuple, tuple[np.ndarray, np.ndarray]] = OrderedDict()
_MEMO_LOCK = threading.Lock()  # the lessons' worker threads may pose chains too


def chain_reach(n_bones: int = DEFAULT_BONES, bone_length=1.0) -> float:
    """Distance from the root to the tip of the straight chain (its largest reach).

    Examples
    --------
    >>> round(chain_reach(3), 12)
    2.44
    """
    return float(bone_lengths(n_bones, bone_length).sum())


def chain_frames(local_q, n_bones: int = DEFAULT_BONES, bone_length=1.0, *,
                 root_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Joint positions and bone world rotations of the chain driven by ``local_q``.

    Parameters
    ----------
    local_q : array_like, shape (..., 4)
        Local joint rotation(s), (w, x, y, z); normalized here. Rows holding
        NaN or infinite components mark undefined samples and give NaN
        outputs. A zero-length row raises :class:`ValueError`.
    n_bones : int
        Number of bones.
    bone_length : float or sequence of float
        See :func:`bone_lengths`.
    root_only : bool
        If true only the root joint turns by ``local_q``; otherwise every
        joint does, so bone ``k`` turns by ``local_q^(k+1)`` in the world.

    Returns
    -------
    positions : numpy.ndarray, shape (..., n_bones + 1, 3)
        Joint positions in world coordinates: root first, tip last.
    rotations : numpy.ndarray, shape (..., n_bones, 4)
        World rotation (w, x, y, z) of each bone; the bone's local frame has
        its origin at ``positions[..., k, :]`` and points along its local +X.

    Examples
    --------
    >>> pos, rot = chain_frames([[1, 0, 0, 0], [np.nan] * 4], n_bones=2)
    >>> pos.shape, rot.shape
    ((2, 3, 3), (2, 2, 4))
    >>> bool(np.isnan(pos[1]).all())
    True

    The last few answers are kept (:data:`_MEMO_SIZE`): a camera fit asks
    for the same poses of every framed chain again, once for the joints and
    once for the hand's marker, and a lesson sets several framed chains in a
    row, each re-fitting the camera (the blending lesson fitted it eight
    times per preset). The caller gets its own copies.
    """
    q = np.asarray(local_q, dtype=np.float64)
    if q.ndim == 0 or q.shape[-1] != 4:
        raise ValueError(f"local_q must have shape (..., 4) in (w, x, y, z) order, got {q.shape}")
    lengths = bone_lengths(n_bones, bone_length)
    if q.size > _MEMO_VALUES:
        return _chain_frames(q, lengths, root_only)
    key = (q.shape, q.tobytes(), lengths.tobytes(), bool(root_only))
    with _MEMO_LOCK:
        found = _MEMO.get(key)
        if found is not None:
            _MEMO.move_to_end(key)
    if found is None:
        found = _chain_frames(q, lengths, root_only)
        with _MEMO_LOCK:
            _MEMO[key] = found
            while len(_MEMO) > _MEMO_SIZE:
                _MEMO.popitem(last=False)
    return found[0].copy(), found[1].copy()


def _chain_frames(q: np.ndarray, lengths: np.ndarray, root_only: bool
                  ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`chain_frames` worked out, for bone ``lengths`` already checked."""
    n_bones = len(lengths)
    undefined = ~np.all(np.isfinite(q), axis=-1)
    # Undefined rows get the identity so the quaternion functions (which
    # reject NaN) can run on the whole batch; their outputs are blanked below.
    q = Q.as_quaternion(np.where(undefined[..., None], Q.IDENTITY, q), "local_q")

    rotations = np.empty(q.shape[:-1] + (n_bones, 4))
    world = q
    for k in range(n_bones):
        rotations[..., k, :] = world
        if not root_only:
            world = Q.multiply(world, q)  # parent's world rotation, then the local q

    offsets = np.zeros((n_bones, 3))
    offsets[:, 0] = lengths
    bones = Q.rotate_vector(rotations, offsets)
    positions = np.empty(q.shape[:-1] + (n_bones + 1, 3))
    positions[..., 0, :] = ROOT
    positions[..., 1:, :] = ROOT + np.cumsum(bones, axis=-2)

    positions[undefined] = np.nan
    rotations[undefined] = np.nan
    return positions, rotations


def tip_trail(path_q, n_bones: int = DEFAULT_BONES, bone_length=1.0, *,
              root_only: bool = False) -> np.ndarray:
    """World positions of the chain tip along a sampled rotation path.

    Parameters
    ----------
    path_q : array_like, shape (N, 4)
        The interpolated local rotations, (w, x, y, z); NaN rows are gaps.
    n_bones, bone_length, root_only
        As in :func:`chain_frames`.

    Returns
    -------
    numpy.ndarray, shape (N, 3)
        Tip positions; NaN where ``path_q`` is undefined.

    Examples
    --------
    >>> tip_trail([[1, 0, 0, 0], [np.nan] * 4]).round(6).tolist()
    [[2.44, 0.0, 0.5], [nan, nan, nan]]
    """
    path = np.asarray(path_q, dtype=np.float64)
    if path.ndim != 2 or path.shape[-1] != 4:
        raise ValueError(f"path_q must have shape (N, 4), got shape {path.shape}")
    positions, _ = chain_frames(path, n_bones, bone_length, root_only=root_only)
    return positions[:, -1, :]


def hand_height(n_bones: int = DEFAULT_BONES, bone_length=1.0) -> float:
    """Height of the hand at the chain tip (:data:`HAND_HEIGHT` of the root bone's length).

    >>> hand_height()
    0.38
    """
    return HAND_HEIGHT * float(bone_lengths(n_bones, bone_length)[0])


def marker_trail(path_q, n_bones: int = DEFAULT_BONES, bone_length=1.0, *,
                 root_only: bool = False) -> np.ndarray:
    """World positions of the top of the hand along a sampled rotation path.

    The hand rises from the tip along the last bone's local +Z by
    :func:`hand_height`, so the marker is off every bone axis: a turn about
    the chain's own axis (a half turn about X) draws a circle here where
    :func:`tip_trail` stays a point.

    Examples
    --------
    >>> marker_trail([[1, 0, 0, 0], [0, 1, 0, 0]], root_only=True).round(6).tolist()
    [[2.44, 0.0, 0.88], [2.44, 0.0, 0.12]]
    >>> bool(np.isnan(marker_trail([[np.nan] * 4])).all())
    True
    """
    path = np.asarray(path_q, dtype=np.float64)
    if path.ndim != 2 or path.shape[-1] != 4:
        raise ValueError(f"path_q must have shape (N, 4), got shape {path.shape}")
    positions, rotations = chain_frames(path, n_bones, bone_length, root_only=root_only)
    up = np.array([0.0, 0.0, hand_height(n_bones, bone_length)])
    last = rotations[:, -1, :]
    undefined = ~np.all(np.isfinite(last), axis=-1)
    # rotate_vector rejects NaN: undefined rows turn by the identity and are
    # blanked again, as in chain_frames.
    lifted = Q.rotate_vector(np.where(undefined[:, None], Q.IDENTITY, last), up)
    marker = positions[:, -1, :] + lifted
    marker[undefined] = np.nan
    return marker


def segment_indices(points, tolerance: float = 0.0) -> np.ndarray:
    """Indices of the segment ends of a polyline with NaN gaps, for GL ``'lines'`` mode.

    A GL line strip cannot skip a vertex: a NaN vertex is undefined
    behaviour, not a gap. This returns the index pairs ``(i, j)`` of
    consecutive drawn points whose both points are finite, flattened, so
    ``points[segment_indices(points)]`` is the vertex array of GL ``'lines'``
    and any per-point value (a colour, a t) can be taken at the same indices.

    Parameters
    ----------
    points : array_like, shape (N, 3)
    tolerance : float
        With a positive ``tolerance`` (world units) a densely sampled trail
        keeps one point per ``tolerance`` of its length, and every end of a
        run between gaps: no dropped point lies further than ``tolerance``
        along the trail from a kept one, so below a pixel the trail looks the
        same, with a fraction of the vertices (12,000 samples of a 200-key
        track). A segment that repeats an earlier one to within ``tolerance``
        (a spin integrated over a hundred turns) is kept once, at its last
        pass. 0 keeps every point: segments ``(i, i + 1)``.

    Returns
    -------
    numpy.ndarray of int, shape (2 M,)
        Entries ``2 j`` and ``2 j + 1`` index the ends of segment ``j``.

    Examples
    --------
    >>> segment_indices([[0, 0, 0], [1, 0, 0], [np.nan] * 3, [3, 0, 0], [4, 0, 0]]).tolist()
    [0, 1, 3, 4]
    >>> line = [[0.0, 0, 0], [0.1, 0, 0], [0.2, 0, 0], [0.3, 0, 0], [1.3, 0, 0]]
    >>> segment_indices(line, tolerance=0.25).tolist()
    [0, 3, 3, 4]
    >>> twice = [[0.0, 0, 0], [1.0, 0, 0], [0.0, 0, 0], [1.0, 0, 0]]
    >>> segment_indices(twice, tolerance=0.25).tolist()   # 0-1 again as 2-3: kept once
    [1, 2, 2, 3]
    """
    p = np.asarray(points, dtype=np.float64)
    if p.ndim != 2 or p.shape[-1] != 3:
        raise ValueError(f"points must have shape (N, 3), got shape {p.shape}")
    finite = np.all(np.isfinite(p), axis=-1)
    if not tolerance > 0 or len(p) < 3:
        start = np.flatnonzero(finite[:-1] & finite[1:])
        return np.stack([start, start + 1], axis=1).reshape(-1)
    with np.errstate(invalid="ignore"):
        step = np.linalg.norm(np.diff(p, axis=0), axis=-1)
    # Distance along the trail; a gap adds nothing (its ends are kept anyway).
    along = np.concatenate([[0.0], np.cumsum(np.where(np.isfinite(step), step, 0.0))])
    bucket = np.floor(along / tolerance)
    edge = np.ones(len(p), dtype=bool)  # the ends of the trail and of every run
    edge[1:-1] = ~(finite[:-2] & finite[2:])
    keep = finite & (edge | np.concatenate([[True], bucket[1:] != bucket[:-1]]))
    kept = np.flatnonzero(keep)
    gaps = np.cumsum(~finite)
    joined = gaps[kept[1:]] == gaps[kept[:-1]]  # no NaN row between the two
    start, end = kept[:-1][joined], kept[1:][joined]
    # A trail that passes the same place again (a spin integrated over many
    # turns) draws the same segment again: keep its last pass only, the one
    # drawn on top.
    cells = np.floor(np.concatenate([p[start], p[end]], axis=1) / tolerance).astype(np.int64)
    # Equal cells side by side, each group in pass order (lexsort is stable):
    # a group's last row is the last pass.
    order = np.lexsort(cells.T)
    ranked = cells[order]
    last_of_group = np.ones(len(order), dtype=bool)
    last_of_group[:-1] = np.any(ranked[1:] != ranked[:-1], axis=1)
    last = np.sort(order[last_of_group])
    return np.stack([start[last], end[last]], axis=1).reshape(-1)


def polyline_segments(points) -> np.ndarray:
    """Segment end points of a polyline with NaN gaps (see :func:`segment_indices`).

    Parameters
    ----------
    points : array_like, shape (N, 3)

    Returns
    -------
    numpy.ndarray, shape (2 M, 3)
        Rows ``2 j`` and ``2 j + 1`` are the ends of segment ``j``.

    Examples
    --------
    >>> p = [[0, 0, 0], [1, 0, 0], [np.nan] * 3, [3, 0, 0], [4, 0, 0]]
    >>> polyline_segments(p)[:, 0].tolist()
    [0.0, 1.0, 3.0, 4.0]
    """
    p = np.asarray(points, dtype=np.float64)
    return p[segment_indices(p)]
