"""Which runtimes glitch where: the findings x runtimes table of a keyframe file. No Qt.

:func:`runtime_matrix` plays every rotation track of a loaded
:class:`~quatlab.app.io.tracks.KeyframeFile` with each runtime player
(``docs/runtimes.md``) and measures, per segment between two keys, the
largest angle the runtime is off the glTF reference player
(:data:`quatlab.math.runtimes.REFERENCE`) on the *original* keys. With
pipeline ``steps`` (``quantize:16,resample:30``, see
:mod:`quatlab.math.key_pipeline`) the runtimes play what the steps make of
each track, and the reference column then shows what the steps themselves
changed.

The table is a :class:`RuntimeMatrix`: one :class:`RuntimeRow` per audit
finding (the segments its keys touch), plus a row of kind ``"runtime"`` for
each run of segments no finding names where some runtime is
:data:`GLITCH_DEG` or more off. Cells are degrees, or None where a track
cannot be played. Plain data: the command line prints it
(``quatlab check --runtimes``), a view can colour it, ``as_dict`` is its
JSON.

Examples
--------
>>> import numpy as np
>>> from quatlab.app.io.tracks import KeyframeFile, Track
>>> c = np.sqrt(0.5)
>>> kf = KeyframeFile("turn.csv", [Track(times=[0.0, 1.0], values=[[1, 0, 0, 0], [-c, 0, 0, -c]])])
>>> m = runtime_matrix(kf, ("gltf", "three", "nlerp"))
>>> [(r.kind, r.keys, [round(d, 1) for d in r.degrees]) for r in m.rows]
[('sign_flip', (0, 1), [0.0, 0.0, 180.0])]
>>> m.glitching()
('nlerp',)
"""

from __future__ import annotations

import dataclasses

import numpy as np

from quatlab.app.io.bvh.keyframes import audit_keyframes
from quatlab.app.io.track_audit import audit_track
from quatlab.app.io.track_runtimes import key_track, process, unplayable
from quatlab.app.io.tracks import KeyframeFile, TrackReport
from quatlab.math import key_pipeline as KP
from quatlab.math import runtimes as R

__all__ = ["GLITCH_DEG", "RUNTIME_KIND", "RuntimeRow", "RuntimeMatrix", "runtime_matrix",
           "segment_errors"]

#: A runtime this many degrees or more off the reference glitches (the
#: threshold of ``"runtime"`` rows and of :meth:`RuntimeMatrix.glitching`);
#: NLERP's uneven speed stays under it for segments up to about 150 degrees.
GLITCH_DEG = 10.0

#: The kind of a row no finding names: a run of segments where some runtime glitches.
RUNTIME_KIND = "runtime"

#: Samples per segment (both ends included), and fewer for very long tracks.
_SAMPLES = 16
_SAMPLES_LONG = 4
_LONG_TRACK = 20_000
#: Segments measured per batch (bounds the memory of one player call).
_CHUNK = 1 << 15
#: ``"runtime"`` rows per track at most (runs of glitching segments).
MAX_RUNTIME_ROWS = 100


@dataclasses.dataclass(frozen=True)
class RuntimeRow:
    """One row: track ``track``, finding ``kind`` on ``keys``, times ``start``..``end``.

    ``degrees`` follows :attr:`RuntimeMatrix.runtimes`: the largest angle each
    runtime is off the reference over the row's segments, None if unmeasured.
    """

    track: int
    kind: str
    keys: tuple[int, ...]
    start: float
    end: float
    degrees: tuple[float | None, ...]


