"""Audit rotation keyframe tracks and make their signs continuous. No Qt.

This is the logic behind ``quatlab check``, ``quatlab fix`` and the keyframe
debugger view. :func:`audit_track` lists :class:`~quatlab.app.io.tracks.Finding`
objects, each saying what a spec-conforming SLERP player and a naive NLERP
runtime do with the problem (docs/formats.md, "quatlab check");
:func:`fix_track` makes signs continuous (and optionally normalizes). The keys
are (w, x, y, z) quaternions (docs/conventions.md).

Examples
--------
>>> import numpy as np
>>> c = np.sqrt(0.5)
>>> track = Track(times=[0.0, 1.0], values=[[1, 0, 0, 0], [-c, 0, 0, -c]])
>>> [f.kind for f in audit_track(track)]
['sign_flip']
>>> fix = fix_track(track)
>>> fix.flipped.tolist(), audit_track(fix.fixed)
([1], [])
"""

from __future__ import annotations

import dataclasses
import functools
import math
import weakref
from collections.abc import Iterable

import numpy as np

from quatlab.app.i18n import N_, LazyText
from quatlab.app.io.tracks import (
    FINDING_KINDS,
    DeferredFinding,
    Finding,
    KeyframeFile,
    Track,
    TrackFix,
    TrackReport,
)
from quatlab.math import audit as A

__all__ = ["audit_track", "audit_file", "format_keys", "fix_track", "MAX_FINDINGS",
           "FileFindings"]

#: Findings described one by one per track; the rest are counted in one
#: summary finding (kind ``"more"``), so a huge broken track cannot exhaust memory.
MAX_FINDINGS = 1000


# --------------------------------------------------------------------------- audit


def _sign_flip_message(track: Track, i: int, dot: float) -> LazyText:
    # The rotation angle between the keys from the audit's normalized dot
    # (overflow-safe); arccos loses digits only near 0 deg, far below the
    # 0.1 deg shown.
    short = math.degrees(2.0 * math.acos(min(abs(dot), 1.0)))
    long = 360.0 - short
    head = LazyText(N_("dot(q{i}, q{j}) = {dot:.4g} < 0: the keys are stored in opposite "
                       "hemispheres."), i=i, j=i + 1, dot=dot)
    if track.interpolation == "STEP":
        return LazyText(N_(
            "{head} STEP holds each key, so a spec-conforming player never blends them and "
            "shows no wrong turn; a runtime that blends them anyway with naive NLERP "
            "(resampling, cross-fades) turns the long way, {long:.1f} deg instead of "
            "{short:.1f} deg."), head=head, long=long, short=short)
    if track.interpolation == "CUBICSPLINE":
        return LazyText(N_(
            "{head} glTF's cubic spline blends the components with no hemisphere check, so a "
            "spec-conforming player turns the long way here ({long:.1f} deg instead of "
            "{short:.1f} deg, shaped by the tangents), and so does a naive NLERP runtime."),
            head=head, long=long, short=short)
    if short < 0.05:
        # q and -q: nothing to turn, but the naive blend passes through zero.
        return LazyText(N_(
            "{head} Both keys are the same rotation stored as q and -q. A spec-conforming "
            "SLERP player follows the dot's sign and holds still; a naive NLERP runtime "
            "blends the stored components through the zero quaternion mid-segment, where "
            "the rotation collapses (no direction: a glitch or NaN), then spins a full turn."),
            head=head)
    return LazyText(N_(
        "{head} A spec-conforming SLERP player follows the dot's sign and takes the short "
        "arc ({short:.1f} deg); a naive NLERP runtime blends the stored components and "
        "turns the long way ({long:.1f} deg)."), head=head, long=long, short=short)


def _half_turn_message(track: Track, i: int, dot: float, tol: float) -> LazyText:
    head = LazyText(N_(
        "|dot(q{i}, q{j})| = {dot:.3g} <= {tol:.3g}: the keys are half a turn (180 deg) "
        "apart, both arcs are equally long, and the direction of the turn hangs on the "
        "sign of a dot product at rounding level."), i=i, j=i + 1, dot=abs(dot), tol=tol)
    if track.interpolation == "STEP":
        return LazyText(N_("{head} STEP holds each key, so no player turns here; blending "
                           "these keys with any method would be ambiguous."), head=head)
    if track.interpolation == "CUBICSPLINE":
        return LazyText(N_(
            "{head} glTF's cubic spline and a naive NLERP runtime both head toward q{j} as "
            "stored, but storing either key as -q reverses the turn. Add a key in between "
            "to pin the direction."), head=head, j=i + 1)
    if dot < 0:
        slerp = N_("A spec-conforming SLERP player follows the negative sign and turns toward "
                   "-q{j}; a naive NLERP runtime turns toward q{j} as stored: they spin in "
                   "opposite directions.")
    elif dot > 0:
        slerp = N_("A spec-conforming SLERP player and a naive NLERP runtime both turn toward "
                   "q{j} as stored, but re-exporting or quantizing the keys can flip the sign "
                   "and the direction.")
    else:
        slerp = N_("The glTF SLERP sign dot/|dot| is undefined at 0, so SLERP players differ; "
                   "a naive NLERP runtime turns toward q{j} as stored.")
    return LazyText(N_("{head} {players} Add a key in between to pin the direction."),
                    head=head, players=LazyText(slerp, j=i + 1))


