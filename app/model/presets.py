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

from quatlab.app.i18n import N_, _

__all__ = ["Preset", "all_presets", "names", "get", "DEFAULT_PRESET", "TEXTS"]

#: The preset the window opens on.
DEFAULT_PRESET = "negated-20"

#: The presets' titles and "shows" texts as presets.json has them, marked here so
#: the standard Python extraction finds them (tests/test_presets_i18n.py checks the
#: two agree); translated where shown, by :attr:`Preset.shown_title` and
#: :attr:`Preset.shown_text`.
TEXTS = (
    # negated-20
    N_("Negated 20°"),
    N_("q1 is 20° about Z stored as −q: dot = −0.985, naive methods go 340° the long "
       "way; at t = 0.5 naive NLERP has swept 170°, shortest 10°."),
    # q-to-minus-q
    N_("q to −q"),
    N_("Both keys are the same rotation (60° about (1, 1, 0)) stored with opposite "
       "signs: naive NLERP collapses to the zero quaternion at t = 0.5; the shortest "
       "methods never move."),
    # half-turn
    N_("Half turn (dot = 0)"),
    N_("180° about X: dot = 0, both arcs are equally long, and the rule (flip only "
       "when dot < 0) keeps the stored sign, so naive and shortest agree."),
    # quarter-turn
    N_("Quarter turn"),
    N_("90° about Z: at the midpoint the X axis points to (0.7071, 0.7071, 0)."),
    # large-170
    N_("Large 170°"),
    N_("170° about the oblique axis (1, 2, 2)/3: NLERP's speed nearly doubles from the "
       "ends to the middle (114 → 210 °/t) while SLERP's stays at 170 °/t."),
    # small-1
    N_("Small 1°"),
    N_("1° about Z: dot within 4e-5 of 1, where a thresholded SLERP would switch to "
       "NLERP; QuatLab's SLERP needs no threshold."),
    # gltf-animated-triangle
    N_("glTF AnimatedTriangle (last segment)"),
    N_("Real asset (Khronos sample, CC0): the last keys (0, 0, .707, −.707) → (0, 0, "
       "0, 1) in glTF's xyzw order, dot −0.707, not exactly unit. A runtime that lerps "
       "without a hemisphere check turns 270° instead of 90°."),
    # gltf-box-animated
    N_("glTF BoxAnimated"),
    N_("Real asset (Khronos sample, CC-BY 4.0 Cesium): (−0, −0, −0, −1) → (1, 0, 0, "
       "4.49e−11) xyzw: dot ≈ −4.5e−11, a half turn whose direction hinges on a "
       "rounding error; shortest flips, naive doesn't."),
)


@dataclass(frozen=True)
class Preset:
    """A named pair of endpoints, (w, x, y, z) as stored (not normalized, not flipped)."""

    name: str
    title: str
    q0: np.ndarray
    q1: np.ndarray
    shows: str

    @property
    def shown_title(self) -> str:
        """The title in the current language (``title`` is the file's English)."""
        return _(self.title)

    @property
    def shown_text(self) -> str:
        """What the preset shows, in the current language."""
        return _(self.shows)


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
    raise ValueError(_("unknown preset {name!r}; choose one of: {names}").format(
        name=name, names=", ".join(names())))
