"""Translations: every marked string has one in every shipped language, placeholders survive,
the compiled catalogs match their sources, and the language follows the system or the user."""

from __future__ import annotations

import gettext
import io
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from quatlab.app import i18n

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "assets" / "locale"
LANGS = [code for code in i18n.LANGUAGES if code != "en"]
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}


def _extracted() -> set[str]:
    ids = set()
    for folder in ("app", "math", "rendering"):
        for _file, _line, message, _comments, _ctx in extract_from_dir(
            ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS,
            comment_tags=(), strip_comment_tags=True,
        ):
            # A plural message is one catalog entry, found by its singular.
            ids.add(message if isinstance(message, str) else message[0])
    return ids


def _catalog(lang):
    with open(LOCALE / lang / "LC_MESSAGES" / "quatlab.po", "rb") as fh:
        return read_po(fh)


def _fields(text: str) -> list[str]:
    """Named and positional str.format fields, and %-style conversions, in order."""
    fields = [f"{{{name}{'!' + conv if conv else ''}}}"
              for _lit, name, _spec, conv in string.Formatter().parse(text) if name is not None]
    return sorted(fields + re.findall(r"%(?:\(\w+\))?[sdifr%]", text))


def _all_forms(string) -> bool:
    """Every form of a translation is there (a plural has one per plural form)."""
    return all(string) if isinstance(string, tuple) else bool(string)


EXTRACTED = sorted(_extracted())


def test_something_is_marked():
    assert len(EXTRACTED) >= 10


@pytest.mark.parametrize("lang", LANGS)
def test_every_marked_string_is_translated(lang):
    catalog = _catalog(lang)
    missing = [m for m in EXTRACTED
               if m not in catalog or not _all_forms(catalog[m].string) or catalog[m].fuzzy]
    assert missing == [], f"{len(missing)} strings have no {lang} translation: {missing[:10]}"


@pytest.mark.parametrize("lang", LANGS)
def test_translations_keep_their_placeholders(lang):
    bad = []
    for m in _catalog(lang):
        if not m.id or not m.string:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strs = m.string if isinstance(m.string, tuple) else (m.string,)
        for s in strs:
            if _fields(s) != _fields(ids[-1]) and _fields(s) != _fields(ids[0]):
                bad.append((ids[0], s))
    assert bad == []


def test_the_placeholder_check_can_fail():
    assert _fields("turned {angle:.1f} deg of {total}") == ["{angle}", "{total}"]
    assert _fields("转了 {angle:.1f} 度") != _fields("turned {angle:.1f} deg of {total}")


@pytest.mark.parametrize("lang", LANGS)
def test_compiled_catalog_matches_its_source(lang):
    # The .mo is committed (the package reads it with the standard library); it must be
    # what scripts/i18n.sh compiles from the .po now.
    buf = io.BytesIO()
    write_mo(buf, _catalog(lang))
    buf.seek(0)
    fresh = gettext.GNUTranslations(buf)._catalog
    with open(LOCALE / lang / "LC_MESSAGES" / "quatlab.mo", "rb") as fh:
        shipped = gettext.GNUTranslations(fh)._catalog
    assert shipped == fresh, "run scripts/i18n.sh compile"


@pytest.fixture
def english():
    yield
    i18n.set_language("en")


def test_switching_language_changes_the_text(english):
    msg = "frame {i} of {n}"
    assert i18n.set_language("zh_CN") == "zh_CN"
    zh = i18n._(msg).format(i=3, n=9)
    assert "3" in zh and "9" in zh and zh != msg.format(i=3, n=9)
    assert re.search(r"[\u4e00-\u9fff]", zh)
    i18n.set_language("en")
    assert i18n._(msg) == msg


def test_unknown_language_is_refused_and_the_current_one_stays(english):
    i18n.set_language("zh_CN")
    with pytest.raises(ValueError, match="'fr'.*en, zh_CN"):  # said in the language in use
        i18n.set_language("fr")
    assert i18n.current_language() == "zh_CN"


