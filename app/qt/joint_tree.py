"""The rig panel's joint tree: the rig's joints by hierarchy, those with findings marked.

Beside the 3D view (:class:`~quatlab.app.qt.rig_view.RigPanel`): the joints a
click can select, nested as in the rig, each animated one with a ◆; a second
column counts the findings of the joint's track in the animation playing,
with a swatch of the most important family's colour (the dope sheet's), so a
flagged joint is seen without opening anything. Names are elided in the middle
("mixamorig:…LeftUpLeg") with the whole name in the tooltip, and the tree asks
for the width its names need (:meth:`JointTree.preferred_width`); the splitter
beside it resizes it.

Choosing a row emits :attr:`JointTree.nodeChosen`; clicking a joint's count (or
Enter on its row) emits :attr:`JointTree.findingClicked` with its track, to go to
its first finding.
"""

from __future__ import annotations

from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import _
from quatlab.app.model.finding_families import primary
from quatlab.app.model.keyframes_model import describe_kinds
from quatlab.app.qt.whole_rows import WholeRowsTree
from quatlab.rendering import themes

__all__ = ["JointTree", "node_tracks"]

NODE_ROLE = QtCore.Qt.ItemDataRole.UserRole + 1
TRACK_ROLE = QtCore.Qt.ItemDataRole.UserRole + 2
#: Widths the tree asks for, in text lines' heights: at least, and at most.
_LEAST_LINES, _MOST_LINES = 7, 17


def _swatch(colour: str, side: int) -> QtGui.QIcon:
    pix = QtGui.QPixmap(side, side)
    pix.fill(QtGui.QColor(colour))
    return QtGui.QIcon(pix)


