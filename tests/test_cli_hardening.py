"""Command-line robustness: one-line errors with exit 2, numbers that look like options, pipes.

docs/formats.md ("Curves", "CSV tracks", "JSON tracks") and the exit statuses
of ``quatlab check`` and ``quatlab fix``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from quatlab.app.commands.cli import main

DATA = Path(__file__).parent / "data" / "gltf"


def _one_line(capsys, argv, *words, status=2):
    assert main(argv) == status
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    for w in words:
        assert w in err, err
    return err


@pytest.mark.parametrize("field", ["values", "times"])
def test_json_track_with_a_huge_integer(tmp_path, capsys, field):
    doc = {"order": "wxyz", "times": [0, 1], "values": [[1, 0, 0, 0], [1, 0, 0, 0]]}
    if field == "values":
        doc["values"][1][2] = 10**400
    else:
        doc["times"][1] = 10**400
    (tmp_path / "t.json").write_text(json.dumps(doc))
    _one_line(capsys, ["check", str(tmp_path / "t.json")], "too large", field)


def test_csv_with_a_double_bom(tmp_path, capsys):
    (tmp_path / "t.csv").write_bytes(b"\xef\xbb\xbf\xef\xbb\xbftime,w,x,y,z\n0,1,0,0,0\n")
    _one_line(capsys, ["check", str(tmp_path / "t.csv")], "byte-order marks")


@pytest.mark.parametrize("value", ["-1e-5", "-1E+2", "1e-320", "-.5", "-1e-320"])
def test_curves_takes_numbers_that_look_like_options(capsys, value):
    assert main(["curves", "--q0", "1", value, "0", "0", "--q1", "1", "0", "0", "0",
                 "--samples", "3"]) == 0
    assert json.loads(capsys.readouterr().out)["t"] == [0.0, 0.5, 1.0]


def test_curves_minus_inf_is_called_not_finite(capsys):
    _one_line(capsys, ["curves", "--q0", "1", "0", "0", "-inf", "--q1", "1", "0", "0", "0"],
              "--q0", "infinite")


def test_curves_t_values_are_round(capsys):
    assert main(["curves", "--preset", "negated-20", "--samples", "21"]) == 0
    t = json.loads(capsys.readouterr().out)["t"]
    assert t[7] == 0.35 and t == [round(i / 20, 15) for i in range(21)]


def test_presets_print_no_negative_zero(capsys):
    assert main(["presets"]) == 0
    out = capsys.readouterr().out
    assert "-0," not in out and "-0)" not in out and "+0" in out


def test_file_name_with_a_newline_stays_on_one_line(tmp_path, capsys):
    bad = tmp_path / "two\nlines.gltf"
    bad.write_text("{not json")
    err = _one_line(capsys, ["check", str(bad)])
    assert "two\\nlines.gltf" in err


def test_unknown_command_and_missing_file_exit_2_without_a_window(capsys):
    with pytest.raises(SystemExit) as info:  # argparse's own exit
        main(["curvez"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "invalid choice: 'curvez'" in err
    assert "curves" in err
    _one_line(capsys, ["missing.gltf"], "missing.gltf", "no such file")


def test_no_display_says_what_to_do():
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    proc = subprocess.run([sys.executable, "-m", "quatlab.app"], capture_output=True,
                          text=True, env=env, timeout=60)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "xvfb-run" in proc.stderr


def test_check_json_into_a_closed_pipe_keeps_the_status(tmp_path):
    # Enough findings that the report outgrows the pipe before `head` leaves.
    n = 3000
    q = np.tile([[1.0, 0, 0, 0], [-1.0, 0, 0, 0]], (n // 2, 1))
    (tmp_path / "t.json").write_text(json.dumps(
        {"order": "wxyz", "times": list(range(n)), "values": q.tolist()}))
    proc = subprocess.run(
        f'"{sys.executable}" -m quatlab.app check --json "{tmp_path / "t.json"}" | head -1; '
        f'exit ${{PIPESTATUS[0]}}',
        shell=True, executable="/bin/bash", capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr


def test_fix_normalize_reports_only_changed_keys(tmp_path, capsys):
    # float32-exact unit keys and one key of length 2: only that one changes.
    (tmp_path / "t.csv").write_text("time,w,x,y,z\n0,1,0,0,0\n1,0.6,0.8,0,0\n2,2,0,0,0\n")
    assert main(["fix", str(tmp_path / "t.csv"), str(tmp_path / "o.csv"), "--normalize"]) == 0
    out = capsys.readouterr().out
    assert "normalized 2\n" in out or out.splitlines()[0].endswith("normalized 2")


def test_fix_normalize_float32_keys_already_unit_are_not_reported(tmp_path, capsys):
    from gltf_forge import doc, payload
    from gltf_forge import write as write_doc

    # float32 keys whose length is not exactly 1 in float64, but whose
    # normalized value rounds to the same float32: storing it changes nothing.
    rng = np.random.default_rng(1)
    q = rng.normal(size=(4000, 4))
    q32 = (q / np.linalg.norm(q, axis=1, keepdims=True)).astype(np.float32)
    q64 = q32.astype(np.float64)
    n = np.linalg.norm(q64, axis=1)
    same = (n != 1.0) & ((q64 / n[:, None]).astype(np.float32) == q32).all(axis=1)
    keys = q32[same][:8]
    keys[keys[:, 3] < 0] *= -1  # one hemisphere: no sign flips
    keys = keys[np.argsort(keys[:, 3])]
    assert len(keys) == 8
    data = payload(np.arange(8, dtype=np.float32), keys)
    (tmp_path / "k.bin").write_bytes(data)
    src = write_doc(tmp_path / "k.gltf", doc("k.bin", len(data), n=8))
    assert main(["fix", str(src), str(tmp_path / "o.gltf"), "--normalize"]) == 0
    out = capsys.readouterr().out
    assert "normalized" not in out, out


def test_fix_summarises_unchanged_tracks(tmp_path, capsys):
    src = DATA / "CesiumMan.glb"
    assert main(["fix", str(src), str(tmp_path / "o.glb")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert not any(line.endswith(": unchanged") for line in lines)
    assert any("unchanged" in line and "tracks" in line for line in lines)
    assert len(lines) < 10
