"""Layering guards (docs/architecture.md).

* The repo's ``math/`` folder must never shadow the standard ``math`` module
  (checked with ``python -S`` from the repo root, where nothing pre-imports
  ``math``), so it must have no ``__init__.py``.
* ``quatlab.math`` and every module of ``quatlab.app.model`` and
  ``quatlab.app.io`` import no Qt, pyqtgraph or OpenGL, even indirectly (the
  import-linter contracts in ``pyproject.toml`` check the import graph; this
  imports the modules for real, so a dynamic import cannot slip through).
* The doctests of every ``quatlab.math`` module pass (run through importlib:
  ``pytest --doctest-modules math`` cannot work with this layout).
"""

from __future__ import annotations

import doctest
import importlib
import io
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import report_schema

ROOT = Path(__file__).resolve().parents[1]
MATH_DIR = ROOT / "math"

MATH_MODULES = sorted(
    f"quatlab.math.{p.stem}" for p in MATH_DIR.glob("*.py") if p.stem != "__init__"
)
# Qt-free modules of the app layer: the folder says the layer, so every module
# in app/model and app/io is discovered; a minimum list guards the discovery.
APP_MODEL_MODULES = sorted(
    "quatlab.app." + ".".join(p.relative_to(ROOT / "app").with_suffix("").parts)
    for folder in ("model", "io")
    for p in (ROOT / "app" / folder).rglob("*.py")
    if p.stem != "__init__"
) + ["quatlab.app.i18n"]
FORBIDDEN_PREFIXES = ("PyQt6", "pyqtgraph", "OpenGL")


def _run(args, cwd, timeout=60):
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout
    )


# --------------------------------------------------------------------------- (a), (b) shadowing


def test_math_folder_has_no_init():
    assert MATH_DIR.is_dir()
    assert not (MATH_DIR / "__init__.py").exists()


def test_stdlib_math_wins_from_repo_root_without_site():
    # -S: no site import, so nothing has imported math before the repo root is searched.
    proc = _run(["-S", "-c", "import math; math.floor(1.5)"], cwd=ROOT)
    assert proc.returncode == 0, proc.stderr


def test_stdlib_math_and_numpy_and_quatlab_math_from_repo_root():
    code = (
        "import math, numpy\n"
        "from quatlab.math import quaternion\n"
        "assert math.floor(1.5) == 1 and hasattr(math, 'pi')\n"
        "assert quaternion.__name__ == 'quatlab.math.quaternion'\n"
    )
    proc = _run(["-c", code], cwd=ROOT)
    assert proc.returncode == 0, proc.stderr


def test_shadowing_check_is_meaningful_here(tmp_path):
    # The -S check above can only catch a shadowing math/ package if this interpreter
    # loads math from a file (not compiled in). Show that a math/__init__.py would fail it.
    (tmp_path / "math").mkdir()
    (tmp_path / "math" / "__init__.py").write_text("raise ImportError('shadowed')\n")
    proc = _run(["-S", "-c", "import math; math.floor(1.5)"], cwd=tmp_path)
    builtin = "math" in sys.builtin_module_names
    assert (proc.returncode == 0) == builtin, proc.stderr


# --------------------------------------------------------------------------- (c) no Qt


def test_discovered_the_math_and_model_modules():
    for name in ("quaternion", "interpolate", "curves"):
        assert f"quatlab.math.{name}" in MATH_MODULES
    for name in ("model.state", "model.presets", "io.tracks", "io.gltf.read",
                 "io.tables.table_io", "io.bvh.file"):
        assert f"quatlab.app.{name}" in APP_MODEL_MODULES


