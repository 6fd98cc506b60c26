"""Edit values inside JSON text while keeping every other byte of the document. No Qt."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence

__all__ = ["json_value_span", "edit_json_text"]


_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


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
                _, i = _DECODER.raw_decode(text, i)
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
                _, i = _DECODER.raw_decode(text, i)
                i = _WS.match(text, i).end()
                if text[i : i + 1] == ",":
                    i = _WS.match(text, i + 1).end()
            if text[i : i + 1] == "]":
                raise ValueError(f"index {step} out of range")
    _, end = _DECODER.raw_decode(text, i)
    return i, end


def edit_json_text(text: str, edits: Iterable[tuple[Sequence[str | int], object]]) -> str:
    """Replace the values at the given paths in JSON ``text``, keeping all other bytes.

    >>> edit_json_text('{"a": [1, 2],  "b": "x"}', [(["a", 1], 5), (["b"], "y")])
    '{"a": [1, 5],  "b": "y"}'
    """
    spans = []
    for path, value in edits:
        start, end = json_value_span(text, path)
        spans.append((start, end, json.dumps(value, ensure_ascii=False, allow_nan=False)))
    spans.sort()
    for (_, end, _), (start, _, _) in zip(spans, spans[1:], strict=False):
        if start < end:
            raise ValueError("overlapping JSON edits")
    for start, end, new in reversed(spans):
        text = text[:start] + new + text[end:]
    return text
