"""The classic two-key cases (docs/presets.md), loaded from ``quatlab.assets``. No Qt.

Examples
--------
>>> names()[:2]
['negated-20', 'q-to-minus-q']
>>> get("quarter-turn").q1.round(6).tolist()
[0.707107, 0.0, 0.0, 0.707107]
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

__all__ = ["Preset", "all_presets", "names", "get", "DEFAULT_PRESET"]

#: The preset the window opens on.
DEFAULT_PRESET = "negated-20"


@dataclass(frozen=True)
class Preset:
    """A named pair of endpoints, (w, x, y, z) as stored (not normalized, not flipped)."""

    name: str
    title: str
    q0: np.ndarray
    q1: np.ndarray
    shows: str


@lru_cache(maxsize=1)
def all_presets() -> tuple[Preset, ...]:
    """Every preset, in menu order."""
    text = resources.files("quatlab.assets").joinpath("presets.json").read_text("utf-8")
    data = json.loads(text)
    if data.get("order") != "wxyz":
        raise ValueError("presets.json must store quaternions in wxyz order")
    return tuple(
        Preset(p["name"], p["title"], _frozen(p["q0"]), _frozen(p["q1"]), p["shows"])
        for p in data["presets"]
    )


def _frozen(values) -> np.ndarray:
    # The presets are cached for the process: read-only, so no caller can
    # corrupt them for everyone else.
    arr = np.array(values, dtype=float)
    arr.flags.writeable = False
    return arr


def names() -> list[str]:
    """Preset names in menu order."""
    return [p.name for p in all_presets()]


def get(name: str) -> Preset:
    """The preset called ``name``; ValueError listing the valid names otherwise."""
    for p in all_presets():
        if p.name == name:
            return p
    raise ValueError(f"unknown preset {name!r}; choose one of: {', '.join(names())}")