def _key_message(kind: str, track: Track, i: int, norm: float, tangent: bool) -> LazyText:
    if kind == "zero":
        return LazyText(N_(
            "q{i} has zero length and encodes no rotation. A SLERP player has no angle to "
            "compute next to it (division by zero, NaN or an arbitrary pose); a naive NLERP "
            "runtime blends toward a zero vector that cannot be normalized."), i=i)
    if kind == "non_finite":
        return LazyText(N_(
            "a tangent of key {i} has a NaN or infinite component. A spec-conforming SLERP "
            "player and a naive NLERP runtime both propagate it into the node's transform: "
            "the node vanishes or the frame is corrupt.") if tangent else N_(
            "q{i} has a NaN or infinite component. A spec-conforming SLERP player and a "
            "naive NLERP runtime both propagate it into the node's transform: the node "
            "vanishes or the frame is corrupt."), i=i)
    return LazyText(N_(
        "|q{i}| = {norm:.6g}, off 1 by {off:.2g} (tolerance {tol}); glTF requires unit "
        "rotations. A SLERP player that does not renormalize passes the length on, and a "
        "non-unit quaternion scales and shears the node; a naive NLERP runtime normalizes "
        "its blend, so it only shows a slightly uneven speed."),
        i=i, norm=norm, off=abs(norm - 1), tol=A.UNIT_TOLERANCE)


def _time_message(i: int, t0: float, t1: float) -> LazyText:
    if not (np.isfinite(t0) and np.isfinite(t1)):
        what = LazyText(N_("t{i} = {t0:g}, t{j} = {t1:g}: a time is not finite"),
                        i=i, j=i + 1, t0=t0, t1=t1)
    else:
        what = LazyText(N_("t{j} = {t1:g} is not after t{i} = {t0:g}"),
                        i=i, j=i + 1, t0=t0, t1=t1)
    return LazyText(N_(
        "{what}; glTF requires strictly increasing times. Players search the times for the "
        "segment to play, so this segment is skipped or has zero or negative duration "
        "(t = (tc - tk) / td divides by zero): SLERP and NLERP runtimes alike jump or "
        "produce NaN here."), what=what)


#: Findings of tracks whose arrays are shared read-only data (several channels
#: on one accessor): computed once, held while the arrays live.
_SHARED: dict[tuple, tuple] = {}


def key_audit(values: np.ndarray, tol: float) -> A.KeyAudit:
    """:func:`quatlab.math.audit.audit_keys` of read-only ``values``, computed once per array.

    ``check`` and ``fix`` (and the keyframe view) audit the same loaded track
    more than once; read-only arrays cannot change, so their audit is kept
    while they live.
    """
    if values.flags.writeable:
        return A.audit_keys(values, half_turn_tol=tol)
    key = (id(values), tol)
    hit = _AUDITS.get(key)
    if hit is not None and hit[0]() is values:
        return hit[1]
    report = A.audit_keys(values, half_turn_tol=tol)
    _AUDITS[key] = (weakref.ref(values), report)
    weakref.finalize(values, _AUDITS.pop, key, None)
    return report


_AUDITS: dict[tuple, tuple] = {}


def _share_key(track: Track):
    arrays = (track.values, track.times, track.in_tangents, track.out_tangents)
    if any(a is not None and a.flags.writeable for a in arrays):
        return None, ()
    return (*map(id, arrays), track.interpolation, track.quantum), arrays


