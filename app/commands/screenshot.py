"""``quatlab screenshot``: render the whole window to a PNG, headless (needs a display: Xvfb)."""

from __future__ import annotations

import os

from quatlab.app.i18n import _

__all__ = ["add_parser", "run", "render_window", "logical_size", "lesson_state", "set_lesson_case"]

PROG = "quatlab screenshot"


def add_parser(subparsers):
    p = subparsers.add_parser(
        "screenshot",
        help=_("render the window to a PNG (needs a display; use Xvfb on a server)"),
        description=_("Render the whole QuatLab window, 3D viewport included, to a PNG file."),
    )
    p.add_argument("-o", "--output", help=_("PNG file to write (a new file; written atomically)"))
    p.add_argument("--preset", default=None,
                   help=_("preset to show: a two-key preset (default negated-20), or on a "
                          "lesson view one of that lesson's presets"))
    p.add_argument("--t", type=float, default=None,
                   help=_("t in [0, 1] (default 0.5); on a lesson view the fraction of its "
                          "slider's range (time, sweep, step), by default where its preset "
                          "starts"))
    p.add_argument("--size", default="1400x900", help=_("window size WxH (default 1400x900)"))
    p.add_argument("--view", default="main", help=_("which view to show (see --list-views)"))
    p.add_argument("--open", dest="open_file", default=None, help=_("keyframe file to open first"))
    p.add_argument("--time", type=float, default=None, metavar="S",
                   help=_("keyframes view: the rig's time in seconds (glTF files)"))
    p.add_argument("--animation", default=None, metavar="NAME|INDEX",
                   help=_("keyframes view: the animation the rig plays"))
    p.add_argument("--track", type=int, default=None, metavar="N",
                   help=_("keyframes view: select track N (from 0, as `quatlab check` lists "
                          "them)"))
    p.add_argument("--players", choices=("both", "spec", "naive"), default=None,
                   help=_("keyframes view: which players the rig view shows"))
    p.add_argument("--fix", action="store_true",
                   help=_("keyframes view: apply Fix all tracks before rendering"))
    add_look_options(p)
    add_present_option(p)
    p.add_argument("--list-views", action="store_true", help=_("list the views and exit"))
    p.set_defaults(func=run)
    return p


#: Names --theme accepts (rendering.themes.THEMES; listed here so --help needs no Qt).
THEME_NAMES = ("light", "dark", "high-contrast")


def add_look_options(p) -> None:
    """--theme and --scale, shared with ``quatlab record``."""
    p.add_argument("--theme", choices=THEME_NAMES, default="light",
                   help=_("colour theme (default light)"))
    p.add_argument("--scale", type=float, default=1.0, metavar="FACTOR",
                   help=_("zoom of text, lines and points, 0.8 to 2.5 (default 1)"))


def add_present_option(p) -> None:
    """--present, shared with ``quatlab record``."""
    p.add_argument("--present", action="store_true",
                   help=_("presentation mode (F5): side panels and status bar hidden, text "
                          "drawn larger; at --size, not full screen"))


def check_scale(value: float) -> float:
    """--scale as View > Zoom allows it; ValueError otherwise."""
    from quatlab.app.qt.screen_modes import ZOOM_STEPS

    if not ZOOM_STEPS[0] <= value <= ZOOM_STEPS[-1]:
        raise ValueError(_("--scale must be between {lo:g} and {hi:g}, got {value:g}").format(
            lo=ZOOM_STEPS[0], hi=ZOOM_STEPS[-1], value=value))
    return value


def _parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ValueError(_("--size must look like 1400x900, got {text!r}").format(
            text=text)) from None
    if not (200 <= w <= 8000 and 200 <= h <= 8000):
        raise ValueError(_("--size must be between 200x200 and 8000x8000, got {text!r}").format(
            text=text))
    return w, h


def render_window(win, size: tuple[int, int]):
    """Show ``win`` at ``size``, let it lay out and paint, and return its QImage."""
    from PyQt6 import QtWidgets

    app = QtWidgets.QApplication.instance()
    win.resize(*size)
    win.show()
    # A few rounds of events: layout, the GL context's first frame, then a repaint.
    for _round in range(5):
        app.processEvents()
    _wait_held_paints(win)
    # GL views exist as native windows only once shown: those that appeared
    # with the show (a file's rig scene) take the theme and zoom in use now.
    from quatlab.app.qt.theme_menu import redraw

    redraw(win)
    app.processEvents()
    win.repaint()
    app.processEvents()
    return win.grab_image()


