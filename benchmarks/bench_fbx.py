"""Speed of reading and auditing an FBX file, relative to the ufbx loader's load alone.

Two files: the Kenney character (``tests/data/fbx``, binary FBX 7.7, 60
nodes, 414 curves, 7,038 keys) and a synthetic ASCII FBX written here with
``tests/fbx_forge.py``: ``--joints`` joints in a chain, each with three
rotation curves of ``--frames`` linear keys at 30 per second (a smooth
random walk in degrees that wanders past +-180, so the audit has wraps and
runs beyond 180 deg to report). For each, in the same run:

* ``load alone`` (the baseline): ``ufbx.load_memory`` of the file's bytes,
  timed inside a child process as QuatLab runs it (no copying out);
* ``read``: :func:`quatlab.app.io.fbx.loader.read_fbx`, the whole child
  process (start, ufbx load, copying every array out, the transfer) and the
  parent's checks;
* ``tracks``: :class:`quatlab.app.io.fbx.keyframes.FbxKeyframeFile` (every
  clip's rotation tracks evaluated at their keys);
* ``audit``: :meth:`~quatlab.app.io.fbx.keyframes.FbxKeyframeFile.audit`
  (Euler curves at the keys, quaternions at the keys and per frame).

Each figure is the median of ``--repeats`` runs; the ratio ``(read + tracks
+ audit) / load alone`` is what compares across machines.

Run: ``python benchmarks/bench_fbx.py [--frames 10000] [--joints 100] [--repeats 3]``
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from quatlab.app.io.fbx.keyframes import FbxKeyframeFile
from quatlab.app.io.fbx.loader import read_fbx

ROOT = Path(__file__).resolve().parents[1]
KENNEY = ROOT / "tests" / "data" / "fbx" / "maya_kenney_character_7700_binary.fbx"

_LOAD_ALONE = (
    "import os, sys, time\n"
    "data = sys.stdin.buffer.read()\n"
    "import ufbx\n"
    "t = time.perf_counter()\n"
    "scene = ufbx.load_memory(data)\n"
    "print(time.perf_counter() - t, flush=True)\n"
    "os._exit(0)\n"          # the binding may crash on the way out (docs/formats.md, "FBX")
)


def _forge():
    spec = importlib.util.spec_from_file_location("fbx_forge", ROOT / "tests" / "fbx_forge.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["fbx_forge"] = module          # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


def synthetic(path: Path, joints: int, frames: int, seed: int = 0) -> None:
    forge = _forge()
    rng = np.random.default_rng(seed)
    times = np.arange(frames) / 30.0
    curves = {(f"j{j}", "R", a): (times, np.cumsum(rng.normal(0.0, 3.0, frames)))
              for j in range(joints) for a in range(3)}
    path.write_text(forge.ascii_fbx(forge.chain(joints), curves, fps=30.0))


def load_alone(path: Path) -> float:
    proc = subprocess.run([sys.executable, "-I", "-c", _LOAD_ALONE], input=path.read_bytes(),
                          capture_output=True, check=True)
    return float(proc.stdout.decode().strip())


def measure(path: Path, repeats: int) -> dict:
    rows = {"load alone": [], "read": [], "tracks": [], "audit": []}
    findings = 0
    for _ in range(repeats):
        rows["load alone"].append(load_alone(path))
        t0 = time.perf_counter()
        scene = read_fbx(path)
        t1 = time.perf_counter()
        kf = FbxKeyframeFile(path, scene)
        t2 = time.perf_counter()
        reports = kf.audit()
        t3 = time.perf_counter()
        rows["read"].append(t1 - t0)
        rows["tracks"].append(t2 - t1)
        rows["audit"].append(t3 - t2)
        findings = sum(len(r.findings) for r in reports)
    out = {k: statistics.median(v) for k, v in rows.items()}
    out["keys"] = len(scene.keys)
    out["tracks_n"] = len(kf.tracks)
    out["findings"] = findings
    out["total"] = out["read"] + out["tracks"] + out["audit"]
    out["ratio"] = out["total"] / out["load alone"]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=10000)
    ap.add_argument("--joints", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        synth = Path(tmp) / "synthetic.fbx"
        synthetic(synth, args.joints, args.frames)
        results = {"kenney": measure(KENNEY, args.repeats),
                   f"synthetic {args.joints}x{args.frames}": measure(synth, args.repeats)}
        size = os.path.getsize(synth)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for name, r in results.items():
        extra = f", {size / 1e6:.0f} MB ASCII" if name.startswith("synthetic") else ""
        print(f"{name}: {r['keys']} keys, {r['tracks_n']} tracks, {r['findings']} findings"
              f"{extra}")
        print(f"  ufbx load alone (baseline)  : {r['load alone'] * 1e3:9.1f} ms")
        print(f"  read (child process, copy)  : {r['read'] * 1e3:9.1f} ms")
        print(f"  tracks at the keys          : {r['tracks'] * 1e3:9.1f} ms")
        print(f"  audit (both families)       : {r['audit'] * 1e3:9.1f} ms")
        print(f"  read + tracks + audit       : {r['total'] * 1e3:9.1f} ms  "
              f"ratio {r['ratio']:.1f} x the load alone")


if __name__ == "__main__":
    main()
