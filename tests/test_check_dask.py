"""``quatlab check DIR --dask``: 2 local workers, lost workers, resuming (docs/pipeline.md).

One cluster (two worker processes, one thread each, the settings the command
gives its own) serves the module; the command connects to it by address as
it would to a real scheduler. A worker plug-in (``tests/dask_killer.py``)
makes files named ``die_*`` end the worker process that checks them.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import distributed
import numpy as np
import pytest
import report_schema
from bvh_oracle import FREEBVH, MOCAPBANK

from quatlab.app.commands import check_dask
from quatlab.app.commands import check_dir as C
from quatlab.app.commands.cli import main

ROOT = Path(__file__).resolve().parents[1]
GLTF = ROOT / "tests" / "data" / "gltf"


@pytest.fixture(scope="module")
def cluster():
    from dask_killer import KillOnFile

    cluster = check_dask.local_cluster(2)
    with distributed.Client(cluster.scheduler_address) as client:
        client.register_plugin(KillOnFile())
    yield cluster.scheduler_address
    cluster.close()


def _library(root: Path, n_generated: int = 24) -> Path:
    """Shared files (BVH, glTF, GLB) and generated CSV tracks, some with sign flips."""
    (root / "bvh").mkdir(parents=True)
    shutil.copy(MOCAPBANK, root / "bvh" / "walk.bvh")
    shutil.copy(FREEBVH, root / "bvh" / "clean.bvh")
    for name in ("AnimatedTriangle.gltf", "BoxAnimated.gltf", "Fox.glb", "CesiumMan.glb"):
        shutil.copy(GLTF / name, root / name)
    rng = np.random.default_rng(25)
    (root / "gen").mkdir()
    for i in range(n_generated):
        q = rng.normal(size=(6, 4))
        q /= np.linalg.norm(q, axis=1, keepdims=True)
        rows = "".join(f"{t},{w},{x},{y},{z}\n" for t, (w, x, y, z) in enumerate(q))
        (root / "gen" / f"t{i:02d}.csv").write_text("time,w,x,y,z\n" + rows)
    return root


def _report(capfd, argv) -> tuple[int, list[dict]]:
    status = main(argv)
    return status, report_schema.folder_report(capfd.readouterr().out)


def _by_file(lines):
    return {line["file"]: line for line in lines if "file" in line}


def test_two_workers_give_the_serial_report(cluster, tmp_path, capfd):
    lib = _library(tmp_path / "lib")
    s1, serial = _report(capfd, ["check", str(lib), "--json", "--jobs", "1"])
    s2, dask = _report(capfd, ["check", str(lib), "--json", "--dask", cluster])
    assert s1 == s2 == 1
    assert _by_file(dask) == _by_file(serial) and len(_by_file(dask)) == 30
    assert dask[-1] == serial[-1]                                 # the same summary


def test_a_killed_worker_loses_no_file(cluster, tmp_path, capfd):
    lib = _library(tmp_path / "lib", n_generated=6)
    shutil.copy(lib / "gen" / "t00.csv", lib / "gen" / "die_once.csv")
    shutil.copy(lib / "gen" / "t01.csv", lib / "gen" / "die_always.csv")
    status, lines = _report(capfd, ["check", str(lib), "--json", "--dask", cluster])
    files = _by_file(lines)
    walked, _skipped = C.walk_keyframe_files(lib)
    assert sorted(files) == sorted(map(str, walked))              # every file, once
    once = files[str(lib / "gen" / "die_once.csv")]
    assert (lib / "gen" / "die_once.csv.died").exists()           # its first worker died
    want = C.check_one(lib / "gen" / "die_once.csv")              # checked here, in-process
    assert {k: once[k] for k in want} == want and "killed_workers" not in once
    always = files[str(lib / "gen" / "die_always.csv")]
    assert always["status"] == "unreadable" and always["killed_workers"] is True
    assert "died, twice" in always["error"]
    assert status == 2 and lines[-1]["summary"]["unreadable"] == 1


def test_a_resumed_sweep_redoes_nothing(cluster, tmp_path, capfd):
    lib = _library(tmp_path / "lib", n_generated=6)
    shutil.copy(lib / "gen" / "t01.csv", lib / "gen" / "die_always.csv")
    report = tmp_path / "first.jsonl"
    main(["check", str(lib), "--json", "--dask", cluster])
    report.write_text(capfd.readouterr().out)
    first = _by_file(report_schema.folder_report(report.read_text()))

    def no_new_work(*args, **kwargs):
        raise AssertionError("a resumed sweep submitted work")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(check_dask, "_check_on_worker", no_new_work)
        status, again = _report(capfd, ["check", str(lib), "--json", "--dask", cluster,
                                        "--resume", str(report)])
    assert status == 2
    resumed = _by_file(again)
    assert all(line.pop("resumed") is True for line in resumed.values())
    assert resumed == first                # the worker killer too: it is not read again
    assert again[-1]["summary"]["resumed"] == len(first)


def test_dask_local_starts_its_own_cluster(tmp_path, capfd):
    lib = tmp_path / "lib"
    lib.mkdir()
    shutil.copy(GLTF / "AnimatedTriangle.gltf", lib / "tri.gltf")
    shutil.copy(FREEBVH, lib / "clean.bvh")
    status, lines = _report(capfd, ["check", str(lib), "--json", "--dask", "local:1"])
    assert status == 1 and set(_by_file(lines)) == {str(lib / "tri.gltf"), str(lib / "clean.bvh")}


@pytest.mark.parametrize("address, words", [
    ("local:0", "expected local, local:N"),
    ("local:x", "expected local, local:N"),
    ("tcp://127.0.0.1:9", "cannot reach the Dask scheduler at tcp://127.0.0.1:9"),
])
def test_bad_addresses_are_one_line(tmp_path, capfd, monkeypatch, address, words):
    monkeypatch.setattr(check_dask, "CONNECT_TIMEOUT", "1s")
    shutil.copy(FREEBVH, tmp_path / "clean.bvh")
    assert main(["check", str(tmp_path), "--dask", address]) == 2
    err = capfd.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0] and "Traceback" not in err[0]


def test_without_dask_the_flag_says_how_to_install_it(tmp_path):
    shutil.copy(FREEBVH, tmp_path / "clean.bvh")
    code = textwrap.dedent("""
        import sys
        class _NoDask:
            def find_spec(self, name, path=None, target=None):
                if name.split('.')[0] in ('dask', 'distributed'):
                    raise ImportError(name + ' is not installed here')
        sys.meta_path.insert(0, _NoDask())
        from quatlab.app.commands.cli import main
        sys.exit(main(sys.argv[1:]))
    """)
    proc = subprocess.run([sys.executable, "-c", code, "check", str(tmp_path), "--dask", "local"],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("quatlab check: error: --dask needs Dask: "
                                   "pip install 'quatlab[dask]'")
    assert proc.stdout == ""