@dataclasses.dataclass(frozen=True)
class RuntimeMatrix:
    """The findings x runtimes table of one file (module docs)."""

    runtimes: tuple[str, ...]
    steps: tuple[str, ...]
    reports: tuple[TrackReport, ...]
    rows: tuple[RuntimeRow, ...]
    #: ``(track, reason)`` for tracks no player can play (reason: English LazyText).
    skipped: tuple[tuple[int, str], ...] = ()
    reference: str = R.REFERENCE
    glitch_deg: float = GLITCH_DEG

    def column(self, runtime: str) -> list[float | None]:
        """The cells of ``runtime``, one per row."""
        j = self.runtimes.index(runtime)
        return [row.degrees[j] for row in self.rows]

    def worst(self) -> dict[str, float | None]:
        """Each runtime's largest cell over all rows (None when nothing was measured)."""
        out = {}
        for rid in self.runtimes:
            cells = [d for d in self.column(rid) if d is not None]
            out[rid] = max(cells) if cells else None
        return out

    def glitching(self) -> tuple[str, ...]:
        """The runtimes with a cell of :attr:`glitch_deg` or more, in column order."""
        return tuple(r for r, d in self.worst().items() if d is not None and d >= self.glitch_deg)

    def as_dict(self) -> dict:
        """The table as JSON-able data (English; never translated)."""
        rows = []
        for row in self.rows:
            track = self.reports[row.track].track
            rows.append({
                "track": row.track, "animation": track.animation, "node": track.node_name,
                "kind": row.kind, "keys": list(row.keys), "time": [row.start, row.end],
                "degrees": {r: (None if d is None else round(d, 4))
                            for r, d in zip(self.runtimes, row.degrees, strict=True)},
            })
        return {
            "reference": self.reference,
            "ids": list(self.runtimes),
            "after": list(self.steps),
            "glitch_degrees": self.glitch_deg,
            "rows": rows,
            "worst": {r: (None if d is None else round(d, 4)) for r, d in self.worst().items()},
            "glitching": list(self.glitching()),
            "skipped": [{"track": i, "reason": str(why)} for i, why in self.skipped],
        }


