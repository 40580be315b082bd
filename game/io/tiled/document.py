"""A Tiled map file read into a checked, format-neutral `TiledDocument`.

Layers come out in Tiled's document order (bottom to top, groups flattened, each layer
knowing its enclosing groups), tile layers as layers of raw GIDs (game/core/values/layer.py) whose
every tile is known to exist in a tileset. No rules meaning is given here: see tiled/convention.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from ...core.values.battlemap import MAX_MAP_SIDE
from ...core.values.errors import DataFileError
from ...core.values.layer import UInt32Layer
from .assets import Assets, load_tree
from .chunks import Chunks, read_chunks
from .files import FileRef, asset_root_for, map_file
from .layerdata import GID_MASK, decode_layer_data
from .objects import MapObject, parse_object
from .roots import default_root
from .properties import Prop, bool_attr, float_attr, int_attr, read_properties, short
from .tilesets import MAX_TILESETS, TileLookup, Tileset

MAX_TILE_PIXELS = 1024
MAX_LAYERS = 1000
MAX_TOTAL_TILES = 16_000_000  # summed over tile layers: bounds memory to ~64 MB of GIDs
# Non-empty tiles of visible tile layers, summed: each is a picture the window keeps and draws
# (game/io/tiled/art), a few hundred bytes each, so this bounds `play`'s memory for the map.
MAX_DRAWN_TILES = 2_000_000
COUNT_WITH_NUMPY_FROM = 65_536   # squares in a layer from which its drawn tiles are counted with numpy
# Tile objects and image layers, each counted by the squares it is drawn over (clipped to the
# map), may cover the map this many times over: it bounds the renderer's work per square.
MAX_PICTURE_COVER = 64

@dataclass
class Group:
    """A Tiled group layer: its name and properties, for the layers inside it."""

    name: str
    where: str
    properties: dict[str, Prop]


@dataclass
class TileLayer:
    """A Tiled tile layer: its tile ids by square, with how it is shown."""

    name: str
    where: str
    gids: UInt32Layer                     # [y, x]: raw GIDs with flip flags
    properties: dict[str, Prop]
    groups: tuple[Group, ...] = ()        # enclosing groups, outermost first
    visible: bool = True                  # after the enclosing groups
    opacity: float = 1.0
    offset: tuple[float, float] = (0.0, 0.0)


@dataclass
class ObjectLayer:
    """A Tiled object layer: its objects, with how it is shown."""

    name: str
    where: str
    objects: list[MapObject]
    properties: dict[str, Prop]
    groups: tuple[Group, ...] = ()
    visible: bool = True
    offset: tuple[float, float] = (0.0, 0.0)
    opacity: float = 1.0
    draw_order: str = "topdown"           # Tiled's draworder: "topdown" (by y) or "index" (as listed)


@dataclass
class ImageLayer:
    """A picture placed on the map (drawn only: the rules ignore it)."""

    name: str
    where: str
    image: FileRef | None                 # None: the layer has no image yet
    size: tuple[int, int]                 # its pixels, from the file's header
    properties: dict[str, Prop]
    groups: tuple[Group, ...] = ()
    visible: bool = True
    offset: tuple[float, float] = (0.0, 0.0)
    opacity: float = 1.0
    repeat: tuple[bool, bool] = (False, False)  # Tiled's repeatx, repeaty


@dataclass
class TiledDocument:
    """A Tiled map as read, before the fivefoot convention gives it meaning."""

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
    notes: list[str] = field(default_factory=list)   # how the file was read, where a map maker may wonder

    @property
    def shown(self) -> str:
        return self.file.shown


def _clipped(start: float, length: float, limit: float) -> float:
    """How much of [start, start + length) lies within [0, limit)."""
    return max(0.0, min(start + length, limit) - max(start, 0.0))


def default_asset_root(path: str | os.PathLike) -> Path:
    """Where the map's files are first looked for (tiled/roots): the fivefoot folder for a shipped
    map, else the Tiled project's folder, else the map's own folder (widened while loading)."""
    try:
        real = Path(path).resolve()
    except (RuntimeError, OSError):  # a link loop: reading the map itself says so
        return Path(path).absolute().parent
    return default_root(real).folder


def read_document(path: str | os.PathLike, asset_root: str | os.PathLike | None = None) -> TiledDocument:
    ref = map_file(path)
    assets = Assets(asset_root_for(ref, asset_root), ref.shown)
    map_el = load_tree(ref, "map", "map", assets.budget)
    return _Reader(ref, assets).read(map_el)


class _Reader:
    def __init__(self, ref: FileRef, assets: Assets):
        self.ref = ref
        self.shown = ref.shown
        self.assets = assets
        self.total_tiles = 0
        self.drawn_tiles = 0
        self.layer_count = 0
        self.chunks: Chunks | None = None        # an infinite map's tiles (tiled/chunks)
        self.shift = (0.0, 0.0)                  # pixels every layer moves (an infinite map's box)

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
        tile_width = int_attr(map_el, "tilewidth", shown, "map", 1, MAX_TILE_PIXELS)
        tile_height = int_attr(map_el, "tileheight", shown, "map", 1, MAX_TILE_PIXELS)
        shift = (0.0, 0.0)
        if bool_attr(map_el, "infinite", default=False):
            self.chunks = read_chunks(map_el, shown, MAX_TOTAL_TILES)
            width, height = self.chunks.width, self.chunks.height
            shift = (-self.chunks.x * tile_width, -self.chunks.y * tile_height)
        else:
            width = int_attr(map_el, "width", shown, "map", 1, MAX_MAP_SIDE)
            height = int_attr(map_el, "height", shown, "map", 1, MAX_MAP_SIDE)
        self.shift = shift
        doc = TiledDocument(
            file=self.ref,
            width=width,
            height=height,
            tile_width=tile_width,
            tile_height=tile_height,
            properties=read_properties(map_el, shown, "map properties"),
            tilesets=TileLookup([]),
            assets=self.assets,
        )
        doc.tilesets = TileLookup(self._tilesets(map_el))
        overlap = doc.tilesets.overlap()
        if overlap:
            raise DataFileError(shown, "map", overlap)
        self.doc = doc
        if self.chunks is not None and self.chunks.pieces:
            doc.notes.append(f"an infinite map, played on the {width} x {height} squares its tiles span "
                             f"(Tiled's tile ({self.chunks.x}, {self.chunks.y}) is square (0, 0))")
        self._children(map_el, (), True, 1.0, shift)
        self._check_picture_cover()
        return doc

    def _check_picture_cover(self) -> None:
        doc = self.doc
        map_w, map_h = doc.width * doc.tile_width, doc.height * doc.tile_height
        limit = MAX_PICTURE_COVER * map_w * map_h
        covered = 0.0
        for layer in doc.layers:
            if not layer.visible or isinstance(layer, TileLayer):
                continue
            if isinstance(layer, ImageLayer):
                if layer.image is not None:
                    w, h = layer.size
                    covered += (map_w if layer.repeat[0] else _clipped(layer.offset[0], w, map_w)) * (
                        map_h if layer.repeat[1] else _clipped(layer.offset[1], h, map_h))
            else:
                for obj in layer.objects:
                    if obj.tile is None or not obj.visible:
                        continue
                    x, y = obj.x + layer.offset[0], obj.y + layer.offset[1]
                    rect = obj.tile[0].tile_image(obj.tile[1])[1]
                    w, h = obj.width or rect[2], obj.height or rect[3]  # as tiled/art draws it
                    if obj.rotation:  # a turned picture stays within a circle around its position
                        reach = math.hypot(w, h)
                        covered += _clipped(x - reach, 2 * reach, map_w) * _clipped(y - reach, 2 * reach, map_h)
                    else:
                        ax, ay = obj.tile[0].alignment
                        covered += _clipped(x - ax * w, w, map_w) * _clipped(y - ay * h, h, map_h)
            if covered > limit:
                raise DataFileError(
                    self.shown, layer.where,
                    f"the map's tile objects and image layers cover it more than {MAX_PICTURE_COVER} times "
                    "over; fivefoot draws at most that much. Remove or shrink some, or hide the layers "
                    "fivefoot should not draw",
                )

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
                own_offset = (here_offset[0] - self.shift[0], here_offset[1] - self.shift[1])
                gids = self._tile_data(element, where)
                if here_visible:
                    self._count_drawn(gids, where)
                self.doc.layers.append(TileLayer(name, where, gids, properties, groups, here_visible, here_opacity,
                                                 own_offset))
            elif element.tag == "objectgroup":
                objects = [
                    parse_object(child, self.ref, self.doc.tilesets, self.assets, where)
                    for child in element.findall("object")
                ]
                order = "index" if (element.get("draworder") or "").strip() == "index" else "topdown"
                self.doc.layers.append(ObjectLayer(name, where, objects, properties, groups, here_visible,
                                                   here_offset, here_opacity, order))
            else:
                image, size = self._layer_image(element, where)
                repeat = (bool_attr(element, "repeatx", False), bool_attr(element, "repeaty", False))
                self.doc.layers.append(ImageLayer(name, where, image, size, properties, groups, here_visible,
                                                  here_offset, here_opacity, repeat))

    def _layer_image(self, element, where) -> tuple[FileRef | None, tuple[int, int]]:
        image_el = element.find("image")
        if image_el is None or not (image_el.get("source") or "").strip():
            return None, (0, 0)
        image, size = self.assets.image(image_el.get("source"), self.ref, where)
        self.assets.see_through(image, image_el.get("trans"), self.ref, where)
        return image, size

    def _tile_data(self, element, where) -> UInt32Layer:
        doc = self.doc
        if self.chunks is not None:
            self._count_tiles(where)
            gids = self.chunks.layer(element)
            self._check_gids(gids, where)
            return gids
        for side, expected in (("width", doc.width), ("height", doc.height)):
            stated = int_attr(element, side, self.shown, where, 1, MAX_MAP_SIDE, default=expected)
            if stated != expected:
                raise DataFileError(
                    self.shown, where, f"is {side} {stated} but the map is {side} {expected}; resize the layer in Tiled"
                )
        self._count_tiles(where)
        gids = decode_layer_data(element.find("data"), doc.width, doc.height, self.shown, where)
        self._check_gids(gids, where)
        return gids

    def _count_drawn(self, gids: UInt32Layer, where: str) -> None:
        cells = gids.cells
        if len(cells) < COUNT_WITH_NUMPY_FROM:      # a small map's layers: no numpy import for them
            self.drawn_tiles += sum(1 for gid in cells if gid & GID_MASK)
        else:
            import numpy as np
            self.drawn_tiles += int(np.count_nonzero(gids.numpy() & GID_MASK))
        if self.drawn_tiles > MAX_DRAWN_TILES:
            raise DataFileError(
                self.shown, where,
                f"the visible tile layers draw more than {MAX_DRAWN_TILES:,} tiles in all, more than fivefoot's "
                "window holds for one map; hide layers that only help editing (the eye icon), or merge layers",
            )

    def _count_tiles(self, where: str) -> None:
        self.total_tiles += self.doc.width * self.doc.height
        if self.total_tiles > MAX_TOTAL_TILES:
            raise DataFileError(
                self.shown, where,
                f"the tile layers hold more than {MAX_TOTAL_TILES:,} tiles in all; merge or remove some layers",
            )

    def _check_gids(self, raw: UInt32Layer, where: str) -> None:
        used = sorted({gid & GID_MASK for gid in set(raw.cells)} - {0})
        if not used:
            return
        _, _, valid = self.doc.tilesets.owners(used)
        if all(valid):
            return
        bad = next(gid for gid, ok in zip(used, valid) if not ok)
        at = next(i for i, gid in enumerate(raw.cells) if gid & GID_MASK == bad)
        y, x = divmod(at, raw.width)
        raise DataFileError(
            self.shown, f"{where}, square ({x}, {y})",
            f"uses tile number {bad}, which is in no tileset ({self.doc.tilesets.span()}); "
            "the map is damaged or a tileset lost tiles",
        )
