"""Rotation tracks as CSV or JSON text: time plus four components in a stated order. No Qt.

The component order is never guessed from the numbers: it is given by the
caller (``--order wxyz`` or ``--order xyzw``) or declared by the file, and
when both exist they must agree.

CSV (one track per file, UTF-8, comma separated)::

    # comment lines and blank lines are ignored
    time,x,y,z,w          <- optional header; w/x/y/z (or qw/qx/...) declare the order
    0.0,0,0,0,1
    0.5,0,0,0.7071,0.7071

JSON (one or several tracks)::

    {"order": "xyzw",
     "tracks": [{"node": "Bone", "animation": "Walk", "interpolation": "LINEAR",
                 "times": [0.0, 0.5], "values": [[0, 0, 0, 1], [0, 0, 0.7071, 0.7071]]}]}

A single track may also be the top-level object (``{"order": ..., "times":
..., "values": ...}``). ``node``, ``animation`` and ``interpolation`` (LINEAR
or STEP, default LINEAR) are optional; ``NaN`` and ``Infinity`` are accepted
and reported by the audit.

Writing a corrected copy changes only the keys that changed: other CSV
lines (comments, header, time fields) and every other JSON byte are kept.
"""

from __future__ import annotations

import codecs
import itertools
import json
from pathlib import Path

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.io.json_text import JsonIndex, negate_numbers, number_lists, splice
from quatlab.app.io.tracks import (
    KeyframeFile,
    KeyframeFileError,
    Track,
    changed_rows,
    decode_utf8,
    resolve_order,
)
from quatlab.math import quaternion as Q

__all__ = ["CsvTrackFile", "JsonTrackFile", "load_csv", "load_json"]

_COMPONENT_NAMES = {"w", "x", "y", "z"}


def _to_stored(values: np.ndarray, order: str) -> np.ndarray:
    return Q.to_xyzw(values) if order == "xyzw" else np.array(values, dtype=np.float64)


def _from_stored(values: np.ndarray, order: str) -> np.ndarray:
    return Q.from_xyzw(values) if order == "xyzw" else values


# --------------------------------------------------------------------------- CSV


def _header_order(fields: list[str]) -> str | None:
    """The order a header's component names declare, or None for other names."""
    names = [f.strip().lower() for f in fields[1:]]
    names = [n[1:] if len(n) == 2 and n[0] == "q" else n for n in names]
    return "".join(names) if set(names) == _COMPONENT_NAMES else None


class CsvTrackFile(KeyframeFile):
    """A CSV track file (see the module documentation)."""

    format = "csv"

    def __init__(self, path: Path, data: bytes, *, order: str | None):
        self._bom = data.startswith(codecs.BOM_UTF8)
        text = decode_utf8(path, data[len(codecs.BOM_UTF8) if self._bom else 0 :])
        if text.startswith("\ufeff"):
            raise KeyframeFileError(
                path, _("starts with two byte-order marks (U+FEFF); save it as UTF-8 with at "
                        "most one")
            )
        self._lines = text.splitlines(keepends=True)
        parsed = _parse_rows_fast(self._lines)
        if parsed is None:  # something to report: line by line, to name the line
            parsed = _parse_rows(path, self._lines)
        self._rows, declared, times, stored = parsed  # _rows: the line index of each key
        if not self._rows:
            raise KeyframeFileError(
                path, _("no keyframes: expected lines of time and four components")
            )
        self.order = resolve_order(path, order, declared or None, _("header"))
        values = _from_stored(np.array(stored), self.order)
        super().__init__(path, [Track(times=times, values=values, storage="text")])

    def _encode(self, out: Path, tracks: list[Track]) -> list[tuple[Path, bytes]]:
        (track,) = tracks
        lines = list(self._lines)
        stored = _to_stored(track.values, self.order)
        for k in changed_rows(self.tracks[0].values, track.values):
            line = lines[self._rows[k]]
            body = line.rstrip("\r\n")
            ending = line[len(body) :]
            time_field = body.split(",", 1)[0]
            lines[self._rows[k]] = ",".join([time_field, *map(repr, stored[k].tolist())]) + ending
        data = "".join(lines).encode("utf-8")
        return [(out, (codecs.BOM_UTF8 if self._bom else b"") + data)]


