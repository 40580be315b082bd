"""Walls and water from the conventions maps already use, for a map with no fivefoot properties.

A map made in Tiled for another game says where its walls are in that game's own way. When a
map states no fivefoot square property anywhere (no tile, tileset, layer, group or `terrain`
object carries one; `door` alone does not count), these are read instead, each reported as an `Inference` (what, from
where, how many squares); maps/README.md, *Maps made for other games*, lists them:

- layers (tile or object, or their groups) whose name says walls, collision, obstacles, solid
  or blocked ("Walls", "Collision", "walls level 2"; not "Walls and grass"): every square a
  tile of the layer stands on, or an object covers, is a wall; names that say water, sea,
  lake, river... make water;
- the tile properties games use for it (`collides`, `collision`, `solid`, `blocked`,
  `obstacle`, `walkable = false`...; `water`, `swim`, `liquid`...), or a tile class saying so;
- Tiled's per-tile collision shapes (the tileset's collision editor): a tile whose shapes
  cover at least half of it is a wall;
- Tiled terrain sets (Wang colours) named like walls or water, on tiles of that one colour;
- last, when nothing else gave water: the animated tiles of the lowest tile layer, which
  top-down tilesets use for their seas and rivers.

Walls are full walls (they block movement and sight); water is `water` and difficult ground,
as the ASCII map's `~` is.
"""
from __future__ import annotations

import math
import re

from ...core.values.battlemap import Inference
from ...core.values.errors import DataFileError
from .document import ObjectLayer, TiledDocument, TileLayer
from .layerdata import GID_MASK
from .planes import Planes
from .shapes import Grid, anchor, covered

WALLS, WATER = "walls", "water (difficult ground)"
WALL_WORDS = frozenset({
    "wall", "walls", "collision", "collisions", "collide", "collides", "collider", "colliders", "collidable",
    "obstacle", "obstacles", "solid", "solids", "blocked", "blocking", "blocker", "blockers", "impassable",
    "unwalkable", "barrier", "barriers",
})
WATER_WORDS = frozenset({"water", "waters", "sea", "ocean", "lake", "river", "pond", "liquid", "swim"})
# Words a layer's name may hold beside the telling one ("Walls level 2", "collision_layer"); a name
# with any other word ("Grass and Water", "Walls and floor") says nothing.
GENERIC_WORDS = frozenset({"layer", "layers", "tile", "tiles", "object", "objects", "map", "meta", "the", "and",
                           "of", "level", "deep", "shallow", "upper", "lower", "top", "bottom", "over",
                           "under", "main", "game", "invisible", "hidden"})
# `door` alone does not make a map fivefoot's: games use the name for their own doors.
STATING_KEYS_LEFT_OUT = ("door",)
# Property names (lower case, letters only) that say a tile or layer blocks, or is water, when true;
# and those that say it blocks when false.
WALL_PROPERTIES = frozenset({
    "wall", "iswall", "collides", "collide", "collision", "collidable", "iscollidable", "solid", "issolid",
    "blocked", "isblocked", "block", "blocks", "blocking", "blocksmovement", "obstacle", "isobstacle", "impassable",
})
WATER_PROPERTIES = frozenset({"water", "iswater", "swim", "swimmable", "liquid", "deepwater", "sea"})
OPEN_PROPERTIES = frozenset({"walkable", "iswalkable", "passable", "ispassable", "canwalk"})
FALSE_TEXTS = ("", "false", "no", "0", "none", "off", "0.0")
SAMPLES = 4                       # collision shapes are sampled on a 4 x 4 grid of points per tile
SHAPE_WORK_BUDGET = 5_000_000     # point-in-shape tests over all the tiles a map uses
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


def reads_property(name: str) -> bool:
    """Whether inference reads a property of this name (so it is no unknown property then)."""
    key = _letters(name)
    return key in WALL_PROPERTIES or key in WATER_PROPERTIES or key in OPEN_PROPERTIES


def states_squares(doc: TiledDocument, square_keys, terrain_class: str) -> bool:
    """Whether the map says anything in fivefoot's own terms (then nothing is inferred)."""
    keys = [key for key in square_keys if key not in STATING_KEYS_LEFT_OUT]

    def says(props) -> bool:
        return any(key in props for key in keys)

    for tileset in doc.tilesets.tilesets:
        if says(tileset.properties) or any(says(tile.properties) for tile in tileset.tiles.values()):
            return True
    if any(says(group.properties) for group in doc.groups):
        return True
    for layer in doc.layers:
        if says(layer.properties):
            return True
        if isinstance(layer, ObjectLayer):
            for obj in layer.objects:
                tile = obj.tile[0].tiles.get(obj.tile[1]) if obj.tile else None
                if (obj.cls or (tile.cls if tile else "")).lower() == terrain_class:
                    return True
    return False


