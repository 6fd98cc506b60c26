"""A lesson tab as a class sees it on a projector, measured from the widgets themselves.

Shared by ``tests/test_projector_lessons.py`` (a representative set, in CI) and
``benchmarks/bench_projector_lessons.py`` (every tab x preset x t at both
sizes). One window per size is built and the cases are walked in it
(:func:`show_case`); :func:`check_case` returns what is wrong, in words:

* **framing**: every chain shown lies inside its 3D view, projected by the
  view's own camera from its rotation and root (``chain_frames``, the hand
  included), and the chains together fill at least :data:`MIN_FILL` of the
  view's width or height; the camera is the one the view frames the preset
  with (``reset_camera`` gives it again);
* **labels**: no two labels the 3D view drew overlap, and each lies in the view;
* **ticks**: no two tick labels of a plot overlap (both axes, measured from
  the axes' own draw specs), and each lies inside the plots' widget;
* **coinciding chains**: a chain drawn striped over another in the same
  pose leaves pixels of both colours in the rendered frame;
* **one story** (the two-key tab): the readouts' table, the sentence at t,
  the angle plot at its cursor and the 3D turn label give the same path
  angle for each method at t (or all say there is none); in the wrap tab
  the sentence and the plot's dots.
"""

from __future__ import annotations

import re

import numpy as np
from PyQt6 import QtCore, QtGui, QtWidgets
from test_scene_explains import _projector as projector  # the view's own camera, world -> px
from test_scene_gl import _grab
from text_layout import tick_text_rects

from quatlab.app.i18n import _
from quatlab.app.model import presets
from quatlab.app.model.blend_lesson import BlendModel
from quatlab.app.model.euler_lesson import EulerModel
from quatlab.app.model.integrate_lesson import IntegrateModel
from quatlab.app.model.track_lesson import TrackModel
from quatlab.app.model.wrap_lesson import WrapModel
from quatlab.math.curves import METHOD_LABELS

#: Every lesson tab with a chain scene, and its presets.
TABS = {
    "main": tuple(presets.names()),
    "squad": tuple(TrackModel.PRESETS),
    "blend": tuple(BlendModel.PRESETS),
    "euler": tuple(EulerModel.PRESETS),
    "integrate": tuple(IntegrateModel.PRESETS),
    "wrap": tuple(WrapModel.PRESETS),
}
#: The slider positions looked at, as fractions of the range.
TS = (0.0, 0.5, 0.75, 1.0)
#: Window sizes and zooms: a classroom screen, and a lecture hall's projector.
SIZES = {"1280x720": ((1280, 720), 1.0), "1024x768@150%": ((1024, 768), 1.5)}
#: The chains together, over a preset's sweep, span at least this share of the
#: view's width or height; and each chain, at every t, at least MIN_CHAIN of the
#: view's smaller side (a chain seen end on is short; a knot is a dot).
MIN_FILL = 0.30  # measured: 0.355 at least (the Euler tab at 150 %)
MIN_CHAIN = 0.06
#: Pixels of each colour a striped pair must leave on screen.
MIN_COLOUR_PX = 50  # inside the chain's box: 74 at least shown, 25 with the chain hidden


def settle(rounds: int = 4) -> None:
    for _round in range(rounds):
        QtWidgets.QApplication.processEvents()


def build_window(size: tuple[int, int], zoom: float):
    """The main window at ``size`` and ``zoom``, shown and laid out."""
    from quatlab.app.qt.window import MainWindow

    win = MainWindow()
    # Also at 100 %: zoom is the application font, and a window built after one
    # at 150 % (the other size's module-wide window) started at 150 %.
    win.set_zoom(zoom)
    win.status.clearMessage()
    win.resize(*size)
    win.show()
    settle(8)
    return win


def zoom_kept(win) -> None:
    """Draw ``win`` at its zoom again: conftest puts the drawing scale (line widths, 3D
    labels) back to 100 % after each test, and a module-wide window at 150 % drew
    every test after its first with 150 % text but 100 % labels and lines."""
    from quatlab.rendering import themes

    if themes.scale() != win.draw_scale():
        win.set_zoom(win.zoom)
        win.status.clearMessage()
        settle(8)