def _parse_rows(path: Path, lines: list[str]):
    """``(rows, declared, times, stored)`` of a CSV track's lines, read one by one.

    ``rows`` is the line index of each key and ``declared`` the header's
    component order ("" for a header that declares none, None without one).
    Raises KeyframeFileError naming the first bad line.
    """
    rows: list[int] = []
    declared = None
    times, stored = [], []
    for n, line in enumerate(lines):
        content = line.strip()
        if not content or content.startswith("#"):
            continue
        fields = content.split(",")
        if not rows and declared is None and not _is_number(fields[0]):
            if len(fields) != 5:
                raise KeyframeFileError(
                    path, _("line {n}: the header must name 5 columns (time and four "
                            "components), got {n_fields}").format(n=n + 1, n_fields=len(fields))
                )
            declared = _header_order(fields) or ""
            if declared and declared not in ("wxyz", "xyzw"):
                raise KeyframeFileError(
                    path, _("line {n}: component order {declared} is not supported (wxyz "
                            "or xyzw)").format(n=n + 1, declared=declared)
                )
            continue
        if len(fields) != 5:
            raise KeyframeFileError(
                path, _("line {n}: expected 5 comma-separated numbers (time and four "
                        "components), got {n_fields} fields").format(
                            n=n + 1, n_fields=len(fields))
            )
        try:
            row = [float(f) for f in fields]
        except ValueError:
            bad = next(f for f in fields if not _is_number(f))
            raise KeyframeFileError(
                path, _("line {n}: {bad!r} is not a number").format(n=n + 1, bad=bad.strip())
            ) from None
        times.append(row[0])
        stored.append(row[1:])
        rows.append(n)
    return rows, declared, times, stored


def _parse_rows_fast(lines: list[str]):
    """What :func:`_parse_rows` returns, through numpy's C reader; None if anything is amiss.

    Picks the data lines (not blank, not comments) and the header as the
    line-by-line reader does, then parses every number at once: a
    million-key track in about a second instead of four. Anything the C
    reader refuses (a wrong field count, text that is not a number) sends
    the file to :func:`_parse_rows`, which names the line.
    """
    rows = [n for n, line in enumerate(lines) if (c := line.strip()) and not c.startswith("#")]
    if not rows:
        return None
    declared = None
    first = lines[rows[0]].strip().split(",")
    if not _is_number(first[0]):
        if len(first) != 5:
            return None
        declared = _header_order(first) or ""
        if declared not in ("", "wxyz", "xyzw"):
            return None
        rows = rows[1:]
    if not rows:
        return None
    try:
        data = np.loadtxt([lines[n] for n in rows], delimiter=",", comments=None,
                          dtype=np.float64, ndmin=2)
    except ValueError:
        return None
    if data.shape != (len(rows), 5):
        return None
    return rows, declared, data[:, 0], data[:, 1:]


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


# --------------------------------------------------------------------------- JSON


def _number_list(value, what: str, length: int | None = None) -> list[float]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        text = (_("{what} must be an array of numbers") if length is None else
                _("{what} must be an array of {length} numbers"))
        raise ValueError(text.format(what=what, length=length))
    for v in value:
        if type(v) not in (int, float):
            raise ValueError(_("{what} must contain only numbers, got {v}").format(
                what=what, v=_short(v)))
        if type(v) is int and not -_FLOAT_MAX <= v <= _FLOAT_MAX:
            raise ValueError(_("{what}: the integer {v} is too large for a number QuatLab can "
                               "compute with (at most about 1.8e308)").format(
                                   what=what, v=_short(v)))
    return [float(v) for v in value]


_FLOAT_MAX = int(np.finfo(np.float64).max)


def _short(v) -> str:
    text = repr(v) if not isinstance(v, int) or v.bit_length() < 200 else f"{str(v)[:12]}..."
    return text if len(text) <= 40 else text[:37] + "..."


def _numbers(value, what: str, width: int | None = None) -> np.ndarray:
    """``value`` (a JSON array of numbers, or of ``width``-number arrays) as float64.

    One vectorized pass when every element is a plain number; otherwise the
    element-by-element check finds and names the first bad one.
    """
    if isinstance(value, list):
        # Type checks with map/set run in C: no Python code per element.
        if width is None:
            flat = value
        elif set(map(type, value)) <= {list} and set(map(len, value)) <= {width}:
            flat = itertools.chain.from_iterable(value)
        else:
            flat = None
        if flat is not None and set(map(type, flat)) <= {int, float}:
            try:
                if width is None:
                    return np.array(value, dtype=np.float64)
                return np.fromiter(itertools.chain.from_iterable(value), dtype=np.float64,
                                   count=width * len(value)).reshape(len(value), width)
            except OverflowError:
                pass  # a huge integer: named below
    if width is None:
        return np.array(_number_list(value, what), dtype=np.float64)
    if not isinstance(value, list):
        raise ValueError(_("{what} must be an array of [{width} numbers]").format(
            what=what, width=width))
    return np.array([_number_list(v, f"{what}[{k}]", width) for k, v in enumerate(value)],
                    dtype=np.float64).reshape(len(value), width)


