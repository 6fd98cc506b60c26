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
from quatlab.math import track as T

__all__ = ["TrackModel"]


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
