"""Qt-free model of the pose blending lesson: kept-reference blend vs naive sum vs align-to-first.

See :class:`quatlab.app.model.lesson_base.LessonModel` for the shared protocol.
"""

from __future__ import annotations

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.model.explain import sentences
from quatlab.app.model.lesson_base import LessonModel
from quatlab.math import blend as B
from quatlab.math.interpolate import InterpolationCollapseError
from quatlab.math.quaternion import angle_between, from_axis_angle, to_axis_angle
from quatlab.math.rotation_mean import mean as rotation_mean

__all__ = ["BlendModel", "axis_angle_text", "mean_text", "rotation_angle_deg"]


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


def _same(a, b) -> bool:
    """Whether two plot descriptions (dicts of arrays, lists, text) hold the same values."""
    if isinstance(a, dict) or isinstance(b, dict):
        return (isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys()
                and all(_same(a[k], b[k]) for k in a))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (np.shape(a) == np.shape(b)
                and bool(np.array_equal(a, b, equal_nan=np.asarray(a).dtype.kind == "f")))
    return a == b


def _axis_text(axis) -> str:
    return ", ".join(f"{0.0 if abs(a) < 5e-3 else a:.2f}" for a in axis)


def axis_angle_text(angle_deg: float, axis, w: float) -> str:
    """A pose's rotation as the readout shows it: angle, axis and the stored sign of w."""
    return _("{angle:.1f}° about ({axis}), stored w {w:+.2f}").format(
        angle=angle_deg, axis=_axis_text(axis), w=w)


def mean_text(q) -> str:
    """The rotation mean as its readout shows it: angle and axis, or why there is none."""
    if not np.all(np.isfinite(q)):
        return _("not unique: the weighted poses are spread evenly")
    axis, angle = to_axis_angle(q)
    if angle < 1e-9:
        # Rounding leaves ~1e-16 in x, y, z: an axis that means nothing.
        return _("0.0°, the identity")
    return _("{angle:.1f}° about ({axis})").format(angle=float(np.degrees(angle)),
                                                   axis=_axis_text(axis))


