"""Setting up as a new user: what the scripts and the package promise (README, "Setting up")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[1]


def test_python_dash_m_quatlab_runs_the_command():
    proc = subprocess.run([sys.executable, "-m", "quatlab", "presets"], capture_output=True,
                          text=True, timeout=60, cwd=ROOT.parent)
    assert proc.returncode == 0, proc.stderr
    assert "negated-20" in proc.stdout


def test_samples_ship_with_their_licences(capsys):
    from quatlab.app.commands.check import sample_files
    from quatlab.app.commands.cli import main

    samples = sample_files()
    assert {"AnimatedTriangle", "BoxAnimated"} <= set(samples)
    for name, path in samples.items():
        notes = [Path(f"{path}.LICENSE.md"), Path(f"{path}.README.md")]
        text = " ".join(n.read_text() for n in notes if n.exists())
        assert "CC0" in text or "Creative Commons Attribution 4.0" in text or "CC-BY" in text, name
    assert main(["check", "--sample", "AnimatedTriangle"]) == 1  # one sign flip
    assert "sign_flip" in capsys.readouterr().out


def test_spdx_licence_and_licence_file():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert meta["license"] == "MIT"
    assert "MIT License" in (ROOT / "LICENSE").read_text()


def test_setup_installs_no_recommends_and_no_pip_package():
    text = (ROOT / "scripts" / "setup.sh").read_text()
    assert "--no-install-recommends" in text
    assert "python3-pip" not in text
    assert ">/dev/null" not in text.split("apt-get install", 1)[1].split("\n", 2)[1]


def test_run_app_without_a_display_refuses_with_a_hint(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    proc = subprocess.run([str(ROOT / "scripts" / "run-app.sh")], capture_output=True,
                          text=True, env=env, timeout=300)
    assert proc.returncode == 2
    assert "xvfb-run" in proc.stderr and ".venv/bin/quatlab screenshot" in proc.stderr


def test_readme_tells_a_new_user_what_they_need():
    text = (ROOT / "README.md").read_text()
    assert "only **git**" in text.lower() or "only git" in text.lower()
    assert ".venv/bin/quatlab" in text
    assert "docs/formats.md" in text and "time,w,x,y,z" in text.replace(" ", "")
    assert "--sample" in text
