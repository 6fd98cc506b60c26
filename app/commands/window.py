"""``quatlab`` without a subcommand: open the window, optionally on a keyframe file."""

from __future__ import annotations

from pathlib import Path

from quatlab.app.commands.common import fail
from quatlab.app.model import presets
from quatlab.app.model.state import LessonState
from quatlab.app.qt.window import MainWindow, make_app

__all__ = ["run_window"]


def run_window(file: str | None = None, preset: str | None = None, t: float | None = None) -> int:
    """Open the window (the ``quatlab`` command without a subcommand)."""
    app = make_app()
    try:
        state = LessonState.from_preset(preset or presets.DEFAULT_PRESET,
                                        t=0.5 if t is None else t)
    except ValueError as exc:
        return fail("quatlab", str(exc))
    win = MainWindow(state)
    if file:
        try:
            win.open_keyframes(file)
        except (OSError, ValueError) as exc:
            # Started from a desktop there may be no terminal: say it in both.
            win._error(f"Could not open {Path(file).name}", exc)
            return fail("quatlab", str(exc))
    win.show()
    return app.exec()
