"""USD fixes, both ways: a corrected copy in the same encoding, and an override layer.

docs/formats.md, "USD: fixing". Oracles: usd-core in this process reads the outputs
(rotation matrices of the samples it returns, by scipy for joint rotations and by
``UsdGeomXformOp.GetOpTransform`` for transform ops, compared with the input's to
1e-6; ``GfDot`` of neighbouring samples), the input's bytes
are hashed before and after, and usd-core's validators (``UsdValidation``, what
``usdchecker`` runs since ``UsdUtils.ComplianceChecker`` left usd-core) must report
nothing on an output that they do not report on the input.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

pytest.importorskip("pxr")
from pxr import Gf, Sdf, Usd, UsdGeom, UsdSkel, UsdValidation, Vt  # noqa: E402

from quatlab.app.commands import cli  # noqa: E402
from quatlab.app.io.keyframe_files import load_keyframes  # noqa: E402
from quatlab.app.io.track_audit import fix_track  # noqa: E402
from quatlab.app.io.usd import package as P  # noqa: E402

DATA = Path(__file__).parent / "data" / "usd"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _matrices(stage_path: Path) -> dict[tuple[str, int], np.ndarray]:
    """Every rotation sample's 3x3 matrix, keyed by (attribute, sample index), from usd-core."""
    stage = Usd.Stage.Open(str(stage_path))
    out = {}
    for prim in stage.Traverse():
        if prim.IsA(UsdSkel.Animation):
            attr = UsdSkel.Animation(prim).GetRotationsAttr()
            for k, t in enumerate(attr.GetTimeSamples()):
                # usd-core's arrays are (i, j, k, real), scipy's order (x, y, z, w).
                xyzw = np.array(attr.Get(t), dtype=np.float64)
                out[(str(attr.GetPath()), k)] = Rotation.from_quat(xyzw).as_matrix()
        if prim.IsA(UsdGeom.Xformable):
            for op in UsdGeom.Xformable(prim).GetOrderedXformOps():
                if op.GetNumTimeSamples():
                    for k, t in enumerate(op.GetTimeSamples()):
                        out[(str(op.GetAttr().GetPath()), k)] = np.array(
                            op.GetOpTransform(t))[:3, :3]
    return out


def _negative_dots(stage_path: Path) -> int:
    stage = Usd.Stage.Open(str(stage_path))
    n = 0
    for prim in stage.Traverse():
        if prim.IsA(UsdSkel.Animation):
            attr = UsdSkel.Animation(prim).GetRotationsAttr()
            vals = [attr.Get(t) for t in attr.GetTimeSamples()]
            n += sum(Gf.Dot(a, b) < 0 for va, vb in zip(vals, vals[1:], strict=False)
                     for a, b in zip(va, vb, strict=True))
    return n


def _validation(stage_path: Path) -> set[tuple[str, str]]:
    validators = UsdValidation.ValidationRegistry().GetOrLoadAllValidators()
    errors = UsdValidation.ValidationContext(validators).Validate(
        Usd.Stage.Open(str(stage_path)))
    return {(e.GetName(), e.GetMessage().replace(str(stage_path), "ROOT")
             .replace(stage_path.name, "ROOT")) for e in errors}


def _assert_same_rotations(src: Path, out: Path) -> None:
    before, after = _matrices(src), _matrices(out)
    assert before.keys() == after.keys() and before
    for key, m in before.items():
        np.testing.assert_allclose(after[key], m, atol=1e-6, err_msg=str(key))


@pytest.fixture
def elephant(tmp_path) -> Path:
    path = tmp_path / "SoC-ElephantWithMonochord.usdc"
    shutil.copyfile(DATA / path.name, path)
    return path


