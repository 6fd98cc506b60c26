"""Rotation keyframe tracks as QuatLab holds them: :class:`Track`, findings, fixes, files. No Qt.

A :class:`Track` is one rotation channel: key times and keys as float64
quaternions in **(w, x, y, z)** order, whatever the file stored
(docs/conventions.md). A :class:`KeyframeFile` is a loaded file (one subclass
per format: :mod:`quatlab.app.io.gltf.read`, :mod:`quatlab.app.io.tables.table_io`)
that can write a corrected copy of itself. Every failure to read or write a
file is a :class:`KeyframeFileError` naming the file and the problem
(docs/formats.md).
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.io.atomic import write_files

__all__ = [
    "KeyframeFileError",
    "Track",
    "Finding",
    "DeferredFinding",
    "TrackReport",
    "TrackFix",
    "KeyframeFile",
    "INTERPOLATIONS",
    "FINDING_KINDS",
    "REPORT_KINDS",
    "ORDERS",
    "resolve_order",
    "track_label",
    "decode_utf8",
    "changed_rows",
]

#: glTF sampler interpolation modes (CSV and JSON tracks use LINEAR or STEP).
INTERPOLATIONS = ("LINEAR", "STEP", "CUBICSPLINE")

#: Finding kinds, in the order a report lists them for the same key.
FINDING_KINDS = ("time_order", "zero", "non_finite", "non_unit", "sign_flip", "half_turn",
                 "euler_wrap", "euler_flip", "gimbal_lock",  # these three: BVH and FBX Euler
                 "euler_range", "frame_sign_flip")  # FBX only (docs/formats.md, "FBX")

#: Every kind a report can list: :data:`FINDING_KINDS` and ``"more"``, the one finding
#: that counts a track's findings past the first thousand (docs/report.md; the report's
#: JSON Schema lists the same kinds, and a test holds the two to each other).
REPORT_KINDS = FINDING_KINDS + ("more",)

#: Component orders a CSV or JSON track can declare.
ORDERS = ("wxyz", "xyzw")


class KeyframeFileError(ValueError):
    """A keyframe file cannot be read or written. ``str()`` is ``"<file>: <problem>"``."""

    def __init__(self, path, problem: str):
        self.path = os.fspath(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")





def _frozen_array(value, shape_tail: tuple[int, ...], name: str) -> np.ndarray:
    if isinstance(value, np.ndarray) and value.dtype == np.float64 and not value.flags.writeable:
        # Already read-only (a reader's decoded accessor, shared by every track
        # that uses it): sharing it costs no memory and nobody can change it.
        arr = value
    else:
        arr = np.array(value, dtype=np.float64)  # a copy: the track owns its data
    if arr.ndim != 1 + len(shape_tail) or arr.shape[1:] != shape_tail:
        want = "(N" + "".join(f", {n}" for n in shape_tail) + ")"
        raise ValueError(_("{name} must have shape {want}, got {shape}").format(
            name=name, want=want, shape=arr.shape))
    arr.flags.writeable = False
    return arr


@dataclasses.dataclass(frozen=True, eq=False)
class Track:
    """One rotation channel: ``N`` key times and keys in (w, x, y, z) order.

    Arrays are float64 and read-only, so a track can be shared between views
    safely; derive changed tracks with :func:`dataclasses.replace`. Writable
    input is copied; read-only float64 arrays (the readers' decoded
    accessors) are shared, so tracks on one accessor cost its memory once.

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
            raise ValueError(_("{n_times} times but {n_values} values").format(
                n_times=len(times), n_values=len(values)))
        if self.interpolation not in INTERPOLATIONS:
            raise ValueError(
                _("interpolation must be one of {choices}, got {interpolation!r}").format(
                    choices=INTERPOLATIONS, interpolation=self.interpolation)
            )
        object.__setattr__(self, "times", times)
        object.__setattr__(self, "values", values)
        cubic = self.interpolation == "CUBICSPLINE"
        for name in ("in_tangents", "out_tangents"):
            tangents = getattr(self, name)
            if cubic != (tangents is not None):
                raise ValueError(_("{name} must be given exactly for CUBICSPLINE tracks").format(
                    name=name))
            if tangents is not None:
                tangents = _frozen_array(tangents, (4,), name)
                if len(tangents) != len(values):
                    raise ValueError(_("{n_tangents} {name} but {n_values} values").format(
                        n_tangents=len(tangents), name=name, n_values=len(values)))
                object.__setattr__(self, name, tangents)

    def __len__(self) -> int:
        return len(self.times)

    @property
    def label(self) -> str:
        """Short human name, e.g. ``animation 'Walk' (#0), node 'Bone.001' (#4)``."""
        return track_label(self.animation, self.animation_index, self.node_name, self.node_index)


