"""Check every file a USD stage would pull in before usd-core composes it (child process only).

A USD file is a program of sorts: sublayers, references and payloads name other
files, asset-valued attributes (textures, sounds) name more, and a ``.usdz`` holds
files of its own. usd-core's Python API offers no resolver that can be told "only
this folder" (a custom ``ArResolver`` is a C++ plug-in), so the layer stack is
walked first, one layer at a time, and each asset path is checked before the layer
it names is opened (docs/formats.md, "USD: composition is input too"):

* an asset path must be relative: no URL or other scheme, no absolute path, no NUL
  byte, no backslash, no package path (``a.usdz[b.usda]``) and no file-format
  arguments written into it;
* anchored at the layer that writes it (as usd-core anchors ``./x``, ``../x`` and
  ``x``), it must stay inside the asset's folder after ``..`` and symbolic links are
  resolved, or, inside a ``.usdz``, inside that package;
* a sublayer, reference or payload must be a regular file (never a FIFO or device,
  which would block usd-core's open) with a USD suffix, and a package member must
  exist; ``.usdz`` packages are checked by :func:`~quatlab.app.io.usd.package.check_package`
  (stored members only, so a package never expands beyond its size);
* a sublayer that is its own ancestor (a cycle) is refused;
* at most :data:`MAX_LAYERS` layers and :data:`MAX_TOTAL_BYTES` bytes in all.

Asset-valued attributes are checked by the same rules as strings but never opened
(QuatLab reads no texture), so a missing one is no problem. The layers opened here
stay open, so the stage that follows composes exactly these (usd-core finds them in
its layer registry), and :func:`check_used_layers` verifies that afterwards.
Anything refused is a :class:`~quatlab.app.io.usd.worker.WorkerError` whose one line
names the layer that writes the path and the path.
"""

from __future__ import annotations

import dataclasses
import os
import re
import stat
from pathlib import Path

from quatlab.app.i18n import _
from quatlab.app.io.usd import package as P
from quatlab.app.io.usd.worker import WorkerError

__all__ = ["LayerSet", "open_layers", "check_used_layers", "MAX_LAYERS", "MAX_TOTAL_BYTES"]

#: Layers a stage may pull in.
MAX_LAYERS = 1000
#: Bytes of layer files a stage may pull in.
MAX_TOTAL_BYTES = 1 << 30
#: Suffixes of files usd-core opens as layers.
LAYER_SUFFIXES = (".usda", ".usdc", ".usd", ".usdz")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")


@dataclasses.dataclass
class LayerSet:
    """The checked layers (kept open) and their identifiers; ``root`` first."""

    root: object
    layers: list
    identifiers: set[str]
    folder: str
    files: list[str]


def _inside(path: str, folder: str) -> bool:
    try:
        return os.path.commonpath([path, folder]) == folder
    except ValueError:
        return False


def _regular(path: str, what: str) -> int:
    try:
        st = os.stat(path)
    except OSError as exc:
        raise WorkerError(_("{what}: cannot read: {error}").format(
            what=what, error=exc.strerror or exc)) from None
    if stat.S_ISDIR(st.st_mode):
        raise WorkerError(_("{what}: is a folder, not a file").format(what=what))
    if not stat.S_ISREG(st.st_mode):
        raise WorkerError(_("{what}: not a regular file (a FIFO, device or socket): refused, "
                            "it could block or never end").format(what=what))
    return st.st_size


