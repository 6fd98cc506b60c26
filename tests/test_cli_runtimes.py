"""``quatlab check --runtimes / --after`` on the command line (app/commands/check_runtimes.py).

Figures: a sign flip played by a stored-sign lerp is 180 deg off the reference
mid-segment (tests/test_runtime_check.py says why); the truck's flips are at
keys 14-15 of both wheels (tests/data/gltf/README.md).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import report_schema
from test_cli import call_main as call  # (status, stdout, stderr)

DATA = Path(__file__).parent / "data"
TRUCK = str(DATA / "gltf/CesiumMilkTruck.glb")


def test_truck_table_names_the_runtimes_that_glitch(capsys):
    status, out, err = call(capsys, "check", TRUCK, "--runtimes", "all")
    assert status == 1 and err == ""
    lines = out.splitlines()
    header = next(line for line in lines if line.strip().startswith("finding (keys)"))
    ids = header.split()[2:]
    assert ids[0] == "gltf" and "nlerp" in ids and "godot_comp" in ids
    flips = [line.split() for line in lines if line.strip().startswith("sign_flip (14-15)")]
    assert len(flips) == 2
    for cells in flips:
        by_id = dict(zip(ids, cells[2:], strict=True))
        assert by_id["nlerp"] == by_id["unity_quat"] == by_id["slerp"] == "180"
        assert by_id["gltf"] == by_id["three"] == by_id["playcanvas"] == "-"
    glitch_line = next(line for line in lines if line.startswith("Glitches"))
    assert "nlerp" in glitch_line and "gltf" not in glitch_line and "three" not in glitch_line


def test_truck_json_carries_the_table(capsys):
    status, out, _err = call(capsys, "check", TRUCK, "--runtimes", "gltf,nlerp,three", "--json")
    assert status == 1
    doc = report_schema.file_report(out)
    assert doc["after"] == [] and len(doc["tracks"]) == 2
    table = doc["runtimes"]
    assert table["ids"] == ["gltf", "nlerp", "three"] and table["glitching"] == ["nlerp"]
    flips = [r for r in table["rows"] if r["kind"] == "sign_flip"]
    assert [r["keys"] for r in flips] == [[14, 15], [14, 15]]
    # 180 to 4 decimals but for the float32 keys' lengths (NLERP lerps them unnormalized).
    assert all(r["degrees"]["nlerp"] > 179.999 and r["degrees"]["gltf"] == 0.0 for r in flips)


def test_runtime_rows_no_finding_names_are_in_the_report(capsys):
    # CesiumMan has no finding, but its keys written as Unity Euler curves wrap: the table has
    # rows of kind "runtime" there (schema 1.2), and the report is valid.
    status, out, _err = call(capsys, "check", str(DATA / "gltf/CesiumMan.glb"), "--runtimes",
                             "gltf,unity_euler", "--json")
    assert status == 1
    doc = report_schema.file_report(out)
    assert all(not t["findings"] for t in doc["tracks"])
    rows = doc["runtimes"]["rows"]
    assert rows and {r["kind"] for r in rows} == {"runtime"}
    assert all(r["degrees"]["unity_euler"] > 170 and r["degrees"]["gltf"] == 0.0 for r in rows)


def _write_csv(path: Path, times, keys_wxyz):
    rows = ["time,w,x,y,z"] + [",".join(repr(float(v)) for v in (t, *q))
                               for t, q in zip(times, keys_wxyz, strict=True)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


def test_after_steps_audit_a_csv_track_as_the_pipeline_leaves_it(capsys, tmp_path):
    # A steady turn through 170..190 deg about Z: stored continuously, no finding. ACL's
    # w >= 0 flips the keys past 180 deg, which the audit then reports.
    angles = np.radians(np.arange(170.0, 191.0, 5.0))
    keys = np.stack([np.cos(angles / 2), 0 * angles, 0 * angles, np.sin(angles / 2)], axis=1)
    path = tmp_path / "turn.csv"
    _write_csv(path, np.arange(5) / 30, keys)
    status, out, _ = call(capsys, "check", str(path))
    assert status == 0
    status, out, _ = call(capsys, "check", str(path), "--after", "positive-w", "--json")
    doc = report_schema.file_report(out)
    assert status == 1 and doc["after"] == ["positive-w"]
    (track,) = doc["tracks"]
    assert [f["kind"] for f in track["findings"]] == ["sign_flip"]
    assert track["storage"].endswith("after positive-w")
    table = doc["runtimes"]
    (row,) = [r for r in table["rows"] if r["kind"] == "sign_flip"]
    assert row["degrees"]["gltf"] < 1e-6 and row["degrees"]["acl"] < 0.1   # ACL undoes it
    assert row["degrees"]["nlerp"] == 180.0


def test_bad_options_fail_on_one_line(capsys, tmp_path):
    for args, text in ((["--runtimes", "unity"], "unknown runtime 'unity'"),
                       (["--after", "quantize:12"], "8 or 16 bits"),
                       (["--after", "smooth"], "unknown step 'smooth'")):
        status, out, err = call(capsys, "check", TRUCK, *args)
        assert status == 2 and out == "" and text in err and err.count("\n") == 1
    status, _out, err = call(capsys, "check", str(tmp_path), "--runtimes", "all")
    assert status == 2 and "not a folder" in err
    status, _out, err = call(capsys, "check", TRUCK, TRUCK, "--after", "positive-w")
    assert status == 2 and "several files" in err


def test_help_lists_the_options(capsys):
    status, out, _ = call(capsys, "check", "--help")
    assert status == 0 and "--runtimes IDS" in out and "--after STEPS" in out


def test_runtimes_as_a_subprocess():
    proc = subprocess.run(
        [sys.executable, "-m", "quatlab.app", "check", str(DATA / "gltf/AnimatedTriangle.gltf"),
         "--runtimes", "gltf,babylon,unity_quat", "--json"],
        capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1, proc.stderr
    table = report_schema.file_report(proc.stdout)["runtimes"]
    (row,) = table["rows"]
    assert row["kind"] == "sign_flip" and row["keys"] == [3, 4]
    assert row["degrees"]["unity_quat"] > 179 and row["degrees"]["babylon"] < 0.01
