"""The rig panel's plots of the selected track: filled after the rig's first frame, a plot a pass.

:class:`RigPlots` is the part of :class:`quatlab.app.qt.rig_view.RigPanel`
that fills its components plot, its angular velocity plot and its
unwrapped angle and error plots
(:func:`quatlab.app.model.rig_curves.track_curves`) for the selected track
(a mixin). The error dot at the cursor is the 3D view's own number for the
joint (:attr:`~quatlab.app.model.rig_playback.RigFrame.local_difference`),
not a value read off the sampled curve. A rig that has just arrived gets its first frame on screen
before the curves, and the curves come one plot per event-loop pass, so no
step blocks the window for long.
"""

from __future__ import annotations

import math

from quatlab.app.i18n import _
from quatlab.app.model.rig_curves import track_curves
from quatlab.rendering.rig_scene import NAIVE_COLOR, SPEC_COLOR
from quatlab.rendering.series import Series

#: The error curve's colour: the naive runtime's, the colour of the 3D label it matches.
ERROR_COLOR = NAIVE_COLOR
_BEFORE_COLOR = "#B0B0B0"

__all__ = ["RigPlots"]


class RigPlots:
    """Filling the curves of the selected track, for :class:`RigPanel` (a mixin)."""

    def _fill_curves_after_frame(self) -> None:
        """Fill the curves once the 3D view has swapped its next frame (now if it cannot draw)."""
        if not (self.scene.widget.isVisible() and self.isVisible()):
            self._fill_curves()
            return
        self._curves_pending = True
        if not self._awaiting_frame:
            self._awaiting_frame = True
            self.scene.frameSwapped.connect(self._frame_swapped)
        # No frame (the window got covered meanwhile): fill them anyway.
        self._curves_timer.start(500)

    def _frame_swapped(self) -> None:
        self._stop_awaiting_frame()
        # Not in the pass that swapped the frame: input and timers get a turn first.
        self._curves_timer.start(1)

    def _stop_awaiting_frame(self) -> None:
        if self._awaiting_frame:
            self._awaiting_frame = False
            self.scene.frameSwapped.disconnect(self._frame_swapped)

    def _curves_due(self) -> None:
        self._stop_awaiting_frame()
        if self._curves_pending:
            # One plot per event-loop pass, each painted before the next is
            # filled: all three and their first paint at once blocked the
            # window for over 100 ms.
            self._staged = self._curve_steps()
            self._next_curves()

    def _next_curves(self) -> None:
        steps = self._staged
        if steps is None:
            return
        if next(steps, "done") == "done":
            self._staged = None
            self._curves_pending = False
            if getattr(self, "_sweep_due", False):
                self.sweep_animation()  # what waited for the curves (rig_loader)
        else:
            self._steps_timer.start(0)

    def _fill_curves(self) -> None:
        if self._curves_later:
            return  # the rig just arrived: filled after its first frame
        if self._staged is not None:  # overtaken halfway: start again, all at once
            self._staged, self._curves_key = None, ()
        self._curves_pending = False
        for _step in self._curve_steps():
            pass
        if getattr(self, "_sweep_due", False):
            self.sweep_animation()

    def _fill_curves_staged(self) -> None:
        """Fill the curves over the next event-loop passes, a plot each (another track or clip).

        All three plots at once blocked the window for 100 to 300 ms at every
        step of the Keyframes tab's finding walk (N), which changes track and clip.
        """
        if self._curves_later:
            return
        self._staged = self._curve_steps()
        self._curves_pending = True
        self._steps_timer.start(0)

    def _curve_steps(self):
        """Fill the curves of the selected track; yields between the plots (see _curves_due)."""
        m, pb = self.model, self.playback
        i = m.selected_track
        track = m.tracks[i] if i is not None else None
        if (track is None or pb.rig is None or self._animation_of(track) != pb.animation_index):
            self.components.set_track(None, None)
            self.omega.set_curves(None)
            for plot in ("angle", "speed"):
                self.curves.set_series(plot, [])
            self._curves_key = ()
            return
        original = m.file.tracks[i] if m.file is not None else None
        before = original if original is not None and original is not track else None
        key = (track, before, pb.range)
        if key == self._curves_key:
            return
        self._curves_key = key
        lo, hi = pb.range
        seg = m.segments(i)
        flagged = seg.levels == "sign_flip"
        self.components.set_track(track.times, track.values,
                                  None if before is None else before.values,
                                  (seg.t0[flagged], seg.t1[flagged]), (lo, hi))
        yield
        cv = track_curves(track, lo, hi, before=before, channel=self._channel_of(track))
        self.omega.set_curves(cv.t, cv.omega["spec"], cv.omega["naive"], (lo, hi))
        yield
        series = {
            "angle": [Series("spec", _("spec player"), SPEC_COLOR, False, cv.t,
                             cv.angle["spec"]),
                      Series("naive", _("naive runtime"), NAIVE_COLOR, True, cv.t,
                             cv.angle["naive"])],
            "speed": [Series("error", _("angle apart"), ERROR_COLOR, False, cv.t,
                             cv.error)],
        }
        if before is not None:
            old = track_curves(before, lo, hi)
            # One name in both plots: one checkbox shows or hides both.
            series["angle"].append(Series("before", _("naive, before the fix"), _BEFORE_COLOR,
                                          True, old.t, old.angle["naive"]))
            series["speed"].append(Series("before", _("naive, before the fix"), _BEFORE_COLOR,
                                          True, old.t, old.error))
        if hi > lo:
            self.curves.set_x_axis(_("time"), "s", (lo, hi))
        for k, (plot, s) in enumerate(series.items()):
            if k:
                yield
            self.curves.set_series(plot, s)
        # Keys are marked on the component plot; vertical lines at every key here
        # would hatch the angle and speed curves (and cost a line item each).
        self.curves.set_cursor(min(max(pb.time, lo), hi) if hi > lo else lo,
                               self._cursor_values())

    def _channel_of(self, track):
        """The rotation channel of the played animation that plays ``track`` (None: none)."""
        anim = self.playback.animation
        if anim is None or track.node_index is None:
            return None
        return next((c for c in anim.channels
                     if c.path == "rotation" and c.node == track.node_index), None)

    def _cursor_values(self) -> dict | None:
        """The error dot's value at the cursor: the 3D view's angle for the track's joint."""
        m, pb = self.model, self.playback
        if not self.plays_selected():
            return None
        node = m.tracks[m.selected_track].node_index
        frame = pb.frame()
        if frame is None or node is None or not 0 <= node < len(pb.rig):
            return None
        return {"error": (math.nan, float(frame.local_difference[pb.rig.rig_index[node]]))}
