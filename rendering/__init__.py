"""Drawing code: the 3D scene (pyqtgraph.opengl) and the 2D plots (pyqtgraph).

Rendering draws snapshots of the models; it never mutates them.
"""
