"""Qt-free model of the Euler angles lesson: any of the 24 orders, gimbal lock, Euler lerp vs SLERP.

See :class:`quatlab.app.model.lesson_base.LessonModel` for the shared protocol.
"""

from __future__ import annotations

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.model.explain import sentences
from quatlab.app.model.lesson_base import LessonModel
from quatlab.math import gimbal as G
from quatlab.math.interpolate import slerp
from quatlab.math.quaternion import EULER_ORDERS, from_euler

__all__ = ["EulerModel", "angle_names"]


def angle_names(order: str) -> tuple[str, str, str]:
    """The three angles of ``order`` named by the axis each turns about, not by position.

    Intrinsic orders (upper case) turn about axes the earlier turns moved,
    marked with primes: ``"ZYX"`` -> Z, Y′, X″. Extrinsic orders (lower
    case) turn about the fixed axes: ``"xyz"`` -> x, y, z; a proper Euler
    order repeats its first axis, numbered then: ``"zxz"`` -> z₁, x, z₂.
    "Yaw, pitch, roll" would name positions, and read "yaw about x" for ``"xyz"``.
    """
    if order.isupper():
        return order[0], order[1] + "′", order[2] + "″"
    if order[0] == order[2]:
        return order[0] + "₁", order[1], order[2] + "₂"
    return order[0], order[1], order[2]


