"""``quatlab check``: audit the rotation keyframes of a glTF, BVH, FBX, CSV or JSON file or folder.

Exit status: 0 when there are no findings, 1 when there are, 2 when the file
cannot be read (one line on stderr).
"""

from __future__ import annotations

import json
import os
import sys

from quatlab.app.commands.check_dir import add_dir_arguments
from quatlab.app.commands.common import add_order_argument, shown
from quatlab.app.i18n import _

__all__ = ["add_parser", "run"]

PROG = "quatlab check"


def add_parser(subparsers):
    p = subparsers.add_parser(
        "check",
        help=_("audit rotation keyframes: sign flips, half turns, bad keys, time order"),
        description=_(
            "Audit every rotation track of FILE (glTF .gltf/.glb, BVH, FBX, or CSV/JSON tracks) "
            "and "
            "say, for each finding, what a spec-conforming SLERP player and a naive NLERP "
            "runtime do with it. Keys are counted from 0. Exit status: 0 no findings, "
            "1 findings, 2 the file cannot be read."
        ),
    )
    p.add_argument("file", metavar="FILE", nargs="?",
                   help=_("keyframe file (.gltf, .glb, .csv, .json, .bvh, .fbx) or a folder of "
                          "them"))
    p.add_argument("--sample", metavar="NAME",
                   help=_("check a sample file shipped with QuatLab instead (e.g. "
                          "AnimatedTriangle; --sample list lists them)"))
    p.add_argument("--json", action="store_true", help=_("print the report as JSON"))
    add_order_argument(p)
    add_dir_arguments(p)  # FILE may be a folder (docs/formats.md, "quatlab check DIR")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from quatlab.app.commands.common import fail
    from quatlab.app.io.bvh.keyframes import audit_keyframes
    from quatlab.app.io.keyframe_files import load_keyframes
    from quatlab.app.io.tracks import KeyframeFileError

    if args.sample is not None:
        if args.file is not None:
            return fail(PROG, _("give either FILE or --sample NAME, not both"))
        samples = sample_files()
        if args.sample == "list":
            for name, path in samples.items():
                print(f"{name:20s} {path}")
            return 0
        if args.sample not in samples:
            return fail(PROG, _("no sample {name!r}; samples: {samples}").format(
                name=args.sample, samples=", ".join(samples)))
        args.file = str(samples[args.sample])
    elif args.file is None:
        return fail(PROG, _("give a FILE to check (or --sample NAME)"))
    if os.path.isdir(args.file):
        from quatlab.app.commands.check_dir import run_dir

        return run_dir(args)
    try:
        keyframes = load_keyframes(args.file, order=args.order)
    except (KeyframeFileError, OSError) as exc:
        return fail(PROG, str(exc))
    reports = audit_keyframes(keyframes)  # BVH adds its Euler findings
    total = sum(len(r.findings) for r in reports)
    status = 1 if total else 0
    try:
        if args.json:
            _print_json(args.file, reports)
        else:
            _print_text(args.file, reports, total)
        sys.stdout.flush()
    except BrokenPipeError:
        # `quatlab check --json FILE | head`: the reader left early. The
        # status still says whether there are findings.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the exit flush
    return status


def sample_files() -> dict:
    """The sample keyframe files shipped in the package: name -> path (docs/formats.md)."""
    from importlib import resources

    folder = resources.files("quatlab.assets").joinpath("samples")
    return {
        p.name.rsplit(".", 1)[0]: p
        for p in sorted(folder.iterdir(), key=lambda p: p.name)
        if p.name.endswith((".gltf", ".glb"))
    }


def _print_json(file: str, reports) -> None:
    """The report as one JSON document, written track by track (never whole in memory)."""
    out = sys.stdout
    out.write('{\n  "file": ' + json.dumps(file) + ',\n  "tracks": [')
    for i, r in enumerate(reports):
        text = json.dumps(r.as_dict(), indent=2, allow_nan=False)
        out.write(("," if i else "") + "\n    " + text.replace("\n", "\n    "))
    out.write("\n  ]\n}\n" if reports else "]\n}\n")


def _print_text(file: str, reports, total: int) -> None:
    from quatlab.app.io.track_audit import format_keys

    def findings(n: int) -> str:
        return (_("{n} finding") if n == 1 else _("{n} findings")).format(n=n)

    n = len(reports)
    tracks = (_("{n} rotation track") if n == 1 else _("{n} rotation tracks")).format(n=n)
    print(_("{file}: {tracks}, {findings}").format(
        file=shown(file), tracks=tracks, findings=findings(total) if total else _("no findings")))
    for r in reports:
        t = r.track
        print("  " + _("{track}: {interpolation}, {n} keys ({storage}): {summary}").format(
            track=shown(t.label), interpolation=t.interpolation, n=len(t), storage=t.storage,
            summary=findings(len(r.findings)) if r.findings else _("ok")))
        for f in r.findings:
            print("    " + _("{kind} (keys {keys}): {message}").format(
                kind=f.kind, keys=format_keys(f.keys), message=_(f.message)))