def show_case(win, tab: str, preset: str, t: float):
    """Tab ``tab`` of ``win`` on ``preset`` at the fraction ``t`` of its slider; its view."""
    from quatlab.app.commands.screenshot import set_lesson_case

    if win.current_view().objectName() != tab:
        win.show_view(tab)
        settle(8)
    if tab in win.LESSON_BOUND_VIEWS:
        if win.state.preset != preset:
            win.state.load_preset(preset)
        win.state.set_t(t)
    else:
        problem = set_lesson_case(win, tab, preset, t)
        assert problem is None, problem
    settle()
    return win.views[tab]


def chain_points(scene, chain) -> np.ndarray:
    """World points of a posed chain: its joints and the hand's top (``_frames``)."""
    positions, matrices = scene._frames(chain.q, chain.root)
    hand = positions[-1] + matrices[-1][:, 2] * scene._hand
    return np.vstack([positions, hand])


def dense(px: np.ndarray) -> np.ndarray:
    """Points every pixel along the polyline ``px`` (N, 2): a chain's bones as drawn."""
    out = [px[:1]]
    for a, b in zip(px[:-1], px[1:], strict=True):
        n = max(int(np.ceil(np.hypot(*(b - a)))), 1)
        out.append(a + (b - a) * (np.arange(1, n + 1) / n)[:, None])
    return np.vstack(out)


def from_centre(rect, points: np.ndarray) -> float:
    """Pixels from ``rect``'s centre to the nearest of ``points`` (N, 2)."""
    c = rect.center()
    return float(np.hypot(points[:, 0] - c.x(), points[:, 1] - c.y()).min())


def shown_chains(scene) -> dict:
    return {k: c for k, c in scene._chains.items()
            if c.body.visible() and c.q is not None and np.all(np.isfinite(c.q))}


def chain_boxes(scene) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each shown chain's projected bounds (lo, hi), widget pixels."""
    to_px = projector(scene)
    out = {}
    for key, chain in shown_chains(scene).items():
        px = to_px(chain_points(scene, chain))
        out[key] = (px.min(axis=0), px.max(axis=0))
    return out


def fill(scene, boxes) -> float:
    """The share of the view's width or height the boxes span together (the larger)."""
    if not boxes:
        return 0.0
    lo = np.min([b[0] for b in boxes], axis=0)
    hi = np.max([b[1] for b in boxes], axis=0)
    return float(max((hi[0] - lo[0]) / scene.width(), (hi[1] - lo[1]) / scene.height()))


def check_framing(scene) -> list[str]:
    """Chains inside the view, none a dot, and the camera the preset's framing.

    How much of the view the chains fill together is a property of the
    sweep, not of one t (a chain turning about the view axis is short at
    one t and long at the next): :func:`check_sweep_fill` takes the boxes
    of every t of a preset.
    """
    bad = []
    w, h = scene.width(), scene.height()
    for key, (lo, hi) in chain_boxes(scene).items():
        if lo[0] < -1 or lo[1] < -1 or hi[0] > w + 1 or hi[1] > h + 1:
            bad.append(f"chain {key} leaves the {w}x{h} view: {lo.round()}-{hi.round()}")
        if max(hi[0] - lo[0], hi[1] - lo[1]) < MIN_CHAIN * min(w, h):
            bad.append(f"chain {key} is a dot: {(hi - lo).round()} px")
    before = scene.cameraParams()
    scene.reset_camera()
    after = scene.cameraParams()
    if any(abs(before[k] - after[k]) > 1e-6 for k in ("distance", "elevation", "azimuth")) \
            or (before["center"] - after["center"]).length() > 1e-6:
        bad.append("the camera is not the preset's framing")
    return bad


def check_labels(scene) -> list[str]:
    bad = []
    view = QtCore.QRectF(0, 0, scene.width(), scene.height())
    placed = [(t, r) for t, r in scene.placed_labels() if t]
    for i, (a, ra) in enumerate(placed):
        if not view.adjusted(-1, -1, 1, 1).contains(ra):
            bad.append(f"label {a!r} leaves the view: {ra}")
        for b, rb in placed[i + 1:]:
            if ra.adjusted(1, 1, -1, -1).intersects(rb.adjusted(1, 1, -1, -1)):
                bad.append(f"labels {a!r} and {b!r} overlap")
    # A leader line runs from its anchor to its own plate, through no other.
    for anchor, end in scene.placed_leaders():
        for text, rect in placed:
            inner = rect.adjusted(2, 2, -2, -2)
            if rect.adjusted(-1, -1, 1, 1).contains(end):
                continue  # its own
            n = max(int(np.hypot(end.x() - anchor.x(), end.y() - anchor.y())), 1)
            if any(inner.contains(QtCore.QPointF(anchor.x() + (end.x() - anchor.x()) * k / n,
                                                 anchor.y() + (end.y() - anchor.y()) * k / n))
                   for k in range(n + 1)):
                bad.append(f"a leader runs through label {text!r}")
    return bad


