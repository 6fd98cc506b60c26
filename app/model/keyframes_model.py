"""The keyframe debugger's model: a loaded file, its audit, sign fixes with undo, selection. No Qt.

:class:`KeyframesModel` is what the "Keyframes" tab (:mod:`quatlab.app.qt.keyframes_view`)
shows and edits, usable and testable without a display. It holds

* the loaded :class:`~quatlab.app.io.tracks.KeyframeFile` (a failed load
  keeps the previous one: :meth:`KeyframesModel.load` raises and changes
  nothing),
* the *current* tracks, which start as the file's and change only through
  "fix signs" (:func:`~quatlab.app.io.tracks.fix_track`, one track or all),
  each fix one undoable step,
* the audit of the current tracks (:func:`~quatlab.app.io.tracks.audit_track`)
  and per-segment numbers (:class:`Segments`),
* the selected track and segment. Selecting a segment loads its two keys
  into the two-key lesson (a :class:`~quatlab.app.model.state.LessonState`) with t
  at :data:`TROUBLE_T`, so the student sees the wrong turn itself.

Events (:class:`~quatlab.app.model.state.Events`): ``"file"`` (another file: all
of it changed), ``"tracks"`` (keys changed by a fix, undo or redo),
``"selection"`` and ``"message"`` (:attr:`KeyframesModel.message` changed).

Examples
--------
>>> from quatlab.app.io.tracks import Track
>>> import numpy as np
>>> c = np.sqrt(0.5)
>>> m = KeyframesModel()
>>> m.set_tracks([Track(times=[0, 1], values=[[1, 0, 0, 0], [-c, 0, 0, -c]])])
>>> m.segments(0).flags
(('sign_flip',),)
>>> m.fix_signs()
1
>>> m.segments(0).flags
((),)
>>> m.undo()
>>> m.segments(0).flags
(('sign_flip',),)
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import numpy as np

from quatlab.app.i18n import N_, _
from quatlab.app.io.keyframe_files import load_keyframes
from quatlab.app.io.track_audit import audit_track, fix_track, format_keys
from quatlab.app.io.tracks import KeyframeFile, KeyframeFileError, Track
from quatlab.app.model.dope_sheet import DopeSheet, node_parents
from quatlab.app.model.explain import sentences
from quatlab.app.model.finding_families import is_key_mark, primary
from quatlab.app.model.history import History
from quatlab.app.model.state import Events, LessonState
from quatlab.math import audit as A
from quatlab.math.curves import path_angle
from quatlab.math.quaternion import angle_between, as_quaternion

__all__ = [
    "KeyframesModel",
    "Segments",
    "Message",
    "TROUBLE_T",
    "SEGMENT_KINDS",
    "KEY_KINDS",
    "BROKEN_KEY_KINDS",
    "severity",
    "describe_kinds",
    "kind_name",
]

#: Where a selected segment puts the lesson's t: for a sign flip the midpoint
#: is where naive NLERP is farthest off the short arc (170 deg instead of 10
#: for the negated-20 preset), and for a half turn where the two arcs part.
TROUBLE_T = 0.5

#: Finding kinds that describe a segment (keys i and i + 1) ...
SEGMENT_KINDS = ("time_order", "sign_flip", "half_turn")
#: ... and those that describe one key.
KEY_KINDS = ("zero", "non_finite", "non_unit")
#: Key findings that leave the segments beside the key without a rotation
#: to blend (non_unit keys still rotate: players normalize or nearly so).
BROKEN_KEY_KINDS = ("zero", "non_finite")


def severity(kinds) -> str | None:
    """How a segment with these flag kinds is highlighted: ``"sign_flip"``, ``"warning"`` or None.

    A sign flip is the wrong turn this tool is about; a half turn, times out
    of order or a broken key beside the segment make it unreliable in other
    ways; a key that is merely not unit length does not change the turn.

    >>> severity(["half_turn"]), severity(["non_unit"]), severity(["sign_flip", "non_unit"])
    ('warning', None, 'sign_flip')
    """
    kinds = set(kinds)
    if "sign_flip" in kinds:
        return "sign_flip"
    if kinds & {"half_turn", "time_order", *BROKEN_KEY_KINDS}:
        return "warning"
    return None


#: What each finding kind is called in the tables and texts (translated where shown).
KIND_NAMES = {
    "time_order": N_("time order"), "zero": N_("zero"), "non_finite": N_("non finite"),
    "non_unit": N_("non unit"), "sign_flip": N_("sign flip"), "half_turn": N_("half turn"),
    "euler_wrap": N_("euler wrap"), "euler_flip": N_("euler flip"),
    "gimbal_lock": N_("gimbal lock"),
}


def kind_name(kind: str) -> str:
    """A finding kind in words, in the current language (``"sign_flip"`` -> ``"sign flip"``).

    >>> kind_name("half_turn"), kind_name("something_new")
    ('half turn', 'something new')
    """
    name = KIND_NAMES.get(kind)
    return _(name) if name else kind.replace("_", " ")


def describe_kinds(kinds) -> str:
    """Finding kinds counted, for a table cell.

    >>> describe_kinds(["sign_flip", "non_unit", "sign_flip"])
    '2 sign flip, 1 non unit'
    """
    counts = Counter(kinds)
    return ", ".join(_("{n} {kind}").format(n=n, kind=kind_name(k)) for k, n in counts.items())


@dataclasses.dataclass(frozen=True)
class Message:
    """The model's last status line; ``error`` when something was refused."""

    text: str
    error: bool = False


