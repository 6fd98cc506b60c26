"""Qt-free model of the pose blending lesson: kept-reference blend vs naive sum vs align-to-first.

See :class:`quatlab.app.model.lesson_base.LessonModel` for the shared protocol.
"""

from __future__ import annotations

import numpy as np

from quatlab.app.model.lesson_base import LessonModel
from quatlab.math import blend as B
from quatlab.math.interpolate import InterpolationCollapseError
from quatlab.math.quaternion import angle_between, from_axis_angle, to_axis_angle

__all__ = ["BlendModel", "rotation_angle_deg"]


def rotation_angle_deg(q0, quats) -> np.ndarray:
    """Rotation angle (degrees, [0, 180]) from ``q0`` to each row of ``quats``; NaN stays NaN.

    Sign-invariant (:func:`~quatlab.math.quaternion.angle_between`): a pose
    stored as ``-q`` reads the same as ``q``, so a curve of it moves only when
    the rotation does (docs/conventions.md: q and -q are one rotation).
    """
    quats = np.asarray(quats, dtype=np.float64)
    out = np.full(quats.shape[:-1], np.nan)
    ok = np.all(np.isfinite(quats), axis=-1)
    if np.any(ok):
        out[ok] = np.degrees(angle_between(q0, quats[ok]))
    return out


