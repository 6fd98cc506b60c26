"""A loaded rotation track played by any runtime, or put through pipeline steps. No Qt.

The bridge between :class:`~quatlab.app.io.tracks.Track` (what every reader
returns) and the math layer's runtime players and pipeline
(``docs/runtimes.md``):

* :func:`key_track` turns track ``i`` of a :class:`KeyframeFile` into a
  :class:`~quatlab.math.key_pipeline.KeyTrack`, with the Euler channels the
  file stores for it (BVH; any format through
  :meth:`KeyframeFile.euler_channels`);
* :func:`play_track` plays it (or a :class:`Track`) with runtime id ``runtime``
  at times ``t``: the one call a view needs for a runtime "ghost";
* :func:`after_steps` is the track a pipeline makes of it, as a :class:`Track`
  with the original's names (so the audit and the reports work unchanged);
* :func:`unplayable` says why a track cannot be played (times out of order,
  a zero or non-finite key), or None.

Examples
--------
>>> import numpy as np
>>> c = np.sqrt(0.5)
>>> track = Track(times=[0.0, 1.0], values=[[1, 0, 0, 0], [-c, 0, 0, -c]])
>>> np.round(play_track(track, "nlerp", [0.5]), 4) + 0.0     # the long way
array([[ 0.3827,  0.    ,  0.    , -0.9239]])
>>> fixed = after_steps(track, "positive-w")
>>> (fixed.values[1].round(4) + 0.0).tolist(), fixed.label
([0.7071, 0.0, 0.0, 0.7071], 'track')
"""

from __future__ import annotations

import dataclasses

import numpy as np

from quatlab.app.i18n import N_, LazyText
from quatlab.app.io.tracks import KeyframeFile, Track
from quatlab.math import key_pipeline as KP
from quatlab.math import runtimes as R

__all__ = ["key_track", "play_track", "after_steps", "process", "unplayable", "STEP_QUANTUM"]

#: Storage step of the keys after a step that stores integers (see Track.quantum).
STEP_QUANTUM = {"quantize": lambda bits: 1.0 / (2 ** (bits - 1) - 1),
                "meshopt": lambda bits: 1.0 / 32767}


def key_track(source, index: int | None = None) -> KP.KeyTrack:
    """The :class:`KeyTrack` of a :class:`Track`, or of track ``index`` of a :class:`KeyframeFile`.

    From a file, the track carries the Euler channels the file stores for it.
    """
    euler = None
    if isinstance(source, KeyframeFile):
        track = source.tracks[index]
        euler = source.euler_channels(index)
    else:
        track = source
    return KP.KeyTrack(track.times, track.values, track.interpolation, track.in_tangents,
                       track.out_tangents, euler)


def play_track(track, runtime: str, t) -> np.ndarray:
    """Rotations ``(M, 4)`` (w, x, y, z) that ``runtime`` shows for ``track`` at times ``t``.

    ``track`` is a :class:`Track` or a :class:`KeyTrack` (from :func:`key_track`,
    which carries a file's Euler channels). Raises ValueError for an unknown
    runtime or a track that cannot be played (:func:`unplayable`).
    """
    kt = track if isinstance(track, KP.KeyTrack) else key_track(track)
    return R.play(runtime, kt.keys, kt.times, t, interpolation=kt.interpolation,
                  in_tangents=kt.in_tangents, out_tangents=kt.out_tangents, euler=kt.euler)


def after_steps(track: Track, steps, *, euler=None) -> Track:
    """``track`` after pipeline ``steps`` (a spec or parsed steps), as a :class:`Track`.

    Names, animation and node are kept; ``storage`` says which steps made it
    and ``quantum`` is the coarsest storage step it went through. ``euler``
    is the track's Euler channels, if the file has them.
    """
    return process(track, steps, euler=euler)[0]


def process(track: Track, steps, *, euler=None) -> tuple[Track, KP.KeyTrack]:
    """:func:`after_steps`, and the :class:`KeyTrack` it came from (with Euler channels, if any)."""
    if isinstance(steps, str):
        steps = KP.parse_steps(steps)
    kt = KP.KeyTrack(track.times, track.values, track.interpolation, track.in_tangents,
                     track.out_tangents, euler)
    out = KP.apply_steps(kt, steps)
    quantum = max([track.quantum] + [STEP_QUANTUM[s.kind](s.value) for s in steps
                                     if s.kind in STEP_QUANTUM])
    processed = dataclasses.replace(
        track, times=out.times, values=out.keys, interpolation=out.interpolation,
        in_tangents=out.in_tangents, out_tangents=out.out_tangents, quantum=quantum,
        storage=LazyText(N_("{storage}, after {steps}"), storage=track.storage,
                         steps=",".join(s.text for s in steps)))
    return processed, out


def unplayable(track: Track) -> str | None:
    """Why no player can play ``track`` (its findings say more), or None when it can be played.

    The reason is a :class:`LazyText`: English, translated where it is shown.
    """
    times = track.times
    if not np.all(np.isfinite(times)) or np.any(np.diff(times) <= 0):
        return LazyText(N_("its key times are not finite and increasing"))
    values = track.values
    if not np.all(np.isfinite(values)) or np.any(np.einsum("ij,ij->i", values, values) == 0):
        return LazyText(N_("a key is zero or not finite"))
    for tangents in (track.in_tangents, track.out_tangents):
        if tangents is not None and not np.all(np.isfinite(tangents)):
            return LazyText(N_("a tangent is not finite"))
    return None
