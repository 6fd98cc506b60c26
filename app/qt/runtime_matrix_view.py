"""Which runtimes glitch where in the open file: the findings x runtimes table, in a window.

The Keyframes tab's "Runtimes…" button shows
:func:`quatlab.app.io.runtime_check.runtime_matrix` of the file as loaded, the
same table ``quatlab check --runtimes all`` prints (docs/runtimes.md, "Which
runtimes glitch where"): a row per finding, and per run of segments no finding
names where some runtime still glitches; a column per runtime player; each
cell the largest angle (degrees) that runtime is off the glTF reference player
over the row's segments, marked from :data:`~quatlab.app.io.runtime_check.GLITCH_DEG`
on. The table is worked out off the GUI thread (about 2 s for a file of 147
tracks); a double click on a row goes to its track and first segment.
"""

from __future__ import annotations

from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import _
from quatlab.app.io.runtime_check import RuntimeMatrix
from quatlab.app.model.keyframes_model import kind_name
from quatlab.math import runtimes as R
from quatlab.rendering.rig_scene import NAIVE_COLOR

__all__ = ["RuntimeMatrixDialog", "cell_text"]

#: The data role holding a row's (track, first key).
ROW_ROLE = QtCore.Qt.ItemDataRole.UserRole + 1


def cell_text(degrees: float | None) -> str:
    """A cell: degrees to one decimal, or a dash where the track could not be played."""
    return "—" if degrees is None else f"{degrees:.1f}°"


class RuntimeMatrixDialog(QtWidgets.QDialog):
    """The table of one file (module docs); :meth:`show_matrix` fills it."""

    rowChosen = QtCore.pyqtSignal(int, int)  # track, first key of the row

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("kf_runtime_matrix")
        self.setWindowTitle(_("Which runtimes glitch where"))
        layout = QtWidgets.QVBoxLayout(self)
        self.summary = QtWidgets.QLabel()
        self.summary.setObjectName("runtime_summary")
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.table = QtWidgets.QTableWidget()
        self.table.setObjectName("runtime_table")
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setToolTip(_("Double-click a row to go to its track and segment"))
        self.table.cellDoubleClicked.connect(self._chosen)
        layout.addWidget(self.table, 1)
        close = QtWidgets.QDialogButtonBox(QtWidgets.QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.close)
        layout.addWidget(close)
        self.resize(900, 420)
        self.matrix: RuntimeMatrix | None = None

    def show_matrix(self, matrix: RuntimeMatrix, file_name: str) -> None:
        """Fill the table with ``matrix`` (of the file called ``file_name``)."""
        self.matrix = matrix
        glitching = matrix.glitching()
        if glitching:
            names = ", ".join(R.runtime(r).label for r in glitching)
            text = _("{file}: {n} rows; these runtimes are {deg}° or more off the glTF "
                     "reference somewhere: {names}.").format(
                file=file_name, n=len(matrix.rows), deg=f"{matrix.glitch_deg:g}", names=names)
        else:
            text = _("{file}: every runtime stays within {deg}° of the glTF reference.").format(
                file=file_name, deg=f"{matrix.glitch_deg:g}")
        self.summary.setText(text)
        fixed = [_("joint"), _("finding"), _("keys"), _("time (s)")]
        t = self.table
        t.clear()
        t.setColumnCount(len(fixed) + len(matrix.runtimes))
        t.setRowCount(len(matrix.rows))
        t.setHorizontalHeaderLabels(fixed + list(matrix.runtimes))
        for j, rid in enumerate(matrix.runtimes):
            rt = R.runtime(rid)
            t.horizontalHeaderItem(len(fixed) + j).setToolTip(f"{rt.label} ({rt.engine})")
        mark = QtGui.QColor(NAIVE_COLOR)
        mark.setAlpha(90)
        for i, row in enumerate(matrix.rows):
            track = matrix.reports[row.track].track
            texts = [track.label,
                     kind_name(row.kind) if row.kind != "runtime" else _("runtime only"),
                     "–".join(str(k) for k in row.keys),
                     f"{row.start:.3f}–{row.end:.3f}"]
            for c, text in enumerate(texts):
                item = QtWidgets.QTableWidgetItem(text)
                item.setData(ROW_ROLE, (row.track, row.keys[0]))
                t.setItem(i, c, item)
            for j, deg in enumerate(row.degrees):
                item = QtWidgets.QTableWidgetItem(cell_text(deg))
                item.setTextAlignment(QtCore.Qt.AlignmentFlag.AlignRight
                                      | QtCore.Qt.AlignmentFlag.AlignVCenter)
                item.setData(ROW_ROLE, (row.track, row.keys[0]))
                if deg is not None and deg >= matrix.glitch_deg:
                    item.setBackground(mark)
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                t.setItem(i, len(fixed) + j, item)
        t.resizeColumnsToContents()

    def _chosen(self, row: int, _column: int) -> None:
        item = self.table.item(row, 0)
        if item is not None:
            track, key = item.data(ROW_ROLE)
            self.rowChosen.emit(int(track), int(key))