class EulerModel(LessonModel):
    """Linear interpolation of Euler angles against SLERP (:mod:`quatlab.math.gimbal`).

    ``param`` is t in [0, 1].
    """

    PRESETS = G.PRESETS
    #: The orders offered (scipy convention: upper case intrinsic, lower case extrinsic).
    ORDERS = EULER_ORDERS

    def _apply_preset(self) -> None:
        p = G.PRESETS[self.preset]
        self.order = p["order"]
        self.start, self.end = np.radians(p["start_deg"]), np.radians(p["end_deg"])
        self._preset_options = self._options()

    def _options(self) -> tuple:
        return self.order, tuple(self.start), tuple(self.end)

    @property
    def modified(self) -> bool:
        """Whether the order or an angle differs from the preset's (its text may no longer fit)."""
        return self._options() != self._preset_options

    def _recompute(self) -> None:
        self.comparison = G.compare_paths(self.start, self.end, self.order)

    def set_order(self, order: str) -> None:
        """Read the same angles in another order: a different pair of poses."""
        if order not in self.ORDERS:
            raise ValueError(f"order must be one of {self.ORDERS}, got {order!r}")
        self.order = order
        self._load()

    def set_angles(self, start_deg, end_deg) -> None:
        """Start and end angles in degrees, three each in the order's positions."""
        start, end = (np.radians(np.asarray(a, dtype=np.float64)) for a in (start_deg, end_deg))
        for name, a in (("start_deg", start), ("end_deg", end)):
            if a.shape != (3,) or not np.all(np.isfinite(a)):
                raise ValueError(f"{name} must be three finite numbers, got {a!r}")
        self.start, self.end = start, end
        self._load()

    def angles_at_param(self) -> np.ndarray:
        """The Euler-lerp angles (radians) at the slider."""
        return self.angles_at(self.param)

    def angles_at(self, t) -> np.ndarray:
        """The Euler-lerp angles (radians), ``(..., 3)`` for t of shape ``(...)``."""
        return G.lerp_angles(self.start, self.end, t)

    def at_param(self) -> dict[str, np.ndarray]:
        q0, q1 = from_euler(self.start, self.order), from_euler(self.end, self.order)
        return {"euler": from_euler(self.angles_at_param(), self.order),
                "slerp": slerp(q0, q1, self.param)}

    @property
    def angle_names(self) -> tuple[str, str, str]:
        """The order's angles named by their axes (see :func:`angle_names`)."""
        return angle_names(self.order)

    def readout(self) -> G.GimbalReadout:
        return G.gimbal_readout(self.angles_at_param(), self.order, names=self.angle_names)

    def _order_text(self) -> str:
        text = (_("intrinsic {order}") if self.order.isupper()
                else _("extrinsic (fixed axes) {order}"))
        return text.format(order="-".join(self.order))

    #: A jump of the readout this close (deg) to the lock is a flip through it, not a wrap.
    LOCK_FLIP_DEG = 3.0

    def _initial_param(self) -> float:
        """Mid-way, or a little before it when SLERP's readout jumps there: on the jump the
        readout's dots sit on neither side of it, and the cursor hides the grey line the
        text points to ("Near the lock (pitch 85)" passes the lock at t = 0.5)."""
        mid = super()._initial_param()
        near = np.abs(self.wrap_times() - mid) <= self.BEFORE_JUMP / 2
        return mid - self.BEFORE_JUMP if near.any() else mid

    #: How far before a jump at mid-way the slider starts.
    BEFORE_JUMP = 0.05

    def _jumps(self) -> np.ndarray:
        """Indices of the samples where SLERP's Euler readout jumped from the one before."""
        return np.flatnonzero(np.any(self.comparison.slerp_wraps, axis=-1))

    def wrap_times(self) -> np.ndarray:
        """t where SLERP's Euler readout jumps across +-180 deg."""
        return self.comparison.t[self._jumps()]

    def lock_flips(self) -> np.ndarray:
        """For each of :meth:`wrap_times`, whether the jump is SLERP passing (next to) the
        gimbal lock: there the first and last angles swap sides by about 180° each
        ("Near the lock (pitch 85)" at t = 0.5), which is no wrap across ±180°."""
        c = self.comparison
        jumps = self._jumps()
        return np.array([min(float(G.gimbal_readout(c.slerp_euler[j], self.order).margin)
                             for j in (i - 1, i)) < np.radians(self.LOCK_FLIP_DEG)
                         for i in jumps], dtype=bool)

    def explanation(self) -> str:
        c, r = self.comparison, self.readout()
        degs = np.degrees(r.angles)
        names = self.angle_names
        expr = r.expression.replace("-", "−")
        preset = G.PRESETS[self.preset]
        lines = [_("Order or angles changed from “{preset}” (choose it again to restore it); "
                   "{order}.").format(preset=_(preset["label"]), order=self._order_text())
                 if self.modified else _(preset["description"]),
                 _("At t = {t:.2f} the Euler angles ({order}) are {angles}.").format(
                     t=self.param, order=self._order_text(), angles=_(", ").join(
                         _("{angle:.1f}° about {axis}").format(angle=d, axis=n)
                         for n, d in zip(names, degs, strict=True)))]
        if r.locked:
            lines.append(_("<b>Gimbal lock:</b> the middle angle (about {middle}) is "
                           "{angle:+.0f}°, so the rings of the {first} and {last} angles turn "
                           "about one shared axis (highlighted) and only {expr} matters "
                           "(= {combined:.1f}°); one degree of freedom is gone.").format(
                               middle=names[1], angle=degs[1], first=names[0], last=names[2],
                               expr=expr, combined=np.degrees(r.combined)))
        else:
            lines.append(_("{margin:.1f}° from the lock; at the lock only {expr} would "
                           "matter.").format(margin=np.degrees(r.margin), expr=expr))
        lines.append(_("Linear Euler interpolation turns {euler:.0f}° in all, SLERP "
                       "{slerp:.0f}°; here they are {apart:.1f}° apart.").format(
                           euler=np.degrees(c.euler_swept), slerp=np.degrees(c.slerp_swept),
                           apart=np.degrees(np.interp(self.param, c.t, c.deviation))))
        # Where, in numbers: the grey line can lie under the cursor (t = 0.50 in the
        # tab's first preset) and the sentence then pointed at nothing visible.
        # Each jump at the middle of the two samples it lies between (the sample after
        # it said 0.51 for the lock passed at 0.5).
        jumps = self._jumps()
        wraps, flips = (c.t[jumps - 1] + c.t[jumps]) / 2.0, self.lock_flips()
        if wraps[~flips].size:
            lines.append(_("SLERP's own Euler readout wraps across ±180° at t = {times} (grey "
                           "line in the plots): the angles jump, the rotation does not.").format(
                               times=", ".join(f"{t:.2f}" for t in wraps[~flips])))
        if wraps[flips].size:
            lines.append(_("At t = {times} SLERP passes the gimbal lock: its Euler readout "
                           "flips there (grey line in the plots), the first and last angles "
                           "jumping to the other side; the rotation does not jump.").format(
                               times=", ".join(f"{t:.2f}" for t in wraps[flips])))
        return sentences(*lines)
