"""``quatlab check DIR --dask ADDRESS``: check a library on a Dask cluster (``quatlab[dask]``).

The files go to the workers in chunks (``Client.submit`` per chunk, as
``--jobs`` does with processes) and their results come back as they finish
(``distributed.as_completed``), so the report streams. A worker that dies
while checking (a file that crashes the reader, runs out of memory, or a
machine lost) loses nothing:

* the scheduler runs a task again once after its worker died and gives up
  (``KilledWorker``) the second time (``allowed-failures: 1``);
* a chunk given up on is sent again one file per task, so the other files of
  the chunk are checked; a single file given up on, that is one that killed
  the workers twice, is reported ``unreadable`` with ``"killed_workers":
  true`` and the sweep goes on.

``--dask local[:N]`` starts a :class:`distributed.LocalCluster` of N worker
processes (default: the CPU count), one thread each, with those settings. On
a real cluster the scheduler's own configuration decides; docs/pipeline.md
says which settings to give it. Each worker checks in the language of the
command (JSON errors are English). No Qt.
"""

from __future__ import annotations

import os

from quatlab.app.i18n import _

__all__ = ["dask_problem", "dask_results", "local_cluster", "CLUSTER_CONFIG", "DaskUnreachable"]

PROG = "quatlab check"

#: The scheduler settings this module relies on (docs/pipeline.md, "Dask"): retry a task
#: once after its worker dies, and give a worker no more tasks than it has threads, so that
#: a death is charged to the task that was running, not to the ones queued behind it.
CLUSTER_CONFIG = {
    "distributed.scheduler.allowed-failures": 1,
    "distributed.scheduler.worker-saturation": 1.0,
}

#: How long to try to reach a scheduler before giving up.
CONNECT_TIMEOUT = "20s"


class DaskUnreachable(RuntimeError):
    """The scheduler could not be reached; ``str()`` is the one-line reason."""


# Files per task: each task costs about 10 ms of scheduler, client and worker time
# (measured: 2,000 small files took 6.7 s of CPU in chunks of 16, 5.5 s in chunks of 64),
# and a chunk that kills its worker is checked again file by file, so a crash costs a
# chunk's retry, not the sweep. About eight chunks per worker still balance the tail.
_MAX_CHUNK = 64


def _missing() -> str | None:
    try:
        import distributed  # noqa: F401
    except ImportError:
        return _("--dask needs Dask: pip install 'quatlab[dask]'")
    return None


def _local_workers(address: str) -> int | None:
    """N of ``local[:N]`` (the CPU count for ``local``), None for a scheduler address."""
    name, _sep, count = address.partition(":")
    if name != "local":
        return None
    if not count:
        return os.cpu_count() or 1
    if not count.isdigit() or not 1 <= int(count) <= 256:
        raise ValueError(count)
    return int(count)


def dask_problem(address: str) -> str | None:
    """Why ``--dask ADDRESS`` cannot run (one line), else None."""
    try:
        _local_workers(address)
    except ValueError:
        return _("--dask {address}: expected local, local:N (N from 1 to 256) or a "
                 "scheduler address such as tcp://host:8786").format(address=address)
    return _missing()


def local_cluster(workers: int):
    """A :class:`distributed.LocalCluster` of ``workers`` processes with :data:`CLUSTER_CONFIG`."""
    import dask
    from distributed import LocalCluster

    with dask.config.set(CLUSTER_CONFIG):
        # Port 0: any free port, for the scheduler and its HTTP server alike (8787, the
        # default, may be another user's cluster on a shared machine).
        return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                            scheduler_port=0, dashboard_address=":0")


def _check_on_worker(paths: list[str], order: str | None, full: bool,
                     lang: str) -> list[dict]:
    """One task: :func:`~quatlab.app.commands.check_dir.check_one` per file, in ``lang``."""
    from quatlab.app.commands import check_dir
    from quatlab.app.i18n import current_language, set_language

    if current_language() != lang:
        set_language(lang)
    return [check_dir.check_one(p, order, full) for p in paths]


def _killed(path: str) -> dict:
    return {"file": path, "status": "unreadable", "tracks": 0, "findings": 0, "kinds": {},
            "error": _("{file}: the worker checking this file died, twice; not checked "
                       "(a crash or running out of memory while reading it)").format(file=path),
            "inputs": [], "killed_workers": True}


def dask_results(paths, *, address: str, order: str | None = None, full: bool = False,
                 progress=None):
    """Yield :func:`~quatlab.app.commands.check_dir.check_one` results as the cluster finishes.

    Raises :class:`DaskUnreachable` when the scheduler cannot be reached.
    """
    from distributed import Client, KilledWorker, as_completed

    from quatlab.app.commands.check_dir import _preload
    from quatlab.app.i18n import current_language
    from quatlab.app.io.reports.inputs import fingerprint

    paths = [str(p) for p in paths]
    if not paths:
        return
    _preload()
    workers = _local_workers(address)
    cluster = local_cluster(workers) if workers else None
    lang = current_language()
    try:
        client = Client(cluster if cluster is not None else address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:
        if cluster is not None:
            cluster.close()
        raise DaskUnreachable(_("cannot reach the Dask scheduler at {address}: {error}").format(
            address=address, error=exc)) from None
    try:
        n = max(1, len(client.scheduler_info().get("workers", {})) or workers or 1)
        size = max(1, min(_MAX_CHUNK, len(paths) // (n * 8) or 1))
        chunks = {}
        for i in range(0, len(paths), size):
            chunk = paths[i:i + size]
            chunks[client.submit(_check_on_worker, chunk, order, full, lang, pure=False)] = chunk
        done = 0
        pending = as_completed(list(chunks))
        for future in pending:
            chunk = chunks.pop(future)
            try:
                results = future.result()
            except KilledWorker:
                if len(chunk) > 1:     # find the file that did it: one task per file
                    for path in chunk:
                        again = client.submit(_check_on_worker, [path], order, full, lang,
                                              pure=False)
                        chunks[again] = [path]
                        pending.add(again)
                    continue
                results = [_killed(chunk[0])]
                first = fingerprint(chunk[0])
                results[0]["inputs"] = [first] if first else []
            for result in results:
                done += 1
                if progress:
                    progress(done)
                yield result
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
