"""The JUnit XML shape that Jenkins' JUnit plugin and GitLab's unit test reports read, as checks.

Written from Jenkins' ``jenkins-junit.xsd`` (the schema its JUnit plugin
documents): which elements nest in which, in what order, with which
attributes, which are required; and the counting rules the readers use
(``failures`` counts failed test cases). GitLab reads the same elements and
keeps one test case per ``classname`` and ``name``, so those must be unique.
Used through :func:`check_shape` on a tree parsed by ``xml.etree``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

# element: (allowed attributes, required attributes, children in order as (tag, at most))
MANY = None
SHAPE = {
    "testsuites": ({"name", "time", "tests", "failures", "disabled", "errors"}, set(),
                   [("testsuite", MANY)]),
    "testsuite": ({"name", "tests", "failures", "errors", "time", "disabled", "skipped",
                   "timestamp", "hostname", "id", "package", "file", "log", "url", "version"},
                  {"name", "tests"},
                  [("properties", 1), ("testcase", MANY), ("system-out", 1), ("system-err", 1)]),
    "testcase": ({"name", "assertions", "time", "classname", "status", "class", "file", "line"},
                 {"name"},
                 [("skipped", 1), ("error", MANY), ("failure", MANY), ("system-out", MANY),
                  ("system-err", MANY)]),
    "failure": ({"type", "message"}, set(), []),
    "error": ({"type", "message"}, set(), []),
    "skipped": ({"message"}, set(), []),
}
NUMBERS = {"tests", "failures", "errors", "skipped", "disabled"}


def _element(el: ET.Element, path: str) -> None:
    allowed, required, children = SHAPE[el.tag]
    assert set(el.attrib) <= allowed, f"{path}: attributes {set(el.attrib) - allowed}"
    assert required <= set(el.attrib), f"{path}: missing {required - set(el.attrib)}"
    for name in NUMBERS & set(el.attrib):
        assert el.attrib[name].isdigit(), f"{path}@{name} = {el.attrib[name]!r}"
    if "time" in el.attrib:
        float(el.attrib["time"])
    order = [tag for tag, _most in children]
    last = -1
    seen: dict[str, int] = {}
    for child in el:
        assert child.tag in order, f"{path}: <{child.tag}> not allowed in <{el.tag}>"
        at = order.index(child.tag)
        assert at >= last, f"{path}: <{child.tag}> out of order in <{el.tag}>"
        last = at
        seen[child.tag] = seen.get(child.tag, 0) + 1
        most = children[at][1]
        assert most is None or seen[child.tag] <= most, f"{path}: too many <{child.tag}>"
        _element(child, f"{path}/{child.tag}")
    if not children:
        assert all(False for _child in el), f"{path}: <{el.tag}> holds elements"


def check_shape(root: ET.Element) -> None:
    """Fail unless ``root`` is a ``<testsuites>`` document Jenkins and GitLab read as meant."""
    assert root.tag == "testsuites"
    _element(root, "testsuites")
    totals = dict.fromkeys(("tests", "failures", "errors"), 0)
    for suite in root:
        cases = suite.findall("testcase")
        counts = {
            "tests": len(cases),
            "failures": sum(1 for c in cases if c.find("failure") is not None),
            "errors": sum(1 for c in cases if c.find("error") is not None),
            "skipped": sum(1 for c in cases if c.find("skipped") is not None),
        }
        for key, n in counts.items():
            assert int(suite.get(key, "0")) == n, f"{suite.get('name')}: {key}"
        for key in totals:
            totals[key] += counts[key]
        names = [(c.get("classname"), c.get("name")) for c in cases]
        assert len(set(names)) == len(names), f"{suite.get('name')}: test case names repeat"
    for key, n in totals.items():
        assert int(root.get(key, "0")) == n, f"testsuites@{key}"
