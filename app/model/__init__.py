"""Qt-free state: lesson models, the keyframe model, history, presets, explanations.

Nothing here imports Qt, pyqtgraph or OpenGL (see docs/architecture.md).
"""
