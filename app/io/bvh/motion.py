"""A BVH file's MOTION lines, read in blocks into one preallocated array and written back. No Qt.

The frame lines are most of a BVH file. They are never held as one string or
as a list of lines: the reader walks the file's bytes :data:`CHUNK` at a time
(cut at line ends), parses each block into its rows of one ``(F, C)``
float64 array allocated once from the declared frame and channel counts
(after both were checked against the lines present), and the writer walks
the same blocks, copying unchanged ones and rewriting only the lines whose
values changed. So the memory of reading a file is its bytes, its numbers
and a few megabytes (docs/formats.md, "BVH").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.io.bvh.parse import (
    SEPARATORS,
    check_angles,
    error_at,
    parse_numbers,
)

__all__ = ["CHUNK", "row_blocks", "count_rows", "body_end", "allocate", "read_rows",
           "rewrite_rows"]

#: Bytes of frame lines handled at once (a block ends at a line end).
CHUNK = 1 << 20

# What the fast path (np.loadtxt) reads exactly as the careful path does:
# only digits, signs, points, exponents, spaces, tabs and line ends, and no
# blank line (loadtxt skips blank lines and would shift rows).
NOT_PLAIN = re.compile(rb"[^0-9eE+\-. \t\n]")
BLANK_ROW = re.compile(rb"(?:^|\n)[ \t]*(?:\n|$)")
ASCII_SPACE = b" \t\r\n\x0b\x0c"


def row_blocks(data: bytes, start: int, end: int, chunk: int = CHUNK
               ) -> Iterator[tuple[int, int, int]]:
    """``(first byte, end byte, lines)`` of each block of ``data[start:end]``, cut at line ends.

    >>> list(row_blocks(b"1 2\\n3 4\\n5 6", 0, 11, chunk=5))
    [(0, 4, 1), (4, 8, 1), (8, 11, 1)]
    """
    pos = start
    while pos < end:
        stop = min(pos + chunk, end)
        if stop < end:
            nl = data.rfind(b"\n", pos, stop)
            if nl < 0:                       # one line longer than a chunk
                nl = data.find(b"\n", stop, end)
            stop = end if nl < 0 else nl + 1
        yield pos, stop, count_rows(data, pos, stop)
        pos = stop


def count_rows(data: bytes, start: int, end: int) -> int:
    """Lines in ``data[start:end]``: its line ends, plus a last line without one."""
    if end <= start:
        return 0
    return data.count(b"\n", start, end) + (data[end - 1] != 0x0A)


def body_end(data: bytes, start: int) -> int:
    """Where the frame lines from ``start`` end: trailing blank lines are the file's tail.

    Looked for from the end a block at a time, so a hostile file that ends in
    a gigabyte of spaces costs no copy of it.

    >>> body_end(b"1 2\\n3 4\\r\\n\\n  \\n", 0), body_end(b"1 2", 0), body_end(b"\\n \\n", 0)
    (9, 3, 0)
    """
    p = len(data)
    while p > start:
        piece = data[max(p - 65536, start):p]
        kept = piece.rstrip(ASCII_SPACE)
        if kept:
            p -= len(piece) - len(kept)      # just after the last non-blank byte
            nl = data.find(b"\n", p)
            return len(data) if nl < 0 else nl + 1
        p -= len(piece)
    return start


def allocate(n_frames: int, n_cols: int, path: str, line: int) -> np.ndarray:
    """The ``(F, C)`` motion array, or a one-line error when memory cannot hold it."""
    try:
        return np.empty((n_frames, n_cols))
    except MemoryError:
        raise error_at(path, line, _(
            "not enough memory for {frames} frames of {cols} channels ({size:.3g} GB of "
            "numbers)").format(frames=n_frames, cols=n_cols,
                               size=n_frames * n_cols * 8 / 1e9)) from None


def read_rows(data: bytes, start: int, end: int, out: np.ndarray, first_line: int, path: str,
              rot_cols: np.ndarray, col_names) -> None:
    """Parse the frame lines ``data[start:end]`` into ``out`` (rows already counted).

    ``first_line`` is the 0-based line of the first frame line (for messages).
    Every block goes through ``np.loadtxt`` when its text is plain numbers, and
    value by value otherwise, which names the first bad line; rotation values
    are checked against :data:`~quatlab.app.io.bvh.parse.MAX_ANGLE`.
    """
    row = 0
    n_cols = out.shape[1]
    for pos, stop, k in row_blocks(data, start, end):
        block = data[pos:stop]
        values = _plain(block, k, n_cols)
        if values is None:
            values = _careful(block, k, n_cols, first_line + row, path)
        check_angles(values, rot_cols, col_names, first_line + row, path)
        out[row:row + k] = values
        row += k


def _plain(block: bytes, k: int, n_cols: int) -> np.ndarray | None:
    """The block's values when every line is ``n_cols`` plain finite numbers, else None."""
    if n_cols == 0:
        return None
    if b"\r" in block:
        block = block.replace(b"\r\n", b"\n")    # a lone CR is left for the careful path
    if block.endswith(b"\n"):
        block = block[:-1]
    if NOT_PLAIN.search(block) or BLANK_ROW.search(block):
        return None
    try:
        values = np.loadtxt(block.decode("ascii").split("\n"), dtype=np.float64, ndmin=2,
                            comments=None)
    except ValueError:
        return None
    if values.shape != (k, n_cols) or not np.all(np.isfinite(values)):
        return None
    return values


