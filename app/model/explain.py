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

import re

import numpy as np

from quatlab.app.i18n import _
from quatlab.math.curves import Curves
from quatlab.math.quaternion import angle_between

__all__ = ["explain", "explain_at_t", "sentences", "glue_formulas", "NEAR_ZERO_DOT", "ANGLE_DIGITS"]

#: |dot| below this (and not exactly 0) is called "a rounding error away from 0".
NEAR_ZERO_DOT = 1e-6

#: Decimals of every angle in the text at t: the readouts table's, so the two
#: never disagree by a rounding (0.25° is not "0.2°").
ANGLE_DIGITS = 2

#: NLERP's speed varying by less than this fraction is "indistinguishable
#: from constant" in the text (it is still stated, with enough digits).
_FLAT_SPEED = 1e-3

#: A pose closer than this to q0's (radians) has "not turned".
_NO_TURN = 1e-9


#: U+00A0 NO-BREAK SPACE and U+2060 WORD JOINER: a line never breaks at either.
NBSP, WJ = "\u00a0", "\u2060"

#: Superscripts the explanations write ("|q|²", "Rᵀ").
_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹ᵀ"
# Binary operators and relations, as the explanations write them in HTML.
_OP = r"(=|&lt;|&gt;|[<>≤≥+−×·→≈])"
_FORMULA_RULES = (
    # A hyphen before a digit is a minus sign (a line may break after a hyphen).
    (re.compile(r"(?:(?<![\w.])|(?<=\de))-(?=\d)"), "−"),
    # "a = b", "1 − t": the spaces around a binary operator or relation.
    (re.compile(rf" {_OP} "), rf"{NBSP}\1{NBSP}"),
    # "(= 360° − 20.0°)": an operator opening a bracket (or a full-width one).
    (re.compile(rf"(?<=[(（]){_OP} "), rf"\1{NBSP}"),
    # "dot(q0, q1)": the arguments of a function.
    (re.compile(r"\b(\w+)\(([^()\s,]+), ([^()\s,]+)\)"), rf"\1(\2,{NBSP}\3)"),
    # "20.0 °/t", "0.5 %": a number and its unit ("°/t" is one unit: no break after "/").
    (re.compile(r"(?<=\d) (?=°|%)"), NBSP),
    (re.compile(r"°/(?=\w)"), f"°/{WJ}"),
    # Chinese breaks between any two ideographs, also inside the name of an
    # operand ("点积 = −1.0000" ended a line at "点"): those names are joined.
    *((re.compile(word), WJ.join(word)) for word in ("点积",)),
    # A norm is one symbol: "|q|", "‖RᵀR − I‖" (its spaces are no-break by now;
    # a line may break after "|", and Chinese breaks around "‖").
    (re.compile(rf"([|‖])(?!{WJ})([^|‖ <>]+?)(?<!{WJ})\1"), rf"\1{WJ}\2{WJ}\1"),
    # "|q|²", "Rᵀ": a superscript never starts a line.
    (re.compile(f"(?<!{WJ})(?=[{_SUPERSCRIPTS}])"), WJ),
    # "（= 20.0°）": a full-width opening bracket never ends a line.
    (re.compile(r"(?<=[（［〔【])(?!\u2060)"), WJ),
)
_TAG = re.compile(r"(<[^>]*>)")


