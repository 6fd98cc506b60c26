"""USD (``.usda``, ``.usdc``, ``.usdz``; docs/formats.md, "USD"): UsdSkel and transform animation.

Pixar's ``usd-core`` reads the files, always in a child process (:mod:`.isolate` starts it,
:mod:`.worker` is its entry point), because a malformed file can crash it: a parser that
overflows its stack or allocates without bound would otherwise take QuatLab down with it.
The child checks every file the stage would pull in before composing it
(:mod:`.composition`, :mod:`.package` for ``.usdz`` archives), reads the skeletons, their
animations, skinned meshes and transform ops into plain arrays (:mod:`.stage_read`), and
writes corrected copies and override layers (:mod:`.layer_write`). The parent never imports
``pxr``: :mod:`.scene` holds what the child read, :mod:`.keyframes` is the file as rotation
tracks, :mod:`.euler_ops` converts Euler transform ops.

``usd-core`` is the optional extra ``quatlab[usd]``; without it, opening a USD file is one
line saying how to install it (:data:`INSTALL_HINT`).
"""

from __future__ import annotations

import importlib.util

from quatlab.app.i18n import N_

__all__ = ["USD_SUFFIXES", "INSTALL_HINT", "usd_available"]

#: File name endings QuatLab reads as USD (lower case).
USD_SUFFIXES = (".usda", ".usdc", ".usdz", ".usd")

#: What to do when ``usd-core`` is missing (translated where it is shown).
INSTALL_HINT = N_("reading USD files needs Pixar's usd-core: pip install 'quatlab[usd]'")


def usd_available() -> bool:
    """Whether ``usd-core`` (the ``pxr`` package) is installed; nothing is imported."""
    return importlib.util.find_spec("pxr") is not None
