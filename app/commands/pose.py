"""``quatlab pose``: every node's world transform of a glTF file at one time, as a player poses it.

For pipelines that diff two runtimes' poses: ``--player spec`` is glTF 2.0's
own interpolation, ``--player naive`` a runtime that blends rotation keys as
stored (docs/interpolation.md). The text output is a table per node (world
position, rotation, scale) and per skin joint (world position); ``--json``
prints the full world matrices (docs/formats.md, "quatlab pose").

Exit status: 0, or 2 with one line naming the file and the problem
(unreadable file, unknown animation, time outside the animation).
"""

from __future__ import annotations

import json
import math

from quatlab.app.commands.check_dir import pad as _pad
from quatlab.app.i18n import _

__all__ = ["add_parser", "run", "format_report"]

PROG = "quatlab pose"


def add_parser(subparsers):
    p = subparsers.add_parser(
        "pose",
        help=_("world matrices of every node (and skin joint positions) at a time"),
        description=_(
            "Pose a glTF (.gltf/.glb), BVH, FBX or USD (.usda/.usdc/.usdz) file at time S of "
            "an animation, as a spec-conforming player (glTF 2.0 interpolation, shortest-arc "
            "SLERP, which is also USD's; for FBX the file's own curves and layers) or as a "
            "naive runtime (rotation keys blended as stored) plays it, and print every node's "
            "world transform and each skin joint's world position."
        ),
    )
    p.add_argument("file", metavar="FILE", help=_("glTF (.gltf, .glb), BVH, FBX or USD file"))
    p.add_argument("--animation", default=None, metavar="NAME|INDEX",
                   help=_("animation by name or index (default: the first)"))
    p.add_argument("--time", required=True, type=float, metavar="S",
                   help=_("time in seconds, inside the animation's key range"))
    p.add_argument("--player", choices=("spec", "naive", "euler"), default="spec",
                   help=_("spec (glTF 2.0 or the FBX evaluation, default), naive (rotation "
                          "keys blended as stored) or, for FBX, euler (each Euler channel "
                          "lerped between keys)"))
    p.add_argument("--json", action="store_true", help=_("print the pose as JSON"))
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from quatlab.app.commands.common import fail
    from quatlab.app.io.tracks import KeyframeFileError
    from quatlab.app.model.pose_report import pose_report

    try:
        if str(args.file).lower().endswith(".bvh"):
            from quatlab.app.model.bvh_pose import pose_report_bvh

            if args.animation is not None:
                return fail(PROG, _("{file}: a BVH file holds one motion; --animation does "
                                    "not apply").format(file=args.file))
            report = pose_report_bvh(args.file, args.time, args.player)
        else:
            report = pose_report(args.file, args.animation, args.time, args.player)
    except (KeyframeFileError, OSError) as exc:
        return fail(PROG, str(exc))
    if args.json:
        print(json.dumps(report, indent=2, allow_nan=False))
    else:
        print(format_report(report))
    return 0


def _decompose(world):
    """World position, rotation (w, x, y, z) and column scales of a row-major 4x4 list."""
    import numpy as np

    from quatlab.math import quaternion as Q

    m = np.asarray(world, dtype=float)
    scale = np.linalg.norm(m[:3, :3], axis=0)
    rot = m[:3, :3] / np.where(scale > 0, scale, 1.0)
    if np.linalg.det(rot) < 0:  # a mirror: report it as a negative x scale
        scale[0], rot[:, 0] = -scale[0], -rot[:, 0]
    q = Q.from_matrix(Q.orthonormalize(rot)) if np.all(scale != 0) else np.array([1.0, 0, 0, 0])
    if q[0] < 0:  # one of the two signs, the one a reader expects
        q = -q
    return m[:3, 3], q, scale


def _num(v: float, width: int = 9) -> str:
    v = 0.0 if abs(v) < 5e-7 else v  # no "-0.000000"
    return f"{v:{width}.4f}" if abs(v) < 1e5 else f"{v:{width}.3e}"


def _name(name, index) -> str:
    return f"{name} (#{index})" if name else f"#{index}"


def format_report(report: dict) -> str:
    """The readable table ``quatlab pose`` prints (the JSON report as text)."""
    anim = report["animation"]
    if anim is None:
        what = _("no animation (rest pose)")
    else:
        what = _("animation {name} [{start:g}, {end:g}] s").format(
            name=_name(anim["name"], anim["index"]), start=anim["start"], end=anim["end"])
    lines = [_("{file}: {what}, time {time:g} s, {player} player").format(
        file=report["file"], what=what, time=report["time"], player=report["player"]), ""]
    names = [_name(n["name"], n["index"]) for n in report["nodes"]]
    width = max([4, *(len(n) for n in names)])
    lines.append("  ".join((
        _pad(_("node"), width), _pad(_("parent"), 6, ">"),
        _pad(_("world position (x, y, z)"), 29, "^"),
        _pad(_("world rotation (w, x, y, z)"), 39, "^"), _pad(_("scale"), 9, ">"),
        _pad(_("turn (°)"), 8, ">"))))
    for node, name in zip(report["nodes"], names, strict=True):
        pos, q, scale = _decompose(node["world"])
        parent = "—" if node["parent"] is None else f"#{node['parent']}"
        angle = math.degrees(2 * math.atan2(math.sqrt(max(0.0, 1 - q[0] ** 2)), q[0]))
        same = abs(scale[0] - scale[1]) < 1e-6 and abs(scale[0] - scale[2]) < 1e-6
        sc = _num(scale[0]) if same else _pad(_("non-uniform"), 9, ">")
        lines.append(f"{name:<{width}}  {parent:>6}  {' '.join(_num(v) for v in pos)}  "
                     f"{' '.join(_num(v) for v in q)}  {sc}  {angle:8.2f}")
    for skin in report["skins"]:
        lines += ["", _("skin {name}: {n} joints, world positions").format(
            name=_name(skin["name"], skin["index"]), n=len(skin["joints"]))]
        jn = [_name(j["name"], j["node"]) for j in skin["joints"]]
        jw = max([5, *(len(n) for n in jn)])
        for j, name in zip(skin["joints"], jn, strict=True):
            lines.append(f"  {name:<{jw}}  {' '.join(_num(v) for v in j['position'])}")
    return "\n".join(lines)
