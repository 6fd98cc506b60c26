"""Export quaternion tracks (frames, joints, 4) for pipelines: named-column CSV, or .npy + .json.

Every export is in **(w, x, y, z)** order, scalar first, and says so in the
file itself: the CSV's first line is a ``#`` comment naming the order and
its columns are ``<joint>_w, <joint>_x, <joint>_y, <joint>_z``; the
``.npy`` array of shape ``(frames, joints, 4)`` comes with a ``.json``
sidecar (same name, ``.json`` suffix) holding the joint names, the order
and the frame time. Tracks are made sign-continuous first
(:func:`quatlab.math.euler_track.continuous_quaternions`), so a consumer
that lerps components does not turn the long way. Writes are atomic and
never overwrite an existing file unless ``force``.

Examples
--------
>>> import pathlib, tempfile
>>> import numpy as np
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> q = np.array([[[1.0, 0, 0, 0]], [[-1.0, 0, 0, 0]]])       # (frames, joints, 4), (w, x, y, z)
>>> write_csv(d / "q.csv", ["Hips"], q, frame_time=0.5)
>>> print((d / "q.csv").read_text().strip())
# quaternions (w, x, y, z), scalar first, sign-continuous; frames: 2, joints: 1, frame time: 0.5
frame,time,Hips_w,Hips_x,Hips_y,Hips_z
0,0,1,0,0,0
1,0.5,1,0,0,0
>>> write_npy(d / "q.npy", ["Hips"], q, frame_time=0.5)
>>> np.load(d / "q.npy").shape, json.loads((d / "q.json").read_text())["order"]
((2, 1, 4), 'wxyz')
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.io.atomic import write_files
from quatlab.math.euler_track import continuous_quaternions

__all__ = ["csv_text", "write_csv", "write_npy", "sidecar_path"]


def _check(names, q) -> tuple[list[str], np.ndarray]:
    names = [str(n) for n in names]
    arr = np.asarray(q, dtype=np.float64)
    if arr.ndim != 3 or arr.shape[-1] != 4:
        raise ValueError(
            _("q must have shape (frames, joints, 4) in (w, x, y, z) order, got {shape}").format(
                shape=arr.shape)
        )
    if arr.shape[1] != len(names):
        raise ValueError(_("{n_names} joint names for {n_joints} joints").format(
            n_names=len(names), n_joints=arr.shape[1]))
    if not np.all(np.isfinite(arr)):
        raise ValueError(_("q contains NaN or infinity"))
    return names, continuous_quaternions(arr)


def _num(x: float) -> str:
    # repr gives the shortest text that reads back to the same float64;
    # whole numbers without ".0" keep the table readable.
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e15 else repr(float(x))


def _times(arr: np.ndarray, frame_time: float, times) -> np.ndarray:
    """Each frame's time: ``times`` as given (USD samples), else ``frame * frame_time``."""
    if times is None:
        return np.arange(arr.shape[0], dtype=np.float64) * frame_time
    t = np.asarray(times, dtype=np.float64).reshape(-1)
    if len(t) != arr.shape[0]:
        raise ValueError(_("{n_times} times for {n_frames} frames").format(
            n_times=len(t), n_frames=arr.shape[0]))
    return t


def csv_text(names, q, *, frame_time: float = 1.0, times=None) -> str:
    """The CSV text of tracks ``q`` ``(frames, joints, 4)``, (w, x, y, z), made sign-continuous.

    Columns: ``frame``, ``time`` (``frame * frame_time``, or ``times`` when given: a
    USD animation's sample times in seconds), then four per joint.
    """
    names, arr = _check(names, q)
    seconds = _times(arr, frame_time, times)
    buf = io.StringIO()
    buf.write(
        f"# quaternions (w, x, y, z), scalar first, sign-continuous; "
        f"frames: {arr.shape[0]}, joints: {arr.shape[1]}, frame time: {_num(frame_time)}\n"
    )
    writer = csv.writer(buf, lineterminator="\n")   # quotes names with commas or quotes
    writer.writerow(["frame", "time"] + [f"{n}_{c}" for n in names for c in "wxyz"])
    flat = arr.reshape(arr.shape[0], -1)
    for f, row in enumerate(flat):
        writer.writerow([str(f), _num(seconds[f])] + [_num(v) for v in row])
    return buf.getvalue()


def write_csv(path, names, q, *, frame_time: float = 1.0, force: bool = False,
              times=None) -> None:
    """Write :func:`csv_text` to ``path`` atomically; refuse an existing file unless ``force``."""
    text = csv_text(names, q, frame_time=frame_time, times=times)
    write_files([(Path(path), text.encode("utf-8"))], force=force)


def sidecar_path(npy_path) -> Path:
    """The ``.json`` file that describes ``npy_path``: same folder and name, suffix ``.json``."""
    return Path(npy_path).with_suffix(".json")


def write_npy(path, names, q, *, frame_time: float = 1.0, force: bool = False,
              times=None) -> None:
    """Write ``q`` as a ``.npy`` of shape (frames, joints, 4), (w, x, y, z), plus its ``.json``.

    The sidecar holds ``order`` ("wxyz"), ``components`` (["w", "x", "y",
    "z"]), ``shape``, ``joints`` (names, in the array's order) and
    ``frame_time`` (and ``times``, each frame's time in seconds, when given). Both files
    are written or neither is.
    """
    names, arr = _check(names, q)
    seconds = None if times is None else _times(arr, frame_time, times)
    path = Path(path)
    if path.suffix != ".npy":
        raise ValueError(_("the array file must end in .npy, got {name!r}").format(name=path.name))
    buf = io.BytesIO()
    np.save(buf, arr, allow_pickle=False)
    meta = {
        "description": "quaternion tracks (w, x, y, z), scalar first, sign-continuous",
        "order": "wxyz",
        "components": ["w", "x", "y", "z"],
        "shape": list(arr.shape),
        "axes": ["frame", "joint", "component"],
        "joints": names,
        "frame_time": float(frame_time),
        "array": path.name,
    }
    if seconds is not None:
        meta["times"] = seconds.tolist()
    side = json.dumps(meta, indent=2, ensure_ascii=False) + "\n"
    write_files([(path, buf.getvalue()), (sidecar_path(path), side.encode("utf-8"))],
                force=force)
