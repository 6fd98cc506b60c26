"""Which parted segments the rig panel shows in 3D now, and their sweeps, made once each.

:class:`RigErrors` is the part of :class:`quatlab.app.qt.rig_view.RigPanel`
that finds where the players part in the animation played
(:func:`~quatlab.app.model.rig_sweeps.parted_segments`, once per animation
and set of keys: after "Fix signs" there are none) and, at each time, the
segments whose sweep shows (:func:`~quatlab.app.model.rig_sweeps.active_segments`:
inside one, or within a moment of it). Their
:class:`~quatlab.app.model.rig_sweeps.SegmentSweep` are computed the first
time they show (a few ms: the joint's chain only) and kept (a mixin).
"""

from __future__ import annotations

from quatlab.app.model.rig_sweeps import active_segments, parted_segments, segment_sweep

__all__ = ["RigErrors"]


class RigErrors:
    """The sweeps of the parted segments near the time shown, for :class:`RigPanel` (a mixin)."""

    _errors_of = None  # (animation, parted segments, {segment: sweep})

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
        lo, hi = pb.bounds()
        fallback = 0.05 * float(sum((hi - lo) ** 2) ** 0.5)
        out = []
        for seg in active_segments(segments, pb.time):
            if seg not in made:
                # The fallback is in the joint's units: a fraction of the scene.
                scale = float(abs(pb.rig.rest_scale[seg.node]).max()) or 1.0
                made[seg] = segment_sweep(pb.rig, anim, seg, fallback=fallback / scale)
            out.append(made[seg])
        return out
