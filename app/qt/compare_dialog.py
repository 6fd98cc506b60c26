"""File > Compare with…: the open keyframe file against its conversion, as a text report.

The file open in the Keyframes tab is the source; the user picks the
converted file; :func:`quatlab.app.model.rig_compare.compare_files` runs on a
worker thread (a large pair takes seconds) and the report, the text
``quatlab compare`` prints (docs/formats.md, "quatlab compare"), opens in a
window of its own. Both rigs in the 3D view are not drawn (yet).
"""

from __future__ import annotations

from pathlib import Path

from PyQt6 import QtGui, QtWidgets

from quatlab.app.i18n import _
from quatlab.app.qt.background import run_off_thread

__all__ = ["add_compare_action", "compare_with", "CompareDialog"]


class CompareDialog(QtWidgets.QDialog):
    """The report, read-only, in a fixed-width font, with a Close button."""

    def __init__(self, parent, title: str, text: str) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.text = QtWidgets.QPlainTextEdit(text)
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QtWidgets.QPlainTextEdit.LineWrapMode.NoWrap)
        self.text.setFont(QtGui.QFontDatabase.systemFont(
            QtGui.QFontDatabase.SystemFont.FixedFont))
        buttons = QtWidgets.QDialogButtonBox(QtWidgets.QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
        self.resize(900, 500)


def _source(window) -> Path | None:
    view = window.views.get("keyframes")
    loaded = getattr(getattr(view, "model", None), "file", None)
    return None if loaded is None else Path(loaded.path)


def compare_with(window, converted) -> CompareDialog | None:
    """Compare the open file with ``converted`` and show the report (None: nothing shown)."""
    from quatlab.app.model.rig_compare import compare_files, format_report  # noqa: PLC0415

    source = _source(window)
    if source is None:
        QtWidgets.QMessageBox.information(
            window, _("Compare with"),
            _("Open the source file first (File > Open keyframes), then compare it with its "
              "conversion."))
        return None
    try:
        report = run_off_thread(compare_files, source, converted)
    except Exception as exc:  # noqa: BLE001 - a bad file is a message, not a traceback
        window._error(_("Could not compare"), exc)
        return None
    dialog = CompareDialog(window, _("{source} vs {converted}").format(
        source=source.name, converted=Path(converted).name), format_report(report))
    window._compare_dialog = dialog          # kept alive while shown
    dialog.show()
    return dialog


def _ask(window) -> None:
    source = _source(window)
    path, _filter = QtWidgets.QFileDialog.getOpenFileName(
        window, _("Compare with its conversion"), str(source.parent) if source else "",
        _("Keyframes") + " (*.gltf *.glb *.bvh *.fbx *.usda *.usdc *.usdz *.usd);;"
        + _("All files") + " (*)")
    if path:
        compare_with(window, path)


def add_compare_action(window, menu) -> QtGui.QAction:
    """File > Compare with…, after Open keyframes…."""
    act = QtGui.QAction(_("Compare with…"), window)
    tip = _("Compare the open file with its conversion: where the converted file's playback "
            "departs, and which step flipped")
    act.setStatusTip(tip)
    act.setToolTip(tip)
    act.triggered.connect(lambda: _ask(window))
    menu.addAction(act)
    return act
