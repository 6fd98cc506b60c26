"""Write a corrected copy of a loaded glTF file, changing only the rotation keys' bytes. No Qt.

Writing: only the rotation output accessors' bytes change (same component
type; normalized integers are re-quantized with ``round(v * 127)`` etc.),
and only for the keys that changed, wherever they live (base buffer view or
sparse values). Each accessor's ``min``/``max``, when present, is updated to
the new data. In the JSON text only those values and the URIs that must
change are replaced, so everything else stays byte-identical:

* ``.glb``: the ``BIN`` chunk is patched in place; other chunks are kept.
* data URI buffers: the URI gets the new base64 payload.
* external ``.bin`` buffers that change (and, when the output goes to
  another folder, all of them): written as a new file beside the output
  (``OUT.bin``, or ``OUT.<index>.bin`` for several) -- the input's file is
  never overwritten -- and the URI points to it.
* relative URIs of images are rewritten relative to the output's directory
  when it differs from the input's.

All files are published together or not at all
(:func:`quatlab.app.io.atomic.write_files`, called by ``write_copy``).
"""

from __future__ import annotations

import base64
import contextlib
import os
import struct
from pathlib import Path
from urllib.parse import quote

import numpy as np

from quatlab.app.i18n import _
from quatlab.app.io.gltf.accessors import (
    CHUNK_BIN,
    CHUNK_JSON,
    GLB_MAGIC,
    Invalid,
    Layout,
    encode,
    json_number,
)
from quatlab.app.io.json_text import edit_json_text
from quatlab.app.io.tracks import KeyframeFileError, Track, changed_rows
from quatlab.math import quaternion as Q

__all__ = ["GltfWriter"]


