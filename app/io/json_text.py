"""Edit values inside JSON text while keeping every other byte of the document. No Qt."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence

import numpy as np

__all__ = ["json_value_span", "array_element_spans", "element_edits", "apply_spans",
           "edit_json_text"]


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
                raise ValueError(f"no object at {step!r}")
            i = _WS.match(text, i + 1).end()
            found = None
            while text[i : i + 1] == '"':
                key, i = json.decoder.scanstring(text, i + 1)
                i = _WS.match(text, i).end()
                if text[i : i + 1] != ":":
                    raise ValueError("malformed object")
                i = _WS.match(text, i + 1).end()
                if key == step:
                    found = i
                i = _skip(text, i)
                i = _WS.match(text, i).end()
                if text[i : i + 1] == ",":
                    i = _WS.match(text, i + 1).end()
            if found is None:
                raise ValueError(f"no key {step!r}")
            i = found
        else:
            if text[i : i + 1] != "[":
                raise ValueError(f"no array at index {step}")
            i = _WS.match(text, i + 1).end()
            for _ in range(step):
                if text[i : i + 1] == "]":
                    raise ValueError(f"index {step} out of range")
                i = _skip(text, i)
                i = _WS.match(text, i).end()
                if text[i : i + 1] == ",":
                    i = _WS.match(text, i + 1).end()
            if text[i : i + 1] == "]":
                raise ValueError(f"index {step} out of range")
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
            raise ValueError("unterminated array or object")
        ch, pos = m.group(), m.end()
        if ch == '"':
            _, pos = json.decoder.scanstring(text, pos)
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
        raise ValueError(f"no array at {list(path)!r}")
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
            raise ValueError("malformed array")
    return spans


def element_edits(text: str, path: Sequence[str | int], indices, rows) -> list:
    """Spans replacing elements ``indices`` of the array at ``path`` by number lists ``rows``.

    For :func:`apply_spans`; the lists are written as :func:`json.dumps` writes
    them. One scan of the array, however many elements change.
    """
    spans = array_element_spans(text, path)
    rows = np.asarray(rows, dtype=np.float64)
    if rows.ndim == 2 and rows.shape[1] == 4 and np.isfinite(rows).all():
        # Finite floats: repr is what json.dumps writes for each.
        texts = ["[%r, %r, %r, %r]" % r for r in map(tuple, rows.tolist())]  # noqa: UP031
    else:
        texts = [_dumps(r) for r in rows.tolist()]
    return [(*spans[k], t) for k, t in zip(indices, texts, strict=True)]


def apply_spans(text: str, spans: list) -> str:
    """``text`` with each ``(start, end, new)`` span replaced, in one pass (no overlaps)."""
    spans = sorted(spans)
    pieces, pos = [], 0
    for start, end, new in spans:
        if start < pos:
            raise ValueError("overlapping JSON edits")
        pieces += [text[pos:start], new]
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces)


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
    for path, _ in edits:
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
                raise ValueError(f"index {path[-1]} out of range")
            start, end = items[path[-1]]
        else:
            start, end = json_value_span(text, path)
        spans.append((start, end, _dumps(value)))
    return apply_spans(text, spans)
