"""Boxed plot labels that hang from the top of their view box and never leave it.

A :class:`BoxedLabel` names something at a data x (a gap, a peak above the
range). Its horizontal anchor follows x across the range (a label near the
right end extends to the left), and on every layout (a resize, a zoom, a
font change from the theme's zoom) it is pushed back inside the view box;
one wider than the box wraps its words to the box's width, and one that is
then taller than the box shows its short form (the number alone: the box's
colour still says whose it is). Labels of one
plot share a stack and hang one below the other, each below the heights of
those before it (labels of different line counts do not overlap).

pyqtgraph's TextItem re-runs :meth:`~pyqtgraph.TextItem.updateTextPos` when
its text, font or view transform changes; the placement lives there, so no
caller has to re-place labels after a layout.
"""

from __future__ import annotations

import pyqtgraph as pg

__all__ = ["BoxedLabel"]

#: Pixels between a label and the view box's edge, and between stacked labels.
MARGIN = 3.0
#: Narrowest width (px) a label is wrapped to, whatever the box.
_MIN_WIDTH = 40.0


class BoxedLabel(pg.TextItem):
    """A boxed text at data ``x``, hanging from its view box's top, kept inside the box.

    Parameters
    ----------
    text : str
        Plain text; ``\\n`` breaks lines, and words wrap when the box is narrow.
    fraction : float
        Preferred horizontal anchor, 0 (text starts at x) to 1 (text ends at x).
    stack : list of BoxedLabel
        The labels of the same plot, in order; this one is appended and hangs
        below those before it. The owner empties it when it removes them.
    short : str, optional
        What to show when ``text``, wrapped, is taller than the room left.
    """

    def __init__(self, text: str, *, fraction: float, stack: list, short: str | None = None,
                 **kwargs) -> None:
        self._texts = (text, short or text)
        self._fraction = min(max(float(fraction), 0.0), 1.0)
        self._stack = stack
        self._placing = False
        super().__init__(text, anchor=(0, 0), **kwargs)
        stack.append(self)

    def box(self):
        """The view box's rectangle in this label's coordinates (pixels about its point)."""
        vb = self.getViewBox()
        if vb is None or self.scene() is None or not hasattr(vb, "sceneBoundingRect"):
            return None
        return self.mapRectFromScene(vb.sceneBoundingRect())

    def updateTextPos(self) -> None:  # noqa: N802 - pyqtgraph API
        if self._placing:
            return
        self._placing = True
        try:
            placed = self._place()
        finally:
            self._placing = False
        if not placed:
            super().updateTextPos()
            return
        # Those hanging below depend on this one's height.
        for later in self._stack[self._stack.index(self) + 1:] if self in self._stack else ():
            if later.scene() is not None:
                later.updateTextPos()

    def _place(self) -> bool:
        box = self.box()
        text = self.textItem
        if box is None or box.width() <= 0 or self.transform().isIdentity():
            return False  # not in a laid-out view yet: updateTransform comes back
        top = box.top() + MARGIN
        for other in self._stack:
            if other is self:
                break
            if other.isVisible() and other.scene() is not None:
                top += other.textItem.boundingRect().height() + MARGIN
        room = max(box.width() - 2 * MARGIN, _MIN_WIDTH)
        for content in self._texts:
            if text.toPlainText() != content:
                text.setPlainText(content)
            text.setTextWidth(-1)
            if text.boundingRect().width() > room:
                text.setTextWidth(room)
            if top + text.boundingRect().height() <= box.bottom() - MARGIN:
                break
        rect = text.boundingRect()
        w, h = rect.width(), rect.height()
        left = -self._fraction * w
        left = max(min(left, box.right() - MARGIN - w), box.left() + MARGIN)
        # Too many to stack: the last ones overlap rather than leave the box.
        top = max(min(top, box.bottom() - MARGIN - h), box.top() + MARGIN)
        text.setPos(left, top)
        return True