@dataclasses.dataclass(frozen=True, eq=False)
class Segments:
    """Per-segment numbers of one track; entry ``i`` is the segment from key i to key i + 1.

    Angles are in degrees and NaN where a key of the segment is zero or not
    finite (no rotation to measure). ``naive_deg`` is the rotation swept by
    blending the stored components (:func:`quatlab.math.curves.path_angle`:
    ``360 - shortest`` when ``dot < 0``), ``shortest_deg`` the angle between
    the two rotations (:func:`quatlab.math.quaternion.angle_between`).
    """

    t0: np.ndarray
    t1: np.ndarray
    #: Dot product of the normalized keys (the audit's), NaN where undefined.
    dot: np.ndarray
    naive_deg: np.ndarray
    shortest_deg: np.ndarray
    #: Finding kinds per segment: its own (sign_flip, half_turn, time_order),
    #: then those of its two keys (zero, non_finite, non_unit).
    flags: tuple[tuple[str, ...], ...]
    #: The findings behind ``flags``, per segment, for their explanations.
    findings: tuple[tuple, ...]
    #: Keys with a key finding, ``(N,)`` bool.
    key_flagged: np.ndarray
    #: :func:`severity` of each segment, ``""`` for none: an array, so views
    #: can pick the highlighted segments of a long track without a loop.
    levels: np.ndarray
    #: The most important finding family (:mod:`~quatlab.app.model.finding_families`) of
    #: each segment's own findings, and of each key's, ``""`` for none: what colour they take.
    families: np.ndarray = None
    key_families: np.ndarray = None

    def __len__(self) -> int:
        return len(self.t0)

    def severity(self, i: int) -> str | None:
        return str(self.levels[i]) or None

    def flag_text(self, i: int) -> str:
        """Human flags of segment ``i``, e.g. ``"sign flip; non unit q3"``."""
        own = [kind_name(f.kind) for f in self.findings[i] if not is_key_mark(f.kind, f.keys)]
        keys = [f"{kind_name(f.kind)} q{f.keys[0]}" for f in self.findings[i]
                if is_key_mark(f.kind, f.keys)]
        return "; ".join(own + keys)


