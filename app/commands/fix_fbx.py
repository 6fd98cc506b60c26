"""``quatlab fix IN.fbx OUT.bvh|OUT.csv|OUT.npy`` and ``export-quats IN.fbx``: what FBX turns into.

No maintained library writes FBX, so ``fix IN.fbx OUT.fbx`` refuses in one
line naming what it writes instead (docs/formats.md, "FBX"):

* ``OUT.bvh``: the clip's motion with Euler-filtered channels
  (:func:`quatlab.app.io.fbx.export.bvh_bytes`);
* ``OUT.csv`` / ``OUT.npy``: every node's local rotation at every frame of
  the file's rate as sign-continuous quaternions (w, x, y, z)
  (:mod:`quatlab.app.io.quat_export`), which is also what
  ``quatlab export-quats IN.fbx`` writes.

Both print the clip's long turns (key segments turning more than 180 deg)
and how each was treated: an intended turn keeps its way round (one key per
frame), a per-frame wrap takes the short way. ``--animation`` picks the clip
(default: the first). Exit status 2 when IN cannot be read or OUT not
written. No Qt.
"""

from __future__ import annotations

from pathlib import Path

from quatlab.app.i18n import _

__all__ = ["run_fbx", "write_frame_tracks", "print_long_turns"]

PROG = "quatlab fix"


def _load(args, prog):
    """``(keyframes, clip)`` or an exit status after a one-line error."""
    from quatlab.app.commands.common import fail
    from quatlab.app.io.fbx.export import clip_index
    from quatlab.app.io.fbx.keyframes import load_fbx_keyframes
    from quatlab.app.io.tracks import KeyframeFileError

    try:
        kf = load_fbx_keyframes(args.input)
    except (KeyframeFileError, OSError) as exc:
        return None, fail(prog, str(exc))
    try:
        clip = clip_index(kf, getattr(args, "animation", None))
    except ValueError as exc:
        which = getattr(args, "animation", None)
        text = (_("{file}: no clip {which!r} (the file has {names})") if which is not None
                else _("{file}: the file has no clips (animation stacks) to write"))
        return None, fail(prog, text.format(file=args.input, which=which, names=exc))
    return (kf, clip), 0


def run_fbx(args) -> int:
    """``quatlab fix`` with an FBX input (module docs)."""
    from quatlab.app.commands.common import fail
    from quatlab.app.io.atomic import write_files
    from quatlab.app.io.fbx import export as X
    from quatlab.app.io.fbx.keyframes import refusal
    from quatlab.app.io.tracks import KeyframeFileError

    out = Path(args.output)
    suffix = out.suffix.lower()
    if suffix == ".fbx":
        return fail(PROG, str(KeyframeFileError(out, refusal())))
    if suffix not in (".bvh", ".csv", ".npy"):
        return fail(PROG, str(KeyframeFileError(out, _(
            "from an FBX file QuatLab writes .bvh (the Euler-filtered motion), .csv or .npy "
            "(the corrected quaternion tracks)"))))
    if getattr(args, "normalize", False):
        return fail(PROG, _("{file}: --normalize does not apply to FBX files: they store Euler "
                            "angles, not quaternions").format(file=args.input))
    loaded, status = _load(args, PROG)
    if loaded is None:
        return status
    kf, clip = loaded
    if suffix != ".bvh":
        return write_frame_tracks(kf, clip, out, force=args.force, prog=PROG)
    try:
        kf.check_output_path(out)
        write_files([(out, X.bvh_bytes(kf, clip))], force=args.force)
    except KeyframeFileError as exc:
        return fail(PROG, str(exc))
    except FileExistsError as exc:
        return fail(PROG, _("{file}: exists; pass --force to replace it").format(
            file=exc.filename))
    except OSError as exc:
        return fail(PROG, _("{file}: cannot write: {error}").format(
            file=exc.filename or out, error=exc.strerror or exc))
    print(_("{file}: clip {clip!r} as BVH, {frames} frames at {fps:g} per second, Euler "
            "channels filtered (no wraps or triple switches; the rotations are the "
            "clip's)").format(file=args.input, clip=kf.scene.stack_names[clip],
                              frames=len(kf.frame_times(clip)), fps=kf.scene.fps))
    print_long_turns(kf, clip)
    print(_("wrote {file}").format(file=out))
    return 0


def write_frame_tracks(kf, clip: int, out: Path, *, force: bool, prog: str) -> int:
    """Write clip ``clip``'s per-frame rotations as sign-continuous ``.csv``/``.npy`` tracks."""
    import numpy as np

    from quatlab.app.commands.common import fail
    from quatlab.app.commands.export_quats import write_tracks
    from quatlab.app.io.fbx.export import frame_rotations
    from quatlab.app.io.tracks import KeyframeFileError
    from quatlab.math.euler_track import continuous_quaternions

    times, names, q = frame_rotations(kf, clip)
    negated = int(np.count_nonzero(np.any(continuous_quaternions(q) != q, axis=-1)))
    try:
        kf.check_output_path(out)
    except KeyframeFileError as exc:
        return fail(prog, str(exc))
    written = write_tracks(prog, out, names, q, 1.0 / kf.scene.fps, force)
    if isinstance(written, int):
        return written
    print((_("{file}: clip {clip!r}, {frames} frames x {joints} nodes from {start:g} s, "
             "quaternions (w, x, y, z); {n} key negated to make the tracks sign-continuous")
           if negated == 1 else
           _("{file}: clip {clip!r}, {frames} frames x {joints} nodes from {start:g} s, "
             "quaternions (w, x, y, z); {n} keys negated to make the tracks "
             "sign-continuous")).format(
        file=kf.path, clip=kf.scene.stack_names[clip], frames=len(times), joints=len(names),
        start=float(times[0]) if len(times) else 0.0, n=negated))
    print_long_turns(kf, clip)
    for path in written:
        print(_("wrote {file}").format(file=path))
    return 0


def print_long_turns(kf, clip: int) -> None:
    """One line per key segment of the clip turning more than 180 deg, with how it is treated."""
    from quatlab.app.io.fbx.export import long_turns

    for t in long_turns(kf, clip):
        if t.intended:
            text = _("{node}: keys {k0}-{k1} ({t0:.4g}-{t1:.4g} s) turn {turn:.1f} deg along the "
                     "curve over {frames:.1f} frames: an intended turn (a keyframed spin), kept "
                     "by one key per frame (two quaternion keys alone would take the short way)")
        else:
            text = _("{node}: keys {k0}-{k1} ({t0:.4g}-{t1:.4g} s) turn {turn:.1f} deg along the "
                     "curve within {frames:.1f} frames: a per-frame wrap of the angles, written "
                     "the short way")
        print("  " + text.format(node=t.node, k0=t.keys[0], k1=t.keys[1], t0=t.start, t1=t.end,
                                 turn=t.turn, frames=t.frames))
