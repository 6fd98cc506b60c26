"""Independent reference computations shared by the math tests.

Written from the definitions, without calling quatlab, so a test comparing
against them checks the code rather than repeating it.
"""

from __future__ import annotations

import numpy as np


def unit(q):
    q = np.asarray(q, dtype=np.float64)
    return q / np.linalg.norm(q, axis=-1, keepdims=True)


def rot_angle(a, b):
    """Rotation angle between quaternions, sign-invariant (independent of the code under test)."""
    a, b = unit(a), unit(b)
    d = np.sum(a * b, axis=-1, keepdims=True)
    b = np.where(d < 0, -b, b)
    return 4.0 * np.arctan2(np.linalg.norm(a - b, axis=-1), np.linalg.norm(a + b, axis=-1))


def luminance_8bit(rgb) -> np.ndarray:
    """WCAG 2 relative luminance of 8-bit sRGB colours ``(..., 3)`` (0-255), from its definition."""
    c = np.asarray(rgb, float) / 255.0
    c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return c @ [0.2126, 0.7152, 0.0722]


def contrast_8bit(a, b) -> np.ndarray:
    """WCAG 2 contrast ratio of 8-bit sRGB colours ``a`` and ``b`` ``(..., 3)``."""
    la, lb = luminance_8bit(a), luminance_8bit(b)
    return (np.maximum(la, lb) + 0.05) / (np.minimum(la, lb) + 0.05)
