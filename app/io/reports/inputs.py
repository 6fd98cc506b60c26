"""Fingerprints of the files a check read, and the earlier results ``--resume`` may reuse.

A folder report's line lists its ``inputs`` (docs/report.md): the file and
every file it refers to that was read, each with its size, modification
time (ns) and SHA-256. ``quatlab check DIR --resume REPORT.jsonl`` takes a
file's earlier result instead of checking it again when every input still
has the same size, time and hash; the hash is read only when size and time
agree. No Qt.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat

__all__ = ["fingerprint", "unchanged", "earlier_results", "reusable"]

_BLOCK = 1 << 20


def fingerprint(path) -> dict | None:
    """``{"path", "size", "mtime_ns", "sha256"}`` of the regular file ``path``, else None.

    A FIFO or device is never opened (it could block), and nothing is read
    past the size the file had when it was opened.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        digest = hashlib.sha256()
        left = st.st_size
        while left > 0:
            block = os.read(fd, min(_BLOCK, left))
            if not block:
                break
            digest.update(block)
            left -= len(block)
    except OSError:
        return None
    finally:
        os.close(fd)
    return {"path": str(path), "size": st.st_size, "mtime_ns": st.st_mtime_ns,
            "sha256": digest.hexdigest()}


def unchanged(inputs) -> bool:
    """True when every recorded input still has the same size, mtime and SHA-256."""
    if not inputs:
        return False
    for item in inputs:
        try:
            st = os.stat(item["path"])
        except (OSError, KeyError, TypeError, ValueError):
            return False
        if st.st_size != item.get("size") or st.st_mtime_ns != item.get("mtime_ns"):
            return False
    # Sizes and times agree: only now read the files (the hash is what decides).
    return all((fingerprint(item["path"]) or {}).get("sha256") == item.get("sha256")
               for item in inputs)


def reusable(line: dict, *, full: bool) -> bool:
    """Whether an earlier result line can stand for the file (its inputs aside).

    Checked files are reused, and files that killed the workers (reading them
    again would kill more); other unreadable files are read again, since what
    was missing (a buffer, a permission) may be there now. ``full`` (every
    track and the messages, for --junit and --html) needs a line that has them.
    """
    status = line.get("status")
    if status == "unreadable":
        return line.get("killed_workers") is True
    if status not in ("ok", "findings"):
        return False
    if not full:
        return True
    details = line.get("details")
    return (isinstance(details, list) and len(details) == line.get("tracks")
            and all("message" in f for t in details for f in t.get("findings", ())))


def earlier_results(report) -> dict[str, dict]:
    """The file lines of a JSON Lines report, by file name.

    Lines that do not parse (the last line of a sweep that was killed while
    writing it) and lines that are not a file's result are ignored; a file
    listed twice keeps its last line.
    """
    found: dict[str, dict] = {}
    with open(report, encoding="utf-8", errors="replace") as f:
        for text in f:
            try:
                line = json.loads(text)
            except ValueError:
                continue
            if isinstance(line, dict) and isinstance(line.get("file"), str) and "inputs" in line:
                found[line["file"]] = line
    return found
