"""``quatlab fix --in-place FILE...``: fix keyframe files where they are (the pre-commit fixer).

Each file gets the fix ``quatlab fix IN OUT`` writes (sign-continuous keys;
BVH: the Euler filter), written over the file atomically and only when a
byte changes, so an untouched file keeps its time stamp and a hook that runs
it sees exactly the files it changed (docs/pipeline.md, "pre-commit"). What
the fix cannot repair is read back from the written file and listed.

Exit status: 2 when a file cannot be read or written (the others are still
fixed), else 1 when findings remain, else 0. No Qt.
"""

from __future__ import annotations

from quatlab.app.commands.common import shown
from quatlab.app.i18n import _

__all__ = ["run_in_place"]

PROG = "quatlab fix"


def run_in_place(args) -> int:
    """Fix every file of ``args.in_place``; see the module docstring."""
    from pathlib import Path

    from quatlab.app.commands.common import fail
    from quatlab.app.io.bvh.keyframes import audit_keyframes
    from quatlab.app.io.keyframe_files import fix_in_place, load_keyframes
    from quatlab.app.io.track_audit import format_keys
    from quatlab.app.io.tracks import KeyframeFileError

    status = 0
    for file in args.in_place:
        if args.normalize and Path(file).suffix.lower() == ".bvh":
            status = fail(PROG, _("{file}: --normalize does not apply to BVH files: they store "
                                  "Euler angles, not quaternions").format(file=file))
            continue
        try:
            _fixes, written = fix_in_place(file, order=args.order, normalize=args.normalize)
            left = audit_keyframes(load_keyframes(file, order=args.order))
        except (KeyframeFileError, OSError) as exc:
            status = fail(PROG, str(exc))
            continue
        if written:
            print(_("{file}: fixed in place").format(file=shown(file)))
            for path in written:
                print("  " + _("wrote {file}").format(file=shown(path)))
        else:
            print(_("{file}: nothing to fix").format(file=shown(file)))
        for report in left:
            kinds: dict[str, list[int]] = {}
            for finding in report.findings:
                if finding.kind != "more":
                    kinds.setdefault(finding.kind, []).extend(finding.keys)
            for kind, keys in kinds.items():
                print("  " + _("{track}: still {kind} (keys {keys})").format(
                    track=shown(report.track.label), kind=kind, keys=format_keys(set(keys))))
        if status == 0 and any(r.findings for r in left):
            status = 1
    return status