@pytest.mark.parametrize("env, want", [
    ({"LANG": "zh_CN.UTF-8"}, "zh_CN"),
    ({"LANGUAGE": "fr:zh_CN", "LANG": "en_US.UTF-8"}, "zh_CN"),
    ({"LC_ALL": "C"}, "en"),
    ({"LANG": "zh_TW.UTF-8"}, "en"),
    ({}, "en"),
])
def test_system_language(env, want):
    assert i18n.system_language(env) == want


# --------------------------------------------------------------------------- completeness
# The window built in Chinese must show no English: a text left in English is a
# string nobody marked (or marked and not translated). Every visible text of
# every widget kind is read: menus, actions and their tips, labels, buttons,
# check boxes, group boxes, tab titles, combo items, table headers, plot axis
# titles and legends, placeholders and the explanation panes.

#: Texts that are the same in every language: symbols, numbers, variable names
#: (q0, t, w x y z), axis letters, Euler orders, units, formats and method
#: abbreviations; and each language's name for itself in View > Language.
_SAME_IN_EVERY_LANGUAGE = re.compile(
    r"^(?:[\W\d_]*|q\d?|t|dt|[wxyz](?: [wxyz]){0,3}|[xyzXYZ]{3}|[wxyz]{4}|−?q\d?|"
    r"S3|SLERP|NLERP|SQUAD|float32|float64|English|PNG|SVG|CSV|glTF|GLB|BVH|JSON|"
    r"w = −1|−q0|(?:[A-Z]?[a-z]?\+)?[\w=+-]*|[\w ]*\.(?:png|gif|mp4|csv|json|gltf|glb|bvh))$")
#: A word in Latin letters (digits may follow: float32).
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
#: Words that stay in Latin letters inside a Chinese text: names of methods, formats,
#: libraries, assets and keys, formula variables, HTML of rich texts.
_KEPT_WORDS = {
    "SLERP", "NLERP", "SQUAD", "QuatLab", "glTF", "GLB", "BVH", "CSV", "JSON", "PNG", "SVG",
    "GIF", "MP4", "XYZ", "float32", "float64", "Gram", "Schmidt", "atan", "atan2", "dot", "exp",
    "log", "cos", "sin", "tan", "English", "Esc", "Ctrl", "Shift", "Alt", "Space", "Home", "End",
    "Left", "Right", "fps", "Hz", "Okabe", "Ito", "Khronos", "Cesium", "CC0", "AnimatedTriangle",
    "BoxAnimated", "LeftHip", "Zrotation", "Marco", "Hutter", "Sample", "Assets", "LINEAR",
    "Markley", "scipy", "numpy", "quaternion", "squad", "yaw", "pitch", "roll", "nbsp", "span",
    "style", "color", "font", "size", "div", "table", "cellspacing", "align", "right", "colspan",
    "small",
    "xyzw", "wxyz", "gltf", "glb", "bvh", "csv", "json",   # format keys as files declare them
    # Engines and assets by their names (docs/runtimes.md).
    "three", "js", "Babylon", "PlayCanvas", "glTFast", "Unity", "Unreal", "Engine", "Godot",
    "CesiumMilkTruck",
    "FBX",  # the format (docs/formats.md, "FBX")
}


def _presets_names():
    from quatlab.app.model import presets

    return presets.names()


#: Parts of a text that are names, not English: file names and paths, docs/ pages, presets.
_NAMES = re.compile(r"docs/[\w.]+|[\w./-]*\.(?:gltf|glb|bvh|csv|json|png|svg|gif|mp4|npy)\b|"
                    + "|".join(re.escape(n) for n in sorted(_presets_names(), key=len,
                                                              reverse=True)))


def _english(text: str) -> bool:
    """Whether ``text`` (of a window in Chinese) still holds an English word."""
    text = _NAMES.sub(" ", text.strip())
    if not text or _SAME_IN_EVERY_LANGUAGE.match(text):
        return False
    return any(sum(c.isalpha() for c in w) >= 3 and w not in _KEPT_WORDS
               and not re.fullmatch(r"[XYZxyz]{3}", w)   # an Euler order
               for w in _LATIN_WORD.findall(text))


