"""Qt-free model of the lesson "same keys, six engines": one segment, six runtimes' paths.

The two keys live in a :class:`~quatlab.app.model.state.LessonState` (so the
two-key lesson's endpoint editors, with their −q buttons, edit them here too);
the model plays them with the runtimes of
:data:`quatlab.math.same_keys.ENGINES` (:func:`quatlab.math.same_keys.compare`),
keeps the path angles and the distances from the glTF reference the plots
show, gives the rotations at the slider's t, and says in plain words which
runtimes take which way. ``param`` is t in [0, 1]; events are the lesson
protocol's ``"data"`` and ``"param"`` (:mod:`.lesson_base`).

Examples
--------
>>> m = SameKeysModel("stored_minus_q")
>>> {k: round(v) for k, v in m.comparison.swept.items()}
{'gltf': 90, 'three': 90, 'playcanvas': 90, 'unity_quat': 270, 'unity_euler': 90, 'unreal': 90}
>>> m.state.negate(1)                       # store q1 as +q: every engine takes the short arc
>>> round(m.comparison.swept["unity_quat"])
90
>>> m.groups()["glitch"]
()
"""

from __future__ import annotations

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.model.explain import sentences
from quatlab.app.model.lesson_base import LessonModel
from quatlab.app.model.state import LessonState
from quatlab.math import runtimes as R
from quatlab.math.same_keys import ENGINES, PRESETS, compare, play_at

__all__ = ["SameKeysModel", "ENGINES", "GLITCH_DEG"]

#: A runtime this far (deg) from the reference somewhere on the segment takes another way.
GLITCH_DEG = 10.0
#: Below this (deg) everywhere, a runtime shows what the reference shows.
SAME_DEG = 1.0


class SameKeysModel(LessonModel):
    """Two stored keys played by six runtimes (module docs)."""

    PRESETS = PRESETS

    def __init__(self, preset: str | None = None, runtimes=ENGINES) -> None:
        self.runtimes = tuple(runtimes)
        for rid in self.runtimes:
            R.runtime(rid)
        first = PRESETS[preset or next(iter(PRESETS))]
        self.state = LessonState(first["q0"], first["q1"])
        self._quiet = False
        super().__init__(preset)
        self.state.events.connect("endpoints", self._endpoints_changed)

    # ------------------------------------------------------------------ protocol
    def _apply_preset(self) -> None:
        p = PRESETS[self.preset]
        self._quiet = True   # _load recomputes next; the editors still hear "endpoints"
        try:
            self.state.set_endpoints(p["q0"], p["q1"], preset=self.preset)
        finally:
            self._quiet = False

    def _endpoints_changed(self) -> None:
        if not self._quiet:
            self._load()

    def _recompute(self) -> None:
        self.comparison = compare(self.state.q0, self.state.q1, self.runtimes)

    # ------------------------------------------------------------------ at the slider
    def at_param(self) -> dict[str, np.ndarray]:
        """Each runtime's rotation (w, x, y, z) at the slider's t (NaN where it has none)."""
        t = [float(self.param)]
        return {rid: play_at(self.state.q0, self.state.q1, rid, t)[0] for rid in self.runtimes}

    def angles_at_param(self) -> dict[str, float]:
        """Path angle (deg) of each runtime at the slider, from the comparison's samples."""
        c = self.comparison
        return {rid: float(np.interp(self.param, c.t, c.angle[rid])) for rid in self.runtimes}

    # ------------------------------------------------------------------ words
    def groups(self) -> dict[str, tuple[str, ...]]:
        """Runtime ids by how far they get from the reference: ``same``, ``close``, ``glitch``."""
        worst = {rid: float(np.max(self.comparison.off[rid])) for rid in self.runtimes}
        return {
            "same": tuple(r for r in self.runtimes if worst[r] < SAME_DEG),
            "close": tuple(r for r in self.runtimes if SAME_DEG <= worst[r] < GLITCH_DEG),
            "glitch": tuple(r for r in self.runtimes if worst[r] >= GLITCH_DEG),
        }

    def explanation(self) -> str:
        c = self.comparison
        ref = c.swept[R.REFERENCE]
        preset = PRESETS.get(self.state.preset or "")
        intro = _(preset["description"]) if preset else _("Your two keys.")
        if c.dot < 0:
            keys = _("The keys' dot is {dot:.3g} &lt; 0: they are stored in opposite "
                     "hemispheres.").format(dot=c.dot)
        else:
            keys = _("The keys' dot is {dot:.3g}: the same hemisphere.").format(dot=c.dot)

        def names(ids):
            return _(", ").join(_(R.runtime(r).label) for r in ids)

        groups = self.groups()
        parts = ["<br>".join([sentences(intro, keys, _(
            "The glTF reference turns {angle:.1f}° along the shorter arc.").format(angle=ref))])]
        if groups["same"]:
            parts.append(_("<b>Same motion</b> as the reference: {names}.").format(
                names=names(groups["same"])))
        if groups["close"]:
            parts.append(_("<b>Same way, other timing</b> (a lerp of the components is not "
                           "uniform in angle): {names}.").format(names=names(groups["close"])))
        for rid in groups["glitch"]:
            r = R.runtime(rid)
            parts.append(_("<b>{name}</b> takes another path: it turns {angle:.1f}° in all and "
                           "is up to {off:.0f}° from the reference ({rule}).").format(
                name=_(r.label), angle=c.swept[rid], off=float(np.max(c.off[rid])),
                rule=_(r.behaviour)))
        at = self.angles_at_param()
        parts.append(_("At t = {t:.2f}, path angles: {angles}.").format(
            t=self.param, angles=_(", ").join(
                _("{name} {angle:.1f}°").format(name=_(R.runtime(r).label), angle=a)
                for r, a in at.items())))
        return "<br>".join(parts)
