"""Pyblish: the validator fails an instance whose animation has findings; its repair fixes it.

Published with ``pyblish.util.publish`` on a context built here, and the
repair run as Pyblish's GUIs run an action (``pyblish.plugin.process`` with
the action's id). The repaired bytes are held to ``quatlab fix IN OUT``'s copy.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pyblish.api
import pyblish.plugin
import pyblish.util
import pytest
from bvh_oracle import MOCAPBANK

from quatlab.app.commands.cli import main
from quatlab.app.integrations import pyblish_plugins
from quatlab.app.integrations.pyblish_plugins.validate_animation import (
    RepairQuatlabAnimation,
    ValidateQuatlabAnimation,
)

ROOT = Path(__file__).resolve().parents[1]
GLTF = ROOT / "tests" / "data" / "gltf"


def _context(*files, family="animation"):
    context = pyblish.api.Context()
    instance = context.create_instance("walkCycle", family=family)
    instance.data["files"] = [str(f) for f in files]
    return context, instance


def _errors(context):
    return [r for r in context.data.get("results", []) if r["error"] is not None]


@pytest.fixture
def assets(tmp_path):
    flawed = Path(shutil.copy(GLTF / "AnimatedTriangle.gltf", tmp_path / "tri.gltf"))
    clean = Path(shutil.copy(GLTF / "RiggedSimple.gltf", tmp_path / "clean.gltf"))
    return flawed, clean


def test_a_clean_instance_passes(assets):
    _flawed, clean = assets
    context, instance = _context(clean)
    pyblish.util.publish(context, plugins=[ValidateQuatlabAnimation])
    assert _errors(context) == []
    (line,) = instance.data["quatlabReport"]
    assert line["status"] == "ok" and line["findings"] == 0


def test_a_flawed_instance_fails_and_the_repair_fixes_it(assets, tmp_path, capsys):
    flawed, clean = assets
    original = flawed.read_bytes()
    context, instance = _context(flawed, clean)
    pyblish.util.publish(context, plugins=[ValidateQuatlabAnimation])
    (error,) = _errors(context)
    assert error["instance"] is instance and error["plugin"] is ValidateQuatlabAnimation
    assert f"{flawed}: 1 finding" in str(error["error"])
    warnings = [r.getMessage() for r in error["records"]]
    assert len(warnings) == 1 and "sign_flip (keys 3-4)" in warnings[0]
    assert flawed.read_bytes() == original            # validating never writes

    action = pyblish.plugin.process(ValidateQuatlabAnimation, context,
                                    action=RepairQuatlabAnimation.id)
    assert action["success"], action["error"]
    copy = tmp_path / "copy.gltf"
    assert main(["fix", str(GLTF / "AnimatedTriangle.gltf"), str(copy)]) == 0
    capsys.readouterr()
    assert flawed.read_bytes() == copy.read_bytes()   # the fix, written by the safe writer
    assert sorted(p.name for p in tmp_path.iterdir()) == ["clean.gltf", "copy.gltf", "tri.gltf"]

    again, _instance = _context(flawed, clean)
    pyblish.util.publish(again, plugins=[ValidateQuatlabAnimation])
    assert _errors(again) == []


def test_what_the_repair_cannot_fix_still_fails(tmp_path):
    walk = Path(shutil.copy(MOCAPBANK, tmp_path / "walk.bvh"))
    context, _instance = _context(walk)
    pyblish.util.publish(context, plugins=[ValidateQuatlabAnimation])
    assert "41 findings" in str(_errors(context)[0]["error"])
    pyblish.plugin.process(ValidateQuatlabAnimation, context, action=RepairQuatlabAnimation.id)
    again, _instance = _context(walk)
    pyblish.util.publish(again, plugins=[ValidateQuatlabAnimation])
    assert "11 findings" in str(_errors(again)[0]["error"])   # gimbal lock is the pose's


def test_an_unreadable_file_fails_the_instance(tmp_path):
    bad = tmp_path / "bad.glb"
    bad.write_bytes(b"not a glb")
    context, instance = _context(bad)
    pyblish.util.publish(context, plugins=[ValidateQuatlabAnimation])
    (error,) = _errors(context)
    assert str(bad) in str(error["error"])
    assert instance.data["quatlabReport"][0]["status"] == "unreadable"


def test_other_families_are_not_validated(assets):
    flawed, _clean = assets
    context, instance = _context(flawed, family="model")
    pyblish.util.publish(context, plugins=[ValidateQuatlabAnimation])
    assert _errors(context) == [] and "quatlabReport" not in instance.data


def test_the_plugin_path_is_discovered_without_qt(assets):
    """Pyblish finds the plug-ins in PLUGIN_PATH, in a process where Qt cannot be imported."""
    flawed, _clean = assets
    code = textwrap.dedent(f"""
        import sys
        class _NoQt:
            def find_spec(self, name, path=None, target=None):
                if name.split('.')[0] in ('PyQt6', 'pyqtgraph', 'OpenGL'):
                    raise ImportError(name + ' is blocked for this test')
        sys.meta_path.insert(0, _NoQt())
        import pyblish.api, pyblish.util
        from quatlab.app.integrations import pyblish_plugins
        pyblish_plugins.register()
        names = [p.__name__ for p in pyblish.api.discover()]
        assert 'ValidateQuatlabAnimation' in names, names
        context = pyblish.api.Context()
        context.create_instance('walk', family='animation').data['files'] = [{str(flawed)!r}]
        pyblish.util.publish(context)
        print(sum(r['error'] is not None for r in context.data['results']))
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split()[-1] == "1" and "blocked" not in proc.stderr
    assert Path(pyblish_plugins.PLUGIN_PATH).is_dir()