def _angles_deg(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Rotation angle between rows of ``a`` and ``b`` in degrees; 180 where either is NaN or zero.

    ``4 atan2(|a - s b|, |a + s b|)`` on normalized rows with ``s`` the sign of
    their dot (the atan2 is a quarter of the rotation angle): accurate near 0
    and near 180 degrees.
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        a = a / np.linalg.norm(a, axis=-1, keepdims=True)
        b = b / np.linalg.norm(b, axis=-1, keepdims=True)
        s = np.where(np.einsum("...i,...i->...", a, b) < 0, -1.0, 1.0)[..., None]
        angle = 4.0 * np.arctan2(np.linalg.norm(a - s * b, axis=-1),
                                 np.linalg.norm(a + s * b, axis=-1))
    return np.degrees(np.where(np.isfinite(angle), angle, np.pi))


def _play(kt: KP.KeyTrack, runtime: str, t: np.ndarray) -> np.ndarray:
    return R.play(runtime, kt.keys, kt.times, t, interpolation=kt.interpolation,
                  in_tangents=kt.in_tangents, out_tangents=kt.out_tangents, euler=kt.euler)


def segment_errors(original: KP.KeyTrack, played: KP.KeyTrack, runtimes) -> np.ndarray:
    """``(len(runtimes), S)``: per segment of ``played``, each runtime's largest error, degrees.

    The runtimes play ``played``; the reference plays ``original`` at the same
    times (the two are the same track unless pipeline steps ran). Each of the
    ``S = max(1, N - 1)`` segments is sampled at both ends and evenly between.

    Examples
    --------
    >>> k = np.array([[1.0, 0, 0, 0], [0, 0, 0, -1.0]])       # 180 deg about Z
    >>> tr = KP.KeyTrack(np.array([0.0, 1.0]), k)
    >>> segment_errors(tr, tr, ("gltf", "babylon")).round(6).tolist()
    [[0.0], [0.0]]
    """
    times = played.times
    n = len(times)
    samples = _SAMPLES if n <= _LONG_TRACK else _SAMPLES_LONG
    if n < 2:
        t = times[:1]
        ref = _play(original, R.REFERENCE, t)
        return np.stack([_angles_deg(_play(played, r, t), ref) for r in runtimes])
    u = np.arange(samples + 1) / samples
    out = np.empty((len(runtimes), n - 1))
    for a in range(0, n - 1, _CHUNK):
        b = min(a + _CHUNK, n - 1)
        t = (times[a:b, None] + u * (times[a + 1:b + 1] - times[a:b])[:, None]).ravel()
        ref = _play(original, R.REFERENCE, t)
        for j, rid in enumerate(runtimes):
            err = _angles_deg(_play(played, rid, t), ref)
            out[j, a:b] = err.reshape(b - a, samples + 1).max(axis=1)
    return out


def _segments(keys: tuple[int, ...], n: int) -> range:
    """The segments a finding on ``keys`` touches: between its keys, or both sides of one key."""
    if not keys:
        return range(0)
    lo, hi = min(keys), max(keys)
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    return range(max(lo, 0), min(hi, n - 1))


def _track_rows(index, report, errors, times, runtimes):
    n = len(times)
    rows, covered = [], np.zeros(max(n - 1, 0), dtype=bool)
    for f in report.findings:
        if f.kind == "more":
            continue
        segs = _segments(f.keys, n)
        if errors is None:
            degrees = (None,) * len(runtimes)
        elif n < 2:
            degrees = tuple(float(d) for d in errors[:, 0])
        elif len(segs):
            degrees = tuple(float(d) for d in errors[:, segs.start:segs.stop].max(axis=1))
            covered[segs.start:segs.stop] = True
        else:
            degrees = (None,) * len(runtimes)
        lo = times[segs.start] if len(segs) else times[min(f.keys[0], n - 1)]
        hi = times[segs.stop] if len(segs) else lo
        rows.append(RuntimeRow(index, f.kind, tuple(f.keys), float(lo), float(hi), degrees))
    if errors is not None and n >= 2:
        glitch = (errors.max(axis=0) >= GLITCH_DEG) & ~covered
        edges = np.flatnonzero(np.diff(np.concatenate([[0], glitch.astype(np.int8), [0]])))
        for start, stop in list(zip(edges[::2], edges[1::2], strict=True))[:MAX_RUNTIME_ROWS]:
            degrees = tuple(float(d) for d in errors[:, start:stop].max(axis=1))
            rows.append(RuntimeRow(index, RUNTIME_KIND, (int(start), int(stop)),
                                   float(times[start]), float(times[stop]), degrees))
    rows.sort(key=lambda r: (r.start, r.keys))
    return rows


def runtime_matrix(keyframes: KeyframeFile, runtimes=None, steps=()) -> RuntimeMatrix:
    """The findings x runtimes table of ``keyframes`` (module docs).

    ``runtimes`` are ids of :data:`quatlab.math.runtimes.RUNTIMES` (default:
    all); ``steps`` a pipeline spec or parsed steps (default: none, the file
    as it is). Without steps the findings are the file's audit (both
    families for BVH); with steps, the audit of each track after them.
    """
    runtimes = tuple(R.RUNTIMES) if runtimes is None else tuple(runtimes)
    for rid in runtimes:
        R.runtime(rid)
    if isinstance(steps, str):
        steps = KP.parse_steps(steps)
    steps = tuple(steps)
    reports, rows, skipped = [], [], []
    original_reports = audit_keyframes(keyframes) if not steps else None
    for i, track in enumerate(keyframes.tracks):
        original = key_track(keyframes, i)
        reason = unplayable(track)
        if steps and reason is None:
            processed, played = process(track, steps, euler=original.euler)
            report = TrackReport(processed, tuple(audit_track(processed)))
            reason = unplayable(processed)
        elif steps:
            report = TrackReport(track, tuple(audit_track(track)))
            played = original
        else:
            report, played = original_reports[i], original
        errors = None
        if reason is None:
            errors = segment_errors(original, played, runtimes)
        else:
            skipped.append((i, reason))
        reports.append(report)
        rows.extend(_track_rows(i, report, errors, report.track.times, runtimes))
    return RuntimeMatrix(runtimes, tuple(s.text for s in steps), tuple(reports), tuple(rows),
                         tuple(skipped))
