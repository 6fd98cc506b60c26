"""A glTF file's base colours: materials, textures and their images, decoded safely. No Qt.

What the rig view needs to show the asset as it ships (glTF 2.0,
"Materials"): each material's ``pbrMetallicRoughness.baseColorFactor``
(linear RGBA, default white) and ``baseColorTexture`` (a texture index and
the ``texCoord`` set it reads), each texture's image and sampler wrap
modes. Metallic, roughness, normal, occlusion and emissive maps are not
read: the view is lit simply, "unlit is fine".

Images are decoded with Pillow (a dependency of imageio, which QuatLab
already uses to write GIFs) from a buffer view, a base64 data URI or a
file beside the asset, under the readers' rules of docs/formats.md
("Safety rules for readers and writers"): a file URI must resolve to a
regular file inside the asset's folder and is read through
:func:`~quatlab.app.io.safe_read.read_regular`, at most
:data:`MAX_IMAGE_BYTES`; an image's pixel count is checked against
:data:`MAX_IMAGE_PIXELS` from its header, before anything is decoded. An
image that cannot be had is a one-line :class:`ImageRefused` (the scene
notes it and draws that material in its base colour alone); nothing here
stops the file from opening.

Examples
--------
>>> import pygltflib
>>> doc = pygltflib.GLTF2(materials=[pygltflib.Material(
...     pbrMetallicRoughness=pygltflib.PbrMetallicRoughness(
...         baseColorFactor=[1, 0.5, 0, 1], baseColorTexture=pygltflib.TextureInfo(index=0)))],
...     textures=[pygltflib.Texture(source=0)], images=[pygltflib.Image(uri="fox.png")])
>>> materials, textures, notes = read_materials(doc)
>>> materials[0].base_color.tolist(), materials[0].texture, materials[0].texcoord
([1.0, 0.5, 0.0, 1.0], 0, 0)
>>> textures[0].image, textures[0].wrap, notes
(0, (10497, 10497), [])
"""

from __future__ import annotations

import dataclasses
import io

import numpy as np

from quatlab.app.i18n import N_, LazyText, _

__all__ = ["Material", "Texture", "ImageRefused", "read_materials", "decode_image",
           "MAX_IMAGE_BYTES", "MAX_IMAGE_PIXELS", "DISPLAY_SIDE", "REPEAT"]

#: A texture image file (or data) larger than this is refused.
MAX_IMAGE_BYTES = 64 << 20
#: An image with more pixels than this (by its header) is refused before decoding.
MAX_IMAGE_PIXELS = 8192 * 8192
#: Decoded images are scaled down to at most this many pixels a side: the view
#: never shows more, and a software rasteriser samples smaller textures faster.
DISPLAY_SIDE = 512
#: glTF sampler wrap mode REPEAT (the default), and the others.
REPEAT, CLAMP, MIRROR = 10497, 33071, 33648
_WRAPS = (REPEAT, CLAMP, MIRROR)


class ImageRefused(ValueError):
    """An image the view will not show; ``str()`` is a one-line reason (no file name)."""


@dataclasses.dataclass(frozen=True)
class Material:
    """A material's base colour: ``base_color`` linear RGBA, ``texture`` index or None."""

    index: int
    name: str | None
    base_color: np.ndarray
    texture: int | None
    texcoord: int
    double_sided: bool


@dataclasses.dataclass(frozen=True)
class Texture:
    """A texture: its ``image`` index (None: none usable) and sampler ``wrap`` (S, T)."""

    index: int
    image: int | None
    wrap: tuple[int, int]


def _factor(pbr, where: str, notes: list) -> np.ndarray:
    value = getattr(pbr, "baseColorFactor", None) if pbr is not None else None
    if value is None:
        return np.ones(4)
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        arr = np.zeros(0)
    if arr.shape != (4,) or not np.all(np.isfinite(arr)):
        notes.append(LazyText(N_("{where}.baseColorFactor is not 4 numbers; white used"),
                              where=where))
        return np.ones(4)
    return np.clip(arr, 0.0, 1.0)


def _index(value, size: int) -> int | None:
    return value if type(value) is int and 0 <= value < size else None