def track_label(animation: str | None, animation_index: int | None, node: str | None,
                node_index: int | None) -> str:
    """:attr:`Track.label` of a track with these names and indices (also of a report's track)."""
    parts = []
    for forms, name, index in (
        ((_("animation {name!r} (#{index})"), _("animation {name!r}"),
          _("animation #{index}")), animation, animation_index),
        ((_("node {name!r} (#{index})"), _("node {name!r}"), _("node #{index}")),
         node, node_index),
    ):
        if name is not None and index is not None:
            parts.append(forms[0].format(name=name, index=index))
        elif name is not None:
            parts.append(forms[1].format(name=name))
        elif index is not None:
            parts.append(forms[2].format(index=index))
    return _(", ").join(parts) or _("track")


@dataclasses.dataclass(frozen=True)
class Finding:
    """One audit finding: ``kind`` (see :data:`FINDING_KINDS`), ``keys`` (indices from 0), text."""

    kind: str
    keys: tuple[int, ...]
    message: str

    def as_dict(self) -> dict:
        return {"kind": self.kind, "keys": list(self.keys), "message": self.message}


class DeferredFinding(Finding):
    """A :class:`Finding` whose message is written the first time it is read.

    ``make()`` returns the message. ``quatlab fix`` audits the fixed tracks
    only for the kinds and keys left, and a huge broken track has up to
    :data:`~quatlab.app.io.track_audit.MAX_FINDINGS` findings: writing a
    thousand messages nobody reads cost more than the audit of a million
    keys. Equal to, hashed and pickled as the plain Finding it stands for.
    """

    def __init__(self, kind: str, keys: tuple[int, ...], make):
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "keys", keys)
        object.__setattr__(self, "_make", make)

    @property
    def message(self) -> str:  # type: ignore[override]
        text = self.__dict__.get("_text")
        if text is None:
            text = self._make()
            object.__setattr__(self, "_text", text)
            object.__setattr__(self, "_make", None)
        return text

    def _fields(self) -> tuple:
        return self.kind, self.keys, self.message

    def __eq__(self, other):
        if isinstance(other, Finding):
            return self._fields() == (other.kind, other.keys, other.message)
        return NotImplemented

    def __hash__(self):
        return hash(self._fields())

    def __reduce__(self):
        return Finding, self._fields()


def _finite_or_none(value) -> float | None:
    value = float(value)
    return value if np.isfinite(value) else None


@dataclasses.dataclass(frozen=True)
class TrackReport:
    """A track and its findings, as ``quatlab check --json`` prints them."""

    track: Track
    findings: tuple[Finding, ...]

    def as_dict(self, messages: bool = True) -> dict:
        """The track and its findings as the report prints them (docs/report.md).

        ``start`` and ``end`` are the first and last key's times; each finding
        has ``times``, the times of its ``keys`` (None where a time is not
        finite: JSON has no NaN). ``messages=False`` leaves the texts out,
        and unwritten (see :class:`DeferredFinding`).
        """
        t = self.track
        findings = []
        for f in self.findings:
            times = [_finite_or_none(v) for v in t.times[list(f.keys)].tolist()]
            item = {"kind": f.kind, "keys": list(f.keys), "times": times}
            if messages:
                item["message"] = f.message
            findings.append(item)
        return {
            "animation": t.animation,
            "animation_index": t.animation_index,
            "node": t.node_name,
            "node_index": t.node_index,
            "path": t.path,
            "interpolation": t.interpolation,
            "storage": t.storage,
            "keys": len(t),
            "start": _finite_or_none(t.times[0]) if len(t) else None,
            "end": _finite_or_none(t.times[-1]) if len(t) else None,
            "findings": findings,
        }


