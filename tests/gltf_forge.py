"""Small glTF documents built by hand for the hostile-file tests (no pygltflib, no QuatLab code).

The bytes follow the glTF 2.0 specification directly: float32 little-endian
times, VEC4 float32 (x, y, z, w) rotations, one buffer, two buffer views.
"""

from __future__ import annotations

import base64
import json
import struct
from pathlib import Path

import numpy as np

# Two keys whose stored signs are opposite (a sign flip): (x, y, z, w).
KEYS_XYZW = np.array([[0, 0, 0, 1], [0, 0, -0.70710677, -0.70710677]], dtype="<f4")
TIMES = np.array([0.0, 1.0], dtype="<f4")


def payload(times=TIMES, keys=KEYS_XYZW) -> bytes:
    return np.asarray(times, "<f4").tobytes() + np.asarray(keys, "<f4").tobytes()


def doc(uri: str | None, byte_length: int | None = None, n: int = 2, channels: int = 1) -> dict:
    """A glTF dict with ``channels`` rotation channels sharing one ``n``-key sampler."""
    blen = byte_length if byte_length is not None else n * 4 + n * 16
    buf = {"byteLength": blen}
    if uri is not None:
        buf["uri"] = uri
    return {
        "asset": {"version": "2.0"},
        "nodes": [{"name": f"n{i}"} for i in range(channels)],
        "buffers": [buf],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": n * 4},
            {"buffer": 0, "byteOffset": n * 4, "byteLength": n * 16},
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": n, "type": "SCALAR",
             "min": [0.0], "max": [float(n - 1)]},
            {"bufferView": 1, "componentType": 5126, "count": n, "type": "VEC4"},
        ],
        "animations": [{
            "samplers": [{"input": 0, "output": 1, "interpolation": "LINEAR"}],
            "channels": [{"sampler": 0, "target": {"node": i, "path": "rotation"}}
                         for i in range(channels)],
        }],
    }


def write(path: Path, d: dict) -> Path:
    path.write_text(json.dumps(d), encoding="utf-8")
    return path


def with_bin(folder: Path, name: str = "a.gltf", bin_name: str = "a.bin") -> Path:
    """``name`` in ``folder`` with an external buffer ``bin_name`` beside it."""
    data = payload()
    (folder / bin_name).write_bytes(data)
    return write(folder / name, doc(bin_name, len(data)))


def data_uri(data: bytes) -> str:
    return "data:application/octet-stream;base64," + base64.b64encode(data).decode()


def glb(d: dict, bin_chunk: bytes) -> bytes:
    text = json.dumps(d).encode()
    text += b" " * (-len(text) % 4)
    bin_chunk += b"\0" * (-len(bin_chunk) % 4)
    body = struct.pack("<II", len(text), 0x4E4F534A) + text
    body += struct.pack("<II", len(bin_chunk), 0x004E4942) + bin_chunk
    return struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body
