"""Qt-free models of the issue-5 lessons: key track, Euler angles, pose blending, integration.

Each model holds a preset, its options and the slider parameter, keeps the
arrays the plots show, answers "what is the pose at the slider" and says in
plain words what the student sees. Changes are announced through
:class:`quatlab.app.state.Events`: ``"data"`` when the curves change,
``"param"`` when only the slider moved. No Qt here (tests/test_lesson_views.py
checks), so the lessons can be scripted and tested without a display.
"""

from __future__ import annotations

import numpy as np

from quatlab.app.state import Events
from quatlab.math import blend as B
from quatlab.math import gimbal as G
from quatlab.math import track as T
from quatlab.math.interpolate import slerp
from quatlab.math.quaternion import from_axis_angle, from_euler

__all__ = ["TrackModel", "EulerModel", "BlendModel"]


class _Model:
    """Preset + slider parameter + events; subclasses compute in ``_recompute``."""

    PRESETS: dict = {}

    def __init__(self, preset: str | None = None) -> None:
        self.events = Events()
        self.preset = preset or next(iter(self.PRESETS))
        self.param = None  # the middle of the range once it is known
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
        self._load()

    def _load(self) -> None:
        self._recompute()
        lo, hi = self.param_range
        # Start mid-way, where the methods differ, not where they all agree.
        self.param = (lo + hi) / 2 if self.param is None else min(max(self.param, lo), hi)
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
    """A keyframe track (:mod:`quatlab.math.track`): SLERP, SQUAD and sign-unaware SQUAD.

    ``param`` is the time in seconds; ``time_scaled`` picks SQUAD's tangent rule.
    """

    PRESETS = T.PRESETS
    #: Curves this lesson shows: the spline, its sign bug and the piecewise reference.
    SHOWN = ("slerp", "squad", "squad_unaware")

    def __init__(self, preset: str | None = None) -> None:
        self.time_scaled = False
        super().__init__(preset)

    def set_time_scaled(self, on: bool) -> None:
        self.time_scaled = bool(on)
        self._load()

    def _recompute(self) -> None:
        self.times, self.keys = T.preset_track(self.preset)
        self.track = T.compute_track(
            self.times, self.keys, tangents="time_scaled" if self.time_scaled else "uniform")

    @property
    def param_range(self) -> tuple[float, float]:
        return float(self.times[0]), float(self.times[-1])

    def at_param(self) -> dict[str, np.ndarray]:
        """Each shown method's rotation at the slider time, evaluated exactly there."""
        tangents = "time_scaled" if self.time_scaled else "uniform"
        out = {}
        for m in self.SHOWN:
            method, signs = ("squad", "unaware_controls") if m == "squad_unaware" else (m, "aware")
            out[m] = T.evaluate(self.times, self.keys, [self.param], method,
                                signs=signs, tangents=tangents).quats[0]
        return out

    def explanation(self) -> str:
        tr = self.track
        lines = [T.PRESETS[self.preset]["description"]]
        dev = np.degrees(tr.deviation("squad", "squad_unaware"))
        i = int(np.argmin(np.abs(tr.t - self.param)))
        if tr.flipped.size:
            lines.append(
                f"Key {', '.join(map(str, tr.flipped))} is stored with the other sign. Here "
                f"(t = {self.param:.2f} s) the sign-unaware SQUAD is {dev[i]:.1f}° off the "
                f"sign-aware one (at most {np.nanmax(dev):.1f}°).")
        jumps = np.abs(np.degrees(tr["slerp"].speed_jump[1:-1]))
        squad_jumps = np.abs(np.degrees(tr["squad"].speed_jump[1:-1]))
        lines.append(
            f"At the inner keys piecewise SLERP's speed jumps by up to {np.max(jumps):.0f}°/s; "
            f"SQUAD's by {np.max(squad_jumps):.0f}°/s"
            + (" (time-scaled tangents)." if self.time_scaled else " (uniform tangents)."))
        return " ".join(lines)


# --------------------------------------------------------------------------- euler


