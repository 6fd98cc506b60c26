"""Translations of user-visible text (gettext catalogs), the lowest layer of the app. No Qt.

Every string a user reads — menus, labels, tooltips, explanations, status and
error messages, command-line output — goes through :func:`_` (or :func:`N_`
to mark a module-level constant, translated where it is shown). The catalogs
are GNU gettext ``.po`` files under ``quatlab.assets/locale``, extracted and
compiled with Babel (``scripts/i18n.sh``); at run time only the standard
library's :mod:`gettext` reads the compiled ``.mo``. Why gettext and not Qt
Linguist: most text comes from the Qt-free models and commands (explanations,
findings, errors), which must translate where PyQt6 is not even installed
(docs/architecture.md, "Translations").

Placeholders are named (``{angle}``), filled after translation with
:meth:`str.format`, so a translation may reorder them.

Examples
--------
>>> set_language("en")
'en'
>>> _("frame {i} of {n}").format(i=2, n=50)
'frame 2 of 50'
>>> set_language("zh_CN")
'zh_CN'
>>> _("frame {i} of {n}").format(i=2, n=50)
'第 2 帧，共 50 帧'
>>> set_language("en")
'en'
"""

from __future__ import annotations

import gettext
import os
from importlib import resources

__all__ = ["_", "N_", "ngettext", "set_language", "current_language", "LANGUAGES",
           "system_language", "normalize_language", "LazyText"]

DOMAIN = "quatlab"

#: Languages QuatLab ships, code -> the language's own name (for View > Language).
LANGUAGES = {"en": "English", "zh_CN": "简体中文"}

_translations: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def normalize_language(code: str | None) -> str | None:
    """A shipped language code for ``code`` (``zh``, ``zh-CN``, ``zh_CN.UTF-8`` -> ``zh_CN``).

    >>> normalize_language("zh-cn.UTF-8"), normalize_language("en_GB"), normalize_language("fr")
    ('zh_CN', 'en', None)
    """
    if not code:
        return None
    base = code.split(".")[0].split("@")[0].replace("-", "_")
    lang, _sep, region = base.partition("_")
    lang = lang.lower()
    if lang == "zh":
        # Simplified Chinese is the one QuatLab ships; Taiwan and Hong Kong use
        # Traditional characters, so they fall back to English rather than read
        # a script they did not ask for.
        return "zh_CN" if region.upper() in ("", "CN", "SG", "HANS") else None
    if lang in ("en", "c", "posix"):
        return "en"
    return None


def system_language(environ=None) -> str:
    """The shipped language the environment asks for (``LANGUAGE``, ``LC_ALL``...), else ``en``."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if not value:
            continue
        for code in value.split(":"):  # LANGUAGE is a priority list
            found = normalize_language(code)
            if found:
                return found
    return "en"


def set_language(code: str | None) -> str:
    """Use ``code`` for every later :func:`_`; ``None`` follows the system. Returns the code used.

    Raises
    ------
    ValueError
        ``code`` is not a language QuatLab ships (the message lists them).
    """
    global _translations, _language
    lang = system_language() if code is None else normalize_language(code)
    if lang is None:
        raise ValueError(_("unknown language {code!r}; choose one of: {langs}").format(
            code=code, langs=", ".join(LANGUAGES)))
    if lang == "en":
        _translations = gettext.NullTranslations()
    else:
        mo = resources.files("quatlab.assets").joinpath("locale", lang, "LC_MESSAGES",
                                                        f"{DOMAIN}.mo")
        with mo.open("rb") as fh:
            _translations = gettext.GNUTranslations(fh)
    _language = lang
    return lang


def current_language() -> str:
    """The language :func:`_` translates into now."""
    return _language


class LazyText(str):
    """A text made now in English and translated where it is shown, with its values.

    It *is* the English string (JSON output, logs and tests see that), and it
    keeps its template and values so that :func:`_` can make it again in the
    language of the moment: texts made once and kept (audit findings, cached
    per track) follow a later change of language. The template is marked with
    :func:`N_` where it is written; values that are LazyTexts are translated too.

    >>> t = LazyText(N_("frame {i} of {n}"), i=2, n=50)
    >>> t, t.template
    ('frame 2 of 50', 'frame {i} of {n}')
    >>> set_language("zh_CN"); _(t); set_language("en")
    'zh_CN'
    '第 2 帧，共 50 帧'
    'en'
    """

    template: str
    params: dict

    def __new__(cls, template: str, **params):
        self = super().__new__(cls, template.format(**params))
        self.template, self.params = template, params
        return self

    def __getnewargs_ex__(self):  # pickles (worker processes) as template and values
        return (self.template,), self.params

    def translated(self) -> str:
        params = {k: _(v) if isinstance(v, LazyText) else v for k, v in self.params.items()}
        return _translations.gettext(self.template).format(**params)


def _(message: str) -> str:
    """``message`` in the current language (itself when there is no translation)."""
    if isinstance(message, LazyText):
        return message.translated()
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n`` in the current language."""
    return _translations.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it now (module constants)."""
    return message
