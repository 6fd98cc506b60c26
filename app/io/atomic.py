"""The one way QuatLab writes files: atomic, no-clobber unless asked, nothing left on failure.

Every writer (``quatlab fix``, exports, sessions, screenshots) goes through
:func:`write_files` or its one-file form :func:`atomic_write`, so the rules of
docs/formats.md ("Safety rules for readers and writers") hold everywhere.

Each file is written to a temporary file in its own folder, flushed and
fsynced, then published in one step: ``os.link`` when the target must not
exist yet (the link fails instead of overwriting, so there is no window in
which another writer's file could be clobbered), ``os.replace`` when
``force`` is true. Readers see the old file or the new one, never a part.

Examples
--------
>>> import pathlib, tempfile
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> write_files([(d / "a.txt", b"one")])
>>> (d / "a.txt").read_bytes()
b'one'
>>> write_files([(d / "a.txt", b"two")])
Traceback (most recent call last):
...
FileExistsError: [Errno 17] refusing to overwrite an existing file (pass force=True): ...
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from collections.abc import Sequence
from pathlib import Path

from quatlab.app.i18n import _

__all__ = ["write_files", "atomic_write", "clean_stale_temps", "temp_name"]


def _exists_error(path: Path) -> FileExistsError:
    return FileExistsError(
        errno.EEXIST, _("refusing to overwrite an existing file (pass force=True)"), str(path)
    )


def _fsync_dir(folder: Path) -> None:
    # Makes the rename itself durable; not possible on every platform.
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


#: Temporary files are ``NAME.quatlab-PID-RANDOM.partial`` beside ``NAME``: a
#: user who finds one (after a power cut or a kill) sees what it is, and the
#: next write of ``NAME`` removes those whose process is gone.
_TEMP_INFIX = ".quatlab-"
_TEMP_SUFFIX = ".partial"


def temp_name(path: Path) -> Path:
    """A fresh temporary name beside ``path`` (see :data:`_TEMP_INFIX`)."""
    return path.with_name(f"{path.name}{_TEMP_INFIX}{os.getpid()}-{secrets.token_hex(4)}"
                          f"{_TEMP_SUFFIX}")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's process, or we cannot tell: leave its files alone
    return True


def clean_stale_temps(path: Path) -> list[Path]:
    """Remove our own leftover temporaries of ``path`` whose writing process has ended."""
    removed = []
    prefix = path.name + _TEMP_INFIX
    try:
        names = os.listdir(path.parent)
    except OSError:
        return removed
    for name in names:
        if not (name.startswith(prefix) and name.endswith(_TEMP_SUFFIX)):
            continue
        pid_text = name[len(prefix) : -len(_TEMP_SUFFIX)].split("-", 1)[0]
        if not pid_text.isdigit() or int(pid_text) == os.getpid() or _pid_alive(int(pid_text)):
            continue
        stale = path.with_name(name)
        with contextlib.suppress(OSError):
            if os.path.isfile(stale) and not os.path.islink(stale):
                os.unlink(stale)
                removed.append(stale)
    return removed


def _temp_for(path: Path, data: bytes) -> Path:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        tmp = temp_name(path)
        try:
            # 0o666 lets the umask decide, as for any file the user creates.
            fd = os.open(tmp, flags, 0o666)
            break
        except FileExistsError:
            continue
        except OSError as exc:
            # Name the file the caller asked for, not our temporary.
            raise OSError(exc.errno, exc.strerror, str(path)) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        raise
    return tmp


def write_files(items: Sequence[tuple[os.PathLike | str, bytes]], *, force: bool = False) -> None:
    """Write each ``(path, data)`` atomically; all targets are checked before any is written.

    Without ``force`` an existing target raises :class:`FileExistsError` and
    nothing is written. On any failure the temporary files are removed and
    the targets published so far by this call are removed again (when they
    did not exist before), so a failed call leaves nothing behind.
    """
    paths = [Path(p) for p, _data in items]
    for p in paths:
        clean_stale_temps(p)
    if not force:
        for p in paths:
            if os.path.lexists(p):
                raise _exists_error(p)
    temps: list[Path] = []
    published: list[Path] = []
    try:
        for p, (_, data) in zip(paths, items, strict=True):
            temps.append(_temp_for(p, data))
        for p, tmp in zip(paths, temps, strict=True):
            if force:
                existed = os.path.lexists(p)
                os.replace(tmp, p)
                if not existed:
                    published.append(p)
            else:
                try:
                    os.link(tmp, p)
                except FileExistsError:
                    raise _exists_error(p) from None
                except OSError:
                    # No hard links here (FAT, some network file systems): a
                    # checked rename, with a tiny window instead of none.
                    if os.path.lexists(p):
                        raise _exists_error(p) from None
                    os.replace(tmp, p)
                else:
                    os.unlink(tmp)
                published.append(p)
        for folder in {p.parent for p in paths}:
            _fsync_dir(folder)
    except BaseException:
        for tmp in temps:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        for p in published:
            with contextlib.suppress(OSError):
                os.unlink(p)
        raise


def atomic_write(path, data: bytes | str, *, force: bool = True) -> None:
    """Write one file atomically (text as UTF-8); :func:`write_files` for one item.

    ``force`` defaults to true here: the callers that pass through a "replace
    it?" question (the GUI's save dialogs) have asked already.
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    write_files([(path, data)], force=force)