def audit_track(track: Track) -> list[Finding]:
    """Findings of one track, sorted by key and then by :data:`FINDING_KINDS` order.

    Per key: ``zero``, ``non_finite`` (values or, for CUBICSPLINE, tangents)
    and ``non_unit`` (tolerance :data:`quatlab.math.audit.UNIT_TOLERANCE`).
    Per segment (keys ``[i, i + 1]``): ``sign_flip`` and ``half_turn``
    (tolerance :data:`quatlab.math.audit.HALF_TURN_TOLERANCE`, or the storage
    step ``track.quantum`` when larger), and ``time_order``.

    Examples
    --------
    >>> box = Track(times=[1.25, 2.5], values=[[-1, 0, 0, 0], [4.49e-11, 1, 0, 0]])
    >>> [(f.kind, f.keys) for f in audit_track(box)]
    [('half_turn', (0, 1))]

    Past :data:`MAX_FINDINGS` findings the rest are summarised in one
    finding of kind ``"more"`` whose keys are the first and last key it covers.
    Tracks on the same read-only arrays share their findings.
    """
    key, arrays = _share_key(track)
    hit = _SHARED.get(key) if key is not None else None
    if hit is not None and all(
        (r is None) == (a is None) and (r is None or r() is a)
        for r, a in zip(hit[0], arrays, strict=True)
    ):
        return list(hit[1])
    findings = _audit_track(track)
    if key is not None:
        refs = tuple(None if a is None else weakref.ref(a) for a in arrays)
        _SHARED[key] = (refs, tuple(findings))
        weakref.finalize(track.values, _SHARED.pop, key, None)
    return findings


def _audit_track(track: Track) -> list[Finding]:
    tol = max(A.HALF_TURN_TOLERANCE, track.quantum)
    report = key_audit(track.values, tol)
    non_finite = report.non_finite
    if track.in_tangents is not None:
        non_finite = non_finite | ~(
            np.isfinite(track.in_tangents).all(axis=-1) & np.isfinite(track.out_tangents).all(-1)
        )
    masks = {
        "time_order": A.time_order(track.times),
        "zero": report.zero,
        "non_finite": non_finite,
        "non_unit": report.non_unit,
        "sign_flip": report.sign_flip,
        "half_turn": report.half_turn,
    }
    # Every finding as (first key, kind), in report order: messages are built
    # only for the first MAX_FINDINGS, so memory stays bounded by the limit, not
    # by the track (a million bad keys). Each kind's keys are sorted already,
    # so the first MAX_FINDINGS overall are among each kind's first MAX_FINDINGS;
    # only those (and each kind's count and last key) are looked for, so a
    # million-key track costs a few passes over its masks, not an index of each.
    # The quaternion kinds, in report order (the Euler kinds are a BVH file's own).
    kinds = [kind for kind in FINDING_KINDS if kind in masks]
    counts = [int(np.count_nonzero(masks[kind])) for kind in kinds]
    total = sum(counts)
    heads = [_first_true(masks[kind], min(n, MAX_FINDINGS + 1))
             for kind, n in zip(kinds, counts, strict=True)]
    first = np.concatenate(heads)
    kind_of = np.concatenate([np.full(len(k), n, dtype=np.int8) for n, k in enumerate(heads)])
    shown = np.lexsort((kind_of, first))[:MAX_FINDINGS]
    # Plain floats for the messages (numpy scalars format several times slower).
    keys_shown = first[shown]
    seg = np.minimum(keys_shown, max(len(track) - 2, 0))
    dots = report.dots[seg].tolist() if len(report.dots) else [0.0] * len(shown)
    norms = report.norms[keys_shown].tolist()
    bad_value = report.non_finite[keys_shown].tolist()

    def message(kind: str, i: int, j: int) -> str:
        if kind == "time_order":
            return _time_message(i, *track.times[i : i + 2].tolist())
        if kind == "sign_flip":
            return _sign_flip_message(track, i, dots[j])
        if kind == "half_turn":
            return _half_turn_message(track, i, dots[j], tol)
        return _key_message(kind, track, i, norms[j], not bad_value[j])

    findings = []
    for j, (n, i) in enumerate(zip(kind_of[shown].tolist(), keys_shown.tolist(), strict=True)):
        kind = kinds[n]
        span = (i,) if kind in ("zero", "non_finite", "non_unit") else (i, i + 1)
        findings.append(DeferredFinding(kind, span, functools.partial(message, kind, i, j)))
    if total > MAX_FINDINGS:
        taken = np.bincount(kind_of[shown], minlength=len(kinds)).tolist()
        left = [n - t for n, t in zip(counts, taken, strict=True)]
        what = ", ".join(f"{n:,} {kinds[k]}" for k, n in enumerate(left) if n)
        lo = min(int(h[t]) for h, t, n in zip(heads, taken, left, strict=True) if n)
        hi = max(_last_true(masks[kind]) for kind, n in zip(kinds, left, strict=True) if n)
        findings.append(Finding("more", (lo, hi), LazyText(N_(
            "{n} more findings past the first {first} of this track ({what}) between keys "
            "{lo} and {hi}; each is described like those above."),
            n=f"{total - MAX_FINDINGS:,}", first=f"{MAX_FINDINGS:,}", what=what, lo=lo, hi=hi)))
    return findings


