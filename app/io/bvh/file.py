"""BVH motion capture files: read, write back faithfully, and turn channels into rotations.

This module holds the file types and the reader; the package
(:mod:`quatlab.app.io.bvh`) re-exports them with the writer (:mod:`.write`),
the kinematics (:mod:`.kinematics`) and the Euler audit (:mod:`.euler`), so
callers need one import.

A BVH file (see ``docs/formats.md``) has a HIERARCHY of joints (ROOT,
JOINT, End Site, each with an OFFSET and a CHANNELS list in the joint's own
order) and a MOTION block: ``Frames:``, ``Frame Time:`` and one line of
channel values per frame (rotations in degrees).

Conventions: rotation channels listed as ``Zrotation Xrotation Yrotation``
mean ``R = Rz Rx Ry`` acting on column vectors, scipy's intrinsic order
``"ZXY"``; quaternions are **(w, x, y, z)**, scalar first; a joint's local
transform is ``T(offset + position channels) R``, whatever the position of
the position channels in its list; a world matrix is ``M_parent M_local``.

Why not ``bvhio``: it was evaluated (1.5.4). It stores offsets and poses as
float32 ``pyglm`` objects (lossy, and two extra dependencies), keeps no text
layout to write back byte-for-byte, reports errors as ``SyntaxError`` with
line numbers that are not propagated across joints (and ``IndexError`` at a
truncated file), and opens any path with ``open()`` (a FIFO blocks). A
reader of this small grammar is shorter than the adapter would be.

Hostile input: only regular files are opened (checked before opening, and
opened non-blocking), at most :data:`MAX_BYTES` are read, nothing is
allocated from the declared ``Frames:`` count before it is checked against
the lines present, and every problem is a :class:`BvhError` whose message
is one line: file, line number, problem.

Examples
--------
>>> import pathlib, tempfile
>>> import numpy as np
>>> from quatlab.app.io import bvh
>>> text = '''HIERARCHY
... ROOT Hips
... {
...   OFFSET 0 0 0
...   CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
...   JOINT Knee
...   {
...     OFFSET 0 -10 0
...     CHANNELS 3 Zrotation Xrotation Yrotation
...     End Site
...     {
...       OFFSET 0 -10 0
...     }
...   }
... }
... MOTION
... Frames: 2
... Frame Time: 0.04
... 0.00 90.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00
... 0.00 90.00 0.00 90.00 0.00 0.00 0.00 0.00 0.00
... '''
>>> path = pathlib.Path(tempfile.mkdtemp()) / "walk.bvh"
>>> _ = path.write_text(text)
>>> b = bvh.read_bvh(path)
>>> b.names, b.motion.shape, b.rotation_order(1)
(('Hips', 'Knee'), (2, 9), 'ZXY')
>>> np.round(bvh.world_positions(b)[1], 9) + 0.0   # frame 1: the hips turn 90 deg about Z
array([[ 0., 90.,  0.],
       [10., 90.,  0.]])
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.io import safe_read
from quatlab.app.io.bvh.euler import audit_rotations, filtered_motion
from quatlab.app.io.bvh.kinematics import (
    compose_world,
    local_matrices,
    local_rotations,
    local_translations,
    world_matrices,
    world_positions,
)
from quatlab.app.io.bvh.parse import (
    CHANNEL_NAMES,
    BvhError,
    EndSite,
    Tokens,
    check_angles,
    decode_text,
    error_at,
    fast_numbers,
    parse_hierarchy,
    parse_numbers,
    short_text,
)
from quatlab.app.io.bvh.write import format_bvh, write_bvh

__all__ = [
    "MAX_BYTES",
    "CHANNEL_NAMES",
    "BvhError",
    "EndSite",
    "BvhLayout",
    "BvhFile",
    "read_bvh",
    "parse_bvh",
    "format_bvh",
    "write_bvh",
    "local_rotations",
    "local_translations",
    "local_matrices",
    "world_matrices",
    "compose_world",
    "world_positions",
    "audit_rotations",
    "filtered_motion",
]

#: Largest file read (bytes): far above any real capture, small enough to fit in memory.
MAX_BYTES = 512 * 2**20


@dataclass(frozen=True, eq=False)
class BvhLayout:
    """The text of a BVH file around its numbers, to write it back unchanged.

    ``header`` is every byte before the first frame line (HIERARCHY, MOTION,
    ``Frames:`` and ``Frame Time:`` lines) exactly as read; ``rows`` are the
    frame lines without their line ends, ``row_ends`` their line ends
    (``"\\r\\n"``, ``"\\n"``, or ``""`` for a last line without one);
    ``tail`` is what follows the last frame line (blank lines), as bytes.
    """

    header: bytes
    rows: tuple[str, ...]
    row_ends: tuple[str, ...]
    tail: bytes
    newline: str
    first_row_line: int


@dataclass(frozen=True, eq=False)
class BvhFile:
    """A BVH file: hierarchy, motion and the layout to write it back.

    Joints are in file order (depth first), so a parent always comes before
    its children. ``parents[j]`` is -1 for a root. ``offsets`` is
    ``(J, 3)``; ``channels[j]`` are joint ``j``'s channel names in its own
    order; ``motion`` is ``(F, C)`` float64 with the columns of joint ``j``
    at ``channel_start[j] : channel_start[j] + len(channels[j])``.
    """

    path: str
    names: tuple[str, ...]
    parents: np.ndarray
    offsets: np.ndarray
    channels: tuple[tuple[str, ...], ...]
    end_sites: tuple[EndSite, ...]
    motion: np.ndarray
    frame_time: float
    layout: BvhLayout
    #: What the reader accepted but a user would want to know, one line each
    #: (:func:`~quatlab.app.io.bvh.parse.hierarchy_notes`).
    notes: tuple[str, ...] = ()

    @property
    def n_joints(self) -> int:
        return len(self.names)

    @property
    def n_frames(self) -> int:
        return int(self.motion.shape[0])

    @functools.cached_property
    def channel_start(self) -> np.ndarray:
        """First motion column of each joint, ``(J,)`` (read-only).

        Computed once: callers ask for it per joint, and a sum over all joints
        per call made a file of J joints cost J² (10,000 joints: 26 s).
        """
        sizes = np.array([len(c) for c in self.channels], dtype=np.intp)
        start = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.intp)
        start.flags.writeable = False
        return start

    def rotation_order(self, joint: int) -> str:
        """Joint's rotation channels as an intrinsic axis string: ``"ZXY"`` for Z X Y rotation."""
        return "".join(c[0] for c in self.channels[joint] if c.endswith("rotation"))

    def rotation_columns(self, joint: int) -> np.ndarray:
        """Motion columns of the joint's rotation channels, in channel order."""
        start = int(self.channel_start[joint])
        return np.array(
            [start + i for i, c in enumerate(self.channels[joint]) if c.endswith("rotation")],
            dtype=np.intp,
        )

    def euler_degrees(self, joint: int) -> np.ndarray:
        """The joint's rotation channels, ``(F, k)`` degrees, in channel order."""
        return self.motion[:, self.rotation_columns(joint)]


