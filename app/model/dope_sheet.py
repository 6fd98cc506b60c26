"""The file-wide dope sheet as data: a row per animated joint, a mark per finding, an order. No Qt.

What the Keyframes tab's dope sheet (:mod:`quatlab.app.qt.dope_sheet`) draws
and walks, made from a file's tracks and their findings only (the
:class:`~quatlab.app.io.tracks.KeyframeFile` and ``Track`` API, so every
format shows the same way):

* **rows**: one per track (an animated joint of one animation), grouped by
  animation when the file has several (a group row each), and within an
  animation by the rig's hierarchy when the file gives one
  (``KeyframeFile.node_parents()``: a row's parent is the nearest ancestor
  joint animated in the same animation); otherwise flat, in file order.
* **marks**: one per finding, with its family (:mod:`~quatlab.app.model.finding_families`),
  its times (a segment's two keys, or one key), and the segment that
  showing it selects.
* **the order of the findings** that N and Shift+N walk: animation by
  animation (in file order: a clip's time means nothing in another clip), and
  within an animation by time across all its tracks, ties in row order
  (how an animator scans a dope sheet, left to right, top to bottom).

Examples
--------
>>> import numpy as np
>>> from quatlab.app.io.tracks import Finding, Track
>>> q = [[1, 0, 0, 0]] * 3
>>> tracks = [Track([0, 1, 2], q, node_name="hip", node_index=0),
...           Track([0, 1, 2], q, node_name="knee", node_index=1)]
>>> findings = [(Finding("sign_flip", (1, 2), ""),), (Finding("sign_flip", (0, 1), ""),)]
>>> sheet = DopeSheet(tracks, findings, parents={1: 0})
>>> [(sheet.rows[r].label, sheet.rows[r].depth) for r in range(len(sheet.rows))]
[('hip', 0), ('knee', 1)]
>>> [(m.track, m.t0, m.segment) for m in sheet.marks]   # in time order
[(1, 0.0, 0), (0, 1.0, 1)]
>>> sheet.following(None), sheet.following(0), sheet.following(1)   # wraps round
(0, 1, 0)
"""

from __future__ import annotations

import bisect
import dataclasses
import math
from collections.abc import Mapping, Sequence

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.io.tracks import FINDING_KINDS
from quatlab.app.model.finding_families import EULER_FAMILIES, family_of, is_key_mark

__all__ = ["DopeSheet", "Mark", "Row", "node_parents"]


@dataclasses.dataclass(frozen=True)
class Mark:
    """One finding as the dope sheet draws it."""

    #: Index of the track (row's track) and of the finding among the track's findings.
    track: int
    finding: int
    kind: str
    family: str
    keys: tuple[int, ...]
    #: Times of the first and last key the finding names (NaN where not finite).
    t0: float
    t1: float
    #: The segment that showing the finding selects (None: the track has no segment).
    segment: int | None
    #: True for a finding about one key (a tick), False for a stretch of time.
    key_mark: bool

    @property
    def time(self) -> float:
        """Where showing the finding puts the time: the middle of its segment, or its key."""
        return 0.5 * (self.t0 + self.t1)


@dataclasses.dataclass(frozen=True)
class Row:
    """A row of the dope sheet: a track's (``track`` set) or an animation's group row."""

    label: str
    #: The track shown, None for a group row.
    track: int | None
    #: Index of the row's animation group (0 when the file has one).
    group: int
    parent: int | None
    depth: int
    children: tuple[int, ...]
    #: The row's own marks, indices into :attr:`DopeSheet.marks` (time order).
    marks: tuple[int, ...]
    #: First and last key time of the track (of the group's tracks), NaN if none is finite.
    start: float
    end: float
    #: Key times of the track (empty for a group row), finite ones only.
    key_times: np.ndarray


def node_parents(keyframes) -> dict[int, int]:
    """``keyframes.node_parents()`` when the file's format gives its hierarchy, else ``{}``."""
    own = getattr(keyframes, "node_parents", None)
    try:
        parents = own() if callable(own) else {}
    except Exception:  # noqa: BLE001 - a broken hierarchy only costs the grouping
        return {}
    return {int(k): int(v) for k, v in dict(parents).items()}


def _finite(value: float) -> float:
    return float(value) if math.isfinite(value) else math.nan


def _joint_label(track) -> str:
    if track.node_name:
        return track.node_name
    if track.node_index is not None:
        return _("node #{index}").format(index=track.node_index)
    return track.label


def _group_label(track) -> str:
    if track.animation is not None:
        return track.animation
    if track.animation_index is not None:
        return _("animation #{index}").format(index=track.animation_index)
    return _("tracks")


