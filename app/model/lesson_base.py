"""Qt-free models of the issue-5 lessons: key track, Euler angles, pose blending, integration.

Each model holds a preset, its options and the slider parameter, keeps the
arrays the plots show, answers "what is the pose at the slider" and says in
plain words what the student sees. Changes are announced through
:class:`quatlab.app.model.state.Events`: ``"data"`` when the curves change,
``"param"`` when only the slider moved. No Qt here (tests/test_lesson_views.py
checks), so the lessons can be scripted and tested without a display.
"""

from __future__ import annotations

import numpy as np

from quatlab.app.model.state import Events
from quatlab.math import blend as B
from quatlab.math import gimbal as G
from quatlab.math import integrate as I
from quatlab.math import track as T
from quatlab.math.interpolate import InterpolationCollapseError, slerp
from quatlab.math.quaternion import (
    EULER_ORDERS,
    angle_between,
    conjugate,
    from_axis_angle,
    from_euler,
    multiply,
    to_axis_angle,
)

__all__ = ["TrackModel", "EulerModel", "BlendModel", "IntegrateModel"]


class _Model:
    """Preset + slider parameter + events; subclasses compute in ``_recompute``."""

    PRESETS: dict = {}

    def __init__(self, preset: str | None = None) -> None:
        self.events = Events()
        self.preset = preset or next(iter(self.PRESETS))
        if self.preset not in self.PRESETS:
            raise ValueError(f"preset must be one of {tuple(self.PRESETS)}, got {preset!r}")
        self.param = None  # the middle of the range once it is known
        self._apply_preset()
        self._load()

    def preset_items(self) -> list[tuple[str, str, str]]:
        """``(key, label, description)`` per preset, for a combo box."""
        return [(k, p["label"], p["description"]) for k, p in self.PRESETS.items()]

    @property
    def param_range(self) -> tuple[float, float]:
        return 0.0, 1.0

    def set_preset(self, name: str) -> None:
        if name not in self.PRESETS:
            raise ValueError(f"preset must be one of {tuple(self.PRESETS)}, got {name!r}")
        self.preset = name
        self._apply_preset()
        self._load()

    def _apply_preset(self) -> None:
        """Copy the preset's settings into the options (models with options override it)."""

    def _initial_param(self) -> float:
        lo, hi = self.param_range
        # Start mid-way, where the methods differ, not where they all agree.
        return (lo + hi) / 2

    def _load(self) -> None:
        self._recompute()
        self._publish()

    def _publish(self) -> None:
        """Clamp the parameter into the new range and announce the new curves."""
        lo, hi = self.param_range
        self.param = self._initial_param() if self.param is None else min(max(self.param, lo), hi)
        self.events.emit("data")
        self.events.emit("param")

    def set_param(self, value: float) -> None:
        lo, hi = self.param_range
        value = min(max(float(value), lo), hi)
        if value != self.param:
            self.param = value
            self.events.emit("param")

    def _recompute(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


# --------------------------------------------------------------------------- track


class TrackModel(_Model):
    """A keyframe track (:mod:`quatlab.math.track`): NLERP, SLERP, SQUAD and sign-unaware SQUAD.

    ``param`` is the time in seconds; ``time_scaled`` picks SQUAD's tangent rule.
    The track is editable: ``times`` (K,) and ``keys`` (K, 4) (w, x, y, z) as
    entered, not normalized, so a key typed as (1, 0, 0, 1) reads back as
    typed and ``-q`` stays visibly negated. Every edit is validated first:
    an invalid one raises ValueError and leaves the track as it was.
    ``name`` names an imported track (None for a preset, edited or not).
    """

    PRESETS = T.PRESETS
    #: Curves this lesson shows: the piecewise references, the spline and its sign bug.
    SHOWN = ("nlerp", "slerp", "squad", "squad_unaware")
    #: Keys the editor keeps: with two, SQUAD has no inner control point to get wrong.
    MIN_KEYS = 3
    #: Most plotted samples of an imported track: a 20 000-key glTF channel at
    #: the default 120 per segment would take seconds per edit.
    MAX_SAMPLES = 12_000

    def __init__(self, preset: str | None = None) -> None:
        self.time_scaled = False
        super().__init__(preset)

    def _apply_preset(self) -> None:
        self.times, self.keys = T.preset_track(self.preset)
        self.name: str | None = None
        self.modified = False

    def set_time_scaled(self, on: bool) -> None:
        self.time_scaled = bool(on)
        self._load()

    @property
    def _tangents(self) -> str:
        return "time_scaled" if self.time_scaled else "uniform"

    def _recompute(self) -> None:
        segments = len(self.times) - 1
        samples = min(T.SAMPLES_PER_SEGMENT * segments, self.MAX_SAMPLES) + 1
        self.track = T.compute_track(self.times, self.keys, samples=samples,
                                     tangents=self._tangents)

    # -- edits ---------------------------------------------------------------------

    def _edit(self, times, keys, *, name=None, imported: bool = False) -> None:
        """Validate and show a new track; on ValueError nothing changes."""
        times = np.array(times, dtype=np.float64)
        keys = np.array(keys, dtype=np.float64)
        if keys.ndim != 2 or keys.shape[1] != 4:
            raise ValueError(f"keys must have shape (K, 4), got shape {keys.shape}")
        bad = ~np.all(np.isfinite(keys), axis=-1) | (np.linalg.norm(keys, axis=-1) < 1e-12)
        if np.any(bad):
            # Say which key: "keys contains NaN" does not help on a long track.
            raise ValueError(f"key {int(np.argmax(bad))} must be a finite, non-zero quaternion")
        old = self.times, self.keys
        self.times, self.keys = times, keys
        try:
            self._recompute()  # compute_track checks the times and the shapes
        except ValueError:
            self.times, self.keys = old
            raise
        if imported:
            self.name, self.modified = name, False
            self.param = None  # a new track opens mid-way, like a preset
        else:
            self.modified = True
        self._publish()

    def _check_index(self, i: int) -> int:
        if not 0 <= i < len(self.times):
            raise ValueError(f"key index must lie in [0, {len(self.times) - 1}], got {i}")
        return int(i)

    def set_key(self, i: int, q) -> None:
        """Store key ``i`` as ``q`` (w, x, y, z), exactly as given."""
        keys = self.keys.copy()
        keys[self._check_index(i)] = np.asarray(q, dtype=np.float64)
        self._edit(self.times, keys)

    def set_time(self, i: int, t: float) -> None:
        """Move key ``i`` to time ``t``; it must stay between its neighbours."""
        i = self._check_index(i)
        lo = self.times[i - 1] if i > 0 else -np.inf
        hi = self.times[i + 1] if i + 1 < len(self.times) else np.inf
        if not (np.isfinite(t) and lo < t < hi):
            raise ValueError(f"key {i}'s time must be finite and lie strictly between "
                             f"{lo:g} and {hi:g} s (times strictly increase)")
        times = self.times.copy()
        times[i] = float(t)
        self._edit(times, self.keys)

    def negate_key(self, i: int) -> None:
        """Store key ``i`` as ``-q``: the same rotation, the other hemisphere."""
        self.set_key(i, -self.keys[self._check_index(i)])

    def add_key(self) -> None:
        """Append a key one segment after the last, turning on as the last segment turned."""
        dt = self.times[-1] - self.times[-2]
        prev, last = self.keys[-2:] / np.linalg.norm(self.keys[-2:], axis=-1, keepdims=True)
        step = multiply(conjugate(prev), last)
        # The short way: the step between a key and its negated neighbour is
        # the long way round, and repeating that would be a made-up turn.
        step = -step if step[0] < 0 else step
        self._edit(np.append(self.times, self.times[-1] + dt),
                   np.vstack([self.keys, multiply(last, step)]))

    def remove_key(self, i: int) -> None:
        if len(self.times) <= self.MIN_KEYS:
            raise ValueError(f"a track keeps at least {self.MIN_KEYS} keys")
        i = self._check_index(i)
        self._edit(np.delete(self.times, i), np.delete(self.keys, i, axis=0))

    def set_track(self, times, keys, name: str | None = None) -> None:
        """Show an imported track (keys (w, x, y, z) as stored), at least two keys."""
        self._edit(times, keys, name=name, imported=True)

    # -- questions -----------------------------------------------------------------

    @property
    def param_range(self) -> tuple[float, float]:
        return float(self.times[0]), float(self.times[-1])

    def at_param(self) -> dict[str, np.ndarray]:
        """Each shown method's rotation at the slider time, evaluated exactly there."""
        out = {}
        for m in self.SHOWN:
            method, signs = ("squad", "unaware_controls") if m == "squad_unaware" else (m, "aware")
            out[m] = T.evaluate(self.times, self.keys, [self.param], method,
                                signs=signs, tangents=self._tangents).quats[0]
        return out

    def _heading(self) -> str:
        if self.name is not None:
            head = f"Imported track “{self.name}”, {len(self.times)} keys."
            return head + (" Keys edited since." if self.modified else "")
        if self.modified:
            label = T.PRESETS[self.preset]["label"]
            return f"Keys edited from “{label}” (choose it again to restore it)."
        return T.PRESETS[self.preset]["description"]

    def explanation(self) -> str:
        tr = self.track
        lines = [self._heading()]
        dev = np.degrees(tr.deviation("squad", "squad_unaware"))
        i = int(np.argmin(np.abs(tr.t - self.param)))
        if tr.flipped.size:
            lines.append(
                f"Key {', '.join(map(str, tr.flipped))} is stored with the other sign. Here "
                f"(t = {self.param:.2f} s) the sign-unaware SQUAD is {dev[i]:.1f}° off the "
                f"sign-aware one (at most {np.nanmax(dev):.1f}°).")
        if len(tr.times) > 2:
            jumps = np.abs(np.degrees(tr["slerp"].speed_jump[1:-1]))
            squad_jumps = np.abs(np.degrees(tr["squad"].speed_jump[1:-1]))
            lines.append(
                f"At the inner keys piecewise SLERP's speed jumps by up to {np.nanmax(jumps):.0f}"
                f"°/s; SQUAD's by {np.nanmax(squad_jumps):.0f}°/s"
                + (" (time-scaled tangents)." if self.time_scaled else " (uniform tangents)."))
        return " ".join(lines)


# --------------------------------------------------------------------------- euler


class EulerModel(_Model):
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
        return G.lerp_angles(self.start, self.end, self.param)

    def at_param(self) -> dict[str, np.ndarray]:
        q0, q1 = from_euler(self.start, self.order), from_euler(self.end, self.order)
        return {"euler": from_euler(self.angles_at_param(), self.order),
                "slerp": slerp(q0, q1, self.param)}

    def readout(self) -> G.GimbalReadout:
        return G.gimbal_readout(self.angles_at_param(), self.order)

    def _order_text(self) -> str:
        kind = "intrinsic" if self.order.isupper() else "extrinsic (fixed axes)"
        return f"{kind} {'-'.join(self.order)}"

    def wrap_times(self) -> np.ndarray:
        """t where SLERP's Euler readout jumps across +-180 deg."""
        c = self.comparison
        return c.t[np.any(c.slerp_wraps, axis=-1)]

    def explanation(self) -> str:
        c, r = self.comparison, self.readout()
        yaw, pitch, roll = np.degrees(r.angles)
        expr = r.expression.replace("-", "−")
        preset = G.PRESETS[self.preset]
        lines = [f"Order or angles changed from “{preset['label']}” (choose it again to "
                 f"restore it); {self._order_text()}." if self.modified
                 else preset["description"],
                 f"At t = {self.param:.2f} the Euler angles are yaw {yaw:.1f}°, "
                 f"pitch {pitch:.1f}°, roll {roll:.1f}°."]
        if r.locked:
            lines.append(f"<b>Gimbal lock:</b> pitch is {pitch:+.0f}°, so the yaw and roll "
                         f"rings turn about one shared axis (highlighted) and only {expr} matters "
                         f"(= {np.degrees(r.combined):.1f}°); one degree of freedom is gone.")
        else:
            lines.append(f"{np.degrees(r.margin):.1f}° from the lock; at the lock only "
                         f"{expr} would matter.")
        lines.append(f"Linear Euler interpolation turns {np.degrees(c.euler_swept):.0f}° in "
                     f"all, SLERP {np.degrees(c.slerp_swept):.0f}°; here they are "
                     f"{np.degrees(np.interp(self.param, c.t, c.deviation)):.1f}° apart.")
        if self.wrap_times().size:
            lines.append("SLERP's own Euler readout wraps across ±180° (grey line in the plots): "
                         "the angles jump, the rotation does not.")
        return " ".join(lines)


# --------------------------------------------------------------------------- blend


class BlendModel(_Model):
    """N poses blended by weights (:mod:`quatlab.math.blend`): kept reference, naive, first.

    State a student edits: ``weights`` (N,), one in [0, 1] per pose, and
    ``negated`` (N,), which poses are stored as ``-q`` instead of the
    preset's sign (the same rotation in the other hemisphere). ``reference``
    is the input index the kept-reference blend aligns to. Like the
    animation-graph node of seed 000 the model keeps it from one edit to the
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
        self.current_angle = {v: float(np.degrees(getattr(one, f"{v}_angle")[0]))
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
            f"{a['blend']:.1f}° from pose 0 (path angle, as plotted); the naive sum "
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


# --------------------------------------------------------------------------- integration


def _small(x: float) -> str:
    """A drift or error in plain digits when it is large enough to read, else as 1.2e-16."""
    return f"{x:.3g}" if abs(x) >= 1e-3 or x == 0 else f"{x:.1e}"


class IntegrateModel(_Model):
    """Integrating a constant angular velocity (:mod:`quatlab.math.integrate`).

    Two integrators run over the same ``steps`` of ``dt``: the quaternion
    recursion (``frame``, ``step`` rule, ``renormalize``) and a rotation
    matrix accumulated by products in ``dtype``, repaired by Gram-Schmidt
    every ``reorthonormalize_every`` steps (0: never) keeping axis ``keep``.
    ``param`` is the step index in [0, steps].
    """

    PRESETS = I.PRESETS
    FRAMES = I.FRAMES
    STEPS = I.STEPS
    DTYPES = ("float32", "float64")
    AXES = ("x", "y", "z")
    #: What a preset may leave out: the matrix preset has no quaternion step
    #: rule, the quaternion presets no matrix settings. Loading a preset
    #: resets every option, so a preset always shows the same thing.
    DEFAULTS = {"q0": [1.0, 0.0, 0.0, 0.0], "frame": "world", "step": "exact",
                "renormalize": False, "dtype": "float32", "reorthonormalize_every": 0,
                "keep": 0}
    #: Most steps offered: both recursions are Python loops (on purpose, see
    #: integrate.py), and 20 000 steps still recompute in about 0.1 s, so the
    #: controls stay responsive.
    MAX_STEPS = 20_000

    def _apply_preset(self) -> None:
        p = {**self.DEFAULTS, **I.PRESETS[self.preset]}
        self.q0 = np.asarray(p["q0"], dtype=np.float64)
        self.omega = np.radians(p["omega_deg_per_s"])
        self.dt, self.steps = float(p["dt"]), int(p["steps"])
        self.frame, self.step, self.renormalize = p["frame"], p["step"], bool(p["renormalize"])
        self.dtype = p["dtype"]
        self.reorthonormalize_every, self.keep = int(p["reorthonormalize_every"]), int(p["keep"])
        self._preset_options = self._options()
        # A new preset opens at its last step: the drift is the lesson, and
        # it is largest at the end.
        self.param = None

    def _options(self) -> tuple:
        return (self.frame, self.step, self.renormalize, self.dt, self.steps, self.dtype,
                self.reorthonormalize_every, self.keep)

    @property
    def modified(self) -> bool:
        """Whether an option differs from the preset's (its description may no longer fit)."""
        return self._options() != self._preset_options

    def _initial_param(self) -> float:
        return float(self.steps)

    def _recompute(self) -> None:
        if isinstance(self.steps, bool) or not 1 <= self.steps <= self.MAX_STEPS:
            raise ValueError(f"steps must lie in [1, {self.MAX_STEPS}], got {self.steps!r}")
        self.run = I.integrate(self.q0, self.omega, self.dt, self.steps, frame=self.frame,
                               step=self.step, renormalize=self.renormalize)
        self.matrix = I.accumulate_matrix(
            self.omega, self.dt, self.steps, frame=self.frame, dtype=self.dtype,
            reorthonormalize_every=self.reorthonormalize_every, keep=self.keep)
        self.step_index = np.arange(self.steps + 1)

    def _set(self, **changes) -> None:
        """Change options, recompute, announce; invalid values leave the model as it was."""
        old = {k: getattr(self, k) for k in changes}
        at_end = self.param == self.steps
        for k, v in changes.items():
            setattr(self, k, v)
        try:
            self._recompute()
        except ValueError:
            for k, v in old.items():
                setattr(self, k, v)
            self._recompute()
            raise
        if at_end:
            self.param = None  # a student watching the end keeps watching the end
        self._publish()

    def set_frame(self, frame: str) -> None:
        self._set(frame=frame)

    def set_step(self, step: str) -> None:
        self._set(step=step)

    def set_renormalize(self, on: bool) -> None:
        self._set(renormalize=bool(on))

    def set_dt(self, dt: float) -> None:
        self._set(dt=dt)

    def set_steps(self, steps: int) -> None:
        self._set(steps=steps)

    def set_dtype(self, dtype: str) -> None:
        self._set(dtype=dtype)

    def set_reorthonormalize_every(self, every: int) -> None:
        self._set(reorthonormalize_every=every)

    def set_keep(self, keep: int) -> None:
        self._set(keep=keep)

    @property
    def param_range(self) -> tuple[float, float]:
        return 0.0, float(self.steps)

    def set_param(self, value: float) -> None:
        # Only whole steps exist: the recursion has nothing between them.
        super().set_param(round(float(value)))

    @property
    def index(self) -> int:
        return int(self.param)

    def at_param(self) -> dict[str, np.ndarray]:
        """The integrated q exactly as the recursion left it (not normalized) and the exact q."""
        k = self.index
        return {"integrated": self.run.quats[k], "exact": self.run.exact[k]}

    def repair_steps(self) -> np.ndarray:
        """Steps after which the matrix was re-orthonormalized."""
        return self.step_index[self.matrix.repaired]

    def explanation(self) -> str:
        run, mat, k = self.run, self.matrix, self.index
        t = k * self.dt
        rate = 1.0 / self.dt
        speed = np.degrees(np.linalg.norm(self.omega))
        drift, err = run.norm_drift[k], run.angle_error_deg[k]
        where = f"after {t:.2f} s (step {k} of {self.steps})"
        preset = I.PRESETS[self.preset]
        # The preset's description quotes its own rate and rule: once an
        # option changed it could contradict the numbers that follow.
        lines = [f"Options changed from “{preset['label']}” (choose it again to restore it)."
                 if self.modified else preset["description"]]
        rule = "First-order step" if self.step == "first_order" else "Exact step"
        head = (f"{rule} at {rate:.3g} Hz, {speed:.0f}°/s in the {self.frame} frame"
                + (", renormalized every step:" if self.renormalize else ":"))
        if self.step == "exact":
            lines.append(f"{head} {where} |q| − 1 is {_small(drift)} and the angle error "
                         f"{_small(err)}°: only rounding is left.")
        elif self.renormalize:
            turn = np.degrees(2 * np.arctan(np.radians(speed) * self.dt / 2))
            lines.append(
                f"{head} |q| stays 1 (|q| − 1 = {_small(drift)}) but the direction still lags "
                f"the exact spin by {_small(err)}° {where}: each step turns {turn:.4f}° "
                f"instead of {speed * self.dt:.4f}°.")
        else:
            lines.append(
                f"{head} |q| grew by {100 * drift:.3g}% {where}, so q v q* would scale "
                f"the body by |q|² = {(1 + drift) ** 2:.3f}: the thin line from the root "
                f"reaches where it would put the tip (the chain is drawn normalized). "
                f"Renormalizing fixes |q| but not the {_small(err)}° lag behind the exact spin.")
        repairs = int(np.count_nonzero(mat.repaired[: k + 1]))
        matrix = (f"The {self.dtype} rotation matrix R, multiplied {k} times: "
                  f"‖RᵀR − I‖ = {_small(mat.orthonormality_error[k])}, its rotation "
                  f"{_small(np.degrees(mat.angle_error[k]))}° off")
        if self.reorthonormalize_every:
            matrix += (f". Gram-Schmidt every {self.reorthonormalize_every} steps "
                       f"({repairs} so far, keeping its {self.AXES[self.keep]} axis) restores "
                       "orthonormality but, like renormalizing q, not the angle.")
        else:
            matrix += ("; never re-orthonormalized, so the rounding keeps piling up "
                       "(set “re-orthonormalize every” to repair it).")
        lines.append(matrix)
        return " ".join(lines)
