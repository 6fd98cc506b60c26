"""Which parted segments the rig panel shows in 3D now, and their sweeps, made once each.

:class:`RigErrors` is the part of :class:`quatlab.app.qt.rig_view.RigPanel`
that finds where the players part in the animation played
(:func:`~quatlab.app.model.rig_sweeps.parted_segments`, once per animation
and set of keys: after "Fix signs" there are none) and, at each time, the
segments whose sweep shows (:func:`~quatlab.app.model.rig_sweeps.active_segments`:
inside one, or within a moment of it). Their
:class:`~quatlab.app.model.rig_sweeps.SegmentSweep` are worked out with the
animation's box on the sweep loader's thread (:func:`sweeps_of`, onion
skins posed), or the first time they show when the keys changed since
(after an undo of "Fix signs"), and kept (a mixin).
"""

from __future__ import annotations

import numpy as np

from quatlab.app.model.rig_bounds import Stopped
from quatlab.app.model.rig_sweeps import active_segments, parted_segments, segment_sweep

__all__ = ["RigErrors", "sweeps_of"]


def sweeps_of(rig, animation, bounds, segments, *, stop=None) -> dict:
    """The :class:`SegmentSweep` of each of ``segments``, onion skins posed (any thread).

    ``stop``: asked before each segment; True raises ``Stopped``.
    """
    lo, hi = bounds
    size = 0.05 * float(np.linalg.norm(np.asarray(hi) - np.asarray(lo)))
    out = {}
    for seg in segments:
        if stop is not None and stop():
            raise Stopped
        # The fallback is in the joint's units: a fraction of the scene.
        scale = float(np.abs(rig.rest_scale[seg.node]).max()) or 1.0
        out[seg] = segment_sweep(rig, animation, seg, fallback=size / scale)
        _ = out[seg].onion
    return out


class RigErrors:
    """The sweeps of the parted segments near the time shown, for :class:`RigPanel` (a mixin)."""

    _errors_of = None  # (animation, parted segments, {segment: sweep})

    def install_errors(self, animation, segments, sweeps: dict) -> None:
        """Parted segments and sweeps worked out elsewhere (the sweep loader's thread)."""
        if self.playback.animation is animation:
            self._errors_of = (animation, list(segments), dict(sweeps))

    def parted(self) -> list:
        """The parted segments of the animation played (its current keys)."""
        pb = self.playback
        anim = pb.animation
        if pb.rig is None or anim is None:
            return []
        known = self._errors_of
        if known is None or known[0] is not anim:
            known = self._errors_of = (anim, parted_segments(pb.rig, anim), {})
        return known[1]

    def sweeps_now(self) -> list:
        """The sweeps to show at the playback's time (see the module docstring)."""
        segments = self.parted()
        if not segments:
            return []
        pb = self.playback
        anim, _, made = self._errors_of
        active = active_segments(segments, pb.time)
        missing = [seg for seg in active if seg not in made]
        if missing:
            made.update(sweeps_of(pb.rig, anim, pb.bounds(), missing))
        return [made[seg] for seg in active]