class DopeSheet:
    """Rows and marks of a file's tracks and findings (module docs).

    Parameters
    ----------
    tracks : sequence of Track
    findings : sequence of sequences of Finding
        Each track's findings (``findings[i]`` belong to ``tracks[i]``).
    parents : mapping, optional
        Parent node index of a node index (:func:`node_parents`); without it
        the rows of an animation are flat.
    """

    def __init__(self, tracks: Sequence, findings: Sequence[Sequence],
                 parents: Mapping[int, int] | None = None) -> None:
        parents = dict(parents or {})
        self.tracks = tuple(tracks)
        self.findings = tuple(tuple(f) for f in findings)
        groups: dict[tuple, list[int]] = {}
        for i, t in enumerate(self.tracks):
            groups.setdefault((t.animation_index, t.animation), []).append(i)
        self.grouped = len(groups) > 1
        self.group_labels = tuple(_group_label(self.tracks[members[0]])
                                  for members in groups.values())
        rows: list[dict] = []
        row_of_track: dict[int, int] = {}
        for g, members in enumerate(groups.values()):
            top = None
            if self.grouped:
                top = len(rows)
                rows.append(dict(label=self.group_labels[g], track=None, group=g, parent=None,
                                 depth=0, children=[]))
            for i, depth_parent in self._hierarchy(members, parents):
                parent = row_of_track[depth_parent] if depth_parent is not None else top
                depth = rows[parent]["depth"] + 1 if parent is not None else 0
                row_of_track[i] = len(rows)
                if parent is not None:
                    rows[parent]["children"].append(len(rows))
                rows.append(dict(label=_joint_label(self.tracks[i]), track=i, group=g,
                                 parent=parent, depth=depth, children=[]))
        self.row_of_track = row_of_track
        self.marks, per_track = self._marks(findings, row_of_track, rows)
        built = [self._row(r, per_track) for r in rows]
        for r, row in enumerate(built):
            if row.track is None:  # a group's span: its tracks'
                mine = [b for b in built if b.track is not None and b.group == row.group]
                lo = [b.start for b in mine if math.isfinite(b.start)]
                hi = [b.end for b in mine if math.isfinite(b.end)]
                built[r] = dataclasses.replace(row, start=min(lo, default=math.nan),
                                               end=max(hi, default=math.nan))
        self.rows = tuple(built)
        starts = [r.start for r in self.rows if math.isfinite(r.start)]
        ends = [r.end for r in self.rows if math.isfinite(r.end)]
        lo, hi = (min(starts), max(ends)) if starts else (0.0, 1.0)
        #: The time axis every row shares: the earliest to the latest key of the file.
        self.start, self.end = (lo, hi) if hi > lo else (lo - 0.5, lo + 0.5)
        self._keys = [self._order_key(m) for m in self.marks]
        #: Whether the file has findings of both the quaternion and the Euler families
        #: (the view then draws them in two lanes).
        euler = {m.family in EULER_FAMILIES for m in self.marks}
        self.two_lanes = len(euler) == 2
        self._subtrees: dict[int, tuple[int, ...]] = {}

    # ------------------------------------------------------------------ building
    def _hierarchy(self, members: list[int], parents: dict[int, int]):
        """``(track, parent track or None)`` of an animation's tracks, parents first (DFS)."""
        by_node: dict[int, int] = {}
        for i in members:
            node = self.tracks[i].node_index
            if node is not None:
                by_node.setdefault(node, i)
        parent_of: dict[int, int | None] = {}
        for i in members:
            node, found = self.tracks[i].node_index, None
            seen = {node}
            while node is not None and found is None:
                node = parents.get(node)
                if node is None or node in seen:
                    break
                seen.add(node)
                found = by_node.get(node)
            parent_of[i] = found if found != i else None
        children: dict[int | None, list[int]] = {}
        for i in members:
            children.setdefault(parent_of[i], []).append(i)
        out: list[tuple[int, int | None]] = []
        stack = [(i, None) for i in reversed(children.get(None, []))]
        done = set()
        while stack:
            i, parent = stack.pop()
            if i in done:
                continue
            done.add(i)
            out.append((i, parent))
            stack.extend((c, i) for c in reversed(children.get(i, [])))
        # Anything a cycle hid from the roots, at the top in file order.
        out += [(i, None) for i in members if i not in done]
        return out

    def _marks(self, findings, row_of_track: dict[int, int], rows: list[dict]):
        marks: list[Mark] = []
        for i, track_findings in enumerate(findings):
            times = self.tracks[i].times
            n = len(times)
            for j, f in enumerate(track_findings):
                keys = tuple(int(k) for k in f.keys)
                inside = [k for k in keys if 0 <= k < n]
                if not inside:
                    continue
                t0, t1 = _finite(times[min(inside)]), _finite(times[max(inside)])
                key = is_key_mark(f.kind, keys)
                segment = min(max(inside[0], 0), n - 2) if n > 1 else None
                marks.append(Mark(i, j, f.kind, family_of(f.kind), keys, t0, t1, segment, key))
        # Navigation order (module docs).
        position = {track: r for track, r in row_of_track.items()}
        kind_rank = {k: n for n, k in enumerate(FINDING_KINDS)}
        marks.sort(key=lambda m: (rows[position[m.track]]["group"],
                                  m.t0 if math.isfinite(m.t0) else math.inf,
                                  position[m.track], kind_rank.get(m.kind, len(kind_rank)),
                                  m.keys))
        per_track: dict[int, list[int]] = {}
        for k, m in enumerate(marks):
            per_track.setdefault(m.track, []).append(k)
        return tuple(marks), per_track

    def _row(self, r: dict, per_track: dict[int, list[int]]) -> Row:
        i = r["track"]
        if i is None:
            return Row(r["label"], None, r["group"], r["parent"], r["depth"],
                       tuple(r["children"]), (), math.nan, math.nan, np.zeros(0))
        times = self.tracks[i].times
        finite = times[np.isfinite(times)]
        start, end = ((float(finite.min()), float(finite.max())) if len(finite)
                      else (math.nan, math.nan))
        return Row(r["label"], i, r["group"], r["parent"], r["depth"], tuple(r["children"]),
                   tuple(per_track.get(i, ())), start, end, finite)

    def _order_key(self, m: Mark) -> tuple:
        row = self.row_of_track[m.track]
        return (self.rows[row].group, m.t0 if math.isfinite(m.t0) else math.inf, row)

    # ------------------------------------------------------------------ queries
    def _subtree(self, r: int) -> list[int]:
        """Rows under row ``r`` (not ``r`` itself), depth first."""
        out, stack = [], list(reversed(self.rows[r].children))
        while stack:
            c = stack.pop()
            out.append(c)
            stack.extend(reversed(self.rows[c].children))
        return out

    def subtree_marks(self, r: int) -> tuple[int, ...]:
        """Marks of row ``r`` and of every row under it, in time order (a summary row's)."""
        if r not in self._subtrees:
            found = set(self.rows[r].marks)
            for c in self._subtree(r):
                found.update(self.rows[c].marks)
            self._subtrees[r] = tuple(sorted(found))
        return self._subtrees[r]

    def finding(self, k: int):
        """The :class:`~quatlab.app.io.tracks.Finding` behind mark ``k``."""
        m = self.marks[k]
        return self.findings[m.track][m.finding]

    @property
    def flagged_rows(self) -> int:
        """How many track rows have findings."""
        return sum(1 for row in self.rows if row.track is not None and row.marks)

    @property
    def track_rows(self) -> int:
        return sum(1 for row in self.rows if row.track is not None)

    def visible(self, text: str = "", only_findings: bool = False) -> list[tuple[int, bool]]:
        """The rows to show, ``(row, context)``, in row order.

        A track row is shown when its label (or its animation's) contains
        ``text`` (case-insensitive) and, with ``only_findings``, it has
        findings; the rows above a shown row are shown too, as context
        (``context`` True: they matched nothing themselves), so the
        hierarchy stays readable.
        """
        needle = text.strip().casefold()
        shown: dict[int, bool] = {}
        for r, row in enumerate(self.rows):
            if row.track is None:
                continue
            group = self.group_labels[row.group].casefold() if self.grouped else ""
            if needle and needle not in row.label.casefold() and needle not in group:
                continue
            if only_findings and not row.marks:
                continue
            shown[r] = False
            p = row.parent
            while p is not None and p not in shown:
                shown[p] = True
                p = self.rows[p].parent
        for r in [r for r in shown if self.rows[r].track is None]:
            shown[r] = False  # a group row is a heading, not a joint that matched nothing
        return sorted(shown.items())

    def mark_of(self, track: int | None, segment: int | None) -> int | None:
        """The mark that selecting ``segment`` of ``track`` shows (first in order), if any."""
        if track is None or segment is None or track not in self.row_of_track:
            return None
        row = self.rows[self.row_of_track[track]]
        return next((k for k in row.marks if self.marks[k].segment == segment), None)

    def following(self, current: int | None, *, track: int | None = None,
                  time: float | None = None) -> int | None:
        """The mark after mark ``current`` in the walking order (module docs), wrapping round.

        With no ``current``, the first mark after ``time`` in ``track``'s
        animation (ties: rows below ``track``), or the very first.
        """
        if not self.marks:
            return None
        if current is not None:
            return (current + 1) % len(self.marks)
        if track is None or time is None or track not in self.row_of_track:
            return 0
        row = self.row_of_track[track]
        k = bisect.bisect_right(self._keys, (self.rows[row].group, float(time), row))
        return k % len(self.marks)

    def preceding(self, current: int | None, *, track: int | None = None,
                  time: float | None = None) -> int | None:
        """The mark before ``current`` (or before ``time``: :meth:`following`), wrapping round."""
        if not self.marks:
            return None
        if current is not None:
            return (current - 1) % len(self.marks)
        if track is None or time is None or track not in self.row_of_track:
            return len(self.marks) - 1
        row = self.row_of_track[track]
        k = bisect.bisect_left(self._keys, (self.rows[row].group, float(time), row))
        return (k - 1) % len(self.marks)
