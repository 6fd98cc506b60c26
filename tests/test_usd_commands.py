"""USD on the command line: check (file and folder), pose, export-quats, the missing-extra line.

docs/formats.md, "USD". Exit codes as for glTF: 0 clean, 1 findings, 2 unreadable.
Oracles: usd-core read directly (sample times, stored quaternions), the glTF reader
for the mixed folder, hand-worked time columns.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
import report_schema

pytest.importorskip("pxr")
from pxr import Usd, UsdSkel  # noqa: E402

from quatlab.app.commands import cli  # noqa: E402
from quatlab.app.io.usd import isolate  # noqa: E402

DATA = Path(__file__).parent / "data" / "usd"
ELEPHANT = DATA / "SoC-ElephantWithMonochord.usdc"


def test_check_exit_codes_and_json(capsys):
    assert cli.main(["check", str(DATA / "CesiumMan.usdz")]) == 0
    assert "19 rotation tracks" in capsys.readouterr().out
    assert cli.main(["check", str(ELEPHANT), "--json"]) == 1
    doc = report_schema.file_report(capsys.readouterr().out)
    tracks = doc["tracks"]
    assert len(tracks) == 29
    flips = [t for t in tracks if t["findings"]]
    assert {t["animation"] for t in flips} == {
        "/SoC_ElephantWithMonochord/Object/Elefant/_anim.rotations"}
    assert sum(len(t["findings"]) for t in tracks) == 84
    assert {t["storage"] for t in tracks} == {"float"}


def test_check_a_folder_with_usd_beside_gltf(tmp_path, capsys):
    for name in ("CesiumMan.usdz", "SoC-ElephantWithMonochord.usdc"):
        shutil.copyfile(DATA / name, tmp_path / name)
    shutil.copyfile(DATA.parent / "gltf" / "CesiumMilkTruck.glb", tmp_path / "truck.glb")
    (tmp_path / "broken.usda").write_text("#usda 1.0\ndef {\n")
    assert cli.main(["check", str(tmp_path), "--json"]) == 2
    lines = report_schema.folder_report(capsys.readouterr().out)
    by_file = {Path(d["file"]).name: d for d in lines if "file" in d}
    assert by_file["CesiumMan.usdz"]["status"] == "ok"
    assert by_file["SoC-ElephantWithMonochord.usdc"]["kinds"] == {"sign_flip": 84}
    assert by_file["truck.glb"]["kinds"] == {"sign_flip": 2}
    assert by_file["broken.usda"]["status"] == "unreadable"
    assert "usd-core cannot read it" in by_file["broken.usda"]["error"]


def test_export_quats_writes_a_skeleton_at_its_sample_times(tmp_path, capsys):
    out = tmp_path / "q.csv"
    assert cli.main(["export-quats", str(ELEPHANT), str(out)]) == 0
    rows = out.read_text().splitlines()
    stage = Usd.Stage.Open(str(ELEPHANT))
    anim = UsdSkel.Animation(stage.GetPrimAtPath("/SoC_ElephantWithMonochord/Object/Elefant/_anim"))
    times = anim.GetRotationsAttr().GetTimeSamples()
    assert rows[0].startswith("# quaternions (w, x, y, z)")
    assert "frames: 3023, joints: 27" in rows[0]
    assert rows[1].startswith("frame,time,mixamorig_Hips_w,")
    first = rows[2].split(",")
    assert float(first[1]) == times[0] / 60.0            # the sample's own time, not 0
    hips = anim.GetRotationsAttr().Get(times[0])[0]
    np.testing.assert_allclose([float(v) for v in first[2:6]],
                               [hips.GetReal(), *hips.GetImaginary()], rtol=0, atol=0)
    npy = tmp_path / "m.npy"
    assert cli.main(["export-quats", str(ELEPHANT), str(npy), "--skeleton",
                     "/SoC_ElephantWithMonochord/Object/Elefant_Monochord_Play/_skel"]) == 0
    meta = json.loads(npy.with_suffix(".json").read_text())
    assert meta["shape"] == [3023, 2, 4] and len(meta["times"]) == 3023
    q = np.load(npy)
    assert (np.einsum("fjc,fjc->fj", q[1:], q[:-1]) >= 0).all()   # sign-continuous
    assert cli.main(["export-quats", str(ELEPHANT), str(tmp_path / "x.csv"), "--skeleton",
                     "nope"]) == 2
    assert "no skeleton 'nope'" in capsys.readouterr().err


def test_pose_json_names_joints_at_seconds(capsys):
    assert cli.main(["pose", str(DATA / "RiggedSimple.usdz"), "--time", "1.0", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["time"] == 1.0 and report["animation"]["name"] == "stage"
    assert [n["name"] for n in report["nodes"]][:2] == ["stage", "Skeleton"]
    assert report["skins"][0]["joints"]


def test_without_the_extra_every_command_says_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setattr(isolate, "usd_available", lambda: False)
    for argv in (["check", str(ELEPHANT)], ["pose", str(ELEPHANT), "--time", "1"],
                 ["export-quats", str(ELEPHANT), "/nonexistent/q.csv"]):
        assert cli.main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert err.endswith("reading USD files needs Pixar's usd-core: pip install "
                            "'quatlab[usd]'") and "\n" not in err