def _segments(track: Track, findings) -> Segments:
    n = len(track)
    count = max(n - 1, 0)
    audit = A.audit_keys(track.values)
    valid = audit.valid[:-1] & audit.valid[1:] if n else np.zeros(0, dtype=bool)
    naive = np.full(count, np.nan)
    short = np.full(count, np.nan)
    if valid.any():
        # Only segments between rotating keys: as_quaternion (inside both angle
        # functions) rightly refuses zero and NaN keys. Normalizing first also
        # keeps path_angle's norm from overflowing on keys like 1e200.
        a = as_quaternion(track.values[:-1][valid], "q_i")
        b = as_quaternion(track.values[1:][valid], "q_i+1")
        naive[valid] = np.degrees(path_angle(a, b))
        short[valid] = np.degrees(angle_between(a, b))
    per_segment: list[list] = [[] for _ in range(count)]
    key_flagged = np.zeros(n, dtype=bool)
    key_kinds: dict[int, list[str]] = {}
    for f in findings:
        if not 0 <= f.keys[0] < max(n, 1):
            continue
        if not is_key_mark(f.kind, f.keys):
            # A segment's (also a BVH Euler wrap or triple switch between two frames,
            # and the first segment of a "more" range).
            if count:
                per_segment[min(f.keys[0], count - 1)].append(f)
        else:
            k = f.keys[0]
            key_flagged[k] = True
            key_kinds.setdefault(k, []).append(f.kind)
            # A key finding concerns both segments that use the key.
            for s in (k - 1, k):
                if 0 <= s < count:
                    per_segment[s].append(f)
    levels = np.full(count, "", dtype=object)
    families = np.full(count, "", dtype=object)
    for i, fs in enumerate(per_segment):
        if fs:
            # The segment's own findings first, then its keys', as flag_text lists them.
            fs.sort(key=lambda f: (is_key_mark(f.kind, f.keys), f.keys))
            levels[i] = severity(f.kind for f in fs) or ""
            families[i] = primary(f.kind for f in fs if not is_key_mark(f.kind, f.keys)) or ""
    key_families = np.full(n, "", dtype=object)
    for k, kinds in key_kinds.items():
        key_families[k] = primary(kinds)
    return Segments(
        t0=track.times[:-1].copy(),
        t1=track.times[1:].copy(),
        dot=np.asarray(audit.dots, dtype=float).copy(),
        naive_deg=naive,
        shortest_deg=short,
        flags=tuple(tuple(f.kind for f in fs) for fs in per_segment),
        findings=tuple(tuple(fs) for fs in per_segment),
        key_flagged=key_flagged,
        levels=levels.astype(str) if count else np.zeros(0, dtype=str),
        families=families.astype(str) if count else np.zeros(0, dtype=str),
        key_families=key_families.astype(str) if n else np.zeros(0, dtype=str),
    )


def _audit(file: KeyframeFile | None, index: int, track: Track) -> tuple:
    """The findings of ``track`` (the ``index``-th of ``file``, as it is now)."""
    # A file with findings of its own beyond the quaternion audit (a BVH
    # file's Euler channels) audits its tracks itself.
    own = getattr(file, "audit_track", None)
    return tuple(own(index, track) if own else audit_track(track))


def _read_audited(read, path, order) -> tuple[KeyframeFile, list[tuple], Segments | None,
                                              DopeSheet]:
    """``read(path, order=order)``, every track's findings, and the first shown one's segments.

    All a freshly opened file needs before the tab can show it: made in one
    call so that a worker thread can make it (:meth:`KeyframesModel.load`).
    """
    keyframes = read(path, order=order)
    findings = [_audit(keyframes, i, t) for i, t in enumerate(keyframes.tracks)]
    shown = _first_shown(findings)
    first = _segments(keyframes.tracks[shown], findings[shown]) if shown is not None else None
    sheet = DopeSheet(keyframes.tracks, findings, node_parents(keyframes))
    return keyframes, findings, first, sheet


def _first_shown(findings) -> int | None:
    """The track a freshly opened file starts on: the first with something to see."""
    return next((i for i, f in enumerate(findings) if f), 0 if len(findings) else None)


