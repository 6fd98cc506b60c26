"""``quatlab fix IN.bvh OUT.bvh`` (also ``--euler-filter``): write the Euler-filtered copy of a BVH.

Every joint's rotation channels go through the Euler filter (per channel
unwrap by whole turns, and the one of the two equivalent Euler triples
closest to the previous frame, as Maya's Euler filter does; docs/formats.md,
"BVH"). The hierarchy text and the formatting are kept; only changed values
are rewritten, with the decimals they had. The rotations do not change.
Prints what changed per joint and the Euler findings left (gimbal lock is a
property of the pose: no filter removes it). Exit status 2 when IN cannot be
read or OUT cannot be written. No Qt.
"""

from __future__ import annotations

from quatlab.app.i18n import _

__all__ = ["run_euler_filter"]

PROG = "quatlab fix"


def run_euler_filter(args) -> int:
    from pathlib import Path

    import numpy as np

    from quatlab.app.commands.common import fail
    from quatlab.app.io import bvh as B
    from quatlab.app.io.bvh.keyframes import EULER_KINDS, BvhKeyframeFile
    from quatlab.app.io.keyframe_files import load_keyframes
    from quatlab.app.io.track_audit import MAX_FINDINGS, format_keys
    from quatlab.app.io.tracks import KeyframeFileError

    if Path(args.input).suffix.lower() != ".bvh":
        return fail(PROG, _("{file}: --euler-filter applies to BVH files (.bvh) only").format(
            file=args.input))
    if getattr(args, "normalize", False):
        return fail(PROG, _("{file}: --normalize does not apply to BVH files: they store Euler "
                            "angles, not quaternions").format(file=args.input))
    try:
        keyframes = load_keyframes(args.input)
        assert isinstance(keyframes, BvhKeyframeFile)
        motion = keyframes.filtered_motion()
        # None: the loaded keys, so the tracks are never converted (fix needs
        # only the filtered channels; docs/formats.md, "BVH").
        written = keyframes.write_copy(args.output, None, force=getattr(args, "force", False))
    except (KeyframeFileError, OSError) as exc:
        return fail(PROG, str(exc))
    except MemoryError:
        return fail(PROG, _("{file}: not enough memory to filter this file").format(
            file=args.input))

    bvh = keyframes.bvh
    start = bvh.channel_start
    changed_any = False
    for j in range(bvh.n_joints):
        cols = bvh.rotation_columns(j)
        if not cols.size:
            continue
        # Column by column: a (frames,) mask at a time, not (frames, 3) copies.
        rows = np.zeros(len(motion), dtype=bool)
        chans = []
        for c in cols:
            diff = motion[:, c] != bvh.motion[:, c]
            if diff.any():
                chans.append(bvh.channels[j][c - start[j]])
                rows |= diff
        if not chans:
            continue
        changed_any = True
        frames = np.flatnonzero(rows)
        print(_("{joint}: Euler filter rewrote {channels} in frames {frames}").format(
            joint=bvh.names[j], channels=", ".join(chans), frames=format_keys(frames)))
    if not changed_any:
        print(_("{file}: Euler channels already continuous; copied unchanged").format(
            file=args.input))
    # What is left, read back from the bytes written (the file, not our
    # arrays); the input's arrays go first, so the two are never held together.
    del keyframes, bvh, motion
    try:
        again = B.read_bvh(written[0])
    except B.BvhError as exc:       # not expected: the writer keeps the grammar
        return fail(PROG, _("the written copy does not read back: {error}").format(error=exc))
    except MemoryError:
        return fail(PROG, _("{file}: not enough memory to read the copy back").format(
            file=written[0]))
    for j, (found, omitted, _frames) in B.audit_rotations_capped(
            again, MAX_FINDINGS, kinds=tuple(EULER_KINDS)).items():
        for f in found:
            if f.kind in EULER_KINDS:
                print("  " + _("still {kind} ({joint}, frame {frame})").format(
                    kind=EULER_KINDS[f.kind], joint=again.names[j], frame=f.frame))
        left = sum(n for kind, n in omitted.items() if kind in EULER_KINDS)
        if left:
            print("  " + _("still {n} more ({joint})").format(n=f"{left:,}",
                                                           joint=again.names[j]))
    for path in written:
        print(_("wrote {file}").format(file=path))
    return 0
