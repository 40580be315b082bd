"""Tilesets: a `<tileset>` element (embedded in a map or a .tsx) as a checked `Tileset`.

Both kinds Tiled makes are handled: one image cut into a grid (with margin and spacing)
and image collections (each tile its own image, optionally a sub-rectangle of it).
Tile and tileset custom properties are kept raw; the fivefoot convention reads them.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from pathlib import Path

from ...core.values.errors import DataFileError
from .files import FileRef
from .images import MAX_IMAGE_SIDE
from .layerdata import GID_MASK
from .properties import Prop, element_class, float_attr, int_attr, parse_points, read_properties, short

MAX_TILESETS = 256
# Where a tile object's position lies on its picture, as fractions of its width and height.
# Tiled's "unspecified" is bottom-left on orthogonal maps.
OBJECT_ALIGNMENTS = {
    "unspecified": (0.0, 1.0), "topleft": (0.0, 0.0), "top": (0.5, 0.0), "topright": (1.0, 0.0),
    "left": (0.0, 0.5), "center": (0.5, 0.5), "right": (1.0, 0.5),
    "bottomleft": (0.0, 1.0), "bottom": (0.5, 1.0), "bottomright": (1.0, 1.0),
}


@dataclass(frozen=True)
class TileDef:
    """One tile of a tileset: its class, properties and image."""

    local_id: int
    cls: str = ""
    properties: dict = field(default_factory=dict)
    image: FileRef | None = None
    image_rect: tuple[int, int, int, int] | None = None
    # Tiled's collision editor: the tile's shapes as (kind, x, y, width, height, points), in its pixels
    collision: tuple = ()
    animated: bool = False


@dataclass
class Tileset:
    """A tileset as read: its grid of tiles or its image collection."""

    name: str
    shown: str                # the file that defines it, for messages
    where: str                # e.g. "tileset 'Desert'"
    tile_width: int
    tile_height: int
    columns: int = 0
    count: int = 0            # tiles cut from `image`; 0 for an image collection
    spacing: int = 0
    margin: int = 0
    image: FileRef | None = None
    properties: dict[str, Prop] = field(default_factory=dict)
    tiles: dict[int, TileDef] = field(default_factory=dict)
    offset: tuple[int, int] = (0, 0)
    firstgid: int = 0
    source: Path | None = None  # the .tsx it came from, if external
    alignment: tuple[float, float] = (0.0, 1.0)  # see OBJECT_ALIGNMENTS
    # Tiled's terrain (Wang) sets: local id -> the one colour name a tile shows all over
    wang_names: dict[int, str] = field(default_factory=dict)

    @property
    def is_collection(self) -> bool:
        return self.image is None

    def has_tile(self, local_id: int) -> bool:
        if self.is_collection:
            tile = self.tiles.get(local_id)
            return tile is not None and tile.image is not None
        return 0 <= local_id < self.count

    def tile_image(self, local_id: int) -> tuple[FileRef, tuple[int, int, int, int]]:
        """The image file and pixel rectangle that draw tile `local_id`."""
        if self.is_collection:
            tile = self.tiles[local_id]
            return tile.image, tile.image_rect
        column, row = local_id % self.columns, local_id // self.columns
        x = self.margin + column * (self.tile_width + self.spacing)
        y = self.margin + row * (self.tile_height + self.spacing)
        return self.image, (x, y, self.tile_width, self.tile_height)


def parse_tileset(element, ref: FileRef, assets, where: str) -> Tileset:
    """A tileset from its `<tileset>` element found in `ref` (images resolved from there)."""
    shown = ref.shown
    name = short(element.get("name") or "(unnamed)")
    where = f"{where} '{name}'"
    tile_width = int_attr(element, "tilewidth", shown, where, 1, MAX_IMAGE_SIDE)
    tile_height = int_attr(element, "tileheight", shown, where, 1, MAX_IMAGE_SIDE)
    spacing = int_attr(element, "spacing", shown, where, 0, MAX_IMAGE_SIDE, default=0)
    margin = int_attr(element, "margin", shown, where, 0, MAX_IMAGE_SIDE, default=0)
    tileset = Tileset(
        name=name, shown=shown, where=where, tile_width=tile_width, tile_height=tile_height,
        spacing=spacing, margin=margin, properties=read_properties(element, shown, where),
    )
    alignment = (element.get("objectalignment") or "unspecified").strip().lower()
    if alignment not in OBJECT_ALIGNMENTS:
        raise DataFileError(
            shown, where, f"objectalignment '{short(alignment)}' is unknown; use one of {', '.join(OBJECT_ALIGNMENTS)}"
        )
    tileset.alignment = OBJECT_ALIGNMENTS[alignment]
    offset = element.find("tileoffset")
    if offset is not None:
        tileset.offset = (
            int_attr(offset, "x", shown, where, -MAX_IMAGE_SIDE, MAX_IMAGE_SIDE, default=0),
            int_attr(offset, "y", shown, where, -MAX_IMAGE_SIDE, MAX_IMAGE_SIDE, default=0),
        )
    image_el = element.find("image")
    if image_el is not None:
        tileset.image, (width, height) = _image(image_el, ref, assets, where)
        tileset.columns = max(0, (width - margin + spacing) // (tile_width + spacing))
        rows = max(0, (height - margin + spacing) // (tile_height + spacing))
        tileset.count = tileset.columns * rows
        if tileset.count == 0:
            raise DataFileError(
                shown, where, f"its image ({width}x{height}) is smaller than one {tile_width}x{tile_height} tile"
            )
        stated = element.get("tilecount")
        if stated is not None and stated.strip().isdigit() and int(stated) != tileset.count:
            assets.warn(
                f"{where}: says it has {stated} tiles but its image holds {tileset.count}; "
                "fivefoot uses the image (open and save the tileset in Tiled to fix)",
                shown,
            )
    tile_els = element.findall("tile")
    for position in _last_of_each_id(tile_els):
        tile = _tile(tile_els[position], ref, assets, where, tileset)
        tileset.tiles[tile.local_id] = tile
    tileset.wang_names = _wang_names(element, shown, where)
    return tileset


def _last_of_each_id(tile_els) -> list[int]:
    """Positions of the <tile> elements to read: of several with one id only the last (it is the one
    kept: Tiled never writes an id twice, and a file that repeats one 60,000 times costs no more
    than its distinct tiles), in the order the ids first appear. An id that is not a plain number
    is read where it stands, to be named as wrong."""
    last: dict = {}
    for position, tile_el in enumerate(tile_els):
        text = (tile_el.get("id") or "").strip()
        key = int(text) if text.isascii() and text.isdigit() and len(text) <= 10 else ("odd", position)
        last[key] = position
    return list(last.values())


def _wang_names(element, shown: str, where: str) -> dict[int, str]:
    """Tiles that show one terrain colour at every corner and edge Tiled marked: local id -> its name."""
    found: dict[int, str] = {}
    holder = element.find("wangsets")
    for wangset in holder.findall("wangset") if holder is not None else ():
        names = [short(colour.get("name") or "") for colour in wangset.findall("wangcolor")]
        for wangtile in wangset.findall("wangtile"):
            parts = (wangtile.get("wangid") or "").split(",")
            if not all(part.strip().isdigit() and len(part.strip()) <= 3 for part in parts):
                continue  # not Tiled 1.5+'s list of colour numbers: nothing to read
            colours = {int(part) for part in parts} - {0}
            if len(colours) == 1 and 1 <= (colour := colours.pop()) <= len(names):
                local_id = int_attr(wangtile, "tileid", shown, f"{where}, <wangtile>", 0, GID_MASK)
                found[local_id] = names[colour - 1]
    return found


def _tile(element, ref: FileRef, assets, where: str, tileset: Tileset) -> TileDef:
    shown = ref.shown
    local_id = int_attr(element, "id", shown, f"{where}, <tile>", 0, GID_MASK)
    where = f"{where}, tile {local_id}"
    image, rect = None, None
    image_el = element.find("image")
    if image_el is not None and tileset.image is None:
        image, (width, height) = _image(image_el, ref, assets, where)
        rect = (0, 0, width, height)
        if element.get("width") is not None or element.get("x") is not None:
            x = int_attr(element, "x", shown, where, 0, width - 1, default=0)
            y = int_attr(element, "y", shown, where, 0, height - 1, default=0)
            rect = (
                x, y,
                int_attr(element, "width", shown, where, 1, width - x, default=width - x),
                int_attr(element, "height", shown, where, 1, height - y, default=height - y),
            )
    return TileDef(
        local_id=local_id,
        cls=element_class(element),
        properties=read_properties(element, shown, where),
        image=image,
        image_rect=rect,
        collision=_collision_shapes(element, shown, where),
        animated=element.find("animation") is not None,
    )


def _collision_shapes(element, shown: str, where: str) -> tuple:
    """The shapes Tiled's collision editor drew on the tile (its <objectgroup>), in tile pixels."""
    group = element.find("objectgroup")
    if group is None:
        return ()
    shapes = []
    for number, obj in enumerate(group.findall("object"), 1):
        here = f"{where}, collision shape #{number}"
        x, y = float_attr(obj, "x", shown, here), float_attr(obj, "y", shown, here)
        width, height = float_attr(obj, "width", shown, here), float_attr(obj, "height", shown, here)
        points = ()
        if obj.find("ellipse") is not None:
            kind = "ellipse"
        elif obj.find("polygon") is not None:
            kind = "polygon"
            points = parse_points(obj.find("polygon").get("points"), "polygon", shown, here)
        elif obj.find("point") is not None or obj.find("polyline") is not None:
            continue  # covers no area
        else:
            kind = "rectangle"
        if float_attr(obj, "rotation", shown, here):
            continue  # turned shapes are rare on tiles; their squares are not guessed
        shapes.append((kind, x, y, width, height, points))
    return tuple(shapes)


