"""Pyblish plug-ins (``quatlab[pyblish]``; docs/pipeline.md, "Pyblish"). No Qt.

:data:`PLUGIN_PATH` is this folder, for ``pyblish.api.register_plugin_path``
(Pyblish loads every ``.py`` file in it whose name does not start with
``_``); :func:`register` does that. The plug-ins are in
:mod:`.validate_animation`.
"""

from __future__ import annotations

import os

__all__ = ["PLUGIN_PATH", "register"]

#: The folder Pyblish discovers the plug-ins in.
PLUGIN_PATH = os.path.dirname(os.path.abspath(__file__))


def register() -> None:
    """Register :data:`PLUGIN_PATH` with Pyblish (``pyblish-base`` must be installed)."""
    import pyblish.api

    pyblish.api.register_plugin_path(PLUGIN_PATH)
