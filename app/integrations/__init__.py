"""QuatLab inside other tools' pipelines (docs/pipeline.md): plug-ins, not commands. No Qt.

:mod:`.pyblish_plugins` holds a Pyblish validator of rotation keyframes with
a repair action (the optional extra ``quatlab[pyblish]``).
"""
