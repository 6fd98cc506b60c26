"""Short number text for narrow fields: never clipped into a different number.

A field as wide as "-0.70711" shows ``f"{4.4897e-11:.5g}"`` = "4.4897e-11"
as "4.4897e-1", which reads as 0.449. :func:`compact_number` keeps the
significant-digit form but drops mantissa digits until the text fits the
field's width in characters, so the exponent is always whole.

>>> compact_number(4.4897e-11)
'4.49e-11'
>>> compact_number(-0.7071067811865476)
'-0.70711'
>>> compact_number(-0.0)
'0'
"""

from __future__ import annotations

__all__ = ["compact_number", "FIELD_CHARS"]

#: Characters a quaternion component field shows: "-0.70711" (5 digits, sign).
FIELD_CHARS = 8


def compact_number(x: float, digits: int = 5, width: int = FIELD_CHARS) -> str:
    """``x`` with at most ``digits`` significant digits, shortened to ``width`` characters.

    Digits are dropped from the mantissa (never the exponent) until the text
    fits; one significant digit is the floor, so an extreme exponent may
    still exceed ``width`` but is never cut. Zero (either sign) is ``"0"``.
    """
    x = float(x)
    for d in range(max(int(digits), 1), 0, -1):
        text = f"{x:.{d}g}"
        if len(text) <= width:
            break
    return "0" if text in ("-0", "0") else text