def check_ticks(plots) -> list[str]:
    bad = []
    view = plots._view
    visible = QtCore.QRectF(view.mapToScene(view.viewport().rect()).boundingRect())
    for name, item in plots.plots.items():
        rects = []
        for side in ("left", "bottom"):
            axis = item.getAxis(side)
            if axis.isVisible():
                rects += [(r, t, side) for r, t in tick_text_rects(axis)]
        for i, (ra, ta, sa) in enumerate(rects):
            if not visible.adjusted(-1, -1, 1, 1).contains(ra):
                bad.append(f"{name} {sa} tick {ta!r} is cut by the plots' edge")
            for rb, tb, sb in rects[i + 1:]:
                if ra.adjusted(0.5, 0.5, -0.5, -0.5).intersects(rb.adjusted(0.5, 0.5, -0.5, -0.5)):
                    bad.append(f"{name}: tick {ta!r} ({sa}) overlaps {tb!r} ({sb})")
    return bad


def _hue(rgb) -> float:
    r, g, b = rgb
    mx, mn = max(rgb), min(rgb)
    d = (mx - mn) or 1.0
    h = ((g - b) / d) % 6 if mx == r else (b - r) / d + 2 if mx == g else (r - g) / d + 4
    return 60.0 * h


def _crop(img: np.ndarray, box) -> np.ndarray:
    """The part of ``img`` inside ``box`` ((x0, y0), (x1, y1) pixels; None: all of it)."""
    if box is None:
        return img
    (x0, y0), (x1, y1) = (np.floor(box[0]).astype(int), np.ceil(box[1]).astype(int))
    return img[max(y0, 0): max(y1, 0), max(x0, 0): max(x1, 0)]


def count_hue(img: np.ndarray, rgb, tol: float = 10.0, box=None) -> int:
    """Pixels of ``img`` (inside ``box``, if given) near the hue of ``rgb`` (floats)
    and clearly coloured."""
    c = _crop(img, box).astype(np.float64) / 255.0
    if not c.size:
        return 0
    mx, mn = c.max(-1), c.min(-1)
    sat = np.where(mx > 0, (mx - mn) / np.maximum(mx, 1e-9), 0.0)
    r, g, b = np.moveaxis(c, -1, 0)
    d = np.where(mx > mn, mx - mn, 1.0)
    hue = np.select([mx == r, mx == g], [((g - b) / d) % 6.0, (b - r) / d + 2.0],
                    (r - g) / d + 4.0) * 60.0
    diff = np.abs((hue - _hue(rgb) + 180.0) % 360.0 - 180.0)
    return int(np.count_nonzero((diff <= tol) & (sat >= 0.25) & (mx > 0.15)))


def count_grey(img: np.ndarray, box) -> int:
    """Pale grey pixels (a lit grey chain) inside ``box`` (lo, hi pixels)."""
    part = _crop(img, box).astype(np.float64) / 255.0
    if not part.size:
        return 0
    mx, mn = part.max(-1), part.min(-1)
    return int(np.count_nonzero((mx - mn < 0.06) & (mx > 0.35) & (mx < 0.93)))


def _saturated(rgb) -> bool:
    return max(rgb) - min(rgb) > 0.15 * max(max(rgb), 1e-9)


def check_coincident(scene, img: np.ndarray) -> list[str]:
    bad = []
    shown = shown_chains(scene)
    boxes = chain_boxes(scene)
    # The note saying what stripes are is never shown without stripes.
    if any(n.startswith("striped:") for n in scene.notes()) and not scene.coincident():
        bad.append("the stripes' note is shown with no chain striped")
    for key in scene.coincident():
        chain = scene._chains[key]
        for other_key, other in shown.items():
            if other is chain or other.index > chain.index \
                    or not np.array_equal(other.root, chain.root):
                continue
            for k, c in ((key, chain), (other_key, other)):
                # Inside the chain's own box: its labels, arcs and trails elsewhere
                # carry the same hue (1613 px with the chain itself hidden).
                n = (count_hue(img, c.color[:3], box=boxes[k]) if _saturated(c.color[:3])
                     else count_grey(img, boxes[k]))
                if n < MIN_COLOUR_PX:
                    bad.append(f"{k} has {n} pixels of its colour where it meets {other_key}")
            break
    return bad


