"""The y axes of the curve plots: their titles, range modes, log scale and the speed range policy.

:class:`PlotYAxis` is the y-axis part of
:class:`quatlab.rendering.curve_plots.CurvePlots` (a mixin).

Speed range policy: near a collapse the naive NLERP speed ``2 sin W / |p|^2``
becomes huge (about 2620 deg / unit t for the negated-20 preset, 52500 for a
negated 1 deg) while every other curve stays below 360. Auto-ranging to the
peak would flatten the lesson into one spike, so the top of the speed plot is
``max(360, 1.5 * p90)`` over the visible finite values, and every curve whose
peak goes above it gets a label at the top, ``↑ <method> peak <value> at t =
<t>``, so the number is still on screen. When all values fit, the plot simply
shows them all (top = 1.1 * maximum). The factor leaves the peak's label room
above the curves that fit: at 1.25 a naive SLERP at 340 deg/t left a band of
20 px at 1024x768 and 150 %, too low for the label, and the 2,620 went
unsaid on the two-key and wrap tabs.
"""

from __future__ import annotations

import numpy as np

from quatlab.rendering.series import check_plot

__all__ = ["PlotYAxis"]

#: Tick labels' point size; the plots' callouts are set in it too.
_TICK_FONT_PT = 10
#: Speed range policy (module docstring).
_SPEED_FLOOR_TOP = 360.0
_SPEED_ROBUST_PERCENTILE = 90
_SPEED_ROBUST_FACTOR = 1.5
_SPEED_HEADROOM = 1.1
#: Below this the data are rounding noise (q -> -q gives ~1e-11): show [0, 1].
_SPEED_NOISE = 1e-6
#: The angle plot fits its range to data whose top lies between these (degrees):
#: above nothing that did not move, below a half turn (set_fit_angles).
_ANGLE_STILL = 1e-6
_ANGLE_FIT_BELOW = 180.0


