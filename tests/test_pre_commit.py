"""pre-commit end to end: the repository's hooks stop a flawed asset and fix it on request.

pre-commit builds a hook's environment by pip-installing the hook's
repository, which needs the network and minutes. The test instead turns the
manifest's own hooks (same ids, ``entry``, ``files``, ``stages``) into a
``repo: local`` configuration with ``language: system`` pointing at this
environment's ``quatlab``, so what is tested is the manifest and the
commands, offline, in a temporary git repository with a flawed and a clean
asset (docs/pipeline.md, "pre-commit").
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
GLTF = ROOT / "tests" / "data" / "gltf"
BIN = Path(sys.executable).parent
MANIFEST = ROOT / ".pre-commit-hooks.yaml"


def _run(args, cwd, env, check=False):
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    if check:
        assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def local_config() -> str:
    """The manifest's hooks as a ``repo: local`` configuration run by this environment."""
    hooks = []
    for hook in yaml.safe_load(MANIFEST.read_text()):
        command, _, rest = hook["entry"].partition(" ")
        assert command == "quatlab"
        hooks.append({**hook, "language": "system", "entry": f"{BIN / 'quatlab'} {rest}"})
    return yaml.safe_dump({"repos": [{"repo": "local", "hooks": hooks}]})


@pytest.fixture
def repo(tmp_path):
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "HOME": str(tmp_path),
           "GIT_CONFIG_NOSYSTEM": "1", "PRE_COMMIT_COLOR": "never", "LANGUAGE": "en",
           "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    work = tmp_path / "assets"
    work.mkdir()
    for args in (["init", "-q"], ["config", "user.name", "T"], ["config", "user.email", "t@x"],
                 ["config", "commit.gpgsign", "false"]):
        _run(["git", *args], work, env, check=True)
    (work / ".pre-commit-config.yaml").write_text(local_config())
    shutil.copy(GLTF / "RiggedSimple.gltf", work / "clean.gltf")
    (work / "package.json").write_text('{"name": "not a track"}\n')
    _run([str(BIN / "pre-commit"), "install"], work, env, check=True)
    return work, env


def test_the_manifest_is_valid():
    proc = subprocess.run([str(BIN / "pre-commit"), "validate-manifest", str(MANIFEST)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    hooks = {h["id"]: h for h in yaml.safe_load(MANIFEST.read_text())}
    assert set(hooks) == {"quatlab-check", "quatlab-fix"}
    assert hooks["quatlab-fix"]["stages"] == ["manual"]     # it writes: only when asked
    assert "stages" not in hooks["quatlab-check"]


def test_a_flawed_asset_is_stopped_then_fixed_on_request(repo):
    work, env = repo
    _run(["git", "add", "-A"], work, env, check=True)
    _run(["git", "commit", "-qm", "clean asset"], work, env, check=True)   # passes the hook

    flawed = GLTF / "AnimatedTriangle.gltf"
    shutil.copy(flawed, work / "tri.gltf")
    _run(["git", "add", "tri.gltf"], work, env, check=True)
    proc = _run(["git", "commit", "-qm", "flawed asset"], work, env)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out
    assert "quatlab check" in out and "Failed" in out and "sign_flip" in out
    assert "quatlab fix" not in out                     # the fixer is not part of a commit
    assert (work / "tri.gltf").read_bytes() == flawed.read_bytes()
    log = _run(["git", "log", "--format=%s"], work, env, check=True).stdout.split()
    assert log == ["clean", "asset"]

    proc = _run([str(BIN / "pre-commit"), "run", "quatlab-fix", "--hook-stage", "manual",
                 "--files", "tri.gltf", "clean.gltf"], work, env)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1 and "files were modified by this hook" in out, out
    # What the hook wrote is what `quatlab fix IN OUT` writes as a copy.
    copy = work.parent / "copy.gltf"
    _run([str(BIN / "quatlab"), "fix", str(flawed), str(copy)], work, env, check=True)
    assert (work / "tri.gltf").read_bytes() == copy.read_bytes()
    changed = _run(["git", "status", "--porcelain"], work, env, check=True).stdout
    assert changed.split() == ["AM", "tri.gltf"]        # clean.gltf is untouched

    _run(["git", "add", "tri.gltf"], work, env, check=True)
    proc = _run(["git", "commit", "-qm", "fixed asset"], work, env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
