"""``quatlab check DIR``: audit every keyframe file in a folder tree, one line each, then a summary.

The folder is walked recursively for ``.gltf``, ``.glb``, ``.bvh``, ``.fbx``, ``.csv``,
``.json`` and USD (``.usda``, ``.usdc``, ``.usdz``, ``.usd``) files
(docs/formats.md, "quatlab check DIR"). The walk never
leaves the folder: symlinked folders are not entered, and a symlinked file
is checked only when it resolves to a regular file inside the folder; FIFOs,
devices and sockets are skipped (reading them could block). Every file is
read and audited as ``quatlab check FILE`` would (both families for BVH).

``--jobs N`` spreads the files over N processes
(:class:`concurrent.futures.ProcessPoolExecutor`). The files go out in
chunks, so a folder of many small files pays the start-up of a worker and
the round trip per chunk, not per file; the modules a worker needs are
imported in the parent before the pool starts (a forked worker inherits
them) and never at this module's import, so ``quatlab check FILE`` stays
as quick as before. On a terminal a progress bar runs on stderr.

Exit status: 0 no findings, 1 findings, 2 a file could not be read (the
report names it). With ``--json`` every file is one JSON line, then a
``{"summary": ...}`` line. No Qt.
"""

from __future__ import annotations

import os
import stat
import sys
import unicodedata
from pathlib import Path

from quatlab.app.i18n import _

__all__ = [
    "SUFFIXES",
    "add_dir_arguments",
    "walk_keyframe_files",
    "check_one",
    "check_files",
    "run_dir",
    "pad",
    "text_width",
]

PROG = "quatlab check"

#: Suffixes (lower case) that ``quatlab check DIR`` reads.
SUFFIXES = (".gltf", ".glb", ".bvh", ".fbx", ".csv", ".json", ".usda", ".usdc", ".usdz",
            ".usd")

# Files per chunk sent to a worker: big enough that the round trip is
# small next to the work, small enough to keep every worker busy to the end.
_MAX_CHUNK = 32


def add_dir_arguments(parser) -> None:
    """``--jobs N`` (and ``--dask``, ``--resume``) for ``quatlab check`` on a folder."""
    from quatlab.app.commands.check_sweep import add_sweep_arguments

    parser.add_argument(
        "--jobs", type=_positive, default=1, metavar="N",
        help=_("with a folder: check files in N processes (default 1)"),
    )
    add_sweep_arguments(parser)


def _positive(text: str) -> int:
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text!r} is not a whole number").format(
            text=text)) from None
    if not 1 <= value <= 256:
        raise argparse.ArgumentTypeError(_("{value} is not between 1 and 256").format(
            value=value))
    return value


# --------------------------------------------------------------------------- walking


def walk_keyframe_files(root) -> tuple[list[Path], list[tuple[Path, str]]]:
    """The keyframe files under ``root`` (sorted) and what was skipped, with why.

    Only names ending in :data:`SUFFIXES` are considered. Symlinked folders
    are never entered; a symlink to a file counts only when its target is
    a regular file inside ``root``; anything that is not a regular file
    (FIFO, device, socket) is skipped without being opened.
    """
    root = Path(root)
    real_root = os.path.realpath(root)
    files: list[Path] = []
    skipped: list[tuple[Path, str]] = []
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            skipped.append((folder, _("folder cannot be listed: {error}").format(
                error=exc.strerror or exc)))
            continue
        subfolders = []
        for entry in entries:
            path = Path(entry.path)
            try:
                if entry.is_symlink():
                    if entry.name.lower().endswith(SUFFIXES) or _is_dir(path):
                        reason = _symlink_reason(path, real_root)
                        if reason is None:
                            files.append(path)
                        else:
                            skipped.append((path, reason))
                    continue
                if entry.is_dir(follow_symlinks=False):
                    subfolders.append(path)
                    continue
                if not entry.name.lower().endswith(SUFFIXES):
                    continue
                if entry.is_file(follow_symlinks=False):
                    files.append(path)
                else:
                    skipped.append((path, _("not a regular file (FIFO, device or socket)")))
            except OSError as exc:
                skipped.append((path, _("cannot be examined: {error}").format(
                    error=exc.strerror or exc)))
        stack.extend(reversed(subfolders))
    files.sort(key=lambda p: p.parts)
    return files, skipped


def _is_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except OSError:
        return False


