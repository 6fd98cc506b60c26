"""The math layer's translation marker: ``N_`` marks a user-visible text, translated where shown.

math imports nothing of the app (docs/architecture.md, "Translations"), so it
cannot call ``quatlab.app.i18n``. Babel's extraction (``scripts/i18n.sh``)
recognises this ``N_`` as it does the app's; the model or the window passes
the marked text through ``_()`` when it shows it.
"""

from __future__ import annotations

__all__ = ["N_"]


def N_(message: str) -> str:
    """Mark ``message`` for translation; it is returned unchanged (English).

    >>> N_("naive SLERP")
    'naive SLERP'
    """
    return message
