"""The lesson's state model: endpoints, t, options and the derived curves. No Qt.

Widgets subscribe to a :class:`LessonState` (napari's model/widget split): the
model validates every change, keeps the previous valid state when a change is
refused, records endpoint edits for undo/redo, and recomputes the curves only
when the endpoints change (not on every step of t).

Events (see :class:`Events`): ``"endpoints"``, ``"t"``, ``"options"``.

Examples
--------
>>> s = LessonState.from_preset("negated-20")
>>> round(s.dot, 7)
-0.9848078
>>> s.set_t(0.5)
>>> round(float(s.at_t()["naive_nlerp"].angle_deg[0]), 6)
170.0
>>> s.negate(1)          # same rotation, other sign: the naive path changes
>>> round(float(s.at_t()["naive_nlerp"].angle_deg[0]), 6)
10.0
>>> s.undo(); round(s.dot, 7)
-0.9848078
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.model import presets
from quatlab.app.model.history import History
from quatlab.math.curves import METHODS, Curves, compute_curves
from quatlab.math.interpolate import as_parameter
from quatlab.math.quaternion import angle_between, as_quaternion

__all__ = ["Events", "Endpoints", "LessonState", "SESSION_FORMAT", "CHAIN_FAMILIES"]

SESSION_FORMAT = "quatlab-session"
#: Which interpolation family drives the two chains in the 3D view.
CHAIN_FAMILIES = ("slerp", "nlerp")


class Events:
    """A minimal synchronous event hub: ``connect(name, fn)``, ``emit(name)``."""

    def __init__(self) -> None:
        self._subs: dict[str, list[Callable[[], None]]] = defaultdict(list)

    def connect(self, name: str, fn: Callable[[], None]) -> None:
        self._subs[name].append(fn)

    def disconnect(self, name: str, fn: Callable[[], None]) -> None:
        self._subs[name].remove(fn)

    def disconnect_where(self, test: Callable[[Callable[[], None]], bool]) -> int:
        """Remove every subscriber ``fn`` with ``test(fn)`` true (the widgets of a window
        being rebuilt); returns how many went."""
        gone = 0
        for subs in self._subs.values():
            keep = [fn for fn in subs if not test(fn)]
            gone += len(subs) - len(keep)
            subs[:] = keep
        return gone

    def count(self) -> int:
        """How many subscribers there are, all events together."""
        return sum(len(subs) for subs in self._subs.values())

    def emit(self, name: str) -> None:
        for fn in list(self._subs[name]):
            fn()


@dataclass(frozen=True)
class Endpoints:
    """Both endpoints, unit (w, x, y, z) with their stored sign, and |q| as entered."""

    q0: np.ndarray
    q1: np.ndarray
    norm0: float = 1.0
    norm1: float = 1.0
    preset: str | None = None
    #: The components exactly as entered (sign included), for display and sessions.
    raw0: np.ndarray | None = None
    raw1: np.ndarray | None = None

    def with_endpoint(self, which: int, q: np.ndarray, norm: float,
                      raw: np.ndarray) -> Endpoints:
        if which == 0:
            return replace(self, q0=q, norm0=norm, raw0=raw, preset=None)
        return replace(self, q1=q, norm1=norm, raw1=raw, preset=None)

    def entered(self, which: int) -> np.ndarray:
        raw = self.raw0 if which == 0 else self.raw1
        if raw is None:
            return (self.q0 * self.norm0) if which == 0 else (self.q1 * self.norm1)
        return raw


def _session_numbers(value, name: str, count: int | None = None):
    """A JSON number (``count`` None) or list of ``count`` numbers, as floats; ValueError if not.

    Session files are user data: a list where a number belongs, a string, a
    boolean or an integer too large for a float is refused with the field's
    name, never passed on to numpy to fail in its own words.
    """
    items = [value] if count is None else value
    if count is not None and not (isinstance(value, list) and len(value) == count):
        raise ValueError(_("{name} must be a list of {n} numbers, got {value}").format(
            name=name, n=count, value=f"{value!r:.60}"))
    out = []
    for v in items:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            text = (_("{name} must be a number, got {value}") if count is None
                    else _("{name} must be a list of {n} numbers, got {value}"))
            raise ValueError(text.format(name=name, n=count, value=f"{value!r:.60}"))
        try:
            out.append(float(v))
        except OverflowError:
            raise ValueError(_("{name} holds a number too large to represent").format(
                name=name)) from None
    return out[0] if count is None else out


def _validated(q, name: str) -> tuple[np.ndarray, float, np.ndarray]:
    """Unit quaternion, |q| and the components as entered (kept even for 1e200)."""
    unit = as_quaternion(q, name)
    if unit.shape != (4,):
        raise ValueError(f"{name} must be one quaternion (w, x, y, z), got shape {unit.shape}")
    raw = np.asarray(q, dtype=np.float64)
    big = float(np.max(np.abs(raw)))
    n = big * float(np.linalg.norm(raw / big))
    if not np.isfinite(n):
        raise ValueError(_("{name} is too long to represent (|{name}| overflows)").format(
            name=name))
    return unit, n, raw.copy()


class LessonState:
    """State of the two-key lesson; see the module docstring.

    Parameters
    ----------
    q0, q1 : array_like, shape (4,)
        Endpoints, (w, x, y, z); normalized, sign kept.
    t : float
        Interpolation parameter in [0, 1].
    """

    def __init__(self, q0=(1.0, 0.0, 0.0, 0.0), q1=(1.0, 0.0, 0.0, 0.0), t: float = 0.5,
                 *, preset: str | None = None, samples: int = 501) -> None:
        a, n0, r0 = _validated(q0, "q0")
        b, n1, r1 = _validated(q1, "q1")
        self.events = Events()
        self._ends = Endpoints(a, b, n0, n1, preset, r0, r1)
        self._t = float(as_parameter(t))
        self._samples = samples
        self._history: History[Endpoints] = History()
        self.chain_family = "slerp"
        self.root_only = True  # one rigid body: its turn reads as one axis and one angle
        self.visible = {m: True for m in METHODS}
        self._curves: Curves | None = None
        self._at_t: tuple[float, Curves] | None = None

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_preset(cls, name: str = presets.DEFAULT_PRESET, t: float = 0.5) -> LessonState:
        p = presets.get(name)
        return cls(p.q0, p.q1, t, preset=p.name)

    # ------------------------------------------------------------------ endpoints
    @property
    def endpoints(self) -> Endpoints:
        return self._ends

    @property
    def q0(self) -> np.ndarray:
        return self._ends.q0.copy()

    @property
    def q1(self) -> np.ndarray:
        return self._ends.q1.copy()

    def endpoint(self, which: int) -> np.ndarray:
        return self.q0 if which == 0 else self.q1

    def entered(self, which: int) -> np.ndarray:
        """Components of endpoint ``which`` exactly as entered (w, x, y, z)."""
        return self._ends.entered(which).copy()

    def entered_norm(self, which: int) -> float:
        return self._ends.norm0 if which == 0 else self._ends.norm1

    @property
    def preset(self) -> str | None:
        return self._ends.preset

    def set_endpoint(self, which: int, q) -> None:
        """Set endpoint 0 or 1 from (w, x, y, z) ``q``; ValueError keeps the state."""
        if which not in (0, 1):
            raise ValueError(f"which must be 0 or 1, got {which!r}")
        unit, n, raw = _validated(q, f"q{which}")
        self._apply(self._ends.with_endpoint(which, unit, n, raw))

    def set_endpoints(self, q0, q1, *, preset: str | None = None) -> None:
        a, n0, r0 = _validated(q0, "q0")
        b, n1, r1 = _validated(q1, "q1")
        self._apply(Endpoints(a, b, n0, n1, preset, r0, r1))

    def load_preset(self, name: str) -> None:
        p = presets.get(name)
        self.set_endpoints(p.q0, p.q1, preset=p.name)

    def negate(self, which: int) -> None:
        """Store ``-q`` for endpoint ``which``: the same rotation, the other hemisphere."""
        if which not in (0, 1):
            raise ValueError(f"which must be 0 or 1, got {which!r}")
        ends = self._ends
        q = ends.q0 if which == 0 else ends.q1
        n = ends.norm0 if which == 0 else ends.norm1
        self._apply(ends.with_endpoint(which, -q, n, -ends.entered(which)))

    def _apply(self, ends: Endpoints, *, record: bool = True) -> None:
        if record:
            self._history.record(self._ends)
        self._ends = ends
        self._curves = None
        self._at_t = None
        self.events.emit("endpoints")

    # ------------------------------------------------------------------ undo / redo
    @property
    def can_undo(self) -> bool:
        return self._history.can_undo

    @property
    def can_redo(self) -> bool:
        return self._history.can_redo

    def undo(self) -> None:
        previous = self._history.undo(self._ends)
        if previous is not None:
            self._apply(previous, record=False)

    def redo(self) -> None:
        following = self._history.redo(self._ends)
        if following is not None:
            self._apply(following, record=False)

    # ------------------------------------------------------------------ t and options
    @property
    def t(self) -> float:
        return self._t

    def set_t(self, t: float) -> None:
        t = float(as_parameter(t))
        if t != self._t:
            self._t = t
            self.events.emit("t")

    # Options emit only on a real change: widgets that mirror them call back
    # into the model, and an unchanged value must not start another round.
    def set_chain_family(self, family: str) -> None:
        if family not in CHAIN_FAMILIES:
            raise ValueError(f"family must be one of {CHAIN_FAMILIES}, got {family!r}")
        if family != self.chain_family:
            self.chain_family = family
            self.events.emit("options")

    def set_root_only(self, flag: bool) -> None:
        if bool(flag) != self.root_only:
            self.root_only = bool(flag)
            self.events.emit("options")

    def set_visible(self, method: str, flag: bool) -> None:
        if method not in METHODS:
            raise ValueError(f"method must be one of {METHODS}, got {method!r}")
        if bool(flag) != self.visible[method]:
            self.visible[method] = bool(flag)
            self.events.emit("options")

    # ------------------------------------------------------------------ derived
    @property
    def curves(self) -> Curves:
        """The four methods sampled over [0, 1]; recomputed after an endpoint change."""
        if self._curves is None:
            self._curves = compute_curves(self._ends.q0, self._ends.q1, samples=self._samples)
        return self._curves

    def at_t(self) -> Curves:
        """The four methods evaluated exactly at the current t (one sample)."""
        if self._at_t is None or self._at_t[0] != self._t:
            self._at_t = (self._t, compute_curves(self._ends.q0, self._ends.q1, t=[self._t]))
        return self._at_t[1]

    @property
    def dot(self) -> float:
        return float(self._ends.q0 @ self._ends.q1)

    @property
    def angle(self) -> float:
        """Rotation angle between the endpoint rotations, radians in [0, pi]."""
        return float(angle_between(self._ends.q0, self._ends.q1))

    # ------------------------------------------------------------------ sessions
    def to_session(self) -> dict:
        """A JSON-ready dict of endpoints (wxyz as entered direction), t and options."""
        e = self._ends
        return {
            "format": SESSION_FORMAT,
            "version": 1,
            "order": "wxyz",
            "q0": e.entered(0).tolist(),
            "q1": e.entered(1).tolist(),
            "preset": e.preset,
            "t": self._t,
            "chain_family": self.chain_family,
            "root_only": self.root_only,
            "visible": dict(self.visible),
        }

    def apply_session(self, data: dict) -> None:
        """Restore :meth:`to_session` output; ValueError names the bad field, state kept."""
        if not isinstance(data, dict) or data.get("format") != SESSION_FORMAT:
            raise ValueError(_("not a QuatLab session (expected \"format\": \"{format}\")").format(
                format=SESSION_FORMAT))
        if data.get("order", "wxyz") != "wxyz":
            raise ValueError(_("session field 'order' must be 'wxyz'"))
        for key in ("q0", "q1", "t"):
            if key not in data:
                raise ValueError(_("session is missing the field {key!r}").format(key=key))
        a, n0, r0 = _validated(_session_numbers(data["q0"], "session q0", 4), "session q0")
        b, n1, r1 = _validated(_session_numbers(data["q1"], "session q1", 4), "session q1")
        t = float(as_parameter(_session_numbers(data["t"], "session t"), "session t"))
        family = data.get("chain_family", "slerp")
        if not isinstance(family, str) or family not in CHAIN_FAMILIES:
            raise ValueError(_("session chain_family must be one of {families}").format(
                families=CHAIN_FAMILIES))
        visible = data.get("visible", {})
        if (not isinstance(visible, dict) or any(k not in METHODS for k in visible)
                or not all(isinstance(v, bool) for v in visible.values())):
            raise ValueError(_("session visible must map method names {methods} to "
                               "booleans").format(methods=METHODS))
        root_only = data.get("root_only", True)
        if not isinstance(root_only, bool):
            raise ValueError(_("session root_only must be true or false, got {value!r}").format(
                value=root_only))
        preset = data.get("preset")
        if not isinstance(preset, str) or preset not in presets.names():
            preset = None
        # Everything validated: now apply, so a bad file changes nothing.
        self.chain_family = family
        self.root_only = root_only
        self.visible.update(visible)
        # t first, so the endpoint listeners already render the session's t.
        self._t = t
        self._apply(Endpoints(a, b, n0, n1, preset, r0, r1))
        self.events.emit("t")
        self.events.emit("options")


def format_quaternion(q, digits: int = 4) -> str:
    """``(w, x, y, z)`` text with fixed digits, ``-0`` shown as ``0``."""
    return "(" + ", ".join(f"{(0.0 if abs(x) < 0.5 * 10**-digits else x):.{digits}f}"
                           for x in np.asarray(q, float)) + ")"