@dataclasses.dataclass(frozen=True, eq=False)
class TrackFix:
    """What :func:`fix_track` did: the corrected track and the keys it changed."""

    original: Track
    fixed: Track
    #: Which keys (with their tangents) were negated, ``(N,)`` bool.
    flipped_mask: np.ndarray
    #: Which keys were scaled to unit length (only those whose stored value
    #: changed), ``(N,)`` bool.
    normalized_mask: np.ndarray
    #: Segments ``i`` (keys i, i + 1) that are half turns and whose relative sign the
    #: fix changed: a naive NLERP player now spins the other way round.
    reversed_half_turns: np.ndarray = dataclasses.field(
        default_factory=lambda: np.zeros(0, dtype=np.intp)
    )

    # Indices are made only when asked for: a million-key fix that negates
    # half of them would spend more on this list than on the fix, and a
    # report needs only the count and the first ranges (format_keys takes
    # the masks).
    @functools.cached_property
    def flipped(self) -> np.ndarray:
        """Indices of the negated keys."""
        return np.flatnonzero(self.flipped_mask)

    @functools.cached_property
    def normalized(self) -> np.ndarray:
        """Indices of the keys scaled to unit length."""
        return np.flatnonzero(self.normalized_mask)

    @property
    def changed(self) -> bool:
        return bool(self.flipped_mask.any() or self.normalized_mask.any())


# --------------------------------------------------------------------------- files


