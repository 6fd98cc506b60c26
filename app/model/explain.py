"""Plain-words explanations that follow the lesson's state. No Qt.

:func:`explain` returns short HTML paragraphs (rich text for a QLabel or
QTextBrowser) chosen from the endpoints: the hemisphere rule when dot < 0,
what the rule does at dot = 0, the collapse from q to -q, and why NLERP's
speed is not constant, each with the numbers of the current case.

Examples
--------
>>> from quatlab.app.model.state import LessonState
>>> paras = explain(LessonState.from_preset("negated-20"))
>>> "340" in paras[0]
True
"""

from __future__ import annotations

import numpy as np

from quatlab.math.curves import Curves

__all__ = ["explain", "explain_at_t", "NEAR_ZERO_DOT"]

#: |dot| below this (and not exactly 0) is called "a rounding error away from 0".
NEAR_ZERO_DOT = 1e-6


def _deg(x: float) -> str:
    return f"{np.degrees(x):.1f}°"


def explain(state) -> list[str]:
    """Paragraphs (HTML) explaining the current endpoints of ``state``.

    They depend on the endpoints only, so the panel is not re-laid out on every
    step of t (the readouts table carries the values at t).
    """
    d = state.dot
    short = state.angle
    curves: Curves = state.curves
    paras: list[str] = []
    if d <= -1 + 1e-12:
        paras.append(
            f"<b>q1 = −q0</b> (dot = {d:.4f}): both keys are the <i>same rotation</i>, "
            "stored with opposite signs. The naive blend (1 − t)·q0 + t·q1 = (1 − 2t)·q0 "
            "shrinks to the <b>zero quaternion at t = 0.5</b>, which has no direction and "
            "cannot be normalized: naive NLERP <b>collapses</b> there (the gap in the plots) "
            "and naive SLERP has no unique great circle to follow. The shortest methods flip "
            "q1 back to q0 first, so the joint never moves."
        )
    elif d < 0 and abs(d) < NEAR_ZERO_DOT:
        paras.append(
            f"<b>dot(q0, q1) = {d:.2e}</b>, a rounding error below 0: the rotations are "
            f"half a turn ({_deg(short)}) apart, so both arcs are equally long. The shortest "
            "methods flip q1 because dot &lt; 0 and turn one way; the naive methods turn the "
            "other way. Which one a runtime takes hinges on the sign of a rounding error in "
            "the file: a half turn stored like this is ambiguous; add a key in the middle."
        )
    elif d < 0:
        long = 2 * np.pi - short
        paras.append(
            f"<b>dot(q0, q1) = {d:.4f} &lt; 0</b>: q1 lies in the opposite hemisphere of the "
            f"4D unit sphere. q1 and −q1 are the same rotation, but the naive methods "
            f"interpolate the stored components and walk the long arc: the joint sweeps "
            f"<b>{_deg(long)}</b> (= 360° − {_deg(short)}) instead of {_deg(short)}. "
            "The shortest methods flip q1 to −q1 first (dot &gt; 0), then interpolate."
        )
    elif d == 0:
        paras.append(
            "<b>dot(q0, q1) = 0</b>: the rotations differ by a half turn and both arcs are "
            "180° long. There is no shorter way; the rule flips only when dot &lt; 0, so at "
            "exactly 0 the stored sign is kept and every platform agrees. Naive and "
            "shortest coincide here."
        )
    else:
        paras.append(
            f"<b>dot(q0, q1) = {d:.4f} ≥ 0</b>: both keys lie in the same hemisphere, so the "
            f"naive and the shortest methods coincide and sweep {_deg(short)}. Press "
            "<b>−q</b> on either endpoint to see the long way appear."
        )
    sn = curves["shortest_nlerp"].speed
    if np.all(np.isfinite(sn)) and short > 1e-9:
        ratio = float(sn.max() / sn.min())
        paras.append(
            "<b>Why NLERP's speed is not constant:</b> NLERP walks the straight chord "
            "between the keys and projects it onto the sphere; equal steps along the chord "
            "become longer arcs in the middle, where the chord is farthest from the sphere. "
            f"Here shortest NLERP's speed goes from {np.degrees(sn.min()):.1f} to "
            f"{np.degrees(sn.max()):.1f} °/t (×{ratio:.3f}); SLERP walks the arc itself at "
            f"a constant {np.degrees(short):.1f} °/t."
        )
    return paras


def explain_at_t(state) -> str:
    """One sentence (HTML) on where each method has taken the joint at the current t.

    Kept apart from :func:`explain` so that scrubbing updates a small label
    instead of re-laying out the whole explanation.
    """
    at = state.at_t()
    rows = []
    for m in ("naive_nlerp", "shortest_nlerp", "naive_slerp", "shortest_slerp"):
        a = at[m].angle_deg[0]
        rows.append(f"{at[m].label}: {'—' if not np.isfinite(a) else f'{a:.1f}°'}")
    return f"At <b>t = {state.t:.3f}</b> the joint has swept " + "; ".join(rows) + "."