def test_math_and_model_modules_import_no_qt():
    # One fresh interpreter imports them all in turn and records which forbidden modules
    # each import brought in, so a failure names the module responsible.
    modules = MATH_MODULES + APP_MODEL_MODULES
    code = textwrap.dedent(
        f"""
        import importlib, json, sys
        def bad():
            return {{m for m in sys.modules if m.split('.')[0] in {FORBIDDEN_PREFIXES!r}}}
        report = {{}}
        seen = bad()
        report['<startup>'] = sorted(seen)
        for name in {modules!r}:
            importlib.import_module(name)
            new = bad() - seen
            seen |= new
            report[name] = sorted(new)[:5]
        print(json.dumps(report))
        """
    )
    proc = _run(["-c", code], cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert set(report) == {"<startup>", *modules}
    offenders = {name: mods for name, mods in report.items() if mods}
    assert offenders == {}, f"Qt/pyqtgraph/OpenGL imported by: {offenders}"


# --------------------------------------------------------------------------- (d) doctests


# Every math, io and model module's examples run; these must have some.
MUST_HAVE_EXAMPLES = set(MATH_MODULES) | {
    f"quatlab.app.{name}"
    for name in ("model.state", "model.history", "model.presets", "io.parse", "model.explain",
                 "io.curves_io", "model.keyframes_model", "io.track_audit", "io.json_text",
                 "io.atomic", "io.animation_io", "i18n", "io.bvh.keyframes",
                 "model.wrap_lesson", "model.bvh_pose", "io.bvh.file", "io.quat_export",
                 "io.gltf.scene", "model.rig", "model.rig_players", "model.skinning",
                 "model.pose_report", "io.fbx.curves", "io.fbx.evaluate", "io.fbx.audit",
                 "io.fbx.keyframes", "io.fbx.export", "model.fbx_rig", "model.rig_compare")
}


@pytest.mark.parametrize("module", MATH_MODULES + APP_MODEL_MODULES)
def test_doctests(module):
    mod = importlib.import_module(module)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    out = io.StringIO()
    for test in finder.find(mod, module):
        runner.run(test, out=out.write)
    result = runner.summarize(verbose=False)
    if module in MUST_HAVE_EXAMPLES:
        assert result.attempted > 0, f"{module} has no doctest examples"
    assert result.failed == 0, out.getvalue()


# --------------------------------------------------------------------------- (e) headless commands


_BLOCK_QT = textwrap.dedent(
    """
    import sys
    class _NoQt:
        # A machine where PyQt6, pyqtgraph and OpenGL cannot even be imported.
        def find_spec(self, name, path=None, target=None):
            if name.split('.')[0] in ('PyQt6', 'pyqtgraph', 'OpenGL'):
                raise ImportError(f'{name} is blocked for this test')
            return None
    sys.meta_path.insert(0, _NoQt())
    from quatlab.app.commands.cli import main
    sys.exit(main(sys.argv[1:]))
    """
)


@pytest.mark.parametrize("argv, status", [
    (["check", str(ROOT / "tests" / "data" / "gltf" / "AnimatedTriangle.gltf")], 1),
    (["check", str(ROOT / "tests" / "data" / "gltf" / "RiggedSimple.gltf"), "--json"], 0),
    (["curves", "--preset", "negated-20", "--samples", "5"], 0),
    (["presets"], 0),
    (["check", str(ROOT / "tests" / "data" / "bvh" / "test_mocapbank.bvh")], 1),
    (["check", str(ROOT / "tests" / "data" / "bvh"), "--jobs", "2"], 1),
    (["pose", str(ROOT / "tests" / "data" / "gltf" / "CesiumMilkTruck.glb"), "--time", "1"], 0),
    (["check", str(ROOT / "tests" / "data" / "gltf" / "CesiumMilkTruck.glb"), "--after",
      "quantize:16,resample:30"], 1),
    (["check", str(ROOT / "tests" / "data" / "fbx" / "maya_dq_weights_7500_ascii.fbx")], 1),
    (["compare", str(ROOT / "tests" / "data" / "fbx" / "maya_extrapolate_cube_7700_binary.fbx"),
      str(ROOT / "tests" / "data" / "fbx" / "converted"
          / "maya_extrapolate_cube_7700_binary.fbx2gltf.glb")], 1),
])
def test_headless_commands_run_without_qt(argv, status):
    proc = _run(["-c", _BLOCK_QT, *argv], cwd=ROOT)
    assert proc.returncode == status, proc.stderr
    assert "blocked" not in proc.stderr
    assert proc.stdout
    if argv[0] == "check" and "--json" in argv:
        report_schema.file_report(proc.stdout)


def test_fix_runs_without_qt(tmp_path):
    out = tmp_path / "fixed.gltf"
    src = ROOT / "tests" / "data" / "gltf" / "AnimatedTriangle.gltf"
    proc = _run(["-c", _BLOCK_QT, "fix", str(src), str(out)], cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert out.is_file()


@pytest.mark.parametrize("argv", [
    ["fix", str(ROOT / "tests" / "data" / "bvh" / "test_mocapbank.bvh"), "{out}/fixed.bvh"],
    ["export-quats", str(ROOT / "tests" / "data" / "bvh" / "test_mocapbank.bvh"), "{out}/q.npy"],
    ["fix", str(ROOT / "tests" / "data" / "fbx" / "maya_dq_weights_7500_ascii.fbx"),
     "{out}/dq.bvh"],
    ["export-quats", str(ROOT / "tests" / "data" / "fbx" / "maya_dq_weights_7500_ascii.fbx"),
     "{out}/dq.csv"],
])
def test_bvh_commands_run_without_qt(tmp_path, argv):
    argv = [a.format(out=tmp_path) for a in argv]
    proc = _run(["-c", _BLOCK_QT, *argv], cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert Path(argv[-1]).is_file()


@pytest.mark.parametrize("argv", [
    ["check", str(ROOT / "tests" / "data" / "usd" / "RiggedSimple.usdz")],
    ["fix", str(ROOT / "tests" / "data" / "usd" / "RiggedSimple.usdz"), "{out}/fixed.usdz"],
    ["export-quats", str(ROOT / "tests" / "data" / "usd" / "RiggedSimple.usdz"), "{out}/q.csv"],
    ["pose", str(ROOT / "tests" / "data" / "usd" / "RiggedSimple.usdz"), "--time", "1"],
])
def test_usd_commands_run_without_qt(tmp_path, argv):
    pytest.importorskip("pxr")
    argv = [a.format(out=tmp_path) for a in argv]
    proc = _run(["-c", _BLOCK_QT, *argv], cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "blocked" not in proc.stderr and proc.stdout


def test_the_qt_block_is_real():
    # The window command must fail under the same block: otherwise the tests
    # above would pass whether or not the headless commands avoid Qt.
    proc = _run(["-c", _BLOCK_QT, "--preset", "negated-20"], cwd=ROOT)
    assert proc.returncode != 0
    assert "blocked" in proc.stderr
