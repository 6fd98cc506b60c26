"""Open any keyframe file QuatLab reads, and fix one into a corrected copy. No Qt.

The format is chosen by content and extension: glTF (``.gltf``, ``.glb``)
through :mod:`quatlab.app.io.gltf.read`, CSV and JSON tracks through
:mod:`quatlab.app.io.tables.table_io`, BVH through :mod:`quatlab.app.io.bvh.keyframes`, FBX
(``.fbx`` or the binary FBX magic) through :mod:`quatlab.app.io.fbx.keyframes`, USD
(``.usda``, ``.usdc``, ``.usdz``, ``.usd``) through :mod:`quatlab.app.io.usd`
(docs/formats.md).
"""

from __future__ import annotations

from pathlib import Path

from quatlab.app.i18n import _
from quatlab.app.io.bvh import keyframes as bvh_keyframes
from quatlab.app.io.fbx import keyframes as fbx_keyframes
from quatlab.app.io.fbx.loader import BINARY_MAGIC as FBX_MAGIC
from quatlab.app.io.gltf import read as gltf_read
from quatlab.app.io.safe_read import FileRefused, read_regular
from quatlab.app.io.tables import table_io
from quatlab.app.io.track_audit import fix_track
from quatlab.app.io.tracks import KeyframeFile, KeyframeFileError, TrackFix
from quatlab.app.io.usd import USD_SUFFIXES

__all__ = ["load_keyframes", "fix_file", "fix_in_place", "read_file"]


def read_file(path) -> bytes:
    """The bytes of a keyframe file, read by the safe reader (:func:`read_regular`).

    Regular files only (a FIFO or device never blocks), size bounded; any
    problem is a :class:`KeyframeFileError` naming the file.
    """
    try:
        return read_regular(path)
    except FileRefused as exc:
        raise KeyframeFileError(path, exc.problem) from None


def load_keyframes(path, *, order: str | None = None) -> KeyframeFile:
    """Load the rotation tracks of a glTF (``.gltf``, ``.glb``), BVH, FBX, CSV or JSON file.

    ``order`` (``"wxyz"`` or ``"xyzw"``) is the component order of CSV and
    JSON tracks when the file does not declare it; glTF always stores
    (x, y, z, w). Any problem raises :class:`KeyframeFileError`.
    """
    path = Path(path)
    if path.suffix.lower() == ".bvh":   # read by its own guarded reader (docs/formats.md, BVH)
        return bvh_keyframes.load_bvh_keyframes(path)
    if path.suffix.lower() in USD_SUFFIXES:  # usd-core in a child process (docs/formats.md, USD)
        from quatlab.app.io.usd.keyframes import load_usd_keyframes  # noqa: PLC0415

        return load_usd_keyframes(path)
    data = read_file(path)
    suffix = path.suffix.lower()
    if suffix == ".fbx" or data.startswith(FBX_MAGIC):   # docs/formats.md, "FBX"
        return fbx_keyframes.load_fbx_bytes(path, data)
    if data[:4] == gltf_read.GLB_MAGIC:
        return gltf_read.load_glb(path, data, order=order)
    if suffix == ".glb":
        raise KeyframeFileError(path, _("not a GLB file: it does not start with 'glTF'"))
    if suffix == ".gltf":
        return gltf_read.load_gltf(path, data, order=order)
    if suffix == ".csv":
        return table_io.load_csv(path, data, order=order)
    if suffix == ".json":
        doc = gltf_read.parse_json(data)  # parsed once, whichever reader takes it
        if gltf_read.is_gltf_document(doc):
            return gltf_read.load_gltf(path, data, order=order)
        return table_io.load_json(path, data, order=order, doc=doc)
    raise KeyframeFileError(
        path, _("unsupported file type {suffix!r} (expected .gltf, .glb, .csv, .json, .bvh, "
                ".fbx, .usda, .usdc, .usdz or .usd)").format(suffix=path.suffix)
    )


def fix_file(src, dst, *, order: str | None = None, normalize: bool = False) -> list[TrackFix]:
    """Load ``src``, fix every track (:func:`fix_track`), write the copy to ``dst``.

    Returns the fixes; the written files are ``dst`` (and, for glTF with
    external buffers, a ``.bin`` beside it).
    """
    keyframes = load_keyframes(src, order=order)
    fixes = [fix_track(t, normalize=normalize) for t in keyframes.tracks]
    keyframes.write_copy(dst, [f.fixed for f in fixes])
    return fixes


def fix_in_place(path, *, order: str | None = None,
                 normalize: bool = False) -> tuple[list[TrackFix], list[Path]]:
    """Load ``path``, fix every track (:func:`fix_track`) and write the file over itself.

    Returns the fixes and the files that changed (none when the fix changes
    no byte); see :meth:`~quatlab.app.io.tracks.KeyframeFile.write_in_place`.
    """
    keyframes = load_keyframes(path, order=order)
    fixes = [fix_track(t, normalize=normalize) for t in keyframes.tracks]
    return fixes, keyframes.write_in_place([f.fixed for f in fixes])
