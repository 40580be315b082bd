"""A Tiled map file read into a checked, format-neutral `TiledDocument`.

Layers come out in Tiled's document order (bottom to top, groups flattened, each layer
knowing its enclosing groups), tile layers as numpy arrays of raw GIDs whose every tile
is known to exist in a tileset. No rules meaning is given here: see tiled_convention.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core.battlemap import MAX_MAP_SIDE
from ..core.errors import DataFileError
from .tiled_assets import Assets, load_tree
from .tiled_files import FileRef, map_file, resolve_asset_root
from .tiled_layerdata import GID_MASK, decode_layer_data
from .tiled_objects import MapObject, parse_object
from .tiled_properties import Prop, bool_attr, float_attr, int_attr, read_properties, short
from .tiled_tilesets import MAX_TILESETS, TileLookup, Tileset

MAX_TILE_PIXELS = 1024
MAX_LAYERS = 1000
MAX_TOTAL_TILES = 16_000_000  # summed over tile layers: bounds memory to ~64 MB of GIDs

SHIPPED_ROOT = Path(__file__).resolve().parents[2]
SHIPPED_MAPS = SHIPPED_ROOT / "maps"


@dataclass
class Group:
    name: str
    where: str
    properties: dict[str, Prop]


@dataclass
class TileLayer:
    name: str
    where: str
    gids: np.ndarray                      # uint32 [y, x], raw GIDs with flip flags
    properties: dict[str, Prop]
    groups: tuple[Group, ...] = ()        # enclosing groups, outermost first
    visible: bool = True                  # after the enclosing groups
    opacity: float = 1.0
    offset: tuple[float, float] = (0.0, 0.0)


@dataclass
class ObjectLayer:
    name: str
    where: str
    objects: list[MapObject]
    properties: dict[str, Prop]
    groups: tuple[Group, ...] = ()
    visible: bool = True
    offset: tuple[float, float] = (0.0, 0.0)


@dataclass
class TiledDocument:
    file: FileRef
    width: int
    height: int
    tile_width: int
    tile_height: int
    properties: dict[str, Prop]
    tilesets: TileLookup
    layers: list = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    assets: Assets | None = None

    @property
    def shown(self) -> str:
        return self.file.shown


def default_asset_root(path: str | os.PathLike) -> Path:
    """The map's folder; for maps shipped in fivefoot's maps/ folder, the fivefoot folder."""
    real = Path(path).resolve()
    if real.is_relative_to(SHIPPED_MAPS):
        return SHIPPED_ROOT
    return real.parent


def read_document(path: str | os.PathLike, asset_root: str | os.PathLike | None = None) -> TiledDocument:
    ref = map_file(path)
    root = resolve_asset_root(asset_root if asset_root is not None else default_asset_root(path), ref.shown)
    assets = Assets(root, ref.shown)
    map_el = load_tree(ref, "map", "map")
    return _Reader(ref, assets).read(map_el)


class _Reader:
    def __init__(self, ref: FileRef, assets: Assets):
        self.ref = ref
        self.shown = ref.shown
        self.assets = assets
        self.total_tiles = 0
        self.layer_count = 0

    def read(self, map_el) -> TiledDocument:
        shown = self.shown
        orientation = short((map_el.get("orientation") or "orthogonal").strip())
        if orientation != "orthogonal":
            article = "an" if orientation[:1] in "aeiou" else "a"
            raise DataFileError(
                shown, "map",
                f"is {article} {orientation} map; fivefoot plays on square grids only. Make an orthogonal map "
                "(in Tiled: File > New > New Map, Orientation: Orthogonal)",
            )
        if bool_attr(map_el, "infinite", default=False):
            raise DataFileError(
                shown, "map",
                "is an infinite map; fivefoot needs a fixed size. In Tiled uncheck Map > Map Properties > Infinite",
            )
        width = int_attr(map_el, "width", shown, "map", 1, MAX_MAP_SIDE)
        height = int_attr(map_el, "height", shown, "map", 1, MAX_MAP_SIDE)
        doc = TiledDocument(
            file=self.ref,
            width=width,
            height=height,
            tile_width=int_attr(map_el, "tilewidth", shown, "map", 1, MAX_TILE_PIXELS),
            tile_height=int_attr(map_el, "tileheight", shown, "map", 1, MAX_TILE_PIXELS),
            properties=read_properties(map_el, shown, "map properties"),
            tilesets=TileLookup([]),
            assets=self.assets,
        )
        doc.tilesets = TileLookup(self._tilesets(map_el))
        self.doc = doc
        self._children(map_el, (), True, 1.0, (0.0, 0.0))
        return doc

    def _tilesets(self, map_el) -> list[Tileset]:
        elements = map_el.findall("tileset")
        if len(elements) > MAX_TILESETS:
            raise DataFileError(self.shown, "map", f"has {len(elements)} tilesets; at most {MAX_TILESETS} are allowed")
        tilesets = []
        for number, element in enumerate(elements, 1):
            where = f"tileset #{number}"
            firstgid = int_attr(element, "firstgid", self.shown, where, 1, GID_MASK)
            tilesets.append(self.assets.tileset(element, self.ref, firstgid, "tileset"))
        return tilesets

    def _children(self, parent_el, groups, visible, opacity, offset) -> None:
        for element in parent_el:
            if element.tag not in ("layer", "objectgroup", "imagelayer", "group"):
                continue
            self.layer_count += 1
            if self.layer_count > MAX_LAYERS:
                raise DataFileError(self.shown, "map", f"has more than {MAX_LAYERS} layers")
            name = short(element.get("name") or "(unnamed)")
            kind = {"layer": "tile layer", "objectgroup": "object layer", "imagelayer": "image layer", "group": "group"}
            where = f"{kind[element.tag]} '{name}'"
            here_visible = visible and bool_attr(element, "visible")
            here_opacity = opacity * min(1.0, max(0.0, float_attr(element, "opacity", self.shown, where, 1.0)))
            here_offset = (
                offset[0] + float_attr(element, "offsetx", self.shown, where),
                offset[1] + float_attr(element, "offsety", self.shown, where),
            )
            properties = read_properties(element, self.shown, where)
            if element.tag == "group":
                group = Group(name, where, properties)
                self.doc.groups.append(group)
                self._children(element, (*groups, group), here_visible, here_opacity, here_offset)
            elif element.tag == "layer":
                self.doc.layers.append(TileLayer(
                    name, where, self._tile_data(element, where), properties, groups,
                    here_visible, here_opacity, here_offset,
                ))
            elif element.tag == "objectgroup":
                objects = [
                    parse_object(child, self.ref, self.doc.tilesets, self.assets, where)
                    for child in element.findall("object")
                ]
                self.doc.layers.append(ObjectLayer(name, where, objects, properties, groups, here_visible, here_offset))
            else:
                self.assets.warn(f"{where}: image layers are ignored (fivefoot draws tile layers only)")

    def _tile_data(self, element, where) -> np.ndarray:
        doc = self.doc
        for side, expected in (("width", doc.width), ("height", doc.height)):
            stated = int_attr(element, side, self.shown, where, 1, MAX_MAP_SIDE, default=expected)
            if stated != expected:
                raise DataFileError(
                    self.shown, where, f"is {side} {stated} but the map is {side} {expected}; resize the layer in Tiled"
                )
        self.total_tiles += doc.width * doc.height
        if self.total_tiles > MAX_TOTAL_TILES:
            raise DataFileError(
                self.shown, where,
                f"the tile layers hold more than {MAX_TOTAL_TILES:,} tiles in all; merge or remove some layers",
            )
        gids = decode_layer_data(element.find("data"), doc.width, doc.height, self.shown, where)
        self._check_gids(gids, where)
        return gids

    def _check_gids(self, raw: np.ndarray, where: str) -> None:
        masked = raw & GID_MASK
        used = np.unique(masked)
        used = used[used != 0]
        if used.size == 0:
            return
        _, _, valid = self.doc.tilesets.owners(used)
        if valid.all():
            return
        bad = int(used[~valid][0])
        y, x = (int(v[0]) for v in np.nonzero(masked == bad))
        raise DataFileError(
            self.shown, f"{where}, square ({x}, {y})",
            f"uses tile number {bad}, which is in no tileset ({self.doc.tilesets.span()}); "
            "the map is damaged or a tileset lost tiles",
        )

