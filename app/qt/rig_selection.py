"""Keeping the rig panel's selection in step: a joint picked in 3D selects its track, and back.

:class:`RigSelection` is the part of :class:`quatlab.app.qt.rig_view.RigPanel`
that forwards the user's choices (an animation, a joint clicked or listed)
to the models and follows the Keyframes tab's tracks and selected track
with the rig (a mixin).
"""

from __future__ import annotations

import dataclasses

__all__ = ["RigSelection"]


class RigSelection:
    """The rig's animation and node in step with the selected track (a mixin)."""

    # ------------------------------------------------------------------ user -> models
    def _animation_chosen(self, index: int) -> None:
        if self._syncing or index < 0 or self.playback.rig is None:
            return
        self.playback.set_animation(index)
        m = self.model
        current = m.tracks[m.selected_track] if m.selected_track is not None else None
        if current is None or self._animation_of(current) != index:
            mine = [k for k, t in enumerate(m.tracks) if self._animation_of(t) == index]
            flagged = [k for k in mine if m.findings(k)]
            if mine:
                m.select_track((flagged or mine)[0])

    def _node_clicked(self, node: int) -> None:
        pb = self.playback
        pb.select_node(node)
        gltf = int(pb.rig.gltf_index[node])
        hits = [k for k, t in enumerate(self.model.tracks)
                if self._animation_of(t) == pb.animation_index and t.node_index == gltf]
        if hits:
            self._syncing = True
            try:
                self.model.select_track(hits[0])
            finally:
                self._syncing = False
            self._fill_curves()

    # ------------------------------------------------------------------ keyframes model -> rig
    def on_tracks(self) -> None:
        self.playback.use_tracks(self._rig_tracks())
        self._fill_nodes()  # the findings the joint tree marks
        self._fill_curves()

    def on_track_selection(self) -> None:
        if self._syncing:
            return
        m, pb = self.model, self.playback
        if pb.rig is None:
            return
        i = m.selected_track
        track = m.tracks[i] if i is not None else None
        anim = self._animation_of(track) if track is not None else None
        if anim is not None and anim != pb.animation_index \
                and 0 <= anim < len(pb.rig.animations):
            pb.set_animation(anim)
        if track is not None and track.node_index is not None \
                and 0 <= track.node_index < len(pb.rig):
            pb.select_node(int(pb.rig.rig_index[track.node_index]))
        self._fill_curves_staged()

    def _animation_of(self, track) -> int | None:
        """The rig animation a track belongs to: its own, or 0 (the motion) for a BVH joint."""
        f = self.model.file
        if track.animation_index is None and f is not None and f.format == "bvh":
            return 0
        return track.animation_index

    def _rig_tracks(self) -> list:
        """The tab's tracks as the rig plays them (a BVH joint's track keys the motion)."""
        return [t if t.animation_index is not None or self._animation_of(t) is None
                else dataclasses.replace(t, animation_index=0) for t in self.model.tracks]

    def plays_selected(self) -> bool:
        """Whether the rig plays the selected track (its file, its animation)."""
        m, pb = self.model, self.playback
        i = m.selected_track
        return (i is not None and pb.rig is not None
                and self._animation_of(m.tracks[i]) == pb.animation_index)

    def show_segment(self, segment: int) -> bool:
        """Move the time to the middle of ``segment`` of the selected track, if the rig plays it."""
        if not self.plays_selected():
            return False
        m, pb = self.model, self.playback
        seg = m.segments(m.selected_track)
        pb.set_time(0.5 * (seg.t0[segment] + seg.t1[segment]))
        return True
