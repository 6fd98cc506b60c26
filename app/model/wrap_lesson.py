"""Qt-free model of the lesson "Euler wrap vs double cover": the two families of long turns.

The same two poses, one frame apart, stored two ways:

* as **Euler angles** whose channel crosses +-180 deg between the keys (a
  BVH file's ``179.87`` after ``-180``): a runtime that lerps each channel
  walks the numbers the long way, so the joint spins almost a full turn;
* as the **quaternions** converted from those triples frame by frame, where
  the second key lands on the far side of S^3 (``dot < 0``: the conversion of
  a wrapped channel flips the sign by itself, or a preset negates the key): a
  runtime that lerps the components without a hemisphere check also spins.

SLERP on the shortest arc between the same rotations is the reference. The
Euler wrap is a jump of the representation in R^3 (angles are a chart cut
at +-180 deg: add 360 to the channel, the Euler filter), the flip a sign on
S^3 (q and -q are one rotation: negate the key, sign continuity); see
docs/interpolation.md and docs/formats.md ("BVH"). The protocol is
:class:`quatlab.app.model.lesson_base.LessonModel`; ``param`` is t in [0, 1].

Examples
--------
>>> m = WrapModel("mocap_lefthip")
>>> c = m.comparison
>>> c.swept["euler"] > 359, round(c.swept["slerp"], 2)   # degrees turned in all
(True, 0.17)
>>> bool(c.key_dot < 0), c.negated      # the conversion itself flipped the sign
(True, False)
"""

from __future__ import annotations

import dataclasses

import numpy as np

from quatlab.app.i18n import N_, _
from quatlab.app.model.explain import sentences
from quatlab.app.model.lesson_base import LessonModel
from quatlab.math.curves import nlerp_path, path_angle
from quatlab.math.interpolate import slerp
from quatlab.math.quaternion import angle_between, from_euler

__all__ = ["WrapModel", "WrapComparison", "PRESETS", "METHODS", "compare"]

#: The three ways of playing the two keys, in legend order.
METHODS = ("euler", "naive", "slerp")

#: Presets: the order (BVH channel order, intrinsic) and the two triples in degrees.
PRESETS = {
    "yaw_wrap": {
        "label": N_("Yaw 170° → −170°"),
        "description": N_(
            "A joint turning 20° about Z, from yaw 170° to 190°, stored as 170° and −170° "
            "because the exporter keeps every angle in [−180°, 180°)."
        ),
        "euler_fix": N_(
            "Angles are coordinates in R<sup>3</sup> cut at ±180°: crossing the cut is a "
            "<i>representation jump</i>; adding 360° to the channel (the Euler filter) removes it."
        ),
        "order": "ZXY",
        "start_deg": (170.0, 20.0, 0.0),
        "end_deg": (-170.0, 20.0, 0.0),
    },
    "mocap_lefthip": {
        "label": N_("Real capture: LeftHip, frames 210 → 211"),
        "description": N_(
            "A real motion capture (the BVH test capture of docs/formats.md, “BVH”): the "
            "LeftHip's Zrotation goes from −180° to 179.87° between frames 210 and 211, a "
            "0.17° turn of the hip."
        ),
        "euler_fix": N_(
            "Angles are coordinates in R<sup>3</sup> cut at ±180°: crossing the cut is a "
            "<i>representation jump</i>; adding 360° to the channel (the Euler filter) removes it."
        ),
        "order": "ZXY",
        "start_deg": (-180.00, -38.98, -173.72),
        "end_deg": (179.87, -39.12, -173.79),
    },
    "triple_switch": {
        "label": N_("The other Euler triple"),
        "description": N_(
            "A 10° turn whose second key the exporter wrote as the other Euler triple of its "
            "pose, (a + 180°, 180° − b, c + 180°): every channel jumps although the pose "
            "barely moves."
        ),
        "euler_fix": N_(
            "Every pose has two Euler triples, two points of R<sup>3</sup>: switching between "
            "them is a <i>representation jump</i>; choosing the triple closest to the previous "
            "frame (the Euler filter) removes it."
        ),
        "order": "ZXY",
        "start_deg": (30.0, 40.0, 10.0),
        "end_deg": (220.0, 140.0, 190.0),
    },
}

_SAMPLES = 241


@dataclasses.dataclass(frozen=True, eq=False)
class WrapComparison:
    """The three paths between the same two poses, sampled at ``t``.

    ``quats[k]`` are ``(N, 4)`` (w, x, y, z), NaN where naive NLERP
    collapses; ``angle[k]`` the rotation angle from the start pose along the
    path (deg, :func:`quatlab.math.curves.path_angle`: up to 360 for a path
    that went the long way), ``speed[k]`` the angular speed (deg per unit
    t), ``swept[k]`` the total turn (deg). ``euler_deg`` are the lerped
    channels; ``q0``, ``q1`` the quaternion keys as stored (``key_dot < 0``);
    ``negated`` says whether q1 was negated to show the flip (False when the
    frame-by-frame conversion flipped it already).
    """

    order: str
    start_deg: np.ndarray
    end_deg: np.ndarray
    t: np.ndarray
    euler_deg: np.ndarray
    q0: np.ndarray
    q1: np.ndarray
    key_dot: float
    negated: bool
    quats: dict
    angle: dict
    speed: dict
    swept: dict


