"""Simplified Chinese in the views and texts: headers, buttons, explanations, findings, commands.

Each test switches to zh_CN through the ``zh`` fixture, which switches back to
English afterwards, so the rest of the suite keeps reading English. The checks
read widget text and model text, and compare numbers with hand-worked values
(340° = 360° − 20° for the negated-20 preset), so a string that is marked but
shown untranslated, or a translation that loses its number, fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PyQt6 import QtCore, QtWidgets

from quatlab.app import i18n
from quatlab.app.commands.check_dir import pad, text_width
from quatlab.app.model import explain as E
from quatlab.app.model import presets
from quatlab.app.model.keyframes_model import KeyframesModel, describe_kinds, kind_name
from quatlab.app.model.state import LessonState

ROOT = Path(__file__).resolve().parents[1]
TRIANGLE = ROOT / "tests" / "data" / "gltf" / "AnimatedTriangle.gltf"
HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def zh():
    i18n.set_language("zh_CN")
    try:
        yield
    finally:
        i18n.set_language("en")


def _plain(html: str) -> str:
    """The text as read: no markup, no-break spaces as spaces, word joiners dropped."""
    return re.sub(r"<[^>]+>", "", html).replace("\u00a0", " ").replace("\u2060", "")


# --------------------------------------------------------------------------- explanations


def test_the_hemisphere_explanation_reads_chinese_with_its_numbers(zh):
    paras = E.explain(LessonState.from_preset("negated-20"))
    first = _plain(paras[0])
    # 20° about Z stored as -q: the naive methods sweep 360 - 20 = 340 degrees.
    assert "半球" in first and "长弧" in first and "最短弧方法" in first
    assert "340.0°" in first and "20.0°" in first
    assert "hemisphere" not in first and "the long arc" not in first
    speed = _plain(paras[1])             # why NLERP's speed is not constant
    assert "角速度" in speed and "离球面最远。这里最短弧 NLERP" in speed
    assert "。 " not in speed and "。 " not in first   # no Western space after a full stop


def test_the_explanation_is_english_again_after_switching_back(zh):
    i18n.set_language("en")
    first = _plain(E.explain(LessonState.from_preset("negated-20"))[0])
    assert "opposite hemisphere" in first and not HAN.search(first)


def test_the_sentence_at_t_names_the_turn_in_chinese(zh):
    # q to -q at t = 0.5: naive NLERP has no rotation there.
    text = _plain(E.explain_at_t(LessonState.from_preset("q-to-minus-q", t=0.5)))
    assert text.startswith("在 t = 0.500 时，路径角为：")
    assert "此 t 处不存在旋转" in text


def test_the_collapse_and_zero_dot_cases_are_translated(zh):
    collapse = _plain(E.explain(LessonState.from_preset("q-to-minus-q"))[0])
    assert "零四元数" in collapse and "塌缩" in collapse
    half = _plain(E.explain(LessonState.from_preset("half-turn"))[0])
    assert "点积恰为 0" in half


# --------------------------------------------------------------------------- presets


def test_every_preset_text_of_the_json_is_marked_for_translation():
    data = json.loads((ROOT / "assets" / "presets.json").read_text("utf-8"))
    in_json = [t for p in data["presets"] for t in (p["title"], p["shows"])]
    assert list(presets.TEXTS) == in_json


def test_preset_titles_and_texts_translate(zh):
    p = presets.get("negated-20")
    assert p.title == "Negated 20°"           # the file's own text stays the key
    assert p.shown_title == "取反的 20°"
    assert "点积 = −0.985" in p.shown_text and "340°" in p.shown_text


# --------------------------------------------------------------------------- keyframes model


def test_finding_names_and_summary_are_chinese(zh):
    assert kind_name("sign_flip") == "符号翻转"
    assert kind_name("gimbal_lock") == "万向节锁"
    assert describe_kinds(["sign_flip", "sign_flip", "half_turn"]) == "2 个符号翻转, 1 个半圈"
    m = KeyframesModel()
    m.load(TRIANGLE)
    assert m.summary().startswith("1 条旋转轨道，其中 1 条有问题")
    assert m.message.text.startswith("已打开 AnimatedTriangle.gltf：")
    # AnimatedTriangle's last segment (keys 3 -> 4) has dot -0.707: a sign flip.
    assert m.segments(0).flag_text(3) == "符号翻转"


# --------------------------------------------------------------------------- widgets


@pytest.fixture
def keyframes_view(qtbot, zh):
    from quatlab.app.qt import keyframes_view as KV

    view = KV.KeyframesView(KeyframesModel())
    qtbot.addWidget(view)
    view.resize(1400, 800)
    view.show()
    qtbot.waitExposed(view)
    return view


def _headers(table: QtWidgets.QTableView) -> list[str]:
    m = table.model()
    return [m.headerData(c, QtCore.Qt.Orientation.Horizontal) for c in range(m.columnCount())]


def test_the_keyframes_tab_shows_chinese_headers_and_buttons(keyframes_view):
    v = keyframes_view
    assert _headers(v.track_table) == ["动画", "节点", "插值", "关键帧数", "问题"]
    # Short headers (so the columns fit a 1024-px window); the units are in the tooltips.
    assert _headers(v.segment_table) == ["区段", "t₀", "t₁", "点积", "朴素°", "最短°", "标记"]
    assert "秒" in v.segment_table.model().headerData(1, QtCore.Qt.Orientation.Horizontal,
                                                      QtCore.Qt.ItemDataRole.ToolTipRole)
    tip = v.segment_table.model().headerData(3, QtCore.Qt.Orientation.Horizontal,
                                             QtCore.Qt.ItemDataRole.ToolTipRole)
    assert "相反半球" in tip
    assert v.fix_button.text() == "修正符号"
    assert v.fix_all_button.text() == "修正所有轨道"
    assert v.undo_button.toolTip() == "没有可撤销的操作"
    assert v.jump_box.text() == "选中时跳转到课程"
    assert [v.order_box.itemText(i) for i in range(v.order_box.count())] == [
        "按文件声明", "wxyz", "xyzw"]
    assert "符号翻转" in v.legend.text()
    assert v.file_label.text() == "未打开文件"
    assert "打开一个关键帧文件" in v.details.toPlainText()


def test_the_keyframes_tab_explains_a_loaded_segment_in_chinese(keyframes_view, qtbot):
    v = keyframes_view
    v.model.load(TRIANGLE)
    assert "1 条旋转轨道" in v.file_label.text()
    v.model.select_segment(3)
    details = v.details.toPlainText()
    # Keys 3 -> 4 of AnimatedTriangle: 90° apart, naive blends turn 270°.
    assert "区段 3 → 4" in details and "朴素 270.0°" in details and "最短弧 90.0°" in details
    assert "符号翻转" in details
    seg = v.segment_table.model()
    assert seg.data(seg.index(3, 6)) == "符号翻转"


def test_the_readouts_read_chinese(qtbot, zh):
    from quatlab.app.qt.readouts import Readouts

    r = Readouts(LessonState.from_preset("negated-20"))
    qtbot.addWidget(r)
    assert r.title() == "读数"
    assert "相反半球" in r.summary.text() and "两个旋转之间的夹角" in r.summary.text()
    headers = [r.table.horizontalHeaderItem(c).text() for c in range(3)]
    assert headers == ["方法\nq(t) (w, x, y, z)", "角度 °", "°/t"]
    assert r.cell("shortest_slerp", "name").text() == "最短弧 SLERP"


def test_the_wrap_lesson_explains_in_chinese(qtbot, zh):
    from quatlab.app.model.wrap_lesson import WrapModel

    text = _plain(WrapModel("yaw_wrap").explanation())
    assert "欧拉角通道" in text and "四元数关键帧" in text and "表示跳变" in text
    assert "20.00°" in text       # SLERP turns the true 20° between yaw 170° and 190°
    assert "。 " not in text


# --------------------------------------------------------------------------- commands


def test_pad_counts_wide_characters_twice():
    assert text_width("点积") == 4 and text_width("dot") == 3
    assert pad("父节点", 8, ">") == "  父节点"
    assert text_width(pad("世界位置", 10, "^")) == 10


def test_check_dir_prints_a_chinese_summary_table(tmp_path, capsys, zh):
    import shutil

    from quatlab.app.commands.cli import main

    shutil.copy(TRIANGLE, tmp_path / "tri.gltf")    # buffers embedded: one file
    # Through the parser, as a user runs it: a hand-made namespace fell behind
    # the options check DIR gained (a bare string for the paths walked '/').
    status = main(["--lang", "zh_CN", "check", str(tmp_path)])
    out = capsys.readouterr().out.splitlines()
    assert status == 1
    assert any(line.endswith("：1 条旋转轨道，1 个问题（1 sign_flip）") for line in out)
    head = next(line for line in out if line.startswith("格式"))
    # The columns of the Chinese header end where the English ones do (CJK = 2 columns).
    assert text_width(head) == len("format    files  clean  flagged  unreadable  findings")