class KeyframeFile:
    """A loaded keyframe file: its rotation :attr:`tracks` and what is needed to write a copy.

    Subclasses (one per format) implement :meth:`_encode`.
    """

    #: Format name: ``"gltf"``, ``"glb"``, ``"csv"`` or ``"json"``.
    format: str = ""
    #: True only while :meth:`write_in_place` encodes the file over itself.
    _in_place: bool = False
    #: What the reader wants the user to know but did not refuse the file for,
    #: one line each: a required extension ignored and why, keys audited from
    #: an uncompressed fallback, a suspicious BVH hierarchy (docs/formats.md).
    #: ``quatlab check`` prints them (and lists them in its JSON), the
    #: Keyframes tab shows them with the file.
    notes: tuple[str, ...] = ()

    def __init__(self, path: Path, tracks: Sequence[Track]):
        self.path = Path(path)
        self.tracks: tuple[Track, ...] = tuple(tracks)

    @property
    def input_files(self) -> tuple[Path, ...]:
        """Every file this document was read from (the file and, for glTF, its resources)."""
        return (self.path,)

    def euler_channels(self, track: int) -> tuple[np.ndarray, str] | None:
        """The Euler channels track ``track`` was converted from, or None (quaternion formats).

        ``(degrees (N, 3), order)``, ``order`` an order string of
        :mod:`quatlab.math.euler`. A format that stores Euler angles (BVH,
        FBX) returns them, so the players that blend Euler channels
        (``docs/runtimes.md``, "Unity Euler curves") play the file's own.
        """
        return None

    def node_parents(self) -> dict[int, int]:
        """The parent of each node (by the tracks' ``node_index``) that has one; ``{}``: flat.

        The Keyframes tab's dope sheet groups a file's tracks by this hierarchy;
        a format without one (CSV and JSON tracks) lists them in file order.
        """
        return {}

    def write_copy(self, out, tracks: Sequence[Track] | None, *, force: bool = False
                   ) -> list[Path]:
        """Write the file to ``out`` with ``tracks``' keys in place of the loaded ones.

        ``tracks`` must match :attr:`tracks` one to one (same length and times,
        e.g. the ``fixed`` tracks of :func:`fix_track`): only rotation key
        values (and CUBICSPLINE tangents) are written back; everything else
        is kept. None keeps the loaded keys (a BVH copy is then the
        Euler-filtered file, made without converting its tracks). ``out``
        must be a new path with the input's extension, never the input
        itself (also not through a symlink or hard link). An existing
        ``out`` (or companion ``.bin``) is replaced only with ``force`` (see
        :meth:`existing_outputs` to ask first). All files are written
        atomically and together, or none is
        (:func:`quatlab.app.io.atomic.write_files`). Returns the files
        written (glTF may add a ``.bin`` beside ``out``).
        """
        out = Path(out)
        items = self._planned(out, tracks)
        if not force:
            existing = [p for p, _data in items if os.path.lexists(p)]
            if existing:
                raise _would_replace(out, existing)
        try:
            write_files(items, force=force)
        except FileExistsError as exc:
            raise _would_replace(out, [Path(exc.filename)]) from None
        except OSError as exc:
            raise KeyframeFileError(
                exc.filename or out, _("cannot write: {error}").format(error=exc.strerror or exc)
            ) from None
        return [p for p, _data in items]

    def write_in_place(self, tracks: Sequence[Track]) -> list[Path]:
        """Write ``tracks``' keys into the loaded file itself; returns the files that changed.

        What :meth:`write_copy` would write to the file's own name, published
        atomically over the file (and its companion ``.bin``) and only where
        the bytes differ, with the file's permission bits kept. Refused (a
        :class:`KeyframeFileError`, nothing written) when a file to change is a
        symlink, and when the copy would need a file that was not read (an
        external buffer whose name is not the file's own ``NAME.bin``): write
        a copy instead.
        """
        self._check_tracks(tracks)
        # The encoders refuse to write over an input (check_output_path); here that is the
        # point, and the targets are checked below instead.
        self._in_place = True
        try:
            items = self._encode(self.path, list(tracks))
        finally:
            self._in_place = False
        read = {os.path.realpath(p) for p in self.input_files}
        changed = []
        for path, data in items:
            if os.path.realpath(path) not in read:
                raise KeyframeFileError(self.path, _(
                    "cannot be fixed in place: the fix would write {file}, which the file does "
                    "not use; write a corrected copy instead (quatlab fix IN OUT)").format(
                        file=path))
            try:
                with open(path, "rb") as f:
                    same = f.read() == data
                mode = os.stat(path).st_mode & 0o7777
            except OSError as exc:
                raise KeyframeFileError(path, _("cannot read: {error}").format(
                    error=exc.strerror or exc)) from None
            if same:
                continue
            if os.path.islink(path):  # replacing it would put a file where the link was
                raise KeyframeFileError(path, _("is a symlink: fix the file it points to, or "
                                                "write a corrected copy"))
            changed.append((Path(path), data, mode))
        try:
            write_files([(p, data) for p, data, _mode in changed], force=True)
            for path, _data, mode in changed:
                os.chmod(path, mode)
        except OSError as exc:
            raise KeyframeFileError(
                exc.filename or self.path,
                _("cannot write: {error}").format(error=exc.strerror or exc)) from None
        return [p for p, _data, _mode in changed]

    def existing_outputs(self, out, tracks: Sequence[Track] | None) -> list[Path]:
        """The files :meth:`write_copy` would replace (empty when it creates only new files).

        A "replace them?" question asks about these, then passes ``force=True``.
        """
        return [p for p, _data in self._planned(Path(out), tracks) if os.path.lexists(p)]

    def _planned(self, out: Path, tracks: Sequence[Track] | None) -> list[tuple[Path, bytes]]:
        if tracks is None:
            kept = self._unchanged_tracks()
        else:
            self._check_tracks(tracks)
            kept = list(tracks)
        self._check_output(out)
        return self._encode(out, kept)

    def _unchanged_tracks(self) -> list[Track] | None:
        """What :meth:`_encode` gets for "the loaded keys unchanged": the loaded tracks."""
        return list(self.tracks)

    def _encode(self, out: Path, tracks: list[Track]) -> list[tuple[Path, bytes]]:
        """The files of the copy, ``(path, bytes)``, the main file last."""
        raise NotImplementedError

    def _check_tracks(self, tracks: Sequence[Track]) -> None:
        if len(tracks) != len(self.tracks):
            raise ValueError(_("expected {n_tracks} tracks, got {n_tracks2}").format(
                n_tracks=len(self.tracks), n_tracks2=len(tracks)))
        for new, old in zip(tracks, self.tracks, strict=True):
            if (
                len(new) != len(old)
                or new.interpolation != old.interpolation
                or not np.array_equal(new.times, old.times, equal_nan=True)
            ):
                raise ValueError(
                    _("{label}: replacement track must keep the times and interpolation").format(
                        label=old.label)
                )

    def check_output_path(self, out, *, extra: Iterable[Path] = ()) -> None:
        """Refuse ``out`` (or any of ``extra``) if writing it would replace an input file."""
        if self._in_place:
            return
        for path in (Path(out), *extra):
            for source in self.input_files:
                if _same_file(path, source):
                    raise KeyframeFileError(
                        path,
                        _("is the input file {file}; write the corrected copy to a new "
                          "file").format(file=source),
                    )

    def _check_output(self, out: Path) -> None:
        if out.suffix.lower() != self.path.suffix.lower():
            raise KeyframeFileError(
                out, _("the output must have the input's extension ({suffix})").format(
                    suffix=self.path.suffix or _("none"))
            )
        if out.is_dir():
            raise KeyframeFileError(out, _("is a directory; give a file name"))
        self.check_output_path(out)