def _careful(block: bytes, k: int, n_cols: int, first: int, path: str) -> np.ndarray:
    """The block value by value; the first bad line is a :class:`BvhError` naming it."""
    try:
        text = block.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = first + block.count(b"\n", 0, exc.start) + 1
        raise error_at(path, line, _("not UTF-8 text (a binary file?)")) from None
    rows = text.split("\n")[:k]
    rows = [r[:-1] if r.endswith("\r") else r for r in rows]
    split = [r.split() for r in rows]
    for i, toks in enumerate(split):
        if len(toks) != n_cols:
            message = (_("blank frame line but the hierarchy declares {n_cols} channels")
                       if not toks else
                       _("{n} values but the hierarchy declares {n_cols} channels"))
            raise error_at(path, first + i + 1, message.format(n=len(toks), n_cols=n_cols))
    return parse_numbers(rows, split, n_cols, first, path)


@functools.lru_cache(maxsize=4096)
def _style(token: str) -> int:
    """How a value replacing ``token`` is printed: decimals, or -1 (integer), -2 (every digit).

    Cached: a file of short numbers repeats the same few thousand tokens.
    """
    mantissa, e, _rest = token.lower().partition("e")
    if e:
        # Significant digits are not enough once the magnitude changes
        # (x + 360): keep every digit instead.
        return -2
    if "." not in mantissa:
        return -1
    return len(mantissa.partition(".")[2])


def _format_like(token: str, value: float) -> str:
    """``value`` printed with the precision and style of ``token`` from the same file.

    >>> _format_like("12.50", 372.5), _format_like("-179", 181.0), _format_like("1e2", 460.0)
    ('372.50', '181', '460.0')
    """
    style = _style(token)
    if style >= 0:
        return f"{value:.{style}f}"
    if style == -1 and value.is_integer():
        return f"{value:.0f}"
    return repr(value)                   # the file wrote integers; keep every digit


def rewrite_rows(data: bytes, start: int, end: int, old: np.ndarray, new: np.ndarray,
                 out: bytearray) -> None:
    """Append the frame lines ``data[start:end]`` with ``new`` values to ``out``.

    Unchanged blocks are copied as they are; in a changed line only the
    changed values are rewritten, with the decimals of the value they
    replace, keeping separators and line ends. Appending to one buffer keeps
    the copy's memory at its own size (a list of pieces joined at the end
    would need it twice).
    """
    view = memoryview(data)
    row = 0
    # Smaller blocks than the reader's: a changed block's lines are Python lists.
    for pos, stop, k in row_blocks(data, start, end, CHUNK // 4):
        changed = new[row:row + k] != old[row:row + k]  # -0.0 == 0.0: no change
        dirty = np.flatnonzero(changed.any(axis=1)) if changed.size else ()
        if not len(dirty):
            out += view[pos:stop]
        else:
            lines = data[pos:stop].split(b"\n")
            # Plain lists: per value, numpy scalars would cost more than the formatting.
            masks = changed[dirty].tolist()
            values = new[row + dirty].tolist()
            for f, mask, vals in zip(dirty.tolist(), masks, values, strict=True):
                line = lines[f].decode("utf-8")
                cr = "\r" if line.endswith("\r") else ""
                parts = SEPARATORS.split(line[:len(line) - len(cr)])
                first = 1 if parts and parts[0] == "" else 0
                for c, (hit, value) in enumerate(zip(mask, vals, strict=True)):
                    if hit:
                        i = first + 2 * c
                        parts[i] = _format_like(parts[i], value)
                lines[f] = ("".join(parts) + cr).encode("utf-8")
            out += b"\n".join(lines)
        row += k
