"""One rotation track over time as the two players play it: the curves the rig view plots. No Qt.

:func:`track_curves` samples a :class:`~quatlab.app.io.tracks.Track` over
its animation's time range with
:func:`~quatlab.app.model.rig_players.sample_channel` for both players and
returns a :class:`TrackCurves`:

* the stored components w, x, y, z at the keys (as stored, sign included:
  the way a graph editor shows them, a sign flip is a jump of every
  component), and of the track before a fix when one is given;
* per player, the rotation angle from the first key (degrees, 0..180) and
  the angular speed (degrees per second) from the sample before. Where the keys
  of a segment lie in opposite hemispheres the naive runtime's angle
  swings far out and its speed spikes; after "Fix signs" the curves of
  the two players coincide.

Examples
--------
>>> from quatlab.app.io.tracks import Track
>>> c = np.sqrt(0.5)
>>> tr = Track(times=[0, 1], values=[[1, 0, 0, 0], [-c, 0, 0, -c]])
>>> cv = track_curves(tr, 0.0, 1.0, samples=5)
>>> cv.t.tolist()
[0.0, 0.25, 0.5, 0.75, 1.0]
>>> np.round(cv.angle["spec"], 1).tolist(), np.round(cv.angle["naive"], 1).tolist()
([0.0, 22.5, 45.0, 67.5, 90.0], [0.0, 34.3, 135.0, 124.3, 90.0])
"""

from __future__ import annotations

import dataclasses

import numpy as np

from quatlab.app.io.gltf.scene import Channel
from quatlab.app.io.tracks import Track
from quatlab.app.model.rig_players import PLAYERS, sample_channel
from quatlab.math.quaternion import angle_between

__all__ = ["TrackCurves", "track_curves", "SAMPLES"]

#: Samples over the animation's range (the key times are added to them).
SAMPLES = 600


@dataclasses.dataclass(frozen=True, eq=False)
class TrackCurves:
    """A track's curves; see the module docstring. Angles in degrees, speeds in degrees/s."""

    key_times: np.ndarray  # (K,)
    keys: np.ndarray  # (K, 4) w, x, y, z as stored
    before: np.ndarray | None  # (K, 4): the keys before a fix, or None
    t: np.ndarray  # (S,) sample times
    angle: dict[str, np.ndarray]  # player -> (S,)
    speed: dict[str, np.ndarray]  # player -> (S,); the first sample repeats the second's


def track_curves(track: Track, start: float, end: float, *, before: Track | None = None,
                 samples: int = SAMPLES, channel: Channel | None = None) -> TrackCurves:
    """Sample ``track`` on ``[start, end]`` for both players (see the module docstring).

    ``channel``: the rig's channel of the track when it plays itself (an FBX
    node, :class:`quatlab.app.model.fbx_rig.FbxChannel`): the spec curve is
    then its own evaluation, and the naive one blends ``track``'s keys.
    """
    key_times = np.asarray(track.times, dtype=np.float64)
    keys = np.asarray(track.values, dtype=np.float64)
    finite = np.isfinite(key_times) & np.all(np.isfinite(keys), axis=1)
    usable = finite & (np.linalg.norm(np.where(finite[:, None], keys, 0.0), axis=1) > 1e-150)
    lo, hi = (float(start), float(end)) if end > start else (float(start), float(start) + 1.0)
    t = np.linspace(lo, hi, max(int(samples), 2))
    inside = key_times[usable & (key_times >= lo) & (key_times <= hi)]
    t = np.union1d(t, inside)
    angle, speed = {}, {}
    ordered = usable.all() and np.all(np.diff(key_times) > 0)
    if ordered and len(keys):
        if channel is not None and hasattr(channel, "sample"):
            channel = dataclasses.replace(channel, times=key_times, values=keys)
        else:
            channel = Channel(track.node_index or 0, "rotation", track.interpolation, key_times,
                              keys, track.in_tangents, track.out_tangents, 0, 0)
        first = keys[0] / np.linalg.norm(keys[0])
        for player in PLAYERS:
            q = sample_channel(channel, t, player)
            angle[player] = np.degrees(angle_between(q, first))
            step = np.degrees(angle_between(q[1:], q[:-1])) / np.diff(t)
            speed[player] = np.concatenate([step[:1], step])
    else:
        # Keys out of order or broken: no player can play the track (the audit says why).
        for player in PLAYERS:
            angle[player] = np.full(len(t), np.nan)
            speed[player] = np.full(len(t), np.nan)
    old = None
    if before is not None and len(before) == len(track) and before.values is not track.values:
        old = np.asarray(before.values, dtype=np.float64)
    return TrackCurves(key_times, keys, old, t, angle, speed)
