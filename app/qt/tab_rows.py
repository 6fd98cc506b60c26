"""A tab bar that wraps its tabs onto more rows instead of hiding them behind scroll arrows.

The main window's nine lesson titles fit one row at 1280 px and 100 %, not
at 1024 px and 150 % (a lecture hall): a :class:`QtWidgets.QTabBar` then
scrolled them out of sight. :class:`TabRows` lays the tabs out left to right
and starts a new row where the next would not fit, draws each with the
style's own tab shape, and answers the part of the QTabBar interface the
window uses (``addTab``, ``count``, ``tabText``, ``tabRect``,
``currentIndex``, ``setCurrentIndex``, ``currentChanged``).
"""

from __future__ import annotations

from PyQt6 import QtCore, QtGui, QtWidgets

__all__ = ["TabRows"]

_PAD_X = 4  # text to tab edge beyond the style's own margins, px at 100 %; scaled
_PAD_Y = 2


class TabRows(QtWidgets.QWidget):
    """Tabs in as many rows as the width needs; click or arrow keys choose one."""

    currentChanged = QtCore.pyqtSignal(int)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._texts: list[str] = []
        self._current = -1
        self._rects: list[QtCore.QRect] = []
        self._laid_width = -1
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.TabFocus)
        policy = QtWidgets.QSizePolicy(QtWidgets.QSizePolicy.Policy.Preferred,
                                       QtWidgets.QSizePolicy.Policy.Fixed)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.setAttribute(QtCore.Qt.WidgetAttribute.WA_Hover)

    # ------------------------------------------------------------------ the QTabBar part
    def addTab(self, text: str) -> int:  # noqa: N802 - QTabBar's name
        self._texts.append(text)
        if self._current < 0:
            self._current = 0
        self._relayout()
        return len(self._texts) - 1

    def count(self) -> int:
        return len(self._texts)

    def tabText(self, index: int) -> str:  # noqa: N802 - QTabBar's name
        return self._texts[index]

    def setTabText(self, index: int, text: str) -> None:  # noqa: N802 - QTabBar's name
        self._texts[index] = text
        self._relayout()

    def tabRect(self, index: int) -> QtCore.QRect:  # noqa: N802 - QTabBar's name
        self._ensure_layout()
        return QtCore.QRect(self._rects[index]) if 0 <= index < len(self._rects) \
            else QtCore.QRect()

    def tabAt(self, pos: QtCore.QPoint) -> int:  # noqa: N802 - QTabBar's name
        self._ensure_layout()
        return next((i for i, r in enumerate(self._rects) if r.contains(pos)), -1)

    def currentIndex(self) -> int:  # noqa: N802 - QTabBar's name
        return self._current

    def setCurrentIndex(self, index: int) -> None:  # noqa: N802 - QTabBar's name
        if not 0 <= index < len(self._texts) or index == self._current:
            return
        self._current = index
        self.update()
        self.currentChanged.emit(index)

    def rows(self) -> int:
        """Rows of tabs at the present width."""
        self._ensure_layout()
        return len({r.top() for r in self._rects}) or 1

    # ------------------------------------------------------------------ layout
    def _tab_size(self, text: str, *, compact: bool = False) -> QtCore.QSize:
        """A tab's size as the style makes it for ``text`` (QTabBar's own measure).

        ``compact``: a row as tall as the text, the style's vertical space and
        its shift of a tab not chosen (no extra padding), for a bar that wraps;
        each further row is height the tab below loses (docs/projector.md).
        """
        metrics = self.fontMetrics()
        opt = QtWidgets.QStyleOptionTab()
        opt.initFrom(self)
        opt.text = text
        opt.shape = QtWidgets.QTabBar.Shape.RoundedNorth
        style, pm = self.style(), QtWidgets.QStyle.PixelMetric
        scale = metrics.height() / 15.0  # the pads grow with View > Zoom
        v_space = style.pixelMetric(pm.PM_TabBarTabVSpace, opt, self)
        # A tab not chosen is drawn this much lower: a compact row keeps room
        # for it above and below, or its text is cut (zh_CN at 150 % was).
        shift = abs(style.pixelMetric(pm.PM_TabBarTabShiftVertical, opt, self))
        contents = QtCore.QSize(
            metrics.horizontalAdvance(text) + style.pixelMetric(pm.PM_TabBarTabHSpace, opt, self)
            + round(2 * _PAD_X * scale),
            metrics.height() + (v_space + shift if compact
                                else v_space + round(2 * _PAD_Y * scale)))
        size = style.sizeFromContents(QtWidgets.QStyle.ContentsType.CT_TabBarTab, opt,
                                      contents, self).expandedTo(contents)
        if compact:
            size.setHeight(contents.height())
        return size

    def _layout_for(self, width: int) -> list[QtCore.QRect]:
        rects, x, y = [], 0, 0
        sizes = [self._tab_size(text) for text in self._texts]
        if sum(size.width() for size in sizes) > width:
            # Wrapping: every row compact, so two rows cost the Keyframes tab
            # at 1024x768 and 150 % 24 px less (its plots and explanation).
            sizes = [self._tab_size(text, compact=True) for text in self._texts]
        for size in sizes:
            if x > 0 and x + size.width() > width:
                x, y = 0, y + size.height()
            rects.append(QtCore.QRect(QtCore.QPoint(x, y), size))
            x += size.width()
        return rects

    def _ensure_layout(self) -> None:
        if self._laid_width != self.width():
            self._rects = self._layout_for(max(self.width(), 1))
            self._laid_width = self.width()

    def _relayout(self) -> None:
        self._laid_width = -1
        self.updateGeometry()
        self.update()

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt API
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt API
        rects = self._layout_for(max(width, 1))
        return max((r.bottom() + 1 for r in rects), default=self._tab_size("").height())

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt API
        rects = self._layout_for(1 << 20)  # one row
        width = max((r.right() + 1 for r in rects), default=0)
        return QtCore.QSize(width, self.heightForWidth(self.width() or width))

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt API
        widest = max((self._tab_size(t).width() for t in self._texts), default=0)
        return QtCore.QSize(widest, self.heightForWidth(self.width() or widest))

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(ev)
        if self.heightForWidth(self.width()) != self.height():
            self.updateGeometry()

    def changeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().changeEvent(ev)
        if ev.type() in (QtCore.QEvent.Type.FontChange, QtCore.QEvent.Type.StyleChange):
            self._relayout()

    # ------------------------------------------------------------------ drawing and input
    def paintEvent(self, ev) -> None:  # noqa: N802 - Qt API
        self._ensure_layout()
        painter = QtWidgets.QStylePainter(self)
        hovered = self.tabAt(self.mapFromGlobal(QtGui.QCursor.pos())) if self.underMouse() \
            else -1
        # The chosen tab last, so its raised shape lies over its neighbours'.
        order = [i for i in range(len(self._texts)) if i != self._current]
        if 0 <= self._current < len(self._texts):
            order.append(self._current)
        for i in order:
            opt = QtWidgets.QStyleOptionTab()
            opt.initFrom(self)
            opt.rect = self._rects[i]
            opt.text = self._texts[i]
            opt.shape = QtWidgets.QTabBar.Shape.RoundedNorth
            row = [j for j, r in enumerate(self._rects) if r.top() == self._rects[i].top()]
            pos = QtWidgets.QStyleOptionTab.TabPosition
            opt.position = (pos.OnlyOneTab if len(row) == 1 else pos.Beginning if i == row[0]
                            else pos.End if i == row[-1] else pos.Middle)
            state = QtWidgets.QStyle.StateFlag
            opt.state &= ~(state.State_Selected | state.State_HasFocus | state.State_MouseOver)
            if i == self._current:
                opt.state |= state.State_Selected
                if self.hasFocus():
                    opt.state |= state.State_HasFocus
            if i == hovered:
                opt.state |= state.State_MouseOver
            # Within its own row: a style draws the chosen tab down over the
            # base line, which on a bar of rows is the next row's tabs.
            band = self._rects[i]
            painter.setClipRect(QtCore.QRect(0, band.top(), self.width(), band.height()))
            painter.drawControl(QtWidgets.QStyle.ControlElement.CE_TabBarTab, opt)

    def mousePressEvent(self, ev) -> None:  # noqa: N802 - Qt API
        if ev.button() == QtCore.Qt.MouseButton.LeftButton:
            index = self.tabAt(ev.position().toPoint())
            if index >= 0:
                self.setCurrentIndex(index)
                return
        super().mousePressEvent(ev)

    def mouseMoveEvent(self, ev) -> None:  # noqa: N802 - Qt API
        self.update()  # the hover highlight follows
        super().mouseMoveEvent(ev)

    def leaveEvent(self, ev) -> None:  # noqa: N802 - Qt API
        self.update()
        super().leaveEvent(ev)

    def keyPressEvent(self, ev) -> None:  # noqa: N802 - Qt API
        step = {QtCore.Qt.Key.Key_Left: -1, QtCore.Qt.Key.Key_Right: 1}.get(ev.key())
        if step and self._texts:
            self.setCurrentIndex((self._current + step) % len(self._texts))
            return
        super().keyPressEvent(ev)