def _wait_held_paints(win, longest_s: float = 2.0) -> None:
    """Turn the event loop until no plot of ``win`` waits to be painted (app/qt/paint_later.py).

    A view paints its new curves a turn after its 3D frame, and a staggered
    plot a turn after that: grabbed before, the integration lesson showed one
    plot of two (the other not yet revealed) over a blank half.
    """
    import time

    from PyQt6 import QtWidgets

    from quatlab.app.qt.paint_later import PaintLater

    app = QtWidgets.QApplication.instance()
    end = time.monotonic() + longest_s
    while any(p.held for p in win.findChildren(PaintLater)) and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.005)
    app.processEvents()


def logical_size(img) -> tuple[int, int]:
    """``img``'s size in logical pixels, the unit of ``--size``.

    A grab holds device pixels: under ``QT_SCALE_FACTOR=1.5`` a 1400x900
    window grabs as 2100x1350. Compare like with like.
    """
    ratio = img.devicePixelRatio() or 1.0
    return round(img.width() / ratio), round(img.height() / ratio)


def _set_keyframes_view(win, args) -> str | None:
    """Apply --animation, --track, --fix, --players and --time; a problem as one line, or None."""
    view = win.views.get("keyframes")
    panel = getattr(view, "rig_panel", None)
    if view is None or panel is None:
        return _("this build has no keyframes view")
    if not args.open_file:
        return _("--time, --animation, --track, --players and --fix need --open FILE")
    if not panel.wait_loaded():
        return _("{file}: the rig did not load in time").format(file=args.open_file)
    pb, model = panel.playback, view.model
    needs_rig = args.time is not None or args.animation is not None or args.players
    if pb.rig is None and needs_rig:
        return _("{file}: no rig to show ({status})").format(file=args.open_file,
                                                                  status=panel.status.text())
    if args.fix:
        model.fix_signs(None)
    if args.track is not None:
        if not 0 <= args.track < len(model.tracks):
            return _("{file}: no track {track} (the file has {n} rotation tracks)").format(
                file=args.open_file, track=args.track, n=len(model.tracks))
        model.select_track(args.track)
    if args.animation is not None:
        try:
            anim = pb.rig.animation(args.animation)
        except ValueError as exc:
            return str(exc)
        panel.animation_box.setCurrentIndex(anim.index)
    if args.players:
        panel.players_box.setCurrentIndex(panel.players_box.findData(args.players))
    if args.time is not None:
        lo, hi = pb.range
        if not lo <= args.time <= hi:
            name = pb.animation.name or f"#{pb.animation.index}"
            return _("--time {time:g} is outside animation {name!r} [{lo:g}, {hi:g}]").format(
                time=args.time, name=name, lo=lo, hi=hi)
        pb.set_time(args.time)
    panel.wait_framed()  # the camera on the box of the whole animation
    return None


#: The QApplication of the headless commands, kept alive for as long as the process runs
#: (PyQt destroys an application nothing refers to).
_APP = None


def set_lesson_case(win, view: str, preset: str | None, t: float | None) -> str | None:
    """Show ``preset`` at ``t`` in ``view`` of ``win``: None, or why it cannot (one line).

    The two-key views take both from the lesson state the window was made
    on; a lesson view with its own model (``show_case``) takes its own preset
    and the fraction ``t`` of its slider's range. A view with neither (the
    keyframes view) refuses them rather than ignore them.
    """
    if view in win.LESSON_BOUND_VIEWS or (preset is None and t is None):
        return None
    show_case = getattr(win.views.get(view), "show_case", None)
    if show_case is None:
        return _("--preset and --t do not apply to the {view} view").format(view=view)
    try:
        show_case(preset, t)
    except ValueError as exc:
        return str(exc)
    return None


