"""The shared protocol of the lesson models: a preset, options, a slider parameter, events. No Qt.

Each lesson model (:mod:`.track_lesson`, :mod:`.euler_lesson`,
:mod:`.blend_lesson`, :mod:`.integrate_lesson`) holds a preset, its options
and the slider parameter, keeps the arrays the plots show, answers "what is
the pose at the slider" and says in plain words what the student sees.
Changes are announced through :class:`quatlab.app.model.state.Events`:
``"data"`` when the curves change, ``"param"`` when only the slider moved.
No Qt here, so the lessons can be scripted and tested without a display
(docs/architecture.md).
"""

from __future__ import annotations

from quatlab.app.i18n import _
from quatlab.app.model.state import Events

__all__ = ["LessonModel"]


class LessonModel:
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
        return [(k, _(p["label"]), _(p["description"])) for k, p in self.PRESETS.items()]

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