def _would_replace(out: Path, existing: Sequence[Path]) -> KeyframeFileError:
    """The refusal to replace ``existing`` files, naming a file that does exist."""
    if list(existing) == [out]:
        return KeyframeFileError(out, _("already exists: pass --force to replace it (or choose "
                                        "another name)"))
    # A companion (OUT.bin) may exist without OUT itself: the message starts
    # with the file that is there.
    first = out if out in existing else existing[0]
    names = ", ".join(str(p) for p in existing)
    return KeyframeFileError(first, _(
        "already exists; writing {out} would replace {files}: pass --force to replace "
        "(or choose another name)").format(out=out, files=names))


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
                path, _("component order must be 'wxyz' or 'xyzw', got {value!r}").format(
                    value=value)
            )
    if given is not None and declared is not None and given != declared:
        raise KeyframeFileError(
            path, _("component order {given} was given, but the file's {where} says "
                    "{declared}").format(given=given, where=where, declared=declared)
        )
    order = declared or given
    if order is None:
        raise KeyframeFileError(
            path,
            _("the component order is unknown: give it (--order wxyz or --order xyzw) or "
              "declare it in the file (CSV header time,x,y,z,w or JSON \"order\": \"xyzw\")"),
        )
    return order


# --------------------------------------------------------------------------- format helpers


def decode_utf8(path, data: bytes, what: str | None = None) -> str:
    """``data`` as UTF-8 text, or :class:`KeyframeFileError` saying where it is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise KeyframeFileError(
            path, _("{what} is not UTF-8 text ({reason} at byte {at})").format(
                what=what or _("the file"), reason=exc.reason, at=exc.start)
        ) from None


def changed_rows(old: np.ndarray, new: np.ndarray) -> np.ndarray:
    """Indices of the rows of ``(N, k)`` arrays that differ (NaN equals NaN).

    Writers store only these rows, so every other key keeps its bytes.
    """
    same = (old == new) | (np.isnan(old) & np.isnan(new))
    return np.flatnonzero(~same.all(axis=1))