def _number(text: str | None) -> float | None:
    """The first number of ``text`` (None: a dash, or no text)."""
    if not text:
        return None
    m = re.search(r"−?\d+(?:\.\d+)?", text)
    return float(m.group(0).replace("−", "-")) if m and "—" not in text[: m.start()] else None


def _plot_value(plots, plot: str, name: str) -> float | None:
    """The curve ``name`` of ``plot`` at the cursor, as drawn; None where it has no value."""
    item = plots.curve_item(plot, name)
    x, y = item.xData, item.yData  # all samples (getData gives the downsampled ones)
    if x is None or not len(x) or not item.isVisible():
        return None
    v = float(np.interp(plots.cursor(), x, y))
    return v if np.isfinite(v) else None


def dot_values(plots, plot: str) -> list[float]:
    """The y of every dot the plot draws on its curves at the cursor."""
    data = plots._dots[plot].data
    return [float(y) for y in data["y"]] if len(data) else []


def _agree(values: dict[str, float | None], tol: float) -> bool:
    got = list(values.values())
    if all(v is None for v in got):
        return True
    if any(v is None for v in got):
        return False
    return max(got) - min(got) <= tol


def check_story(win, tab: str) -> list[str]:
    bad = []
    if tab == "main":
        sentence = QtGui.QTextDocument()
        sentence.setHtml(win.explanation_t.text())
        text = sentence.toPlainText().replace("\u00a0", " ").replace("\u2060", "")
        fam = win.state.chain_family
        keys = {f"naive_{fam}": "naive", f"shortest_{fam}": "shortest"}
        for m, label in METHOD_LABELS.items():
            name = _(label)
            hit = re.search(re.escape(name) + r": ([^;]*)", text)
            values = {
                "table": _number(win.readouts.cell(m, "angle").text()),
                "text": _number(hit.group(1)) if hit else None,
                "plot": _plot_value(win.lesson.plots, "angle", m),
            }
            if m in keys:
                values["3D"] = _number(win.lesson.scene.angle_label(keys[m]))
            if not _agree(values, 0.051):
                bad.append(f"{name}: {values}")
    elif tab == "wrap":
        view = win.views["wrap"]
        doc = QtGui.QTextDocument()
        doc.setHtml(view.explanation.text())
        text = doc.toPlainText().replace("\u00a0", " ").replace("\u2060", "")
        hit = re.search(r"At t = [\d.]+: Euler lerp is (\S+) from the start pose, naive NLERP "
                        r"(.*?), SLERP (\S+)\.$", text)
        if hit is None:
            return ["wrap: no sentence at t"]
        dots = dot_values(view.plots, "angle")
        for k, said in zip(("euler", "naive", "slerp"), hit.groups(), strict=True):
            v = _number(said)
            if v is None:
                if _plot_value(view.plots, "angle", k) is not None:
                    bad.append(f"wrap {k}: the text has no angle, the plot has one")
            elif not any(abs(v - d) <= 0.051 for d in dots):
                bad.append(f"wrap {k}: text {v}, plot dots {dots}")
    return bad


def check_case(win, tab: str, boxes: list | None = None) -> list[str]:
    """What is wrong with the tab shown now (see the module docstring); the chains'
    boxes are added to ``boxes`` for :func:`check_sweep_fill`."""
    view = win.views[tab]
    scene = view.scene
    img = _grab(scene)  # also lays the labels out
    if boxes is not None:
        boxes.extend(chain_boxes(scene).values())
    return (check_framing(scene) + check_labels(scene) + check_ticks(view.plots)
            + check_coincident(scene, img) + check_story(win, tab))


def check_sweep_fill(scene, boxes) -> list[str]:
    """The chains over a preset's sweep fill at least MIN_FILL of the view."""
    f = fill(scene, boxes)
    return [] if f >= MIN_FILL else [f"the chains fill {f:.0%} of the view over the sweep"]