def compare(start_deg, end_deg, order: str, samples: int = _SAMPLES) -> WrapComparison:
    """The Euler lerp, the naive NLERP of sign-flipped keys and SLERP from one pose to the other."""
    a = np.asarray(start_deg, dtype=np.float64)
    b = np.asarray(end_deg, dtype=np.float64)
    t = np.linspace(0.0, 1.0, samples)
    euler = a + t[:, None] * (b - a)
    q0 = from_euler(np.radians(a), order)
    q1 = from_euler(np.radians(b), order)
    negated = bool(np.dot(q0, q1) >= 0.0)
    if negated:
        q1 = -q1                         # the double cover's counterpart of the wrap
    naive, naive_speed = nlerp_path(q0, q1, t)
    quats = {
        "euler": from_euler(np.radians(euler), order),
        "naive": naive,
        "slerp": slerp(q0, -q1, t),      # -q1 is the stored key's short-arc twin
    }
    angle, speed, swept = {}, {}, {}
    dt = t[1] - t[0]
    for k, q in quats.items():
        angle[k] = np.degrees(path_angle(q0, q))
        step = np.degrees(angle_between(q[:-1], q[1:]))
        # Speed at the samples: central differences inside, one-sided at the ends.
        s = np.empty(samples)
        s[1:-1] = (step[:-1] + step[1:]) / (2 * dt)
        s[0], s[-1] = step[0] / dt, step[-1] / dt
        speed[k] = s
        swept[k] = float(np.nansum(step))
    # NLERP's own speed: differences of samples 1/240 apart cut its spike at the
    # collapse short (2,612 deg/t where the two-key lesson, from the same keys,
    # says 2,620), and the plots name that peak.
    speed["naive"] = np.degrees(naive_speed)
    for arr in (t, euler, q0, q1, *quats.values(), *angle.values(), *speed.values()):
        arr.setflags(write=False)
    return WrapComparison(order, a, b, t, euler, q0, q1, float(np.dot(q0, q1)), negated,
                          quats, angle, speed, swept)


class WrapModel(LessonModel):
    """Euler wrap vs double cover on one motion (module docs)."""

    PRESETS = PRESETS

    def _initial_param(self) -> float:
        # Before the middle, where naive NLERP of near-opposite keys collapses.
        return 0.35

    def _recompute(self) -> None:
        p = PRESETS[self.preset]
        self.comparison = compare(p["start_deg"], p["end_deg"], p["order"])

    def at_param(self) -> dict[str, np.ndarray]:
        """The three rotations (w, x, y, z) at the slider; naive is NaN at its collapse."""
        c, t = self.comparison, float(self.param)
        euler = c.start_deg + t * (c.end_deg - c.start_deg)
        naive, _speed = nlerp_path(c.q0, c.q1, np.array([t]))
        return {"euler": from_euler(np.radians(euler), c.order), "naive": naive[0],
                "slerp": slerp(c.q0, -c.q1, t)}

    def angles_at_param(self) -> dict[str, float]:
        """Rotation angle from the start pose (deg) of each path at the slider."""
        c = self.comparison
        return {k: float(np.degrees(path_angle(c.q0, q))) for k, q in self.at_param().items()}

    def explanation(self) -> str:
        c = self.comparison
        preset = PRESETS[self.preset]
        a0 = ", ".join(f"{x:.2f}°" for x in c.start_deg)
        a1 = ", ".join(f"{x:.2f}°" for x in c.end_deg)
        turn = c.swept["slerp"]
        at = self.angles_at_param()
        naive_now = (_("has no rotation (the blended components pass through zero)")
                     if not np.isfinite(at["naive"]) else f"{at['naive']:.1f}°")
        how = (_("we stored the second key as −q to show it") if c.negated else
               _("the frame-by-frame conversion put it there by itself"))
        return "<br>".join([
            sentences(_(preset["description"]),
                      _("SLERP on the shortest arc turns {angle:.2f}°.").format(angle=turn)),
            sentences(_("<b>Euler channels</b> ({order}) go ({start}) → ({end}): a per-channel "
                        "lerp walks the numbers, not the rotation, and turns the joint "
                        "{angle:.1f}° in all.").format(order="-".join(c.order), start=a0,
                                                       end=a1, angle=c.swept["euler"]),
                      _(preset["euler_fix"])),
            _("<b>Quaternion keys</b> of the same poses have dot {dot:.3f} &lt; 0 ({how}): q and "
              "−q are one rotation, two points of S<sup>3</sup>, and a naive lerp of the "
              "components takes the far way round, {angle:.1f}°. That is a <i>sign</i>; negating "
              "the key (sign continuity) removes it.").format(
                dot=c.key_dot, how=how, angle=c.swept["naive"]),
            _("At t = {t:.2f}: Euler lerp is {euler:.1f}° from the start pose, naive NLERP "
              "{naive}, SLERP {slerp:.2f}°.").format(
                t=self.param, euler=at["euler"], naive=naive_now, slerp=at["slerp"]),
        ])