def _visible_texts(win):
    """(where, text) of every text the window shows or offers, HTML stripped."""
    from PyQt6 import QtCore, QtGui, QtWidgets

    tip_role = QtCore.Qt.ItemDataRole.ToolTipRole
    out = []
    import pyqtgraph as pg

    for act in win.findChildren(QtGui.QAction):
        # pyqtgraph's own "Export..." of a plot's scene is never offered: every
        # plot's context menu is disabled.
        if act.isSeparator() or isinstance(act.parent(), pg.GraphicsScene):
            continue
        out += [("action", act.text()), ("action tip", act.statusTip())]
        if act.menu() is not None:
            out.append(("menu", act.menu().title()))
    for menu in win.findChildren(QtWidgets.QMenu):
        out.append(("menu", menu.title()))
    for w in win.findChildren(QtWidgets.QWidget):
        out.append((f"{type(w).__name__} tip", w.toolTip()))
        if isinstance(w, (QtWidgets.QLabel, QtWidgets.QAbstractButton)):
            out.append((type(w).__name__, w.text()))
        if isinstance(w, QtWidgets.QGroupBox):
            out.append(("group", w.title()))
        if isinstance(w, (QtWidgets.QTabWidget, QtWidgets.QTabBar)):
            out += [("tab", w.tabText(i)) for i in range(w.count())]
        if isinstance(w, QtWidgets.QComboBox):
            for i in range(w.count()):
                out += [("combo item", w.itemText(i)),
                        ("combo tip", w.itemData(i, tip_role) or "")]
        if isinstance(w, QtWidgets.QLineEdit):
            out.append(("placeholder", w.placeholderText()))
        if isinstance(w, QtWidgets.QTextBrowser):
            out.append(("text", w.toPlainText()))
        if isinstance(w, QtWidgets.QAbstractSpinBox):
            out.append(("special value", getattr(w, "specialValueText", lambda: "")()))
        if isinstance(w, QtWidgets.QTableView) and w.model() is not None:
            m = w.model()
            for orient, n in ((QtCore.Qt.Orientation.Horizontal, m.columnCount()),
                              (QtCore.Qt.Orientation.Vertical, min(m.rowCount(), 20))):
                out += [("header", str(m.headerData(i, orient) or "")) for i in range(n)]
    out += _plot_texts(win)
    return [(where, re.sub(r"<[^>]+>|&\w+;", " ", text)) for where, text in out if text]


def _plot_texts(win):
    """Axis titles, plot titles, legends and text labels of every pyqtgraph scene."""
    import pyqtgraph as pg

    out = []
    for view in win.findChildren(pg.GraphicsView):   # PlotWidget, GraphicsLayoutWidget
        for item in view.scene().items():
            if not item.isVisible():
                continue
            if isinstance(item, pg.AxisItem) and item.label.isVisible():
                out.append(("axis", item.labelText))
            elif isinstance(item, pg.PlotItem) and item.titleLabel.isVisible():
                out.append(("plot title", item.titleLabel.text))
            elif isinstance(item, pg.LegendItem):
                out += [("legend", label.text) for _sample, label in item.items]
            elif isinstance(item, pg.TextItem):
                out.append(("plot text", item.toPlainText()))
    return out


def test_the_completeness_check_can_fail():
    assert _english("Reset camera") and _english("关键帧 Keyframes")
    assert _english("naive SLERP") and _english("exact step")
    assert not _english("SLERP，最短弧") and not _english("q0") and not _english("XYZ")
    assert not _english("1.000") and not _english("Ctrl+K") and not _english("w x y z")
    assert not _english("SLERP 换算成 YXZ 角（度）") and _english("SLERP as YXZ angles")
    assert not _english("矩阵 R（float32）") and not _english("negated-20 — 取反的 20°")
    assert not _english("已打开 /tmp/lab/AnimatedTriangle.gltf（gltf）")
    assert _english("打开 negated-20 file") and _english("见 docs/formats.md section")


@pytest.fixture
def chinese_window(qtbot):
    from quatlab.app.qt.window import MainWindow

    i18n.set_language("zh_CN")
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    try:
        yield win
    finally:
        i18n.set_language("en")


