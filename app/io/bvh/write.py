"""Write a BVH file back with new motion values, keeping its hierarchy and formatting. No Qt."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.io.atomic import write_files
from quatlab.app.io.bvh.motion import rewrite_rows
from quatlab.app.io.bvh.parse import error_at

if TYPE_CHECKING:
    from quatlab.app.io.bvh import BvhFile

__all__ = ["format_bvh", "write_bvh"]


def format_bvh(bvh: BvhFile, motion) -> bytearray:
    """The bytes of ``bvh`` with the motion values ``motion`` (``(F, C)``), as one buffer.

    The header (HIERARCHY to Frame Time) is kept byte for byte; frame lines
    whose values are unchanged are kept as read; in a changed line only the
    changed values are rewritten, with the number of decimals of the value
    they replace, keeping separators and line ends. The lines are handled a
    block at a time (:func:`quatlab.app.io.bvh.motion.rewrite_rows`) into one
    growing buffer: the copy costs its own size, once.
    """
    new = np.asarray(motion, dtype=np.float64)
    old = bvh.motion
    if new.shape != old.shape:
        raise error_at(bvh.path, None, _("motion must have shape {shape}, got {shape2}").format(
            shape=old.shape, shape2=new.shape))
    if not np.all(np.isfinite(new)):
        raise error_at(bvh.path, None, _("motion contains NaN or infinity"))
    lay = bvh.layout
    view = memoryview(lay.data)
    out = bytearray(view[:lay.body_start])
    rewrite_rows(lay.data, lay.body_start, lay.body_end, old, new, out)
    out += view[lay.body_end:]
    return out


def write_bvh(bvh: BvhFile, motion, path, *, force: bool = False) -> None:
    """Write ``bvh`` with ``motion`` to ``path`` atomically (see :func:`format_bvh`).

    An existing ``path`` is refused (:class:`FileExistsError`) unless
    ``force``; on failure nothing is left behind.
    """
    write_files([(Path(path), format_bvh(bvh, motion))], force=force)
