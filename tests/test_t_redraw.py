"""A change of t redraws what moves with t: the table keeps its layout, the toolbars stay put."""

from __future__ import annotations

from PyQt6 import QtCore, QtWidgets

import quatlab.app.qt.window as window_module
from quatlab.app.model.state import LessonState
from quatlab.app.qt.window import MainWindow
from quatlab.math.curves import METHODS


def test_a_change_of_t_does_not_resize_the_table(qtbot, monkeypatch):
    monkeypatch.setattr(window_module, "_view_modules", lambda: [], raising=False)
    win = MainWindow(LessonState.from_preset("negated-20", t=0.0))
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    table = win.findChild(QtWidgets.QTableWidget, "method_table")

    def layout():
        QtWidgets.QApplication.processEvents()
        header, rows = table.horizontalHeader(), table.verticalHeader()
        return ([header.sectionSize(c) for c in range(table.columnCount())],
                [rows.sectionSize(r) for r in range(table.rowCount())])

    first = layout()
    # t = 0: angles 0.00, speeds ~20; t = 0.5: naive NLERP at 170.00 deg and
    # 2619.58 deg/t: wider numbers, which used to re-measure every column.
    for t in (0.5, 1.0, 0.25):
        win.state.set_t(t)
        assert layout() == first, t
    # Every number's text still shows whole (no elision) at this size.
    for method in METHODS:
        for what, col in (("angle", 1), ("speed", 2)):
            item = win.readouts.cell(method, what)
            room = table.horizontalHeader().sectionSize(col)
            assert table.fontMetrics().horizontalAdvance(item.text()) < room, item.text()


class _PaintCounter(QtCore.QObject):
    def __init__(self, widgets):
        super().__init__()
        self.widgets = {id(w): name for name, w in widgets.items()}
        self.counts = dict.fromkeys(widgets, 0)

    def eventFilter(self, obj, event):
        if event.type() == QtCore.QEvent.Type.Paint and id(obj) in self.widgets:
            self.counts[self.widgets[id(obj)]] += 1
        return False


def test_a_change_of_t_leaves_the_scene_toolbar_and_container_unpainted(qtbot, monkeypatch):
    """The scrubber used to reset its spin box's range and suffix on every t, which re-laid
    out and repainted the whole lesson view (toolbar, scene container) for a moved slider."""
    monkeypatch.setattr(window_module, "_view_modules", lambda: [], raising=False)
    win = MainWindow(LessonState.from_preset("negated-20", t=0.1))
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    for _ in range(5):
        QtWidgets.QApplication.processEvents()
    lesson = win.lesson
    counter = _PaintCounter({"root_only": lesson.root_only, "container": lesson.scene.widget,
                             "slider": win.findChild(QtWidgets.QSlider, "t_slider")})
    app = QtWidgets.QApplication.instance()
    app.installEventFilter(counter)
    try:
        for k in range(1, 11):
            win.state.set_t(0.1 + 0.05 * k)
            QtWidgets.QApplication.processEvents()
            QtWidgets.QApplication.processEvents()
    finally:
        app.removeEventFilter(counter)
    assert counter.counts["slider"] >= 5          # what moves with t is redrawn ...
    assert counter.counts["root_only"] == 0, counter.counts   # ... and only that
    assert counter.counts["container"] == 0, counter.counts


def test_a_change_of_t_moves_the_chain_mesh_without_rebuilding_it(qtbot):
    """With the root only turning, a t change sets one transform per chain and uploads no
    mesh; with every joint turning the one mesh is re-baked. Either way the drawn chain is
    the pose: the mesh's vertices, through the item's transform, land where forward
    kinematics (root bone frame from scipy) puts them."""
    import numpy as np
    from scipy.spatial.transform import Rotation
    from test_scene_gl import _grab, _show_scene

    from quatlab.math import quaternion as Q
    from quatlab.math.quaternion import to_xyzw
    from quatlab.rendering.chain import ROOT

    scene = _show_scene(qtbot)
    scene.set_root_only(True)
    scene.set_chain("k", Q.from_axis_angle([0, 0, 1], 0.3), "#009E73")
    _grab(scene)
    body = scene._chains["k"].body
    baked = body._geometry
    for angle in (0.5, 0.9, 1.4):
        q = Q.from_axis_angle([0, 1, 1] / np.sqrt(2), angle)
        scene.set_chain("k", q, "#009E73")
        _grab(scene)
        assert body._geometry is baked, angle          # nothing re-uploaded
        m = np.array(body.transform().matrix())
        np.testing.assert_allclose(m[:3, :3], Rotation.from_quat(to_xyzw(q)).as_matrix(),
                                   atol=1e-6)
        np.testing.assert_allclose(m[:3, 3], ROOT, atol=1e-9)
    scene.set_root_only(False)
    scene.set_chain("k", Q.from_axis_angle([0, 0, 1], 0.2), "#009E73")
    bent = body._geometry
    scene.set_chain("k", Q.from_axis_angle([0, 0, 1], 0.6), "#009E73")
    assert body._geometry is not bent                  # joints bent: re-baked
    # Every joint turns by 0.6 rad about Z: the bones (1, 0.8, 0.64 long) point at 0.6,
    # 1.2 and 1.8 rad, and the tip ball (radius 0.06) sits at the end of the last one.
    joints = [np.array([np.cos(a), np.sin(a), 0.0]) * length
              for a, length in ((0.6, 1.0), (1.2, 0.8), (1.8, 0.64))]
    tip = ROOT + sum(joints)
    m = np.array(body.transform().matrix())
    verts = body._geometry.vertexes @ m[:3, :3].T + m[:3, 3]
    nearest = np.min(np.linalg.norm(verts - tip, axis=1))
    assert nearest < 0.1, nearest
