"""The asset as it ships in the rig view: textures, material colours, the bone overlay, the legend.

Pixel oracles (Xvfb): colours taken from the files themselves by the test
(a texture decoded by Pillow from the GLB's bytes, a material's
``baseColorFactor`` read from the JSON) are looked for in the render by
hue, since the light scales their brightness; grey clay has none of them.
"""

from __future__ import annotations

import colorsys
import io
import json
import re
import struct
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from PyQt6 import QtGui, QtWidgets

from quatlab.app.qt import keyframes_view as KV
from quatlab.app.qt.theme_menu import set_theme

DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture
def view(keyframes_window) -> KV.KeyframesView:
    return keyframes_window.views["keyframes"]


def open_rig(view, path, players="spec") -> None:
    view.open(path)
    assert view.rig_panel.wait_framed()
    view.playback.set_players(players)
    QtWidgets.QApplication.processEvents()


def scene_rgb(scene) -> np.ndarray:
    img = scene.grabFramebuffer().convertToFormat(QtGui.QImage.Format.Format_RGB888)
    ptr = img.constBits()
    ptr.setsize(img.sizeInBytes())
    rows = np.frombuffer(ptr, np.uint8).reshape(img.height(), img.bytesPerLine())
    return rows[:, : 3 * img.width()].reshape(img.height(), img.width(), 3).astype(float)


def hues(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Hue (degrees) and saturation of each pixel ``(..., 3)`` (0..255)."""
    c = rgb.reshape(-1, 3) / 255.0
    hsv = np.array([colorsys.rgb_to_hsv(*p) for p in c])
    return hsv[:, 0] * 360.0, hsv[:, 1]


def pixels_of_hue(rgb: np.ndarray, hue: float, *, tol: float = 8.0, least_sat: float = 0.3) -> int:
    small = rgb[::2, ::2]  # every other pixel: plenty, and four times faster
    h, s = hues(small)
    d = np.abs((h - hue + 180.0) % 360.0 - 180.0)
    return int(np.count_nonzero((d < tol) & (s > least_sat)))


def glb_image(path: Path) -> np.ndarray:
    data = path.read_bytes()
    (json_len,) = struct.unpack_from("<I", data, 12)
    doc = json.loads(data[20:20 + json_len])
    view = doc["bufferViews"][doc["images"][0]["bufferView"]]
    start = 20 + json_len + 8 + view.get("byteOffset", 0)
    return np.asarray(Image.open(io.BytesIO(data[start:start + view["byteLength"]]))
                      .convert("RGB"), dtype=float)


def dominant_hue(image: np.ndarray, uv: np.ndarray) -> float:
    """The most common hue (a 10-degree histogram) of the saturated texels the vertices'
    texture coordinates ``uv`` land on (glTF: (0, 0) the image's top left)."""
    h_px, w_px = image.shape[:2]
    x = np.clip((uv[:, 0] % 1.0) * w_px, 0, w_px - 1).astype(int)
    y = np.clip((uv[:, 1] % 1.0) * h_px, 0, h_px - 1).astype(int)
    h, s = hues(image[y, x])
    counts, edges = np.histogram(h[s > 0.4], bins=36, range=(0, 360))
    k = int(np.argmax(counts))
    return 0.5 * (edges[k] + edges[k + 1])


@pytest.mark.parametrize("name", ["Fox.glb", "CesiumMan.glb"])
def test_the_texture_colours_appear_in_the_render(view, name):
    path = DATA / "gltf" / name
    open_rig(view, path)
    uv = np.concatenate([m.uv for m in view.playback.rig.meshes if m.uv is not None])
    hue = dominant_hue(glb_image(path), uv)
    rgb = scene_rgb(view.rig_panel.scene)
    # Grey clay has no saturated pixel of the texture's colour; the fox is
    # mostly orange fur, CesiumMan's suit has its blue stripes.
    assert pixels_of_hue(rgb, hue) > 300, hue


def test_a_materials_base_colour_appears_without_a_texture(view):
    path = DATA / "gltf" / "BoxAnimated.gltf"
    doc = json.loads(path.read_text())
    outer = next(m for m in doc["materials"] if m["name"] == "outer")
    r, g, b = outer["pbrMetallicRoughness"]["baseColorFactor"][:3]
    hue = colorsys.rgb_to_hsv(r, g, b)[0] * 360.0  # sRGB encoding keeps the hue nearly
    open_rig(view, path)
    assert pixels_of_hue(scene_rgb(view.rig_panel.scene), hue, tol=10.0, least_sat=0.2) > 300


def bone_pixels(rgb: np.ndarray) -> int:
    """Pixels in the bones' bluish green (the spec colour, shaded): nothing of the fox is green."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    return int(np.count_nonzero((g > r + 50) & (g > b + 10)))


def test_the_bone_overlay_is_off_but_for_the_selected_joint_and_toggles(view):
    open_rig(view, DATA / "gltf" / "Fox.glb", players="both")
    panel = view.rig_panel
    scene = panel.scene
    assert not panel.overlay_box.isChecked() and not scene.overlay
    quiet = bone_pixels(scene_rgb(scene))
    # Only the selected joint shows its axes: one gizmo, three lines.
    assert scene.gizmos.visible() and len(scene.gizmos.pos) == 6
    panel.overlay_box.setChecked(True)
    QtWidgets.QApplication.processEvents()
    busy = bone_pixels(scene_rgb(scene))
    assert busy > 5 * max(quiet, 20)
    assert len(scene.gizmos.pos) == 6 * len(panel.scene.pickable())
    panel.overlay_box.setChecked(False)
    QtWidgets.QApplication.processEvents()
    assert bone_pixels(scene_rgb(scene)) == quiet


def test_a_skeleton_without_meshes_always_shows_its_bones(view):
    open_rig(view, DATA / "bvh" / "test_mocapbank.bvh")
    scene = view.rig_panel.scene
    assert not scene.overlay
    assert scene.bones.visible() and len(scene.bones._geometry.vertexes) > 24 * 10
    assert bone_pixels(scene_rgb(scene)) > 200


def legend_swatch(panel) -> str:
    (colour,) = re.findall(r"color:(#[0-9A-Fa-f]{6})", panel.legend.text())[:1]
    return colour


@pytest.mark.parametrize("name", ["gltf/RobotExpressive.glb", "gltf/Fox.glb",
                                  "bvh/test_freebvh.bvh"])
def test_the_spec_players_swatch_is_its_colour_in_the_plots_and_the_bones(view, name):
    """The robot's legend showed the spec player in the robot's tan; the plots drew it green."""
    open_rig(view, DATA / name, players="both")
    panel = view.rig_panel
    window = panel.window()
    assert panel.wait_loaded()
    try:
        for theme in ("light", "dark"):
            set_theme(window, theme)
            QtWidgets.QApplication.processEvents()
            swatch = QtGui.QColor(legend_swatch(panel)).name()
            plotted = panel.curves.curve_item("angle", "spec").opts["pen"].color().name()
            assert swatch == plotted, (theme, swatch, plotted)
        # The 3D view draws the spec player's own bones in the swatch's hue (shaded).
        set_theme(window, "light")
        panel.overlay_box.setChecked(True)
        QtWidgets.QApplication.processEvents()
        rgb = np.array(QtGui.QColor(legend_swatch(panel)).getRgb()[:3], dtype=float)
        (hue,), _ = hues(rgb[None])
        assert pixels_of_hue(scene_rgb(panel.scene), hue) > 100
    finally:
        set_theme(window, "light")