class Inferrer:
    """Reads a document's own conventions into masks of wall and water squares, one per source."""

    def __init__(self, doc: TiledDocument, grid: Grid):
        self.doc, self.grid = doc, grid
        self.size = doc.width * doc.height
        self.masks: dict[tuple[str, str], bytearray] = {}
        self.used_layers: set[int] = set()
        self._reasons: dict[tuple[int, int], tuple[str, str] | None] = {}
        self._shape_work = 0

    def run(self) -> list[Inference]:
        tile_layers = [layer for layer in self.doc.layers if isinstance(layer, TileLayer)]
        for layer in self.doc.layers:
            if isinstance(layer, TileLayer):
                self._tile_layer(layer)
            elif isinstance(layer, ObjectLayer):
                self._object_layer(layer)
        if tile_layers and not any(kind == WATER for kind, _ in self.masks):
            self._animated_water(tile_layers[0])
        return [Inference(kind, source, mask.count(1)) for (kind, source), mask in self.masks.items()
                if mask.count(1)]

    def apply(self, planes: Planes) -> None:
        for (kind, _), mask in self.masks.items():
            for key in (("wall",) if kind == WALLS else ("water", "difficult")):
                planes.or_mask(key, mask)

    # -- layers ---------------------------------------------------------------------------

    def _layer_reason(self, layer) -> tuple[str, str] | None:
        for holder in (layer, *reversed(layer.groups)):
            what = "layer" if holder is layer else "group"
            for name, prop in holder.properties.items():
                kind = _property_kind(name, prop)
                if kind:
                    return kind, f"the {what} property '{name}' of '{holder.name}'"
            words = {word for word in _words(holder.name) if not word.isdigit()} - GENERIC_WORDS
            for kind, vocabulary in ((WALLS, WALL_WORDS), (WATER, WATER_WORDS)):
                if words and words <= vocabulary:
                    return kind, f"the {what} '{holder.name}'"
        return None

    def _tile_layer(self, layer: TileLayer) -> None:
        gids = layer.gids.cells
        reason = self._layer_reason(layer)
        kinds = set(gids)
        if reason:  # every tile of the layer, but its doors (games keep doors on their wall layers)
            reasons = {gid: (reason if gid & GID_MASK and not self._door(gid & GID_MASK) else None) for gid in kinds}
        else:
            reasons = {gid: self._tile_reason(gid & GID_MASK) for gid in kinds}
        self._mark_squares(layer, gids, reasons)

    def _mark_squares(self, layer, gids, reasons: dict) -> None:
        sources = sorted({r for r in reasons.values() if r})
        if not sources:
            return
        self.used_layers.add(id(layer))
        for source in sources:
            table = {gid: 1 if r == source else 0 for gid, r in reasons.items()}
            squares = bytes(map(table.__getitem__, gids))
            mask = self._mask(source)
            mask[:] = (int.from_bytes(mask, "little") | int.from_bytes(squares, "little")).to_bytes(self.size, "little")

    def _animated_water(self, layer: TileLayer) -> None:
        source = (WATER, f"the animated tiles of the lowest layer '{layer.name}' (top-down maps animate their water)")
        reasons = {}
        for gid in set(layer.gids.cells):
            found = self.doc.tilesets.find(gid & GID_MASK)
            tile = found[0].tiles.get(found[1]) if found else None
            reasons[gid] = source if tile is not None and tile.animated else None
        self._mark_squares(layer, layer.gids.cells, reasons)

    def _object_layer(self, layer: ObjectLayer) -> None:
        reason = self._layer_reason(layer)
        for obj in layer.objects:
            here = reason or self._object_reason(obj)
            if not here:
                continue
            coverage = covered(obj, layer.offset, self.grid)
            runs = coverage.runs
            if not runs:  # a thin or small shape between square centres: the square it stands in
                square = self.grid.square_of(*anchor(obj, layer.offset))
                runs = ((square[1], square[0], square[0] + 1),) if square else ()
            if runs:
                self.used_layers.add(id(layer))
                mask, width = self._mask(here), self.doc.width
                for y, start, stop in runs:
                    mask[y * width + start:y * width + stop] = b"\x01" * (stop - start)

    def _object_reason(self, obj) -> tuple[str, str] | None:
        for name, prop in obj.properties.items():
            kind = _property_kind(name, prop)
            if kind:
                return kind, f"the object property '{name}'"
        tile = obj.tile[0].tiles.get(obj.tile[1]) if obj.tile else None
        cls = obj.cls or (tile.cls if tile else "")
        for kind, vocabulary in ((WALLS, WALL_WORDS), (WATER, WATER_WORDS)):
            if _words(cls) & vocabulary:
                return kind, f"the objects of class '{cls}'"
        return self._reason_of(*obj.tile) if obj.tile else None

    # -- tiles ----------------------------------------------------------------------------

    def _door(self, gid: int) -> bool:
        found = self.doc.tilesets.find(gid)
        tile = found[0].tiles.get(found[1]) if found else None
        return tile is not None and "door" in tile.properties and _true(tile.properties["door"])

    def _tile_reason(self, gid: int) -> tuple[str, str] | None:
        found = self.doc.tilesets.find(gid) if gid else None
        if found is None:
            return None
        return self._reason_of(*found)

    def _reason_of(self, tileset, local_id: int) -> tuple[str, str] | None:
        key = (id(tileset), local_id)
        if key not in self._reasons:
            self._reasons[key] = self._read_tile(tileset, local_id)
        return self._reasons[key]

    def _read_tile(self, tileset, local_id: int) -> tuple[str, str] | None:
        tile = tileset.tiles.get(local_id)
        for holder, what in ((tile.properties if tile else {}, "tile"), (tileset.properties, "tileset")):
            for name, prop in holder.items():
                kind = _property_kind(name, prop)
                if kind:
                    return kind, f"the {what} property '{name}'"
        if tile is not None:
            for kind, vocabulary in ((WALLS, WALL_WORDS), (WATER, WATER_WORDS)):
                if _words(tile.cls) & vocabulary:
                    return kind, f"the tile class '{tile.cls}'"
            if tile.collision and self._covered_share(tileset, tile) >= 0.5:
                return WALLS, "the tiles' collision shapes (Tiled's collision editor)"
        name = tileset.wang_names.get(local_id, "")
        for kind, vocabulary in ((WALLS, WALL_WORDS), (WATER, WATER_WORDS)):
            if _words(name) & vocabulary:
                return kind, f"the terrain '{name}' of tileset '{tileset.name}'"
        return None

    def _covered_share(self, tileset, tile) -> float:
        """How much of the tile its collision shapes cover, sampled on a SAMPLES x SAMPLES grid."""
        width, height = (tile.image_rect[2:] if tile.image_rect else (tileset.tile_width, tileset.tile_height))
        points = [((i + 0.5) * width / SAMPLES, (j + 0.5) * height / SAMPLES)
                  for i in range(SAMPLES) for j in range(SAMPLES)]
        self._shape_work += len(points) * sum(1 + len(shape[5]) for shape in tile.collision)
        if self._shape_work > SHAPE_WORK_BUDGET:
            raise DataFileError(self.doc.shown, tileset.where,
                                "the tiles' collision shapes are too many or too detailed to read within fivefoot's "
                                f"work budget ({SHAPE_WORK_BUDGET:,} point tests); simplify them")
        inside = sum(1 for point in points if any(_inside(shape, *point) for shape in tile.collision))
        return inside / len(points)

    def _mask(self, source: tuple[str, str]) -> bytearray:
        if source not in self.masks:
            self.masks[source] = bytearray(self.size)
        return self.masks[source]