def glue_formulas(html: str) -> str:
    """``html`` with its formulas made unbreakable: lines wrap only between words.

    The spaces inside a formula become no-break spaces and a word joiner
    follows the "/" of °/t, so "dot(q0, q1) = −0.98" never ends a line at
    "=" and a unit never starts one; spaces between words stay breakable.
    A hyphen-minus before a digit becomes the minus sign "−" (a line may
    break after a hyphen). A norm ("|q|", "‖RᵀR − I‖") is held whole, a
    superscript never starts a line and a full-width opening bracket never
    ends one. Markup (tags and their attributes) is left alone.
    A formula must still fit the narrowest panel that shows it: wider
    than its line, Qt breaks it anywhere.

    >>> glue_formulas("<b>dot(q0, q1) = -0.9848</b>, 20.0 °/t").replace(NBSP, "~").replace(WJ, "^")
    '<b>dot(q0,~q1)~=~−0.9848</b>, 20.0~°/^t'
    """
    parts = _TAG.split(html)
    for i in range(0, len(parts), 2):  # the text between the tags
        if not parts[i]:
            continue  # between two tags: nothing a rule matches (a table has hundreds)
        for pattern, repl in _FORMULA_RULES:
            parts[i] = pattern.sub(repl, parts[i])
    return "".join(parts)


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
        paras.append(_(
            "<b>q1 = −q0</b> (dot = {dot:.4f}): both keys are the <i>same rotation</i>, "
            "stored with opposite signs. The naive blend (1 − t)·q0 + t·q1, which is "
            "(1 − 2t)·q0, shrinks to the <b>zero quaternion at t = 0.5</b>, which has no "
            "direction and cannot be normalized: naive NLERP <b>collapses</b> there (the gap "
            "in the plots) and naive SLERP has no unique great circle to follow. The shortest "
            "methods flip q1 back to q0 first, so the joint never moves."
        ).format(dot=d))
    elif d < 0 and abs(d) < NEAR_ZERO_DOT:
        paras.append(_(
            "dot(q0, q1) = {dot:.2e}, <b>a rounding error below 0</b>: the rotations are "
            "half a turn ({angle}) apart, so both arcs are equally long. The shortest "
            "methods flip q1 because dot &lt; 0 and turn one way; the naive methods turn the "
            "other way. Which one a runtime takes hinges on the sign of a rounding error in "
            "the file: a half turn stored like this is ambiguous; add a key in the middle."
        ).format(dot=d, angle=_deg(short)))
    elif d < 0:
        long = 2 * np.pi - short
        paras.append(_(
            "<b>dot(q0, q1) = {dot:.4f}</b>, negative: q1 lies in the opposite hemisphere of "
            "the 4D unit sphere. q1 and −q1 are the same rotation, but the naive methods "
            "interpolate the stored components and walk the long arc: the joint sweeps "
            "<b>{long}</b> (= 360° − {short}) instead of {short}. "
            "The shortest methods flip q1 to −q1 first (dot &gt; 0), then interpolate."
        ).format(dot=d, long=_deg(long), short=_deg(short)))
    elif d == 0:
        paras.append(_(
            "<b>dot(q0, q1) = 0</b>: the rotations differ by a half turn and both arcs are "
            "180° long. There is no shorter way; the rule flips only when dot &lt; 0, so at "
            "exactly 0 the stored sign is kept and every platform agrees. Naive and "
            "shortest coincide here."
        ))
    else:
        paras.append(_(
            "<b>dot(q0, q1) = {dot:.4f}</b>, not negative: both keys lie in the same "
            "hemisphere, so the naive and the shortest methods coincide and sweep {angle}. "
            "Press <b>−q</b> on either endpoint to see the long way appear."
        ).format(dot=d, angle=_deg(short)))
    sn = curves["shortest_nlerp"].speed
    if np.all(np.isfinite(sn)) and short > 1e-9:
        paras.append(_speed_paragraph(float(np.degrees(sn.min())), float(np.degrees(sn.max())),
                                      float(np.degrees(short))))
    # Glued after translation, so a translation's formulas hold together too.
    return [glue_formulas(p) for p in paras]


def _speed_paragraph(lo: float, hi: float, slerp: float) -> str:
    """Why NLERP's speed varies, with this case's range (degrees per unit t).

    The range is printed with as many decimals as it takes for its ends to
    differ, so a small case never reads "from 1.0 to 1.0"; when the spread
    is below :data:`_FLAT_SPEED` the text says it is nearly constant here and
    why, instead of contradicting its own heading.
    """
    spread = hi / lo - 1.0
    digits = 1
    while digits < 8 and f"{lo:.{digits}f}" == f"{hi:.{digits}f}":
        digits += 1
    chord = _("NLERP walks the straight chord between the keys and projects it onto the "
              "sphere; equal steps along the chord become longer arcs in the middle, where "
              "the chord is farthest from the sphere.")
    numbers = _("shortest NLERP's speed goes from {lo} to {hi} °/t (×{ratio})").format(
        lo=f"{lo:.{digits}f}", hi=f"{hi:.{digits}f}", ratio=f"{hi / lo:.{max(3, digits)}f}")
    if spread < _FLAT_SPEED:
        heading = _("<b>Why NLERP's speed is not constant, and why here it almost is:</b>")
        here = _("Here the keys are only {slerp:.2f}° apart, so the chord hugs the arc: "
                 "{numbers}, a spread of {spread:.2g} %, too small to see next to "
                 "SLERP's constant {slerp:.2f} °/t. The spread grows with the angle "
                 "(×2 for a half turn).").format(slerp=slerp, numbers=numbers,
                                                 spread=100 * spread)
    else:
        heading = _("<b>Why NLERP's speed is not constant:</b>")
        here = _("Here {numbers}; SLERP walks the arc itself at a constant {slerp:.1f} °/t."
                 ).format(numbers=numbers, slerp=slerp)
    # Sentences are joined by the translation's own rule (Chinese puts no space after 。).
    return sentences(heading, chord, here)


