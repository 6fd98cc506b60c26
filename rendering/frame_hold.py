"""Frame pacing of the lesson's 3D view: hold its frames back while other widgets paint.

:class:`FrameHold` is the part of
:class:`quatlab.rendering.chain_scene.ChainScene` that schedules its frames
(a mixin): :mod:`quatlab.app.qt.paint_later` holds the scene's frame so it
comes in its own turn of the event loop. The scene's ``__init__`` sets
``_frame_due``, ``_frames_held`` and the ``_hold_timer`` this uses.
"""

from __future__ import annotations

__all__ = ["FrameHold"]


class FrameHold:
    """Frames held back and released, for :class:`ChainScene` (a mixin)."""

    def update(self):
        """Render a new frame soon (see :class:`GLWindowView`); :attr:`frame_due` until it is."""
        self._frame_due = True
        if not self._frames_held:
            super().update()

    def hold_frames(self, ms: int) -> None:
        """Render no frame for ``ms`` ms from now, then one if anything changed.

        For a view whose other widgets change in the same event as the scene:
        their paint and the scene's frame then come in separate turns of the
        event loop, not in one long block (:mod:`quatlab.app.qt.paint_later`).
        An expose (the view shown) still renders at once.
        """
        self._frames_held = True
        self._hold_timer.start(max(int(ms), 0))

    def release_frames(self) -> None:
        """End :meth:`hold_frames` now: render the frame it held back, if any."""
        self._hold_timer.stop()
        if self._frames_held:
            self._frames_held = False
            if self._frame_due:
                super().update()

    @property
    def frame_due(self) -> bool:
        """Whether something changed since the last frame this view swapped.

        Also while the view waits to be shown: its first frame then comes
        with the expose. Views that paint after the scene wait on this.
        """
        return self._frame_due

    def _frame_swapped(self) -> None:
        self._frame_due = False
