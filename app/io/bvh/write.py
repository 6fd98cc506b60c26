"""Write a BVH file back with new motion values, keeping its hierarchy and formatting. No Qt."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.io.atomic import write_files
from quatlab.app.io.bvh.parse import SEPARATORS, error_at

if TYPE_CHECKING:
    from quatlab.app.io.bvh import BvhFile

__all__ = ["format_bvh", "write_bvh"]


def _format_like(token: str, value: float) -> str:
    """``value`` printed with the precision and style of ``token`` from the same file."""
    mantissa, e, _ = token.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    if e:
        # Significant digits are not enough once the magnitude changes
        # (x + 360): keep every digit instead.
        return repr(float(value))
    if "." not in token and float(value).is_integer():
        return f"{value:.0f}"
    if "." not in token:
        return repr(float(value))        # the file wrote integers; keep every digit
    return f"{value:.{decimals}f}"


def format_bvh(bvh: BvhFile, motion) -> bytes:
    """The bytes of ``bvh`` with the motion values ``motion`` (``(F, C)``).

    The header (HIERARCHY to Frame Time) is kept byte for byte; frame lines
    whose values are unchanged are kept as read; in a changed line only the
    changed values are rewritten, with the number of decimals of the value
    they replace, keeping separators and line ends.
    """
    new = np.asarray(motion, dtype=np.float64)
    old = bvh.motion
    if new.shape != old.shape:
        raise error_at(bvh.path, None, _("motion must have shape {shape}, got {shape2}").format(
            shape=old.shape, shape2=new.shape))
    if not np.all(np.isfinite(new)):
        raise error_at(bvh.path, None, _("motion contains NaN or infinity"))
    lay = bvh.layout
    changed = new != old                 # -0.0 == 0.0: a sign of zero is no change
    dirty = np.flatnonzero(changed.any(axis=1)) if changed.size else np.array([], int)
    rows = list(lay.rows)
    for f in dirty:
        parts = SEPARATORS.split(rows[f])
        start = 1 if parts and parts[0] == "" else 0
        for c in np.flatnonzero(changed[f]):
            k = start + 2 * int(c)
            parts[k] = _format_like(parts[k], float(new[f, c]))
        rows[f] = "".join(parts)
    body = "".join(r + e for r, e in zip(rows, lay.row_ends, strict=True))
    return lay.header + body.encode("utf-8") + lay.tail


def write_bvh(bvh: BvhFile, motion, path, *, force: bool = False) -> None:
    """Write ``bvh`` with ``motion`` to ``path`` atomically (see :func:`format_bvh`).

    An existing ``path`` is refused (:class:`FileExistsError`) unless
    ``force``; on failure nothing is left behind.
    """
    write_files([(Path(path), format_bvh(bvh, motion))], force=force)
