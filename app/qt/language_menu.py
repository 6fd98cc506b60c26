"""View > Language: the language menu, the remembered choice and the live switch of a window.

The choice is stored in the window's QSettings under ``language`` (``system``,
``en`` or ``zh_CN``); ``--lang`` wins over it for one run, and without either
the system's locale decides (docs/architecture.md, "Translations").

Switching rebuilds the window rather than retranslating it widget by widget:
every text is made again by the very code that made it, so no label, tooltip,
plot title or explanation can stay behind in the old language, and no view
needs a second code path for its texts. What the user was doing is carried
over: the lesson state itself (endpoints, t, undo history: the same object),
the tab shown, the geometry, the zoom, presentation mode and an open keyframe
file.
"""

from __future__ import annotations

from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import LANGUAGES, _, current_language, set_language, system_language
from quatlab.app.qt import theme_menu

__all__ = ["LANGUAGE_KEY", "SYSTEM", "start_language", "install", "choose_language",
           "rebuild_window"]

#: The QSettings key of the language chosen in View > Language.
LANGUAGE_KEY = "language"
#: The stored choice "follow the system's locale".
SYSTEM = "system"


def _saved_choice(settings: QtCore.QSettings | None) -> str:
    value = settings.value(LANGUAGE_KEY, SYSTEM) if settings is not None else SYSTEM
    value = str(value or SYSTEM)
    return value if value == SYSTEM or value in LANGUAGES else SYSTEM


def start_language(settings: QtCore.QSettings | None, requested: str | None = None) -> str:
    """Set the language a window starts in: ``requested`` (``--lang``), else the one
    remembered in ``settings``, else the system's. Returns the code in use."""
    if requested:
        return set_language(requested)
    choice = _saved_choice(settings)
    return set_language(None if choice == SYSTEM else choice)


def _checked_choice(settings: QtCore.QSettings | None) -> str:
    """The menu entry to tick: the remembered one, unless ``--lang`` overrode it."""
    choice = _saved_choice(settings)
    resolved = system_language() if choice == SYSTEM else choice
    return choice if resolved == current_language() else current_language()


def install(win, menu: QtWidgets.QMenu) -> QtWidgets.QMenu:
    """Add the Language submenu to ``menu`` (View) of the main window ``win``."""
    sub = menu.addMenu(_("Language"))
    sub.setObjectName("language_menu")
    group = QtGui.QActionGroup(sub)
    group.setExclusive(True)
    ticked = _checked_choice(getattr(win, "_settings", None))
    # Each language is named in itself, as every language menu does: a reader
    # who cannot read the current language still finds their own.
    entries = [(SYSTEM, _("System default"))] + list(LANGUAGES.items())
    for code, label in entries:
        act = QtGui.QAction(label, sub)
        act.setObjectName(f"language_{code}")
        act.setCheckable(True)
        act.setChecked(code == ticked)
        act.setData(code)
        act.setStatusTip(_("Show QuatLab in this language (remembered)"))
        group.addAction(act)
        sub.addAction(act)
        act.triggered.connect(lambda _checked=False, c=code: choose_language(win, c))
    return sub


def choose_language(win, choice: str):
    """Use ``choice`` (``system`` or a code of LANGUAGES), remember it, and show ``win`` in it.

    Returns the window now showing (a rebuilt one when the language changed).
    """
    before = current_language()
    lang = set_language(None if choice == SYSTEM else choice)
    settings = getattr(win, "_settings", None)
    if settings is not None:
        settings.setValue(LANGUAGE_KEY, choice)
    shown = rebuild_window(win) if lang != before else win
    shown.status.showMessage(_("Language: {name}").format(name=LANGUAGES[lang]), 5000)
    return shown


def _owned_by(fn, win) -> bool:
    """Whether listener ``fn`` belongs to ``win``: a method of it or of a widget inside
    it, or a function whose closure holds one (``lambda: refresh(win)``)."""
    owners = [getattr(fn, "__self__", None)]
    owners += [cell.cell_contents for cell in getattr(fn, "__closure__", None) or ()
               if isinstance(getattr(cell, "cell_contents", None), QtCore.QObject)]
    for owner in owners:
        while isinstance(owner, QtCore.QObject):
            if owner is win:
                return True
            try:
                owner = owner.parent()
            except RuntimeError:  # already deleted: nothing may call it any more
                return True
    return False


def rebuild_window(win):
    """A new window of ``win``'s class on the same lesson state, in place of ``win``.

    ``win``'s widgets stop listening to the state (it outlives them) and ``win``
    closes; the new window takes its geometry, tab, zoom, presentation mode
    and keyframe file.
    """
    state = win.state
    view = win.current_view().objectName()
    geometry, window_state, visible = win.geometry(), win.windowState(), win.isVisible()
    presenting = win.presenting
    if presenting:
        win.set_presenting(False)
    keyframes = getattr(win.views.get("keyframes"), "model", None)
    loaded = getattr(keyframes, "file", None)
    state.events.disconnect_where(lambda fn: _owned_by(fn, win))

    new = type(win)(state)
    new._settings, win._settings = win._settings, None  # the old one saves nothing on close
    new._base_font, new.zoom = win._base_font, win.zoom  # the app font is already zoomed
    if loaded is not None:
        try:
            new.open_keyframes(loaded.path)
        except (OSError, ValueError) as exc:  # changed on disk since: say so, keep going
            new.status.showMessage(str(exc), 8000)
    new.show_view(view)
    # Views are built in the light palette; the theme in use is applied to them.
    theme_menu.apply_theme(new)
    new.setGeometry(geometry)
    new.setWindowState(window_state)
    if visible:
        new.show()
    win.close()
    win.deleteLater()
    if presenting:
        new.set_presenting(True)
    return new
