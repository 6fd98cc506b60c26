"""``quatlab record`` and the animation writer: frame counts, a sweep that moves, safe writes."""

from __future__ import annotations

import doctest

import imageio.v3 as iio
import numpy as np
import pytest

from quatlab.app.commands import cli
from quatlab.app.io import animation_io
from quatlab.app.io.animation_io import AnimationError, frame_count, write_animation


def _frames(n, shape=(10, 12, 3)):
    return [np.full(shape, 20 * i, np.uint8) for i in range(n)]


def test_doctests():
    result = doctest.testmod(animation_io)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("suffix", [".gif", ".mp4"])
def test_writes_every_frame(tmp_path, suffix):
    out = tmp_path / f"a{suffix}"
    write_animation(out, _frames(7, (9, 11, 3)), fps=10)  # odd sizes: MP4 pads to even
    assert frame_count(out) == 7
    assert [p.name for p in tmp_path.iterdir()] == [out.name]


def test_gif_keeps_the_pixels_and_timing(tmp_path):
    out = tmp_path / "a.gif"
    frames = [np.zeros((4, 4, 3), np.uint8), np.full((4, 4, 3), 255, np.uint8)]
    write_animation(out, frames, fps=4)
    got = [f[..., :3] for f in iio.imiter(out)]
    np.testing.assert_array_equal(got[0], frames[0])
    np.testing.assert_array_equal(got[1], frames[1])
    assert iio.immeta(out, index=0)["duration"] == 250  # ms per frame at 4 fps


def test_refuses_to_replace_a_file_unless_forced(tmp_path):
    out = tmp_path / "a.gif"
    out.write_bytes(b"mine")
    with pytest.raises(AnimationError, match="exists already"):
        write_animation(out, _frames(2), fps=5)
    assert out.read_bytes() == b"mine"
    write_animation(out, _frames(2), fps=5, force=True)
    assert frame_count(out) == 2


@pytest.mark.parametrize("name, word", [("a.avi", "unknown format"),
                                        ("no/dir/a.gif", "does not exist")])
def test_refuses_bad_outputs_before_encoding(tmp_path, name, word):
    with pytest.raises(AnimationError, match=word):
        write_animation(tmp_path / name, _frames(2), fps=5)


def test_refuses_frames_of_different_shapes(tmp_path):
    with pytest.raises(ValueError, match="first frame's shape"):
        write_animation(tmp_path / "a.gif", [np.zeros((4, 4, 3), np.uint8),
                                             np.zeros((4, 5, 3), np.uint8)], fps=5)
    assert list(tmp_path.iterdir()) == []


def test_record_command_writes_the_sweep(qapp, tmp_path, capsys):
    out = tmp_path / "sweep.gif"
    status = cli.main(["record", "-o", str(out), "--duration", "1.2", "--fps", "5",
                       "--preset", "quarter-turn"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    frames = [f[..., :3] for f in iio.imiter(out)]
    assert len(frames) == 6  # round(1.2 * 5)
    assert frames[0].shape == (900, 1400, 3)
    # The sweep moves: the first and the last frame differ (chains, cursor, readouts)
    # by far more than the GIF palette's rounding, which is all that changes in the
    # menu bar.
    diff = np.abs(frames[0].astype(int) - frames[-1].astype(int)).max(axis=2)
    assert (diff > 60).sum() > 2000
    assert diff[:20].mean() < 2
    assert "6 frames" in captured.out


@pytest.mark.parametrize("args, word", [
    (["--duration", "0"], "--duration"),
    (["--fps", "nan"], "--fps"),
    (["--duration", "1000", "--fps", "60"], "frames"),
    (["--size", "10x10"], "--size"),
])
def test_record_refuses_bad_arguments(capsys, tmp_path, args, word):
    status = cli.main(["record", "-o", str(tmp_path / "a.gif"), *args])
    err = capsys.readouterr().err
    assert status == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("quatlab record: error:") and word in lines[0]
    assert list(tmp_path.iterdir()) == []
