"""A source animation against its conversion: which joints part, when, which step flipped.

:func:`compare_files` reads two keyframe files with a rig (FBX, glTF, BVH, USD),
matches their joints by name (or a mapping), aligns the two clips at their
starts over the time both cover, samples every matched joint's local
rotation at the faster frame rate (and at every key), and reports per joint
(docs/formats.md, "quatlab compare"):

* the largest angle between the two files' **spec** poses over time, and
  whether it is a constant offset (a different rest orientation or axis
  convention: the smallest angle is as large as the largest);
* the **segments** where the converted file's **naive** playback (its keys
  blended as stored) departs from the source's spec pose by more than
  ``threshold`` degrees beyond that offset, each with its cause, found by
  asking the other players the same question:

  ``source``       the source's own naive playback departs the same way
                   (the converted naive pose stays within the threshold of
                   it): the flip was born before this conversion;
  ``conversion``   the converted spec pose follows the source, only its
                   naive playback departs: the conversion stored keys in
                   opposite hemispheres (a sign flip it introduced);
  ``motion``       the converted spec pose departs too: the conversion
                   changed the motion (a long turn taken the short way, a
                   resampling, a cut clip).

An FBX source's key segments that turn more than 180 deg
(:func:`quatlab.app.io.fbx.export.long_turns`) are listed with how they are
treated: an **intended turn** (a keyframed spin, keys more than a frame and a
half apart), which a conversion must keep by inserting keys (a departure
inside one is flagged ``in_intended_turn``: the conversion lost the turn),
or a **per-frame wrap** (keys a frame apart), where the short way is right.
The source is compared by its spec pose, which turns the way the curve does. No Qt.

Examples
--------
>>> from pathlib import Path
>>> truck = Path(__file__).resolve().parents[2] / "tests" / "data" / "gltf" / "CesiumMilkTruck.glb"
>>> report = compare_files(truck, truck)      # a file against itself: nothing introduced
>>> max(j.max_spec for j in report.joints), report.introduced
(0.0, 0)
>>> sorted((j.source, s.converted_keys, s.cause) for j in report.joints for s in j.segments)
[('Wheels', (14, 15), 'source'), ('Wheels.001', (14, 15), 'source')]
"""

from __future__ import annotations

import csv
import dataclasses
import io
import re

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.io.gltf.scene import Channel
from quatlab.app.io.keyframe_files import load_keyframes
from quatlab.app.io.tracks import KeyframeFileError
from quatlab.app.model.rig import RIG_FORMATS, rig_of
from quatlab.app.model.rig_players import sample_channel
from quatlab.math.quaternion import angle_between

__all__ = ["compare_files", "compare_rigs", "CompareReport", "JointReport", "Departure",
           "TurnNote", "read_mapping", "format_report", "THRESHOLD_DEG", "CAUSES"]

#: A departure's causes (module docs), as ``--json`` writes them.
CAUSES = ("source", "conversion", "motion")
#: Degrees beyond a joint's constant offset at which a player "departs" from the source.
THRESHOLD_DEG = 5.0
#: Samples per frame of the faster clip (a departure inside one frame is still seen).
OVERSAMPLE = 4
#: Largest number of samples per clip (a very long clip is sampled more coarsely).
MAX_SAMPLES = 20000


@dataclasses.dataclass(frozen=True)
class Departure:
    """A time span (source seconds) where the converted naive playback departs from the source."""

    start: float
    end: float
    peak: float                          # degrees beyond the joint's offset
    cause: str                           # "source", "conversion" or "motion"
    converted_keys: tuple[int, int] | None
    intended_turn: bool = False          # inside one of the source's intended turns

    def as_dict(self) -> dict:
        return {"start": self.start, "end": self.end, "peak_deg": self.peak, "cause": self.cause,
                "converted_keys": list(self.converted_keys) if self.converted_keys else None,
                "in_intended_turn": self.intended_turn}