def test_no_english_is_left_in_the_chinese_window(chinese_window, qtbot):
    from PyQt6 import QtWidgets

    win = chinese_window
    # A file with a finding: the audit's tables, details and the rig's labels show too.
    win.open_keyframes(ROOT / "tests" / "data" / "gltf" / "AnimatedTriangle.gltf")
    view = win.views["keyframes"]
    view.rig_panel.wait_loaded()
    view.model.select_segment(3)          # the sign flip 3 -> 4: its finding is explained
    for i in range(win.tabs.count()):
        win.tabs.setCurrentIndex(i)       # each tab lays out and fills its texts
        QtWidgets.QApplication.processEvents()
    texts = _visible_texts(win)
    assert any("相反的半球" in text for _where, text in texts)   # the finding, in Chinese
    left = sorted({(where, text) for where, text in texts if _english(text)})
    assert left == [], f"{len(left)} texts are not translated:\n" + "\n".join(
        f"  {where}: {text[:100]!r}" for where, text in left)


@pytest.mark.parametrize("lang", LANGS)
def test_seconds_are_written_alike_in_every_axis_title(lang):
    # The SQUAD lesson's speed axis is "angular speed (°/{unit})" with the
    # unit "s", the Keyframes omega axis "ω (°/s), ...", the x axes
    # "time (s)": a class comparing the two tabs should read one unit, not
    # "s" on one and a translated word on the other.
    catalog = _catalog(lang)
    omega = catalog["ω (°/s), naive dashed"].string
    seconds = {catalog["time (s)"].string.rsplit("(", 1)[-1].rstrip(")）").strip(),
               omega.split("/", 1)[1].split(")")[0].split("）")[0].strip(),
               catalog["angular speed (°/{unit})"].string.format(unit="s")
               .rsplit("/", 1)[-1].rstrip(")）").strip()}
    assert len(seconds) == 1, f"seconds are written {sorted(seconds)} in {lang}"


@pytest.mark.parametrize("lang", LANGS)
def test_degrees_per_second_are_written_one_way_in_titles_and_text(lang):
    """The SQUAD lesson's speed axis and the Keyframes omega axis said "(deg / s)"
    ("（度 / s）"), the lessons' text "°/s", and a title shortened to fit a small
    screen "(°/s)" again: one unit, as the text writes it, wherever it shows."""
    from quatlab.rendering.axis_title import title_forms

    catalog = _catalog(lang)
    parens = re.compile(r"[(（]([^()（）]*)[)）]")
    for msgid in ("ω (°/s), naive dashed", "angular speed (°/{unit})"):
        for title in (msgid.format(unit="s"), catalog[msgid].string.format(unit="s")):
            # As written, and each shortened form that keeps the parentheses.
            units = {parens.search(f).group(1) for f in title_forms(title) if parens.search(f)}
            assert units == {"°/s"}, (lang, title, units)
    text = catalog["Exact step at {rate} Hz, {speed:.0f}°/s in the {frame} frame:"].string
    assert "{speed:.0f}°/s" in text, (lang, text)


@pytest.mark.parametrize("lang", LANGS)
def test_plot_titles_write_degrees_as_the_degree_sign(lang):
    """The Euler tab's plots read "path angle (deg)" over "SLERP as YXZ angles (°)":
    a title shortened to fit writes its unit short, and the others wrote it in
    full. Every title writes "°" from the start, in both languages."""
    catalog = _catalog(lang)
    last = re.compile(r"[(（]([^()（）]*)[)）]\s*$")  # a title's unit, last in it
    unit = re.compile(r"\s*(deg|degrees|°)(\s*(per unit \w+|/\s*\S+))?\s*")
    field = "Euler angle {i} (degrees)"  # a field's accessible name, not a plot's title
    titles = [(m.id, m.string) for m in catalog if isinstance(m.id, str) and m.id != field
              and last.search(m.id) and unit.fullmatch(last.search(m.id).group(1))]
    assert len(titles) >= 10, titles
    long = [(i, s) for i, s in titles if "°" not in last.search(i).group(1)
            or re.search(r"[(（]\s*度", s)]
    assert long == [], long
