"""Speed of the rig model: load, evaluate an animation and skin, for three real glTF files.

For RobotExpressive, CesiumMan and Fox (from ``tests/data/gltf``) it measures

* **cold**: :func:`~quatlab.app.model.rig.load_rig`, then the first
  :func:`~quatlab.app.model.rig_players.evaluate` (which also packs the animation's
  channels) and :func:`~quatlab.app.model.skinning.skin_meshes`;
* **per time**: ``evaluate`` + ``skin_meshes`` at times spread over the
  first animation, spec player and naive player, against a **baseline**
  measured in the same run: the same matrix products done as single batched
  numpy calls on precomputed arrays -- one ``(N, 4, 4) @ (N, 4, 4)`` for the
  world matrices, one ``(J, 4, 4) @ (J, 4, 4)`` per skin for the joint
  matrices and the per-vertex blend and transform of every skinned mesh.
  The ratio says what the sampling, the level-by-level composition and
  Python overhead cost on top of the bare arithmetic; it depends less on
  the machine than the milliseconds do.

Each figure is the median over ``--repeats`` rounds. Quaternions are
(w, x, y, z) throughout, as everywhere in QuatLab.

Run: ``python benchmarks/bench_rig.py [--repeats 7] [--times 50]``
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np

from quatlab.app.model import rig as R
from quatlab.app.model import rig_players as P
from quatlab.app.model import skinning as S

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "gltf"
FILES = ["RobotExpressive.glb", "CesiumMan.glb", "Fox.glb"]


def median_seconds(fn, repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def cold(path: Path):
    rig = R.load_rig(path)
    pose = P.evaluate(rig, 0 if rig.animations else None, 0.0)
    S.skin_meshes(rig, pose)
    return rig


def baseline_arrays(rig: R.Rig, rng: np.random.Generator):
    """Random operands of the same shapes the per-time work multiplies."""
    n = len(rig)
    nodes = rng.normal(size=(2, n, 4, 4))
    skins = [rng.normal(size=(2, len(s.joints), 4, 4)) for s in rig.skins]
    meshes = [(rng.normal(size=(len(m.positions), 3)), m.joints, m.weights, m.skin)
              for m in rig.meshes if rig.in_scene[m.node]]
    return nodes, skins, meshes


def baseline(arrays) -> None:
    nodes, skins, meshes = arrays
    world = nodes[0] @ nodes[1]
    jms = [a @ b for a, b in skins]
    for pos, joints, weights, skin in meshes:
        if skin is None:
            pos @ world[0, :3, :3].T  # a rigid mesh: one transform
        else:
            blended = np.einsum("vk,vkab->vab", weights, jms[skin][:, :3][joints])
            np.einsum("vab,vb->va", blended[:, :, :3], pos)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--times", type=int, default=50, help="times sampled per round")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(3)
    print(f"{'file':<22}{'nodes':>6}{'verts':>7}{'cold ms':>9}"
          f"{'spec ms':>9}{'naive ms':>9}{'base ms':>9}{'ratio':>7}")
    for name in FILES:
        path = DATA / name
        cold_s = median_seconds(lambda path=path: cold(path), args.repeats)
        rig = cold(path)
        anim = rig.animations[0]
        times = np.linspace(anim.start, anim.end, args.times)
        per = {}
        for player in P.PLAYERS:
            def run(player=player, rig=rig, anim=anim, times=times):
                for t in times:
                    S.skin_meshes(rig, P.evaluate(rig, anim, t, player))
            per[player] = median_seconds(run, args.repeats) / len(times)
        arrays = baseline_arrays(rig, rng)

        def base(arrays=arrays, times=times):
            for _ in times:
                baseline(arrays)
        base_s = median_seconds(base, args.repeats) / len(times)
        verts = sum(len(m.positions) for m in rig.meshes)
        print(f"{name:<22}{len(rig):>6}{verts:>7}{cold_s * 1e3:>9.1f}"
              f"{per['spec'] * 1e3:>9.3f}{per['naive'] * 1e3:>9.3f}{base_s * 1e3:>9.3f}"
              f"{per['spec'] / base_s:>7.1f}")
    print("per-time figures are evaluate + skin_meshes at one time; ratio = spec / baseline")


if __name__ == "__main__":
    main()