@dataclasses.dataclass(frozen=True)
class JointReport:
    """One matched joint: names, the spec angles over time and the departures."""

    source: str
    converted: str
    max_spec: float                      # largest angle between the spec poses, degrees
    at: float                            # source time of it
    offset: float                        # smallest angle between the spec poses over time
    segments: tuple[Departure, ...]

    @property
    def constant_offset(self) -> bool:
        return self.offset > 1.0 and self.max_spec - self.offset < 1.0

    def as_dict(self) -> dict:
        return {"source": self.source, "converted": self.converted, "max_spec_deg": self.max_spec,
                "at": self.at, "offset_deg": self.offset,
                "constant_offset": self.constant_offset,
                "segments": [s.as_dict() for s in self.segments]}


@dataclasses.dataclass(frozen=True)
class TurnNote:
    """A long turn of the source: an intended turn (keys inserted) or a per-frame wrap."""

    joint: str
    keys: tuple[int, int]
    start: float
    end: float
    turn: float
    frames: float
    intended: bool

    def as_dict(self) -> dict:
        return {"joint": self.joint, "keys": list(self.keys), "start": self.start,
                "end": self.end, "turn_deg": self.turn, "frames": self.frames,
                "treated_as": "intended_turn" if self.intended else "per_frame_wrap"}


@dataclasses.dataclass(frozen=True)
class CompareReport:
    """Everything :func:`compare_files` found (see the module docs)."""

    source: str
    converted: str
    source_clip: dict
    converted_clip: dict
    overlap: float                       # seconds both clips cover, from their starts
    rate: float                          # samples per second
    threshold: float
    joints: tuple[JointReport, ...]
    unmatched_source: tuple[str, ...]
    unmatched_converted: tuple[str, ...]
    turns: tuple[TurnNote, ...]

    @property
    def introduced(self) -> int:
        """Departures the conversion introduced (causes ``conversion`` and ``motion``)."""
        return sum(s.cause != "source" for j in self.joints for s in j.segments)

    def as_dict(self) -> dict:
        """What ``quatlab compare --json`` prints (its schema: docs/report.md)."""
        from quatlab.app.io.reports.schema import COMPARE, schema_id  # noqa: PLC0415

        return {"schema": schema_id(COMPARE), "source": self.source, "converted": self.converted,
                "introduced": self.introduced,
                "source_clip": self.source_clip, "converted_clip": self.converted_clip,
                "overlap": self.overlap, "rate": self.rate, "threshold_deg": self.threshold,
                "joints": [j.as_dict() for j in self.joints],
                "unmatched_source": list(self.unmatched_source),
                "unmatched_converted": list(self.unmatched_converted),
                "long_turns": [t.as_dict() for t in self.turns]}


def _normalized(name: str | None) -> str:
    """A joint name without namespaces (``mixamorig:``, ``Armature|``), case or punctuation."""
    base = re.split(r"[:|]", name or "")[-1]
    return re.sub(r"[^0-9a-z]", "", base.lower())


def read_mapping(path) -> dict[str, str]:
    """A joint mapping CSV: lines ``source,converted`` (a header line naming them is skipped)."""
    from quatlab.app.io.safe_read import FileRefused, read_text  # noqa: PLC0415

    try:
        text = read_text(path, limit=16 << 20)
    except FileRefused as exc:
        raise KeyframeFileError(path, exc.problem) from None
    out: dict[str, str] = {}
    for i, row in enumerate(csv.reader(io.StringIO(text))):
        row = [c.strip() for c in row]
        if not row or not any(row) or row[0].startswith("#"):
            continue
        if len(row) != 2:
            raise KeyframeFileError(path, _("line {line}: expected two names, source and "
                                            "converted, got {n} fields").format(
                line=i + 1, n=len(row)))
        if i == 0 and row[0].lower() == "source" and row[1].lower() == "converted":
            continue
        out[row[0]] = row[1]
    return out