def read_materials(document) -> tuple[tuple[Material, ...], tuple[Texture, ...], list]:
    """The document's materials and textures, and notes on what was left out (module doc)."""
    notes: list = []
    images = document.images or []
    samplers = document.samplers or []
    textures = []
    for i, tex in enumerate(document.textures or []):
        image = _index(getattr(tex, "source", None), len(images))
        if image is None:
            notes.append(LazyText(N_("textures[{i}] has no usable image; its materials are "
                                     "drawn in their base colour"), i=i))
        sampler = _index(getattr(tex, "sampler", None), len(samplers))
        wrap = (REPEAT, REPEAT)
        if sampler is not None:
            s = samplers[sampler]
            wrap = tuple(w if w in _WRAPS else REPEAT
                         for w in (getattr(s, "wrapS", None), getattr(s, "wrapT", None)))
        textures.append(Texture(i, image, wrap))
    materials = []
    for i, mat in enumerate(document.materials or []):
        where = f"materials[{i}]"
        pbr = getattr(mat, "pbrMetallicRoughness", None)
        info = getattr(pbr, "baseColorTexture", None) if pbr is not None else None
        texture = _index(getattr(info, "index", None), len(textures)) if info is not None \
            else None
        if info is not None and texture is None:
            notes.append(LazyText(N_("{where}.baseColorTexture names no texture; base colour "
                                     "only"), where=where))
        texcoord = getattr(info, "texCoord", None) if info is not None else None
        texcoord = texcoord if type(texcoord) is int and texcoord >= 0 else 0
        name = mat.name if isinstance(getattr(mat, "name", None), str) else None
        materials.append(Material(i, name, _factor(pbr, where, notes), texture, texcoord,
                                  getattr(mat, "doubleSided", None) is True))
    return tuple(materials), tuple(textures), notes


def decode_image(keyframes, index: int, *, side: int = DISPLAY_SIDE) -> np.ndarray:
    """``images[index]`` of a loaded glTF file as RGBA ``(H, W, 4)`` uint8, rows top first.

    At most ``side`` pixels a side (scaled down, aspect kept). Raises
    :class:`ImageRefused` with a one-line reason (see the module docstring).
    """
    from PIL import Image  # noqa: PLC0415 - only when an asset has textures

    data = _image_bytes(keyframes, index)
    try:
        with Image.open(io.BytesIO(data)) as im:
            w, h = im.size
            if w * h > MAX_IMAGE_PIXELS:
                raise ImageRefused(_("images[{i}] is {w} x {h} pixels, more than the {limit} "
                                     "allowed").format(i=index, w=w, h=h, limit=MAX_IMAGE_PIXELS))
            im.draft("RGB", (side, side))  # JPEG: decode at a reduced scale directly
            rgba = im.convert("RGBA")
    except ImageRefused:
        raise
    except Image.DecompressionBombError:  # Pillow's own guard, from the header too
        raise ImageRefused(_("images[{i}] has more than the {limit} pixels allowed").format(
            i=index, limit=MAX_IMAGE_PIXELS)) from None
    except Exception as exc:  # noqa: BLE001 - Pillow raises many kinds for bad data
        raise ImageRefused(_("images[{i}] does not decode ({error})").format(
            i=index, error=str(exc) or type(exc).__name__)) from None
    if max(rgba.size) > side:
        rgba.thumbnail((side, side), Image.Resampling.BILINEAR)
    return np.asarray(rgba, dtype=np.uint8).copy()


def _image_bytes(keyframes, index: int) -> bytes:
    from quatlab.app.io.gltf.accessors import Invalid  # noqa: PLC0415 - read imports us
    from quatlab.app.io.safe_read import FileRefused, read_regular  # noqa: PLC0415

    images = keyframes.document.images or []
    if not 0 <= index < len(images):
        raise ImageRefused(_("images[{i}] does not exist").format(i=index))
    image = images[index]
    where = f"images[{index}]"
    view, uri = getattr(image, "bufferView", None), getattr(image, "uri", None)
    try:
        if view is not None:
            data = keyframes.view_bytes(view, f"{where}.bufferView")
        elif isinstance(uri, str) and uri.startswith("data:"):
            data = keyframes.data_uri(uri, where)
        elif isinstance(uri, str):
            file = keyframes.resolve_uri(uri, where)
            data = read_regular(file, limit=MAX_IMAGE_BYTES)
        else:
            raise ImageRefused(_("{where} has neither a bufferView nor a uri").format(
                where=where))
    except (Invalid, FileRefused) as exc:
        raise ImageRefused(str(getattr(exc, "problem", exc))) from None
    if len(data) > MAX_IMAGE_BYTES:
        raise ImageRefused(_("{where} is {size} bytes, more than the {limit} allowed").format(
            where=where, size=len(data), limit=MAX_IMAGE_BYTES))
    return data

