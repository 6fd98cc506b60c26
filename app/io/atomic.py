"""The one way QuatLab writes a file: atomically, never leaving a partial file behind. No Qt.

Every writer (``quatlab fix``, exports, sessions, screenshots) goes through
:func:`atomic_write`, so the rules of docs/formats.md ("Safety rules for
readers and writers") hold everywhere.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

__all__ = ["atomic_write"]


def atomic_write(path, data: bytes | str) -> None:
    """Write ``data`` to ``path`` atomically: a temporary file in the same directory, then rename.

    Text is written as UTF-8. Readers see the old file or the new one, never
    a partial one. The new
    file gets the usual permissions (0666 minus the umask), like any file
    the user creates.
    """
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            # os.open with 0o666 lets the umask decide, unlike tempfile's 0o600.
            fd = os.open(tmp, flags, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
