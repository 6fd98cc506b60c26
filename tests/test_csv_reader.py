"""The CSV track reader's two paths: numpy's C reader for the common file, the line-by-line
reader for anything it refuses. They must agree on every file the fast one accepts, and the
fast one must accept nothing the line-by-line reader refuses (docs/formats.md, CSV tracks).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quatlab.app.io.tables import table_io as table_io
from quatlab.app.io.tracks import KeyframeFileError

COMMON = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True, width=64).map(repr),
    st.floats(-1e6, 1e6, width=32).map(lambda v: f"{v:.6g}"),
    st.integers(-10**6, 10**6).map(str),
)
# Numbers Python's float() reads, some of which numpy's reader may not.
ODD = st.sampled_from(["nan", "NaN", "inf", "-inf", "Infinity", "+1.5", " 0.25 ", "1e400",
                       "-0", ".5", "5.", "1_0", "\t2", "3\u00a0", "\u0663"])
JUNK = st.sampled_from(["0x10", "1,5", "", "abc", "1e", "--1", "1 2", "nan?"])
COMMENT_OR_BLANK = st.sampled_from(["", "   ", "# a comment", "  # indented comment", "\t"])
HEADERS = st.sampled_from(["time,w,x,y,z", "time,x,y,z,w", "t,qx,qy,qz,qw", "time,a,b,c,d",
                           "Time, W, X, Y, Z", "time,w,x,y,z", "time,w,x,y", "time,w,x,z,y"])


@st.composite
def csv_lines(draw):
    lines = []
    if draw(st.booleans()):
        lines.append(draw(HEADERS))
    for _ in range(draw(st.integers(0, 8))):
        if draw(st.integers(0, 4)) == 0:
            lines.append(draw(COMMENT_OR_BLANK))
        else:
            # Mostly plain lines, so that most files get as far as the fast
            # reader's answer; one line in ten has an odd number, junk or a
            # wrong field count.
            kind = draw(st.integers(0, 29))
            size = {0: 4, 1: 6}.get(kind, 5)
            fields = draw(st.lists(COMMON, min_size=size, max_size=size))
            if kind == 2:
                fields[draw(st.integers(0, size - 1))] = draw(JUNK)
            elif kind == 3:
                fields[draw(st.integers(0, size - 1))] = draw(ODD)
            lines.append(",".join(fields))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    return [line + ending for line in lines]


def _slow(lines):
    try:
        return table_io._parse_rows(Path("t.csv"), lines)
    except KeyframeFileError:
        return None


@settings(max_examples=400, deadline=None)
@given(csv_lines())
def test_the_fast_reader_agrees_with_the_line_by_line_one(lines):
    fast = table_io._parse_rows_fast(lines)
    slow = _slow(lines)
    if fast is None:
        return  # the line-by-line reader decides (and names the line)
    assert slow is not None, "the fast reader accepted a file the other one refuses"
    rows, declared, times, stored = fast
    assert rows == slow[0] and declared == slow[1]
    np.testing.assert_array_equal(times, np.array(slow[2], dtype=float))
    np.testing.assert_array_equal(stored, np.array(slow[3], dtype=float).reshape(-1, 4))


@pytest.mark.parametrize("ending", ["\n", "\r\n"])
def test_a_plain_file_takes_the_fast_reader(ending):
    lines = [f"{x}{ending}" for x in
             ["# exported", "time,w,x,y,z", "0,1,0,0,0", "", "0.5,0.7071,0,0,0.7071"]]
    rows, declared, times, stored = table_io._parse_rows_fast(lines)
    assert rows == [2, 4] and declared == "wxyz"
    assert times.tolist() == [0.0, 0.5] and stored[1].tolist() == [0.7071, 0, 0, 0.7071]


def test_a_bad_line_is_still_named():
    data = b"time,w,x,y,z\n0,1,0,0,0\n1,1,0,zero,0\n"
    with pytest.raises(KeyframeFileError, match="line 3: 'zero' is not a number"):
        table_io.load_csv("t.csv", data)