def show_window(state, view: str, size: tuple[int, int], *, open_file=None, prepare=None,
                theme: str = "light", scale: float = 1.0, present: bool = False):
    """The window on ``state`` showing ``view`` at ``size``, as ``screenshot`` and ``record`` need.

    Opens ``open_file`` first and runs ``prepare(win)`` (an error message or
    None) before showing; draws in ``theme`` at zoom ``scale``, in
    presentation mode if ``present`` (at ``size``, not full screen). Returns
    ``((win, first_image), None)``, or ``(None, message)`` when the file
    cannot be opened, ``prepare`` refuses or the window cannot be as small
    as ``size``.
    """
    global _APP
    from quatlab.app.qt.theme_menu import apply_theme
    from quatlab.app.qt.window import MainWindow, make_app

    _APP = make_app()
    win = MainWindow(state)
    if scale != 1.0:
        win.set_zoom(scale)
        win.status.clearMessage()  # "Zoom 150%" is for the user who pressed Ctrl+=
    apply_theme(win, theme)
    if present:
        win.set_presenting(True, full_screen=False)
    if open_file:
        try:
            win.open_keyframes(open_file)
        except (OSError, ValueError) as exc:
            return None, str(exc)
    if prepare is not None:
        problem = prepare(win)
        if problem:
            return None, problem
    win.show_view(view)
    img = render_window(win, size)
    if logical_size(img) != size:
        hint = win.minimumSizeHint()
        return None, _("--size {w}x{h} is smaller than the window can be ({mw}x{mh} at "
                       "least)").format(w=size[0], h=size[1], mw=hint.width(), mh=hint.height())
    return (win, img), None


def lesson_state(view: str, preset: str | None, t: float | None):
    """The two-key lesson state a window for ``view`` starts on (ValueError: unknown preset).

    ``preset`` and ``t`` are the two-key lesson's for the views that show it;
    any other view's are its own (:func:`set_lesson_case`), and the state
    starts at the default preset.
    """
    from quatlab.app.model import presets
    from quatlab.app.model.state import LessonState
    from quatlab.app.qt.window import MainWindow

    if view not in MainWindow.LESSON_BOUND_VIEWS:
        preset, t = None, None
    return LessonState.from_preset(preset or presets.DEFAULT_PRESET,
                                   t=0.5 if t is None else t)


def run(args) -> int:
    from quatlab.app.commands.common import fail
    from quatlab.app.qt.window import view_names

    if args.list_views:
        for v in view_names():
            print(v)
        return 0
    if not args.output:
        return fail(PROG, _("-o FILE.png is required"))
    if not args.output.lower().endswith(".png"):
        return fail(PROG, _("the output must be a .png file, got {file!r}").format(
            file=args.output))
    if args.view not in view_names():
        return fail(PROG, _("unknown view {view!r}; choose one of: {views}").format(
            view=args.view, views=", ".join(view_names())))
    if args.t is not None and not 0.0 <= args.t <= 1.0:  # said here, in the language in use
        return fail(PROG, _("--t must lie in [0, 1], got {t!r}").format(t=args.t))
    try:
        size = _parse_size(args.size)
        check_scale(args.scale)
        state = lesson_state(args.view, args.preset, args.t)
    except ValueError as exc:
        return fail(PROG, str(exc))
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        return fail(PROG, _("no display: run under Xvfb, e.g. `xvfb-run -a quatlab screenshot "
                            "...`"))
    os.environ.setdefault("QT_QPA_PLATFORM", "xcb")
    from PyQt6 import QtCore

    from quatlab.app.io.atomic import atomic_write
    rig_options = (args.time, args.animation, args.track, args.players)
    rig = any(v is not None for v in rig_options) or args.fix

    def prepare(win) -> str | None:
        return (set_lesson_case(win, args.view, args.preset, args.t)
                or (_set_keyframes_view(win, args) if rig else None))

    shown, problem = show_window(state, args.view, size, open_file=args.open_file,
                                 prepare=prepare, theme=args.theme, scale=args.scale,
                                 present=args.present)
    if problem:
        return fail(PROG, problem)
    win, img = shown
    buf = QtCore.QBuffer()
    buf.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    img.save(buf, "PNG")
    try:
        atomic_write(args.output, bytes(buf.data()))
    except OSError as exc:
        return fail(PROG, _("cannot write {file}: {error}").format(file=args.output,
                                                                   error=exc.strerror or exc))
    print(_("wrote {file} ({w}x{h}, view {view})").format(file=args.output, w=img.width(),
                                                          h=img.height(), view=args.view))
    win.close()
    return 0