class JointTree(WholeRowsTree, QtWidgets.QTreeWidget):
    """The joint tree (module docs); :meth:`fill` with a rig, :meth:`select_node` to follow.

    Its rows end whole at the bottom edge (:class:`~quatlab.app.qt.whole_rows.WholeRowsTree`).
    """

    nodeChosen = QtCore.pyqtSignal(int)
    findingClicked = QtCore.pyqtSignal(int)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("rig_nodes")
        self.setColumnCount(2)
        self.setHeaderLabels([_("joint"), _("found")])
        self.headerItem().setToolTip(0, _("The rig's joints; ◆ animated in this animation"))
        self.headerItem().setToolTip(1, _("Findings of the joint's track in this animation; "
                                          "click the count to go to the first"))
        self.setToolTip(_("Joints and animated nodes; choose one to select its track"))
        self.setTextElideMode(QtCore.Qt.TextElideMode.ElideMiddle)
        self.setIndentation(8)  # deep rigs (fingers 13 levels down) keep room for names
        self.setUniformRowHeights(True)
        self.setRootIsDecorated(True)
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QtWidgets.QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        self._items: dict[int, QtWidgets.QTreeWidgetItem] = {}
        self._widest = 0
        self._syncing = False
        self._counts: dict[int, tuple[int, str | None, int, str]] = {}
        self.currentItemChanged.connect(self._current_changed)
        self.itemClicked.connect(self._clicked)
        # Enter (or a double click) on a flagged joint: its first finding, from the keyboard.
        self.itemActivated.connect(lambda item, _column: self._clicked(item, 1))

    # ------------------------------------------------------------------ filling
    def fill(self, rig, nodes, animated, tracks_by_node: dict[int, int], findings) -> None:
        """List ``nodes`` (rig indices) of ``rig`` as a tree; ``animated`` get a ◆.

        ``tracks_by_node`` maps a rig node to its track in the animation
        shown, and ``findings(track)`` gives that track's findings.
        """
        self._syncing = True
        try:
            self.clear()
            self._items.clear()
            self._counts.clear()
            if rig is None:
                return
            shown = {int(i) for i in nodes}
            animated = set(int(i) for i in animated)
            metrics = self.fontMetrics()
            widest = 0
            for i in (int(i) for i in nodes):
                name = rig.names[i] or _("node #{index}").format(index=int(rig.gltf_index[i]))
                p = int(rig.parents[i])
                while p >= 0 and p not in shown:
                    p = int(rig.parents[p])
                parent = self._items.get(p)
                item = QtWidgets.QTreeWidgetItem([("◆ " if i in animated else "· ") + name, ""])
                item.setData(0, NODE_ROLE, i)
                track = tracks_by_node.get(i)
                found = tuple(findings(track)) if track is not None else ()
                kinds = [f.kind for f in found]
                tip = name if not kinds else _("{joint}: {findings}").format(
                    joint=name, findings=describe_kinds(kinds))
                item.setToolTip(0, tip)
                if kinds:
                    item.setData(1, TRACK_ROLE, track)
                    item.setText(1, str(len(kinds)))
                    item.setToolTip(1, _("{findings} — click to go to the first").format(
                        findings=describe_kinds(kinds)))
                    font = item.font(0)
                    font.setBold(True)
                    item.setFont(0, font)
                    self._counts[i] = (len(kinds), primary(kinds), track, tip)
                (parent.addChild(item) if parent is not None else self.addTopLevelItem(item))
                self._items[i] = item
                depth = 0
                while parent is not None:
                    depth, parent = depth + 1, parent.parent()
                widest = max(widest, metrics.horizontalAdvance(item.text(0))
                             + self.indentation() * (depth + 1))
            self._widest = widest
            self._paint_swatches()
            # The count column only when there is something to count: its room goes
            # to the names otherwise.
            self.setColumnHidden(1, not self._counts)
            self.expandAll()
        finally:
            self._syncing = False
        self.updateGeometry()

    def _paint_swatches(self) -> None:
        side = max(self.fontMetrics().height() - 6, 6)
        colours = themes.current().findings
        for i, (_n, family, _track, _tip) in self._counts.items():
            item = self._items.get(i)
            if item is not None and family is not None:
                item.setIcon(1, _swatch(colours[family], side))

    def preferred_width(self) -> int:
        """The width the names ask for (within 7 to 17 text lines' heights), count included."""
        line = self.fontMetrics().height()
        count = self.fontMetrics().horizontalAdvance("000") + line + 16 if self._counts else 0
        return int(min(max(self._widest + count + 24, _LEAST_LINES * line), _MOST_LINES * line))

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt API
        hint = super().sizeHint()
        return QtCore.QSize(self.preferred_width(), hint.height())

    # ------------------------------------------------------------------ selection
    def select_node(self, node: int | None) -> None:
        """Make ``node``'s row current (None: none) without emitting :attr:`nodeChosen`."""
        self._syncing = True
        try:
            item = self._items.get(node) if node is not None else None
            self.setCurrentItem(item)
            if item is not None:
                self.scrollToItem(item)
        finally:
            self._syncing = False

    def item_of(self, node: int) -> QtWidgets.QTreeWidgetItem | None:
        """The row of rig node ``node`` (None: not listed)."""
        return self._items.get(node)

    def current_node(self) -> int | None:
        item = self.currentItem()
        return item.data(0, NODE_ROLE) if item is not None else None

    def marked(self) -> dict[int, int]:
        """Rig node -> its findings count, for the joints marked (tests, screen readers)."""
        return {i: n for i, (n, _f, _t, _tip) in self._counts.items()}

    def _current_changed(self, current, _previous=None) -> None:
        if not self._syncing and current is not None:
            self.nodeChosen.emit(int(current.data(0, NODE_ROLE)))

    def _clicked(self, item, column: int) -> None:
        track = item.data(1, TRACK_ROLE)
        if column == 1 and track is not None:
            self.findingClicked.emit(int(track))

    def changeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().changeEvent(ev)
        if ev.type() in (QtCore.QEvent.Type.PaletteChange, QtCore.QEvent.Type.FontChange):
            self._paint_swatches()  # the theme's colours, the zoom's size
            self.updateGeometry()


def node_tracks(rig, tracks, animation: int | None, animation_of) -> dict[int, int]:
    """Rig node -> index of its track in ``animation`` (the first, if a node has several)."""
    out: dict[int, int] = {}
    if rig is None:
        return out
    for k, t in enumerate(tracks):
        if animation_of(t) == animation and t.node_index is not None \
                and 0 <= t.node_index < len(rig.rig_index):
            out.setdefault(int(rig.rig_index[t.node_index]), k)
    return out

