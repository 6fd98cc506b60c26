"""``quatlab record``: an animated sweep of a view's parameter as a GIF or MP4, for slides.

Renders the window under a display (Xvfb on a server) like ``quatlab
screenshot``, sweeping the shown tab's parameter (t for the two-key lesson)
over its whole range.
"""

from __future__ import annotations

import os
import sys

from quatlab.app.i18n import _
from quatlab.app.io.animation_io import DEFAULT_DURATION, DEFAULT_FPS, MAX_FRAMES

__all__ = ["add_parser", "run"]

PROG = "quatlab record"


def add_parser(subparsers):
    from quatlab.app.commands.screenshot import add_look_options, add_present_option

    p = subparsers.add_parser(
        "record",
        help=_("record a sweep of t (or the view's parameter) as a GIF or MP4 (needs a display)"),
        description=_("Record the QuatLab window while the shown view's parameter sweeps its "
                      "range, as an animated GIF or an MP4 video (for slides)."),
    )
    p.add_argument("-o", "--output", required=True, help=_("GIF or MP4 file to write (a new file)"))
    p.add_argument("--view", default="main", help=_("view to record (see screenshot --list-views)"))
    p.add_argument("--preset", default=None, help=_("two-key preset to show (default: negated-20)"))
    p.add_argument("--duration", type=float, default=DEFAULT_DURATION,
                   help=_("length in seconds (default 4)"))
    p.add_argument("--fps", type=float, default=DEFAULT_FPS,
                   help=_("frames per second (default 12.5)"))
    p.add_argument("--size", default="1400x900", help=_("window size WxH (default 1400x900)"))
    p.add_argument("--open", dest="open_file", default=None, help=_("keyframe file to open first"))
    p.add_argument("--force", action="store_true", help=_("replace OUTPUT if it exists"))
    p.add_argument("--region", choices=("window", "view"), default="window",
                   help=_("what to record: the whole window (default) or only the view's 3D "
                          "scene and plots"))
    add_look_options(p)
    add_present_option(p)
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from quatlab.app.commands.common import fail
    from quatlab.app.commands.screenshot import _parse_size, check_scale
    from quatlab.app.io.animation_io import AnimationError, check_output, write_animation

    try:
        check_output(args.output, force=args.force)
        size = _parse_size(args.size)
        check_scale(args.scale)
    except ValueError as exc:
        return fail(PROG, str(exc))
    for name in ("duration", "fps"):
        value = getattr(args, name)
        if not (value > 0 and value < 1e6):
            return fail(PROG, _("--{name} must be a positive number, got {value}").format(
                name=name, value=value))
    frames = round(args.duration * args.fps)
    if not 2 <= frames <= MAX_FRAMES:
        return fail(PROG, _("--duration x --fps must give 2 to {most} frames, got {frames}").format(
            most=MAX_FRAMES, frames=frames))
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        return fail(PROG, _("no display: run under Xvfb, e.g. `xvfb-run -a quatlab record ...`"))
    os.environ.setdefault("QT_QPA_PLATFORM", "xcb")
    from quatlab.app.commands.screenshot import show_window
    from quatlab.app.model import presets
    from quatlab.app.model.state import LessonState
    from quatlab.app.qt.recorder import stage_of, sweep_frames
    from quatlab.app.qt.window import view_names

    if args.view not in view_names():
        return fail(PROG, _("unknown view {view!r}; choose one of: {views}").format(
            view=args.view, views=", ".join(view_names())))
    try:
        state = LessonState.from_preset(args.preset or presets.DEFAULT_PRESET)
    except ValueError as exc:
        return fail(PROG, str(exc))
    shown, problem = show_window(state, args.view, size, open_file=args.open_file,
                                 theme=args.theme, scale=args.scale, present=args.present)
    if problem:
        return fail(PROG, problem)
    win, _first = shown
    region = stage_of(win.current_view()) if args.region == "view" else None
    tty = sys.stderr.isatty()

    def frames_with_progress():
        for i, frame in enumerate(sweep_frames(win, frames, region=region), start=1):
            if tty:
                print("\r" + PROG + ": " + _("frame {i} of {n}").format(i=i, n=frames),
                      end="", file=sys.stderr, flush=True)
            yield frame
        if tty:
            print(file=sys.stderr)

    try:
        write_animation(args.output, frames_with_progress(), fps=args.fps, force=args.force)
    except AnimationError as exc:
        return fail(PROG, str(exc))
    w, h = size if region is None else (region.width(), region.height())
    print(_("wrote {file} ({n} frames at {fps:g} fps, {w}x{h}, view {view})").format(
        file=args.output, n=frames, fps=args.fps, w=w, h=h, view=args.view))
    win.close()
    return 0
