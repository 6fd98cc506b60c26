"""Speed of reading keyframe files and of fixing them, on generated files, against a baseline.

Cases (docs/formats.md; targets from the hardening review):

* ``load N``: a glTF with N rotation channels, each with its own input and
  output accessors and buffer views (30 keys, one external ``.bin``), loaded
  with :func:`~quatlab.app.io.keyframe_files.load_keyframes`. Targets: 840
  channels (the shape of Khronos' RecursiveSkeletons) under 0.4 s, 4,000
  under 1 s; the time per channel must not grow with N (linear, not
  quadratic).
* ``json-fix K``: a JSON track of K keys whose every other key is stored as
  -q, fixed with ``quatlab fix``'s path (load, :func:`fix_track`,
  ``write_copy``), and the whole ``quatlab fix`` command (its report
  included). Target: 1,000,000 keys under 5 s of CPU time. Baseline: ``json.loads`` then
  ``json.dumps`` of the same text (what any reader and writer must do),
  measured in the same run; each line repeated ``--repeat`` times.

Run: ``python benchmarks/bench_keyframe_files.py [--channels 840 4000] [--keys 1000000]``
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import tempfile
import time
from pathlib import Path

import numpy as np

from quatlab.app.commands import cli
from quatlab.app.io.keyframe_files import load_keyframes
from quatlab.app.io.track_audit import fix_track


def many_channels(folder: Path, channels: int, keys: int = 30) -> Path:
    """A glTF with ``channels`` rotation channels, each with its own accessors."""
    rng = np.random.default_rng(3)
    times = (np.arange(keys) / 30.0).astype("<f4").tobytes()
    blob = bytearray()
    views, accessors, samplers, chans, nodes = [], [], [], [], []
    for c in range(channels):
        q = rng.normal(size=(keys, 4))
        q /= np.linalg.norm(q, axis=1, keepdims=True)
        for data, kind in ((times, "SCALAR"), (q.astype("<f4").tobytes(), "VEC4")):
            views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(data)})
            acc = {"bufferView": len(views) - 1, "componentType": 5126, "count": keys,
                   "type": kind}
            if kind == "SCALAR":
                acc.update(min=[0.0], max=[float((keys - 1) / 30.0)])
            accessors.append(acc)
            blob += data
        samplers.append({"input": 2 * c, "output": 2 * c + 1})
        chans.append({"sampler": c, "target": {"node": c, "path": "rotation"}})
        nodes.append({"name": f"joint{c}", "rotation": [0, 0, 0, 1]})
    (folder / f"many{channels}.bin").write_bytes(bytes(blob))
    doc = {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": list(range(channels))}],
        "nodes": nodes, "buffers": [{"uri": f"many{channels}.bin", "byteLength": len(blob)}],
        "bufferViews": views, "accessors": accessors,
        "animations": [{"name": "all", "samplers": samplers, "channels": chans}],
    }
    path = folder / f"many{channels}.gltf"
    path.write_text(json.dumps(doc, indent=1))
    return path


def json_track(folder: Path, keys: int) -> Path:
    rng = np.random.default_rng(5)
    q = rng.normal(size=(keys, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    q[:, 3] = np.abs(q[:, 3])
    q[1::2] *= -1
    doc = {"order": "xyzw", "tracks": [{"node": "Bone", "times": (np.arange(keys) / 30).tolist(),
                                        "values": np.round(q, 6).tolist()}]}
    path = folder / f"track{keys}.json"
    path.write_text(json.dumps(doc))
    return path


def seconds(fn) -> float:
    """CPU seconds of this process spent in ``fn``: on a machine shared with
    other jobs, wall time mostly measures them (the wall time is printed too)."""
    start = time.process_time()
    fn()
    return time.process_time() - start


def wall_and_cpu(fn) -> tuple[float, float]:
    start, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - start, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, nargs="*", default=[840, 4000])
    parser.add_argument("--keys", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        per_channel = []
        for n in args.channels:
            path = many_channels(folder, n)
            load_keyframes(path)  # warm the imports and the file cache
            t = min(seconds(lambda p=path: load_keyframes(p)) for _ in range(3))
            target = 0.4 if n <= 840 else 1.0 if n <= 4000 else None
            verdict = "" if target is None else (" ok" if t < target else f" SLOW (>{target} s)")
            ok &= target is None or t < target
            per_channel.append(t / n)
            print(f"load {n:>6} channels: {t:7.3f} s ({1e6 * t / n:6.1f} us/channel){verdict}")
        if len(per_channel) > 1:
            growth = per_channel[-1] / per_channel[0]
            print(f"  per-channel time, largest/smallest file: {growth:.2f} (1 = linear)")
        if args.keys:
            path = json_track(folder, args.keys)
            out = folder / "fixed.json"
            text = path.read_text()

            def baseline():
                json.dumps(json.loads(text))

            def fix():
                kf = load_keyframes(path)
                kf.write_copy(out, [fix_track(t).fixed for t in kf.tracks], force=True)

            def command():  # the whole `quatlab fix IN OUT --force`, its report included
                with contextlib.redirect_stdout(io.StringIO()):
                    status = cli.main(["fix", str(path), str(out), "--force"])
                assert status == 0

            for _ in range(args.repeat):
                base, t = seconds(baseline), seconds(fix)
                wall, whole = wall_and_cpu(command)
                ok &= whole < 5.0
                print(f"json-fix {args.keys:,} keys (CPU s): load+fix+write {t:.2f} s, whole "
                      f"command {whole:.2f} s (wall {wall:.2f} s); json.loads+json.dumps of the "
                      f"text {base:.2f} s (ratio {t / base:.2f}, command {whole / base:.2f})"
                      f"{' ok' if whole < 5.0 else ' SLOW (>5 s)'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
