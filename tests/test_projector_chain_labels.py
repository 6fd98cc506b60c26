"""Each 3D chain label stands by its own chain at projector scale (1024x768 at 150 %).

Reviewed screenshots (the ``screenshot`` command's cases): the blend tab's "align to
first" stood left of its chain's tip, under the naive sum's chain and as near the kept
reference's; the Euler tab's "Euler angles, lerped" stood 133 px below its chain in
English and across the gimbal's rings in Chinese. Measured from the widgets, not from the
label layout: each chain's joints and hand (``lesson_checks.chain_points``) projected by
the view's own camera, the bones between them sampled every pixel; the rings from the
lesson's angles at t (:func:`quatlab.math.gimbal.gimbal_rings`).
"""

from __future__ import annotations

import numpy as np
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
from quatlab.app.commands.screenshot import set_lesson_case
from quatlab.math.gimbal import gimbal_rings
from quatlab.rendering.gimbal import ring_points

pytestmark = pytest.mark.gl

ZOOM = 1.5

#: Pixels a plate may stand from its own chain: a line of text at 150 % (its plate is
#: 26-29 px high), so a label is at most a line away from what it names.
REACH = 24.0
#: A chain nearer than its own by this much (pixels) is the one a plate names; another
#: chain no farther than its own gap and a plate's height competes for it, and then the
#: one nearer the plate's middle is named (docs/projector.md, "Leaders").
NEARER = 4.0
#: The cases: the screenshot's own (preset and t None), and the Euler lesson with its
#: chains apart near the lock.
CASES = [("blend", None, None), ("euler", None, None), ("euler", "near_lock", 0.5)]


@pytest.fixture(scope="module", params=["en", "zh_CN"])
def projector_window(request, qapp):
    i18n.set_language(request.param)
    win = build_window((1024, 768), ZOOM)
    yield request.param, win
    win.close()
    win.deleteLater()
    settle()
    i18n.set_language("en")


@pytest.fixture
def shown(projector_window):
    """The window in its language and at its zoom: after each test both are put back
    process-wide (conftest), the window's texts and labels built in it kept."""
    lang, win = projector_window
    i18n.set_language(lang)
    zoom_kept(win)
    return lang, win


def _show(win, tab, preset, t):
    if preset is None:
        win.show_view(tab)
        settle(8)
        assert set_lesson_case(win, tab, None, None) is None
    else:
        show_case(win, tab, preset, t)
    settle(6)
    scene = win.views[tab].scene
    _grab(scene)  # lays the labels out
    return scene


def _problems(win, tab) -> list[str]:
    scene = win.views[tab].scene
    to_px = projector(scene)
    chains = shown_chains(scene)
    drawn = {k: dense(to_px(chain_points(scene, c))) for k, c in chains.items()}
    rings = []
    if tab == "euler":
        model = win.views[tab].model
        rings = [dense(to_px(r)) for r in ring_points(gimbal_rings(model.angles_at_param(),
                                                                    model.order))]
    bad = []
    for key, chain in chains.items():
        rect, text = chain.label.rect, chain.label.text
        assert rect is not None, f"{text!r} not drawn"
        # Chains in one pose share a plate, a line each: their lines are not measured.
        apart = {k: p for k, p in drawn.items() if k != key and (
            p.shape != drawn[key].shape or np.abs(p - drawn[key]).max() > 6.0)}
        if len(apart) < len(drawn) - 1:
            continue
        own = float(distances(rect, drawn[key]).min())
        if own > REACH:
            bad.append(f"{text!r} stands {own:.1f} px from its chain")
        for k, points in apart.items():
            other = float(distances(rect, points).min())
            if other + NEARER < own:
                bad.append(f"{text!r} is nearer {k} ({other:.1f} px) than its chain ({own:.1f})")
            elif other <= own + rect.height() and (
                    from_centre(rect, points) + NEARER < from_centre(rect, drawn[key])):
                bad.append(f"{text!r} is as near {k} ({other:.1f} px, its chain {own:.1f}) "
                           "and centred nearer it")
        for ring in rings:
            if float(distances(rect, ring).min()) < 1.0:
                bad.append(f"{text!r} lies across a gimbal ring")
    return bad


@pytest.mark.parametrize(("tab", "preset", "t"), CASES)
def test_each_chain_label_stands_by_its_own_chain(shown, tab, preset, t):
    lang, win = shown
    _show(win, tab, preset, t)
    problems = _problems(win, tab)
    assert problems == [], f"{lang} {tab} {preset} {t}: " + "; ".join(problems)
