"""Each engine's label on the "same keys, six engines" tab names its own chain.

At 1024x768 at 150 % the six chains stand in one row about 135 px apart, and
"PlayCanvas / glTFast" (255 px on one line) stood over the three.js chain with a
short leader to its own: a class read it as naming three.js. Measured from the
widgets: each chain's joints and hand (``lesson_checks.chain_points``) projected by
the view's own camera, the bones sampled every pixel, against each plate as drawn
(``Label.rect``). A plate's middle is nearer its own chain than any other, and no
plate covers another chain. Every preset of the tab at t = 0, 0.5 and 1, at both
projector sizes (docs/projector.md), in English and Chinese.
"""

from __future__ import annotations

import pytest
from callout_checks import distances
from lesson_checks import (
    build_window,
    chain_points,
    dense,
    from_centre,
    settle,
    show_case,
    shown_chains,
    zoom_kept,
)
from test_scene_explains import _projector as projector
from test_scene_gl import _grab

from quatlab.app import i18n
from quatlab.math.same_keys import PRESETS

pytestmark = pytest.mark.gl

TAB = "engines"
#: The projector sizes: the lecture hall's 1024x768 at 150 %, and 1280x720.
SIZES = {"1024x768@1.5": ((1024, 768), 1.5), "1280x720": ((1280, 720), 1.0)}
#: A chain nearer a plate's edges than its own by this much (pixels) is the one it
#: names; one no farther than its own gap and a plate's height competes for it, and then
#: the plate's middle must be nearer its own chain (docs/projector.md, "Leaders"): the
#: middle of "PlayCanvas / glTFast" was 3.5 px nearer three.js.
NEARER = 4.0


@pytest.fixture(scope="module", params=[(s, lang) for s in SIZES for lang in ("en", "zh_CN")],
                ids=lambda p: f"{p[0]}-{p[1]}")
def engines_window(request, qapp):
    size, lang = request.param
    i18n.set_language(lang)
    win = build_window(*SIZES[size])
    yield size, lang, win
    win.close()
    win.deleteLater()
    settle()
    i18n.set_language("en")


def label_problems(scene) -> list[str]:
    """What reads wrong about the scene's chain labels as last drawn."""
    to_px = projector(scene)
    chains = shown_chains(scene)
    drawn = {k: dense(to_px(chain_points(scene, c))) for k, c in chains.items()}
    bad = []
    for key, chain in chains.items():
        rect, text = chain.label.rect, chain.label.text
        if rect is None:
            bad.append(f"{text!r} not drawn")
            continue
        own, own_c = float(distances(rect, drawn[key]).min()), from_centre(rect, drawn[key])
        for other, points in drawn.items():
            if other == key:
                continue
            gap, centre = float(distances(rect, points).min()), from_centre(rect, points)
            if gap + NEARER < own:
                bad.append(f"{text!r} is {gap:.1f} px from {other}, {own:.1f} from its chain")
            elif gap <= own + rect.height() and centre < own_c:
                bad.append(f"{text!r} is as near {other} ({gap:.1f} px, its chain {own:.1f}) "
                           f"and its middle nearer ({centre:.1f} px, its chain {own_c:.1f})")
            if float(distances(rect, points).min()) == 0.0:
                bad.append(f"{text!r}'s plate covers {other}")
    return bad


def _problems_at(win, preset, t) -> list[str]:
    show_case(win, TAB, preset, t)
    settle(6)
    scene = win.views[TAB].scene
    _grab(scene)  # lays the labels out
    return [f"t={t}: {p}" for p in label_problems(scene)]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_each_engine_label_names_its_own_chain(engines_window, preset):
    size, lang, win = engines_window
    i18n.set_language(lang)
    zoom_kept(win)
    problems = [p for t in (0.0, 0.5, 1.0) for p in _problems_at(win, preset, t)]
    assert problems == [], f"{size} {lang} {preset}: " + "; ".join(problems)