class JsonTrackFile(KeyframeFile):
    """A JSON track file (see the module documentation); ``doc``: its JSON, when parsed already."""

    format = "json"

    def __init__(self, path: Path, data: bytes, *, order: str | None, doc=None):
        self._data = data  # edited in place on write (only the changed keys' bytes)
        if doc is None:
            try:
                doc = json.loads(decode_utf8(path, data))
            except (ValueError, RecursionError) as exc:
                raise KeyframeFileError(path, _("the JSON does not parse ({exc})").format(
                    exc=exc)) from None
        if not isinstance(doc, dict):
            raise KeyframeFileError(path, _('expected a JSON object with "tracks" or "times"'))
        if "tracks" in doc:
            entries = doc["tracks"]
            if not isinstance(entries, list) or not entries:
                raise KeyframeFileError(path, _('"tracks" must be a non-empty array'))
            self._prefixes = [["tracks", i] for i in range(len(entries))]
        elif "times" in doc:
            entries = [doc]
            self._prefixes = [[]]
        else:
            raise KeyframeFileError(path, _('expected "tracks" or "times" in the JSON object'))
        declared = doc.get("order")
        self.order = resolve_order(path, order, declared, "\"order\"")
        tracks = []
        for i, entry in enumerate(entries):
            where = f"tracks[{i}]" if self._prefixes[i] else _("the track")
            try:
                tracks.append(self._track(entry, where))
            except ValueError as exc:
                raise KeyframeFileError(path, str(exc)) from None
        super().__init__(path, tracks)

    def _track(self, entry, where: str) -> Track:
        if not isinstance(entry, dict):
            raise ValueError(_("{where} must be an object").format(where=where))
        times = _numbers(entry.get("times"), f"{where}.times")
        values = _numbers(entry.get("values"), f"{where}.values", 4)
        if len(times) == 0 or len(times) != len(values):
            raise ValueError(
                _("{where} needs as many values as times, at least one (got {n_times} times, "
                  "{n_values} values)").format(
                      where=where, n_times=len(times), n_values=len(values))
            )
        mode = entry.get("interpolation", "LINEAR")
        if mode not in ("LINEAR", "STEP"):
            raise ValueError(_("{where}.interpolation must be LINEAR or STEP, got {mode!r}").format(
                where=where, mode=mode))
        names = {}
        for key in ("node", "animation"):
            name = entry.get(key)
            if name is not None and not isinstance(name, str):
                raise ValueError(_("{where}.{key} must be a string").format(where=where, key=key))
            names[key] = name
        return Track(
            times=times,
            values=_from_stored(values, self.order),
            interpolation=mode,
            animation=names["animation"],
            node_name=names["node"],
            storage="text",
        )

    def _encode(self, out: Path, tracks: list[Track]) -> list[tuple[Path, bytes]]:
        index = track_starts = None
        deletions, insertions, spans = [], [], []
        for n, (prefix, old, new) in enumerate(zip(self._prefixes, self.tracks, tracks,
                                                    strict=True)):
            rows = changed_rows(old.values, new.values)
            if not rows.size:
                continue
            if index is None:
                index = JsonIndex(self._data)
                if prefix:  # a "tracks" array: its entries located once
                    track_starts, _ends = index.element_spans(["tracks"], len(self.tracks))
            start = 0 if track_starts is None else int(track_starts[n])
            starts, ends = index.element_spans(["values"], len(old), start)
            before = _to_stored(old.values[rows], self.order)
            after = _to_stored(new.values[rows], self.order)
            # A negated key (a sign fix) keeps its digits: only the signs are toggled
            # (zeros stay as written). Other changed keys are written as json.dumps would.
            negated = (after == -before).all(axis=1)
            signs = rows[negated]
            dels, ins = negate_numbers(self._data, starts[signs], ends[signs],
                                       before[negated] != 0)
            deletions.append(dels)
            insertions.append(ins)
            others = rows[~negated]
            spans += [(s, e, t.encode("ascii")) for s, e, t in zip(
                starts[others].tolist(), ends[others].tolist(), number_lists(after[~negated]),
                strict=True)]
        if index is None:
            return [(out, self._data)]
        return [(out, splice(self._data, np.concatenate(deletions), np.concatenate(insertions),
                             spans))]


def load_csv(path, data: bytes, *, order: str | None = None) -> CsvTrackFile:
    """Load a CSV track from the file's bytes (see the module documentation)."""
    return CsvTrackFile(Path(path), data, order=order)


def load_json(path, data: bytes, *, order: str | None = None, doc=None) -> JsonTrackFile:
    """Load JSON tracks from the file's bytes (see the module documentation).

    ``doc`` is the parsed JSON when the caller has it already (parsed once).
    """
    return JsonTrackFile(Path(path), data, order=order, doc=doc)