def test_the_long_animation_has_flips_that_both_fixes_remove(elephant, capsys):
    digest = _digest(elephant)
    assert _negative_dots(elephant) == 84
    copy, layer = elephant.with_name("fixed.usdc"), elephant.with_name("fix.usda")
    assert cli.main(["fix", str(elephant), str(copy)]) == 0
    assert cli.main(["fix", str(elephant), str(layer), "--as-layer"]) == 0
    out = capsys.readouterr().out
    assert "negated key" in out and f"wrote {layer}" in out
    assert _digest(elephant) == digest
    assert copy.read_bytes()[:8] == b"PXR-USDC"
    for result in (copy, layer):
        assert _negative_dots(result) == 0
        _assert_same_rotations(elephant, result)
        assert not [f for t in load_keyframes(result).tracks
                    for f in __import__("quatlab.app.io.track_audit", fromlist=["x"])
                    .audit_track(t)]
        assert _validation(result) <= _validation(elephant)
    text = layer.read_text()
    assert "subLayers = [\n        @./SoC-ElephantWithMonochord.usdc@" in text
    assert "timeCodesPerSecond = 60" in text and "metersPerUnit = 0.01" in text
    # Only the animation with flips is overridden, and only its rotations.
    assert text.count("rotations.timeSamples") == 1
    assert "translations" not in text and "Monochord_Play" not in text
    assert sorted(os.listdir(elephant.parent)) == sorted([elephant.name, copy.name, layer.name])


def _with_flips(src_layer, out: Path, attr_path: str, joint: int) -> None:
    """A copy of ``src_layer`` with every other sample of one joint negated."""
    layer = Sdf.Layer.FindOrOpen(str(src_layer))
    copy = Sdf.Layer.CreateAnonymous(".usda")
    copy.TransferContent(layer)
    path = Sdf.Path(attr_path)
    for k, t in enumerate(copy.ListTimeSamplesForPath(path)):
        if k % 2:
            value = list(copy.QueryTimeSample(path, t))
            value[joint] = -value[joint]
            copy.SetTimeSample(path, t, Vt.QuatfArray(value))
    copy.Export(str(out))


def test_a_text_file_is_fixed_in_text(tmp_path):
    src = tmp_path / "lbs.usda"
    _with_flips(DATA / "openusd_testUsdSkelBakeSkinning_lbs.usda", src,
                "/Root/Skeleton/Animation.rotations", 1)
    assert _negative_dots(src) > 10
    digest = _digest(src)
    out = tmp_path / "lbs.fixed.usda"
    kf = load_keyframes(src)
    kf.write_copy(out, [fix_track(t).fixed for t in kf.tracks])
    assert out.read_text().startswith("#usda 1.0")
    assert _negative_dots(out) == 0
    _assert_same_rotations(src, out)
    assert _digest(src) == digest
    assert _validation(out) <= _validation(src)


def test_a_package_is_repackaged_with_its_other_members_as_they_were(tmp_path):
    members = P.read_members(DATA / "RiggedSimple.usdz")
    name = members[0][0]
    inner = tmp_path / name
    inner.write_bytes(members[0][1])
    flipped = tmp_path / ("flipped" + Path(name).suffix)
    stage = Usd.Stage.Open(str(inner))
    anim = next(p for p in stage.Traverse() if p.IsA(UsdSkel.Animation))
    _with_flips(inner, flipped, str(anim.GetPath()) + ".rotations", 1)
    src = tmp_path / "flipped.usdz"
    src.write_bytes(P.write_package([(name, flipped.read_bytes()), *members[1:]]))
    assert _negative_dots(src) > 10
    out = tmp_path / "fixed.usdz"
    assert cli.main(["fix", str(src), str(out)]) == 0
    assert _negative_dots(out) == 0
    _assert_same_rotations(src, out)
    got = P.read_members(out)
    assert [n for n, _d in got] == [n for n, _d in members]
    assert got[1:] == members[1:]
    P.check_package(out)            # stored, 64-byte aligned (UsdzPackageValidator agrees)
    assert _validation(out) <= _validation(src)


