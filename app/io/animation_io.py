"""Encode a sequence of RGB frames as an animated GIF or an MP4 video, written atomically. No Qt.

Slides and handouts want a sweep of t as one file (``quatlab record``,
File > Export animation). Encoding goes through imageio: Pillow writes GIF,
imageio-ffmpeg (an optional dependency that ships its own ffmpeg) writes MP4.
The file appears complete or not at all, through :mod:`quatlab.app.io.atomic`
(docs/formats.md, "Animations").

Examples
--------
>>> import numpy as np, pathlib, tempfile
>>> frames = [np.full((8, 8, 3), v, np.uint8) for v in (0, 128, 255)]
>>> out = pathlib.Path(tempfile.mkdtemp()) / "sweep.gif"
>>> write_animation(out, frames, fps=10)
>>> frame_count(out)
3
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.io.atomic import write_files

__all__ = ["FORMATS", "AnimationError", "write_animation", "encode_animation", "frame_count",
           "check_output", "DEFAULT_DURATION", "DEFAULT_FPS", "MAX_FRAMES"]

#: ``quatlab record`` and File > Export animation: length (s), frame rate, most frames.
DEFAULT_DURATION = 4.0
DEFAULT_FPS = 12.5
MAX_FRAMES = 2000

#: Suffix -> what writes it (for messages).
FORMATS = {".gif": "Pillow", ".mp4": "imageio-ffmpeg"}

#: Frames per second a GIF can hold exactly: its delays are whole centiseconds.
_GIF_MAX_FPS = 50


class AnimationError(ValueError):
    """The animation cannot be written; ``str()`` names the file and the problem."""

    def __init__(self, path, problem: str):
        self.path = os.fspath(path)
        super().__init__(f"{self.path}: {problem}")


def check_output(path, *, force: bool = False) -> Path:
    """Refuse an output QuatLab cannot write, before any frame is rendered.

    The suffix must be ``.gif`` or ``.mp4``, the folder must exist, an
    existing file is kept unless ``force``, and MP4 needs imageio-ffmpeg.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise AnimationError(path, _("unknown format {suffix!r}; use .gif or .mp4").format(
            suffix=path.suffix or '(none)'))
    if not path.parent.is_dir():
        raise AnimationError(path, _("the folder {parent} does not exist").format(
            parent=path.parent))
    if path.exists() and not force:
        raise AnimationError(path, _("exists already; choose another name or pass --force"))
    if suffix == ".mp4":
        try:
            import imageio_ffmpeg  # noqa: F401
        except ImportError:
            raise AnimationError(
                path, _("MP4 needs the imageio-ffmpeg package (pip install imageio-ffmpeg); "
                        "GIF works without it")) from None
    return path


def _as_frame(frame, shape) -> np.ndarray:
    arr = np.asarray(frame)
    if arr.dtype != np.uint8 or arr.ndim != 3 or arr.shape[2] != 3:
        raise ValueError(_("frames must be (H, W, 3) uint8 arrays, got {dtype} {shape}").format(
            dtype=arr.dtype, shape=arr.shape))
    if shape is not None and arr.shape != shape:
        raise ValueError(
            _("every frame must have the first frame's shape {shape}, got {shape2}").format(
            shape=shape, shape2=arr.shape))
    return arr


def write_animation(path, frames: Iterable[np.ndarray], *, fps: float,
                    force: bool = False) -> None:
    """Write ``frames`` (each ``(H, W, 3)`` uint8 RGB) to ``path`` at ``fps`` frames per second.

    GIF loops forever; its frame delay is rounded to whole centiseconds, so
    ``fps`` is capped at 50. MP4 is H.264 (``yuv420p``, so players and slide
    software open it), which needs even frame sizes: odd ones are padded by
    one row or column of the last pixels.

    Raises
    ------
    AnimationError
        Bad suffix, existing file without ``force``, missing encoder, no frames.
    ValueError
        Frames of the wrong type or of different shapes.
    """
    path = check_output(path, force=force)
    data = encode_animation(path, frames, fps=fps)
    try:
        write_files([(path, data)], force=force)
    except FileExistsError:
        raise AnimationError(path,
            _("exists already; choose another name or pass --force")) from None
    except OSError as exc:
        raise AnimationError(path, _("cannot write: {strerror}").format(
            strerror=exc.strerror or exc)) from None


def encode_animation(path, frames: Iterable[np.ndarray], *, fps: float) -> bytes:
    """The bytes :func:`write_animation` would write to ``path`` (its suffix picks the format).

    Writes nothing: File > Export animation encodes on a worker thread and
    publishes the file only if the export was not cancelled meanwhile.
    """
    path = Path(path)
    if not np.isfinite(fps) or fps <= 0:
        raise AnimationError(path, _("fps must be positive, got {fps}").format(fps=fps))
    first = None
    stack = []
    for frame in frames:
        arr = _as_frame(frame, first)
        first = arr.shape
        stack.append(arr)
    if not stack:
        raise AnimationError(path, _("no frames to write"))
    import imageio.v3 as iio

    if path.suffix.lower() == ".gif":
        buf = io.BytesIO()
        delay_ms = 1000.0 / min(fps, _GIF_MAX_FPS)
        iio.imwrite(buf, np.stack(stack), extension=".gif", duration=delay_ms, loop=0)
        data = buf.getvalue()
    else:
        h, w, _depth = first
        pad = ((0, h % 2), (0, w % 2), (0, 0))
        video = [np.pad(f, pad, mode="edge") for f in stack] if (h % 2 or w % 2) else stack
        # ffmpeg wants a file name; encode in a private folder, then publish atomically.
        import imageio.v2 as iio2

        with tempfile.TemporaryDirectory(prefix="quatlab-record-") as tmp:
            scratch = Path(tmp) / "out.mp4"
            writer = iio2.get_writer(scratch, format="FFMPEG", fps=fps, codec="libx264",
                                     pixelformat="yuv420p", macro_block_size=1)
            try:
                for f in video:
                    writer.append_data(f)
            finally:
                writer.close()
            data = scratch.read_bytes()
    return data


def frame_count(path) -> int:
    """How many frames the animation at ``path`` holds (a check for tests and the CLI)."""
    import imageio.v3 as iio

    return sum(1 for _frame in iio.imiter(path))
