"""Run ``usd-core`` in a child process and turn any death of it into one line. No Qt, no pxr.

``usd-core`` is C++: a malformed file can crash it. A text layer of 200,000 nested
``def`` blocks overflows its parser's stack (SIGSEGV), and a ``.usdc`` with a few
corrupted bytes makes it allocate until the machine swaps (docs/formats.md, "USD").
So QuatLab never opens a stage in its own process: :func:`call` starts
``python -m quatlab.app.io.usd.worker`` with

* an address-space limit (:data:`MEMORY_LIMIT`): an allocation past it fails at once
  (``std::bad_alloc``, which usd-core reports as an error) instead of swapping;
* a CPU-time limit and a wall-clock timeout (:data:`TIMEOUT`), after which it is killed;
* an environment without ``PXR_*`` variables (no plug-in paths, no resolver search
  paths), and Python's isolated mode (``-I``: no ``PYTHON*`` variables, no user site).

The request and the reply are ``.npz`` archives (one JSON text plus named arrays),
read back with ``allow_pickle=False``: whatever happens in the child, the parent only
ever decodes numbers and text. A reply whose ``error`` is set, a signal, a non-zero
exit, a timeout or a reply that cannot be decoded all become a
:class:`~quatlab.app.io.tracks.KeyframeFileError` naming the file.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np

from quatlab.app.i18n import _, current_language
from quatlab.app.io.tracks import KeyframeFileError
from quatlab.app.io.usd import INSTALL_HINT, usd_available

__all__ = ["Reply", "call", "encode", "decode", "MEMORY_LIMIT", "TIMEOUT", "WORKER_MODULE"]

#: The child's address-space limit (bytes). usd-core maps about 1.1 GB of address space to
#: open the longest shared file; a corrupted crate that asks for more fails fast instead.
MEMORY_LIMIT = 4 << 30
#: Seconds the child may take (wall clock; CPU time gets the same limit).
TIMEOUT = 120.0
#: The child's entry point.
WORKER_MODULE = "quatlab.app.io.usd.worker"
#: Key of the JSON text in a request or reply archive.
JSON_KEY = "__json__"
#: Lines of the child's stderr kept as notes (usd-core's warnings).
MAX_NOTES = 50


@dataclasses.dataclass(frozen=True)
class Reply:
    """What the child answered: ``data`` (JSON), ``arrays`` and ``warnings`` (its stderr lines)."""

    data: dict
    arrays: dict[str, np.ndarray]
    warnings: tuple[str, ...] = ()


def encode(data: dict, arrays: dict[str, np.ndarray] | None = None) -> bytes:
    """One ``.npz`` archive holding ``data`` as JSON text and ``arrays``."""
    buf = io.BytesIO()
    text = np.frombuffer(json.dumps(data).encode("utf-8"), dtype=np.uint8)
    np.savez(buf, **{JSON_KEY: text}, **(arrays or {}))
    return buf.getvalue()


def decode(blob: bytes) -> tuple[dict, dict[str, np.ndarray]]:
    """The ``(data, arrays)`` of :func:`encode`; never unpickles. ``ValueError`` if malformed."""
    try:
        with np.load(io.BytesIO(blob), allow_pickle=False) as npz:
            arrays = {k: npz[k] for k in npz.files}
        data = json.loads(arrays.pop(JSON_KEY).tobytes().decode("utf-8"))
    except Exception as exc:  # noqa: BLE001 - anything malformed is one error
        raise ValueError(str(exc) or type(exc).__name__) from None
    if not isinstance(data, dict):
        raise ValueError("the reply is not a JSON object")
    return data, arrays


def _environment() -> dict[str, str]:
    # No plug-in or resolver search paths reach usd-core: only its own plug-ins load, and
    # an asset path is never looked up along a search path.
    return {k: v for k, v in os.environ.items() if not k.startswith("PXR_")}


def _signal_name(code: int) -> str:
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


def call(op: str, path, params: dict | None = None, arrays: dict | None = None, *,
         timeout: float = TIMEOUT, memory: int = MEMORY_LIMIT) -> Reply:
    """Run ``op`` of the worker on the file ``path`` in a child process; its :class:`Reply`.

    ``params`` (JSON) and ``arrays`` go with the request. Every failure is a
    :class:`KeyframeFileError` on ``path`` with one line.
    """
    path = Path(path)
    if not usd_available():
        raise KeyframeFileError(path, _(INSTALL_HINT))
    request = encode({"op": op, "path": os.fspath(path), "params": params or {},
                      "language": current_language(), "memory": int(memory),
                      "cpu": int(timeout) + 1}, arrays)
    try:
        proc = subprocess.Popen(
            [sys.executable, "-I", "-m", WORKER_MODULE], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_environment(),
            start_new_session=True)
    except OSError as exc:
        raise KeyframeFileError(path, _("cannot start the USD reader: {error}").format(
            error=exc.strerror or exc)) from None
    try:
        out, err = proc.communicate(request, timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise KeyframeFileError(path, _(
            "usd-core took longer than {seconds:g} s and was stopped; the file is too large or "
            "malformed").format(seconds=timeout)) from None
    except BaseException:
        proc.kill()
        proc.communicate()
        raise
    warnings = _warnings(err)
    if proc.returncode < 0:
        raise KeyframeFileError(path, _(
            "usd-core crashed reading this file ({signal}): it is malformed or hostile; "
            "nothing was loaded").format(signal=_signal_name(proc.returncode)))
    try:
        data, out_arrays = decode(out)
    except ValueError:
        last = warnings[-1] if warnings else _("no message")
        raise KeyframeFileError(path, _(
            "the USD reader stopped without an answer (exit status {code}): {last}").format(
                code=proc.returncode, last=last)) from None
    if data.get("error"):
        raise KeyframeFileError(path, str(data["error"]))
    return Reply(data, out_arrays, tuple(warnings))


def _warnings(err: bytes) -> list[str]:
    """The child's stderr (usd-core's warnings), one stripped line each, the last few."""
    lines = [ln.strip() for ln in err.decode("utf-8", "replace").splitlines()]
    return [ln for ln in lines if ln][-MAX_NOTES:]
