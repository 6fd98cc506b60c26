"""Fuzz: mutated real glTF files either load completely or fail with KeyframeFileError.

Mutations of the real samples (and of GLB copies made with pygltflib):
truncation, byte flips, and JSON edits that put wrong values (wrong types,
out-of-range indices, other enums) into the structures a loader reads.
Seeded and bounded, so the run is repeatable and fast. Whatever loads must
also audit, fix and write a copy without any other exception.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pygltflib
import pytest

from quatlab.app.io import keyframe_files as KF
from quatlab.app.io import track_audit as TA
from quatlab.app.io import tracks as kt

DATA = Path(__file__).parent / "data" / "gltf"
# Cases per sample and container: fewer for the big files, whose parse by
# pygltflib alone takes ~0.2 s, to keep the test within a few seconds.
CASES = {"AnimatedTriangle": 70, "BoxAnimated": 45, "RiggedSimple": 20, "RiggedFigure": 6}

REPLACEMENTS = [
    None, True, -1, 0, 1, 2, 3, 7, 10**9, 2**64, 1.5, -0.0, float("nan"), "x", "",
    "VEC3", "VEC4", "SCALAR", "MAT4", "rotation", "CUBICSPLINE", "STEP", 5120, 5121, 5122,
    5123, 5125, 5126, [], [0], {}, {"bufferView": 0}, "data:application/octet-stream;base64,AA==",
    "missing.bin",
]


def _paths(node, prefix=()):
    """Every (container, key) path inside the parts of a glTF document a loader reads."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "uri" and isinstance(value, str) and len(value) > 200:
                yield (*prefix, key)  # the big base64 strings: edit, don't descend
                continue
            yield (*prefix, key)
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list) and len(node) <= 64:  # skip long number arrays
        for i, value in enumerate(node):
            yield (*prefix, i)
            yield from _paths(value, (*prefix, i))


def _json_edit(doc: dict, rng: np.random.Generator) -> dict:
    doc = json.loads(json.dumps(doc))
    paths = [p for p in _paths(doc) if p[0] in
             ("animations", "accessors", "bufferViews", "buffers", "nodes", "asset")]
    for _ in range(int(rng.integers(1, 3))):
        path = paths[int(rng.integers(len(paths)))]
        parent = doc
        try:
            for step in path[:-1]:
                parent = parent[step]
            if rng.random() < 0.15 and isinstance(parent, dict):
                parent.pop(path[-1], None)
            else:
                parent[path[-1]] = REPLACEMENTS[int(rng.integers(len(REPLACEMENTS)))]
        except (KeyError, IndexError, TypeError):
            continue  # an earlier edit removed or replaced the parent
    return doc


def _sources(tmp_path: Path) -> list[tuple[str, bytes]]:
    sources = []
    for name in CASES:
        text = (DATA / f"{name}.gltf").read_bytes()
        sources.append((f"{name}.gltf", text))
        g = pygltflib.GLTF2().load(str(DATA / f"{name}.gltf"))
        glb = tmp_path / f"{name}.glb"
        g.save_binary(str(glb))
        sources.append((f"{name}.glb", glb.read_bytes()))
    return sources


def _mutate(name: str, data: bytes, rng: np.random.Generator) -> bytes:
    kind = rng.choice([0, 1, 2, 2])  # truncate, flip bytes, edit JSON (twice as often)
    if kind == 0:  # truncate
        return data[: int(rng.integers(len(data)))]
    if kind == 1:  # flip a few bytes
        out = bytearray(data)
        # GLB: mostly hit the header, chunk headers and JSON, where structure lives.
        limit = min(len(out), 2048) if name.endswith(".glb") and rng.random() < 0.7 else len(out)
        for _ in range(int(rng.integers(1, 6))):
            out[int(rng.integers(limit))] ^= int(rng.integers(1, 256))
        return bytes(out)
    if name.endswith(".glb"):
        # Edit the JSON chunk and rebuild the container around it.
        json_len = int.from_bytes(data[12:16], "little")
        doc = _json_edit(json.loads(data[20 : 20 + json_len]), rng)
        body = json.dumps(doc).encode()
        body += b" " * (-len(body) % 4)
        rest = data[20 + json_len :]
        head = len(body).to_bytes(4, "little") + data[16:20]
        total = (12 + 8 + len(body) + len(rest)).to_bytes(4, "little")
        return data[:8] + total + head + body + rest
    return json.dumps(_json_edit(json.loads(data), rng)).encode()


def test_mutated_real_files_fail_cleanly(tmp_path):
    rng = np.random.default_rng(20261130)
    outcomes = {"loaded": 0, "rejected": 0, "written": 0}
    for name, data in _sources(tmp_path):
        for case in range(CASES[name.rsplit(".", 1)[0]]):
            mutated = _mutate(name, data, rng)
            path = tmp_path / f"case{case}-{name}"
            path.write_bytes(mutated)
            try:
                kf = KF.load_keyframes(path)
            except kt.KeyframeFileError as exc:
                assert str(exc).startswith(f"{path}: "), str(exc)
                assert "\n" not in str(exc)
                outcomes["rejected"] += 1
                continue
            except Exception as exc:  # pragma: no cover - this is the failure we look for
                pytest.fail(f"{name} case {case}: {type(exc).__name__}: {exc}")
            outcomes["loaded"] += 1
            for track in kf.tracks:
                TA.audit_track(track)
            out = tmp_path / f"out{case}-{name}"
            try:
                kf.write_copy(out, [TA.fix_track(t, normalize=True).fixed for t in kf.tracks])
                outcomes["written"] += 1
            except kt.KeyframeFileError:
                pass
            except Exception as exc:  # pragma: no cover
                pytest.fail(f"{name} case {case} (write): {type(exc).__name__}: {exc}")
            path.unlink()
    # The mutations must exercise both outcomes, or the test proves nothing.
    assert outcomes["rejected"] > 100 and outcomes["loaded"] > 20 and outcomes["written"] > 10, (
        outcomes
    )
