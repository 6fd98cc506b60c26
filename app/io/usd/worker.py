"""The child process that runs usd-core for :mod:`quatlab.app.io.usd.isolate`. No Qt.

``python -I -m quatlab.app.io.usd.worker`` reads one request (an ``.npz`` from
:func:`~quatlab.app.io.usd.isolate.encode`) on stdin, limits its own address space
and CPU time, runs the operation and writes one reply on stdout. Anything usd-core
prints goes to stderr: file descriptor 1 is pointed at stderr before ``pxr`` is
imported, and the reply goes to a private copy of the original stdout.

An operation is ``op(path, params, arrays) -> (data, arrays)``; a
:class:`WorkerError` or any exception (``pxr.Tf.ErrorException`` included) becomes
the reply's ``error``, one line.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from quatlab.app.i18n import _, set_language
from quatlab.app.io.usd.isolate import decode, encode

__all__ = ["WorkerError", "main", "one_line"]


class WorkerError(Exception):
    """A refusal or failure the worker reports as the reply's ``error`` (one line, translated)."""


def one_line(exc: BaseException) -> str:
    """An exception as one line: of usd-core's errors, the last one's quoted message.

    >>> one_line(ValueError("\\n\\tError in 'F' at line 3 in file x.cpp : 'bad thing\\n'"))
    'bad thing'
    """
    text = " ".join(ln.strip() for ln in str(exc).splitlines() if ln.strip())
    if not text:
        return type(exc).__name__
    last = text.split("Error in ")[-1]
    # "Error in 'Fn' at line N in file F : 'message'": the message is what a user can act on.
    if " : '" in last:
        last = last.split(" : '", 1)[1].rstrip().rstrip("'").strip()
    return last or text


def _probe(path: Path, params: dict, arrays: dict) -> tuple[dict, dict]:
    """Open only the file's own layer (no composition): its format and whether it parses."""
    from pxr import Sdf  # noqa: PLC0415 - only the child imports usd-core

    layer = Sdf.Layer.FindOrOpen(os.fspath(path))
    if layer is None:
        raise WorkerError(_("usd-core cannot open it as a USD layer"))
    return {"format": layer.GetFileFormat().formatId,
            "root_prims": [p.name for p in layer.rootPrims]}, {}


def _operation(name: str):
    """The operation called ``name`` (imported when asked for: only the child runs them)."""
    if name == "probe":
        return _probe
    if name == "load":
        from quatlab.app.io.usd.stage_read import load  # noqa: PLC0415

        return load
    if name in ("write_copy", "write_layer"):
        from quatlab.app.io.usd import layer_write  # noqa: PLC0415

        return getattr(layer_write, name)
    return None


def _limit(memory: int, cpu: int) -> None:
    import resource  # noqa: PLC0415 - POSIX only, and only the child needs it

    for what, value in ((resource.RLIMIT_AS, memory), (resource.RLIMIT_CPU, cpu),
                        (resource.RLIMIT_CORE, 0)):
        soft, hard = resource.getrlimit(what)
        if value > 0 and (hard == resource.RLIM_INFINITY or value <= hard):
            resource.setrlimit(what, (value, hard))


def _handle(request: bytes) -> bytes:
    try:
        data, arrays = decode(request)
    except ValueError as exc:
        return encode({"error": f"malformed request: {exc}"})
    set_language(data.get("language") or "en")
    _limit(int(data.get("memory", 0)), int(data.get("cpu", 0)))
    op = _operation(str(data.get("op")))
    if op is None:
        return encode({"error": f"unknown operation {data.get('op')!r}"})
    try:
        result, out = op(Path(data["path"]), data.get("params") or {}, arrays)
    except WorkerError as exc:
        return encode({"error": str(exc)})
    except MemoryError:
        return encode({"error": _("usd-core ran out of the memory allowed while reading it")})
    except Exception as exc:  # noqa: BLE001 - whatever usd-core raises is one line
        return encode({"error": _("usd-core cannot read it: {error}").format(
            error=one_line(exc))})
    return encode(result, out)


def main() -> int:
    reply_fd = os.dup(1)
    os.dup2(2, 1)  # usd-core's prints (and ours) go to stderr, never into the reply
    sys.stdout = sys.stderr
    request = sys.stdin.buffer.read()
    reply = _handle(request)
    with os.fdopen(reply_fd, "wb") as out:
        out.write(reply)
    return 0


if __name__ == "__main__":
    sys.exit(main())
