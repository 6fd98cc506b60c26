"""``quatlab check``: audit the rotation keyframes of a glTF, BVH, FBX, USD, CSV or JSON file or
folder.

Exit status: 0 when there are no findings, 1 when there are, 2 when the file
cannot be read (one line on stderr).
"""

from __future__ import annotations

import json
import os
import sys

from quatlab.app.commands.check_dir import add_dir_arguments
from quatlab.app.commands.check_outputs import add_output_arguments
from quatlab.app.commands.check_runtimes import add_runtime_arguments
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
    p.add_argument("file", metavar="FILE", nargs="*",
                   help=_("keyframe file (.gltf, .glb, .csv, .json, .bvh, .fbx, .usda, .usdc, "
                          ".usdz, .usd) or a folder of them; several are reported as a folder "
                          "is"))
    p.add_argument("--sample", metavar="NAME",
                   help=_("check a sample file shipped with QuatLab instead (e.g. "
                          "AnimatedTriangle; --sample list lists them)"))
    p.add_argument("--json", action="store_true", help=_("print the report as JSON"))
    p.add_argument("--schema", action="store_true",
                   help=_("print the JSON Schema that --json follows (docs/report.md) and exit"))
    add_order_argument(p)
    add_output_arguments(p)  # --junit FILE (docs/report.md)
    add_dir_arguments(p)  # FILE may be a folder (docs/formats.md, "quatlab check DIR")
    add_runtime_arguments(p)  # docs/runtimes.md
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from quatlab.app.commands.check_dir import file_result
    from quatlab.app.commands.check_outputs import check_targets, wants_details, write_outputs
    from quatlab.app.commands.common import fail, in_english
    from quatlab.app.io.bvh.keyframes import audit_keyframes
    from quatlab.app.io.keyframe_files import load_keyframes
    from quatlab.app.io.tracks import KeyframeFileError

    if args.schema:
        from quatlab.app.io.reports.schema import schema_text

        sys.stdout.write(schema_text())
        return 0
    if args.sample is not None:
        if args.file:
            return fail(PROG, _("give either FILE or --sample NAME, not both"))
        samples = sample_files()
        if args.sample == "list":
            for name, path in samples.items():
                print(f"{name:20s} {path}")
            return 0
        if args.sample not in samples:
            return fail(PROG, _("no sample {name!r}; samples: {samples}").format(
                name=args.sample, samples=", ".join(samples)))
        args.file = [str(samples[args.sample])]
    elif not args.file:
        return fail(PROG, _("give a FILE to check (or --sample NAME)"))
    by_runtime = args.runtimes is not None or args.after is not None
    if len(args.file) > 1 or os.path.isdir(args.file[0]):
        if by_runtime:
            return fail(PROG, _("--runtimes and --after check one file, not a folder or "
                                "several files"))
        from quatlab.app.commands.check_dir import run_dir

        return run_dir(args)
    (path,) = args.file
    problem = check_targets(args)
    if problem:
        return fail(PROG, problem)
    if by_runtime:
        from quatlab.app.commands.check_runtimes import parse_options

        try:
            runtimes, steps = parse_options(args)
        except ValueError as exc:
            return fail(PROG, str(exc))
    try:
        with in_english(wants_details(args)):  # the JUnit file's error is English
            keyframes = load_keyframes(path, order=args.order)
        if not by_runtime:
            reports = audit_keyframes(keyframes)  # BVH adds its Euler findings
    except (KeyframeFileError, OSError) as exc:
        problem = write_outputs(args, [{"file": path, "status": "unreadable",
                                        "error": str(exc)}])
        return fail(PROG, problem or str(exc))
    except MemoryError:
        return fail(PROG, _("{file}: not enough memory to read and audit this file").format(
            file=path))
    if by_runtime:
        return _run_runtimes(path, keyframes, runtimes, steps, args.json)
    total = sum(len(r.findings) for r in reports)
    status = 1 if total else 0
    problem = write_outputs(args, [file_result(path, reports, full=True)])
    if problem:
        return fail(PROG, problem)
    try:
        if args.json:
            _print_json(path, reports, keyframes.notes)
        else:
            _print_text(path, reports, total, keyframes.notes)
        sys.stdout.flush()
    except BrokenPipeError:
        # `quatlab check --json FILE | head`: the reader left early. The
        # status still says whether there are findings.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the exit flush
    return status