class GltfWriter:
    """The writing half of :class:`quatlab.app.io.gltf.read.GltfFile` (a mixin).

    It patches the decoded document the reader holds (``_gltf``, ``_buffers``,
    ``_layouts``, ``_sources``, ``_text``) and writes the copy atomically.
    """

    def _encode(self, out: Path, tracks: list[Track]) -> list[tuple[Path, bytes]]:
        try:
            return self._encode_checked(out, tracks)
        except Invalid as exc:
            # What cannot be encoded (a shared accessor corrected two ways, a
            # meshopt fallback, a value outside the stored range) is a property
            # of the input; OUT is never written. Problems with OUT itself are
            # KeyframeFileErrors naming it, raised as such.
            raise KeyframeFileError(self.path, str(exc)) from None

    def _encode_checked(self, out: Path, tracks: list[Track]) -> list[tuple[Path, bytes]]:
        buffers, changed, edits = self._patch(tracks)
        moved = os.path.realpath(out.parent) != os.path.realpath(self.path.parent)
        companions = self._companions(out, changed, moved)
        self.check_output_path(out, extra=companions.values())
        edits += self._uri_edits(out.parent, buffers, changed, companions, moved)
        try:
            text = edit_json_text(self._text, edits) if edits else self._text
        except ValueError as exc:
            raise Invalid(_("cannot edit the glTF JSON: {exc}").format(exc=exc)) from None
        # Companions first, the main file last; write_files publishes all of
        # them or none.
        items = [(path, bytes(buffers[i])) for i, path in companions.items()]
        if self.format == "glb":
            glb = [i for i in changed if self._buffers[i].kind == "glb"]
            data = self._assemble_glb(
                text if edits else None, bytes(buffers[glb[0]]) if glb else None
            )
        else:
            data = text.encode("utf-8")
        items.append((out, data))
        return items

    def _patch(self, tracks: list[Track]) -> tuple[list, set[int], list]:
        """Buffers with the tracks' keys stored, which of them changed, min/max edits."""
        wanted: dict[int, np.ndarray] = {}
        users: dict[int, list[str]] = {}
        for old_track, source in zip(self.tracks, self._sources, strict=True):
            users.setdefault(source.output, []).append(old_track.label)
        for track, source in zip(tracks, self._sources, strict=True):
            elements = track.values
            if track.interpolation == "CUBICSPLINE":
                elements = np.stack([track.in_tangents, track.values, track.out_tangents], axis=1)
                elements = elements.reshape(-1, 4)
            elements = Q.to_xyzw(elements)
            previous = wanted.setdefault(source.output, elements)
            if not np.array_equal(previous, elements, equal_nan=True):
                names = "; ".join(users[source.output][:6])
                more = " ..." if len(users[source.output]) > 6 else ""
                raise Invalid(
                    _("accessors[{output}] is shared by several tracks that were corrected "
                      "differently ({names}{more}); fix them together (the same correction for "
                      "all of them)").format(output=source.output, names=names, more=more)
                )
        buffers: list = [b.data for b in self._buffers]
        changed: set[int] = set()
        edits: list = []
        for index, elements in wanted.items():
            layout = self._layouts[index]
            old = self._decoded[index]
            rows = changed_rows(old, elements)
            if rows.size:
                self._refuse_compressed(index)
                # Only the keys that changed are encoded and stored, so the
                # bytes of every other element stay exactly as they were.
                changed |= layout.write(buffers, rows, encode(elements[rows], layout.component))
                edits += self._minmax_edits(self._gltf.accessors[index], layout,
                                            layout.read(buffers))
        return buffers, changed, edits

    def _refuse_compressed(self, index: int) -> None:
        """A changed accessor must not have a compressed copy that loaders prefer."""
        for ref, name in self.compressed_views(index):
            raise Invalid(
                _("accessors[{index}] is stored in bufferViews[{ref}], which has "
                  "{name} data: the fix could change only the uncompressed fallback, "
                  "and loaders that implement {name} would still play the old keys; "
                  "decompress the file first").format(index=index, ref=ref, name=name)
            )

    def _companions(self, out: Path, changed: set[int], moved: bool) -> dict[int, Path]:
        """New files beside the output for external buffers: the input's are never rewritten.

        Changed buffers always get one; when the output goes to another folder,
        unchanged ones are copied too, so the output never refers back into the
        input's folder (which a reader would refuse: docs/formats.md, "Safety
        rules for readers and writers").
        """
        files = [
            i for i, b in enumerate(self._buffers) if b.kind == "file" and (moved or i in changed)
        ]
        return {
            i: out.with_name(out.stem + (".bin" if len(files) == 1 else f".{i}.bin"))
            for i in files
        }

    def _uri_edits(self, out_dir: Path, buffers: list, changed: set[int],
                   companions: dict[int, Path], moved: bool) -> list:
        edits = []
        for i, buf in enumerate(self._buffers):
            if buf.kind == "data" and i in changed:
                prefix = buf.uri.partition(",")[0]
                payload = base64.b64encode(bytes(buffers[i])).decode("ascii")
                edits.append((["buffers", i, "uri"], f"{prefix},{payload}"))
            elif i in companions:
                edits.append((["buffers", i, "uri"], quote(companions[i].name)))
        if moved:
            # Keep relative image references working from the output's directory
            # (QuatLab never reads images; other viewers do).
            for j, image in enumerate(self._gltf.images or []):
                uri = getattr(image, "uri", None)
                if isinstance(uri, str) and not uri.startswith("data:"):
                    with contextlib.suppress(Invalid):
                        source = self._resolve(self.path, uri, "image")
                        edits.append((["images", j, "uri"], relative_uri(source, out_dir)))
        return edits

    @staticmethod
    def _minmax_edits(acc, layout: Layout, raw: np.ndarray) -> list:
        edits = []
        for key, fn in (("min", np.min), ("max", np.max)):
            old = getattr(acc, key, None)
            if not isinstance(old, list) or not old:
                continue
            new = [json_number(v, layout.component) for v in fn(raw, axis=0)]
            if not all(np.isfinite(new)):
                continue  # NaN data has no min or max to write; keep what was there
            if len(old) != len(new) or any(
                type(o) not in (int, float) or json_number(o, layout.component) != v
                for o, v in zip(old, new, strict=True)
            ):
                edits.append((["accessors", layout.index, key], new))
        return edits

    def _assemble_glb(self, text: str | None, new_bin: bytes | None) -> bytes:
        parts = []
        for kind, start, end in self._chunks:
            payload = self._data[start:end]
            if kind == CHUNK_JSON and text is not None:
                payload = text.encode("utf-8")
                payload += b" " * (-len(payload) % 4)  # JSON chunks pad with spaces
            elif kind == CHUNK_BIN and new_bin is not None:
                payload = new_bin
            parts.append(struct.pack("<II", len(payload), kind) + payload)
        body = b"".join(parts)
        return struct.pack("<4sII", GLB_MAGIC, 2, 12 + len(body)) + body


def relative_uri(target: Path, directory: Path) -> str:
    return quote(Path(os.path.relpath(target, directory)).as_posix())