def _match(names_s, names_c, animated_s, animated_c, mapping: dict | None):
    """Pairs ``(source rig node, converted rig node)``, and the animated names left over.

    A joint animated in one file only is matched too, against the other file's
    node of that name at rest (a conversion may key every joint of a skeleton,
    UsdSkel always does, where the source keyed a few): the report then says
    whether the conversion kept that joint's pose. Animated nodes are matched
    first, so a name held by two nodes goes to the animated one.
    """
    animated_s, animated_c = set(animated_s), set(animated_c)

    def order(names, animated):
        return sorted(animated) + [i for i, n in enumerate(names) if n and i not in animated]

    by_name: dict[str, int] = {}
    by_norm: dict[str, int] = {}
    for i in order(names_c, animated_c):
        by_name.setdefault(names_c[i], i)
        by_norm.setdefault(_normalized(names_c[i]), i)
    pairs, used = [], set()
    for i in order(names_s, animated_s):
        name = names_s[i]
        j = None
        if mapping and name in mapping:
            j = by_name.get(mapping[name])
        elif name in by_name:
            j = by_name[name]
        elif _normalized(name) in by_norm:
            j = by_norm[_normalized(name)]
        if j is not None and j not in used and (i in animated_s or j in animated_c):
            pairs.append((int(i), int(j)))
            used.add(j)
    matched_s = {i for i, _j in pairs}
    left_s = tuple(str(names_s[i]) for i in sorted(animated_s) if i not in matched_s)
    left_c = tuple(str(names_c[j]) for j in sorted(animated_c) if j not in used)
    return pairs, left_s, left_c


def _rotations(rig, anim, times, player: str) -> np.ndarray:
    """Local rotations ``(T, N, 4)`` of every rig node at ``times`` for ``player``.

    Nodes a rotation channel animates are sampled (vectorized over times);
    the others keep their rest rotation.
    """
    out = np.broadcast_to(rig.rest_rotation, (len(times),) + rig.rest_rotation.shape).copy()
    for ch in anim.channels:
        if ch.path == "rotation":
            out[:, int(rig.rig_index[ch.node])] = sample_channel(ch, times, player)
    return out


def _channels_by_node(rig, anim) -> dict[int, Channel]:
    return {int(rig.rig_index[c.node]): c for c in anim.channels if c.path == "rotation"}


def _runs(mask: np.ndarray):
    edges = np.diff(np.concatenate([[0], mask.astype(np.int8), [0]]))
    return list(zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) - 1, strict=True))


def _clip_dict(anim) -> dict:
    return {"index": anim.index, "name": anim.name, "start": float(anim.start),
            "end": float(anim.end)}


def _fps(anim) -> float:
    from quatlab.app.model.rig_playback import sampling_rate  # noqa: PLC0415

    return float(sampling_rate(anim))


def _long_turns(kf, stack: int) -> list[TurnNote]:
    """An FBX source's key segments turning more than 180 deg, classified (module docs)."""
    from quatlab.app.io.fbx.export import long_turns  # noqa: PLC0415

    return [TurnNote(t.node, t.keys, t.start, t.end, t.turn, t.frames, t.intended)
            for t in long_turns(kf, stack)]


def compare_files(source, converted, *, mapping=None, source_animation=None,
                  converted_animation=None, threshold: float = THRESHOLD_DEG) -> CompareReport:
    """Compare two files (module docs). ``mapping``: a dict or the path of a mapping CSV."""
    kf_s = load_keyframes(source)
    kf_c = load_keyframes(converted)
    if mapping is not None and not isinstance(mapping, dict):
        mapping = read_mapping(mapping)
    return compare_rigs(kf_s, kf_c, mapping=mapping, source_animation=source_animation,
                        converted_animation=converted_animation, threshold=threshold)


def _rig(kf):
    if getattr(kf, "format", None) not in RIG_FORMATS:
        raise KeyframeFileError(kf.path, _("has no rig (a scene graph with animations) to "
                                           "compare: give an FBX, glTF, BVH or USD file"))
    try:
        return rig_of(kf)
    except (KeyframeFileError, ValueError) as exc:
        raise KeyframeFileError(kf.path, _("has no rig to compare ({error})").format(
            error=exc)) from None


