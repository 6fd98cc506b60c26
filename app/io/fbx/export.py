"""What QuatLab writes for an FBX clip: per-frame quaternion tracks, a BVH, and its long turns.

FBX is never written back (docs/formats.md, "FBX"). For one clip:

* :func:`frame_rotations`: every node's local rotation at every frame of
  the file's frame rate, ``(F, N, 4)`` (w, x, y, z), for
  :mod:`quatlab.app.io.quat_export` (which makes them sign-continuous);
* :func:`bvh_bytes`: the clip as a BVH file, every node a joint, its
  rotation per frame turned into Euler angles in the node's rotation order
  and run through the Euler filter (:func:`quatlab.math.euler_track.euler_filter`);
* :func:`long_turns`: the key segments along which a node turns more than
  180 deg, each classified: an **intended turn** (a keyframed spin: the keys
  are more than a frame and a half apart) must keep its way round in a
  quaternion export, so keys are inserted: the exports here have one every
  frame; a **per-frame wrap** (the keys are a frame apart, the curve jumps
  through +-180 deg) is an artefact of the angles, and a quaternion export
  takes the short way.

Examples
--------
>>> import pathlib, sys
>>> sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "tests"))  # test forge
>>> from fbx_forge import ascii_fbx, chain
>>> from quatlab.app.io.fbx.keyframes import load_fbx_bytes
>>> text = ascii_fbx(chain(2), {("j1", "R", 2): ([0.0, 1.0, 1.0 + 1 / 30],
...                                               [0.0, 300.0, -50.0])}, fps=30.0)
>>> kf = load_fbx_bytes("spin.fbx", text.encode())
>>> [(t.keys, round(t.turn), t.intended) for t in long_turns(kf, 0)]
[((0, 1), 300, True), ((1, 2), 350, False)]
"""

from __future__ import annotations

import dataclasses

import numpy as np

from quatlab.app.io.fbx.evaluate import _parents_first, euler_columns, quat_to_euler
from quatlab.math import euler_track as E

__all__ = ["LongTurn", "frame_rotations", "long_turns", "bvh_bytes", "clip_index"]

#: Keys closer than this many frames apart are a per-frame wrap, not an intended turn.
WRAP_FRAMES = 1.5


@dataclasses.dataclass(frozen=True)
class LongTurn:
    """A key segment of a track along which its node turns more than 180 deg."""

    track: int
    node: str
    keys: tuple[int, int]
    start: float
    end: float
    turn: float           # degrees, summed along the curve sampled at the frame rate
    frames: float         # the segment's length in frames
    intended: bool


def clip_index(kf, which) -> int:
    """A clip of the file by index or name (None: the first); ``ValueError`` if unknown."""
    names = kf.scene.stack_names
    if which is None:
        if not names:
            raise ValueError("no clips")
        return 0
    if isinstance(which, str) and which in names:
        return names.index(which)
    try:
        i = int(which)
    except (TypeError, ValueError):
        i = -1
    if 0 <= i < len(names):
        return i
    raise ValueError(", ".join(repr(n) for n in names) or "none")


def frame_rotations(kf, stack: int):
    """``(times, names, q)``: clip ``stack`` at the file's frame rate, every node's local rotation.

    ``q`` is ``(F, N, 4)`` (w, x, y, z) with ufbx's signs (not yet sign-continuous).
    """
    times = kf.frame_times(stack)
    local = kf.evaluator(stack).local(times)
    return times, list(kf.scene.node_names), local.rotation


def _samples(times: np.ndarray, fps: float) -> np.ndarray:
    """Key times, the frames between them and 8 steps per key segment (a turn made between two
    frames is still seen), sorted."""
    t0, t1 = float(times[0]), float(times[-1])
    frames = np.arange(np.ceil(t0 * fps), np.floor(t1 * fps) + 1) / fps
    sub = (times[:-1, None] + (times[1:] - times[:-1])[:, None] * np.linspace(0, 1, 9)).ravel()
    out = np.union1d(np.union1d(times, frames[(frames >= t0) & (frames <= t1)]), sub)
    return out


def _segment_turns(kf, stack: int, node: int, times: np.ndarray):
    """Degrees the node turns along its curves over each key segment, and the samples used."""
    samples = _samples(times, kf.scene.fps)
    q = kf.evaluator(stack).local(samples, [node]).rotation[:, 0]
    dots = np.abs(np.einsum("ij,ij->i", q[:-1], q[1:]))
    steps = np.degrees(2.0 * np.arccos(np.clip(dots, 0.0, 1.0)))
    at = np.searchsorted(samples, times)            # keys are among the samples
    cum = np.concatenate([[0.0], np.cumsum(steps)])
    return cum[at[1:]] - cum[at[:-1]], samples