def _first_true(mask: np.ndarray, n: int) -> np.ndarray:
    """Indices of the first ``n`` true entries of ``mask`` (which has at least ``n``)."""
    found, start, chunk = [], 0, 4096
    while n > 0 and start < len(mask):
        hits = np.flatnonzero(mask[start : start + chunk])[:n] + start
        found.append(hits)
        n -= len(hits)
        start += chunk
        chunk *= 4
    return np.concatenate(found) if found else np.zeros(0, dtype=np.intp)


def _last_true(mask: np.ndarray) -> int:
    """Index of the last true entry of ``mask`` (which has one)."""
    stop, chunk = len(mask), 4096
    while True:
        hits = np.flatnonzero(mask[max(stop - chunk, 0) : stop])
        if len(hits):
            return int(hits[-1]) + max(stop - chunk, 0)
        stop -= chunk
        chunk *= 4


def audit_file(keyframes: KeyframeFile) -> list[TrackReport]:
    """:func:`audit_track` for every track of a loaded file."""
    return [TrackReport(t, tuple(audit_track(t))) for t in keyframes.tracks]


def both_families(keys: Iterable[Finding], own: Iterable[Finding]) -> list[Finding]:
    """The keys' findings and a file's own (Euler, per frame) for one track, in one order.

    Sorted by first key and :data:`FINDING_KINDS` order; the ``"more"``
    summaries (what is past :data:`MAX_FINDINGS` of a family) come last, after
    every finding they do not describe.
    """
    found = list(keys) + list(own)
    found.sort(key=lambda f: (f.kind == "more", f.keys[0], FINDING_KINDS.index(f.kind)
                              if f.kind in FINDING_KINDS else len(FINDING_KINDS)))
    return found


class FileFindings:
    """A keyframe file whose tracks have findings of the file's own beside the keys' audit.

    Mixed into a :class:`KeyframeFile` (BVH, FBX) that defines
    ``file_findings(track) -> tuple[Finding, ...]`` (its Euler channels, its
    per-frame evaluation): these are the file's, whatever the keys become.
    """

    def file_findings(self, track: int) -> tuple[Finding, ...]:
        raise NotImplementedError

    def audit_track(self, track: int, current: Track | None = None) -> list[Finding]:
        """Both families for one track, sorted by key and :data:`FINDING_KINDS` order.

        ``current`` replaces the loaded track for the keys' audit (e.g. after
        sign fixes); the file's own findings stay.
        """
        t = self.tracks[track] if current is None else current
        return both_families(audit_track(t), self.file_findings(track))

    def audit(self) -> list[TrackReport]:
        """A :class:`TrackReport` per track with both families (see :meth:`audit_track`)."""
        return [TrackReport(t, tuple(self.audit_track(i))) for i, t in enumerate(self.tracks)]


def format_keys(indices: Iterable[int] | np.ndarray, limit: int = 20) -> str:
    """Key indices, or a boolean mask of keys, as compact ranges; the rest past ``limit`` counted.

    >>> format_keys([0, 1, 2, 5, 7, 8])
    '0-2, 5, 7-8'
    >>> format_keys(range(0, 100, 2), limit=3)
    '0, 2, 4, ... and 47 more (50 keys in all)'
    >>> format_keys(np.array([True, True, False, True]))
    '0-1, 3'

    A mask is read only as far as its first ``limit`` ranges reach (and
    counted), so a million flagged keys cost no list of a million indices.
    """
    if isinstance(indices, np.ndarray) and indices.dtype == bool:
        firsts, lasts = _mask_runs(indices.reshape(-1), limit)
        return _format_runs(firsts, lasts, int(np.count_nonzero(indices)))
    keys = indices if isinstance(indices, np.ndarray) else list(indices)
    keys = np.unique(np.asarray(keys, dtype=np.int64))
    if not keys.size:
        return ""
    breaks = np.flatnonzero(np.diff(keys) != 1)
    firsts = np.r_[keys[0], keys[breaks + 1]][:limit].tolist()
    lasts = np.r_[keys[breaks], keys[-1]][:limit].tolist()
    return _format_runs(firsts, lasts, int(keys.size))