def _run_runtimes(file, keyframes, runtimes, steps, as_json: bool) -> int:
    """The audit of the file (after ``steps``) and the findings x runtimes table."""
    from quatlab.app.commands import check_runtimes
    from quatlab.app.io.runtime_check import runtime_matrix

    matrix = runtime_matrix(keyframes, runtimes, steps)
    total = sum(len(r.findings) for r in matrix.reports)
    glitches = [r for r in matrix.glitching() if r != matrix.reference]
    try:
        if as_json:
            _print_json(file, matrix.reports, keyframes.notes,
                        {"after": list(matrix.steps), "runtimes": matrix.as_dict()})
        else:
            _print_text(file, matrix.reports, total, keyframes.notes)
            check_runtimes.print_text(matrix)
        sys.stdout.flush()
    except BrokenPipeError:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the exit flush
    return 1 if total or glitches else 0


def sample_files() -> dict:
    """The sample keyframe files shipped in the package: name -> path (docs/formats.md)."""
    from importlib import resources

    folder = resources.files("quatlab.assets").joinpath("samples")
    return {
        p.name.rsplit(".", 1)[0]: p
        for p in sorted(folder.iterdir(), key=lambda p: p.name)
        if p.name.endswith((".gltf", ".glb"))
    }


def _print_json(file: str, reports, notes=(), sections: dict | None = None) -> None:
    """The report as one JSON document (docs/report.md), written track by track (never whole
    in memory); ``sections`` adds optional top-level parts (``after``, ``runtimes``) after the
    tracks."""
    from quatlab.app.io.reports.schema import schema_id

    out = sys.stdout
    # Notes are LazyTexts: English here, as JSON always is.
    out.write('{\n  "schema": ' + json.dumps(schema_id()) + ',\n  "file": ' + json.dumps(file)
              + ',\n  "notes": ' + json.dumps([str(n) for n in notes]) + ',\n  "tracks": [')
    for i, r in enumerate(reports):
        text = json.dumps(r.as_dict(), indent=2, allow_nan=False)
        out.write(("," if i else "") + "\n    " + text.replace("\n", "\n    "))
    out.write("\n  ]" if reports else "]")
    for name, value in (sections or {}).items():
        text = json.dumps(value, indent=2, allow_nan=False)
        out.write(",\n  " + json.dumps(name) + ": " + text.replace("\n", "\n  "))
    out.write("\n}\n")


def _print_text(file: str, reports, total: int, notes=()) -> None:
    from quatlab.app.io.track_audit import format_keys

    def findings(n: int) -> str:
        return (_("{n} finding") if n == 1 else _("{n} findings")).format(n=n)

    n = len(reports)
    tracks = (_("{n} rotation track") if n == 1 else _("{n} rotation tracks")).format(n=n)
    print(_("{file}: {tracks}, {findings}").format(
        file=shown(file), tracks=tracks, findings=findings(total) if total else _("no findings")))
    for note in notes:
        print("  " + _("note: {note}").format(note=shown(_(note))))
    for r in reports:
        t = r.track
        print("  " + _("{track}: {interpolation}, {n} keys ({storage}): {summary}").format(
            track=shown(t.label), interpolation=t.interpolation, n=len(t), storage=t.storage,
            summary=findings(len(r.findings)) if r.findings else _("ok")))
        for f in r.findings:
            print("    " + _("{kind} (keys {keys}): {message}").format(
                kind=f.kind, keys=format_keys(f.keys), message=_(f.message)))
