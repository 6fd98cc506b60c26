"""Edit values inside JSON text while keeping every other byte of the document. No Qt."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence

import numpy as np

from quatlab.app.i18n import _

__all__ = ["json_value_span", "array_element_spans", "number_lists", "apply_spans",
           "edit_json_text", "JsonIndex", "negate_numbers", "splice"]


_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
_TOKEN = re.compile(r'[\[\]{}"]')
_FLAT_RUN = re.compile(r'(?:[^\[\]{}"]+|\[[^\[\]{}"]*\])*')
_ELEMENT = re.compile(r'(\[[^\[\]{}"]*\]|[^\[\]{}",\s]+)[ \t\n\r]*(?:,[ \t\n\r]*)?')
_FLAT = re.compile(r'\[[^\[\]{}"]*\]')


def json_value_span(text: str, path: Sequence[str | int]) -> tuple[int, int]:
    """Start and end offsets of the value at ``path`` (object keys and array indices) in JSON text.

    Lets a writer replace one value and keep every other byte of the
    document as it was. As in :func:`json.loads`, the last of duplicate keys
    counts. Raises :class:`ValueError` when the path does not exist.

    >>> text = '{"a": [1, {"b": "x"}], "c": 2}'
    >>> start, end = json_value_span(text, ["a", 1, "b"])
    >>> text[start:end]
    '"x"'
    """
    i = _WS.match(text, 0).end()
    for step in path:
        if isinstance(step, str):
            if text[i : i + 1] != "{":
                raise ValueError(_("no object at {step!r}").format(step=step))
            i = _WS.match(text, i + 1).end()
            found = None
            while text[i : i + 1] == '"':
                key, i = json.decoder.scanstring(text, i + 1)
                i = _WS.match(text, i).end()
                if text[i : i + 1] != ":":
                    raise ValueError(_("malformed object"))
                i = _WS.match(text, i + 1).end()
                if key == step:
                    found = i
                i = _skip(text, i)
                i = _WS.match(text, i).end()
                if text[i : i + 1] == ",":
                    i = _WS.match(text, i + 1).end()
            if found is None:
                raise ValueError(_("no key {step!r}").format(step=step))
            i = found
        else:
            if text[i : i + 1] != "[":
                raise ValueError(_("no array at index {step}").format(step=step))
            i = _WS.match(text, i + 1).end()
            for _k in range(step):
                if text[i : i + 1] == "]":
                    raise ValueError(_("index {step} out of range").format(step=step))
                i = _skip(text, i)
                i = _WS.match(text, i).end()
                if text[i : i + 1] == ",":
                    i = _WS.match(text, i + 1).end()
            if text[i : i + 1] == "]":
                raise ValueError(_("index {step} out of range").format(step=step))
    return i, _skip(text, i)


def _skip(text: str, i: int) -> int:
    """The end of the JSON value starting at ``i`` (text that json.loads accepted).

    Arrays and objects are skipped by matching brackets (strings decoded on
    the way), without building their values: a million-key array costs one
    regular-expression scan, not a decode.
    """
    if text[i : i + 1] not in ("[", "{"):
        return _DECODER.raw_decode(text, i)[1]
    if text[i] == "[":
        # An array of numbers and flat arrays (a track's times or keys): one match.
        end = _FLAT_RUN.match(text, i + 1).end()
        if text[end : end + 1] == "]":
            return end + 1
    depth, pos = 0, i
    while True:
        m = _TOKEN.search(text, pos)
        if m is None:
            raise ValueError(_("unterminated array or object"))
        ch, pos = m.group(), m.end()
        if ch == '"':
            _text, pos = json.decoder.scanstring(text, pos)
        elif ch == "[" and text[_FLAT_RUN.match(text, pos).end() :][:1] == "]":
            pos = _FLAT_RUN.match(text, pos).end() + 1  # a flat array inside: one match
        elif ch in "[{":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return pos


def array_element_spans(text: str, path: Sequence[str | int]) -> list[tuple[int, int]]:
    """Start and end offsets of every element of the array at ``path``, in one scan.

    >>> text = '{"v": [[1, 2], 3 , "x"]}'
    >>> [text[s:e] for s, e in array_element_spans(text, ["v"])]
    ['[1, 2]', '3', '"x"']
    """
    i, end = json_value_span(text, path)
    if text[i : i + 1] != "[":
        raise ValueError(_("no array at {path!r}").format(path=list(path)))
    first = _WS.match(text, i + 1).end()
    # Fast path: every element a number or a flat array, matched back to back.
    matches = list(_ELEMENT.finditer(text, first, end - 1))
    if all(a.end() == b.start() for a, b in zip(matches, matches[1:], strict=False)) and (
        (not matches and first == end - 1)
        or (matches and matches[0].start() == first and matches[-1].end() == end - 1)
    ):
        return [m.span(1) for m in matches]
    spans = []
    i = first
    while text[i : i + 1] != "]":
        flat = _FLAT.match(text, i)
        stop = flat.end() if flat else _skip(text, i)
        spans.append((i, stop))
        i = _WS.match(text, stop).end()
        if text[i : i + 1] == ",":
            i = _WS.match(text, i + 1).end()
        elif text[i : i + 1] != "]":
            raise ValueError(_("malformed array"))
    return spans


def number_lists(rows) -> list[str]:
    """Each row of ``rows`` (numbers) as the JSON array :func:`json.dumps` writes."""
    rows = np.asarray(rows, dtype=np.float64)
    if rows.ndim == 2 and rows.shape[1] == 4 and np.isfinite(rows).all():
        # Finite floats: repr is what json.dumps writes for each.
        return ["[%r, %r, %r, %r]" % r for r in map(tuple, rows.tolist())]  # noqa: UP031
    return [_dumps(r) for r in rows.tolist()]


def apply_spans(text: str, spans: list) -> str:
    """``text`` with each ``(start, end, new)`` span replaced, in one pass (no overlaps).

    ``text`` and the new pieces are both ``str`` or both ``bytes``.
    """
    spans = sorted(spans)
    pieces, pos = [], 0
    for start, end, new in spans:
        if start < pos:
            raise ValueError(_("overlapping JSON edits"))
        pieces += [text[pos:start], new]
        pos = end
    pieces.append(text[pos:])
    return text[:0].join(pieces)


def _dumps(value) -> str:
    # A list of finite floats (a key) is written as json.dumps writes it, faster.
    if type(value) is list and len(value) == 4 and all(
        type(v) is float and math.isfinite(v) for v in value
    ):
        return "[%r, %r, %r, %r]" % tuple(value)  # noqa: UP031 - the fastest form
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def edit_json_text(text: str, edits: Iterable[tuple[Sequence[str | int], object]]) -> str:
    """Replace the values at the given paths in JSON ``text``, keeping all other bytes.

    Linear in the size of the text and the number of edits: the elements of
    an array that several edits index are located in one scan, and the
    result is assembled in one pass over the sorted spans.

    >>> edit_json_text('{"a": [1, 2],  "b": "x"}', [(["a", 1], 5), (["b"], "y")])
    '{"a": [1, 5],  "b": "y"}'
    """
    edits = list(edits)
    # Arrays with several indexed edits: scan each once.
    parents: dict[tuple, int] = {}
    for path, _value in edits:
        if path and isinstance(path[-1], int):
            key = tuple(path[:-1])
            parents[key] = parents.get(key, 0) + 1
    elements = {key: array_element_spans(text, key) for key, n in parents.items() if n > 1}
    spans = []
    for path, value in edits:
        key = tuple(path[:-1])
        if path and isinstance(path[-1], int) and key in elements:
            items = elements[key]
            if not 0 <= path[-1] < len(items):
                raise ValueError(_("index {path} out of range").format(path=path[-1]))
            start, end = items[path[-1]]
        else:
            start, end = json_value_span(text, path)
        spans.append((start, end, _dumps(value)))
    return apply_spans(text, spans)


# --------------------------------------------------------------------------- large documents


_SCALAR_END = re.compile(rb"[^,\]}\s]*")
_WS_BYTES = re.compile(rb"[ \t\n\r]*")


def _unescaped(quotes: np.ndarray, backslashes: np.ndarray) -> np.ndarray:
    """Mask of the quotes not escaped: preceded by an even run of backslashes."""
    if not backslashes.size or not quotes.size:
        return np.ones(len(quotes), dtype=bool)
    # Length of the run of backslashes ending at each backslash.
    starts = np.r_[True, np.diff(backslashes) != 1]
    first = np.maximum.accumulate(np.where(starts, np.arange(len(backslashes)), 0))
    run = np.arange(len(backslashes)) - first + 1
    before = np.searchsorted(backslashes, quotes) - 1  # last backslash before each quote
    touching = (before >= 0) & (backslashes[np.maximum(before, 0)] == quotes - 1)
    return ~touching | (run[np.maximum(before, 0)] % 2 == 0)


class JsonIndex:
    """Where the strings and brackets of a JSON document are, found with numpy in one pass.

    ``data`` is UTF-8 bytes that :func:`json.loads` accepted. Offsets are byte
    offsets. Skipping an array or object costs one binary search, not a scan,
    so a writer can reach any value of a document of millions of numbers and
    list the spans of a million-element array at numpy speed.

    >>> data = b'{"a": [[1, 2], {"k": "]"}], "a": [[3], [4, 5]]}'
    >>> index = JsonIndex(data)
    >>> start, end = index.value_span(["a"])  # the last duplicate key counts
    >>> data[start:end]
    b'[[3], [4, 5]]'
    >>> starts, ends = index.element_spans(["a"], 2)
    >>> [data[s:e] for s, e in zip(starts, ends)]
    [b'[3]', b'[4, 5]']
    """

    def __init__(self, data: bytes):
        self.data = data
        a = np.frombuffer(data, dtype=np.uint8)
        quotes = np.flatnonzero(a == 0x22)
        self._quotes = quotes[_unescaped(quotes, np.flatnonzero(a == 0x5C))]
        folded = a | 0x20  # '[' and '{' fold to 0x7B, ']' and '}' to 0x7D
        opens, closes = np.flatnonzero(folded == 0x7B), np.flatnonzero(folded == 0x7D)
        del folded
        # Outside strings: an even number of quotes before.
        opens = opens[np.searchsorted(self._quotes, opens) % 2 == 0]
        closes = closes[np.searchsorted(self._quotes, closes) % 2 == 0]
        pos = np.concatenate([opens, closes])
        order = np.argsort(pos, kind="stable")  # a merge of two sorted runs
        self._pos = pos[order]
        step = np.where(order < len(opens), 1, -1).astype(np.int8)
        depth = np.cumsum(step, dtype=np.int32)
        # Nesting level of each bracket; within a level openers and closers alternate.
        self._level = depth + (step < 0)
        by_level = np.argsort(self._level.astype(np.int16 if depth.max(initial=0) < 2**15
                                                 else np.int32), kind="stable")
        self._partner = np.empty(len(by_level), dtype=np.intp)
        self._partner[by_level[0::2]] = by_level[1::2]
        self._partner[by_level[1::2]] = by_level[0::2]

    def _bracket(self, i: int) -> int:
        j = int(np.searchsorted(self._pos, i))
        if j >= len(self._pos) or self._pos[j] != i:
            raise ValueError(_("no array or object at byte {i}").format(i=i))
        return j

    def skip(self, i: int) -> int:
        """The end of the value starting at byte ``i``."""
        ch = self.data[i : i + 1]
        if ch in (b"[", b"{"):
            return int(self._pos[self._partner[self._bracket(i)]]) + 1
        if ch == b'"':
            return int(self._quotes[np.searchsorted(self._quotes, i, side="right")]) + 1
        return _SCALAR_END.match(self.data, i).end()

    def _ws(self, i: int) -> int:
        return _WS_BYTES.match(self.data, i).end()

    def value_span(self, path: Sequence[str | int], start: int = 0) -> tuple[int, int]:
        """Byte offsets of the value at ``path`` (keys and indices) from the value at ``start``.

        As in :func:`json.loads`, the last of duplicate keys counts. Raises
        :class:`ValueError` when the path does not exist.
        """
        data = self.data
        i = self._ws(start)
        for step in path:
            if isinstance(step, str):
                if data[i : i + 1] != b"{":
                    raise ValueError(_("no object at {step!r}").format(step=step))
                i, found = self._ws(i + 1), None
                while data[i : i + 1] == b'"':
                    end = self.skip(i)
                    key = json.loads(data[i:end])
                    i = self._ws(end)
                    if data[i : i + 1] != b":":
                        raise ValueError(_("malformed object"))
                    i = self._ws(i + 1)
                    if key == step:
                        found = i
                    i = self._ws(self.skip(i))
                    if data[i : i + 1] == b",":
                        i = self._ws(i + 1)
                if found is None:
                    raise ValueError(_("no key {step!r}").format(step=step))
                i = found
            else:
                if data[i : i + 1] != b"[":
                    raise ValueError(_("no array at index {step}").format(step=step))
                i = self._ws(i + 1)
                for _k in range(step):
                    if data[i : i + 1] == b"]":
                        raise ValueError(_("index {step} out of range").format(step=step))
                    i = self._ws(self.skip(i))
                    if data[i : i + 1] == b",":
                        i = self._ws(i + 1)
                if data[i : i + 1] == b"]":
                    raise ValueError(_("index {step} out of range").format(step=step))
        return i, self.skip(i)

    def element_spans(self, path: Sequence[str | int], count: int,
                      start: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """Start and end offsets of the ``count`` elements of an array of arrays or objects.

        ``count`` is the array's length as parsed: fewer or more bracketed
        elements means the array also holds other values, a
        :class:`ValueError`.
        """
        first, _end = self.value_span(path, start)
        if self.data[first : first + 1] != b"[":
            raise ValueError(_("no array at {path!r}").format(path=list(path)))
        j = self._bracket(first)
        inner = slice(j + 1, int(self._partner[j]))
        level = self._level[inner]
        child = np.flatnonzero(level == self._level[j] + 1)
        child = child[self._partner[child + inner.start] > child + inner.start]  # openers
        if len(child) != count:
            raise ValueError(_("the array at {path!r} does not hold only arrays or objects").format(
                path=list(path)))
        opener = child + inner.start
        return self._pos[opener], self._pos[self._partner[opener]] + 1


def negate_numbers(data: bytes, starts: np.ndarray, ends: np.ndarray, negate: np.ndarray) -> tuple:
    """Where to toggle the sign of numbers inside flat arrays of numbers, to negate them.

    ``starts``/``ends`` are byte spans of arrays of ``k`` numbers (a track's
    keys, sorted), ``negate`` an ``(n, k)`` mask of the numbers to negate.
    Returns ``(deletions, insertions)``: offsets of ``-`` signs to remove and
    offsets before which to insert one. The digits stay as written, so the
    number read back is exactly the negated one.
    """
    if not len(starts):
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    lo, hi = int(starts[0]), int(ends[-1])
    a = np.frombuffer(data, dtype=np.uint8, count=hi - lo, offset=lo)
    # A number starts with '-', a digit, 'N'(aN) or 'I'(nfinity) after '[', ',' or blanks.
    begins = np.zeros(256, dtype=bool)
    begins[list(b"-0123456789NI")] = True
    after = np.zeros(256, dtype=bool)
    after[list(b"[, \t\n\r")] = True
    at = np.flatnonzero(begins[a[1:]] & after[a[:-1]]) + 1 + lo
    owner = np.searchsorted(starts, at, side="right") - 1  # the listed array before it
    inside = at < ends[owner]
    at, owner = at[inside], owner[inside]
    k = negate.shape[1]
    if not (np.bincount(owner, minlength=len(starts)) == k).all():
        raise ValueError(_("the arrays do not each hold {k} numbers").format(k=k))
    at = at[negate.ravel()]
    minus = np.frombuffer(data, dtype=np.uint8)[at] == 0x2D
    return at[minus], at[~minus]


def splice(data: bytes, deletions: np.ndarray, insertions: np.ndarray, spans: list) -> bytes:
    """``data`` with ``-`` signs deleted and inserted (:func:`negate_numbers`) and spans replaced.

    ``spans`` are ``(start, end, new bytes)`` that do not overlap each
    other or the sign edits. The signs are edited with numpy in one pass,
    then the spans replaced in one join.
    """
    a = np.frombuffer(data, dtype=np.uint8)
    if len(deletions) or len(insertions):
        deletions, insertions = np.sort(deletions), np.sort(insertions)
        keep = np.ones(len(a), dtype=bool)
        keep[deletions] = False
        kept = a[keep]
        out = np.insert(kept, insertions - np.searchsorted(deletions, insertions), 0x2D)
        if spans:
            old = np.array([(s, e) for s, e, _new in spans], dtype=np.intp)
            new = old + np.searchsorted(insertions, old) - np.searchsorted(deletions, old)
            spans = [(s, e, t) for (s, e), (_s, _e, t) in zip(new.tolist(), spans, strict=True)]
        data = out.tobytes()
    if not spans:
        return data
    return apply_spans(data, spans)
