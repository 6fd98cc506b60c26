"""The S3 view: why ``-q`` is "the long way", drawn on the 3-sphere (docs/curves.md).

The tab (:class:`S3View`) puts its two panels side by side over a t
scrubber: the great circle (:mod:`.s3_circle`) and the stereographic
projection (:mod:`.s3_stereo`).

Two panels that follow the lesson's :class:`~quatlab.app.model.state.LessonState`
(the same endpoints and t as the two-key lesson):

* :class:`GreatCircleView` (2D, exact): every path of the lesson lies in the
  plane span(q0, q1) of R4, so that plane's unit circle shows them without
  distortion. SLERP walks the arc; NLERP walks the straight chord (the
  un-normalized blend) and is pushed radially back onto the circle. ``q1``
  and ``-q1`` are opposite points, so "naive" and "shortest" are the two ways
  round. When ``q1 = +-q0`` there is no plane and the panel says so.
* :class:`StereographicView` (3D): the whole of S3 projected from a pole onto
  R3, with the four paths as curves, the endpoints and ``-q1`` as points,
  and the axis-angle of the current rotations beside it.

Geometry comes from :mod:`quatlab.math.s3`; this module only draws it. Paths
are recomputed on ``"endpoints"``; ``"t"`` only moves the markers.
"""

from __future__ import annotations

from PyQt6 import QtCore, QtWidgets

from quatlab.app.i18n import N_, _
from quatlab.app.qt.s3_circle import GUIDE_COLOUR, GreatCircleView
from quatlab.app.qt.s3_stereo import POLES, StereographicView, split_finite
from quatlab.app.qt.scrubber import Scrubber
from quatlab.math.curves import METHOD_LABELS, METHODS
from quatlab.rendering.style import METHOD_COLORS, METHOD_DASHED
from quatlab.rendering.themes import colour_name, themed

__all__ = ["VIEW_NAME", "TITLE", "create", "S3View", "GreatCircleView", "StereographicView",
           "POLES", "split_finite"]

VIEW_NAME = "s3"
TITLE = N_("S3 view")


# --------------------------------------------------------------------------- the tab


class S3View(QtWidgets.QWidget):
    """Both panels side by side in halves, with a legend and a caption, over a t scrubber."""

    def __init__(self, state, parent=None) -> None:
        super().__init__(parent)
        self.state = state
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self.legend = QtWidgets.QLabel(_legend_html())
        self.legend.setContentsMargins(6, 4, 6, 0)
        self.legend.setWordWrap(True)
        layout.addWidget(self.legend)
        self.great_circle = GreatCircleView(state)
        # The 3D panel's texts go under both panels (see StereographicView).
        self.stereo = StereographicView(state, own_text=False)
        split = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        split.addWidget(self.great_circle)
        split.addWidget(self.stereo)
        split.setChildrenCollapsible(False)
        # Halves: the circle needs a square, and the projection, whose far
        # points run outside the unit ball, is cramped in less (at 1024 x 768
        # a 2 : 3 share drew its sphere 40 px across). Shared out again on
        # every resize, not by stretch factors, which split each resize's
        # change and leave the halves to the sizes gone through; once the
        # handle is dragged, the reader's split is kept.
        split.splitterMoved.connect(self._split_moved)
        self._split_by_hand = False
        self.split = split
        layout.addWidget(split, 1)
        # The texts under the panels scroll past a third of the view's height:
        # at 1024x768 and 150 % they pushed the panels' labels and their own
        # last rows out of the view.
        texts = QtWidgets.QWidget()
        tl = QtWidgets.QVBoxLayout(texts)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.setSpacing(2)
        for text in (self.stereo.turning, self.stereo.axis_angle):
            tl.addWidget(text)
        self.texts = _CappedScroll(texts, share=0.34)
        layout.addWidget(self.texts)
        # The tab follows t live (docs/curves.md), so it scrubs and plays t itself;
        # the same state as the two-key lesson, so both tabs stay in step.
        self.scrubber = Scrubber(state, self, prefix="s3_t")
        layout.addWidget(self.scrubber)
        # While the tab is hidden, changes only mark it stale; showing it
        # catches up. Scrubbing the two-key lesson then costs nothing here.
        self._stale = {"endpoints", "t"}
        state.events.connect("endpoints", self.on_endpoints)
        state.events.connect("t", self.on_t)
        self._catch_up(force=True)

    def on_endpoints(self) -> None:
        self._stale.add("endpoints")
        self._catch_up()

    def on_t(self) -> None:
        self._stale.add("t")
        self._catch_up()

    def _split_moved(self) -> None:
        self._split_by_hand = True

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(ev)
        if not self._split_by_hand:
            half = max(self.split.width() - self.split.handleWidth(), 2) // 2
            self.split.setSizes([half, half])

    def showEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().showEvent(ev)
        self._catch_up()

    def _catch_up(self, force: bool = False) -> None:
        if not (force or self.isVisible()):
            return
        if "endpoints" in self._stale:
            # Also after a theme switch (it announces "endpoints"): the
            # legend names a colour the theme may have changed.
            self.legend.setText(_legend_html())
            # Each redraws its t too: once more here placed the circle's labels twice.
            self.great_circle.on_endpoints()
            self.stereo.on_endpoints()
        elif self._stale:
            self.great_circle.on_t()
            self.stereo.on_t()
        self._stale.clear()


class _CappedScroll(QtWidgets.QScrollArea):
    """A frameless area as tall as its content, up to ``share`` of its parent's height,
    scrolling past that."""

    def __init__(self, content: QtWidgets.QWidget, share: float) -> None:
        super().__init__()
        self._share = share
        self.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidget(content)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Preferred,
                           QtWidgets.QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt API
        content = self.widget()
        width = max(self.viewport().width(), 1)
        layout = content.layout()
        height = (layout.heightForWidth(width) if layout.hasHeightForWidth()
                  else content.sizeHint().height())
        parent = self.parentWidget()
        cap = int(self._share * parent.height()) if parent is not None else height
        return QtCore.QSize(content.sizeHint().width(), max(min(height, cap), 1))

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt API
        return QtCore.QSize(0, min(self.sizeHint().height(),
                                   3 * self.fontMetrics().lineSpacing()))

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(ev)
        if ev.oldSize().width() != ev.size().width():
            self.updateGeometry()


def _legend_html() -> str:
    items = []
    for m in METHODS:
        line = "╌╌" if METHOD_DASHED[m] else "━━"
        # One entry never breaks (a narrow window put "shortest" and "SLERP" on two
        # lines); the lines break between entries.
        items.append(f"<span style='white-space:nowrap'><span style='color:{METHOD_COLORS[m]}'>"
                     f"<b>{line}</b></span> {_(METHOD_LABELS[m])}</span>")
    return ("&nbsp; ".join(items)
            + "<br><span style='color:#555'>"
            + _("Left: the plane of q0 and q1 in R4. SLERP walks the arc; NLERP walks the "
                "thin chord (the blend before normalizing, hollow dot) and is pushed along "
                "the {ray} ray onto the circle. q1 and −q1 are opposite: naive goes to the "
                "stored q1, shortest to the nearer one.").format(
                    ray=colour_name(themed(GUIDE_COLOUR))) + "</span>")


def create(window) -> QtWidgets.QWidget:
    """The S3 tab for ``window`` (a :class:`~quatlab.app.qt.window.MainWindow`)."""
    return S3View(window.state)
