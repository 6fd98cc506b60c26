"""Rotation keyframe tracks: load, audit, sign-fix and write a corrected copy. No Qt.

This is the model behind ``quatlab check``, ``quatlab fix`` and the keyframe
debugger view. A :class:`Track` is one rotation channel: key times and keys
as float64 quaternions in **(w, x, y, z)** order, whatever the file stored.
:func:`load_keyframes` reads glTF 2.0 (``.gltf``, ``.glb``; see
:mod:`quatlab.app.io.gltf_read`) and CSV or JSON tracks (see
:mod:`quatlab.app.io.table_io`) into a :class:`KeyframeFile`;
:func:`audit_track` lists :class:`Finding` objects, each saying what a
spec-conforming SLERP player and a naive NLERP runtime do with the problem;
:func:`fix_track` makes signs continuous (and optionally normalizes);
:meth:`KeyframeFile.write_copy` writes the corrected copy to a new file,
atomically, keeping everything else.

Every failure to read or write a file is a :class:`KeyframeFileError` naming
the file and the problem; a file is either loaded completely or not at all.

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

import contextlib
import dataclasses
import json
import os
import re
import secrets
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from quatlab.math import audit as A

__all__ = [
    "KeyframeFileError",
    "Track",
    "Finding",
    "TrackReport",
    "TrackFix",
    "KeyframeFile",
    "INTERPOLATIONS",
    "FINDING_KINDS",
    "ORDERS",
    "load_keyframes",
    "audit_track",
    "audit_file",
    "fix_track",
    "fix_file",
    "format_keys",
    "resolve_order",
    "decode_utf8",
    "changed_rows",
    "atomic_write",
    "json_value_span",
    "edit_json_text",
]

#: glTF sampler interpolation modes (CSV and JSON tracks use LINEAR or STEP).
INTERPOLATIONS = ("LINEAR", "STEP", "CUBICSPLINE")

#: Finding kinds, in the order a report lists them for the same key.
FINDING_KINDS = ("time_order", "zero", "non_finite", "non_unit", "sign_flip", "half_turn")

#: Component orders a CSV or JSON track can declare.
ORDERS = ("wxyz", "xyzw")


class KeyframeFileError(ValueError):
    """A keyframe file cannot be read or written. ``str()`` is ``"<file>: <problem>"``."""

    def __init__(self, path, problem: str):
        self.path = os.fspath(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


# --------------------------------------------------------------------------- model


def _frozen_array(value, shape_tail: tuple[int, ...], name: str) -> np.ndarray:
    arr = np.array(value, dtype=np.float64)  # a copy: the track owns its data
    if arr.ndim != 1 + len(shape_tail) or arr.shape[1:] != shape_tail:
        want = "(N" + "".join(f", {n}" for n in shape_tail) + ")"
        raise ValueError(f"{name} must have shape {want}, got {arr.shape}")
    arr.flags.writeable = False
    return arr


@dataclasses.dataclass(frozen=True, eq=False)
class Track:
    """One rotation channel: ``N`` key times and keys in (w, x, y, z) order.

    Arrays are float64 copies and read-only, so a track can be shared
    between views safely; derive changed tracks with :func:`dataclasses.replace`.

    Attributes
    ----------
    times : ndarray, shape (N,)
        Key times in seconds, as stored (not checked: see ``time_order``).
    values : ndarray, shape (N, 4)
        Keys, (w, x, y, z), as stored (not normalized, may be bad).
    interpolation : str
        ``"LINEAR"``, ``"STEP"`` or ``"CUBICSPLINE"``.
    animation, animation_index : str or None, int or None
        glTF animation name and index (None for CSV and JSON tracks unless
        the JSON names one).
    node_name, node_index : str or None, int or None
        Target node's name and index.
    path : str
        Animated property; always ``"rotation"`` here.
    in_tangents, out_tangents : ndarray, shape (N, 4), or None
        CUBICSPLINE tangents, (w, x, y, z); None for other modes.
    quantum : float
        Step of the stored components: 0 for floating point, 1/127 for
        normalized signed bytes, etc. Dot products below it have no reliable
        sign, so it widens the half-turn tolerance.
    storage : str
        How the file stores the components, for display (``"float"``,
        ``"normalized signed short"``, ``"text"``).
    """

    times: np.ndarray
    values: np.ndarray
    interpolation: str = "LINEAR"
    animation: str | None = None
    animation_index: int | None = None
    node_name: str | None = None
    node_index: int | None = None
    path: str = "rotation"
    in_tangents: np.ndarray | None = None
    out_tangents: np.ndarray | None = None
    quantum: float = 0.0
    storage: str = "float"

    def __post_init__(self):
        times = _frozen_array(self.times, (), "times")
        values = _frozen_array(self.values, (4,), "values")
        if len(times) != len(values):
            raise ValueError(f"{len(times)} times but {len(values)} values")
        if self.interpolation not in INTERPOLATIONS:
            raise ValueError(
                f"interpolation must be one of {INTERPOLATIONS}, got {self.interpolation!r}"
            )
        object.__setattr__(self, "times", times)
        object.__setattr__(self, "values", values)
        cubic = self.interpolation == "CUBICSPLINE"
        for name in ("in_tangents", "out_tangents"):
            tangents = getattr(self, name)
            if cubic != (tangents is not None):
                raise ValueError(f"{name} must be given exactly for CUBICSPLINE tracks")
            if tangents is not None:
                tangents = _frozen_array(tangents, (4,), name)
                if len(tangents) != len(values):
                    raise ValueError(f"{len(tangents)} {name} but {len(values)} values")
                object.__setattr__(self, name, tangents)

    def __len__(self) -> int:
        return len(self.times)

    @property
    def label(self) -> str:
        """Short human name, e.g. ``animation 'Walk' (#0), node 'Bone.001' (#4)``."""
        parts = []
        for what, name, index in (
            ("animation", self.animation, self.animation_index),
            ("node", self.node_name, self.node_index),
        ):
            if name is not None and index is not None:
                parts.append(f"{what} {name!r} (#{index})")
            elif name is not None:
                parts.append(f"{what} {name!r}")
            elif index is not None:
                parts.append(f"{what} #{index}")
        return ", ".join(parts) or "track"


@dataclasses.dataclass(frozen=True)
class Finding:
    """One audit finding: ``kind`` (see :data:`FINDING_KINDS`), ``keys`` (indices from 0), text."""

    kind: str
    keys: tuple[int, ...]
    message: str

    def as_dict(self) -> dict:
        return {"kind": self.kind, "keys": list(self.keys), "message": self.message}


@dataclasses.dataclass(frozen=True)
class TrackReport:
    """A track and its findings, as ``quatlab check --json`` prints them."""

    track: Track
    findings: tuple[Finding, ...]

    def as_dict(self) -> dict:
        t = self.track
        return {
            "animation": t.animation,
            "animation_index": t.animation_index,
            "node": t.node_name,
            "node_index": t.node_index,
            "path": t.path,
            "interpolation": t.interpolation,
            "storage": t.storage,
            "keys": len(t),
            "findings": [f.as_dict() for f in self.findings],
        }


@dataclasses.dataclass(frozen=True, eq=False)
class TrackFix:
    """What :func:`fix_track` did: the corrected track and the keys it changed."""

    original: Track
    fixed: Track
    #: Indices of keys (with their tangents) that were negated.
    flipped: np.ndarray
    #: Indices of keys scaled to unit length.
    normalized: np.ndarray

    @property
    def changed(self) -> bool:
        return bool(self.flipped.size or self.normalized.size)


# --------------------------------------------------------------------------- audit


def _sign_flip_message(track: Track, i: int, dot: float) -> str:
    # The rotation angle between the keys from the audit's normalized dot
    # (overflow-safe); arccos loses digits only near 0 deg, far below the
    # 0.1 deg shown.
    short = float(np.degrees(2.0 * np.arccos(min(abs(dot), 1.0))))
    long = 360.0 - short
    head = f"dot(q{i}, q{i + 1}) = {dot:.4g} < 0: the keys are stored in opposite hemispheres."
    if track.interpolation == "STEP":
        return (
            f"{head} STEP holds each key, so a spec-conforming player never blends them "
            f"and shows no wrong turn; a runtime that blends them anyway with naive NLERP "
            f"(resampling, cross-fades) turns the long way, {long:.1f} deg instead of "
            f"{short:.1f} deg."
        )
    if track.interpolation == "CUBICSPLINE":
        return (
            f"{head} glTF's cubic spline blends the components with no hemisphere check, so "
            f"a spec-conforming player turns the long way here ({long:.1f} deg instead of "
            f"{short:.1f} deg, shaped by the tangents), and so does a naive NLERP runtime."
        )
    if short < 0.05:
        # q and -q: nothing to turn, but the naive blend passes through zero.
        return (
            f"{head} Both keys are the same rotation stored as q and -q. A spec-conforming "
            f"SLERP player follows the dot's sign and holds still; a naive NLERP runtime "
            f"blends the stored components through the zero quaternion mid-segment, where "
            f"the rotation collapses (no direction: a glitch or NaN), then spins a full turn."
        )
    return (
        f"{head} A spec-conforming SLERP player follows the dot's sign and takes the short "
        f"arc ({short:.1f} deg); a naive NLERP runtime blends the stored components and "
        f"turns the long way ({long:.1f} deg)."
    )


def _half_turn_message(track: Track, i: int, dot: float, tol: float) -> str:
    head = (
        f"|dot(q{i}, q{i + 1})| = {abs(dot):.3g} <= {tol:.3g}: the keys are half a turn "
        f"(180 deg) apart, both arcs are equally long, and the direction of the turn hangs "
        f"on the sign of a dot product at rounding level."
    )
    fix = "Add a key in between to pin the direction."
    if track.interpolation == "STEP":
        return f"{head} STEP holds each key, so no player turns here; blending these keys " \
            f"with any method would be ambiguous."
    if track.interpolation == "CUBICSPLINE":
        return (
            f"{head} glTF's cubic spline and a naive NLERP runtime both head toward q{i + 1} "
            f"as stored, but storing either key as -q reverses the turn. {fix}"
        )
    if dot < 0:
        slerp = (
            f"A spec-conforming SLERP player follows the negative sign and turns toward "
            f"-q{i + 1}; a naive NLERP runtime turns toward q{i + 1} as stored: they spin in "
            f"opposite directions."
        )
    elif dot > 0:
        slerp = (
            f"A spec-conforming SLERP player and a naive NLERP runtime both turn toward "
            f"q{i + 1} as stored, but re-exporting or quantizing the keys can flip the sign "
            f"and the direction."
        )
    else:
        slerp = (
            f"The glTF SLERP sign dot/|dot| is undefined at 0, so SLERP players differ; a "
            f"naive NLERP runtime turns toward q{i + 1} as stored."
        )
    return f"{head} {slerp} {fix}"


def _key_message(kind: str, track: Track, i: int, norm: float, tangent: bool) -> str:
    if kind == "zero":
        return (
            f"q{i} has zero length and encodes no rotation. A SLERP player has no angle to "
            f"compute next to it (division by zero, NaN or an arbitrary pose); a naive NLERP "
            f"runtime blends toward a zero vector that cannot be normalized."
        )
    if kind == "non_finite":
        where = f"a tangent of key {i}" if tangent else f"q{i}"
        return (
            f"{where} has a NaN or infinite component. A spec-conforming SLERP player and a "
            f"naive NLERP runtime both propagate it into the node's transform: the node "
            f"vanishes or the frame is corrupt."
        )
    return (
        f"|q{i}| = {norm:.6g}, off 1 by {abs(norm - 1):.2g} (tolerance {A.UNIT_TOLERANCE}); "
        f"glTF requires unit rotations. A SLERP player that does not renormalize passes the "
        f"length on, and a non-unit quaternion scales and shears the node; a naive NLERP "
        f"runtime normalizes its blend, so it only shows a slightly uneven speed."
    )


def _time_message(i: int, t0: float, t1: float) -> str:
    if not (np.isfinite(t0) and np.isfinite(t1)):
        what = f"t{i} = {t0:g}, t{i + 1} = {t1:g}: a time is not finite"
    else:
        what = f"t{i + 1} = {t1:g} is not after t{i} = {t0:g}"
    return (
        f"{what}; glTF requires strictly increasing times. Players search the times for the "
        f"segment to play, so this segment is skipped or has zero or negative duration "
        f"(t = (tc - tk) / td divides by zero): SLERP and NLERP runtimes alike jump or "
        f"produce NaN here."
    )


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
    """
    tol = max(A.HALF_TURN_TOLERANCE, track.quantum)
    report = A.audit_keys(track.values, half_turn_tol=tol)
    bad_tangent = np.zeros(len(track), dtype=bool)
    if track.in_tangents is not None:
        bad_tangent = ~(
            np.isfinite(track.in_tangents).all(axis=-1) & np.isfinite(track.out_tangents).all(-1)
        )
    findings: list[tuple[int, int, Finding]] = []

    def add(kind: str, keys: tuple[int, ...], message: str) -> None:
        findings.append((keys[0], FINDING_KINDS.index(kind), Finding(kind, keys, message)))

    order = A.time_order(track.times)
    for i in np.flatnonzero(order):
        add("time_order", (int(i), int(i) + 1), _time_message(i, *track.times[i : i + 2]))
    non_finite = report.non_finite | bad_tangent
    key_masks = (("zero", report.zero), ("non_finite", non_finite), ("non_unit", report.non_unit))
    for kind, mask in key_masks:
        for i in np.flatnonzero(mask):
            message = _key_message(kind, track, i, report.norms[i], not report.non_finite[i])
            add(kind, (int(i),), message)
    for i in np.flatnonzero(report.sign_flip):
        add("sign_flip", (int(i), int(i) + 1), _sign_flip_message(track, i, report.dots[i]))
    for i in np.flatnonzero(report.half_turn):
        add("half_turn", (int(i), int(i) + 1), _half_turn_message(track, i, report.dots[i], tol))
    findings.sort(key=lambda item: item[:2])
    return [f for _, _, f in findings]


def audit_file(keyframes: KeyframeFile) -> list[TrackReport]:
    """:func:`audit_track` for every track of a loaded file."""
    return [TrackReport(t, tuple(audit_track(t))) for t in keyframes.tracks]


def format_keys(indices: Iterable[int]) -> str:
    """Key indices as compact ranges.

    >>> format_keys([0, 1, 2, 5, 7, 8])
    '0-2, 5, 7-8'
    """
    out: list[str] = []
    run: list[int] = []
    for i in sorted(int(k) for k in indices):
        if run and i == run[-1] + 1:
            run.append(i)
            continue
        if run:
            out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [i]
    if run:
        out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
    return ", ".join(out)


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
    report = A.audit_keys(track.values)
    values, flipped = A.sign_continuity(track.values, audit=report)
    changes: dict = {"values": values}
    if track.in_tangents is not None:
        sign = np.where(flipped, -1.0, 1.0)[:, None]
        changes["in_tangents"] = track.in_tangents * sign
        changes["out_tangents"] = track.out_tangents * sign
    normalized = np.zeros(len(track), dtype=bool)
    if normalize:
        changes["values"], normalized = A.normalize_keys(values)
    fixed = dataclasses.replace(track, **changes)
    return TrackFix(track, fixed, np.flatnonzero(flipped), np.flatnonzero(normalized))


# --------------------------------------------------------------------------- files


class KeyframeFile:
    """A loaded keyframe file: its rotation :attr:`tracks` and what is needed to write a copy.

    Subclasses (one per format) implement :meth:`_write`.
    """

    #: Format name: ``"gltf"``, ``"glb"``, ``"csv"`` or ``"json"``.
    format: str = ""

    def __init__(self, path: Path, tracks: Sequence[Track]):
        self.path = Path(path)
        self.tracks: tuple[Track, ...] = tuple(tracks)

    @property
    def input_files(self) -> tuple[Path, ...]:
        """Every file this document was read from (the file and, for glTF, its resources)."""
        return (self.path,)

    def write_copy(self, out, tracks: Sequence[Track]) -> list[Path]:
        """Write the file to ``out`` with ``tracks``' keys in place of the loaded ones.

        ``tracks`` must match :attr:`tracks` one to one (same length and times,
        e.g. the ``fixed`` tracks of :func:`fix_track`): only rotation key
        values (and CUBICSPLINE tangents) are written back; everything else
        is kept. ``out`` must be a new path with the input's extension, never
        the input itself (also not through a symlink or hard link); files are
        written atomically. Returns the files written (glTF may add a
        ``.bin`` beside ``out``).
        """
        out = Path(out)
        self._check_tracks(tracks)
        self._check_output(out)
        try:
            return self._write(out, list(tracks))
        except OSError as exc:
            raise KeyframeFileError(
                exc.filename or out, f"cannot write: {exc.strerror or exc}"
            ) from None

    def _write(self, out: Path, tracks: list[Track]) -> list[Path]:
        raise NotImplementedError

    def _check_tracks(self, tracks: Sequence[Track]) -> None:
        if len(tracks) != len(self.tracks):
            raise ValueError(f"expected {len(self.tracks)} tracks, got {len(tracks)}")
        for new, old in zip(tracks, self.tracks, strict=True):
            if (
                len(new) != len(old)
                or new.interpolation != old.interpolation
                or not np.array_equal(new.times, old.times, equal_nan=True)
            ):
                raise ValueError(
                    f"{old.label}: replacement track must keep the times and interpolation"
                )

    def check_output_path(self, out, *, extra: Iterable[Path] = ()) -> None:
        """Refuse ``out`` (or any of ``extra``) if writing it would replace an input file."""
        for path in (Path(out), *extra):
            for source in self.input_files:
                if _same_file(path, source):
                    raise KeyframeFileError(
                        path,
                        f"is the input file {source}; write the corrected copy to a new file",
                    )

    def _check_output(self, out: Path) -> None:
        if out.suffix.lower() != self.path.suffix.lower():
            raise KeyframeFileError(
                out, f"the output must have the input's extension ({self.path.suffix or 'none'})"
            )
        if out.is_dir():
            raise KeyframeFileError(out, "is a directory; give a file name")
        self.check_output_path(out)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        # One of them does not exist: then they are not the same file,
        # unless both names resolve to the same (future) path.
        return os.path.realpath(a) == os.path.realpath(b)


def resolve_order(path, given: str | None, declared: str | None, where: str) -> str:
    """The component order of a CSV or JSON track: stated explicitly, never guessed.

    ``given`` comes from the caller (``--order``), ``declared`` from the file
    (``where`` says how, for the message). They must agree when both exist.
    """
    for value in (given, declared):
        if value is not None and value not in ORDERS:
            raise KeyframeFileError(
                path, f"component order must be 'wxyz' or 'xyzw', got {value!r}"
            )
    if given is not None and declared is not None and given != declared:
        raise KeyframeFileError(
            path, f"component order {given} was given, but the file's {where} says {declared}"
        )
    order = declared or given
    if order is None:
        raise KeyframeFileError(
            path,
            "the component order is unknown: give it (--order wxyz or --order xyzw) or declare "
            "it in the file (CSV header time,x,y,z,w or JSON \"order\": \"xyzw\")",
        )
    return order


def load_keyframes(path, *, order: str | None = None) -> KeyframeFile:
    """Load the rotation tracks of a glTF (``.gltf``, ``.glb``), CSV or JSON file.

    ``order`` (``"wxyz"`` or ``"xyzw"``) is the component order of CSV and
    JSON tracks when the file does not declare it; glTF always stores
    (x, y, z, w). Any problem raises :class:`KeyframeFileError`.
    """
    # Imported here: the format modules build on the classes defined above.
    from quatlab.app.io import gltf_read, table_io

    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise KeyframeFileError(path, f"cannot read: {exc.strerror or exc}") from None
    suffix = path.suffix.lower()
    if data[:4] == gltf_read.GLB_MAGIC:
        return gltf_read.load_glb(path, data, order=order)
    if suffix == ".glb":
        raise KeyframeFileError(path, "not a GLB file: it does not start with 'glTF'")
    if suffix == ".gltf":
        return gltf_read.load_gltf(path, data, order=order)
    if suffix == ".csv":
        return table_io.load_csv(path, data, order=order)
    if suffix == ".json":
        if gltf_read.looks_like_gltf(data):
            return gltf_read.load_gltf(path, data, order=order)
        return table_io.load_json(path, data, order=order)
    raise KeyframeFileError(
        path, f"unsupported file type {path.suffix!r} (expected .gltf, .glb, .csv or .json)"
    )


def fix_file(src, dst, *, order: str | None = None, normalize: bool = False) -> list[TrackFix]:
    """Load ``src``, fix every track (:func:`fix_track`), write the copy to ``dst``.

    Returns the fixes; the written files are ``dst`` (and, for glTF with
    external buffers, a ``.bin`` beside it).
    """
    keyframes = load_keyframes(src, order=order)
    fixes = [fix_track(t, normalize=normalize) for t in keyframes.tracks]
    keyframes.write_copy(dst, [f.fixed for f in fixes])
    return fixes


# --------------------------------------------------------------------------- format helpers


def decode_utf8(path, data: bytes, what: str = "the file") -> str:
    """``data`` as UTF-8 text, or :class:`KeyframeFileError` saying where it is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise KeyframeFileError(
            path, f"{what} is not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from None


def changed_rows(old: np.ndarray, new: np.ndarray) -> np.ndarray:
    """Indices of the rows of ``(N, k)`` arrays that differ (NaN equals NaN).

    Writers store only these rows, so every other key keeps its bytes.
    """
    same = (old == new) | (np.isnan(old) & np.isnan(new))
    return np.flatnonzero(~same.all(axis=1))


# --------------------------------------------------------------------------- writing helpers


def atomic_write(path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: a temporary file in the same directory, then rename.

    Readers see the old file or the new one, never a partial one. The new
    file gets the usual permissions (0666 minus the umask), like any file
    the user creates.
    """
    path = Path(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            # os.open with 0o666 lets the umask decide, unlike tempfile's 0o600.
            fd = os.open(tmp, flags, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


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
