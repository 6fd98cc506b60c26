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
