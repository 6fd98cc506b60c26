"""The SQUAD track tab on a projector: a 3D view tall enough, four chains large and apart.

Geometry from the view's own camera (:func:`tests.test_scene_explains._projector`)
and chains rebuilt from each method's rotation (the model's, at the slider
time) and the root the scene hangs it from, with
:func:`quatlab.rendering.chain.chain_frames`, not from the scene's items.
"""

from __future__ import annotations

import numpy as np
import pytest
from PyQt6 import QtWidgets
from test_blend_view import _inside
from test_lesson_scene_layout import lesson_tab  # noqa: F401 - the fixture
from test_scene_explains import _projector

from quatlab.app.model.track_lesson import TrackModel
from quatlab.rendering.chain import ROOT, chain_frames

pytestmark = pytest.mark.gl

#: Shortest chain (sum of its three bones' lengths on screen, px), even seen end-on.
LEAST_CHAIN_PX = 50.0
#: Least distance (px) between two chains' roots on screen: told apart.
LEAST_APART_PX = 60.0


@pytest.fixture
def squad_tab(lesson_tab):  # noqa: F811 - the imported fixture
    """The window at ``size`` on the SQUAD tab showing ``preset``."""
    return lambda preset, size: lesson_tab("squad", preset, size)


def _shown_chains(view) -> dict[str, np.ndarray]:
    """Joint positions (4, 3) of each method's chain at the slider time."""
    out = {}
    for k, q in view.model.at_param().items():
        if np.all(np.isfinite(q)):
            joints, _rot = chain_frames(q, root_only=view.scene.root_only())
            out[k] = joints + (view.scene._chains[k].root - ROOT)
    return out


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)])
@pytest.mark.parametrize("preset", list(TrackModel.PRESETS))
def test_squad_chains_are_large_and_apart(squad_tab, preset, size):
    """At 1280x720 the view was 180 px tall under the key table, the four chains
    on one root piled into a 90 x 115 px patch; at 1024x768 the view was 190 px."""
    view = squad_tab(preset, size)
    scene = view.scene
    w, h = scene.width(), scene.height()
    assert h >= 240, (w, h)
    lo, hi = view.model.param_range
    seen = []
    for f in (0.0, 0.25, 0.5, 0.75, 1.0):
        view.model.set_param(lo + f * (hi - lo))
        QtWidgets.QApplication.processEvents()
        to_px = _projector(scene)
        chains = {k: to_px(j) for k, j in _shown_chains(view).items()}
        assert len(chains) == len(TrackModel.SHOWN), (preset, f, list(chains))
        for k, px in chains.items():
            assert _inside(px, w, h), (preset, f, k, px)
            length = float(np.linalg.norm(np.diff(px, axis=0), axis=1).sum())
            assert length >= LEAST_CHAIN_PX, (preset, f, k, round(length, 1))
            seen.append(px)
        keys = list(chains)
        for i, a in enumerate(keys):
            for b in keys[i + 1:]:
                apart = float(np.linalg.norm(chains[a][0] - chains[b][0]))
                assert apart >= LEAST_APART_PX, (preset, f, a, b, round(apart, 1))
    # Framed to fill the view: over the track the chains span most of its
    # width or its height, not a patch in the middle.
    seen = np.vstack(seen)
    span = seen.max(axis=0) - seen.min(axis=0)
    assert span[0] >= 0.6 * w or span[1] >= 0.6 * h, (preset, span, (w, h))


def test_a_long_refusal_wraps_in_the_column(squad_tab, qtbot):
    """The key editor's message stands in the column beside the view: a long one
    wraps within the table's width instead of widening the column (which would
    narrow the 3D view and re-frame it)."""
    view = squad_tab("four_keys", (1024, 768))
    width = view.scene.width()
    view.keys._refuse("key 2's time must be finite and lie strictly between 1 and 3 s "
                      "(times strictly increase), and this sentence goes on much longer")
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
        qtbot.wait(10)
    message = view.keys.message
    assert message.isVisible() and message.width() <= view.keys.table.width() + 1
    assert message.height() >= 2 * message.fontMetrics().height()  # wrapped
    assert view.scene.width() == width


def test_the_angle_plot_says_what_its_angle_is_from(squad_tab):
    """The SQUAD tab's angle plot is the rotation from the first key, which is not the
    turning so far: about changing axes the four-key track turns 90° + 60° by t = 2
    while it stands 104° from where it began. Titled "path angle", as the two-key
    tab's (one axis: the two agree), a class added up the speed plot and found it
    wrong. The title names its reference, as the wrap tab's does; the plotted value
    is checked against scipy's angle between the first key and the pose at t = 2."""
    from scipy.spatial.transform import Rotation

    from quatlab.math.track_presets import PRESETS

    view = squad_tab("four_keys", (1400, 900))
    axis = view.plots.plots["angle"].getAxis("left")
    assert axis.labelText == "angle from the first key (°)", axis.labelText
    keys = np.asarray(PRESETS["four_keys"]["keys"])   # (w, x, y, z)
    t, y = view.plots.curve_item("angle", "squad").getData()
    k = int(np.argmin(np.abs(t - 2.0)))
    assert t[k] == pytest.approx(2.0, abs=1e-9)
    first, at_key = (Rotation.from_quat(q[[1, 2, 3, 0]]) for q in (keys[0], keys[2]))
    assert y[k] == pytest.approx(np.degrees((first.inv() * at_key).magnitude()), abs=1e-6)
    assert y[k] < 90.0 + 60.0 - 30.0   # far from the turning so far