class BlendModel(LessonModel):
    """N poses blended by weights (:mod:`quatlab.math.blend`): kept reference, naive, first.

    State a student edits: ``weights`` (N,), one in [0, 1] per pose, and
    ``negated`` (N,), which poses are stored as ``-q`` instead of the
    preset's sign (the same rotation in the other hemisphere). ``reference``
    is the input index the kept-reference blend aligns to. Like the
    animation-graph blend node (docs/sources.md) the model keeps it from one edit to the
    next and passes it to :func:`~quatlab.math.blend.choose_reference` as
    ``previous``: it changes only when its own weight reaches zero, and then
    to the next pose by stable index. ``switch`` describes the last such
    change made by hand (None until one happens).

    ``param`` plays the preset's sweep of weights (waypoint ``i`` at ``i``):
    moving it sets the weights, and the reference the sweep carried from its
    start to that point, so the chains match the plotted sweep.
    """

    PRESETS = B.PRESETS
    VARIANTS = ("blend", "naive", "align_first")
    SAMPLES = 401

    def _apply_preset(self) -> None:
        p = B.PRESETS[self.preset]
        self.base_poses = from_axis_angle(p["axes"], np.radians(p["angles_deg"]))
        self.negated = np.zeros(len(self.base_poses), dtype=bool)
        self.weights = np.array(p["weights"], dtype=np.float64)
        self.reference = B.choose_reference(self.weights, p["reference"])
        self.switch: dict | None = None
        self.param = None

    def _initial_param(self) -> float:
        # The sweep starts where the preset's weights are (for the presets
        # that have a sweep), so the sliders and the plot cursor agree.
        return 0.0

    @property
    def quats(self) -> np.ndarray:
        """The poses as stored: the preset's quaternions, negated where ``negated``."""
        return np.where(self.negated[:, None], -self.base_poses, self.base_poses)

    def _recompute(self) -> None:
        p = B.PRESETS[self.preset]
        # A preset without a sweep holds its weights still: the lesson is the listing.
        waypoints = p.get("sweep", [p["weights"], p["weights"]])
        self.s = np.linspace(0.0, len(waypoints) - 1, self.SAMPLES)
        self.sweep = B.blend_sweep(self.quats, B.weights_path(waypoints, self.SAMPLES),
                                   reference=p["reference"])
        # What the plots draw: the rotation angle from pose 0, not the sweep's
        # sign-aware path angle, which reads a pose stored as -q as a jump of
        # 360 deg minus the angle while the blended rotation barely moves.
        self.angles = {v: rotation_angle_deg(self.quats[0], getattr(self.sweep, v))
                       for v in self.VARIANTS}
        self._evaluate()

    def _evaluate(self) -> None:
        """The three blends at the current weights and reference (NaN: no result)."""
        if not np.any(self.weights > 0):
            self.current = {v: np.full(4, np.nan) for v in self.VARIANTS}
            self.current_angle = {v: np.nan for v in self.VARIANTS}
            return
        # One row of blend_sweep: its NaN-on-collapse and path angles are the
        # plots' own, and with the reference already chosen it keeps it.
        one = B.blend_sweep(self.quats, self.weights[None], reference=self.reference)
        self.current = {v: getattr(one, v)[0] for v in self.VARIANTS}
        self.current_angle = {v: float(rotation_angle_deg(self.quats[0], self.current[v]))
                              for v in self.VARIANTS}

    # -- edits ---------------------------------------------------------------------

    def set_weight(self, i: int, value: float) -> None:
        """Set pose ``i``'s weight (clamped to [0, 1]); the reference is kept if it can be."""
        w = self.weights.copy()
        w[i] = min(max(float(value), 0.0), 1.0)
        self.weights = w
        old = self.reference
        if np.any(w > 0):
            self.reference = B.choose_reference(w, previous=old)
        self._evaluate()
        if self.reference != old:
            self._note_switch(old)
        self.events.emit("param")

    def _note_switch(self, old: int) -> None:
        # The jump the switch alone causes: the same weights blended in the old
        # reference's hemisphere (its pose no longer counts, but it still
        # picks the signs) against the new one's.
        try:
            before = B.blend(self.quats, self.weights, reference=self.quats[old])
            jump = float(np.degrees(angle_between(before, self.current["blend"])))
        except InterpolationCollapseError:
            jump = float("nan")  # the old hemisphere gave no blend at all
        self.switch = {"old": old, "new": self.reference, "jump_deg": jump}

    def set_negated(self, i: int, on: bool) -> None:
        """Store pose ``i`` as ``-q`` (on) or as the preset has it: same rotation either way."""
        self.negated[i] = bool(on)
        self._recompute()
        self._publish()

    def set_param(self, value: float) -> None:
        """Play the preset's sweep: weights and reference as the sweep has them at ``value``."""
        lo, hi = self.param_range
        self.param = min(max(float(value), lo), hi)
        i = self.index()
        self.weights = self.sweep.weights[i].copy()
        self.reference = int(self.sweep.reference[i])
        self.switch = None
        self._evaluate()
        self.events.emit("param")

    # -- questions -----------------------------------------------------------------

    @property
    def param_range(self) -> tuple[float, float]:
        return 0.0, float(self.s[-1])

    def index(self) -> int:
        return int(np.argmin(np.abs(self.s - self.param)))

    @property
    def on_sweep(self) -> bool:
        """Whether the weights are the sweep's at ``param`` (not edited by hand since)."""
        return bool(np.allclose(self.weights, self.sweep.weights[self.index()]))

    def at_param(self) -> dict[str, np.ndarray]:
        """The three blends at the current weights, (w, x, y, z), NaN where there is none."""
        return dict(self.current)

    def switch_params(self) -> np.ndarray:
        return self.s[self.sweep.switches]

    def pose_text(self, i: int) -> str:
        """Pose ``i``'s rotation as axis-angle, and the sign its w is stored with."""
        q = self.quats[i]
        axis, angle = to_axis_angle(q)
        xyz = ", ".join(f"{0.0 if abs(a) < 5e-3 else a:.2f}" for a in axis)
        return f"{np.degrees(angle):.1f}° about ({xyz}), stored w {q[0]:+.2f}"

    def _versus_kept(self, variant: str) -> str:
        """How far ``variant`` is from the kept-reference blend, as a rotation (sign-free)."""
        q = self.current[variant]
        if not np.all(np.isfinite(q)):
            return "collapses (poses stored as q and −q cancel)"
        off = float(np.degrees(angle_between(self.current["blend"], q)))
        return "agrees with it" if off < 0.05 else f"is {off:.1f}° of rotation off it"

    def explanation(self) -> str:
        p, w = B.PRESETS[self.preset], self.weights
        # The description narrates the preset's own sweep and signs: once the
        # student left them it could contradict the numbers that follow.
        if self.on_sweep and not self.negated.any():
            lines = [p["description"]]
        else:
            lines = ["Weights or signs set by hand; the plots still show the preset's sweep "
                     "(move the sweep slider to play it again)."]
        shown = ", ".join(f"{x:.2f}" for x in w)
        if not np.any(w > 0):
            lines.append(f"The weights are ({shown}): all zero, so there is nothing to blend.")
            return " ".join(lines)
        a = self.current_angle
        lines.append(
            f"Weights ({shown}), reference pose {self.reference}: the kept-reference blend is "
            f"{a['blend']:.1f}° of rotation from pose 0 (as plotted); the naive sum "
            f"{self._versus_kept('naive')}, align-to-first {self._versus_kept('align_first')}.")
        sw = self.switch
        if sw is not None:
            text = (f"Pose {sw['old']}'s weight reached 0, so the reference passed to pose "
                    f"{sw['new']}, the next by stable index: the kept-reference blend jumped "
                    f"{sw['jump_deg']:.1f}° at that edit.")
            if w[sw["old"]] > 0:
                text += (f" Raising pose {sw['old']} again does not switch back: pose "
                         f"{sw['new']} stays the reference while its weight is positive.")
            lines.append(text)
        elif self.on_sweep and self.sweep.switches.size:
            lines.append("The reference changed at the grey line(s): "
                         f"sweep {', '.join(f'{x:.2f}' for x in self.switch_params())}.")
        return " ".join(lines)