def compare_rigs(kf_s, kf_c, *, mapping=None, source_animation=None, converted_animation=None,
                 threshold: float = THRESHOLD_DEG) -> CompareReport:
    """Compare the rigs of two loaded keyframe files (see :func:`compare_files`)."""
    rig_s, rig_c = _rig(kf_s), _rig(kf_c)
    for kf, rig in ((kf_s, rig_s), (kf_c, rig_c)):
        if not rig.animations:
            raise KeyframeFileError(kf.path, _("has no animation to compare"))
    anim_s = rig_s.animation(0 if source_animation is None else source_animation)
    anim_c = rig_c.animation(0 if converted_animation is None else converted_animation)
    by_s, by_c = _channels_by_node(rig_s, anim_s), _channels_by_node(rig_c, anim_c)
    pairs, left_s, left_c = _match(rig_s.names, rig_c.names, by_s, by_c, mapping)
    if not pairs and by_s and by_c:
        raise KeyframeFileError(kf_c.path, _("no animated joint of {source} has a joint of the "
                                             "same name here; give a mapping (--map "
                                             "joints.csv)").format(source=kf_s.path))
    overlap = max(0.0, min(anim_s.end - anim_s.start, anim_c.end - anim_c.start))
    rate = OVERSAMPLE * max(_fps(anim_s), _fps(anim_c), 30.0)
    n = int(min(MAX_SAMPLES, np.floor(overlap * rate + 1e-6) + 1))
    rel = np.linspace(0.0, overlap, max(n, 2))
    # Every key, and every key segment's midpoint: a naive blend across a sign flip between
    # close keys departs most there, in a flash narrower than a frame.
    keys = []
    for chans, start in ((by_s.values(), anim_s.start), (by_c.values(), anim_c.start)):
        for ch in chans:
            t = np.asarray(ch.times, dtype=np.float64) - start
            keys += [t, 0.5 * (t[1:] + t[:-1])]
    rel = np.union1d(rel, np.concatenate(keys + [rel]))
    rel = rel[(rel >= 0) & (rel <= overlap)]
    t_s, t_c = anim_s.start + rel, anim_c.start + rel
    fbx_source = getattr(kf_s, "format", None) == "fbx"
    turns = _long_turns(kf_s, getattr(anim_s, "stack", anim_s.index)) if fbx_source else []
    spec_s = _rotations(rig_s, anim_s, t_s, "spec")
    naive_s = _rotations(rig_s, anim_s, t_s, "naive")
    spec_c = _rotations(rig_c, anim_c, t_c, "spec")
    naive_c = _rotations(rig_c, anim_c, t_c, "naive")
    joints = []
    for i, j in pairs:
        spec = np.degrees(angle_between(spec_s[:, i], spec_c[:, j]))
        offset = float(spec.min())
        far_c = np.degrees(angle_between(spec_s[:, i], naive_c[:, j])) - offset
        far_spec = spec - offset
        # How far the converted naive pose is from the source's own naive pose.
        inherited = np.degrees(angle_between(naive_s[:, i], naive_c[:, j])) - offset
        segments = []
        for a, b in _runs(far_c > threshold):
            a, b = int(a), int(b)
            span = slice(a, b + 1)
            if inherited[span].max() <= threshold:
                cause = "source"
            elif far_spec[span].max() > threshold:
                cause = "motion"
            else:
                cause = "conversion"
            ch = by_c.get(j)
            keys = None                          # the converted joint is not animated
            if ch is not None:
                k = np.searchsorted(ch.times, [t_c[a], t_c[b]], side="right") - 1
                keys = (int(np.clip(k[0], 0, len(ch.times) - 1)),
                        int(np.clip(k[1] + 1, 0, len(ch.times) - 1)))
            start, end = float(t_s[a]), float(t_s[b])
            intended = any(t.joint == rig_s.names[i] and t.intended and t.start < end
                           and t.end > start for t in turns)
            segments.append(Departure(start, end, float(far_c[span].max()), cause, keys,
                                      intended))
        at = int(np.argmax(spec))
        joints.append(JointReport(str(rig_s.names[i]), str(rig_c.names[j]), float(spec.max()),
                                  float(t_s[at]), offset, tuple(segments)))
    return CompareReport(str(kf_s.path), str(kf_c.path), _clip_dict(anim_s), _clip_dict(anim_c),
                         float(overlap), float(rate), float(threshold), tuple(joints), left_s,
                         left_c, tuple(turns))


_CAUSES = {
    "source": lambda: _("already in the source: its own naive playback departs the same way"),
    "conversion": lambda: _("a sign flip introduced by the conversion: the converted keys are "
                            "in opposite hemispheres while its spec pose follows the source"),
    "motion": lambda: _("the conversion changed the motion: its spec pose departs too"),
}


