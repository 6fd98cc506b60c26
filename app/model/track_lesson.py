"""Qt-free model of the SQUAD track lesson: piecewise NLERP and SLERP vs SQUAD on a key track.

See :class:`quatlab.app.model.lesson_base.LessonModel` for the shared protocol.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.model.explain import sentences
from quatlab.app.model.lesson_base import LessonModel
from quatlab.math import track as T
from quatlab.math import track_presets as TP
from quatlab.math.quaternion import conjugate, multiply

__all__ = ["TrackModel", "Computed"]


@dataclass(frozen=True, eq=False)
class Computed:
    """What the worker works out for a track: the curves and what the lesson reads of them."""

    track: T.Track
    #: Angle (deg) between sign-aware and sign-unaware SQUAD at every sample.
    deviation: np.ndarray
    #: The slider time :attr:`poses` are at (None: none worked out).
    param: float | None
    #: :meth:`TrackModel.at_param` at :attr:`param`.
    poses: dict | None


class TrackModel(LessonModel):
    """A keyframe track (:mod:`quatlab.math.track`): NLERP, SLERP, SQUAD and sign-unaware SQUAD.

    ``param`` is the time in seconds; ``time_scaled`` picks SQUAD's tangent rule.
    The track is editable: ``times`` (K,) and ``keys`` (K, 4) (w, x, y, z) as
    entered, not normalized, so a key typed as (1, 0, 0, 1) reads back as
    typed and ``-q`` stays visibly negated. Every edit is validated first:
    an invalid one raises ValueError and leaves the track as it was.
    ``name`` names an imported track (None for a preset, edited or not).
    """

    PRESETS = TP.PRESETS
    #: Curves this lesson shows: the piecewise references, the spline and its sign bug.
    SHOWN = ("nlerp", "slerp", "squad", "squad_unaware")
    #: Keys the editor keeps: with two, SQUAD has no inner control point to get wrong.
    MIN_KEYS = 3
    #: Most plotted samples of an imported track: a 20 000-key glTF channel at
    #: the default 120 per segment would take seconds per edit.
    MAX_SAMPLES = 12_000
    #: Longest track the lesson takes: every edit re-evaluates all segments,
    #: one by one, so a 100,000-key channel would hold the window for minutes.
    #: Longer tracks are audited (and fixed) in the Keyframes tab.
    MAX_KEYS = 200
    #: Keys "add key" builds up to: a hand-made track needs a few; each one
    #: more makes every edit slower.
    MAX_ADDED_KEYS = 16

    def __init__(self, preset: str | None = None) -> None:
        self.time_scaled = False
        super().__init__(preset)

    def _apply_preset(self) -> None:
        self.times, self.keys = TP.preset_track(self.preset)
        self.name: str | None = None
        self.modified = False

    def set_time_scaled(self, on: bool) -> None:
        self.time_scaled = bool(on)
        self._load()

    @property
    def _tangents(self) -> str:
        return "time_scaled" if self.time_scaled else "uniform"

    #: How the track is computed: ``runner(fn, options)`` returns ``fn(options)``
    #: or raises its exception. A plain call here; the window computes on a
    #: worker thread (a 200-key track takes about 0.05 s).
    runner = staticmethod(lambda fn, options: fn(options))

    def _recompute(self) -> None:
        self._take(self.runner(self._track_of, (self.times, self.keys, self._tangents,
                                                self._param_after(self.times, self.param))))

    @staticmethod
    def _param_after(times, param) -> float | None:
        """The slider time shown after a new track of ``times`` (``param`` None: mid-way).

        What :meth:`_publish` will choose, so the worker can work out the
        poses there with the track; should it choose otherwise, they are
        worked out when asked for (:meth:`at_param`). None for times that
        are no track (compute_track says why).
        """
        if np.ndim(times) != 1 or len(times) < 2:
            return None
        lo, hi = float(times[0]), float(times[-1])
        return (lo + hi) / 2 if param is None else min(max(float(param), lo), hi)

    @classmethod
    def _track_of(cls, options: tuple) -> Computed:
        """The curves of ``(times, keys, tangents, param)`` and what the lesson reads of them.

        Reads nothing else, so any thread may run it: the track, the angle
        between the two SQUADs at every sample and the poses at ``param``.
        """
        times, keys, tangents, param = options
        segments = len(times) - 1
        samples = min(T.SAMPLES_PER_SEGMENT * segments, cls.MAX_SAMPLES) + 1
        track = T.compute_track(times, keys, samples=samples, tangents=tangents)
        return Computed(track, np.degrees(track.deviation("squad", "squad_unaware")), param,
                        None if param is None else cls._poses(times, keys, tangents, param))

    def _take(self, computed: Computed) -> None:
        self.track = computed.track
        self._computed = computed

    # -- edits ---------------------------------------------------------------------

    def _edit(self, times, keys, *, name=None, imported: bool = False) -> None:
        """Validate and show a new track; on ValueError nothing changes."""
        times = np.array(times, dtype=np.float64)
        keys = np.array(keys, dtype=np.float64)
        if keys.ndim != 2 or keys.shape[1] != 4:
            raise ValueError(f"keys must have shape (K, 4), got shape {keys.shape}")
        if keys.shape[0] > self.MAX_KEYS:
            raise ValueError(_("the SQUAD lesson shows tracks of up to {most} keys, this one "
                               "has {n}; audit it in the Keyframes tab").format(
                                   most=self.MAX_KEYS, n=f"{keys.shape[0]:,}"))
        bad = ~np.all(np.isfinite(keys), axis=-1) | (np.linalg.norm(keys, axis=-1) < 1e-12)
        if np.any(bad):
            # Say which key: "keys contains NaN" does not help on a long track.
            raise ValueError(_("key {i} must be a finite, non-zero quaternion").format(
                i=int(np.argmax(bad))))
        # compute_track checks the times and the shapes. Nothing changes until
        # the track is back: meanwhile the model answers for the one shown.
        after = self._param_after(times, None if imported else self.param)
        computed = self.runner(self._track_of, (times, keys, self._tangents, after))
        self.times, self.keys = times, keys
        self._take(computed)
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
            raise ValueError(_("key {i}'s time must be finite and lie strictly between {lo:g} "
                               "and {hi:g} s (times strictly increase)").format(i=i, lo=lo,
                                                                                hi=hi))
        times = self.times.copy()
        times[i] = float(t)
        self._edit(times, self.keys)

    def negate_key(self, i: int) -> None:
        """Store key ``i`` as ``-q``: the same rotation, the other hemisphere."""
        self.set_key(i, -self.keys[self._check_index(i)])

    def add_key(self) -> None:
        """Append a key one segment after the last, turning on as the last segment turned."""
        if len(self.times) >= self.MAX_ADDED_KEYS:
            raise ValueError(_("“add key” builds tracks of up to {n} keys").format(
                n=self.MAX_ADDED_KEYS))
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
            raise ValueError(_("a track keeps at least {n} keys").format(n=self.MIN_KEYS))
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
        """Each shown method's rotation at the slider time, evaluated exactly there.

        Only the keys around the slider's segment are evaluated: a segment's
        SQUAD control points depend on its keys and their neighbours (and on
        the durations between them), so two keys either side give the same
        rotation as the whole track (up to the sign, which the chain does
        not show), at a cost that does not grow with the track.
        """
        c = self._computed
        if c.track is self.track and c.param == self.param:
            return dict(c.poses)  # worked out with the track
        return self._poses(self.times, self.keys, self._tangents, self.param)

    @classmethod
    def _poses(cls, times, keys, tangents: str, param: float) -> dict[str, np.ndarray]:
        """:meth:`at_param` of a track given by its keys (any thread may call it)."""
        i = int(np.clip(np.searchsorted(times, param, side="right") - 1, 0, len(times) - 2))
        lo, hi = max(i - 2, 0), min(i + 4, len(times))
        times, keys = times[lo:hi], keys[lo:hi]
        out = {}
        for m in cls.SHOWN:
            method, signs = ("squad", "unaware_controls") if m == "squad_unaware" else (m, "aware")
            out[m] = T.evaluate(times, keys, [param], method,
                                signs=signs, tangents=tangents).quats[0]
        return out

    def _heading(self) -> str:
        if self.name is not None:
            head = _("Imported track “{name}”, {n} keys.").format(name=self.name,
                                                                    n=len(self.times))
            return sentences(head, _("Keys edited since.")) if self.modified else head
        if self.modified:
            label = _(TP.PRESETS[self.preset]["label"])
            return _("Keys edited from “{preset}” (choose it again to restore it).").format(
                preset=label)
        return _(TP.PRESETS[self.preset]["description"])

    def explanation(self) -> str:
        tr = self.track
        lines = [self._heading()]
        dev = (self._computed.deviation if self._computed.track is tr
               else np.degrees(tr.deviation("squad", "squad_unaware")))
        i = int(np.argmin(np.abs(tr.t - self.param)))
        if tr.flipped.size:
            lines.append(_(
                "Key {keys} is stored with the other sign. Here (t = {t:.2f} s) the "
                "sign-unaware SQUAD is {off:.1f}° off the sign-aware one (at most "
                "{most:.1f}°).").format(keys=", ".join(map(str, tr.flipped)), t=self.param,
                                        off=dev[i], most=np.nanmax(dev)))
        if len(tr.times) > 2:
            jumps = np.abs(np.degrees(tr["slerp"].speed_jump[1:-1]))
            squad_jumps = np.abs(np.degrees(tr["squad"].speed_jump[1:-1]))
            text = (_("At the inner keys piecewise SLERP's speed jumps by up to {slerp:.0f}°/s; "
                      "SQUAD's by {squad:.0f}°/s (time-scaled tangents).") if self.time_scaled
                    else _("At the inner keys piecewise SLERP's speed jumps by up to "
                           "{slerp:.0f}°/s; SQUAD's by {squad:.0f}°/s (uniform tangents)."))
            lines.append(text.format(slerp=np.nanmax(jumps), squad=np.nanmax(squad_jumps)))
        return sentences(*lines)
