"""Curves as JSON and CSV: what ``quatlab curves`` prints and the plots export. No Qt.

A value that does not exist (NaN in :class:`~quatlab.math.curves.Curves`) is
``null`` in JSON and an empty cell in CSV, never an invented number.
"""

from __future__ import annotations

import csv
import io
import math

from quatlab.math.curves import METHODS, Curves

__all__ = ["curves_to_dict", "curves_to_csv", "table_csv", "CSV_COLUMNS"]

#: CSV header: t, then angle and speed (degrees, degrees per unit t) per method.
CSV_COLUMNS = ["t"] + [f"{m}_{k}" for m in METHODS for k in ("angle_deg", "speed_deg")]


def _clean(values) -> list[float | None]:
    return [None if not math.isfinite(v) else float(v) for v in values]


def curves_to_dict(curves: Curves) -> dict:
    """JSON-ready dict: ``t``, ``dot``, ``methods`` (angle_deg and speed_deg), ``notes``.

    >>> from quatlab.math.curves import compute_curves
    >>> d = curves_to_dict(compute_curves([1, 0, 0, 0], [-1, 0, 0, 0], samples=3))
    >>> d["methods"]["naive_nlerp"]["angle_deg"]
    [0.0, None, 360.0]
    """
    return {
        # t = i / (n - 1) to 15 significant digits: 0.35, not 0.35000000000000003.
        "t": [float(f"{v:.15g}") for v in curves.t.tolist()],
        "dot": float(curves.dot),
        "methods": {
            m: {
                "angle_deg": _clean(curves[m].angle_deg),
                "speed_deg": _clean(curves[m].speed_deg),
            }
            for m in METHODS
        },
        "notes": list(curves.notes),
    }


def table_csv(names: list[str], columns) -> str:
    """CSV text of equal-length numeric ``columns`` under ``names``.

    Floats are written as their shortest exact text; NaN and infinities (values
    that do not exist) as empty cells. Shared by ``quatlab curves`` and the
    plots' CSV export, so both files read the same way.

    >>> table_csv(["t", "y"], [[0.0, 1.0], [0.5, float("nan")]]).splitlines()
    ['t,y', '0.0,0.5', '1.0,']
    """
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(names)
    for row in zip(*columns, strict=True):
        writer.writerow(["" if not math.isfinite(v) else repr(float(v)) for v in row])
    return buf.getvalue()


def curves_to_csv(curves: Curves) -> str:
    """CSV text with the :data:`CSV_COLUMNS` header; missing values are empty cells.

    >>> from quatlab.math.curves import compute_curves
    >>> text = curves_to_csv(compute_curves([1, 0, 0, 0], [0, 0, 0, 1], samples=2))
    >>> text.splitlines()[0].split(",")[:3]
    ['t', 'naive_nlerp_angle_deg', 'naive_nlerp_speed_deg']
    """
    columns = [curves.t]
    for m in METHODS:
        columns += [curves[m].angle_deg, curves[m].speed_deg]
    return table_csv(CSV_COLUMNS, columns)