class _Walker:
    def __init__(self, root_path: str):
        self.root_path = os.path.abspath(root_path)
        self.folder = os.path.dirname(self.root_path)
        self.real_folder = os.path.realpath(self.folder)
        self.is_package = self.root_path.lower().endswith(".usdz")
        self.packages: dict[str, P.Package] = {}
        self.layers: dict[str, object] = {}
        self.files: list[str] = []
        self.total = 0

    # ------------------------------------------------------------------ checks
    def _name(self, identifier: str) -> str:
        """A layer's name for messages: its path relative to the asset's folder."""
        outer, inner = _split(identifier)
        rel = os.path.relpath(outer, self.folder) if os.path.isabs(outer) else outer
        return f"{rel}[{inner}]" if inner else rel

    def _refuse(self, layer_id: str, asset: str, problem: str):
        return WorkerError(_("{layer} refers to {asset!r}: {problem}").format(
            layer=self._name(layer_id), asset=asset, problem=problem))

    def target(self, layer_id: str, asset: str, kind: str) -> str | None:
        """The layer ``asset`` (written in ``layer_id``) names, checked; None for a plain asset.

        ``kind`` is ``"sublayer"``, ``"arc"`` (reference or payload) or ``"asset"`` (an
        asset-valued attribute: checked as a path, never opened).
        """
        if "\0" in asset:
            raise self._refuse(layer_id, asset, _("the path contains a NUL byte"))
        if _SCHEME.match(asset) or asset.startswith("//"):
            raise self._refuse(layer_id, asset, _(
                "a URL or a path with a scheme; only relative paths inside the asset's folder "
                "are read"))
        if asset.startswith(("/", "\\")) or os.path.isabs(asset):
            raise self._refuse(layer_id, asset, _(
                "an absolute path; only relative paths inside the asset's folder are read"))
        if "\\" in asset or "[" in asset or "]" in asset or ":SDF_FORMAT_ARGS:" in asset:
            raise self._refuse(layer_id, asset, _(
                "backslashes, package paths ([...]) and file-format arguments are not read"))
        outer, inner = _split(layer_id)
        if inner is None and outer in self.packages:
            inner = self.packages[outer].members[0]  # a package's own layer is its first member
        if inner is not None:
            member = P.normalized_member(inner, asset)
            if member is None:
                raise self._refuse(layer_id, asset, _("leads outside the package"))
            package = self.packages[outer]
            if kind == "asset":
                return None  # checked as a path; never opened, may be missing
            if member not in package.members:
                raise self._refuse(layer_id, asset, _("no such member in the package"))
            if not member.lower().endswith(P.LAYER_SUFFIXES):
                raise self._refuse(layer_id, asset, _("not a USD layer (.usda, .usdc, .usd)"))
            return P.member_path(outer, member)
        if self.is_package:
            raise self._refuse(layer_id, asset, _("leads outside the package"))
        target = os.path.normpath(os.path.join(os.path.dirname(outer), asset))
        if not _inside(target, self.folder) or (
                os.path.lexists(target)
                and not _inside(os.path.realpath(target), self.real_folder)):
            raise self._refuse(layer_id, asset, _("leads outside the asset's folder"))
        if kind == "asset":
            if os.path.lexists(target) and os.path.exists(target) and not os.path.isfile(target):
                # Never opened, but a FIFO named as a texture is not an accident.
                raise self._refuse(layer_id, asset, _("not a regular file (a FIFO, device or "
                                                      "socket)"))
            return None
        if not target.lower().endswith(LAYER_SUFFIXES):
            raise self._refuse(layer_id, asset, _("not a USD file (.usda, .usdc, .usd, .usdz)"))
        try:
            self.add_file(target)
        except WorkerError as exc:
            raise self._refuse(layer_id, asset, str(exc)) from None
        return target

    def add_file(self, path: str) -> None:
        size = _regular(path, os.path.relpath(path, self.folder))
        if path.lower().endswith(".usdz") and path not in self.packages:
            try:
                self.packages[path] = P.check_package(path)
            except P.PackageRefused as exc:
                raise WorkerError(str(exc)) from None
        if path not in self.files:
            self.files.append(path)
            self.total += size
        if self.total > MAX_TOTAL_BYTES:
            raise WorkerError(_("the layers it pulls in exceed {limit} bytes").format(
                limit=MAX_TOTAL_BYTES))

    # ------------------------------------------------------------------ walk
    def open(self, identifier: str, chain: tuple[str, ...]) -> object:
        from pxr import Sdf  # noqa: PLC0415 - child process only

        layer = self.layers.get(identifier)
        if layer is None:
            if len(self.layers) >= MAX_LAYERS:
                raise WorkerError(_("it pulls in more than {limit} layers").format(
                    limit=MAX_LAYERS))
            layer = Sdf.Layer.FindOrOpen(identifier)
            if layer is None:
                raise WorkerError(_("{layer}: usd-core cannot open it as a USD layer").format(
                    layer=self._name(identifier)))
            self.layers[identifier] = layer
            self.scan(layer, identifier, chain)
        return layer

    def scan(self, layer, identifier: str, chain: tuple[str, ...]) -> None:
        from pxr import UsdUtils  # noqa: PLC0415 - child process only

        for asset in layer.subLayerPaths:
            target = self.target(identifier, asset, "sublayer")
            if target in chain or target == identifier:
                cycle = " -> ".join(self._name(i) for i in (*chain, identifier, target))
                raise WorkerError(_("{layer}: the sublayers form a cycle ({cycle})").format(
                    layer=self._name(identifier), cycle=cycle))
            self.open(target, (*chain, identifier))
        # The raw strings of every reference, payload and asset-valued attribute
        # (variants included), as written in this layer.
        _subs, refs, payloads = UsdUtils.ExtractExternalReferences(identifier)
        arcs = set(layer.GetCompositionAssetDependencies()) - set(layer.subLayerPaths)
        for asset in sorted(set(refs) | set(payloads) | arcs):
            if not asset:
                continue
            kind = "arc" if asset in arcs or asset in payloads else "asset"
            target = self.target(identifier, asset, kind)
            if target is not None:
                self.open(target, ())


def _split(identifier: str) -> tuple[str, str | None]:
    """``("pkg.usdz", "member")`` for a package identifier, else ``(identifier, None)``."""
    if identifier.endswith("]") and "[" in identifier:
        outer, _bracket, inner = identifier.partition("[")
        return outer, inner[:-1]
    return identifier, None


def open_layers(path) -> LayerSet:
    """Check and open the layer stack of the file at ``path`` (module docs)."""
    walker = _Walker(os.fspath(path))
    root = walker.root_path
    walker.add_file(root)
    layer = walker.open(root, ())
    return LayerSet(layer, list(walker.layers.values()), set(walker.layers), walker.folder,
                    list(walker.files))


def check_used_layers(stage, layers: LayerSet) -> None:
    """Refuse a stage that composed a layer :func:`open_layers` did not check (a safety net)."""
    for layer in stage.GetUsedLayers():
        if layer.anonymous:
            continue
        if layer.identifier not in layers.identifiers:
            raise WorkerError(_("the stage pulled in {layer}, which was not checked").format(
                layer=layer.identifier))


def relative_name(path: str, folder: str) -> str:
    """``path`` relative to ``folder`` for messages (``Path`` form)."""
    return Path(os.path.relpath(path, folder)).as_posix()
