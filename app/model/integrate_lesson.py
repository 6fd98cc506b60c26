"""Qt-free model of the integration drift lesson: quaternion vs matrix steps, renormalization.

See :class:`quatlab.app.model.lesson_base.LessonModel` for the shared protocol.
"""

from __future__ import annotations

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.model.explain import sentences
from quatlab.app.model.lesson_base import LessonModel
from quatlab.math import integrate as I

__all__ = ["IntegrateModel"]


def _small(x: float) -> str:
    """A drift or error in plain digits when it is large enough to read, else as 1.2e-16."""
    return f"{x:.3g}" if abs(x) >= 1e-3 or x == 0 else f"{x:.1e}"


class IntegrateModel(LessonModel):
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
    #: docs/curves.md), and 10 000 steps (the longest preset) recompute in
    #: about 0.1 s (off the GUI thread in the window, see :attr:`runner`);
    #: 20 000 took 0.2-0.4 s.
    MAX_STEPS = 10_000
    #: Most Gram-Schmidt repairs per run: each costs about as much as ten
    #: steps, so "every 1" over 10 000 steps would hold the window 1.5 s.
    MAX_REPAIRS = 500

    def _options_of(self, preset: str) -> dict:
        """The options preset ``preset`` sets (every one: see :data:`DEFAULTS`)."""
        p = {**self.DEFAULTS, **I.PRESETS[preset]}
        return {"q0": np.asarray(p["q0"], dtype=np.float64),
                "omega": np.radians(p["omega_deg_per_s"]),
                "dt": float(p["dt"]), "steps": int(p["steps"]), "frame": p["frame"],
                "step": p["step"], "renormalize": bool(p["renormalize"]), "dtype": p["dtype"],
                "reorthonormalize_every": int(p["reorthonormalize_every"]),
                "keep": int(p["keep"])}

    def _apply_preset(self) -> None:
        for k, v in self._options_of(self.preset).items():
            setattr(self, k, v)
        self._preset_options = self._options()
        # A new preset opens at its last step: the drift is the lesson, and
        # it is largest at the end.
        self.param = None

    def set_preset(self, name: str) -> None:
        """Load preset ``name``; nothing changes until its run is back (see :meth:`_set`)."""
        if name not in self.PRESETS:
            raise ValueError(f"preset must be one of {tuple(self.PRESETS)}, got {name!r}")
        results = self.runner(self._results, self._options_of(name))
        self.preset = name
        self._apply_preset()
        self._apply(results)
        self._publish()

    def _options(self) -> tuple:
        return (self.frame, self.step, self.renormalize, self.dt, self.steps, self.dtype,
                self.reorthonormalize_every, self.keep)

    @property
    def modified(self) -> bool:
        """Whether an option differs from the preset's (its description may no longer fit)."""
        return self._options() != self._preset_options

    def _initial_param(self) -> float:
        return float(self.steps)

    #: How the two recursions are run: ``runner(fn, options)`` returns
    #: ``fn(options)`` or raises its exception. A plain call here; the window
    #: runs them on a worker thread (10,000 steps hold it about 0.1 s).
    runner = staticmethod(lambda fn, options: fn(options))

    def _recompute(self) -> None:
        self._apply(self.runner(self._results, self._values()))

    def _values(self) -> dict:
        """The options the recursions read, as a dict (what :meth:`_results` takes)."""
        return {k: getattr(self, k) for k in ("q0", "omega", "dt", "steps", "frame", "step",
                                              "renormalize", "dtype", "reorthonormalize_every",
                                              "keep")}

    def _apply(self, results: tuple) -> None:
        self.run, self.matrix = results
        self.step_index = np.arange(self.steps + 1)

    @classmethod
    def _results(cls, o: dict) -> tuple[I.Integration, I.MatrixDrift]:
        """Both recursions for the options ``o``; ValueError if they are refused.

        Reads nothing but ``o``, so it may run on another thread while the
        model keeps showing (and answering for) its current run.
        """
        steps, every = o["steps"], o["reorthonormalize_every"]
        if isinstance(steps, bool) or not 1 <= steps <= cls.MAX_STEPS:
            raise ValueError(_("steps must lie in [1, {most}], got {n!r}").format(
                most=cls.MAX_STEPS, n=steps))
        if isinstance(every, bool) or not 0 <= every <= cls.MAX_STEPS:
            raise ValueError(_("re-orthonormalize every must lie in [0, {most}] steps, got "
                               "{n!r}").format(most=cls.MAX_STEPS, n=every))
        if every and steps // every > cls.MAX_REPAIRS:
            least = -(-steps // cls.MAX_REPAIRS)
            raise ValueError(_("re-orthonormalizing every {every} of {steps} steps is {n} "
                               "repairs, more than the {most} a run may take: choose every "
                               "{least} steps or more").format(
                                   every=every, steps=steps, n=steps // every,
                                   most=cls.MAX_REPAIRS, least=least))
        try:
            run = I.integrate(o["q0"], o["omega"], o["dt"], steps, frame=o["frame"],
                              step=o["step"], renormalize=o["renormalize"])
        except ValueError as exc:
            if o["step"] != "first_order" or o["renormalize"]:
                raise
            # The first-order recursion multiplies |q| by sqrt(1 + (|ω| dt / 2)^2)
            # per step: with large steps it leaves the floating-point range.
            raise ValueError(_("|q| overflows within {n} first-order steps of {dt:g} s; choose "
                               "fewer steps, a smaller dt or renormalize ({error})").format(
                                   n=steps, dt=o["dt"], error=exc)) from None
        matrix = I.accumulate_matrix(
            o["omega"], o["dt"], steps, frame=o["frame"], dtype=o["dtype"],
            reorthonormalize_every=every, keep=o["keep"])
        return run, matrix

    def _set(self, **changes) -> None:
        """Change options, recompute, announce; invalid values leave the model as it was.

        Nothing changes until the new run is back: while :attr:`runner` waits
        for it, the model still answers for the run it shows.
        """
        results = self.runner(self._results, {**self._values(), **changes})
        at_end = self.param == self.steps
        for k, v in changes.items():
            setattr(self, k, v)
        self._apply(results)
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
        where = _("after {time:.2f} s (step {k} of {n})").format(time=t, k=k, n=self.steps)
        preset = I.PRESETS[self.preset]
        # The preset's description quotes its own rate and rule: once an
        # option changed it could contradict the numbers that follow.
        lines = [_("Options changed from “{preset}” (choose it again to restore it).").format(
            preset=_(preset["label"])) if self.modified else _(preset["description"])]
        frame = _("world") if self.frame == "world" else _("body")
        if self.step == "first_order":
            head = (_("First-order step at {rate} Hz, {speed:.0f}°/s in the {frame} frame, "
                      "renormalized every step:") if self.renormalize else
                    _("First-order step at {rate} Hz, {speed:.0f}°/s in the {frame} frame:"))
        else:
            head = (_("Exact step at {rate} Hz, {speed:.0f}°/s in the {frame} frame, "
                      "renormalized every step:") if self.renormalize else
                    _("Exact step at {rate} Hz, {speed:.0f}°/s in the {frame} frame:"))
        head = head.format(rate=f"{rate:.3g}", speed=speed, frame=frame)
        if self.step == "exact":
            lines.append(_("{head} {where} |q| − 1 is {drift} and the angle error {error}°: "
                           "only rounding is left.").format(
                               head=head, where=where, drift=_small(drift), error=_small(err)))
        elif self.renormalize:
            turn = np.degrees(2 * np.arctan(np.radians(speed) * self.dt / 2))
            lines.append(_(
                "{head} |q| stays 1 (|q| − 1 = {drift}) but the direction still lags the exact "
                "spin by {error}° {where}: each step turns {turn:.4f}° instead of "
                "{exact:.4f}°.").format(head=head, drift=_small(drift), error=_small(err),
                                        where=where, turn=turn, exact=speed * self.dt))
        else:
            lines.append(_(
                "{head} |q| grew by {grew}% {where}, so q v q* would scale the body by |q|² = "
                "{scale:.3f}: the thin line from the root reaches where it would put the tip "
                "(the chain is drawn normalized). Renormalizing fixes |q| but not the "
                "{error}° lag behind the exact spin.").format(
                    head=head, grew=f"{100 * drift:.3g}", where=where, scale=(1 + drift) ** 2,
                    error=_small(err)))
        repairs = int(np.count_nonzero(mat.repaired[: k + 1]))
        values = dict(dtype=self.dtype, k=k, ortho=_small(mat.orthonormality_error[k]),
                      off=_small(np.degrees(mat.angle_error[k])))
        if self.reorthonormalize_every:
            matrix = _("The {dtype} rotation matrix R, multiplied {k} times: ‖RᵀR − I‖ = "
                       "{ortho}, its rotation {off}° off. Gram-Schmidt every {every} steps "
                       "({repairs} so far, keeping its {axis} axis) restores orthonormality "
                       "but, like renormalizing q, not the angle.").format(
                           every=self.reorthonormalize_every, repairs=repairs,
                           axis=self.AXES[self.keep], **values)
        else:
            matrix = _("The {dtype} rotation matrix R, multiplied {k} times: ‖RᵀR − I‖ = "
                       "{ortho}, its rotation {off}° off; never re-orthonormalized, so the "
                       "rounding keeps piling up (set “re-orthonormalize every” to repair "
                       "it).").format(**values)
        lines.append(matrix)
        return sentences(*lines)
