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
from quatlab.app.io.bvh import motion as M
from quatlab.app.io.bvh.euler import audit_rotations, audit_rotations_capped, filtered_motion
from quatlab.app.io.bvh.kinematics import (
    compose_world,
    joint_rotations,
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
    Lines,
    Tokens,
    error_at,
    parse_hierarchy,
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
    "joint_rotations",
    "local_translations",
    "local_matrices",
    "world_matrices",
    "compose_world",
    "world_positions",
    "audit_rotations",
    "audit_rotations_capped",
    "filtered_motion",
]

#: Largest file read (bytes): far above any real capture, small enough to fit in memory.
MAX_BYTES = 512 * 2**20


@dataclass(frozen=True, eq=False)
class BvhLayout:
    """Where a BVH file's frame lines are in its bytes, to write it back unchanged around them.

    ``data`` is the whole file as read. ``header`` (every byte before the
    first frame line: HIERARCHY, MOTION, ``Frames:`` and ``Frame Time:``) is
    ``data[:body_start]``; the frame lines with their line ends are
    ``data[body_start:body_end]``; ``tail`` (blank lines after the last
    frame line) is ``data[body_end:]``. ``first_row_line`` is the 1-based line
    number of the first frame line.
    """

    data: bytes
    body_start: int
    body_end: int
    newline: str
    first_row_line: int

    @property
    def header(self) -> bytes:
        return self.data[:self.body_start]

    @property
    def tail(self) -> bytes:
        return self.data[self.body_end:]

    @property
    def rows(self) -> tuple[str, ...]:
        """The frame lines without their line ends (a copy of the text: for small files)."""
        body = self.data[self.body_start:self.body_end].decode("utf-8")
        lines = body.split("\n")
        if body.endswith("\n"):
            lines.pop()
        return tuple(r[:-1] if r.endswith("\r") else r for r in lines)

    @property
    def row_ends(self) -> tuple[str, ...]:
        """Each frame line's end: ``"\r\n"``, ``"\n"``, or ``"\r"``/``""`` at the end of file."""
        body = self.data[self.body_start:self.body_end].decode("utf-8")
        lines = body.split("\n")
        ends = ["\r\n" if r.endswith("\r") else "\n" for r in lines[:-1]]
        if lines[-1]:
            ends.append("\r" if lines[-1].endswith("\r") else "")
        return tuple(ends)


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
    lines = Lines(data, len(bom), path)   # decoded as the hierarchy is read, not all at once

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
    start = min(lines.start(first), len(data))
    n_cols = sum(len(c) for c in channels)
    if n_cols:
        end = M.body_end(data, start)
    else:
        # No channels at all: each frame line is blank, so blank lines count.
        end = min(lines.start(first + n_frames), len(data))
    n_rows = M.count_rows(data, start, end)
    # Compare with the lines present before allocating anything from n_frames.
    if n_rows < n_frames:
        raise error_at(
            path, frames_line,
            _("truncated motion: 'Frames: {n_frames}' but only {n_rows} frame lines "
              "follow").format(n_frames=n_frames, n_rows=n_rows),
        )
    if n_rows > n_frames:
        raise error_at(
            path, first + n_frames + 1,
            _("more frame lines ({n_rows}) than 'Frames: {n_frames}' declares").format(
                n_rows=n_rows, n_frames=n_frames),
        )
    col_names = [f"{short_text(n)} {c}" for n, cs in zip(names, channels, strict=True) for c in cs]
    rot_cols = np.array([i for i, c in enumerate(col_names) if c.endswith("rotation")],
                        dtype=np.intp)
    motion = M.allocate(n_frames, n_cols, path, frames_line)
    M.read_rows(data, start, end, motion, first, path, rot_cols, col_names)

    newline = "\r\n" if lines[0].endswith("\r") else "\n"
    layout = BvhLayout(data, start, end, newline, first + 1)
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