def _symlink_reason(path: Path, real_root: str) -> str | None:
    """None when the symlink ``path`` may be checked, else why it is skipped."""
    target = os.path.realpath(path)
    if os.path.commonpath([real_root, target]) != real_root:
        return _("symlink to outside the folder (not followed)")
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return _("broken symlink")
    if stat.S_ISDIR(mode):
        return _("symlink to a folder (not followed)")
    if not stat.S_ISREG(mode):
        return _("symlink to something that is not a regular file")
    return None


# --------------------------------------------------------------------------- checking


def _preload() -> None:
    """Import what :func:`check_one` needs (numpy, readers, audits) once per process."""
    import quatlab.app.io.bvh.keyframes  # noqa: F401
    import quatlab.app.io.fbx.keyframes  # noqa: F401
    import quatlab.app.io.keyframe_files  # noqa: F401


def check_one(path, order: str | None = None, full: bool = False) -> dict:
    """Audit one file: a folder report's line (docs/report.md).

    ``status`` is ``"ok"``, ``"findings"`` or ``"unreadable"`` (then
    ``error`` is the one-line reason). ``kinds`` counts findings by kind;
    ``details`` lists the tracks with findings (``full``: every track, and
    each finding's message); ``inputs`` fingerprints the files read (for
    ``--resume``).
    """
    from quatlab.app.io.bvh.keyframes import audit_keyframes
    from quatlab.app.io.keyframe_files import load_keyframes
    from quatlab.app.io.reports.inputs import fingerprint
    from quatlab.app.io.tracks import KeyframeFileError

    # Taken before the file is read: if it changes meanwhile, --resume sees the change.
    first = fingerprint(path)
    out = {"file": str(path), "status": "unreadable", "tracks": 0, "findings": 0,
           "kinds": {}, "error": None, "inputs": [first] if first else []}
    try:
        # A file swapped for a FIFO after the walk must not block a worker.
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise KeyframeFileError(path, _("not a regular file (FIFO, device or socket)"))
        keyframes = load_keyframes(path, order=order)
        reports = audit_keyframes(keyframes)
    except (KeyframeFileError, OSError) as exc:
        out["error"] = str(exc) if isinstance(exc, KeyframeFileError) else \
            _("{file}: cannot read: {error}").format(file=path, error=exc.strerror or exc)
        return out
    except Exception as exc:  # noqa: BLE001 - one hostile file must not stop the folder
        out["error"] = _("{file}: unexpected {kind} while reading: {error}").format(
            file=path, kind=type(exc).__name__, error=exc)
        return out
    result = file_result(path, reports, full=full)
    others = [fingerprint(p) for p in keyframes.input_files[1:]]
    result["inputs"] = out["inputs"] + [f for f in others if f]
    return result


def file_result(path, reports, *, full: bool = False) -> dict:
    """A folder report's line for a file audited into ``reports`` (see :func:`check_one`)."""
    from collections import Counter

    kinds = Counter(f.kind for r in reports for f in r.findings)
    return {"file": str(path), "status": "findings" if kinds else "ok", "tracks": len(reports),
            "findings": sum(kinds.values()), "kinds": dict(kinds), "error": None,
            "details": [r.as_dict(messages=full) for r in reports if full or r.findings]}


def _check_chunk(paths: list[str], order: str | None, full: bool = False) -> list[dict]:
    return [check_one(p, order, full) for p in paths]


