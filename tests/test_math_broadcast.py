"""Leading shapes that do not broadcast: a ValueError naming the arguments and their shapes.

numpy's own message ("operands could not be broadcast together ...", "shape
mismatch: objects cannot be broadcast to a single shape") names no argument;
every function below must say which two arguments conflict, with the shapes
the caller passed. The expected messages are written out by hand.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from quatlab.math import angular_velocity as AV
from quatlab.math import interpolate as I
from quatlab.math import quaternion as Q
from quatlab.math.vector_rotation import rotation_between

Q3 = np.tile([1.0, 0.0, 0.0, 0.0], (3, 1))
Q2 = np.tile([0.0, 0.0, 0.0, 1.0], (2, 1))

CASES = [
    (lambda: Q.multiply(Q3, Q2), "a and b must broadcast: shapes (3, 4) and (2, 4)"),
    (lambda: Q.dot(Q3, Q2), "a and b must broadcast: shapes (3, 4) and (2, 4)"),
    (lambda: Q.angle_between(Q3, Q2), "a and b must broadcast: shapes (3, 4) and (2, 4)"),
    (lambda: Q.rotate_vector(Q3, np.ones((2, 3))),
     "q and v must broadcast: shapes (3, 4) and (2, 3)"),
    (lambda: Q.from_axis_angle(np.ones((3, 3)), np.ones(2)),
     "axis and angle must broadcast: shapes (3, 3) and (2,)"),
    (lambda: I.slerp(Q3, Q2, 0.5), "q0 and q1 must broadcast: shapes (3, 4) and (2, 4)"),
    (lambda: I.slerp(Q3, Q2, 0.5, shortest=False),
     "q0 and q1 must broadcast: shapes (3, 4) and (2, 4)"),
    (lambda: I.nlerp(Q3, Q2, 0.5), "q0 and q1 must broadcast: shapes (3, 4) and (2, 4)"),
    (lambda: I.slerp(Q3, Q3, [0.0, 1.0]), "q0 and t must broadcast: shapes (3, 4) and (2,)"),
    (lambda: I.nlerp(Q3[:1], Q3, [0.0, 1.0]),
     "q1 and t must broadcast: shapes (3, 4) and (2,)"),
    (lambda: I.squad(Q3, Q3, Q3, Q2, 0.5),
     "q0 and s1 must broadcast: shapes (3, 4) and (2, 4)"),
    (lambda: I.intermediate(Q3, Q2, Q3),
     "q_prev and q must broadcast: shapes (3, 4) and (2, 4)"),
    (lambda: AV.between(Q3, Q2, 1.0), "q0 and q1 must broadcast: shapes (3, 4) and (2, 4)"),
    (lambda: AV.between(Q3, Q3, np.ones(2)), "q0 and dt must broadcast: shapes (3, 4) and (2,)"),
    (lambda: AV.from_derivative(Q3, Q2), "q and q_dot must broadcast: shapes (3, 4) and (2, 4)"),
    (lambda: rotation_between(np.ones((3, 3)), np.ones((2, 3))),
     "a and b must broadcast: shapes (3, 3) and (2, 3)"),
]


@pytest.mark.parametrize("call, message", CASES)
def test_broadcast_mismatch_names_arguments_and_shapes(call, message):
    with pytest.raises(ValueError, match="^" + re.escape(message) + "$"):
        call()


def test_broadcasting_shapes_still_work():
    # (2, 1, 4) against (3, 4) and t of shape (3,): leading shape (2, 3).
    a = np.broadcast_to([1.0, 0.0, 0.0, 0.0], (2, 1, 4))
    b = np.broadcast_to([0.0, 0.0, 0.0, 1.0], (3, 4))
    assert I.slerp(a, b, [0.0, 0.5, 1.0]).shape == (2, 3, 4)
    assert Q.multiply(a, b).shape == (2, 3, 4)
    assert Q.rotate_vector(a, np.ones((3, 3))).shape == (2, 3, 3)
    assert Q.from_axis_angle([0.0, 0.0, 1.0], np.ones((2, 3))).shape == (2, 3, 4)
