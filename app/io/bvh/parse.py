"""The BVH grammar: tokens, the HIERARCHY, the MOTION numbers, and one-line errors. No Qt.

The parts of :mod:`quatlab.app.io.bvh`'s reader that know the text format;
every problem is a :class:`BvhError` naming the file, the line and the
problem (docs/formats.md, "BVH").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from quatlab.app.i18n import N_, LazyText, _

__all__ = ["CHANNEL_NAMES", "BvhError", "EndSite", "Lines", "Tokens", "error_at", "short_text",
           "parse_hierarchy", "hierarchy_notes", "parse_numbers", "check_angles", "MAX_ANGLE"]

#: The six channel names BVH knows (matched case-insensitively, stored like this).
CHANNEL_NAMES = ("Xposition", "Yposition", "Zposition", "Xrotation", "Yrotation", "Zrotation")
CANONICAL = {n.lower(): n for n in CHANNEL_NAMES}

# Characters a motion value may contain; anything else (inf, nan, 1_000, ...)
# is found by one regex scan instead of a check per value.
NOT_NUMERIC = re.compile(r"[^0-9eE+\-.\s]")
SEPARATORS = re.compile(r"(\s+)")


class BvhError(ValueError):
    """A BVH file that cannot be read or written; the message is one line: file, line, problem."""


def short_text(text: str, limit: int = 40) -> str:
    s = repr(text)
    return s if len(s) <= limit else s[: limit - 4] + "...'"


def error_at(path: str, line: int | None, problem: str) -> BvhError:
    # "{path}: " stays first in every language (bvh_error_to_keyframe_error strips it).
    where = f"{path}: " + (_("line {line}: ").format(line=line) if line is not None else "")
    return BvhError((where + problem).replace("\n", " ").replace("\r", " "))


@dataclass(frozen=True, eq=False)
class EndSite:
    """An End Site: the joint it ends (index) and its offset from that joint, shape (3,)."""

    parent: int
    offset: np.ndarray


class Tokens:
    """Tokens of the hierarchy lines with their line numbers, read front to back."""

    def __init__(self, lines, path: str):
        self.lines = lines      # a list of str or :class:`Lines`
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
            raise error_at(self.path, len(self.lines),
                _("file ends where {what} was expected").format(
                what=what))
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
            raise error_at(self.path, self.lineno, _("expected {word!r}, found {tok}").format(
                word=word, tok=short_text(tok)))

    def number(self, what: str) -> float:
        tok = self.next(what)
        try:
            value = float(tok)
        except ValueError:
            raise error_at(self.path, self.lineno,
                           _("{what} {tok} is not a number").format(
                               what=what, tok=short_text(tok))) from None
        if not np.isfinite(value):
            raise error_at(self.path, self.lineno, _("{what} {tok} is not finite").format(
                what=what, tok=short_text(tok)))
        return value

    def integer(self, what: str) -> int:
        tok = self.next(what)
        if not tok.isdigit() or not tok.isascii():
            raise error_at(self.path, self.lineno,
                           _("{what} {tok} is not a whole number").format(
                               what=what, tok=short_text(tok)))
        return int(tok)


class Lines:
    """The lines of a file's bytes from ``start``, decoded one at a time as they are read.

    The hierarchy parser (:class:`Tokens`) reads lines front to back and stops
    after ``Frame Time:``; the frame lines that follow are never decoded here
    (:mod:`quatlab.app.io.bvh.motion` reads them in blocks). Lines are split on
    ``"\n"`` only (not ``str.splitlines``, which also splits on ``\x0b``,
    ``\x1c`` ...), so line numbers match what an editor shows; ``"\r"`` stays
    on the line and is whitespace to ``split()``.
    """

    def __init__(self, data: bytes, start: int, path: str):
        self.data = data
        self.path = path
        self.starts = [start]           # first byte of each line found so far
        self._count: int | None = None

    def __len__(self) -> int:
        if self._count is None:
            self._count = self.data.count(b"\n", self.starts[0]) + 1
        return self._count

    def start(self, i: int) -> int:
        """First byte of line ``i`` (``len(data) + 1`` past the last line)."""
        starts, data = self.starts, self.data
        while len(starts) <= i:
            prev = starts[-1]
            nl = data.find(b"\n", prev) if prev <= len(data) else -1
            starts.append(len(data) + 1 if nl < 0 else nl + 1)
        return starts[i]

    def __getitem__(self, i: int) -> str:
        begin, end = self.start(i), self.start(i + 1) - 1
        if begin > len(self.data):
            raise IndexError(i)
        try:
            return self.data[begin:end].decode("utf-8")
        except UnicodeDecodeError:
            raise error_at(self.path, i + 1, _("not UTF-8 text (a binary file?)")) from None


def parse_hierarchy(tk: Tokens, path: str):
    names: list[str] = []
    parents: list[int] = []
    offsets: list[tuple[float, float, float] | None] = []
    channels: list[tuple[str, ...] | None] = []
    end_sites: list[EndSite] = []
    lines: list[int] = []        # the line of each joint's ROOT or JOINT

    tk.expect("HIERARCHY")
    if tk.peek() != "ROOT":
        raise error_at(path, tk.lineno, _("expected 'ROOT', found {tk}").format(
            tk=short_text(tk.peek() or '')))

    # An explicit stack, not recursion: a hostile file may nest deeply.
    stack: list[int] = []        # open joints; -2 marks an open End Site
    end_offset: list[tuple[float, float, float] | None] = [None]
    while True:
        tok = tk.peek()
        if tok is None:
            raise error_at(path, len(tk.lines), _("file ends inside the HIERARCHY (no MOTION)"))
        if not stack and tok == "MOTION":
            break
        tk.next(_("a keyword"))
        line = tk.lineno
        if tok in ("ROOT", "JOINT"):
            if (tok == "ROOT") != (not stack) or (stack and stack[-1] == -2):
                raise error_at(path, line, _("{tok} is not allowed here").format(tok=tok))
            name = " ".join(tk.rest_of_line())
            if not name:
                raise error_at(path, line, _("{tok} without a name").format(tok=tok))
            names.append(name)
            lines.append(line)
            parents.append(stack[-1] if stack else -1)
            offsets.append(None)
            channels.append(None)
            tk.expect("{")
            stack.append(len(names) - 1)
        elif tok == "End":
            if not stack or stack[-1] == -2:
                raise error_at(path, line, _("End Site is not allowed here"))
            rest = tk.rest_of_line()
            if rest != ["Site"]:
                raise error_at(path, line, _("expected 'End Site'"))
            tk.expect("{")
            stack.append(-2)
            end_offset[0] = None
        elif tok == "OFFSET":
            if not stack:
                raise error_at(path, line, _("OFFSET outside a joint"))
            xyz = tuple(tk.number(_("OFFSET value")) for _k in range(3))
            if tk.rest_of_line():
                raise error_at(path, line, _("OFFSET has more than 3 values"))
            if stack[-1] == -2:
                if end_offset[0] is not None:
                    raise error_at(path, line, _("second OFFSET in an End Site"))
                end_offset[0] = xyz
            else:
                if offsets[stack[-1]] is not None:
                    joint = short_text(names[stack[-1]])
                    raise error_at(path, line, _("second OFFSET in joint {joint}").format(
                        joint=joint))
                offsets[stack[-1]] = xyz
        elif tok == "CHANNELS":
            if not stack or stack[-1] == -2:
                raise error_at(path, line, _("CHANNELS outside a joint"))
            j = stack[-1]
            if channels[j] is not None:
                raise error_at(path, line, _("second CHANNELS in joint {names}").format(
                    names=short_text(names[j])))
            count = tk.integer(_("channel count"))
            listed = tk.rest_of_line()
            if len(listed) != count:
                raise error_at(
                    path, line, _("CHANNELS says {count} channels but names {n_listed}").format(
                        count=count, n_listed=len(listed))
                )
            canon = []
            for c in listed:
                name = CANONICAL.get(c.lower())
                if name is None:
                    raise error_at(
                        path, line,
                        _("unknown channel name {c} (expected {channel_names})").format(
                            c=short_text(c), channel_names=', '.join(CHANNEL_NAMES)),
                    )
                if name.endswith("position") and name in canon:
                    raise error_at(path, line, _("channel {name} listed twice").format(name=name))
                canon.append(name)
            channels[j] = tuple(canon)
        elif tok == "}":
            if not stack:
                raise error_at(path, line, _("unexpected '}}': no joint is open here").format())
            top = stack.pop()
            if top == -2:
                if end_offset[0] is None:
                    raise error_at(path, line, _("End Site without OFFSET"))
                end_sites.append(EndSite(stack[-1], np.array(end_offset[0])))
            elif offsets[top] is None:
                raise error_at(path, line, _("joint {names} has no OFFSET").format(
                    names=short_text(names[top])))
            if tk.rest_of_line():
                raise error_at(path, line, _("unexpected text after '}}'").format())
        else:
            raise error_at(path, line, _("unexpected {tok} in the HIERARCHY").format(
                tok=short_text(tok)))

    chans = tuple(c if c is not None else () for c in channels)
    return names, parents, offsets, chans, end_sites, hierarchy_notes(names, parents, chans, lines)


#: Notes of one kind listed one by one; the rest are counted in one more note.
MAX_NOTES = 5


def _capped(notes: list, more: str) -> list:
    if len(notes) <= MAX_NOTES:
        return notes
    return notes[:MAX_NOTES] + [LazyText(more, n=len(notes) - MAX_NOTES)]


def hierarchy_notes(names, parents, channels, lines) -> list[LazyText]:
    """What a user would want to know about a hierarchy QuatLab reads anyway (one line each).

    Two ROOTs, joints sharing a name, a control character (NUL...) in a
    name, and a rotation channel listed twice in a row (``CHANNELS 3
    Zrotation Zrotation Zrotation``): valid to this reader, but most tools
    read only the first skeleton, find joints by name, cut names at a NUL,
    and no exporter means two rotations about one axis (docs/formats.md, "BVH").

    >>> for note in hierarchy_notes(["A", "A"], [-1, -1], [(), ()], [2, 9]):
    ...     print(note)
    the file has 2 ROOT joints (lines 2, 9): most tools read only the first skeleton
    2 joints are named 'A' (lines 2, 9): tools that find joints by name pick one of them
    """
    notes: list[LazyText] = []
    roots = [j for j, p in enumerate(parents) if p < 0]
    if len(roots) > 1:
        notes.append(LazyText(N_("the file has {n} ROOT joints (lines {lines}): most tools read "
                                 "only the first skeleton"), n=len(roots),
                              lines=_lines([lines[j] for j in roots])))
    by_name: dict[str, list[int]] = {}
    for j, name in enumerate(names):
        by_name.setdefault(name, []).append(j)
    notes += _capped([LazyText(N_("{n} joints are named {name} (lines {lines}): tools that find "
                                  "joints by name pick one of them"), n=len(js),
                               name=short_text(name), lines=_lines([lines[j] for j in js]))
                      for name, js in by_name.items() if len(js) > 1],
                     N_("{n} more joint names are used more than once"))
    notes += _capped([LazyText(N_("line {line}: the joint name {name} contains a control "
                                  "character ({char}): tools written in C may cut the name "
                                  "there"), line=lines[j], name=short_text(name),
                               char=repr(next(c for c in name if _control(c)))[1:-1])
                      for j, name in enumerate(names) if any(_control(c) for c in name)],
                     N_("{n} more joint names contain control characters"))
    twice = []
    for j, chans in enumerate(channels):
        rot = [c for c in chans if c.endswith("rotation")]
        same = next((a for a, b in zip(rot[:-1], rot[1:], strict=True) if a == b), None)
        if same is not None:
            twice.append(LazyText(N_(
                "line {line}: joint {name} lists {channel} twice in a row ({channels}): the "
                "rotations about one axis add up, which exporters do not write; QuatLab reads "
                "them in turn"), line=lines[j], name=short_text(names[j]), channel=same,
                channels=" ".join(chans)))
    notes += _capped(twice, N_("{n} more joints list a rotation channel twice in a row"))
    return notes


def _control(c: str) -> bool:
    return ord(c) < 32 or ord(c) == 127


def _lines(numbers: list[int], limit: int = 8) -> str:
    text = ", ".join(str(n) for n in numbers[:limit])
    return text + (" ..." if len(numbers) > limit else "")


#: Largest rotation channel value read (degrees). A float64 angle this large
#: still resolves 2e-4 deg; values like 1e308 would overflow the Euler
#: filter's arithmetic (and change every later frame of the channel through
#: the accumulated turns). An unwrapped channel grows by at most 180 deg a
#: frame, so even a joint spinning through the largest file read (512 MiB,
#: under 10**8 frames) stays below 2e10: the filter's output of any real
#: capture reads back (:func:`quatlab.app.io.bvh.euler.filtered_motion`
#: refuses to write one that would not).
MAX_ANGLE = 1e12


def check_angles(motion: np.ndarray, rot_cols: np.ndarray, col_names, first: int,
                 path: str) -> None:
    """Refuse a rotation value beyond :data:`MAX_ANGLE` (rows from 0-based line ``first``)."""
    if not rot_cols.size or not len(motion):
        return
    big = np.abs(motion[:, rot_cols]) > MAX_ANGLE
    if not big.any():
        return
    row, k = np.unravel_index(int(np.argmax(big)), big.shape)
    col = int(rot_cols[k])
    raise error_at(path, first + int(row) + 1, _(
        "value {col} ({channel}) is {value:.6g} degrees, beyond +-{limit:.0e}: no capture turns "
        "a joint that far, and the Euler filter could not keep its precision").format(
            col=col + 1, channel=col_names[col], value=float(motion[row, col]),
            limit=MAX_ANGLE))


def parse_numbers(rows, split, n_cols: int, first: int, path: str) -> np.ndarray:
    """The motion values ``(F, C)``; the first bad value is reported with its line."""
    n = len(rows)
    if n == 0 or n_cols == 0:
        return np.zeros((n, n_cols))
    bad_row = None
    joined = "\n".join(rows)
    hit = NOT_NUMERIC.search(joined)
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
            raise error_at(
                path, first + bad_row + 1,
                _("value {col} {tok} is not a number").format(col=col + 1, tok=short_text(tok)),
            )
        if not np.isfinite(value):
            raise error_at(
                path, first + bad_row + 1,
                _("value {col} {tok} is not finite (inf or nan)").format(
                    col=col + 1, tok=short_text(tok)),
            )
    raise error_at(path, first + bad_row + 1, _("unreadable values"))   # not reached