def _format_runs(firsts: list[int], lasts: list[int], total: int) -> str:
    out = [f"{a}-{b}" if b > a else str(a) for a, b in zip(firsts, lasts, strict=True)]
    rest = total - sum(b - a + 1 for a, b in zip(firsts, lasts, strict=True))
    if rest:
        out.append(f"... and {rest:,} more ({total:,} keys in all)")
    return ", ".join(out)


def _mask_runs(mask: np.ndarray, limit: int) -> tuple[list[int], list[int]]:
    """First and last index of the first ``limit`` runs of true entries of ``mask``.

    Read in growing chunks (as :func:`_first_true`) until the runs are found.
    """
    firsts: list[int] = []
    lasts: list[int] = []
    start, chunk, n = 0, 4096, len(mask)
    while start < n and len(lasts) < limit:
        stop = min(start + chunk, n)
        block = mask[start:stop].view(np.int8)
        # +1 where a run starts, -1 just after one ends (the entry before the
        # chunk carries over); 2 * limit + 2 edges always close enough runs.
        before = mask[start - 1] if start else False
        edges = np.diff(block, prepend=np.int8(before))
        for i in np.flatnonzero(edges)[: 2 * limit + 2].tolist():
            if edges[i] > 0:
                firsts.append(start + i)
            else:
                lasts.append(start + i - 1)
                if len(lasts) == limit:
                    break
        start, chunk = stop, chunk * 4
    if len(firsts) > len(lasts):
        if len(lasts) < limit and start >= n:
            lasts.append(n - 1)  # a run that reaches the last key
        else:
            firsts.pop()
    return firsts, lasts


# --------------------------------------------------------------------------- fix


def fix_track(track: Track, *, normalize: bool = False) -> TrackFix:
    """Make the signs of ``track``'s keys continuous and, optionally, normalize them.

    Each key is moved into the hemisphere of the previous one (cumulatively:
    see :func:`quatlab.math.audit.sign_continuity`); CUBICSPLINE tangents are
    negated together with their key. The rotations do not change, and a
    spec-conforming SLERP player plays the result exactly as before (its
    path depends only on the rotations and the dot's sign); naive NLERP and
    cubic-spline players stop turning the long way. With ``normalize``,
    finite non-zero keys are scaled to unit length (tangents are left as
    they are). Zero and non-finite keys are never touched, and times are
    never changed.

    Examples
    --------
    >>> t = Track(times=[0, 1, 2], values=[[1, 0, 0, 0], [-1, 0, 0, 0], [2, 0, 0, 0]])
    >>> fix = fix_track(t, normalize=True)
    >>> fix.flipped.tolist(), fix.normalized.tolist()
    ([1], [2])
    >>> fix.fixed.values[:, 0]
    array([1., 1., 1.])
    """
    report = key_audit(track.values, max(A.HALF_TURN_TOLERANCE, track.quantum))
    values, flipped = A.sign_continuity(track.values, audit=report)
    changes: dict = {"values": values}
    if track.in_tangents is not None:
        sign = np.where(flipped, -1.0, 1.0)[:, None]
        changes["in_tangents"] = track.in_tangents * sign
        changes["out_tangents"] = track.out_tangents * sign
    normalized = np.zeros(len(track), dtype=bool)
    if normalize:
        scaled, candidates = A.normalize_keys(values)
        # Only keys whose stored value changes count (and change): a float32
        # unit key rescaled in float64 stores the same bytes again.
        normalized = candidates & _stored_differs(track, values, scaled)
        changes["values"] = np.where(normalized[:, None], scaled, values)
    # A half turn has two equally long ways; negating one of its keys (and not
    # the other) swaps which way a naive NLERP player spins.
    reversed_half_turns = (
        np.flatnonzero(report.half_turn & (flipped[:-1] != flipped[1:]))
        if report.half_turn.any() else np.zeros(0, dtype=np.intp)
    )
    for arr in (*changes.values(), flipped, normalized):
        # New arrays, ours alone: the Track shares them instead of copying, and
        # the masks stay what the fix's cached indices were made from.
        arr.flags.writeable = False
    fixed = dataclasses.replace(track, **changes)
    return TrackFix(track, fixed, flipped, normalized, reversed_half_turns)


def _stored_differs(track: Track, old: np.ndarray, new: np.ndarray) -> np.ndarray:
    """Rows whose value as the file stores it (float32, integer steps, text) differs."""
    if track.storage == "float":
        with np.errstate(over="ignore", invalid="ignore"):
            a, b = old.astype(np.float32), new.astype(np.float32)
    elif track.quantum > 0:
        a, b = np.round(old / track.quantum), np.round(new / track.quantum)
    else:
        a, b = old, new
    return ~((a == b) | (np.isnan(a) & np.isnan(b))).all(axis=1)