class PlotYAxis:
    """Y axis titles, range modes and log scale of :class:`CurvePlots` (a mixin)."""

    def set_y_axis(self, plot: str, label: str | None = None,
                   y_range: str | tuple[float, float] = "default", *, log: bool = False,
                   short: str | None = None) -> None:
        """Title and range of one plot's y axis, for quantities other than angle and speed.

        Parameters
        ----------
        plot : {"angle", "speed"}
        label : str, optional
            Axis title with its unit, e.g. ``"|q| - 1"``; None restores the
            default ("path angle (deg)", "angular speed (deg / <x unit>)").
            It survives :meth:`set_x_axis`.
        y_range : "default", "auto" or (lo, hi)
            ``"default"``: the angle plot shows [0, 360] with ticks every 90
            deg and the 180 deg reference line; the speed plot follows the
            range policy of the module docstring. ``"auto"``: the finite
            values of the shown curves, min to max. ``(lo, hi)``: fixed. In
            every mode a curve that leaves the top is labelled with its peak.
        log : bool
            A logarithmic y axis for quantities that span decades (drift of
            1e-16 to 1e-2): the curves show ``|y|`` (zero has no place on it
            and leaves a gap), a fixed ``y_range`` is in the data's units, and
            the hover readout still gives the signed values.
        short : str, optional
            A shorter title, with the unit, for a plot too short for ``label``
            (:meth:`TitleFitAxis.set_short_title`): "angle (°)" says more than
            "angle from the first key" without its unit. The default titles
            have theirs.
        """
        check_plot(plot)
        if not (isinstance(y_range, str) and y_range in ("default", "auto")):
            lo, hi = (float(v) for v in y_range)
            if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
                raise ValueError(
                    f"y_range must be 'default', 'auto' or finite (lo, hi) with lo < hi, "
                    f"got {y_range!r}")
            y_range = (lo, hi)
        self._y_label[plot] = label
        self._y_short[plot] = short
        self._y_mode[plot] = y_range
        relog = self._log[plot] != bool(log)
        if relog:
            self._log[plot] = bool(log)
            self._store(plot, list(self._series[plot].values()))
        self._label_axes(plot)
        if relog:  # after the range is in log units, or the axis overflows 10 ** 360
            self._update_y_range(plot)
            self.plots[plot].getAxis("left").setLogMode(bool(log))
        self._refresh()

    def view_y(self, plot: str, y) -> np.ndarray:
        """``y`` in ``plot``'s view coordinates: itself, or log10 |y| on a log axis."""
        y = np.asarray(y, dtype=np.float64)
        if not self._log[plot]:
            return y
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.log10(np.abs(y))
        return np.where(np.isfinite(out), out, np.nan)

    def set_fit_angles(self, on: bool) -> None:
        """Fit the angle plot's default range to its data below a half turn (a lesson's).

        A curve that stays under 180° (small-1's 1° turn, a quarter turn)
        then fills the plot instead of lying flat on 0-360°, and a gauge at
        the plot's edge (:class:`~quatlab.rendering.plot_gauge.ScaleGauge`)
        keeps the whole turn as the reference. Data reaching a half turn, or
        none moving at all, keep 0-360° and its landmarks.
        """
        self._fit_angles = bool(on)
        self._update_y_range("angle")

    def _angle_zoom_top(self) -> float | None:
        """Top of the fitted angle range, or None to keep 0-360 (see set_fit_angles)."""
        if not getattr(self, "_fit_angles", False):
            return None
        shown = self._shown("angle")
        values = np.concatenate([s.y for s in shown]) if shown else np.empty(0)
        values = values[np.isfinite(values)]
        if values.size == 0:
            return None
        top = float(values.max())
        if not _ANGLE_STILL < top < _ANGLE_FIT_BELOW or float(values.min()) < 0.0:
            return None
        return _SPEED_HEADROOM * top

    def _show_gauge(self, zoom_top: float | None) -> None:
        gauge = getattr(self, "_gauge", None)
        if zoom_top is None:
            if gauge is not None:
                gauge.setVisible(False)
            return
        if gauge is None:
            from quatlab.rendering.plot_gauge import ScaleGauge

            gauge = self._gauge = ScaleGauge(self.plots["angle"].getViewBox())
        gauge.set_range(0.0, zoom_top)
        gauge.setVisible(True)

    def angle_gauge(self):
        """The 0-360° gauge if the angle plot shows one now, else None (tests)."""
        gauge = getattr(self, "_gauge", None)
        return gauge if gauge is not None and gauge.isVisible() else None

    def _update_y_range(self, plot: str) -> None:
        """Apply the y range mode of ``plot`` (see :meth:`set_y_axis`)."""
        mode = self._y_mode[plot]
        zoom_top = self._angle_zoom_top() if plot == "angle" and mode == "default" else None
        angle_default = plot == "angle" and mode == "default" and zoom_top is None
        # Multiples of 90 deg are the landmarks of the angle lesson (half and
        # full turns); 45 deg minor ticks without labels keep the axis quiet.
        self.plots[plot].getAxis("left").setTicks([
            [(v, f"{v}") for v in range(0, 361, 90)],
            [(v, "") for v in range(45, 360, 90)],
        ] if angle_default else None)
        if plot == "angle":
            self._half_turn.setVisible(angle_default)
            self._show_gauge(zoom_top)
        if zoom_top is not None:
            lo, top = 0.0, zoom_top
        elif angle_default:
            lo, top = 0.0, 360.0
        elif isinstance(mode, tuple):
            lo, top = (float(v) for v in self.view_y(plot, mode)) if self._log[plot] else mode
        else:
            shown = self._shown(plot)
            values = np.concatenate([s.y for s in shown]) if shown else np.empty(0)
            values = self.view_y(plot, values)
            values = values[np.isfinite(values)]
            if mode == "auto":
                lo, top = ((float(values.min()), float(values.max())) if values.size
                           else (0.0, 1.0))
                # Only truly flat data get an invented span: a tiny range such
                # as |q| - 1 drift of 1e-9 is what the lesson wants to show.
                if top - lo <= 1e-12 * max(abs(lo), abs(top)):
                    half = max(0.5, 0.05 * abs(top))
                    lo, top = lo - half, top + half
            elif values.size == 0 or values.max() <= _SPEED_NOISE:
                lo, top = 0.0, 1.0
            else:
                lo = min(0.0, float(values.min()))
                full = float(values.max())
                cap = max(_SPEED_FLOOR_TOP, _SPEED_ROBUST_FACTOR
                          * float(np.percentile(values, _SPEED_ROBUST_PERCENTILE)))
                top = _SPEED_HEADROOM * full if full <= cap else cap
        self._top[plot] = top
        # pyqtgraph drops a tick label that would stick out of the plot (with
        # a grid on): 5 % padding leaves room for half a "360" or a "0".
        self.plots[plot].setYRange(lo, top, padding=0.05)