def _inside(shape, px: float, py: float) -> bool:
    kind, x, y, width, height, points = shape
    if kind == "rectangle":
        return x <= px < x + width and y <= py < y + height
    if kind == "ellipse":
        if width <= 0 or height <= 0:
            return False
        u, v = (px - x - width / 2) / (width / 2), (py - y - height / 2) / (height / 2)
        return u * u + v * v <= 1.0
    crossings = False  # even-odd rule over the polygon's edges (points are relative to x, y)
    qx, qy = px - x, py - y
    for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1]):
        if (ay <= qy) != (by <= qy) and qx < ax + (qy - ay) * (bx - ax) / (by - ay):
            crossings = not crossings
    return crossings


def _words(name: str) -> set[str]:
    return {word.lower() for word in _WORD.findall(name or "")}


def _letters(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalpha())


def _property_kind(name: str, prop) -> str | None:
    key = _letters(name)
    if key in WALL_PROPERTIES and _true(prop):
        return WALLS
    if key in WATER_PROPERTIES and _true(prop):
        return WATER
    if key in OPEN_PROPERTIES and not _true(prop):
        return WALLS
    return None


def _true(prop) -> bool:
    if prop.type == "class":
        return False
    text = prop.value.strip().lower()
    if prop.type in ("int", "float"):
        try:
            return float(text) != 0 and math.isfinite(float(text))
        except ValueError:
            return False
    return text not in FALSE_TEXTS