def long_turns(kf, stack: int) -> list[LongTurn]:
    """Every key segment of clip ``stack`` turning more than 180 deg (module docs)."""
    out = []
    fps = kf.scene.fps
    for i, (s, node) in enumerate(kf.entries):
        times = kf.tracks[i].times
        if s != stack or len(times) < 2:
            continue
        turns, _samples = _segment_turns(kf, stack, node, times)
        for k in np.flatnonzero(turns > 180.0):
            k = int(k)
            t0, t1 = float(times[k]), float(times[k + 1])
            frames = (t1 - t0) * fps
            out.append(LongTurn(i, kf.scene.node_names[node], (k, k + 1), t0, t1,
                                float(turns[k]), frames, frames > WRAP_FRAMES))
    return out


def _bvh_translations(sc, local, world) -> np.ndarray:
    """``(F, N, 3)``: each node's world position in its parent's frame rotated by local
    rotations only (no scale), so a BVH built from them puts every joint where FBX does."""
    from quatlab.math import quaternion as Q  # noqa: PLC0415

    rot = Q.to_matrix(local.rotation)                  # (F, N, 3, 3)
    pos = world[..., :3, 3]
    out = np.empty_like(pos)
    world_rot = np.empty_like(rot)
    for i in _parents_first(sc.node_parent):
        p = int(sc.node_parent[i])
        if p < 0:
            world_rot[:, i] = rot[:, i]
            out[:, i] = pos[:, i]
        else:
            world_rot[:, i] = world_rot[:, p] @ rot[:, i]
            out[:, i] = np.einsum("fji,fj->fi", world_rot[:, p], pos[:, i] - pos[:, p])
    return out


def _token(name: str, used: set) -> str:
    base = "_".join(name.split()) or "node"
    out, k = base, 1
    while out in used:
        k += 1
        out = f"{base}_{k}"
    used.add(out)
    return out


def bvh_bytes(kf, stack: int) -> bytes:
    """Clip ``stack`` as a BVH file (module docs), frames at the file's rate.

    Joints are the FBX nodes, parents first; rotation channels are the
    node's local rotation in its order as BVH lists it (FBX ``XYZ`` rotates
    about X first, so BVH lists ``Zrotation Yrotation Xrotation``). BVH has
    no scale, so a joint's translation is its FBX world position seen from
    its parent's (unscaled) frame: the joints land where the FBX joints are,
    whatever the scales; a joint whose translation moves gets position
    channels (OFFSET 0), the others an OFFSET.
    """
    sc = kf.scene
    ev = kf.evaluator(stack)
    times = kf.frame_times(stack)
    local = ev.local(times)
    offsets = _bvh_translations(sc, local, ev.world(local))
    moving = set(np.flatnonzero(np.ptp(offsets, axis=0).max(axis=-1) > 1e-9).tolist())
    children: dict[int, list[int]] = {}
    for i, p in enumerate(sc.node_parent.tolist()):
        children.setdefault(p, []).append(i)
    used: set[str] = set()
    tokens = [_token(n, used) for n in sc.node_names]
    order = local.order[0]
    columns: list[np.ndarray] = []
    lines = ["HIERARCHY"]

    def joint(i: int, depth: int) -> None:
        pad = "  " * depth
        lines.append(f"{pad}{'ROOT' if depth == 0 else 'JOINT'} {tokens[i]}")
        lines.append(pad + "{")
        o = int(order[i])
        listed = "".join("XYZ"[c] for c in euler_columns(o))[::-1]     # BVH lists R1 R2 R3
        rot = [f"{a}rotation" for a in listed]
        if i in moving:
            lines.append(f"{pad}  OFFSET 0 0 0")
            lines.append(f"{pad}  CHANNELS 6 Xposition Yposition Zposition " + " ".join(rot))
            columns.append(offsets[:, i])
        else:
            off = offsets[0, i]
            lines.append(f"{pad}  OFFSET {off[0]:.9g} {off[1]:.9g} {off[2]:.9g}")
            lines.append(f"{pad}  CHANNELS 3 " + " ".join(rot))
        euler = quat_to_euler(local.rotation[:, i], o)                 # X, Y, Z degrees
        idx = ["XYZ".index(a) for a in listed]
        columns.append(E.euler_filter(euler[:, idx], listed))
        for c in children.get(i, []):
            joint(c, depth + 1)
        if not children.get(i):
            lines.extend([f"{pad}  End Site", pad + "  {", f"{pad}    OFFSET 0 0 0",
                          pad + "  }"])
        lines.append(pad + "}")

    for root in children.get(-1, []):
        joint(root, 0)
    motion = np.concatenate(columns, axis=1) if columns else np.zeros((len(times), 0))
    lines += ["MOTION", f"Frames: {len(times)}", f"Frame Time: {1.0 / sc.fps:.9g}"]
    lines += [" ".join(f"{v:.9g}" for v in row) for row in motion]
    return ("\n".join(lines) + "\n").encode("utf-8")

