"""A Pyblish validator that fails an instance whose animation has findings, and its repair.

:class:`ValidateQuatlabAnimation` audits the keyframe files of an instance
(``instance.data["files"]``: a path or a list of paths; glTF, GLB, BVH, CSV,
JSON, as ``quatlab check`` reads them) and fails it when any file has a
finding or cannot be read; the findings are logged one by one and kept in
``instance.data["quatlabReport"]`` (one folder report line per file,
docs/report.md). :class:`RepairQuatlabAnimation`, its action on failure,
fixes every file in place (``quatlab fix --in-place``, through the one
atomic writer). What the fix cannot repair (a half turn, gimbal lock) still
fails the next validation. No Qt.
"""

from __future__ import annotations

import pyblish.api

from quatlab.app.i18n import N_, _, ngettext
from quatlab.app.io.bvh.keyframes import audit_keyframes
from quatlab.app.io.keyframe_files import fix_in_place, load_keyframes
from quatlab.app.io.tracks import KeyframeFileError

__all__ = ["ValidateQuatlabAnimation", "RepairQuatlabAnimation", "instance_files",
           "failed_instances"]


def instance_files(instance) -> list[str]:
    """The keyframe files of ``instance``: ``instance.data["files"]`` as a list."""
    files = instance.data.get("files") or []
    return [files] if isinstance(files, str) else [str(f) for f in files]


def failed_instances(context, plugin) -> list:
    """The instances ``plugin`` failed on in this publish (its results, not its actions')."""
    failed = []
    for result in context.data.get("results", []):
        if (result["error"] is not None and result["action"] is None
                and result["plugin"] is plugin and result["instance"] is not None
                and result["instance"] not in failed):
            failed.append(result["instance"])
    return failed


class RepairQuatlabAnimation(pyblish.api.Action):
    """Fix the files of every instance the validator failed on (in place, atomically)."""

    label = N_("Repair (quatlab fix)")
    on = "failed"
    icon = "wrench"

    def process(self, context, plugin):
        for instance in failed_instances(context, plugin):
            plugin.repair(instance, log=self.log)


class ValidateQuatlabAnimation(pyblish.api.InstancePlugin):
    """Rotation keyframes without findings (quatlab check) in every file of the instance."""

    order = pyblish.api.ValidatorOrder
    label = N_("Rotation keyframes (QuatLab)")
    families = ["animation"]
    actions = [RepairQuatlabAnimation]
    #: ``--order`` for CSV and JSON tracks that do not declare it (``"wxyz"`` or ``"xyzw"``).
    component_order: str | None = None

    def process(self, instance):
        report, problems = [], []
        for path in instance_files(instance):
            try:
                reports = audit_keyframes(load_keyframes(path, order=self.component_order))
            except (KeyframeFileError, OSError) as exc:
                report.append({"file": path, "status": "unreadable", "error": str(exc)})
                problems.append(str(exc))
                self.log.error(str(exc))
                continue
            n = 0
            for r in reports:
                for f in r.findings:
                    n += 1
                    self.log.warning(_("{file}: {track}: {kind} (keys {keys}): {message}").format(
                        file=path, track=r.track.label, kind=f.kind,
                        keys="-".join(map(str, f.keys)), message=_(f.message)))
            report.append({"file": path, "status": "findings" if n else "ok", "findings": n,
                           "tracks": [r.as_dict() for r in reports]})
            if n:
                problems.append(ngettext("{file}: {n} finding", "{file}: {n} findings", n).format(
                    file=path, n=n))
        instance.data["quatlabReport"] = report
        if problems:
            raise ValueError(_("rotation keyframes: {problems} (the Repair action fixes sign "
                               "flips and Euler wraps in place)").format(
                                   problems=_("; ").join(problems)))

    @classmethod
    def repair(cls, instance, log=None) -> list[str]:
        """Fix every file of ``instance`` in place; returns the files written."""
        written = []
        for path in instance_files(instance):
            _fixes, changed = fix_in_place(path, order=cls.component_order)
            written += [str(p) for p in changed]
            if log is not None:
                log.info((_("{file}: fixed in place") if changed else
                          _("{file}: nothing to fix")).format(file=path))
        return written
