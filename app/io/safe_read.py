"""The one way QuatLab reads a file: regular files only, never blocking, size bounded. No Qt.

Every reader (keyframe files, the rig's scene reader, glTF buffer files,
sessions) goes through :func:`read_regular`, and glTF buffer URIs through
:func:`resolve_relative_uri`, so the reader half of docs/formats.md ("Safety
rules for readers and writers") holds everywhere:

* only regular files are read: ``os.stat`` is checked before ``open`` and
  the file is opened with ``O_NONBLOCK``, so a FIFO, a device or a socket is
  refused instead of blocking or streaming forever;
* a file is never read past a bound: ``limit`` (whole files) or the declared
  ``length`` (a glTF buffer's ``byteLength``: a shorter file is refused, a
  longer one is read only that far);
* a relative URI is percent-decoded and must stay inside the asset's folder
  after ``..`` and symbolic links are resolved; absolute paths, NUL bytes,
  ``file://`` and every other scheme are refused.

Examples
--------
>>> read_regular("/dev/null")  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
...
quatlab.app.io.safe_read.FileRefused: /dev/null: not a regular file (a FIFO, device or socket): ...
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from urllib.parse import unquote, urlsplit

from quatlab.app.i18n import N_, _

__all__ = ["FileRefused", "read_regular", "read_text", "resolve_relative_uri", "MAX_FILE_BYTES"]

#: Largest file a reader loads whole (keyframe files, sessions): far beyond any
#: real animation file, small enough that a mistake cannot exhaust memory.
MAX_FILE_BYTES = 1 << 30

_CHUNK = 1 << 20
_NOT_REGULAR = N_("not a regular file (a FIFO, device or socket): refused, it could block or "
                  "never end")


class FileRefused(ValueError):
    """A file that a reader will not read. ``str()`` is ``"<file>: <problem>"``."""

    def __init__(self, path, problem: str):
        self.path = os.fspath(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


def read_regular(path, *, limit: int = MAX_FILE_BYTES, length: int | None = None,
                 length_name: str | None = None) -> bytes:
    """The bytes of the regular file ``path``: at most ``limit``, or exactly ``length``.

    With ``length`` the file must hold at least that many bytes and only those
    are read (a glTF buffer's declared ``byteLength``; ``length_name`` names
    it in the message). Raises
    :class:`FileRefused` for anything else, including OS errors.
    """
    length_name = length_name or _("the declared length")
    try:
        st = os.stat(path)
    except (OSError, ValueError) as exc:
        raise FileRefused(path, _("cannot read: {error}").format(
            error=getattr(exc, "strerror", None) or exc)) from None
    # Refuse FIFOs, devices and sockets before opening: opening a FIFO blocks
    # until a writer appears, and a device may never end.
    if stat.S_ISDIR(st.st_mode):
        raise FileRefused(path, _("cannot read: is a folder, not a file"))
    if not stat.S_ISREG(st.st_mode):
        raise FileRefused(path, _(_NOT_REGULAR))
    if length is not None and st.st_size < length:
        raise FileRefused(path, _("has {size} bytes but {what} says {length}").format(
            size=st.st_size, what=length_name, length=length))
    if length is None and st.st_size > limit:
        raise FileRefused(path, _("file is {size} bytes, more than the {limit} allowed").format(
            size=st.st_size, limit=limit))
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise FileRefused(path, _("cannot read: {error}").format(
            error=exc.strerror or exc)) from None
    try:
        # The path may have been swapped between stat and open.
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileRefused(path, _(_NOT_REGULAR))
        want = length if length is not None else limit + 1
        chunks, size = [], 0
        while size < want:
            chunk = os.read(fd, min(_CHUNK, want - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise FileRefused(path, _("cannot read: {error}").format(
            error=exc.strerror or exc)) from None
    finally:
        os.close(fd)
    if length is not None and size < length:
        raise FileRefused(path, _("has {size} bytes but {what} says {length}").format(
            size=size, what=length_name, length=length))
    if length is None and size > limit:
        raise FileRefused(path, _("file is more than the {limit} bytes allowed").format(
            limit=limit))
    return b"".join(chunks)


def read_text(path, *, limit: int = 64 << 20) -> str:
    """A UTF-8 text file (a session) read by :func:`read_regular`, at most ``limit`` bytes.

    For the GUI's "Open session": a FIFO or device is refused at once instead
    of blocking the GUI thread. Raises :class:`FileRefused` (a ValueError).
    """
    data = read_regular(path, limit=limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FileRefused(path, _("is not UTF-8 text ({reason} at byte {at})").format(
            reason=exc.reason, at=exc.start)) from None


def resolve_relative_uri(asset, uri: str) -> Path:
    """The file a relative ``uri`` of the asset at ``asset`` names, checked to stay in its folder.

    Raises :class:`ValueError` with the rule broken (scheme, absolute path,
    NUL byte, outside the folder); the caller names the buffer or image.

    >>> resolve_relative_uri("/data/a.gltf", "b%20c.bin").as_posix()
    '/data/b c.bin'
    >>> resolve_relative_uri("/data/a.gltf", "../etc/passwd")
    Traceback (most recent call last):
    ...
    ValueError: URI '../etc/passwd' leads outside the asset's folder
    """
    parts = urlsplit(uri)
    if parts.scheme or parts.netloc:
        text = (_("URI {uri!r} has the scheme {scheme}:; only relative file URIs (no scheme) "
                  "and data: URIs are read") if parts.scheme else
                _("URI {uri!r} has a network location; only relative file URIs (no scheme) and "
                  "data: URIs are read"))
        raise ValueError(text.format(uri=uri, scheme=parts.scheme))
    name = unquote(parts.path)
    if "\0" in name:
        raise ValueError(_("URI {uri!r} contains a NUL byte").format(uri=uri))
    if not name:
        raise ValueError(_("URI {uri!r} names no file").format(uri=uri))
    if name.startswith(("/", "\\")) or os.path.isabs(name) or (len(name) > 1 and name[1] == ":"):
        raise ValueError(_("URI {uri!r} is an absolute path; only files beside the asset are "
                           "read").format(uri=uri))
    folder = Path(os.path.abspath(Path(asset).parent))
    target = Path(os.path.normpath(folder / name))
    real_folder = os.path.realpath(folder)
    if not _inside(target, folder) or not _inside(os.path.realpath(target), real_folder):
        raise ValueError(_("URI {uri!r} leads outside the asset's folder").format(uri=uri))
    return target


def _inside(path, folder) -> bool:
    try:
        return os.path.commonpath([os.fspath(path), os.fspath(folder)]) == os.fspath(folder)
    except ValueError:
        return False
