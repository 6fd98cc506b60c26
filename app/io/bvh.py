"""BVH motion capture files: read, write back faithfully, and turn channels into rotations.

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

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from quatlab.app.io.atomic import write_files
from quatlab.math import euler_track as E
from quatlab.math import quaternion as Q

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

#: The six channel names BVH knows (matched case-insensitively, stored like this).
CHANNEL_NAMES = ("Xposition", "Yposition", "Zposition", "Xrotation", "Yrotation", "Zrotation")
_CANONICAL = {n.lower(): n for n in CHANNEL_NAMES}

# Characters a motion value may contain; anything else (inf, nan, 1_000, ...)
# is found by one regex scan instead of a check per value.
_NOT_NUMERIC = re.compile(r"[^0-9eE+\-.\s]")
_SEPARATORS = re.compile(r"(\s+)")
# What the fast path (np.loadtxt) reads exactly as the careful path does.
_NOT_PLAIN = re.compile(r"[^0-9eE+\-. \t\n]")
_BLANK_ROW = re.compile(r"(?:^|\n)[ \t]*(?:\n|$)")


class BvhError(ValueError):
    """A BVH file that cannot be read or written; the message is one line: file, line, problem."""


def _short(text: str, limit: int = 40) -> str:
    s = repr(text)
    return s if len(s) <= limit else s[: limit - 4] + "...'"


def _error(path: str, line: int | None, problem: str) -> BvhError:
    where = f"{path}: line {line}: " if line is not None else f"{path}: "
    return BvhError((where + problem).replace("\n", " ").replace("\r", " "))


@dataclass(frozen=True, eq=False)
class EndSite:
    """An End Site: the joint it ends (index) and its offset from that joint, shape (3,)."""

    parent: int
    offset: np.ndarray


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

    @property
    def n_joints(self) -> int:
        return len(self.names)

    @property
    def n_frames(self) -> int:
        return int(self.motion.shape[0])

    @property
    def channel_start(self) -> np.ndarray:
        """First motion column of each joint, ``(J,)``."""
        sizes = np.array([len(c) for c in self.channels], dtype=np.intp)
        return np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.intp)

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


# --------------------------------------------------------------------------- reading


def _read_regular(path: Path, limit: int) -> bytes:
    where = str(path)
    try:
        st = os.stat(path)
    except OSError as exc:
        raise _error(where, None, f"cannot read: {exc.strerror or exc}") from None
    # Refuse FIFOs, devices and sockets before opening: opening a FIFO
    # blocks until a writer appears, and a device may never end.
    if not stat.S_ISREG(st.st_mode):
        raise _error(where, None, "not a regular file (a FIFO, device, socket or folder)")
    if st.st_size > limit:
        raise _error(where, None, f"file is {st.st_size} bytes, more than the {limit} allowed")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise _error(where, None, f"cannot read: {exc.strerror or exc}") from None
    try:
        # The path may have been swapped between stat and open.
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _error(where, None, "not a regular file")
        chunks = []
        size = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:
                raise _error(where, None, f"file is more than the {limit} bytes allowed")
            chunks.append(chunk)
    except OSError as exc:
        raise _error(where, None, f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def read_bvh(path, *, max_bytes: int = MAX_BYTES) -> BvhFile:
    """Read the BVH file at ``path``; a :class:`BvhError` for anything unreadable.

    Examples
    --------
    >>> read_bvh("/dev/null")
    Traceback (most recent call last):
    ...
    quatlab.app.io.bvh.BvhError: /dev/null: not a regular file (a FIFO, device, socket or folder)
    """
    path = Path(path)
    return parse_bvh(_read_regular(path, max_bytes), str(path))


class _Tokens:
    """Tokens of the hierarchy lines with their line numbers, read front to back."""

    def __init__(self, lines: list[str], path: str):
        self.lines = lines
        self.path = path
        self.line = 0           # index of the current line
        self.toks: list[str] = []
        self.pos = 0

    def _fill(self) -> bool:
        while self.pos >= len(self.toks):
            if self.line >= len(self.lines):
                return False
            self.toks = self.lines[self.line].split()
            self.pos = 0
            self.line += 1
        return True

    @property
    def lineno(self) -> int:
        return max(self.line, 1)

    def peek(self) -> str | None:
        return self.toks[self.pos] if self._fill() else None

    def next(self, what: str) -> str:
        if not self._fill():
            raise _error(self.path, len(self.lines), f"file ends where {what} was expected")
        tok = self.toks[self.pos]
        self.pos += 1
        return tok

    def at_line_end(self) -> bool:
        """No token left on the current line (the next one would come from a later line)."""
        return self.pos >= len(self.toks)

    def rest_of_line(self) -> list[str]:
        rest = self.toks[self.pos:]
        self.pos = len(self.toks)
        return rest

    def expect(self, word: str) -> None:
        tok = self.next(repr(word))
        if tok != word:
            raise _error(self.path, self.lineno, f"expected {word!r}, found {_short(tok)}")

    def number(self, what: str) -> float:
        tok = self.next(what)
        try:
            value = float(tok)
        except ValueError:
            raise _error(self.path, self.lineno, f"{what} {_short(tok)} is not a number") from None
        if not np.isfinite(value):
            raise _error(self.path, self.lineno, f"{what} {_short(tok)} is not finite")
        return value

    def integer(self, what: str) -> int:
        tok = self.next(what)
        if not tok.isdigit() or not tok.isascii():
            raise _error(self.path, self.lineno, f"{what} {_short(tok)} is not a whole number")
        return int(tok)


def _decode(data: bytes, path: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise _error(path, line, "not UTF-8 text (a binary file?)") from None


def _parse_hierarchy(tk: _Tokens, path: str):
    names: list[str] = []
    parents: list[int] = []
    offsets: list[tuple[float, float, float] | None] = []
    channels: list[tuple[str, ...] | None] = []
    end_sites: list[EndSite] = []

    tk.expect("HIERARCHY")
    if tk.peek() != "ROOT":
        raise _error(path, tk.lineno, f"expected 'ROOT', found {_short(tk.peek() or '')}")

    # An explicit stack, not recursion: a hostile file may nest deeply.
    stack: list[int] = []        # open joints; -2 marks an open End Site
    end_offset: list[tuple[float, float, float] | None] = [None]
    while True:
        tok = tk.peek()
        if tok is None:
            raise _error(path, len(tk.lines), "file ends inside the HIERARCHY (no MOTION)")
        if not stack and tok == "MOTION":
            break
        tk.next("a keyword")
        line = tk.lineno
        if tok in ("ROOT", "JOINT"):
            if (tok == "ROOT") != (not stack) or (stack and stack[-1] == -2):
                raise _error(path, line, f"{tok} is not allowed here")
            name = " ".join(tk.rest_of_line())
            if not name:
                raise _error(path, line, f"{tok} without a name")
            names.append(name)
            parents.append(stack[-1] if stack else -1)
            offsets.append(None)
            channels.append(None)
            tk.expect("{")
            stack.append(len(names) - 1)
        elif tok == "End":
            if not stack or stack[-1] == -2:
                raise _error(path, line, "End Site is not allowed here")
            rest = tk.rest_of_line()
            if rest != ["Site"]:
                raise _error(path, line, "expected 'End Site'")
            tk.expect("{")
            stack.append(-2)
            end_offset[0] = None
        elif tok == "OFFSET":
            if not stack:
                raise _error(path, line, "OFFSET outside a joint")
            xyz = tuple(tk.number("OFFSET value") for _ in range(3))
            if tk.rest_of_line():
                raise _error(path, line, "OFFSET has more than 3 values")
            if stack[-1] == -2:
                if end_offset[0] is not None:
                    raise _error(path, line, "second OFFSET in an End Site")
                end_offset[0] = xyz
            else:
                if offsets[stack[-1]] is not None:
                    raise _error(path, line, f"second OFFSET in joint {_short(names[stack[-1]])}")
                offsets[stack[-1]] = xyz
        elif tok == "CHANNELS":
            if not stack or stack[-1] == -2:
                raise _error(path, line, "CHANNELS outside a joint")
            j = stack[-1]
            if channels[j] is not None:
                raise _error(path, line, f"second CHANNELS in joint {_short(names[j])}")
            count = tk.integer("channel count")
            listed = tk.rest_of_line()
            if len(listed) != count:
                raise _error(
                    path, line, f"CHANNELS says {count} channels but names {len(listed)}"
                )
            canon = []
            for c in listed:
                name = _CANONICAL.get(c.lower())
                if name is None:
                    raise _error(
                        path, line,
                        f"unknown channel name {_short(c)} (expected {', '.join(CHANNEL_NAMES)})",
                    )
                if name.endswith("position") and name in canon:
                    raise _error(path, line, f"channel {name} listed twice")
                canon.append(name)
            channels[j] = tuple(canon)
        elif tok == "}":
            top = stack.pop()
            if top == -2:
                if end_offset[0] is None:
                    raise _error(path, line, "End Site without OFFSET")
                end_sites.append(EndSite(stack[-1], np.array(end_offset[0])))
            elif offsets[top] is None:
                raise _error(path, line, f"joint {_short(names[top])} has no OFFSET")
            if tk.rest_of_line():
                raise _error(path, line, "unexpected text after '}'")
        else:
            raise _error(path, line, f"unexpected {_short(tok)} in the HIERARCHY")

    chans = tuple(c if c is not None else () for c in channels)
    return names, parents, offsets, chans, end_sites


def parse_bvh(data: bytes, path: str = "<bvh>") -> BvhFile:
    """Parse the bytes of a BVH file; ``path`` names it in error messages.

    Examples
    --------
    >>> parse_bvh(b"HIERARCHY\\nROOT A\\n{\\n OFFSET 0 0 0\\n CHANNELS 1 Wrotation\\n}\\n", "x.bvh")
    Traceback (most recent call last):
    ...
    quatlab.app.io.bvh.BvhError: x.bvh: line 5: unknown channel name 'Wrotation' (expected ...)
    """
    bom = b"\xef\xbb\xbf" if data.startswith(b"\xef\xbb\xbf") else b""
    text = _decode(data[len(bom):], path)
    # Split on "\n" only (not str.splitlines, which also splits on \x0b, \x1c,
    # ...): line numbers must match what an editor shows. "\r" stays on the
    # line and is whitespace to split().
    lines = text.split("\n")

    tk = _Tokens(lines, path)
    names, parents, offsets, channels, end_sites = _parse_hierarchy(tk, path)

    tk.next("MOTION")
    if tk.rest_of_line():
        raise _error(path, tk.lineno, "unexpected text after MOTION")
    tok = tk.peek()
    if tok != "Frames:":
        raise _error(path, tk.lineno if tok else len(lines), "missing 'Frames:' after MOTION")
    tk.next("Frames:")
    frames_line = tk.lineno
    if tk.at_line_end():
        raise _error(path, frames_line, "'Frames:' without a frame count")
    n_frames = tk.integer("frame count")
    if tk.rest_of_line():
        raise _error(path, frames_line, "unexpected text after the frame count")
    tok = tk.peek()
    if tok != "Frame":
        raise _error(
            path, tk.lineno if tok else len(lines), "missing 'Frame Time:' after 'Frames:'"
        )
    tk.next("Frame")
    ft_line = tk.lineno
    if tk.next("'Time:'") != "Time:" or tk.lineno != ft_line:
        raise _error(path, ft_line, "missing 'Frame Time:' after 'Frames:'")
    # Not from the next line: that is the first frame.
    if tk.at_line_end():
        raise _error(path, ft_line, "'Frame Time:' without a value")
    frame_time = tk.number("Frame Time")
    if tk.rest_of_line():
        raise _error(path, ft_line, "unexpected text after the frame time")
    if frame_time <= 0:
        raise _error(path, ft_line, f"Frame Time {frame_time:g} is not positive")

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
        raise _error(
            path, frames_line,
            f"truncated motion: 'Frames: {n_frames}' but only {len(raw_rows)} frame lines follow",
        )
    if len(raw_rows) > n_frames:
        raise _error(
            path, first + n_frames + 1,
            f"more frame lines ({len(raw_rows)}) than 'Frames: {n_frames}' declares",
        )
    rows = [r[:-1] if r.endswith("\r") else r for r in raw_rows]
    motion = _fast_numbers(rows, n_cols)
    if motion is None:
        # Something is wrong (or unusual): find the first bad line, value by value.
        split = [r.split() for r in rows]
        for i, toks in enumerate(split):
            if len(toks) != n_cols:
                problem = "blank frame line" if not toks else f"{len(toks)} values"
                raise _error(
                    path, first + i + 1,
                    f"{problem} but the hierarchy declares {n_cols} channels",
                )
        motion = _numbers(rows, split, n_cols, first, path)

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
    )


def _fast_numbers(rows: list[str], n_cols: int) -> np.ndarray | None:
    """The motion values when every line is ``n_cols`` finite numbers, else None.

    ``np.loadtxt`` parses in C and checks the column count of every line;
    the character scan first keeps out what it would read differently
    (``#`` comments, quotes) or that is not a plain number.
    """
    if not rows or n_cols == 0:
        return None
    joined = "\n".join(rows)
    # Only spaces and tabs as separators and no blank line: then loadtxt's
    # lines are exactly our rows (it skips blank lines and may split on other
    # line breaks, which would shift values between rows).
    if _NOT_PLAIN.search(joined) or _BLANK_ROW.search(joined):
        return None
    try:
        motion = np.loadtxt(rows, dtype=np.float64, ndmin=2, comments=None)
    except ValueError:
        return None
    # loadtxt skips blank lines: a row count that differs means one was there.
    if motion.shape != (len(rows), n_cols) or not np.all(np.isfinite(motion)):
        return None
    return motion


def _numbers(rows, split, n_cols: int, first: int, path: str) -> np.ndarray:
    """The motion values ``(F, C)``; the first bad value is reported with its line."""
    n = len(rows)
    if n == 0 or n_cols == 0:
        return np.zeros((n, n_cols))
    bad_row = None
    joined = "\n".join(rows)
    hit = _NOT_NUMERIC.search(joined)
    if hit:
        bad_row = joined.count("\n", 0, hit.start())
    if bad_row is None:
        try:
            flat = np.array([t for toks in split for t in toks], dtype=np.float64)
        except ValueError:
            flat = None
        if flat is not None:
            motion = flat.reshape(n, n_cols)
            finite = np.isfinite(motion)
            if finite.all():
                return motion
            bad_row = int(np.flatnonzero(~finite.all(axis=1))[0])
    if bad_row is None:                  # a malformed number such as "1.2.3" or "--1"
        for i, toks in enumerate(split):
            try:
                [float(t) for t in toks]
            except ValueError:
                bad_row = i
                break
    assert bad_row is not None
    for col, tok in enumerate(split[bad_row]):
        try:
            value = float(tok)
        except ValueError:
            value = None
        if value is None or "_" in tok:
            raise _error(
                path, first + bad_row + 1,
                f"value {col + 1} {_short(tok)} is not a number",
            )
        if not np.isfinite(value):
            raise _error(
                path, first + bad_row + 1,
                f"value {col + 1} {_short(tok)} is not finite (inf or nan)",
            )
    raise _error(path, first + bad_row + 1, "unreadable values")   # not reached


# --------------------------------------------------------------------------- writing


def _format_like(token: str, value: float) -> str:
    """``value`` printed with the precision and style of ``token`` from the same file."""
    mantissa, e, _ = token.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    if e:
        # Significant digits are not enough once the magnitude changes
        # (x + 360): keep every digit instead.
        return repr(float(value))
    if "." not in token and float(value).is_integer():
        return f"{value:.0f}"
    if "." not in token:
        return repr(float(value))        # the file wrote integers; keep every digit
    return f"{value:.{decimals}f}"


def format_bvh(bvh: BvhFile, motion) -> bytes:
    """The bytes of ``bvh`` with the motion values ``motion`` (``(F, C)``).

    The header (HIERARCHY to Frame Time) is kept byte for byte; frame lines
    whose values are unchanged are kept as read; in a changed line only the
    changed values are rewritten, with the number of decimals of the value
    they replace, keeping separators and line ends.
    """
    new = np.asarray(motion, dtype=np.float64)
    old = bvh.motion
    if new.shape != old.shape:
        raise _error(bvh.path, None, f"motion must have shape {old.shape}, got {new.shape}")
    if not np.all(np.isfinite(new)):
        raise _error(bvh.path, None, "motion contains NaN or infinity")
    lay = bvh.layout
    changed = new != old                 # -0.0 == 0.0: a sign of zero is no change
    dirty = np.flatnonzero(changed.any(axis=1)) if changed.size else np.array([], int)
    rows = list(lay.rows)
    for f in dirty:
        parts = _SEPARATORS.split(rows[f])
        start = 1 if parts and parts[0] == "" else 0
        for c in np.flatnonzero(changed[f]):
            k = start + 2 * int(c)
            parts[k] = _format_like(parts[k], float(new[f, c]))
        rows[f] = "".join(parts)
    body = "".join(r + e for r, e in zip(rows, lay.row_ends, strict=True))
    return lay.header + body.encode("utf-8") + lay.tail


def write_bvh(bvh: BvhFile, motion, path, *, force: bool = False) -> None:
    """Write ``bvh`` with ``motion`` to ``path`` atomically (see :func:`format_bvh`).

    An existing ``path`` is refused (:class:`FileExistsError`) unless
    ``force``; on failure nothing is left behind.
    """
    write_files([(Path(path), format_bvh(bvh, motion))], force=force)


# --------------------------------------------------------------------------- kinematics


_AXIS = {"X": np.array([1.0, 0, 0]), "Y": np.array([0, 1.0, 0]), "Z": np.array([0, 0, 1.0])}


def local_rotations(bvh: BvhFile) -> np.ndarray:
    """Local rotation of every joint and frame, ``(F, J, 4)`` (w, x, y, z).

    Three rotation channels with no axis twice in a row are an Euler order
    for :func:`quatlab.math.quaternion.from_euler` (``Zrotation Xrotation
    Yrotation`` is intrinsic ``"ZXY"``); any other list (one or two
    channels) is the product of its elementary rotations in listed order.
    A joint without rotation channels has the identity.

    Examples
    --------
    >>> b = parse_bvh(b"HIERARCHY\\nROOT A\\n{\\n OFFSET 0 0 0\\n CHANNELS 3 Zrotation Xrotation"
    ...               b" Yrotation\\n}\\nMOTION\\nFrames: 1\\nFrame Time: 1\\n90 0 0\\n")
    >>> np.round(local_rotations(b), 6)    # 90 deg about Z, (w, x, y, z)
    array([[[0.707107, 0.      , 0.      , 0.707107]]])
    """
    F, J = bvh.n_frames, bvh.n_joints
    out = np.empty((F, J, 4))
    out[...] = Q.IDENTITY
    for j in range(J):
        order = bvh.rotation_order(j)
        if not order:
            continue
        ang = np.radians(bvh.euler_degrees(j))
        if len(order) == 3 and order[0] != order[1] and order[1] != order[2]:
            out[:, j] = Q.from_euler(ang, order)
        else:
            q = np.broadcast_to(Q.IDENTITY, (F, 4))
            for i, ax in enumerate(order):
                q = Q.multiply(q, Q.from_axis_angle(_AXIS[ax], ang[:, i]))
            out[:, j] = q
    return out


def local_translations(bvh: BvhFile) -> np.ndarray:
    """Local translation of every joint and frame, ``(F, J, 3)``: OFFSET plus position channels.

    Missing position channels count as 0.

    Examples
    --------
    >>> b = parse_bvh(b"HIERARCHY\\nROOT A\\n{\\n OFFSET 1 2 3\\n CHANNELS 2 Zrotation Xposition"
    ...               b"\\n}\\nMOTION\\nFrames: 1\\nFrame Time: 1\\n90 5\\n")
    >>> local_translations(b)
    array([[[6., 2., 3.]]])
    """
    F = bvh.n_frames
    out = np.broadcast_to(bvh.offsets, (F,) + bvh.offsets.shape).copy()
    start = bvh.channel_start
    for j, chans in enumerate(bvh.channels):
        for i, c in enumerate(chans):
            if c.endswith("position"):
                out[:, j, "XYZ".index(c[0])] += bvh.motion[:, start[j] + i]
    return out


def local_matrices(bvh: BvhFile) -> np.ndarray:
    """Local 4x4 transforms ``T R`` of every joint and frame, ``(F, J, 4, 4)``.

    Examples
    --------
    >>> b = parse_bvh(b"HIERARCHY\\nROOT A\\n{\\n OFFSET 1 2 3\\n CHANNELS 1 Zrotation"
    ...               b"\\n}\\nMOTION\\nFrames: 1\\nFrame Time: 1\\n90\\n")
    >>> np.round(local_matrices(b)[0, 0], 9) + 0.0
    array([[ 0., -1.,  0.,  1.],
           [ 1.,  0.,  0.,  2.],
           [ 0.,  0.,  1.,  3.],
           [ 0.,  0.,  0.,  1.]])
    """
    F, J = bvh.n_frames, bvh.n_joints
    m = np.zeros((F, J, 4, 4))
    m[..., :3, :3] = Q.to_matrix(local_rotations(bvh))
    m[..., :3, 3] = local_translations(bvh)
    m[..., 3, 3] = 1.0
    return m


def _world(bvh: BvhFile, local: np.ndarray) -> np.ndarray:
    return compose_world(bvh.parents, local)


def compose_world(parents, local: np.ndarray) -> np.ndarray:
    """World transforms ``(..., J, 4, 4)`` from local ones: ``M_parent M_local`` down the tree.

    ``parents[j]`` (-1 for a root) must come before ``j``, as in a BVH file's joint order.
    """
    world = np.empty_like(local)
    for j, p in enumerate(parents):
        # Parents precede children in file order, so world[p] is ready.
        world[..., j, :, :] = local[..., j, :, :] if p < 0 else world[..., p, :, :] @ local[
            ..., j, :, :
        ]
    return world


def world_matrices(bvh: BvhFile, frame: int) -> np.ndarray:
    """World 4x4 transforms of all joints at ``frame``, ``(J, 4, 4)``: ``M_parent M_local``.

    Examples
    --------
    >>> b = parse_bvh(b"HIERARCHY\\nROOT A\\n{\\n OFFSET 0 0 0\\n CHANNELS 1 Zrotation\\n"
    ...               b" JOINT B\\n {\\n  OFFSET 1 0 0\\n }\\n}\\nMOTION\\nFrames: 1\\n"
    ...               b"Frame Time: 1\\n90\\n")
    >>> np.round(world_matrices(b, 0)[1, :3, 3], 9) + 0.0     # B turned with A
    array([0., 1., 0.])
    """
    if not -bvh.n_frames <= frame < bvh.n_frames:
        raise IndexError(f"frame {frame} out of range for {bvh.n_frames} frames")
    one = BvhFile(
        bvh.path, bvh.names, bvh.parents, bvh.offsets, bvh.channels, bvh.end_sites,
        bvh.motion[frame:frame + 1] if frame >= 0 else bvh.motion[frame:][:1],
        bvh.frame_time, bvh.layout,
    )
    return _world(one, local_matrices(one))[0]


def world_positions(bvh: BvhFile, *, end_sites: bool = False) -> np.ndarray:
    """World position of every joint at every frame, ``(F, J, 3)``.

    With ``end_sites`` the End Sites follow the joints, ``(F, J + E, 3)``.

    Examples
    --------
    >>> b = parse_bvh(b"HIERARCHY\\nROOT A\\n{\\n OFFSET 0 0 0\\n CHANNELS 1 Zrotation\\n"
    ...               b" End Site\\n {\\n  OFFSET 1 0 0\\n }\\n}\\nMOTION\\nFrames: 2\\n"
    ...               b"Frame Time: 1\\n0\\n90\\n")
    >>> np.round(world_positions(b, end_sites=True)[:, 1], 9) + 0.0
    array([[1., 0., 0.],
           [0., 1., 0.]])
    """
    world = _world(bvh, local_matrices(bvh))
    pos = world[..., :3, 3]
    if not end_sites or not bvh.end_sites:
        return pos
    parent = np.array([e.parent for e in bvh.end_sites], dtype=np.intp)
    off = np.array([e.offset for e in bvh.end_sites])
    pw = world[:, parent]                # (F, E, 4, 4)
    ends = np.einsum("fejk,ek->fej", pw[..., :3, :3], off) + pw[..., :3, 3]
    return np.concatenate([pos, ends], axis=1)


# --------------------------------------------------------------------------- Euler audit and filter


def _euler_joints(bvh: BvhFile):
    """Joints with three rotation channels forming an Euler order, with their columns."""
    for j in range(bvh.n_joints):
        order = bvh.rotation_order(j)
        if len(order) == 3 and order[0] != order[1] and order[1] != order[2]:
            yield j, order, bvh.rotation_columns(j)


def audit_rotations(bvh: BvhFile, **options) -> list[tuple[int, E.EulerFinding]]:
    """:func:`quatlab.math.euler_track.audit_euler` of every joint: ``(joint index, finding)``.

    Messages name the file's channels (``Zrotation``...) and the joint;
    ``options`` go to ``audit_euler``. Joints with fewer than three rotation
    channels are not audited.

    Examples
    --------
    >>> b = parse_bvh(b"HIERARCHY\\nROOT A\\n{\\n OFFSET 0 0 0\\n CHANNELS 3 Zrotation Xrotation"
    ...               b" Yrotation\\n}\\nMOTION\\nFrames: 2\\nFrame Time: 1\\n"
    ...               b"179 0 0\\n-179 0 0\\n")
    >>> [(j, f.kind, f.frame) for j, f in audit_rotations(b)]
    [(0, 'wrap', 1), (0, 'sign_flip', 1)]
    """
    out = []
    for j, order, cols in _euler_joints(bvh):
        names = [f"{bvh.names[j]} {bvh.channels[j][c - bvh.channel_start[j]]}" for c in cols]
        for f in E.audit_euler(bvh.motion[:, cols], order, channel_names=names, **options):
            out.append((j, f))
    return out


def filtered_motion(bvh: BvhFile) -> np.ndarray:
    """Motion ``(F, C)`` with every joint's rotation channels through the Euler filter.

    Position channels are kept. Rotation channels that are not a three-axis
    Euler order (one or two channels, an axis twice in a row) are only
    unwrapped: each moved by whole turns to within 180 degrees of the
    previous frame. The rotations are the same (see
    :func:`quatlab.math.euler_track.euler_filter`). Write it back with
    :func:`write_bvh`.

    Examples
    --------
    >>> b = parse_bvh(b"HIERARCHY\\nROOT A\\n{\\n OFFSET 0 0 0\\n CHANNELS 3 Zrotation Xrotation"
    ...               b" Yrotation\\n}\\nMOTION\\nFrames: 2\\nFrame Time: 1\\n"
    ...               b"179 0 0\\n-179 0 0\\n")
    >>> filtered_motion(b)
    array([[179.,   0.,   0.],
           [181.,   0.,   0.]])
    >>> format_bvh(b, filtered_motion(b)).splitlines()[-1]
    b'181 0 0'
    """
    out = np.array(bvh.motion, dtype=np.float64)
    done = set()
    for j, order, cols in _euler_joints(bvh):
        out[:, cols] = E.euler_filter(out[:, cols], order)
        done.add(j)
    for j in range(bvh.n_joints):
        cols = bvh.rotation_columns(j)
        if j in done or not cols.size or len(out) < 2:
            continue
        # Whole turns as integers, added once: the kept values stay exact.
        k = np.round(np.diff(out[:, cols], axis=0) / 360.0)
        out[1:, cols] -= 360.0 * np.cumsum(k, axis=0)
    return out
