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
            ids.update([message] if isinstance(message, str) else [m for m in message if m])
    return ids


def _catalog(lang):
    with open(LOCALE / lang / "LC_MESSAGES" / "quatlab.po", "rb") as fh:
        return read_po(fh)


def _fields(text: str) -> list[str]:
    """Named and positional str.format fields, and %-style conversions, in order."""
    fields = [f"{{{name}{'!' + conv if conv else ''}}}"
              for _lit, name, _spec, conv in string.Formatter().parse(text) if name is not None]
    return sorted(fields + re.findall(r"%(?:\(\w+\))?[sdifr%]", text))


EXTRACTED = sorted(_extracted())


def test_something_is_marked():
    assert len(EXTRACTED) >= 10


@pytest.mark.parametrize("lang", LANGS)
def test_every_marked_string_is_translated(lang):
    catalog = _catalog(lang)
    missing = [m for m in EXTRACTED
               if m not in catalog or not catalog[m].string or catalog[m].fuzzy]
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
    with pytest.raises(ValueError, match="unknown language 'fr'.*en, zh_CN"):
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