def read_regular(path: Path, limit: int) -> bytes:
    """The file's bytes through the one safe reader (:mod:`quatlab.app.io.safe_read`)."""
    try:
        return safe_read.read_regular(path, limit=limit)
    except safe_read.FileRefused as exc:
        raise error_at(str(path), None, exc.problem) from None


def read_bvh(path, *, max_bytes: int = MAX_BYTES) -> BvhFile:
    """Read the BVH file at ``path``; a :class:`BvhError` for anything unreadable.

    Examples
    --------
    >>> read_bvh("/dev/null")
    Traceback (most recent call last):
    ...
    quatlab.app.io.bvh.parse.BvhError: /dev/null: not a regular file (a FIFO, device or socket)...
    """
    path = Path(path)
    return parse_bvh(read_regular(path, max_bytes), str(path))


def parse_bvh(data: bytes, path: str = "<bvh>") -> BvhFile:
    """Parse the bytes of a BVH file; ``path`` names it in error messages.

    Examples
    --------
    >>> parse_bvh(b"HIERARCHY\\nROOT A\\n{\\n OFFSET 0 0 0\\n CHANNELS 1 Wrotation\\n}\\n", "x.bvh")
    Traceback (most recent call last):
    ...
    quatlab.app.io.bvh.parse.BvhError: x.bvh: line 5: unknown channel name 'Wrotation' ...
    """
    bom = b"\xef\xbb\xbf" if data.startswith(b"\xef\xbb\xbf") else b""
    text = decode_text(data[len(bom):], path)
    # Split on "\n" only (not str.splitlines, which also splits on \x0b, \x1c,
    # ...): line numbers must match what an editor shows. "\r" stays on the
    # line and is whitespace to split().
    lines = text.split("\n")

    tk = Tokens(lines, path)
    names, parents, offsets, channels, end_sites, notes = parse_hierarchy(tk, path)

    tk.next("MOTION")
    if tk.rest_of_line():
        raise error_at(path, tk.lineno, _("unexpected text after MOTION"))
    tok = tk.peek()
    if tok != "Frames:":
        raise error_at(path, tk.lineno if tok else len(lines), _("missing 'Frames:' after "
                                                                 "MOTION"))
    tk.next("Frames:")
    frames_line = tk.lineno
    if tk.at_line_end():
        raise error_at(path, frames_line, _("'Frames:' without a frame count"))
    n_frames = tk.integer(_("frame count"))
    if tk.rest_of_line():
        raise error_at(path, frames_line, _("unexpected text after the frame count"))
    tok = tk.peek()
    if tok != "Frame":
        raise error_at(
            path, tk.lineno if tok else len(lines), _("missing 'Frame Time:' after 'Frames:'")
        )
    tk.next("Frame")
    ft_line = tk.lineno
    if tk.next("'Time:'") != "Time:" or tk.lineno != ft_line:
        raise error_at(path, ft_line, _("missing 'Frame Time:' after 'Frames:'"))
    # Not from the next line: that is the first frame.
    if tk.at_line_end():
        raise error_at(path, ft_line, _("'Frame Time:' without a value"))
    frame_time = tk.number(_("Frame Time"))
    if tk.rest_of_line():
        raise error_at(path, ft_line, _("unexpected text after the frame time"))
    if frame_time <= 0:
        raise error_at(path, ft_line, _("Frame Time {frame_time:g} is not positive").format(
            frame_time=frame_time))

    # Frame lines follow the Frame Time line; trailing blank lines are layout.
    first = ft_line                      # 0-based index of the first frame line
    n_cols = sum(len(c) for c in channels)
    last = len(lines)
    if n_cols == 0:
        # No channels at all: each frame line is blank, so blank lines count.
        last = min(last, first + n_frames)
    while n_cols and last > first and not lines[last - 1].strip():
        last -= 1
    raw_rows = lines[first:last]
    # Compare with the lines present before allocating anything from n_frames.
    if len(raw_rows) < n_frames:
        raise error_at(
            path, frames_line,
            _("truncated motion: 'Frames: {n_frames}' but only {n_rows} frame lines "
              "follow").format(n_frames=n_frames, n_rows=len(raw_rows)),
        )
    if len(raw_rows) > n_frames:
        raise error_at(
            path, first + n_frames + 1,
            _("more frame lines ({n_rows}) than 'Frames: {n_frames}' declares").format(
                n_rows=len(raw_rows), n_frames=n_frames),
        )
    rows = [r[:-1] if r.endswith("\r") else r for r in raw_rows]
    motion = fast_numbers(rows, n_cols)
    if motion is None:
        # Something is wrong (or unusual): find the first bad line, value by value.
        split = [r.split() for r in rows]
        for i, toks in enumerate(split):
            if len(toks) != n_cols:
                text = (_("blank frame line but the hierarchy declares {n_cols} channels")
                        if not toks else
                        _("{n} values but the hierarchy declares {n_cols} channels"))
                raise error_at(path, first + i + 1, text.format(n=len(toks), n_cols=n_cols))
        motion = parse_numbers(rows, split, n_cols, first, path)
    col_names = [f"{short_text(n)} {c}" for n, cs in zip(names, channels, strict=True) for c in cs]
    rot_cols = np.array([i for i, c in enumerate(col_names) if c.endswith("rotation")],
                        dtype=np.intp)
    check_angles(motion, rot_cols, col_names, first, path)

    newline = "\r\n" if lines[0].endswith("\r") else "\n"
    row_ends = tuple(
        ("\r\n" if raw.endswith("\r") else "\n") if first + i + 1 < len(lines) else
        ("\r" if raw.endswith("\r") else "")
        for i, raw in enumerate(raw_rows)
    )
    head = "\n".join(lines[:first]) + ("\n" if first < len(lines) else "")
    header = bom + head.encode("utf-8")
    tail = "\n".join(lines[last:]).encode("utf-8")
    layout = BvhLayout(header, tuple(rows), row_ends, tail, newline, first + 1)
    arrays = [np.array(parents, dtype=np.intp),
              np.array(offsets, dtype=np.float64).reshape(-1, 3), motion]
    arrays += [e.offset for e in end_sites]
    # Read-only: the layout's text must keep matching these numbers, or a
    # write-back would keep lines whose values were edited in place.
    for arr in arrays:
        arr.setflags(write=False)
    return BvhFile(
        path=path,
        names=tuple(names),
        parents=arrays[0],
        offsets=arrays[1],
        channels=channels,
        end_sites=tuple(end_sites),
        motion=motion,
        frame_time=frame_time,
        layout=layout,
        notes=tuple(notes),
    )