def _clip(clip: dict) -> str:
    name = repr(clip["name"]) if clip["name"] else f"#{clip['index']}"
    return _("clip {name} [{start:g}, {end:g}] s").format(name=name, start=clip["start"],
                                                          end=clip["end"])


def format_report(report: CompareReport) -> str:
    """The report as text, one line per finding: what ``quatlab compare`` prints and File >
    Compare with... shows."""
    lines = [_("{source} ({source_clip}) vs {converted} ({converted_clip}): {n} joints "
               "matched, compared over {overlap:g} s from both starts, {rate:g} samples per "
               "second").format(
        source=report.source, source_clip=_clip(report.source_clip),
        converted=report.converted, converted_clip=_clip(report.converted_clip),
        n=len(report.joints), overlap=report.overlap, rate=report.rate)]
    s_len = report.source_clip["end"] - report.source_clip["start"]
    c_len = report.converted_clip["end"] - report.converted_clip["start"]
    if abs(s_len - c_len) > 1e-3:
        lines.append("  " + _("the clips differ in length ({a:g} s and {b:g} s): only the "
                              "first {overlap:g} s are compared").format(
            a=s_len, b=c_len, overlap=report.overlap))
    for names, where in ((report.unmatched_source, report.source),
                         (report.unmatched_converted, report.converted)):
        if names:
            lines.append("  " + _("animated joints of {file} without a match: {names}").format(
                file=where, names=", ".join(names[:20]) + (" ..." if len(names) > 20
                                                                   else "")))
    counts = dict.fromkeys(CAUSES, 0)
    for j in report.joints:
        if not j.segments and j.max_spec <= report.threshold and not j.constant_offset:
            continue
        head = f"{j.source}" if j.source == j.converted else f"{j.source} -> {j.converted}"
        if j.constant_offset:
            spec = _("spec poses differ by a constant {deg:.1f} deg (a different rest "
                     "orientation or axis convention, not a flip)").format(deg=j.offset)
        else:
            spec = _("spec poses differ by up to {deg:.1f} deg (at {at:.4g} s)").format(
                deg=j.max_spec, at=j.at)
        lines.append("  " + _("{joint}: {spec}").format(joint=head, spec=spec))
        for s in j.segments:
            counts[s.cause] += 1
            keys = (_("converted keys {k0}-{k1}").format(k0=s.converted_keys[0],
                                                         k1=s.converted_keys[1])
                    if s.converted_keys else _("no converted keys"))
            text = _("{t0:.4g}-{t1:.4g} s ({keys}): the naive playback departs by up to "
                     "{deg:.1f} deg: {cause}").format(t0=s.start, t1=s.end, keys=keys,
                                                      deg=s.peak, cause=_CAUSES[s.cause]())
            if s.intended_turn and s.cause != "source":
                text += _("; inside an intended turn of the source, which the conversion "
                          "did not keep")
            lines.append("    " + text)
    if report.turns:
        lines.append(_("long turns of the source (over 180 deg between two keys):"))
        for t in report.turns:
            why = (_("an intended turn (keys {frames:.1f} frames apart): a quaternion "
                     "conversion must insert keys to keep it") if t.intended else
                   _("a per-frame wrap (keys {frames:.1f} frames apart): the short way is "
                     "right"))
            lines.append("  " + _("{joint} keys {k0}-{k1} ({t0:.4g}-{t1:.4g} s), {turn:.1f} deg: "
                                  "{why}").format(
                joint=t.joint, k0=t.keys[0], k1=t.keys[1], t0=t.start, t1=t.end, turn=t.turn,
                why=why.format(frames=t.frames)))
    total = sum(counts.values())
    if report.introduced:
        lines.append(_("{n} departures: {conversion} introduced by the conversion (sign), "
                       "{motion} by its motion, {source} already in the source").format(
            n=total, **counts))
    else:
        lines.append(_("the conversion introduced no departure: its naive playback follows the "
                       "source's within {deg:g} deg ({source} already in the source)").format(
            deg=report.threshold, source=counts["source"]))
    return "\n".join(lines)