class EulerModel(_Model):
    """Linear interpolation of Euler angles against SLERP (:mod:`quatlab.math.gimbal`).

    ``param`` is t in [0, 1].
    """

    PRESETS = G.PRESETS

    def _recompute(self) -> None:
        p = G.PRESETS[self.preset]
        self.order = p["order"]
        self.start, self.end = np.radians(p["start_deg"]), np.radians(p["end_deg"])
        self.comparison = G.compare_paths(self.start, self.end, self.order)

    def angles_at_param(self) -> np.ndarray:
        """The Euler-lerp angles (radians) at the slider."""
        return G.lerp_angles(self.start, self.end, self.param)

    def at_param(self) -> dict[str, np.ndarray]:
        q0, q1 = from_euler(self.start, self.order), from_euler(self.end, self.order)
        return {"euler": from_euler(self.angles_at_param(), self.order),
                "slerp": slerp(q0, q1, self.param)}

    def readout(self) -> G.GimbalReadout:
        return G.gimbal_readout(self.angles_at_param(), self.order)

    def wrap_times(self) -> np.ndarray:
        """t where SLERP's Euler readout jumps across +-180 deg."""
        c = self.comparison
        return c.t[np.any(c.slerp_wraps, axis=-1)]

    def explanation(self) -> str:
        c, r = self.comparison, self.readout()
        yaw, pitch, roll = np.degrees(r.angles)
        expr = r.expression.replace("-", "−")
        lines = [G.PRESETS[self.preset]["description"],
                 f"At t = {self.param:.2f} the Euler angles are yaw {yaw:.1f}°, "
                 f"pitch {pitch:.1f}°, roll {roll:.1f}°."]
        if r.locked:
            lines.append(f"<b>Gimbal lock:</b> pitch is {pitch:+.0f}°, so the first and last "
                         f"rings turn about the same axis and only {expr} matters "
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
    """Three poses blended along a sweep of weights (:mod:`quatlab.math.blend`).

    ``param`` is the sweep parameter: waypoint ``i`` of the preset's weights at ``i``.
    """

    PRESETS = B.PRESETS
    VARIANTS = ("blend", "naive", "align_first")
    SAMPLES = 401

    def _recompute(self) -> None:
        p = B.PRESETS[self.preset]
        self.poses = from_axis_angle(p["axes"], np.radians(p["angles_deg"]))
        # A preset without a sweep holds its weights still: the lesson is the listing.
        waypoints = p.get("sweep", [p["weights"], p["weights"]])
        self.s = np.linspace(0.0, len(waypoints) - 1, self.SAMPLES)
        self.sweep = B.blend_sweep(self.poses, B.weights_path(waypoints, self.SAMPLES),
                                   reference=p["reference"])

    @property
    def param_range(self) -> tuple[float, float]:
        return 0.0, float(self.s[-1])

    def index(self) -> int:
        return int(np.argmin(np.abs(self.s - self.param)))

    def at_param(self) -> dict[str, np.ndarray]:
        i = self.index()
        return {v: getattr(self.sweep, v)[i] for v in self.VARIANTS}

    def switch_params(self) -> np.ndarray:
        return self.s[self.sweep.switches]

    def explanation(self) -> str:
        sw, i = self.sweep, self.index()
        w = ", ".join(f"{x:.2f}" for x in sw.weights[i])
        angles = {v: np.degrees(getattr(sw, f"{v}_angle")[i]) for v in self.VARIANTS}
        lines = [B.PRESETS[self.preset]["description"],
                 f"Here the weights are ({w}) and the reference is pose {sw.reference[i]}: the "
                 f"kept-reference blend is {angles['blend']:.1f}° from pose 0, the naive sum "
                 f"{angles['naive']:.1f}°, aligned-to-first {angles['align_first']:.1f}°."]
        if sw.switches.size:
            lines.append("The reference changed at the grey line(s): "
                         f"sweep {', '.join(f'{x:.2f}' for x in self.switch_params())}.")
        return " ".join(lines)