def _chunks(paths: list[str], jobs: int) -> list[list[str]]:
    # About eight chunks per worker balance the load; never more than _MAX_CHUNK files each.
    size = max(1, min(_MAX_CHUNK, len(paths) // (jobs * 8) or 1))
    return [paths[i:i + size] for i in range(0, len(paths), size)]


def check_files(paths, *, order: str | None = None, jobs: int = 1, progress=None,
                full: bool = False):
    """Yield :func:`check_one` results for ``paths`` in order, using ``jobs`` processes.

    ``progress(done)`` is called as files finish (done = files so far).
    """
    paths = [str(p) for p in paths]
    _preload()
    done = 0
    if jobs <= 1 or len(paths) <= 1:
        for p in paths:
            result = check_one(p, order, full)
            done += 1
            if progress:
                progress(done)
            yield result
        return
    from concurrent.futures import ProcessPoolExecutor

    chunks = _chunks(paths, jobs)
    with ProcessPoolExecutor(max_workers=min(jobs, len(chunks))) as pool:
        for results in pool.map(_check_chunk, chunks, [order] * len(chunks),
                                [full] * len(chunks)):
            for result in results:
                done += 1
                if progress:
                    progress(done)
                yield result


# --------------------------------------------------------------------------- output


class _Progress:
    """A one-line bar on stderr: only on a terminal, after the first second, ten times a second."""

    def __init__(self, total: int, stream=None):
        import time

        self.stream = stream or sys.stderr
        self.total = total
        self.enabled = total > 1 and getattr(self.stream, "isatty", lambda: False)()
        self._time = time.monotonic
        self.start = self._time()
        self.last = 0.0
        self.drawn = False

    def __call__(self, done: int) -> None:
        now = self._time()
        if not self.enabled or now - self.start < 1.0 or (now - self.last < 0.1 and
                                                          done < self.total):
            return
        width = 30
        filled = int(width * done / self.total)
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] "
                          + _("{done}/{total} files").format(done=done, total=self.total))
        self.stream.flush()
        self.last = now
        self.drawn = True

    def clear(self) -> None:
        if self.drawn:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
            self.drawn = False


def text_width(text: str) -> int:
    """Terminal columns ``text`` takes: CJK (wide) characters count two.

    >>> text_width("files"), text_width("文件")
    (5, 4)
    """
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, width: int, align: str = "<") -> str:
    """``text`` padded to ``width`` terminal columns (:func:`text_width`).

    >>> pad("ab", 4, ">"), pad("文件", 6) + "|"
    ('  ab', '文件  |')
    """
    room = max(0, width - text_width(text))
    if align == ">":
        return " " * room + text
    if align == "^":
        return " " * (room // 2) + text + " " * (room - room // 2)
    return text + " " * room


def _line(r: dict) -> str:
    if r["status"] == "unreadable":
        return _("{file}: unreadable: {problem}").format(file=r["file"], problem=_problem(r))
    tracks = (_("{n} rotation track") if r["tracks"] == 1 else _("{n} rotation tracks")).format(
        n=r["tracks"])
    if r["status"] == "ok":
        return _("{file}: {tracks}, no findings").format(file=r["file"], tracks=tracks)
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(r["kinds"].items()))
    findings = (_("{n} finding") if r["findings"] == 1 else _("{n} findings")).format(
        n=r["findings"])
    return _("{file}: {tracks}, {findings} ({kinds})").format(
        file=r["file"], tracks=tracks, findings=findings, kinds=kinds)


def _problem(r: dict) -> str:
    prefix = f"{r['file']}: "
    err = r["error"] or _("unreadable")
    return err[len(prefix):] if err.startswith(prefix) else err


def _summary_table(results: list[dict], skipped: int) -> list[str]:
    from collections import Counter

    rows: dict[str, Counter] = {}
    for r in results:
        fmt = Path(r["file"]).suffix.lower().lstrip(".")
        c = rows.setdefault(fmt, Counter())
        c["files"] += 1
        c[r["status"]] += 1
        c["count"] += r["findings"]
    total = sum(rows.values(), Counter())
    widths = (8, 7, 7, 9, 12, 10)
    head = pad(_("format"), widths[0]) + "".join(
        pad(" " + name, w, ">") for name, w in zip(
            (_("files"), _("clean"), _("flagged"), _("unreadable"), _("findings")), widths[1:],
            strict=True))
    rule = "-" * text_width(head)
    out = ["", head, rule]
    for fmt, c in sorted(rows.items()) + [(None, total)]:
        if fmt is None:
            out.append(rule)
        out.append(pad(fmt or _("total"), widths[0]) + "".join(
            f"{v:>{w}}" for v, w in zip((c["files"], c["ok"], c["findings"], c["unreadable"],
                                         c["count"]), widths[1:], strict=True)))
    kinds = Counter()
    for r in results:
        kinds.update(r["kinds"])
    if kinds:
        out.append(_("findings by kind: {kinds}").format(
            kinds=", ".join(f"{k} {n}" for k, n in kinds.most_common())))
    if skipped:
        out.append((_("skipped {n} entry (see above)") if skipped == 1
                    else _("skipped {n} entries (see above)")).format(n=skipped))
    out += _rankings(results)
    bad = [r for r in results if r["status"] == "unreadable"]
    if bad:
        out.append(_("unreadable ({n}): {files}").format(
            n=len(bad), files=", ".join(r["file"] for r in bad)))
    return out


