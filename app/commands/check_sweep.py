"""Where ``quatlab check DIR`` gets its results: ``--resume``, then serial, --jobs or --dask.

``--resume REPORT.jsonl`` takes a file's line from an earlier report when the
file (and every file it read) still has the same size, modification time and
SHA-256 (:mod:`quatlab.app.io.reports.inputs`); the line is printed again,
marked ``"resumed": true``, so the new report is whole. The other files are
checked in this process, in ``--jobs N`` processes
(:func:`~quatlab.app.commands.check_dir.check_files`), or on a Dask cluster
(``--dask``, :mod:`.check_dask`), and come as they finish. No Qt.
"""

from __future__ import annotations

from quatlab.app.i18n import _

__all__ = ["add_sweep_arguments", "sweep", "sweep_problem"]


def add_sweep_arguments(parser) -> None:
    """``--dask ADDRESS`` and ``--resume REPORT``."""
    parser.add_argument(
        "--dask", metavar="ADDRESS",
        help=_("with a folder: check the files on a Dask cluster: a scheduler's address "
               "(tcp://host:8786), or local[:N] for N worker processes on this machine "
               "(needs quatlab[dask])"))
    parser.add_argument(
        "--resume", metavar="REPORT",
        help=_("with a folder: take the results of an earlier --json report (JSON Lines) for "
               "files whose size, time and SHA-256 are unchanged, and check only the rest"))


def sweep_problem(args) -> str | None:
    """Why the sweep cannot start (one line), else None; checked before the walk."""
    if getattr(args, "dask", None):
        from quatlab.app.commands.check_dask import dask_problem

        problem = dask_problem(args.dask)
        if problem:
            return problem
    if getattr(args, "resume", None):
        try:
            with open(args.resume, "rb"):
                pass
        except OSError as exc:
            return _("{file}: cannot read: {error}").format(file=args.resume,
                                                             error=exc.strerror or exc)
    return None


def sweep(args, files, *, full: bool, progress=None):
    """Yield a result line per file of ``files``: reused (``--resume``) or checked."""
    from quatlab.app.commands.check_dir import check_files

    todo = list(files)
    done = 0
    if getattr(args, "resume", None):
        from quatlab.app.io.reports.inputs import earlier_results, reusable, unchanged

        earlier = earlier_results(args.resume)
        todo = []
        for path in files:
            line = earlier.get(str(path))
            if line is not None and reusable(line, full=full) and unchanged(line["inputs"]):
                done += 1
                if progress:
                    progress(done)
                yield {**line, "resumed": True}
            else:
                todo.append(path)
    offset = done

    def step(n: int) -> None:
        if progress:
            progress(offset + n)

    if getattr(args, "dask", None):
        from quatlab.app.commands.check_dask import dask_results

        yield from dask_results(todo, address=args.dask, order=args.order, full=full,
                                progress=step)
    else:
        yield from check_files(todo, order=args.order, jobs=args.jobs, progress=step, full=full)