def sentences(*parts: str) -> str:
    """Sentences one after another, joined as the current language joins them.

    >>> sentences("One.", "Two.", "Three.")
    'One. Two. Three.'
    """
    text = parts[0]
    for part in parts[1:]:
        text = _("{sentence} {next}").format(sentence=text, next=part)
    return text


def _turned(state, method: str, q_t: np.ndarray) -> bool:
    """Whether ``method``'s pose has moved away from q0's at some sample up to t.

    Sign-invariant (a quaternion and its negative are one pose), so a path
    whose stored quaternion went to -q0 through a collapse or a gap reads as
    "not turned", while one that went round the long way reads as turned.
    The first sample that leaves q0 is found once per set of curves, so a
    change of t costs one comparison.
    """
    c = state.curves
    first = _first_turn(c, method)
    if first is not None and c.t[first] <= state.t:
        return True
    return bool(np.all(np.isfinite(q_t)) and angle_between(state.q0, q_t) > _NO_TURN)


# (id of the curves, method) -> (the curves, index). The curves object is
# kept with its answer so its id cannot be reused by other curves meanwhile.
_FIRST_TURN: dict[tuple[int, str], tuple[Curves, int | None]] = {}


def _first_turn(curves: Curves, method: str) -> int | None:
    """Index of the first sample of ``method`` whose pose is not q0's (None: never)."""
    key = (id(curves), method)
    hit = _FIRST_TURN.get(key)
    if hit is None or hit[0] is not curves:
        if len(_FIRST_TURN) > 64:        # curves of old endpoints: let them go
            _FIRST_TURN.clear()
        q = curves[method].quats
        ok = np.all(np.isfinite(q), axis=-1)
        moved = np.zeros(len(q), dtype=bool)
        moved[ok] = angle_between(curves.q0, q[ok]) > _NO_TURN
        hits = np.flatnonzero(moved)
        hit = _FIRST_TURN[key] = (curves, int(hits[0]) if len(hits) else None)
    return hit[1]


def explain_at_t(state) -> str:
    """One sentence (HTML) on where each method has taken the joint at the current t.

    Kept apart from :func:`explain` so that scrubbing updates a small label
    instead of re-laying out the whole explanation. Each method's number is
    its path angle (docs/curves.md), the number the readouts' table, the
    plot's cursor and the 3D turn label show, with the table's
    :data:`ANGLE_DIGITS`. A method whose path angle went past 180° without
    the pose ever leaving q0 (the naive NLERP of q to -q after its collapse,
    naive SLERP reaching -q0 at t = 1) is said to sit at −q0, the same pose,
    not turned; one that did go the long way is said to turn the long way.
    """
    at = state.at_t()
    rows = []
    for m in ("naive_nlerp", "shortest_nlerp", "naive_slerp", "shortest_slerp"):
        a = float(at[m].angle_deg[0])
        # Past the half turn by more than the printed digits: the far half of
        # the sphere, reached by a sign change or by turning the long way.
        far = np.isfinite(a) and a - 180.0 > 0.5 * 10.0**-ANGLE_DIGITS
        if not np.isfinite(a):
            text = _("— (no rotation exists at this t)")
        elif far and not sign_only(state, m):
            text = _("{angle}° (really turning the long way round)").format(
                angle=f"{a:.{ANGLE_DIGITS}f}")
        elif far:
            text = _("{angle}° (its quaternion went to −q0, the same pose: not turned)").format(
                angle=f"{a:.{ANGLE_DIGITS}f}")
        else:
            text = f"{a:.{ANGLE_DIGITS}f}°"
        rows.append(_("{method}: {angle}").format(method=_(at[m].label), angle=text))
    return glue_formulas(_("At <b>t = {t:.3f}</b> the path angle is {rows}.").format(
        t=state.t, rows=_("; ").join(rows)))


def sign_only(state, method: str) -> bool:
    """Whether ``method`` at the current t sits at −q0 without having turned: its path
    angle reads past 180° (360° for −q0), the pose is q0's.

    The one test behind every widget's words for it (the text at t, the
    readouts): the representation went to −q, the pose did not turn.
    """
    at = state.at_t()[method]
    a = float(at.angle_deg[0])
    far = np.isfinite(a) and a - 180.0 > 0.5 * 10.0**-ANGLE_DIGITS
    return bool(far and not _turned(state, method, at.quats[0]))
