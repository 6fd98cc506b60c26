"""Playing a rig's animation as two players at once: time, animation, selection, fixed keys. No Qt.

:class:`RigPlayback` is the state behind the Keyframes tab's 3D view: the
loaded :class:`~quatlab.app.model.rig.Rig`, the chosen animation, the time in
seconds (frames at the file's sampling rate), which players are shown
("both", "spec", "naive") and the selected node. :meth:`RigPlayback.frame`
gives a :class:`RigFrame`, the snapshot the view draws: both players' poses
(:mod:`quatlab.app.model.rig_players`), skinned meshes and bones
(:mod:`quatlab.app.model.skinning`) and the joints where the players part.

The rotation keys come from the Keyframes tab's current tracks
(:meth:`RigPlayback.use_tracks`): after "Fix signs" the rig plays the fixed
keys, so the naive runtime's pose coincides with the spec's and the fix
shows in 3D. Events: ``"rig"`` (another file), ``"animation"``, ``"time"``,
``"players"``, ``"selection"``, ``"keys"`` (the keys played changed),
``"bounds"`` (the box the whole animation sweeps became known:
:meth:`RigPlayback.set_swept`).

Examples
--------
>>> import numpy as np
>>> from quatlab.app.io.gltf.scene import Animation, Channel
>>> from quatlab.app.model.rig import Rig
>>> c = np.sqrt(0.5)
>>> keys = np.array([[1, 0, 0, 0], [-c, 0, 0, -c]])     # 90 deg about Z, stored as -q
>>> turn = Channel(0, "rotation", "LINEAR", np.array([0.0, 1.0]), keys, None, None, 0, 1)
>>> import dataclasses
>>> rig = dataclasses.replace(Rig.chain(2), animations=(Animation(0, "turn", (turn,), 0, 1),))
>>> play = RigPlayback()
>>> play.set_rig(rig)
>>> play.set_time(0.5)
>>> frame = play.frame()
>>> frame.flagged.tolist(), round(float(frame.local_difference[0]), 1)
([0], 180.0)
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from quatlab.app.io.gltf.scene import Animation
from quatlab.app.model.rig import Rig
from quatlab.app.model.rig_players import Pose, difference_angles, evaluate
from quatlab.app.model.skinning import Bones, PosedMesh, bones, scene_bounds, skin_meshes
from quatlab.app.model.state import Events
from quatlab.math.quaternion import angle_between

__all__ = ["RigPlayback", "RigFrame", "SHOWN_PLAYERS", "DIFFERENCE_DEG", "sampling_rate"]

#: Which players the view draws: both (naive as a ghost over the spec), or one alone.
SHOWN_PLAYERS = ("both", "spec", "naive")
#: Joints whose local rotations differ by more than this between the players are flagged.
DIFFERENCE_DEG = 1.0
#: Sampling rates exporters use; a file's key spacing snaps to the nearest.
_COMMON_RATES = (24.0, 25.0, 30.0, 48.0, 50.0, 60.0, 120.0)


def sampling_rate(animation: Animation | None) -> float:
    """Frames per second of an animation's keys: the median key spacing, snapped to 24/25/30/60...

    >>> from quatlab.app.io.gltf.scene import Animation, Channel
    >>> t = np.arange(0, 1.01, 1 / 30)
    >>> ch = Channel(0, "rotation", "LINEAR", t, np.tile([1.0, 0, 0, 0], (len(t), 1)),
    ...              None, None, 0, 1)
    >>> sampling_rate(Animation(0, None, (ch,), 0.0, 1.0))
    30.0
    """
    if animation is None:
        return 30.0
    own = getattr(animation, "fps", None)    # the file's own rate (FBX)
    if own:
        return float(own)
    gaps = np.concatenate([np.diff(np.unique(c.times)) for c in animation.channels] or [[]])
    gaps = gaps[gaps > 1e-6]
    if not gaps.size:
        return 30.0
    rate = 1.0 / float(np.median(gaps))
    near = min(_COMMON_RATES, key=lambda r: abs(r - rate))
    return near if abs(near - rate) < 0.05 * near else float(min(max(rate, 1.0), 240.0))


@dataclasses.dataclass(frozen=True, eq=False)
class RigFrame:
    """Both players' pose of a rig at one time, ready to draw.

    ``local_difference`` and ``world_difference`` are per rig node, degrees:
    the angle between the players' local rotations (where the channels
    themselves part) and their world rotations (which children inherit).
    ``flagged`` holds the nodes whose local rotations differ by more than
    :data:`DIFFERENCE_DEG`, largest first. The skinned meshes and the bones
    of each player are computed when first asked for: the view skins the
    naive pose, and lays out its bones, only where its ghost is drawn.
    """

    rig: Rig = dataclasses.field(repr=False)
    time: float
    spec: Pose
    naive: Pose
    local_difference: np.ndarray
    world_difference: np.ndarray
    flagged: np.ndarray

    @functools.cached_property
    def spec_bones(self) -> Bones:
        return bones(self.rig, self.spec)

    @functools.cached_property
    def naive_bones(self) -> Bones:
        return bones(self.rig, self.naive)

    @functools.cached_property
    def spec_meshes(self) -> list[PosedMesh]:
        return skin_meshes(self.rig, self.spec)

    @functools.cached_property
    def naive_meshes(self) -> list[PosedMesh]:
        return skin_meshes(self.rig, self.naive)

    @property
    def differs(self) -> bool:
        """Whether any joint of the two players differs by more than the threshold."""
        return bool(self.flagged.size)


class RigPlayback:
    """See the module docstring."""

    def __init__(self) -> None:
        self.events = Events()
        self.rig: Rig | None = None
        self.animation_index: int | None = None
        self.time = 0.0
        self.players = "both"
        self.selected_node: int | None = None  # rig index
        self._overrides: dict[tuple[int, int], tuple] = {}  # (animation, glTF node) -> keys
        self._animations: dict[int, Animation] = {}
        self._rates: dict[int | None, float] = {}  # animation index -> frames per second
        self._frame: RigFrame | None = None
        self._bounds = None
        self._swept: dict[int, tuple] = {}  # animation index -> bounds of every frame

    # ------------------------------------------------------------------ loading
    def set_rig(self, rig: Rig | None, bounds=None, tracks=()) -> None:
        """Show another rig (None: nothing); the first animation, at its start.

        ``bounds``: :meth:`bounds` when already known (computed off the GUI thread).
        ``tracks``: the keys to play, as :meth:`use_tracks` takes them, in
        place from the first frame (no second frame for a ``"keys"`` event).
        """
        self.rig = rig
        self._overrides = _overrides_of(tracks)
        self._animations.clear()
        self._rates.clear()
        self._frame = None
        self._bounds = bounds
        self._swept = {}
        self.selected_node = None
        self.animation_index = 0 if rig is not None and rig.animations else None
        anim = self.animation
        self.time = anim.start if anim is not None else 0.0
        self.events.emit("rig")

    # ------------------------------------------------------------------ queries
    @property
    def animation(self) -> Animation | None:
        """The chosen animation with the current keys (fixed ones where fixed)."""
        if self.rig is None or self.animation_index is None:
            return None
        i = self.animation_index
        if i not in self._animations:
            self._animations[i] = self._with_overrides(self.rig.animations[i])
        return self._animations[i]

    @property
    def range(self) -> tuple[float, float]:
        anim = self.animation
        return (0.0, 0.0) if anim is None else (float(anim.start), float(anim.end))

    @property
    def fps(self) -> float:
        """The chosen animation's :func:`sampling_rate` (measured once per animation)."""
        i = self.animation_index
        if i not in self._rates:
            self._rates[i] = sampling_rate(self.animation)
        return self._rates[i]

    def animation_names(self) -> list[str]:
        """One label per animation: its name (or #index) and duration."""
        if self.rig is None:
            return []
        return [f"{a.name or f'#{a.index}'} ({a.end - a.start:.2f} s)" for a in self.rig.animations]

    def animated_nodes(self) -> np.ndarray:
        """Rig indices of the nodes a rotation channel of the animation targets."""
        anim = self.animation
        if anim is None:
            return np.zeros(0, dtype=np.int64)
        nodes = [c.node for c in anim.channels if c.path == "rotation"]
        return np.unique(self.rig.rig_index[nodes]) if nodes else np.zeros(0, dtype=np.int64)

    def bounds(self):
        """``(lo, hi)`` the camera frames: the whole animation's once known, else its first frame.

        The box every frame sweeps (:func:`quatlab.app.model.rig_bounds.animation_bounds`)
        takes a worker thread a moment; until :meth:`set_swept` gives it,
        the spec pose at the animation's start stands in.
        """
        if self.rig is None:
            return np.full(3, -1.0), np.full(3, 1.0)
        if self.animation_index in self._swept:
            return self._swept[self.animation_index]
        if self._bounds is None:
            anim = self.animation
            pose = evaluate(self.rig, anim, anim.start if anim else 0.0)
            self._bounds = scene_bounds(self.rig, pose)
        return self._bounds

    def frame(self) -> RigFrame | None:
        """The snapshot at the current time (computed once per change)."""
        if self.rig is None:
            return None
        if self._frame is None:
            self._frame = self._compute()
        return self._frame

    def _compute(self) -> RigFrame:
        rig, anim, t = self.rig, self.animation, self.time
        spec = evaluate(rig, anim, t, "spec")
        naive = evaluate(rig, anim, t, "naive")
        local = angle_between(spec.rotation, naive.rotation) if len(rig) else np.zeros(0)
        local = np.degrees(np.nan_to_num(local))
        order = np.argsort(-local)
        flagged = order[local[order] > DIFFERENCE_DEG]
        return RigFrame(rig, t, spec, naive, local, difference_angles(spec, naive), flagged)

    def swept(self, index: int | None = None) -> bool:
        """Whether the box of every frame of animation ``index`` (default: the chosen) is known."""
        return (self.animation_index if index is None else index) in self._swept

    # ------------------------------------------------------------------ changes
    def set_swept(self, index: int, bounds) -> None:
        """The box of every frame of animation ``index``; ``"bounds"`` if it is the chosen one."""
        if self.rig is None or not 0 <= index < len(self.rig.animations):
            return
        self._swept[index] = (np.asarray(bounds[0], dtype=float),
                              np.asarray(bounds[1], dtype=float))
        if index == self.animation_index:
            self.events.emit("bounds")

    def set_animation(self, index: int) -> None:
        if self.rig is None:
            return
        if not 0 <= index < len(self.rig.animations):
            raise IndexError(f"animation {index} out of range (0..{len(self.rig.animations) - 1})")
        if index != self.animation_index:
            self.animation_index = index
            self._frame = None
            self._bounds = None
            self.time = float(self.animation.start)
            self.events.emit("animation")
            self.events.emit("time")

    def set_time(self, time: float) -> None:
        lo, hi = self.range
        time = min(hi, max(lo, float(time)))
        if time != self.time:
            self.time = time
            self._frame = None
            self.events.emit("time")

    def set_players(self, players: str) -> None:
        if players not in SHOWN_PLAYERS:
            raise ValueError(f"players must be one of {SHOWN_PLAYERS}, got {players!r}")
        if players != self.players:
            self.players = players
            self.events.emit("players")

    def select_node(self, node: int | None) -> None:
        """Select a rig node (None: none)."""
        if node is not None and (self.rig is None or not 0 <= node < len(self.rig)):
            raise IndexError(f"node {node} out of range")
        if node != self.selected_node:
            self.selected_node = node
            self.events.emit("selection")

    def use_tracks(self, tracks) -> None:
        """Play these rotation tracks' keys (the Keyframes tab's current, maybe fixed, tracks).

        A track replaces the keys of the rotation channel of its animation
        index and node index; tracks with no such channel are ignored.
        """
        overrides = _overrides_of(tracks)
        if self.rig is None:
            return
        if set(overrides) == set(self._overrides) and all(
                all(a is b for a, b in zip(overrides[k], self._overrides[k], strict=True))
                for k in overrides):
            return
        self._overrides = overrides
        self._animations.clear()
        self._frame = None
        self.events.emit("keys")

    def _with_overrides(self, anim: Animation) -> Animation:
        channels = []
        changed = False
        for ch in anim.channels:
            keys = self._overrides.get((anim.index, ch.node)) if ch.path == "rotation" else None
            if keys is not None and len(keys[0]) == len(ch.values):
                values, ins, outs = keys
                ch = dataclasses.replace(
                    ch, values=values,
                    in_tangents=ins if ch.in_tangents is not None else None,
                    out_tangents=outs if ch.out_tangents is not None else None)
                changed = True
            channels.append(ch)
        return dataclasses.replace(anim, channels=tuple(channels)) if changed else anim


def _overrides_of(tracks) -> dict[tuple[int, int], tuple]:
    """(animation index, glTF node) -> (values, in_tangents, out_tangents) of rotation tracks."""
    return {(tr.animation_index, tr.node_index): (tr.values, tr.in_tangents, tr.out_tangents)
            for tr in tracks if tr.animation_index is not None and tr.node_index is not None}
