"""USDZ packages: checked before usd-core opens one, written for a corrected copy. No Qt, no pxr.

A ``.usdz`` is a zip archive whose members are stored uncompressed, each file's data
starting at a multiple of 64 bytes, the first member being the default layer
(OpenUSD, "Usdz File Format Specification"). :func:`check_package` refuses anything
else before usd-core reads it, so what a package may expand to is bounded by its own
size: a compressed member (a zip bomb, a thousand times its size) is refused, not
inflated. :func:`write_package` writes a package the same way, members in the
original order with the default layer replaced.

Examples
--------
>>> import io, zipfile
>>> blob = write_package([("a.usda", b"#usda 1.0\\n"), ("tex/b.png", b"png")])
>>> [(i.filename, i.compress_type, i.header_offset + 30 + len(i.filename) + len(i.extra))
...  for i in zipfile.ZipFile(io.BytesIO(blob)).infolist()]
[('a.usda', 0, 64), ('tex/b.png', 0, 128)]
"""

from __future__ import annotations

import dataclasses
import io
import os
import posixpath
import stat
import struct
import zipfile

from quatlab.app.i18n import _

__all__ = ["PackageRefused", "Package", "check_package", "check_package_bytes", "write_package",
           "read_members", "MAX_MEMBERS",
           "LAYER_SUFFIXES"]

#: Members a package may hold.
MAX_MEMBERS = 10_000
#: Largest package read (bytes), as for every file QuatLab reads whole.
MAX_PACKAGE_BYTES = 1 << 30
#: Member names usd-core opens as layers.
LAYER_SUFFIXES = (".usda", ".usdc", ".usd")
_ALIGN = 64
_LOCAL_HEADER = 30


class PackageRefused(ValueError):
    """A package that is not read; ``str()`` is the problem, without the file name."""


@dataclasses.dataclass(frozen=True)
class Package:
    """A checked package: its member names in order (the first is the default layer)."""

    path: str
    members: tuple[str, ...]
    size: int


def _check_name(name: str) -> None:
    parts = name.split("/")
    if (not name or name.startswith("/") or "\\" in name or "\0" in name or ".." in parts
            or (len(name) > 1 and name[1] == ":")):
        raise PackageRefused(_("member {name!r} has an absolute or escaping name").format(
            name=name))


def check_package(path) -> Package:
    """The members of the ``.usdz`` at ``path``, or :class:`PackageRefused`.

    Refused: not a regular file (a FIFO or device), larger than 1 GiB, not a zip
    archive, more than :data:`MAX_MEMBERS` members, a member that is compressed
    or whose stored size differs from its size, a name that is absolute, escapes
    with ``..`` or repeats, a member whose data lies outside the archive, no layer
    as the first member.
    """
    path = os.fspath(path)
    try:
        st = os.stat(path)
    except OSError as exc:
        raise PackageRefused(_("cannot read: {error}").format(
            error=exc.strerror or exc)) from None
    if not stat.S_ISREG(st.st_mode):
        raise PackageRefused(_("not a regular file (a FIFO, device or socket): refused, it "
                               "could block or never end"))
    if st.st_size > MAX_PACKAGE_BYTES:
        raise PackageRefused(_("file is {size} bytes, more than the {limit} allowed").format(
            size=st.st_size, limit=MAX_PACKAGE_BYTES))
    with open(path, "rb") as f:
        data = f.read(MAX_PACKAGE_BYTES + 1)
    return check_package_bytes(data, path)


def check_package_bytes(data: bytes, path: str = "") -> Package:
    """:func:`check_package` of a package's bytes (everything but the file checks)."""
    if len(data) > MAX_PACKAGE_BYTES:
        raise PackageRefused(_("file is {size} bytes, more than the {limit} allowed").format(
            size=len(data), limit=MAX_PACKAGE_BYTES))
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise PackageRefused(_("not a USDZ package (a zip archive): {error}").format(
            error=exc)) from None
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise PackageRefused(_("has {n} members, more than the {limit} allowed").format(
            n=len(infos), limit=MAX_MEMBERS))
    seen: set[str] = set()
    for info in infos:
        name = info.filename
        _check_name(name)
        if name in seen:
            raise PackageRefused(_("member {name!r} appears twice").format(name=name))
        seen.add(name)
        if info.compress_type != zipfile.ZIP_STORED or info.file_size != info.compress_size:
            raise PackageRefused(_(
                "member {name!r} is compressed ({stored} bytes that expand to {size}); USDZ "
                "members are stored uncompressed, so a package never expands beyond its "
                "size").format(name=name, stored=info.compress_size, size=info.file_size))
        start = info.header_offset + _LOCAL_HEADER
        if info.header_offset < 0 or start > len(data):
            raise PackageRefused(_("member {name!r} lies outside the archive").format(name=name))
        name_len, extra_len = struct.unpack("<HH", data[start - 4:start])
        end = start + name_len + extra_len + info.file_size
        if end > len(data):
            raise PackageRefused(_("member {name!r} lies outside the archive").format(name=name))
    if not infos or not infos[0].filename.lower().endswith(LAYER_SUFFIXES):
        raise PackageRefused(_("the first member is not a USD layer (.usda, .usdc or .usd)"))
    return Package(path, tuple(i.filename for i in infos), len(data))


def read_members(path) -> list[tuple[str, bytes]]:
    """Every member of a package (checked first), ``(name, data)`` in order."""
    check_package(path)
    with zipfile.ZipFile(path) as archive:
        return [(i.filename, archive.read(i)) for i in archive.infolist()]


def write_package(members) -> bytes:
    """A ``.usdz`` of ``members`` ``[(name, data)]``: stored, each file's data 64-byte aligned."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_STORED) as archive:
        for name, data in members:
            _check_name(name)
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED
            # Pad the local header's extra field so the data starts on a 64-byte boundary
            # (an extra record of id 0x1986, as usd-core writes; 4 bytes of header + padding).
            offset = buf.tell() + _LOCAL_HEADER + len(name.encode("utf-8"))
            pad = (-(offset + 4)) % _ALIGN
            info.extra = struct.pack("<HH", 0x1986, pad) + b"\0" * pad
            archive.writestr(info, data)
    return buf.getvalue()


def member_path(package: str, member: str) -> str:
    """usd-core's identifier of ``member`` inside ``package``: ``package[member]``."""
    return f"{package}[{member}]"


def normalized_member(base_member: str, asset: str) -> str | None:
    """The member an asset path written in ``base_member`` names, or None if it leaves the package.

    >>> normalized_member("a/b.usda", "./c.usdc"), normalized_member("a/b.usda", "../../x")
    ('a/c.usdc', None)
    """
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(base_member), asset))
    if joined.startswith("../") or joined == ".." or joined.startswith("/"):
        return None
    return joined