def _means(quats, weights) -> np.ndarray:
    """Rotation means ``(M, 4)`` of ``quats`` for each row of ``weights`` ``(M, N)``.

    NaN where it is not unique, or where every weight is zero (nothing to average).
    """
    w = np.asarray(weights, dtype=np.float64)
    out = np.full(w.shape[:-1] + (4,), np.nan)
    live = np.sum(w, axis=-1) > 0
    if np.any(live):
        out[live] = rotation_mean(quats, w[live], undefined="nan")
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
    #: Samples of a hand-edited weight's sweep, each side of its value.
    HAND_SAMPLES = 101

    def _apply_preset(self) -> None:
        p = B.PRESETS[self.preset]
        self.base_poses = from_axis_angle(p["axes"], np.radians(p["angles_deg"]))
        self.negated = np.zeros(len(self.base_poses), dtype=bool)
        self.weights = np.array(p["weights"], dtype=np.float64)
        self.reference = B.choose_reference(self.weights, p["reference"])
        self.switch: dict | None = None
        self.param = None
        #: The listing the blends read the poses in (``order[k]`` is listed
        #: k-th). Only align-to-first cares; presets with "orders" play them.
        self.orders = [list(o) for o in p.get("orders", [])]
        self.order = np.arange(len(self.base_poses))
        #: Where each blend can go over every edit of this preset (weights,
        #: signs, listings), for the camera to frame once (quatlab.math.blend.reachable).
        self.reachable = B.reachable(self.base_poses, [o[0] for o in self.orders] or [0])
        # The mean ignores signs and listings: the same grid of weights covers it.
        grid = np.stack(np.meshgrid(*[np.linspace(0.0, 1.0, 5)] * len(self.base_poses),
                                    indexing="ij"), axis=-1).reshape(-1, len(self.base_poses))
        means = _means(self.base_poses, grid)
        self.reachable["mean"] = means[np.all(np.isfinite(means), axis=-1)]
        #: The pose whose weight was last set by hand (the plots then sweep
        #: it), None while the plots play the preset's sweep or listings.
        self.hand: int | None = None

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
        last = len(self.orders) - 1 if self.orders else len(waypoints) - 1
        self.s = np.linspace(0.0, last, self.SAMPLES)
        self.sweep = B.blend_sweep(self.quats, B.weights_path(waypoints, self.SAMPLES),
                                   reference=p["reference"])
        # What the plots draw: the rotation angle from pose 0, not the sweep's
        # sign-aware path angle, which reads a pose stored as -q as a jump of
        # 360 deg minus the angle while the blended rotation barely moves.
        self.angles = {v: rotation_angle_deg(self.quats[0], getattr(self.sweep, v))
                       for v in self.VARIANTS}
        #: The rotation mean along the sweep (Markley's eigenvector mean, docs/rotations.md):
        #: the reference the three blends are measured against; NaN where not unique.
        self.mean_angles = rotation_angle_deg(self.quats[0], _means(self.quats,
                                                                    self.sweep.weights))
        self._evaluate()
        self._plot_curves()

    def _blends(self, weights, reference: int, order) -> B.BlendSweep:
        """:func:`~quatlab.math.blend.blend_sweep` of rows of ``weights`` with the poses listed
        in ``order``; ``reference`` is a pose index (it follows its pose, not its slot)."""
        order = np.asarray(order)
        slot = int(np.flatnonzero(order == reference)[0])
        return B.blend_sweep(self.quats[order], np.asarray(weights)[..., order],
                             reference=slot)

    def _evaluate(self) -> None:
        """The three blends at the current weights and reference (NaN: no result)."""
        #: The rotation mean at the current weights, (w, x, y, z), NaN where it is not
        #: unique, and each blend's rotation angle from it (degrees, NaN where either is).
        self.current_mean = _means(self.quats, self.weights[None])[0]
        self.current_mean_angle = float(rotation_angle_deg(self.quats[0], self.current_mean))
        if not np.any(self.weights > 0):
            self.current = {v: np.full(4, np.nan) for v in self.VARIANTS}
            self.current_angle = {v: np.nan for v in self.VARIANTS}
            self.mean_off = {v: np.nan for v in self.VARIANTS}
            return
        # One row of blend_sweep: its NaN-on-collapse and path angles are the
        # plots' own, and with the reference already chosen it keeps it.
        one = self._blends(self.weights[None], self.reference, self.order)
        self.current = {v: getattr(one, v)[0] for v in self.VARIANTS}
        self.current_angle = {v: float(rotation_angle_deg(self.quats[0], self.current[v]))
                              for v in self.VARIANTS}
        self.mean_off = {v: float(rotation_angle_deg(self.current_mean, self.current[v]))
                         if np.all(np.isfinite(self.current_mean)) else np.nan
                         for v in self.VARIANTS}

    def _plot_curves(self) -> None:
        """``self.plot``: what the plots show, always through the current weights and listing.

        The preset's sweep until a weight is set by hand; the listings for a
        preset that has them; after a hand edit of pose i, pose i's weight
        from 0 to 1 with the others held, the reference carried from the
        current one (what moving that slider on would give), so the cursor
        (:attr:`plot_cursor`) sits on the blends the text describes.

        While what it shows stays the same (the sweep played, the same
        slider dragged on) ``self.plot`` stays the same object, so the plots
        move only their cursor.
        """
        if self.hand is not None:
            plot = self._hand_curves(self.hand)
        elif self.orders:
            rows = [self._blends(self.weights[None], self.reference, o) for o in self.orders]
            k = np.rint(self.s).astype(int)
            plot = {
                "x": self.s, "x_name": _("listing"),
                "ticks": [(float(i), ", ".join(map(str, o))) for i, o in enumerate(self.orders)],
                "angles": {v: rotation_angle_deg(self.quats[0],
                                                 np.array([getattr(r, v)[0] for r in rows])[k])
                           for v in self.VARIANTS},
                # Listings do not move the mean: one value across them.
                "mean": np.full(self.s.shape, self.current_mean_angle),
                "reference": np.full(self.s.shape, float(self.reference)),
                "switches": np.array([])}
        else:
            plot = {"x": self.s, "x_name": _("sweep"), "ticks": None, "angles": self.angles,
                    "mean": self.mean_angles, "reference": self.sweep.reference.astype(float),
                    "switches": self.switch_params()}
        if not _same(plot, getattr(self, "plot", None)):
            self.plot = plot

    @property
    def plot_cursor(self) -> float:
        """Where the plots' cursor stands: the hand-set weight, or the sweep's ``param``."""
        return float(self.weights[self.hand]) if self.hand is not None else float(self.param)

    def _hand_curves(self, i: int) -> dict:
        """Pose ``i``'s weight over [0, 1] on fixed samples, the others held.

        The reference is the current one wherever pose ``i``'s weight is
        positive (a positive weight never loses it); only at 0 can it pass
        on, when it is pose ``i`` itself. So the curves depend on the other
        weights and the reference, not on where pose ``i``'s slider stands.
        """
        w = self.weights
        x = np.linspace(0.0, 1.0, 2 * self.HAND_SAMPLES - 1)
        rows = np.repeat(w[None], x.size, axis=0)
        rows[:, i] = x
        blends = {v: np.full((x.size, 4), np.nan) for v in self.VARIANTS}
        refs = np.full(x.size, np.nan)
        switches = []
        # Positive weights keep the reference; the row at 0 is taken on its
        # own from the current reference (all zero: no blend, NaN).
        for part in (slice(1, None), slice(0, 1)):
            live = np.flatnonzero(rows[part].sum(axis=1) > 0) + (part.start or 0)
            if not live.size:
                continue
            sweep = self._blends(rows[live], self.reference, self.order)
            for v in self.VARIANTS:
                blends[v][live] = getattr(sweep, v)
            refs[live] = self.order[sweep.reference]
            switches += [x[j] for j in live if refs[j] != self.reference]
        angles = {v: rotation_angle_deg(self.quats[0], blends[v]) for v in self.VARIANTS}
        mean = rotation_angle_deg(self.quats[0], _means(self.quats, rows))
        return {"x": x, "x_name": _("pose {i} weight").format(i=i), "ticks": None,
                "angles": angles, "mean": mean, "reference": refs,
                "switches": np.array(switches)}

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
        self.hand = i
        self._plot_curves()
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
        if self.orders:
            self.order = np.array(self.orders[int(round(self.param))])
        self.switch = None
        self.hand = None
        self._evaluate()
        self._plot_curves()
        self.events.emit("param")

    def set_listing(self, k: int) -> None:
        """List the poses as ``orders[k]`` (presets with "orders"): the sweep slider at ``k``."""
        if not 0 <= k < len(self.orders):
            raise ValueError(f"listing must lie in [0, {len(self.orders) - 1}], got {k!r}")
        self.set_param(float(k))

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
        return axis_angle_text(float(np.degrees(angle)), axis, float(q[0]))

    def _versus_kept(self, variant: str) -> str:
        """How far ``variant`` is from the kept-reference blend, as a rotation (sign-free)."""
        q = self.current[variant]
        if not np.all(np.isfinite(q)):
            return _("collapses (poses stored as q and −q cancel)")
        off = float(np.degrees(angle_between(self.current["blend"], q)))
        # Named, not "it": after "the naive sum is 81.8° off it" an "it" read as the sum.
        return (_("agrees with the kept reference") if off < 0.05
                else _("is {angle:.1f}° of rotation off it").format(angle=off))

    def _versus_mean(self) -> str | None:
        """How far the kept-reference blend is from the rotation mean, when it is (or no mean).

        Nothing when they agree: the mean readout says so, and every line of
        text here costs the 3D view height on a 720-px screen.
        """
        if not np.all(np.isfinite(self.current_mean)):
            return _("The rotation mean is not unique here: two eigenvalues of Σ w q qᵀ tie.")
        if self.mean_off["blend"] < 0.05:
            return None
        return _("The kept-reference blend is {off:.1f}° off the rotation mean, which ignores "
                 "signs, listing and reference.").format(off=self.mean_off["blend"])

    def explanation(self) -> str:
        p, w = B.PRESETS[self.preset], self.weights
        # The description narrates the preset's own sweep and signs: once the
        # student left them it could contradict the numbers that follow.
        if self.hand is None and self.on_sweep and not self.negated.any():
            lines = [_(p["description"])]
        elif self.hand is not None:
            lines = [_("Weights set by hand: the plots sweep pose {i}'s weight from 0 to 1 "
                       "with the others held, the cursor at its value (the sweep slider plays "
                       "the preset again).").format(i=self.hand)]
        else:
            lines = [_("Signs set by hand: the plots show the preset's sweep of these poses.")]
        if self.orders:
            lines.append(_("Poses listed as {order}: align-to-first aligns to pose "
                           "{first}.").format(order=", ".join(map(str, self.order)),
                                              first=self.order[0]))
        shown = ", ".join(f"{x:.2f}" for x in w)
        if not np.any(w > 0):
            lines.append(_("The weights are ({weights}): all zero, so there is nothing to "
                           "blend.").format(weights=shown))
            return sentences(*lines)
        a = self.current_angle
        lines.append(_(
            "Weights ({weights}), reference pose {ref}: the kept-reference blend is "
            "{angle:.1f}° of rotation from pose 0 (as plotted); the naive sum {naive}, "
            "align-to-first {align}.").format(
                weights=shown, ref=self.reference, angle=a["blend"],
                naive=self._versus_kept("naive"), align=self._versus_kept("align_first")))
        mean = self._versus_mean()
        if mean:
            lines.append(mean)
        sw = self.switch
        if sw is not None:
            text = _("Pose {old}'s weight reached 0, so the reference passed to pose {new}, "
                     "the next by stable index: the kept-reference blend jumped {jump:.1f}° "
                     "at that edit.").format(old=sw["old"], new=sw["new"], jump=sw["jump_deg"])
            if w[sw["old"]] > 0:
                text = sentences(text, _(
                    "Raising pose {old} again does not switch back: pose {new} stays the "
                    "reference while its weight is positive.").format(old=sw["old"],
                                                                      new=sw["new"]))
            lines.append(text)
        elif self.hand is None and not self.orders and self.sweep.switches.size:
            lines.append(_("The reference changed at the grey line(s): sweep {at}.").format(
                at=", ".join(f"{x:.2f}" for x in self.switch_params())))
        return sentences(*lines)
