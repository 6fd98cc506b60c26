"""Hold a widget's repaint back until the rest of the view is painted, so costly paints are apart.

When a lesson's new result arrives, every part of its view changes at once:
the 3D view, the key table, the explanation and the plots. Qt paints all the
widgets that changed in one pass and the 3D frame next to it, and the plots'
first paint of thousands of antialiased samples (tens of ms) came on top of
everything else, freezing the window for longer than any part would.
:class:`PaintLater` lets a view set the plots' data at once (anything that
reads them sees the new curves) and paint them a turn of the event loop
after the rest, and after the 3D view's new frame: three shorter blocks with
the event loop running (timers, input) between them.

Until then the plots' area shows what it showed before (the previous curves,
or the window's background when the view was just switched to), for the
time of one frame; nothing else changes there until the new curves are
painted. When the widget was not on screen (the view is being switched to),
parts of it (``stagger``: the second plot) come one more turn later still,
each on its own: the area is blank anyway, so nothing out of date shows.
"""

from __future__ import annotations

from PyQt6 import QtCore, QtWidgets

__all__ = ["PaintLater"]


class PaintLater(QtCore.QObject):
    """Repaint ``widget`` after the rest of a change is painted (its state changes at once).

    Call :meth:`hold` when the change starts (the widget's own updates are
    dropped meanwhile) and :meth:`changed` when it ends. The widget is
    repainted a turn later, or, if ``after`` (a
    :class:`~quatlab.rendering.chain_scene.ChainScene`) has a frame to draw
    and is shown, a turn after that frame (at most :data:`LONGEST_MS` later);
    the scene's frame itself waits a turn after the change
    (``ChainScene.hold_frames``), so it is not painted with the change's
    other widgets either.
    The waits are timers, not queued calls: Qt delivers queued calls before
    the paint events posted with them, timers after, so the paint before is
    done (and the loop has turned) when the widget's comes.
    """

    #: Milliseconds from the end of the change, or from the 3D frame, to the repaint.
    DELAY_MS = 1
    #: Longest wait for the 3D frame (a window the system never exposes).
    LONGEST_MS = 150

    def __init__(self, widget: QtWidgets.QWidget, after=None,
                 stagger: tuple[QtWidgets.QGraphicsItem, ...] = ()) -> None:
        super().__init__(widget)
        self._widget = widget
        self._after = after
        self._stagger = tuple(stagger)
        self._staggering = False  # held while not on screen: stagger the parts
        self._hidden: list[tuple[QtWidgets.QGraphicsItem, float]] = []
        self._reveal_timer = QtCore.QTimer(self)
        self._reveal_timer.setSingleShot(True)
        self._reveal_timer.setInterval(self.DELAY_MS)
        self._reveal_timer.timeout.connect(self._reveal_next)
        self._held = False
        self._ended = False
        self._waiting = False
        self._timer = QtCore.QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._due)
        if after is not None:
            after.frameSwapped.connect(self._frame_done)

    @property
    def held(self) -> bool:
        """Whether the widget's repaint, or that of one of its ``stagger`` parts, is held back."""
        return self._held or bool(self._hidden)

    def hold(self) -> None:
        """A change starts: the widget's repaint waits for :meth:`changed` and what follows."""
        self._reveal_all()  # a part still waiting from the last change: with this one now
        if not self._held:
            if not self._widget.updatesEnabled():
                return  # someone else holds it: theirs to release
            self._held = True
            self._staggering = not self._widget.isVisible()
            self._widget.setUpdatesEnabled(False)
        if self._after is not None:
            self._after.hold_frames(self.LONGEST_MS)  # its frame, too, after the change
        self._ended = self._waiting = False
        # Released even if nobody calls changed(): a held widget never stays blank.
        self._timer.start(self.LONGEST_MS)

    def changed(self) -> None:
        """The change that :meth:`hold` announced is done (once per hold; later calls wait on)."""
        if self._held and not self._ended:
            self._ended = True
            if self._after is not None:
                self._after.hold_frames(self.DELAY_MS)  # the 3D frame a turn from now
            self._timer.start(self.DELAY_MS)

    def _due(self) -> None:
        after = self._after
        if (self._held and self._ended and not self._waiting and after is not None
                and after.frame_due and after.widget.isVisible()):
            self._waiting = True  # a turn after the frame (_frame_done), at most LONGEST_MS
            self._timer.start(self.LONGEST_MS)
            return
        self.release()

    def _frame_done(self) -> None:
        if self._waiting:
            self._timer.start(self.DELAY_MS)

    def release(self) -> None:
        """Repaint the widget now (Qt schedules a full repaint when updates resume)."""
        self._timer.stop()
        self._waiting = False
        if self._held:
            self._held = False
            if self._staggering and self._stagger:
                # Painted with the widget but invisible (fully transparent
                # items are skipped); each shown a turn after the one before.
                for item in self._stagger:
                    self._hidden.append((item, item.opacity()))
                    item.setOpacity(0.0)
                self._reveal_timer.start()
            self._widget.setUpdatesEnabled(True)

    def _reveal_next(self) -> None:
        if self._hidden:
            item, opacity = self._hidden.pop(0)
            item.setOpacity(opacity)
        if self._hidden:
            self._reveal_timer.start()

    def _reveal_all(self) -> None:
        self._reveal_timer.stop()
        while self._hidden:
            item, opacity = self._hidden.pop(0)
            item.setOpacity(opacity)
