"""Which files and which joints of a library have the most findings (the folder summary).

A joint is a node name: the same joint across a library's files (``Hips`` in
every take) is one row, with its findings summed and the files it has them
in counted, since a problem that repeats across takes usually comes from the
rig or the exporter, not from one take. Tracks without a node name are not
ranked as joints. Plain dicts in (folder report lines), plain lists out. No Qt.

>>> lines = [{"file": "a.bvh", "status": "findings", "findings": 3, "details": [
...              {"node": "Hips", "findings": [{}, {}]}, {"node": "Knee", "findings": [{}]}]},
...          {"file": "b.bvh", "status": "findings", "findings": 1, "details": [
...              {"node": "Hips", "findings": [{}]}]},
...          {"file": "c.bvh", "status": "ok", "findings": 0, "details": []}]
>>> top_files(lines)
[{'file': 'a.bvh', 'findings': 3}, {'file': 'b.bvh', 'findings': 1}]
>>> top_joints(lines)
[{'joint': 'Hips', 'findings': 3, 'files': 2}, {'joint': 'Knee', 'findings': 1, 'files': 1}]
"""

from __future__ import annotations

__all__ = ["top_files", "top_joints", "TOP"]

#: Rows a ranking keeps.
TOP = 10


def top_files(results, top: int = TOP) -> list[dict]:
    """The files with findings, most first (ties by path): ``{"file", "findings"}``."""
    flagged = [r for r in results if r.get("findings")]
    flagged.sort(key=lambda r: (-r["findings"], r["file"]))
    return [{"file": r["file"], "findings": r["findings"]} for r in flagged[:top]]


def top_joints(results, top: int = TOP) -> list[dict]:
    """Node names with findings over all files, most first: ``{"joint", "findings", "files"}``."""
    findings: dict[str, int] = {}
    files: dict[str, set] = {}
    for r in results:
        for track in r.get("details") or ():
            name, n = track.get("node"), len(track.get("findings") or ())
            if name is None or not n:
                continue
            findings[name] = findings.get(name, 0) + n
            files.setdefault(name, set()).add(r["file"])
    order = sorted(findings, key=lambda name: (-findings[name], -len(files[name]), name))
    return [{"joint": name, "findings": findings[name], "files": len(files[name])}
            for name in order[:top]]
