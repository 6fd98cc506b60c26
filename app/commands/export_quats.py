"""``quatlab export-quats IN OUT``: sign-continuous quaternion tracks of a BVH, FBX or USD file.

Every joint's local rotation at every frame, converted from its Euler
channels (docs/formats.md, "BVH") to quaternions **(w, x, y, z)**, each key
moved into the hemisphere of the previous frame's, so a consumer that lerps
components (or trains on them) never sees a jump from q to -q. ``.csv``:
named columns ``<joint>_w ... <joint>_z`` after ``frame, time``, a ``#``
first line stating the order; ``.npy``: an array (frames, joints, 4) plus a
``.json`` sidecar with the joint names, the order and the frame time
(docs/formats.md, "Quaternion track exports"). Existing files are kept
unless ``--force``. Exit status 2 when IN cannot be read or OUT not written.
A USD file gives one skeleton's joints (``--skeleton``, default the first
animated one) at its animation's rotation samples, times in seconds as sampled
(docs/formats.md, "USD"); an FBX clip (``--animation``) is sampled at the
file's frame rate (docs/formats.md, "FBX"). No Qt.
"""

from __future__ import annotations

from quatlab.app.i18n import _

__all__ = ["add_parser", "run", "write_tracks"]

PROG = "quatlab export-quats"


def add_parser(subparsers):
    p = subparsers.add_parser(
        "export-quats",
        help=_("export the rotations of a BVH, FBX or USD skeleton as sign-continuous "
               "(w, x, y, z) tracks (.csv or .npy)"),
        description=_(
            "Convert every joint's rotation channels of IN (a BVH file; or an FBX clip, "
            "sampled at the file's frame rate) to quaternions "
            "(w, x, y, z), make each joint's track sign-continuous (no key in the opposite "
            "hemisphere of the previous frame's) and write OUT: .csv with named columns, or "
            ".npy of shape (frames, joints, 4) with a .json sidecar naming the joints and the "
            "order. A USD file (.usda, .usdc, .usdz) gives one skeleton's joints at its "
            "animation's samples. Exit status 2 when IN cannot be read or OUT cannot be written."
        ),
    )
    p.add_argument("input", metavar="IN", help=_("BVH (.bvh), FBX (.fbx) or USD (.usda, .usdc, "
                                                 ".usdz, .usd) file"))
    p.add_argument("output", metavar="OUT", help=_("new .csv or .npy file"))
    p.add_argument("--force", action="store_true", help=_("replace OUT (and its .json) if present"))
    p.add_argument("--animation", default=None, metavar="NAME|INDEX",
                   help=_("FBX: the clip to export (default: the first)"))
    p.add_argument("--skeleton", default=None, metavar="NAME|PATH",
                   help=_("USD: the skeleton to export (default: the first animated one)"))
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from pathlib import Path

    import numpy as np

    from quatlab.app.commands.common import fail
    from quatlab.app.io import bvh as B
    from quatlab.app.io.bvh.keyframes import load_bvh_keyframes
    from quatlab.app.io.tracks import KeyframeFileError
    from quatlab.app.io.usd import USD_SUFFIXES
    from quatlab.math.euler_track import continuous_quaternions

    src, out = Path(args.input), Path(args.output)
    suffix = out.suffix.lower()
    if suffix not in (".csv", ".npy"):
        return fail(PROG, _("{file}: the output must end in .csv or .npy").format(file=out))
    kind = src.suffix.lower()
    if kind == ".fbx":
        from quatlab.app.commands.fix_fbx import _load, write_frame_tracks

        loaded, status = _load(args, PROG)
        if loaded is None:
            return status
        return write_frame_tracks(*loaded, out, force=args.force, prog=PROG)
    if args.animation is not None:
        return fail(PROG, _("{file}: --animation applies to FBX files (a BVH holds one "
                            "motion)").format(file=src))
    usd = kind in USD_SUFFIXES
    if kind != ".bvh" and not usd:
        return fail(PROG, _("{file}: export-quats reads BVH, FBX and USD files: their joints "
                            "share one frame clock, so the tracks make one (frames, joints, 4) "
                            "array").format(file=src))
    times = None
    try:
        if usd:
            names, q, times, frame_time = _usd_skeleton(src, args.skeleton)
        else:
            bvh = load_bvh_keyframes(src).bvh
            names, q, frame_time = bvh.names, B.local_rotations(bvh), bvh.frame_time
    except KeyframeFileError as exc:
        return fail(PROG, str(exc))
    negated = int(np.count_nonzero(np.any(continuous_quaternions(q) != q, axis=-1)))
    written = write_tracks(PROG, out, names, q, frame_time, args.force, times=times)
    if isinstance(written, int):
        return written
    print((_("{file}: {frames} frames x {joints} joints, quaternions (w, x, y, z); "
             "{n} key negated to make the tracks sign-continuous") if negated == 1 else
           _("{file}: {frames} frames x {joints} joints, quaternions (w, x, y, z); "
             "{n} keys negated to make the tracks sign-continuous")).format(
        file=src, frames=q.shape[0], joints=q.shape[1], n=negated))
    for path in written:
        print(_("wrote {file}").format(file=path))
    return 0


def write_tracks(prog: str, out, names, q, frame_time: float, force: bool, times=None):
    """Write tracks ``q`` ``(frames, joints, 4)`` to ``out`` (``.csv``, or ``.npy`` and its
    ``.json``) through :mod:`quatlab.app.io.quat_export`, with the frames' ``times`` when they
    are not ``frame_time`` apart: the files written, or the exit status after a one-line
    error."""
    from pathlib import Path

    from quatlab.app.commands.common import fail
    from quatlab.app.io import quat_export as X

    out = Path(out)
    try:
        if out.suffix.lower() == ".csv":
            X.write_csv(out, names, q, frame_time=frame_time, force=force, times=times)
            return [out]
        X.write_npy(out, names, q, frame_time=frame_time, force=force, times=times)
        return [out, X.sidecar_path(out)]
    except FileExistsError as exc:
        return fail(prog, _("{file}: exists; pass --force to replace it").format(
            file=exc.filename))
    except (OSError, ValueError) as exc:
        where = getattr(exc, "filename", None) or out
        return fail(prog, _("{file}: cannot write: {error}").format(
            file=where, error=getattr(exc, "strerror", None) or exc))


def _usd_skeleton(src, which):
    """``(joint names, rotations (S, J, 4), seconds (S,), 1 / timeCodesPerSecond)``."""
    from quatlab.app.io.tracks import KeyframeFileError
    from quatlab.app.io.usd.keyframes import load_usd_keyframes

    scene = load_usd_keyframes(src).scene
    skels = scene.skeletons
    if which is None:
        pick = next((s for s, sk in enumerate(skels) if sk.animation is not None), 0)
    else:
        pick = next((s for s, sk in enumerate(skels)
                     if which in (sk.path, sk.path.rsplit("/", 1)[-1])), None)
    if not skels or pick is None:
        names = ", ".join(sk.path for sk in skels) or _("none")
        raise KeyframeFileError(src, _("no skeleton {which!r} (the file has: {names})").format(
            which=which, names=names))
    sk = skels[pick]
    seconds, q = scene.skeleton_rotations(pick)
    # Leaf names, unless two joints share one: then the joint paths.
    names = sk.names if len(set(sk.names)) == len(sk.names) else sk.joints
    return list(names), q, seconds, 1.0 / scene.time_codes_per_second
