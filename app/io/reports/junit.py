"""JUnit XML of ``quatlab check`` (``--junit FILE``): a test case per track, a failure per finding.

CI servers show JUnit XML in their test views (Jenkins' JUnit plugin,
GitLab's unit test reports). The layout is the one their readers take
(docs/report.md, "JUnit XML"): ``<testsuites>`` holding a ``<testsuite>``
per file, named by its path; in it a ``<testcase>`` per rotation track
(``classname`` the file, ``name`` the track, unique within the file) with a
``<failure>`` per finding (``type`` the kind, ``message`` where it is, the
text what players do with it). A file that cannot be read is one test case
with an ``<error>``, a skipped entry one with ``<skipped>``. The counts of
each suite are those of its test cases (``failures`` counts failed test
cases, not findings, as JUnit does). Texts are the report's (English). No Qt.

>>> result = {"file": "a.csv", "status": "findings", "tracks": 1, "findings": 1,
...           "kinds": {"sign_flip": 1}, "error": None, "details": [
...     {"animation": None, "animation_index": None, "node": "Hips", "node_index": 0,
...      "path": "rotation", "interpolation": "LINEAR", "storage": "text", "keys": 2,
...      "findings": [{"kind": "sign_flip", "keys": [0, 1], "times": [0.0, 1.0],
...                    "message": "the long way"}]}]}
>>> print(junit_xml([result]).decode().splitlines()[3])
    <testcase classname="a.csv" name="0: node 'Hips' (#0)" file="a.csv" time="0">
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable

__all__ = ["junit_xml", "track_name", "where"]

# XML 1.0 cannot hold most control characters, even escaped: a file name or a
# message with one would make the whole report unreadable.
_NOT_XML = dict.fromkeys(c for c in range(0x20) if c not in (0x09, 0x0A, 0x0D))
_NOT_XML.update({0xFFFE: None, 0xFFFF: None})


def _text(value) -> str:
    # A file name that is not UTF-8 holds lone surrogates, which UTF-8 cannot encode.
    text = str(value).encode("utf-8", "backslashreplace").decode("utf-8")
    cleaned = text.translate(_NOT_XML)
    return cleaned if cleaned == text else text.translate(
        {c: f"\\x{c:02x}" for c in _NOT_XML})


def track_name(i: int, track: dict) -> str:
    """``"3: animation 'Walk' (#0), node 'Hips' (#1)"``: the track's index keeps it unique."""
    parts = []
    for what, name, index in (("animation", track.get("animation"), track.get("animation_index")),
                              ("node", track.get("node"), track.get("node_index"))):
        if name is not None and index is not None:
            parts.append(f"{what} {name!r} (#{index})")
        elif name is not None:
            parts.append(f"{what} {name!r}")
        elif index is not None:
            parts.append(f"{what} #{index}")
    return f"{i}: " + (", ".join(parts) or "track")


def where(finding: dict) -> str:
    """``"sign_flip at keys 3-4 (t = 0.75-1 s)"``: a finding's kind, keys and times."""
    keys = "-".join(str(k) for k in finding["keys"])
    times = "-".join("?" if t is None else f"{t:g}" for t in finding.get("times", ()))
    word = "key" if len(finding["keys"]) == 1 else "keys"
    return f"{finding['kind']} at {word} {keys}" + (f" (t = {times} s)" if times else "")


def _suite(parent: ET.Element, result: dict) -> tuple[int, int, int, int]:
    file = _text(result["file"])
    suite = ET.SubElement(parent, "testsuite", name=file)
    cases = failures = errors = skipped = 0

    def case(name: str) -> ET.Element:
        return ET.SubElement(suite, "testcase", classname=file, name=_text(name), file=file,
                             time="0")

    status = result["status"]
    if status == "skipped":
        ET.SubElement(case("read"), "skipped", message=_text(result.get("reason", "")))
        cases, skipped = 1, 1
    elif status == "unreadable":
        error = _text(result.get("error") or "unreadable")
        ET.SubElement(case("read"), "error", type="unreadable", message=error).text = error
        cases, errors = 1, 1
    else:
        for i, track in enumerate(result.get("details") or ()):
            tc = case(track_name(i, track))
            cases += 1
            failures += bool(track["findings"])
            for f in track["findings"]:
                ET.SubElement(tc, "failure", type=f["kind"],
                              message=_text(where(f))).text = _text(f.get("message", ""))
    suite.attrib.update(tests=str(cases), failures=str(failures), errors=str(errors),
                        skipped=str(skipped), time="0")
    return cases, failures, errors, skipped


def junit_xml(results: Iterable[dict]) -> bytes:
    """The JUnit XML document (UTF-8) of check results (module docs).

    ``results`` are a folder report's lines for files and skipped entries,
    with ``details`` listing every track (``check_one(..., full=True)``).
    """
    root = ET.Element("testsuites", name="quatlab check")
    totals = [0, 0, 0, 0]
    for result in results:
        totals = [a + b for a, b in zip(totals, _suite(root, result), strict=True)]
    # Jenkins' schema gives <testsuites> no "skipped"; each suite has its own.
    root.attrib.update(tests=str(totals[0]), failures=str(totals[1]), errors=str(totals[2]),
                       time="0")
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"