def _image(image_el, ref: FileRef, assets, where: str) -> tuple[FileRef, tuple[int, int]]:
    shown = ref.shown
    declared = [
        int_attr(image_el, side, shown, f"{where}, <image>", 1, MAX_IMAGE_SIDE, default=0)
        for side in ("width", "height")
    ]
    image, size = assets.image(image_el.get("source"), ref, where)
    assets.see_through(image, image_el.get("trans"), ref, where)
    if all(declared) and tuple(declared) != size:
        assets.warn(
            f"{where}: image '{image.shown}' is {size[0]}x{size[1]} pixels but the tileset says "
            f"{declared[0]}x{declared[1]}; fivefoot uses the real size (open and save the tileset in Tiled to fix)",
            shown,
        )
    return image, size


class TileLookup:
    """Find the tileset owning a GID, as Tiled does: the one with the largest firstgid <= gid."""

    def __init__(self, tilesets: list[Tileset]):
        self.tilesets = sorted(tilesets, key=lambda t: t.firstgid)
        self._firsts = [t.firstgid for t in self.tilesets]

    def find(self, gid: int) -> tuple[Tileset, int] | None:
        index = bisect.bisect_right(self._firsts, gid) - 1
        if gid <= 0 or index < 0:
            return None
        tileset = self.tilesets[index]
        local = gid - tileset.firstgid
        return (tileset, local) if tileset.has_tile(local) else None

    def owners(self, gids) -> tuple[list[int], list[int], list[bool]]:
        """For non-zero masked `gids` (a few distinct ones): owning tileset index (0 where none
        owns it), local id, and whether that tileset has the tile."""
        owners, locals_, valid = [], [], []
        for gid in gids:
            index = bisect.bisect_right(self._firsts, gid) - 1
            tileset = self.tilesets[index] if index >= 0 else None
            local = gid - (tileset.firstgid if tileset else self._firsts[0] if self._firsts else 0)
            owners.append(max(index, 0))
            locals_.append(local)
            valid.append(tileset is not None and local >= 0 and tileset.has_tile(local))
        return owners, locals_, valid

    def span(self) -> str:
        if not self.tilesets:
            return "the map has no tilesets"
        ranges = [f"{t.name} {t.firstgid}-{t.firstgid + _gid_count(t) - 1}" for t in self.tilesets]
        return "tilesets cover " + ", ".join(ranges)

    def overlap(self) -> str | None:
        """Why two tilesets claim the same tile numbers (a duplicate or overlapping firstgid), or None:
        Tiled gives each tileset its own range, so such a map was edited by hand or damaged."""
        for before, after in zip(self.tilesets, self.tilesets[1:]):
            end = before.firstgid + _gid_count(before) - 1
            if after.firstgid <= end:
                return (f"tilesets '{before.name}' (tile numbers {before.firstgid}-{end}) and '{after.name}' "
                        f"(from firstgid {after.firstgid}) claim the same tile numbers; each tileset needs a "
                        "range of its own. Re-save the map from Tiled")
        return None


def _gid_count(tileset: Tileset) -> int:
    return max(1, tileset.count if not tileset.is_collection else (max(tileset.tiles, default=-1) + 1))