class KeyframesModel:
    """The Keyframes tab's state; see the module docstring.

    Parameters
    ----------
    lesson : LessonState, optional
        The two-key lesson that :meth:`select_segment` loads the keys into.
    """

    def __init__(self, lesson: LessonState | None = None) -> None:
        self.events = Events()
        self.lesson = lesson
        self.file: KeyframeFile | None = None
        self._tracks: tuple[Track, ...] = ()
        self._history: History[tuple[Track, ...]] = History()
        # Audits and segment tables per Track object (tracks are immutable and
        # compare by identity), so undo and redo never recompute them.
        self._findings: dict[Track, tuple] = {}
        self._segments: dict[Track, Segments] = {}
        self._sheet: tuple | None = None  # (the tracks it shows, the dope sheet)
        self.selected_track: int | None = None
        self.selected_segment: int | None = None
        #: The selected segment waits to be shown in the lesson (select_segment(lesson=False)).
        self.lesson_pending = False
        self.message = Message(_("Open a glTF, GLB, BVH, FBX, CSV or JSON keyframe file to audit "
                                 "its rotation tracks."))

    # ------------------------------------------------------------------ loading
    def load(self, path, order: str | None = None, *, read=load_keyframes,
             run=None) -> KeyframeFile:
        """Load a keyframe file (see :func:`~quatlab.app.io.tracks.load_keyframes`).

        Raises :class:`KeyframeFileError` (or OSError) and keeps the file
        shown so far, with an error :attr:`message` saying so. ``read`` is
        called as ``read(path, order=order)``. ``run(fn, *args)``, when
        given, makes the slow part, reading and auditing every track, on a
        worker thread (the window passes one); its result installs here.
        """
        work = run if run is not None else (lambda fn, *args: fn(*args))
        try:
            keyframes, findings, first, sheet = work(_read_audited, read, path, order)
        except (KeyframeFileError, OSError) as exc:
            text = (_("Not opened: {error}. Still showing {file}.") if self.file
                    else _("Not opened: {error}."))
            self._say(text.format(error=exc, file=self.file.path.name if self.file else ""),
                      error=True)
            raise
        self.file = keyframes
        self._install(keyframes.tracks, findings, first, sheet)
        text = _("Opened {file}: {summary}").format(file=keyframes.path.name,
                                                   summary=self.summary())
        for note in keyframes.notes:  # what the reader did not refuse the file for
            text += " " + _("Note: {note}.").format(note=_(note))
        self._say(text)
        return keyframes

    def set_tracks(self, tracks) -> None:
        """Show ``tracks`` without a file (scripts and tests); export needs a file."""
        self.file = None
        self._install(tuple(tracks))
        self._say(self.summary())

    def _install(self, tracks, findings=None, first: Segments | None = None,
                 sheet: DopeSheet | None = None) -> None:
        self._tracks = tuple(tracks)
        self._sheet = (self._tracks, sheet) if sheet is not None else None
        self._history.clear()
        self._findings.clear()
        self._segments.clear()
        if findings is not None:  # audited with the file (see _read_audited)
            self._findings.update(zip(self._tracks, findings, strict=True))
        self.selected_track = _first_shown([self.findings(i) for i in range(len(self._tracks))])
        if first is not None:
            self._segments[self._tracks[self.selected_track]] = first
        self.selected_segment = None
        self.events.emit("file")

    # ------------------------------------------------------------------ queries
    @property
    def tracks(self) -> tuple[Track, ...]:
        """The current tracks: the file's, with any sign fixes applied."""
        return self._tracks

    @property
    def modified(self) -> bool:
        """True when the current tracks differ from the loaded ones (fixes not undone)."""
        return self.file is not None and any(
            a is not b for a, b in zip(self._tracks, self.file.tracks, strict=True))

    def findings(self, track: int) -> tuple:
        t = self._tracks[track]
        if t not in self._findings:
            self._findings[t] = _audit(self.file, track, t)
        return self._findings[t]

    def segments(self, track: int) -> Segments:
        t = self._tracks[track]
        if t not in self._segments:
            self._segments[t] = _segments(t, self.findings(track))
        return self._segments[t]

    def dope_sheet(self) -> DopeSheet | None:
        """The :class:`~quatlab.app.model.dope_sheet.DopeSheet` of the current tracks (None: no
        tracks); made with the file on the loading thread, else when first asked for."""
        if not self._tracks:
            return None
        if self._sheet is None or self._sheet[0] != self._tracks:
            findings = [self.findings(i) for i in range(len(self._tracks))]
            self._sheet = (self._tracks, DopeSheet(self._tracks, findings,
                                                   node_parents(self.file)))
        return self._sheet[1]

    def summary(self) -> str:
        """One line: how many tracks, how many with findings, findings by kind."""
        n = len(self._tracks)
        if not n:
            return _("no rotation tracks")
        kinds = [f.kind for i in range(n) for f in self.findings(i)]
        flagged = sum(1 for i in range(n) if self.findings(i))
        head = (_("{n} rotation track") if n == 1 else _("{n} rotation tracks")).format(n=n)
        if not kinds:
            return _("{tracks}, no findings").format(tracks=head)
        return _("{tracks}, {flagged} with findings ({kinds})").format(
            tracks=head, flagged=flagged, kinds=describe_kinds(kinds))

    # ------------------------------------------------------------------ selection
    def select_track(self, index: int | None) -> None:
        if index is not None and not 0 <= index < len(self._tracks):
            raise IndexError(f"track {index} out of range (0..{len(self._tracks) - 1})")
        if index != self.selected_track:
            self.selected_track = index
            self.selected_segment = None
            self.lesson_pending = False
            self.events.emit("selection")

    def segment_keys(self, segment: int, track: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Keys ``segment`` and ``segment + 1`` of a track (default: the selected), (w, x, y, z)."""
        t = self._tracks[self.selected_track if track is None else track]
        if not 0 <= segment < len(t) - 1:
            raise IndexError(f"segment {segment} out of range (0..{len(t) - 2})")
        return t.values[segment].copy(), t.values[segment + 1].copy()

    def select_segment(self, index: int | None, *, lesson: bool = True) -> bool:
        """Select a segment of the selected track and show its keys in the lesson.

        The lesson gets ``q0, q1 = key i, key i + 1`` as stored (sign
        included: that is the point) and ``t = TROUBLE_T``. Returns True when
        the lesson shows the segment; False (with an error message, the
        selection kept) when a key has no rotation, or when there is no lesson.
        With ``lesson=False`` only the selection changes, and the lesson waits
        (:attr:`lesson_pending`) until :meth:`show_in_lesson` (walking the
        findings with N does not redraw a lesson nobody is looking at).
        """
        if self.selected_track is None:
            return False
        if index is not None:
            self.segment_keys(index)  # range check before anything changes
        if index != self.selected_segment:
            self.selected_segment = index
            self.events.emit("selection")
        self.lesson_pending = not lesson and index is not None and self.lesson is not None
        if not lesson:
            self._say(self._segment_message(index, shown=False) if index is not None
                      else self.summary())
            return False
        return self.show_in_lesson()

    def show_in_lesson(self) -> bool:
        """Load the selected segment's keys into the lesson (see :meth:`select_segment`)."""
        self.lesson_pending = False
        index = self.selected_segment
        if self.selected_track is None or index is None or self.lesson is None:
            return False
        q0, q1 = self.segment_keys(index)
        lesson = self.lesson
        # A repeated click on the same segment must not stack identical
        # entries on the lesson's undo history.
        if not (np.array_equal(lesson.entered(0), q0) and np.array_equal(lesson.entered(1), q1)):
            try:
                lesson.set_endpoints(q0, q1)
            except ValueError as exc:
                self._say(_("Segment {i}→{j} cannot be shown in the lesson: {error}.").format(
                    i=index, j=index + 1, error=exc), error=True)
                return False
        lesson.set_t(TROUBLE_T)
        self._say(self._segment_message(index))
        return True

    def _segment_message(self, i: int, *, shown: bool = True) -> str:
        track = self._tracks[self.selected_track]
        seg = self.segments(self.selected_track)
        if not shown:
            return _("Segment {i}→{j} of {track} (dot {dot:.4g}); the two-key lesson shows it "
                     "when you open it.").format(i=i, j=i + 1, track=track.label, dot=seg.dot[i])
        text = _("Segment {i}→{j} of {track} is in the lesson: q0 = key {i}, q1 = key {j} as "
                 "stored (dot {dot:.4g}), t = {t}.").format(
            i=i, j=i + 1, track=track.label, dot=seg.dot[i], t=TROUBLE_T)
        if track.interpolation != "LINEAR":
            # The lesson blends with NLERP and SLERP only.
            text = sentences(text, _("This track is {interpolation}: the lesson shows how a "
                                     "runtime blending the two keys would turn, not the file's "
                                     "own interpolation.").format(
                interpolation=track.interpolation))
        return text

    # ------------------------------------------------------------------ fixing
    def fix_signs(self, track: int | None = None) -> int:
        """Make key signs continuous in one track (``track``) or in all (None); one undo step.

        Returns the number of keys negated (0: nothing to do, no undo step).
        """
        indices = range(len(self._tracks)) if track is None else [track]
        new = list(self._tracks)
        negated = 0
        changed: list[str] = []
        for i in indices:
            fix = fix_track(self._tracks[i])
            count = int(np.count_nonzero(fix.flipped_mask))
            if count:
                new[i] = fix.fixed
                negated += count
                changed.append(_("{track}: negated key {keys}").format(
                    track=fix.fixed.label, keys=format_keys(fix.flipped_mask)))
        scope = _("all tracks") if track is None else self._tracks[track].label
        if not negated:
            self._say(_("Signs already continuous in {scope}: nothing to fix.").format(scope=scope))
            return 0
        what = _("fix signs of {scope}").format(scope=scope)
        self._history.record(self._tracks, what)
        self._set_current(tuple(new))
        # The lesson keeps the keys it was given; say how to see the fixed ones.
        text = _("Fixed signs ({changes}); the rotations are unchanged. Export fixed… "
                 "writes the copy.").format(changes="; ".join(changed))
        if self.selected_segment is not None:
            text = sentences(text, _("Select the segment again to see the fixed keys in the "
                                     "lesson."))
        self._say(text)
        return negated

    def _set_current(self, tracks: tuple[Track, ...]) -> None:
        self._tracks = tracks
        self.events.emit("tracks")

    @property
    def can_undo(self) -> bool:
        return self._history.can_undo

    @property
    def can_redo(self) -> bool:
        return self._history.can_redo

    @property
    def undo_text(self) -> str | None:
        return self._history.undo_label

    @property
    def redo_text(self) -> str | None:
        return self._history.redo_label

    def undo(self) -> None:
        what = self._history.undo_label
        previous = self._history.undo(self._tracks)
        if previous is not None:
            self._set_current(previous)
            self._say(_("Undid: {action}.").format(action=what))

    def redo(self) -> None:
        what = self._history.redo_label
        following = self._history.redo(self._tracks)
        if following is not None:
            self._set_current(following)
            self._say(_("Redid: {action}.").format(action=what))

    # ------------------------------------------------------------------ export
    def default_export_path(self) -> Path | None:
        """``NAME.fixed.EXT`` beside the input, a name that is never the input's."""
        if self.file is None:
            return None
        p = self.file.path
        return p.with_name(f"{p.stem}.fixed{p.suffix}")

    def existing_outputs(self, out) -> list[Path]:
        """The files an :meth:`export` to ``out`` would replace (ask before passing ``force``)."""
        if self.file is None:
            return []
        return self.file.existing_outputs(out, self._tracks)

    def export(self, out, *, force: bool = False) -> list[Path]:
        """Write the current tracks to ``out`` (:meth:`KeyframeFile.write_copy`).

        ``out`` must have the input's extension and is never the input (also
        not through a link); the copy and its companion files are written
        atomically and together. Existing files are replaced only with
        ``force`` (see :meth:`existing_outputs`). Raises KeyframeFileError
        (and sets an error message).
        """
        if self.file is None:
            raise KeyframeFileError(out, _("no keyframe file is open"))
        try:
            written = self.file.write_copy(out, self._tracks, force=force)
        except KeyframeFileError as exc:
            self._say(_("Not exported: {error}.").format(error=exc), error=True)
            raise
        names = ", ".join(str(p) for p in written)
        left = sum(len(self.findings(i)) for i in range(len(self._tracks)))
        text = (_("Exported with sign fixes to {files}.") if self.modified
                else _("Exported unchanged (nothing was fixed) to {files}."))
        text = text.format(files=names)
        if left:
            text = sentences(text, (_("{n} finding remains.") if left == 1
                                    else _("{n} findings remain.")).format(n=left))
        self._say(text)
        return written

    # ------------------------------------------------------------------ messages
    def say(self, text: str) -> None:
        """Put ``text`` on the status line (a view's news: "back to the first finding")."""
        self._say(text)

    def _say(self, text: str, *, error: bool = False) -> None:
        self.message = Message(text, error)
        self.events.emit("message")
