"""The curves a plot shows: :class:`Series` (named x/y arrays with a style), the methods' series.

No Qt: a lesson model's arrays become Series here, and
:class:`quatlab.rendering.curve_plots.CurvePlots` draws them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from quatlab.app.i18n import N_, _
from quatlab.math.curves import METHOD_LABELS, METHODS, Curves
from quatlab.rendering.style import METHOD_COLORS, METHOD_DASHED

__all__ = ["Series", "curve_series", "check_plot", "PLOTS", "GAP_LABELS"]

#: The two plots, left to right.
PLOTS = ("angle", "speed")

#: Gap label per interpolation family (docs/curves.md): NLERP gaps are the
#: zero-length collapse, SLERP gaps the antipodal ambiguity.
GAP_LABELS = {"nlerp": N_("collapse: |q(t)| = 0"), "slerp": N_("undefined (antipodes)")}


@dataclass(frozen=True, eq=False)
class Series:
    """One curve of one plot.

    Parameters
    ----------
    name : str
        Identifier, shared by the same quantity's curves in both plots (the
        visibility toggle and the CSV columns use it).
    label : str
        Text for the legend and the checkbox.
    colour : str
        ``"#RRGGBB"``.
    dashed : bool
        Dashed line (NLERP) instead of solid (SLERP).
    x, y : array_like, shape (N,)
        Samples; NaN in ``y`` marks values that do not exist and is drawn as a
        labelled gap.
    gap_label : str
        What a gap means, shown after ``label`` next to the gap marker.
    short_label : str, optional
        A shorter ``label`` for a gap's callout with no room for the whole
        (an Euler angle's axis name: its colour says the rest).
    """

    name: str
    label: str
    colour: str
    dashed: bool
    x: np.ndarray
    y: np.ndarray
    #: Translated where shown (a caller may give it translated already).
    gap_label: str = N_("undefined")
    short_label: str | None = None

    def __post_init__(self):
        x = np.asarray(self.x, dtype=np.float64)
        y = np.asarray(self.y, dtype=np.float64)
        if x.ndim != 1 or x.shape != y.shape:
            raise ValueError(
                f"series {self.name!r}: x and y must be 1-D of equal length, "
                f"got {x.shape} and {y.shape}"
            )
        # Frozen dataclass: store the float arrays through object.__setattr__.
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "y", y)


def curve_series(curves: Curves, plot: str) -> list[Series]:
    """The four methods of ``curves`` as :class:`Series` for ``plot``.

    Parameters
    ----------
    curves : Curves
        From :func:`quatlab.math.curves.compute_curves`.
    plot : {"angle", "speed"}
        Path angle or angular speed, both in degrees.

    Returns
    -------
    list of Series
        In :data:`METHODS` order, styled with the shared method colours.
    """
    check_plot(plot)
    out = []
    for name in METHODS:
        m = curves[name]
        out.append(Series(
            name=name, label=_(METHOD_LABELS[name]), colour=METHOD_COLORS[name],
            dashed=METHOD_DASHED[name], x=curves.t,
            y=m.angle_deg if plot == "angle" else m.speed_deg,
            gap_label=_(GAP_LABELS[name.rsplit("_", 1)[1]]),
        ))
    return out


def check_plot(plot: str) -> None:
    if plot not in PLOTS:
        raise ValueError(f"plot must be one of {PLOTS}, got {plot!r}")
