"""Fuzz: random JSON mutations of real glTF files never end in a traceback, in any command.

Each case mutates one or two places anywhere in a real file's JSON (type
swaps: a string where an integer belongs, an object where an array does;
deletions; huge and negative numbers) and runs ``quatlab check``, ``check
--json`` and ``fix`` on it in process, and the rig reader the Keyframes tab
uses (:func:`~quatlab.app.io.gltf.scene.scene_of`) on whatever loads. Every
command must exit 0, 1 or 2; exit 2 comes with one stderr line naming the
file (docs/formats.md, "Safety rules for readers and writers"). The seed is
fixed, so CI runs the same few hundred cases every time.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from cli_cases import run_case

from quatlab.app.io import keyframe_files as KF
from quatlab.app.io.gltf.scene import scene_of
from quatlab.app.io.tracks import KeyframeFileError

DATA = Path(__file__).parent / "data" / "gltf"
#: Real files and how many mutated cases each gets (the GLBs cost more per case).
SOURCES = {"AnimatedTriangle.gltf": 120, "BoxAnimated.gltf": 80, "RiggedSimple.gltf": 60,
           "InterpolationTest.glb": 40, "CesiumMilkTruck.glb": 20}

#: Values of every JSON type, and the numbers a reader must not trust.
VALUES = [True, False, None, 0, 1, -1, 3, -2**31, 2**31, 2**63, 2**64 + 1, 10**400, 1.5, -0.5,
          1e308, -1e308, 1e-320, "x", "", "data:,", "../x.bin", "VEC4", "rotation", [], [1],
          [1.5, "a"], ["a"], [[]], {}, {"a": 1}, {"bufferView": 0}]


def _places(node, prefix=()):
    """Every (path to a container, key) in a JSON value, long number arrays skipped."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*prefix, key)
            yield from _places(value, (*prefix, key))
    elif isinstance(node, list) and len(node) <= 64:
        for i, value in enumerate(node):
            yield (*prefix, i)
            yield from _places(value, (*prefix, i))


def _mutate(doc: dict, rng: np.random.Generator) -> tuple[dict, list]:
    doc = json.loads(json.dumps(doc))
    places = list(_places(doc))
    done = []
    for _ in range(int(rng.integers(1, 3))):
        place = places[int(rng.integers(len(places)))]
        parent = doc
        try:
            for step in place[:-1]:
                parent = parent[step]
            key = place[-1]
            roll = rng.random()
            if roll < 0.15 and isinstance(parent, dict):
                parent.pop(key)
                done.append(("delete", place))
            elif roll < 0.25 and type(parent[key]) is int:
                parent[key] = -parent[key] - 1           # a negative count or index
                done.append(("negate", place))
            else:
                parent[key] = VALUES[int(rng.integers(len(VALUES)))]
                done.append(("set", place, parent[key]))
        except (KeyError, IndexError, TypeError):
            continue  # an earlier edit replaced the container
    return doc, done


def _split_glb(data: bytes) -> tuple[dict, bytes]:
    n = int.from_bytes(data[12:16], "little")
    return json.loads(data[20:20 + n]), data[20 + n:]


def _glb(doc: dict, rest: bytes) -> bytes:
    body = json.dumps(doc).encode()
    body += b" " * (-len(body) % 4)
    chunks = len(body).to_bytes(4, "little") + b"JSON" + body + rest
    return b"glTF" + (2).to_bytes(4, "little") + (12 + len(chunks)).to_bytes(4, "little") + chunks


@pytest.mark.filterwarnings("error")  # a numpy warning on stderr is a failure too
def test_mutated_real_gltf_files_never_raise(tmp_path, capsys):
    rng = np.random.default_rng(27)
    statuses = {0: 0, 1: 0, 2: 0}
    for name, cases in SOURCES.items():
        data = (DATA / name).read_bytes()
        glb = name.endswith(".glb")
        doc, rest = _split_glb(data) if glb else (json.loads(data), b"")
        for i in range(cases):
            mutated, done = _mutate(doc, rng)
            case = f"{name} #{i} {done!r:.300}"
            path = tmp_path / f"m{i}-{name}"
            path.write_bytes(_glb(mutated, rest) if glb else json.dumps(mutated).encode())
            status = run_case(capsys, ["check", str(path)], path, case)
            statuses[status] += 1
            assert run_case(capsys, ["check", "--json", str(path)], path, case) == status
            out = tmp_path / f"out{i}-{name}"
            fixed = run_case(capsys, ["fix", str(path), str(out)], path, case)
            assert (fixed == 2) == (status == 2) or fixed == 2, case
            if status != 2:
                try:
                    scene_of(KF.load_keyframes(path))   # what the Keyframes tab draws
                except KeyframeFileError as exc:
                    assert str(exc).startswith(f"{path}: ") and "\n" not in str(exc), case
                except Exception as exc:  # noqa: BLE001
                    pytest.fail(f"{case}: scene_of raised {type(exc).__name__}: {exc}")
            for p in tmp_path.iterdir():
                p.unlink()
    # Both outcomes must be exercised, or the test proves nothing.
    assert statuses[2] > 60 and statuses[0] + statuses[1] > 60, statuses
