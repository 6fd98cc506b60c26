"""Qt-free file formats: glTF, CSV/JSON tracks, curves export, sessions, text parsing.

Nothing here imports Qt, pyqtgraph or OpenGL (see docs/formats.md).
"""
