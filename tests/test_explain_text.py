"""The lesson's plain-words text at t says what the picture shows (docs/curves.md).

No Qt. Expected angles are hand-worked from the presets (docs/presets.md):
small-1 turns 1° in all, so t = 0.25 is 0.25°; q to -q never changes the pose.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from quatlab.app.model.explain import explain, explain_at_t
from quatlab.app.model.state import LessonState
from quatlab.math import quaternion as Q


def _row(text: str, label: str) -> str:
    """The part of the sentence about one method (up to the next ';' or the end)."""
    start = text.index(f"{label}:")
    end = text.find(";", start)
    return text[start : end if end >= 0 else len(text)].rstrip(".")


@pytest.mark.parametrize("t", [0.75, 1.0])
def test_q_to_minus_q_naive_nlerp_reads_360_and_says_the_pose_did_not_turn(t):
    """The path angle the table and the plot show (360.00), and why nothing turned:
    it once said 0.00° beside a table reading 360.00."""
    s = LessonState.from_preset("q-to-minus-q", t=t)
    row = _row(explain_at_t(s), "naive NLERP")
    assert row.split("(")[0].strip().endswith("360.00°")
    assert "not turned" in row and "−q0" in row and "same pose" in row


def test_q_to_minus_q_naive_slerp_at_1_is_a_sign_change_not_a_turn():
    s = LessonState.from_preset("q-to-minus-q", t=1.0)
    row = _row(explain_at_t(s), "naive SLERP")
    assert "not turned" in row and "360.00°" in row


def test_a_real_long_way_turn_is_called_a_turn():
    # q1 = -(2° about z): naive SLERP walks 360 - 2 = 358° and really turns.
    s = LessonState.from_preset("negated-20", t=1.0)
    s.set_endpoint(1, -Q.from_axis_angle([0, 0, 1], math.radians(2.0)))
    row = _row(explain_at_t(s), "naive SLERP")
    assert "358.00°" in row and "really turning" in row
    assert "not turned" not in row


def test_small_1_text_uses_the_table_digits():
    s = LessonState.from_preset("small-1", t=0.25)
    text = explain_at_t(s)
    # The table shows f"{angle:.2f}": 0.25 (hand-worked: a quarter of 1°).
    assert _row(text, "shortest SLERP").endswith("0.25°")
    assert "0.2°" not in text
    s.set_t(0.75)
    assert _row(explain_at_t(s), "naive NLERP").endswith("0.75°")


def test_small_1_speed_range_is_not_one_number_twice():
    s = LessonState.from_preset("small-1")
    para = next(p for p in explain(s) if "speed" in p)
    # No-break spaces join a number to its unit (and a word joiner "°/" to "t").
    plain = para.replace("\u00a0", " ").replace("\u2060", "")
    lo, hi = (float(v) for v in re.search(r"from ([\d.]+) to ([\d.]+) °/t", plain).groups())
    assert lo != hi
    # Oracle: NLERP's speed by central finite differences at t = 0 and 0.5.
    q0, q1 = s.q0, s.q1

    def nlerp(t):
        m = (1 - t) * q0 + t * q1
        return m / np.linalg.norm(m)

    h = 1e-5
    fd = [math.degrees(2 * np.linalg.norm((nlerp(t + h) - nlerp(t - h)) / (2 * h)))
          for t in (h, 0.5)]
    assert lo == pytest.approx(fd[0], abs=2e-5) and hi == pytest.approx(fd[1], abs=2e-5)
    # The heading must not claim a visible variation the numbers deny.
    assert "almost" in para


def test_large_speed_variation_keeps_the_plain_heading():
    para = next(p for p in explain(LessonState.from_preset("half-turn")) if "speed" in p)
    assert "almost" not in para and "×2.000" in para
