"""Every lesson preset's title and text write angles as the rest of the window does: "°".

The plots, readouts and most lesson texts print "90°"; a few texts said "90 deg"
(the SQUAD lesson put "120 deg per second" beside "60°/s"), and a class reads two
notations as two quantities (docs/conventions.md, "Radians in the API, degrees in the UI").
"""

from __future__ import annotations

import re

import pytest

from quatlab.app.model import presets as two_key
from quatlab.app.model import wrap_lesson
from quatlab.math import blend, gimbal, integrate, same_keys, track_presets

_TABLES = {
    "blend": blend.PRESETS,
    "euler": gimbal.PRESETS,
    "integrate": integrate.PRESETS,
    "engines": same_keys.PRESETS,
    "squad": track_presets.PRESETS,
    "wrap": wrap_lesson.PRESETS,
}
_TEXTS = [(f"{tab} {key} {field}", str(p[field]))
          for tab, table in _TABLES.items() for key, p in table.items()
          for field in ("label", "description")]
_TEXTS += [(f"two keys #{i}", str(text)) for i, text in enumerate(two_key.TEXTS)]

#: "deg" as a unit after a number or a range ("90 deg", "+-180 deg", "360 deg)").
_DEG_WORD = re.compile(r"\bdeg\b")
#: "+-" typed for "±", and "->" for an arrow, in text a class reads.
_ASCII_STANDINS = re.compile(r"\+-\d|-> ")


def test_there_are_lesson_texts_to_check():
    assert len(_TEXTS) >= 40


@pytest.mark.parametrize(("where", "text"), _TEXTS, ids=[w for w, _t in _TEXTS])
def test_lesson_text_writes_degrees_as_the_window_does(where, text):
    assert not _DEG_WORD.search(text), f"{where}: 'deg' in {text!r}"
    assert not _ASCII_STANDINS.search(text), f"{where}: ASCII stand-in in {text!r}"