RIGID = """#usda 1.0
(
    timeCodesPerSecond = 24
)
def Xform "Wheel"
{
    float3 xformOp:rotateXYZ.timeSamples = { 0: (0, 0, 170), 1: (0, 0, -170), 2: (0, 0, -150) }
    uniform token[] xformOpOrder = ["xformOp:rotateXYZ"]
    def Xform "Hub"
    {
        quatf xformOp:orient.timeSamples = {
            0: (1, 0, 0, 0), 1: (-0.70710677, 0, 0, -0.70710677), 2: (0, 0, 0, 1) }
        uniform token[] xformOpOrder = ["xformOp:orient"]
    }
}
"""


def test_rotate_ops_are_unwrapped_and_orients_made_continuous(tmp_path):
    src = tmp_path / "rigid.usda"
    src.write_text(RIGID)
    layer = tmp_path / "rigid.fix.usda"
    assert cli.main(["fix", str(src), str(layer), "--as-layer"]) == 0
    _assert_same_rotations(src, layer)
    stage = Usd.Stage.Open(str(layer))
    wheel = UsdGeom.Xformable(stage.GetPrimAtPath("/Wheel")).GetOrderedXformOps()[0]
    assert [wheel.Get(t)[2] for t in wheel.GetTimeSamples()] == [170.0, 190.0, 210.0]
    hub = UsdGeom.Xformable(stage.GetPrimAtPath("/Wheel/Hub")).GetOrderedXformOps()[0]
    qs = [hub.Get(t) for t in hub.GetTimeSamples()]
    assert all(Gf.Dot(a, b) >= 0 for a, b in zip(qs, qs[1:], strict=False))
    assert src.read_text() == RIGID


def test_outputs_are_never_clobbered_without_force(elephant, capsys):
    copy = elephant.with_name("fixed.usdc")
    copy.write_bytes(b"keep")
    assert cli.main(["fix", str(elephant), str(copy)]) == 2
    assert "pass --force" in capsys.readouterr().err
    assert copy.read_bytes() == b"keep"
    layer = elephant.with_name("fix.usda")
    layer.write_bytes(b"keep")
    assert cli.main(["fix", str(elephant), str(layer), "--as-layer"]) == 2
    assert layer.read_bytes() == b"keep"
    assert cli.main(["fix", str(elephant), str(layer), "--as-layer", "--force"]) == 0
    assert layer.read_bytes() != b"keep"
    assert not [n for n in os.listdir(elephant.parent) if n.endswith(".partial")]


def test_a_layer_must_sit_where_its_relative_sublayer_reaches(elephant, tmp_path, capsys):
    elsewhere = tmp_path / "sub"
    elsewhere.mkdir()
    out = elsewhere / "fix.usda"
    assert cli.main(["fix", str(elephant), str(out), "--as-layer"]) == 2
    assert "a folder above it" in capsys.readouterr().err
    assert not out.exists()
    assert cli.main(["fix", str(DATA / "../gltf/BoxAnimated.gltf"), str(out), "--as-layer"]) == 2


def test_the_command_runs_as_a_process(elephant):
    out = elephant.with_name("fix.usda")
    proc = subprocess.run([sys.executable, "-m", "quatlab", "fix", str(elephant), str(out),
                           "--as-layer"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert out.exists()


def test_asking_what_a_copy_would_replace_starts_no_child(elephant, monkeypatch):
    from quatlab.app.io.usd import isolate

    kf = load_keyframes(elephant)
    monkeypatch.setattr(isolate, "call", lambda *a, **k: pytest.fail("child started"))
    out = elephant.with_name("fixed.usdc")
    assert kf.existing_outputs(out, kf.tracks) == []
    out.write_bytes(b"x")
    assert kf.existing_outputs(out, kf.tracks) == [out]


def test_the_fix_report_says_euler_ops_are_unwrapped(tmp_path, capsys):
    src = tmp_path / "rigid.usda"
    src.write_text(RIGID)
    assert cli.main(["fix", str(src), str(tmp_path / "out.usda")]) == 0
    out = capsys.readouterr().out
    wheel = next(ln for ln in out.splitlines() if "node 'Wheel'" in ln)
    assert "Euler angles unwrapped" in wheel and "negated" not in wheel
    hub = next(ln for ln in out.splitlines() if "node 'Hub'" in ln)
    assert hub.endswith("negated key 1")