def _rankings(results: list[dict]) -> list[str]:
    """The files and the joints with the most findings (docs/report.md), as text rows."""
    from quatlab.app.io.reports.ranking import top_files, top_joints

    out = []
    files, joints = top_files(results), top_joints(results)
    if files:
        out.append(_("files with the most findings:"))
        out += [f"  {r['findings']:>8}  {r['file']}" for r in files]
    if joints:
        out.append(_("joints with the most findings:"))
        out += ["  " + f"{r['findings']:>8}  " + (_("{joint} (in {n} file)") if r["files"] == 1
                else _("{joint} (in {n} files)")).format(joint=r["joint"], n=r["files"])
                for r in joints]
    return out


def _walk_and_check(args, roots: list[Path], results: list, json, full: bool) -> list:
    """Walk the folders among ``roots`` (the others are files), print the skipped entries and
    each file's result as it comes; returns the skipped."""
    from quatlab.app.commands.check_sweep import sweep

    files, skipped = [], []
    for root in roots:
        if root.is_dir():
            found, passed = walk_keyframe_files(root)
            files += found
            skipped += passed
        else:
            files.append(root)
    bar = _Progress(len(files))
    try:
        for path, reason in skipped:
            results.append({"file": str(path), "status": "skipped", "reason": reason})
            if args.json:
                print(json.dumps(results[-1]))
            else:
                print(_("{file}: skipped: {reason}").format(file=path, reason=reason))
        for r in sweep(args, files, full=full, progress=bar):
            results.append(r)
            bar.clear()
            print(json.dumps(r, allow_nan=False) if args.json else _line(r), flush=bar.enabled)
    finally:
        bar.clear()
    return skipped


def run_dir(args) -> int:
    """``quatlab check DIR|FILE... [--json] [--jobs N] [--order ...]``; see the module docstring.

    Several paths (files, folders) make one report, as one folder does.
    """
    import json

    from quatlab.app.commands.check_dask import DaskUnreachable
    from quatlab.app.commands.check_outputs import check_targets, wants_details, write_outputs
    from quatlab.app.commands.check_sweep import sweep_problem
    from quatlab.app.commands.common import fail, in_english

    roots = [Path(p) for p in args.file]
    folder = str(roots[0]) if len(roots) == 1 else None  # a list of paths has no one folder
    problem = check_targets(args) or sweep_problem(args)
    if problem:
        return fail(PROG, problem)
    entries: list[dict] = []  # the skipped entries and the files, as the report lists them
    full = wants_details(args)
    try:
        with in_english(args.json or full):  # JSON and JUnit reasons and errors are English
            skipped = _walk_and_check(args, roots, entries, json, full)
    except DaskUnreachable as exc:
        return fail(PROG, str(exc))
    results = [r for r in entries if r["status"] != "skipped"]
    counts = {s: sum(r["status"] == s for r in results) for s in ("ok", "findings", "unreadable")}
    status = 2 if counts["unreadable"] else 1 if counts["findings"] else 0
    if args.json:
        from collections import Counter

        from quatlab.app.io.reports.ranking import top_files, top_joints
        from quatlab.app.io.reports.schema import schema_id

        kinds = Counter()
        for r in results:
            kinds.update(r["kinds"])

        print(json.dumps({"summary": {"schema": schema_id(), "folder": folder,
                                      "files": len(results),
                                      "clean": counts["ok"], "flagged": counts["findings"],
                                      "unreadable": counts["unreadable"],
                                      "skipped": len(skipped), "exit": status,
                                      "resumed": sum(bool(r.get("resumed")) for r in results),
                                      "kinds": dict(kinds.most_common()),
                                      "top_files": top_files(results),
                                      "top_joints": top_joints(results)}}))
    elif not results:
        print(_("{folder}: no keyframe files ({suffixes}) in this folder").format(
            folder=", ".join(map(str, roots)), suffixes=", ".join(SUFFIXES)))
    else:
        print("\n".join(_summary_table(results, len(skipped))))
    problem = write_outputs(args, entries)
    if problem:
        return fail(PROG, problem)
    if counts["unreadable"]:
        print(PROG + ": " + (_("{n} file could not be read: {files}") if counts["unreadable"] == 1
                             else _("{n} files could not be read: {files}")).format(
            n=counts["unreadable"], files=", ".join(r["file"] for r in results
                                                     if r["status"] == "unreadable")),
              file=sys.stderr)
    return status
