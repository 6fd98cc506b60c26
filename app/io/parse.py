"""Parse quaternions typed or pasted as text, with an explicit component order. No Qt.

Examples
--------
>>> parse_quaternion("0, 0, 0.7071, 0.7071", order="xyzw")
array([0.7071, 0.    , 0.    , 0.7071])
>>> parse_quaternion("[1 0 0]")
Traceback (most recent call last):
...
ValueError: expected 4 numbers (w x y z), found 3 in '[1 0 0]'
"""

from __future__ import annotations

import math
import re

import numpy as np

from quatlab.app.i18n import _
from quatlab.math.quaternion import from_xyzw

__all__ = ["parse_quaternion", "parse_number", "ORDERS"]

ORDERS = ("wxyz", "xyzw")

# Separators people paste: commas, semicolons, whitespace, brackets and parentheses.
_SPLIT = re.compile(r"[\s,;()\[\]{}]+")


def parse_number(text: str, name: str = "value") -> float:
    """A finite float from ``text``; ValueError naming ``name`` otherwise."""
    try:
        x = float(text.strip())
    except ValueError:
        raise ValueError(_("{name}: {text!r} is not a number").format(
            name=name, text=text.strip())) from None
    if not math.isfinite(x):
        raise ValueError(_("{name} must be finite, got {text!r}").format(name=name,
                                                                         text=text.strip()))
    return x


def parse_quaternion(text: str, order: str = "wxyz") -> np.ndarray:
    """Four numbers from ``text`` in ``order`` ('wxyz' or 'xyzw') as (w, x, y, z).

    The result is not normalized (callers show |q| as entered); zero, NaN and
    infinite input are refused by the model's validation or here.
    """
    if order not in ORDERS:
        raise ValueError(_("order must be 'wxyz' or 'xyzw', got {order!r}").format(order=order))
    parts = [p for p in _SPLIT.split(text.strip()) if p]
    if len(parts) != 4:
        raise ValueError(
            _("expected 4 numbers ({order}), found {n} in {text!r}").format(
                order=" ".join(order), n=len(parts), text=text.strip())
        )
    values = np.array(
        [parse_number(p, _("component {c}").format(c=c)) for p, c in zip(parts, order, strict=True)]
    )
    return from_xyzw(values) if order == "xyzw" else values
