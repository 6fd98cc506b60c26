"""Tests of the ``quatlab`` command line: as a subprocess and through ``cli.main``.

Expected figures come from docs/presets.md (negated-20: the reference figures) and from
closed forms computed here, not from the code under test.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from quatlab.app.commands.cli import main

REPO = Path(__file__).resolve().parents[1]
METHOD_NAMES = ("naive_nlerp", "shortest_nlerp", "naive_slerp", "shortest_slerp")
PRESET_NAMES = [
    "negated-20", "q-to-minus-q", "half-turn", "quarter-turn", "large-170", "small-1",
    "gltf-animated-triangle", "gltf-box-animated",
]

# The seed case: identity -> 20 deg about Z stored as -q, written out here.
_C10, _S10 = math.cos(math.radians(10)), math.sin(math.radians(10))
SEED_Q0 = ["1", "0", "0", "0"]
SEED_Q1 = [repr(-_C10), "0", "0", repr(-_S10)]


def run_cli(*args, cwd=None, timeout=60):
    return subprocess.run([sys.executable, "-m", "quatlab.app", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=timeout)


def call_main(capsys, *args):
    """``cli.main(args)`` -> (status, stdout, stderr); argparse exits are statuses too."""
    try:
        status = main(list(args))
    except SystemExit as exc:
        status = exc.code
    out = capsys.readouterr()
    return status, out.out, out.err


def strict_json(text):
    def refuse(token):
        raise AssertionError(f"non-standard JSON constant {token}")

    return json.loads(text, parse_constant=refuse)


# --------------------------------------------------------------------------- curves JSON


def test_curves_json_seed_figures_subprocess():
    proc = run_cli("curves", "--q0", *SEED_Q0, "--q1", *SEED_Q1, "--samples", "3", cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    data = strict_json(proc.stdout)
    assert set(data) == {"t", "dot", "methods", "notes"}
    assert set(data["methods"]) == set(METHOD_NAMES)
    for m in METHOD_NAMES:
        assert set(data["methods"][m]) == {"angle_deg", "speed_deg"}
        assert len(data["methods"][m]["angle_deg"]) == 3
        assert len(data["methods"][m]["speed_deg"]) == 3
    assert data["t"] == [0.0, 0.5, 1.0]
    assert data["dot"] == pytest.approx(-0.9848077, abs=1e-7)
    angle = {m: data["methods"][m]["angle_deg"] for m in METHOD_NAMES}
    assert angle["naive_nlerp"][1] == pytest.approx(170.0, abs=1e-6)
    assert angle["shortest_nlerp"][1] == pytest.approx(10.0, abs=1e-6)
    assert angle["naive_slerp"][1] == pytest.approx(170.0, abs=1e-6)
    assert angle["shortest_slerp"][1] == pytest.approx(10.0, abs=1e-6)
    assert angle["naive_nlerp"][2] == pytest.approx(340.0, abs=1e-6)
    assert angle["shortest_nlerp"][2] == pytest.approx(20.0, abs=1e-6)
    # SLERP speed is the constant arc angle: 20 deg/t the short way, 340 the long way.
    assert data["methods"]["shortest_slerp"]["speed_deg"] == pytest.approx([20.0] * 3)
    assert data["methods"]["naive_slerp"]["speed_deg"] == pytest.approx([340.0] * 3)
    assert data["notes"] == []


def test_curves_json_seed_figures_in_process_101_samples(capsys):
    status, out, err = call_main(capsys, "curves", "--q0", *SEED_Q0, "--q1", *SEED_Q1,
                                 "--samples", "101")
    assert status == 0 and err == ""
    data = strict_json(out)
    assert len(data["t"]) == 101
    i = data["t"].index(0.5)
    assert data["methods"]["naive_nlerp"]["angle_deg"][i] == pytest.approx(170.0, abs=1e-6)
    assert data["methods"]["shortest_nlerp"]["angle_deg"][i] == pytest.approx(10.0, abs=1e-6)
    # Closed-form NLERP speed at the midpoint, 2 sin W / |p|^2 with W the 4D angle:
    # short way W = 10 deg, |p|^2 = (1 + cos W) / 2.
    w = math.radians(10)
    expected = math.degrees(2 * math.sin(w) / ((1 + math.cos(w)) / 2))
    assert data["methods"]["shortest_nlerp"]["speed_deg"][i] == pytest.approx(expected,
                                                                              rel=1e-9)
    assert data["dot"] == pytest.approx(-0.9848077, abs=1e-7)


def test_curves_preset_gives_the_same_as_explicit_endpoints(capsys):
    _, by_preset, _ = call_main(capsys, "curves", "--preset", "negated-20", "--samples", "5")
    _, explicit, _ = call_main(capsys, "curves", "--q0", *SEED_Q0, "--q1", *SEED_Q1,
                               "--samples", "5")
    a, b = strict_json(by_preset), strict_json(explicit)
    assert a["t"] == b["t"]
    for m in METHOD_NAMES:
        assert a["methods"][m]["angle_deg"] == pytest.approx(b["methods"][m]["angle_deg"],
                                                             abs=1e-9)


def test_curves_q_to_minus_q_gives_nulls_and_notes(capsys):
    status, out, err = call_main(capsys, "curves", "--q0", "1", "0", "0", "0",
                                 "--q1", "-1", "0", "0", "0", "--samples", "3")
    assert status == 0, err
    data = strict_json(out)
    naive = data["methods"]["naive_nlerp"]
    assert naive["angle_deg"][1] is None
    assert naive["speed_deg"][1] is None
    assert naive["angle_deg"][0] == pytest.approx(0.0)
    assert data["methods"]["naive_slerp"]["angle_deg"][1] is None
    assert data["methods"]["shortest_nlerp"]["angle_deg"] == pytest.approx([0.0, 0.0, 0.0])
    assert data["methods"]["shortest_slerp"]["angle_deg"] == pytest.approx([0.0, 0.0, 0.0])
    assert data["dot"] == -1.0
    notes = " ".join(data["notes"]).lower()
    assert "collapse" in notes and "0.5" in notes


def test_curves_large_finite_quaternion_is_just_its_direction(capsys):
    """1e200 is finite and non-zero: normalized like (1, 1, 0, 0), not called zero."""
    status, big, err = call_main(capsys, "curves", "--q0", "1e200", "1e200", "0", "0",
                                 "--q1", "1", "0", "0", "0", "--samples", "3")
    assert status == 0 and err == ""
    _, small, _ = call_main(capsys, "curves", "--q0", "1", "1", "0", "0",
                            "--q1", "1", "0", "0", "0", "--samples", "3")
    a, b = strict_json(big), strict_json(small)
    # 90 deg about X between (1, 1, 0, 0)/sqrt 2 and the identity.
    assert a["methods"]["shortest_slerp"]["angle_deg"] == pytest.approx([0, 45, 90])
    assert a["methods"]["shortest_slerp"]["angle_deg"] == pytest.approx(
        b["methods"]["shortest_slerp"]["angle_deg"])


def test_curves_json_has_no_nan_tokens_subprocess():
    proc = run_cli("curves", "--preset", "q-to-minus-q", "--samples", "11")
    assert proc.returncode == 0
    assert "NaN" not in proc.stdout and "Infinity" not in proc.stdout
    data = strict_json(proc.stdout)
    assert None in data["methods"]["naive_nlerp"]["angle_deg"]


# --------------------------------------------------------------------------- curves CSV


def _expected_header():
    return ["t"] + [f"{m}_{k}" for m in METHOD_NAMES for k in ("angle_deg", "speed_deg")]


def test_curves_csv_header_and_rows(capsys):
    status, out, err = call_main(capsys, "curves", "--preset", "negated-20", "--samples", "11",
                                 "--format", "csv")
    assert status == 0 and err == ""
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == _expected_header()
    body = rows[1:]
    assert len(body) == 11
    assert [float(r[0]) for r in body] == pytest.approx([i / 10 for i in range(11)])
    mid = dict(zip(rows[0], body[5], strict=True))
    assert float(mid["naive_nlerp_angle_deg"]) == pytest.approx(170.0, abs=1e-6)
    assert float(mid["shortest_slerp_angle_deg"]) == pytest.approx(10.0, abs=1e-6)


def test_curves_csv_gap_is_an_empty_cell_with_a_note_on_stderr():
    proc = run_cli("curves", "--preset", "q-to-minus-q", "--samples", "3", "--format", "csv")
    assert proc.returncode == 0
    rows = list(csv.reader(io.StringIO(proc.stdout)))
    assert rows[0] == _expected_header()
    assert len(rows) == 4
    mid = dict(zip(rows[0], rows[2], strict=True))
    assert mid["naive_nlerp_angle_deg"] == "" and mid["naive_nlerp_speed_deg"] == ""
    assert float(mid["shortest_nlerp_angle_deg"]) == pytest.approx(0.0, abs=1e-9)
    assert "note:" in proc.stderr and "collapse" in proc.stderr
    assert "Traceback" not in proc.stderr


# --------------------------------------------------------------------------- bad arguments

BAD_CURVES = [
    pytest.param(["--q0", *SEED_Q0], "--q1", id="missing-q1"),
    pytest.param(["--q1", *SEED_Q0], "--q0", id="missing-q0"),
    pytest.param([], "--q0", id="nothing"),
    pytest.param(["--q0", "1", "0", "0", "--q1", *SEED_Q0], "--q0", id="three-numbers"),
    pytest.param(["--q0", *SEED_Q0, "--q1", "0", "0", "0", "0"], "--q1", id="zero"),
    pytest.param(["--q0", *SEED_Q0, "--q1", "nan", "0", "0", "1"], "--q1", id="nan"),
    pytest.param(["--q0", "inf", "0", "0", "1", "--q1", *SEED_Q0], "--q0", id="inf"),
    pytest.param(["--q0", *SEED_Q0, "--q1", "1", "0", "0", "x"], "--q1", id="not-a-number"),
    pytest.param(["--q0", *SEED_Q0, "--q1", *SEED_Q1, "--samples", "1"], "--samples",
                 id="samples-1"),
    pytest.param(["--preset", "half-turn", "--samples", "many"], "--samples",
                 id="samples-text"),
    pytest.param(["--preset", "no-such-preset"], "no-such-preset", id="unknown-preset"),
    pytest.param(["--preset", "negated-20", "--q1", *SEED_Q0], "--preset",
                 id="preset-with-q1"),
    pytest.param(["--preset", "negated-20", "--q0", *SEED_Q0], "--preset",
                 id="preset-with-q0"),
    pytest.param(["--preset", "half-turn", "--format", "xml"], "--format", id="bad-format"),
]


def _assert_one_line_error(status, out, err, word):
    assert status == 2
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("quatlab curves: error:")
    assert word in lines[0]


@pytest.mark.parametrize(("args", "word"), BAD_CURVES)
def test_curves_bad_arguments_in_process(capsys, args, word):
    status, out, err = call_main(capsys, "curves", *args)
    _assert_one_line_error(status, out, err, word)


@pytest.mark.parametrize(("args", "word"), [BAD_CURVES[0], BAD_CURVES[4], BAD_CURVES[10]])
def test_curves_bad_arguments_subprocess(args, word):
    proc = run_cli("curves", *args)
    _assert_one_line_error(proc.returncode, proc.stdout, proc.stderr, word)


# --------------------------------------------------------------------------- presets


def test_presets_lists_the_eight_names(capsys):
    status, out, err = call_main(capsys, "presets")
    assert status == 0 and err == ""
    names = [line.split()[0] for line in out.splitlines() if line.strip()]
    assert names == PRESET_NAMES


def test_presets_verbose_subprocess():
    proc = run_cli("presets", "--verbose")
    assert proc.returncode == 0
    for name in PRESET_NAMES:
        assert name in proc.stdout
    assert "340" in proc.stdout  # what negated-20 shows
    assert len(proc.stdout.splitlines()) == 16


# --------------------------------------------------------------------------- screenshot


def test_screenshot_list_views(capsys):
    status, out, err = call_main(capsys, "screenshot", "--list-views")
    assert status == 0 and err == ""
    views = out.split()
    assert views[0] == "main"  # the two-key lesson, then any other lesson views
    assert len(views) == len(set(views))


@pytest.mark.parametrize(
    ("args", "word"),
    [(["-o", "x.txt"], "x.txt"), ([], "-o"), (["-o", "x.png", "--view", "nope"], "nope"),
     (["-o", "x.png", "--size", "big"], "--size"), (["-o", "x.png", "--t", "2"], "--t"),
     (["-o", "x.png", "--preset", "nope"], "nope")],
)
def test_screenshot_refuses_bad_arguments(capsys, tmp_path, monkeypatch, args, word):
    monkeypatch.chdir(tmp_path)
    status, out, err = call_main(capsys, "screenshot", *args)
    assert status == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("quatlab screenshot: error:"), err
    assert word in lines[0]
    assert list(tmp_path.iterdir()) == []


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    # IHDR: width and height, big-endian, right after the signature and chunk header.
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_screenshot_subprocess_writes_a_png_of_the_default_size(qapp, tmp_path):
    # ``qapp`` keeps this process connected to the suite's Xvfb while the subprocess
    # uses it: Xvfb resets (with -terminate: exits) when its last client leaves, and
    # every later QApplication in this run would then fail to connect.
    out = tmp_path / "shot.png"
    proc = run_cli("screenshot", "-o", str(out), "--preset", "half-turn", timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert png_size(out.read_bytes()) == (1400, 900)  # the documented default
    assert "1400x900" in proc.stdout
    assert [p.name for p in tmp_path.iterdir()] == ["shot.png"]  # no temporary left over


# --------------------------------------------------------------------------- help


def test_help_exits_zero_and_lists_the_commands():
    proc = run_cli("--help", cwd=REPO)
    assert proc.returncode == 0
    assert proc.stderr == ""
    for name in ("curves", "presets", "screenshot"):
        assert name in proc.stdout


@pytest.mark.parametrize("sub", ["curves", "presets", "screenshot"])
def test_subcommand_help_exits_zero(capsys, sub):
    status, out, err = call_main(capsys, sub, "--help")
    assert status == 0
    assert "usage" in out.lower() and err == ""


def test_version(capsys):
    status, out, _ = call_main(capsys, "--version")
    assert status == 0
    assert out.startswith("quatlab ")


def test_screenshot_size_check_is_in_logical_pixels_under_a_scale_factor(qapp, tmp_path):
    # Under QT_SCALE_FACTOR=1.5 the grab has 1.5x the pixels of the logical
    # --size; comparing the two refused every size ("smaller than the window").
    out = tmp_path / "scaled.png"
    env = dict(os.environ, QT_SCALE_FACTOR="1.5")
    proc = subprocess.run([sys.executable, "-m", "quatlab.app", "screenshot", "-o", str(out),
                           "--size", "1024x768"], capture_output=True, text=True, timeout=120,
                          env=env)
    assert proc.returncode == 0, proc.stderr
    assert png_size(out.read_bytes()) == (1536, 1152)
