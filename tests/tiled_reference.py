"""The Tiled map rasteriser as it was before map loading went numpy-free (game/io/tiled/convention.py
and tiled/shapes.py before issue "faster where players wait", item 5), kept word for word but for
the marked lines as a reference: tests/io/test_tiled_reference.py holds the stdlib loader to it, layer
by layer and square by square. Property parsing, spawns and warnings are the game's own (they did
not change); what is kept here is how tile layers and terrain objects become squares."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from game.core.values.battlemap import BattleMap
from game.io.tiled import convention as convention
from game.io.tiled.convention import BOOL_KEYS, DEGREE_KEYS, NOTHING, SquareProps
from game.io.tiled.document import ObjectLayer, TiledDocument, TileLayer
from game.io.tiled.shapes import Grid, tile_corner
from game.io.tiled.layerdata import GID_MASK
from game.io.tiled.objects import MapObject


def reference_battlemap(doc: TiledDocument) -> BattleMap:
    return ReferenceBuilder(doc).build()


class ReferenceBuilder(convention._Builder):
    def __init__(self, doc: TiledDocument):
        self.doc = doc
        self.infer, self.inferrer = False, None  # fivefoot's convention alone
        self.shown = doc.shown
        self.warn = doc.assets.warn
        shape = (doc.height, doc.width)
        self.flags = {key: np.zeros(shape, bool) for key in BOOL_KEYS}
        self.degrees = {key: np.zeros(shape, np.uint8) for key in DEGREE_KEYS}
        self.height = np.zeros(shape, np.int32)
        self.elevation = np.zeros(shape, np.int32)
        self.grid = Grid(doc.width, doc.height, doc.tile_width, doc.tile_height, doc.shown)
        self._tile_cache: dict[tuple[int, int], SquareProps] = {}
        self._tileset_cache: dict[int, SquareProps] = {}
        self._group_cache: dict[int, SquareProps] = {}
        self.spawn_objects: list[tuple] = []
        self._plans: dict[SquareProps, tuple[list, list]] = {}

    def build(self) -> BattleMap:
        meta = self._map_properties()
        for tileset in self.doc.tilesets.tilesets:
            self._check_tileset(tileset)
        for layer in self.doc.layers:
            if isinstance(layer, TileLayer):
                self._tile_layer(layer)
            elif isinstance(layer, ObjectLayer):
                self._object_layer(layer)
            else:
                self._image_layer(layer)
        battle = BattleMap.empty(self.doc.width, self.doc.height, source=self.shown, **meta)
        for key in BOOL_KEYS:
            if key != "wall":  # walls go through add_wall below
                getattr(battle, key)[:] = self.flags[key]
        for key in DEGREE_KEYS:
            getattr(battle, key)[:] = self.degrees[key]
        battle.elevation_ft[:] = self.elevation
        battle.obstacle_height_ft[:] = self.height
        ys, xs = np.nonzero(self.flags["wall"])
        if xs.size:  # one call with index arrays: add_wall's numpy indexing takes them as is
            battle.add_wall(xs, ys, self.height[ys, xs])
        battle.spawns = self._spawns(battle)
        battle.warnings = self.doc.assets.final_warnings()
        return battle

    def _tile_layer(self, layer: TileLayer) -> None:
        if layer.offset != (0.0, 0.0):
            self.warn(f"{layer.where}: its pixel offset is ignored; squares follow the tile grid")
        chain = self._chain(layer, ())
        masked = layer.gids.numpy() & GID_MASK  # (a Layer now)
        used, inverse = np.unique(masked, return_inverse=True)
        codes, distinct = self._codes(used.astype(np.int64), chain)
        cells = codes[inverse.reshape(masked.shape)]  # per square: index into `distinct`
        for key in BOOL_KEYS:
            column = np.array([getattr(p, key) for p in distinct], bool)
            if column.any():
                self.flags[key] |= column[cells]
        for key in DEGREE_KEYS:
            column = np.array([getattr(p, key) for p in distinct], np.uint8)
            if column.any():
                np.maximum(self.degrees[key], column[cells], out=self.degrees[key])
        heights = np.array([p.obstacle_height for p in distinct], np.int32)
        if heights.any():
            np.maximum(self.height, heights[cells], out=self.height)
        stated = np.array([p.elevation is not None for p in distinct], bool)
        if stated.any():
            values = np.array([p.elevation or 0 for p in distinct], np.int32)
            sets = stated[cells]
            self.elevation[sets] = values[cells][sets]

    def _codes(self, used: np.ndarray, chain: SquareProps) -> tuple[np.ndarray, list[SquareProps]]:
        """For each distinct GID of a layer, the index of its square properties in a short list.

        Only tiles with their own definition are looked at one by one (their number is bounded
        by the tileset file); all other tiles of a tileset share its properties. Empty squares
        (GID 0) get index 0, NOTHING, so layer properties never reach them.
        """
        distinct, index = [NOTHING], {NOTHING: 0}

        def code(props: SquareProps) -> int:
            if props not in index:
                index[props] = len(distinct)
                distinct.append(props)
            return index[props]

        codes = np.zeros(len(used), np.int64)
        owners, local_ids, _ = _owners(self.doc.tilesets, used)  # (numpy owners)
        for number, tileset in enumerate(self.doc.tilesets.tilesets):
            mine = (used != 0) & (owners == number)
            if not mine.any():
                continue
            codes[mine] = code(chain.over(self._tileset_props(tileset)))
            defined = np.fromiter(tileset.tiles, np.int64, len(tileset.tiles))
            for i in np.nonzero(mine & np.isin(local_ids, defined))[0]:
                codes[i] = code(chain.over(self._tile_props(tileset, int(local_ids[i]))))
        return codes, distinct

    def _terrain(self, obj, layer: ObjectLayer, chain: SquareProps) -> None:
        props = self._square(obj.properties, self.shown, obj.where, ()) if obj.properties else NOTHING
        if obj.tile:
            props = props.over(self._tile_props(*obj.tile))
        props = props.over(chain) if props is not NOTHING else chain
        coverage = covered(obj, layer.offset, self.grid)
        if not coverage.any():
            self.warn(f"{obj.where}: terrain object covers no square centre of the map")
            return
        flags, raised = self._plan(props)
        if not flags and not raised and props.elevation is None:
            self.warn(f"{obj.where}: terrain object sets no square property")
            return
        region, mask = coverage.region, coverage.mask
        everywhere = mask is None  # an upright rectangle: whole slices, no mask
        for target in flags:
            if everywhere:
                target[region] = True
            else:
                target[region] |= mask
        for target, value in raised:
            here = target[region]
            if everywhere:
                np.maximum(here, value, out=here)
            else:
                here[mask] = np.maximum(here[mask], value)
        if props.elevation is not None:
            if everywhere:
                self.elevation[region] = props.elevation
            else:
                self.elevation[region][mask] = props.elevation

    def _plan(self, props: SquareProps) -> tuple[list, list]:
        """The arrays a terrain object's properties set (flags) and raise (degrees, heights), once per kind."""
        plan = self._plans.get(props)
        if plan is None:
            flags = [self.flags[key] for key in BOOL_KEYS if getattr(props, key)]
            raised = [(self.degrees[key], getattr(props, key)) for key in DEGREE_KEYS if getattr(props, key)]
            if props.obstacle_height:
                raised.append((self.height, props.obstacle_height))
            plan = self._plans[props] = (flags, raised)
        return plan



def _owners(lookup, gids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """TileLookup.owners as it was: for non-zero masked `gids`, owning tileset index, local id, validity."""
    index = np.searchsorted(np.array(lookup._firsts, dtype=np.int64), gids, side="right") - 1
    valid = index >= 0
    safe = np.where(valid, index, 0)
    firsts = np.array(lookup._firsts or [0], dtype=np.int64)
    local = gids.astype(np.int64) - firsts[safe]
    for i, tileset in enumerate(lookup.tilesets):
        mine = valid & (safe == i)
        if mine.any():
            valid[mine] = _valid_ids(tileset, local[mine])
    return safe, local, valid


def _valid_ids(tileset, local_ids: np.ndarray) -> np.ndarray:
    if tileset.is_collection:
        with_image = np.fromiter((i for i, t in tileset.tiles.items() if t.image), dtype=np.int64)
        return np.isin(local_ids, with_image)
    return local_ids < tileset.count


@dataclass(frozen=True)
class Coverage:
    """The squares an object covers: a box of rows and columns, and which squares of it.

    Kept to the object's bounding box so a small object on a big map costs only its own
    squares; `mask` None means every square of the box (an upright rectangle).
    """

    top: int
    left: int
    rows: int
    cols: int
    mask: np.ndarray | None = None  # bool [rows, cols]

    def any(self) -> bool:
        if self.rows <= 0 or self.cols <= 0:
            return False
        return self.mask is None or bool(self.mask.any())

    @property
    def region(self) -> tuple[slice, slice]:
        return slice(self.top, self.top + self.rows), slice(self.left, self.left + self.cols)

    def full(self, height: int, width: int) -> np.ndarray:
        """The same squares as a mask over the whole map (for tests and small uses)."""
        whole = np.zeros((height, width), dtype=bool)
        if self.any():
            whole[self.region] = True if self.mask is None else self.mask
        return whole


NOTHING_COVERED = Coverage(0, 0, 0, 0)


def anchor(obj: MapObject, offset: tuple[float, float]) -> tuple[float, float]:
    """The pixel point that places the object on one square (a spawn's square)."""
    if obj.shape == "point" or (obj.shape == "rectangle" and obj.width == 0 and obj.height == 0):
        local = (0.0, 0.0)
    elif obj.shape == "tile":
        left, top = tile_corner(obj)
        local = (left + obj.width / 2, top + obj.height / 2)
    elif obj.shape in ("polygon", "polyline"):
        xs, ys = zip(*obj.points)
        local = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    else:
        local = (obj.width / 2, obj.height / 2)
    return _to_world(obj, offset, np.array([local], dtype=float))[0]


def covered(obj: MapObject, offset: tuple[float, float], grid: Grid) -> Coverage:
    """The squares the object covers."""
    grid.spend(grid.OBJECT_COST, obj.where)
    w, h = obj.width, obj.height
    if obj.shape == "point" or (obj.shape in ("rectangle", "ellipse", "text", "tile") and (w == 0 or h == 0)):
        square = grid.square_of(*anchor(obj, offset))
        return NOTHING_COVERED if square is None else Coverage(square[1], square[0], 1, 1)
    if obj.shape in ("rectangle", "text", "tile") and obj.rotation == 0:
        # The common case, thousands of times in a big map: plain arithmetic, no arrays.
        left, top = tile_corner(obj) if obj.shape == "tile" else (0.0, 0.0)
        left, top = obj.x + offset[0] + left, obj.y + offset[1] + top
        return _box(left, top, left + w, top + h, grid, obj.where)
    if obj.shape == "polyline":
        return _polyline(_to_world(obj, offset, np.array(obj.points, dtype=float)), grid, obj.where)
    if obj.shape == "ellipse":
        return _ellipse(obj, offset, grid)
    if obj.shape == "polygon":
        local = np.array(obj.points, dtype=float)
    elif obj.shape == "tile":
        left, top = tile_corner(obj)
        local = np.array([(left, top), (left + w, top), (left + w, top + h), (left, top + h)], dtype=float)
    else:
        local = np.array([(0, 0), (w, 0), (w, h), (0, h)], dtype=float)
    return _polygon(_to_world(obj, offset, local), grid, obj.where)


def _to_world(obj: MapObject, offset, local: np.ndarray) -> np.ndarray:
    angle = math.radians(obj.rotation)
    cos, sin = math.cos(angle), math.sin(angle)
    x = obj.x + offset[0] + local[:, 0] * cos - local[:, 1] * sin
    y = obj.y + offset[1] + local[:, 0] * sin + local[:, 1] * cos
    return np.stack([x, y], axis=1)


def _row_range(low: float, high: float, grid: Grid) -> tuple[int, int]:
    first = max(0, math.ceil(low / grid.tile_height - 0.5))
    last = min(grid.height, math.ceil(high / grid.tile_height - 0.5))
    return first, last


def _column_range(low: float, high: float, grid: Grid) -> tuple[int, int]:
    first = max(0, math.ceil(low / grid.tile_width - 0.5))
    last = min(grid.width, math.ceil(high / grid.tile_width - 0.5))
    return first, last


def _box(x0: float, y0: float, x1: float, y1: float, grid: Grid, where: str) -> Coverage:
    first, last = _row_range(y0, y1, grid)
    left, right = _column_range(x0, x1, grid)
    if last <= first or right <= left:
        return NOTHING_COVERED
    grid.spend((last - first) * (right - left), where)
    return Coverage(first, left, last - first, right - left)


def _polygon(vertices: np.ndarray, grid: Grid, where: str) -> Coverage:
    first, last = _row_range(vertices[:, 1].min(), vertices[:, 1].max(), grid)
    left, right = _column_range(vertices[:, 0].min(), vertices[:, 0].max(), grid)
    if last <= first or right <= left:
        return NOTHING_COVERED
    grid.spend((last - first) * (len(vertices) + right - left), where)
    mask = np.zeros((last - first, right - left), dtype=bool)
    centres = (np.arange(first, last) + 0.5) * grid.tile_height
    x0, y0 = vertices[:, 0], vertices[:, 1]
    x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
    below0 = y0[None, :] <= centres[:, None]
    below1 = y1[None, :] <= centres[:, None]
    crosses = below0 != below1
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (centres[:, None] - y0[None, :]) / (y1 - y0)[None, :]
        xs = np.where(crosses, x0[None, :] + t * (x1 - x0)[None, :], np.inf)
    xs.sort(axis=1)
    for row, crossings in enumerate(xs):
        crossings = crossings[np.isfinite(crossings)]
        for start_x, stop_x in zip(crossings[0::2], crossings[1::2]):
            start, stop = _column_range(start_x, stop_x, grid)
            if stop > start:
                mask[row, start - left:stop - left] = True
    return Coverage(first, left, *mask.shape, mask)


def _ellipse(obj: MapObject, offset, grid: Grid) -> Coverage:
    corners = _to_world(obj, offset, np.array([(0, 0), (obj.width, 0), (obj.width, obj.height), (0, obj.height)]))
    first, last = _row_range(corners[:, 1].min(), corners[:, 1].max(), grid)
    left, right = _column_range(corners[:, 0].min(), corners[:, 0].max(), grid)
    if last <= first or right <= left:
        return NOTHING_COVERED
    grid.spend(4 * (last - first) * (right - left), obj.where)  # a dozen float operations a square
    cy, cx = np.mgrid[first:last, left:right].astype(float)
    dx = (cx + 0.5) * grid.tile_width - (obj.x + offset[0])
    dy = (cy + 0.5) * grid.tile_height - (obj.y + offset[1])
    angle = math.radians(obj.rotation)
    lx = dx * math.cos(angle) + dy * math.sin(angle)
    ly = -dx * math.sin(angle) + dy * math.cos(angle)
    rx, ry = obj.width / 2, obj.height / 2
    return Coverage(first, left, last - first, right - left, ((lx - rx) / rx) ** 2 + ((ly - ry) / ry) ** 2 <= 1.0)


def _polyline(points: np.ndarray, grid: Grid, where: str) -> Coverage:
    step = min(grid.tile_width, grid.tile_height) / 4
    xs, ys = [], []
    for (ax, ay), (bx, by) in zip(points[:-1], points[1:]):
        samples = int(math.hypot(bx - ax, by - ay) / step) + 2
        grid.spend(samples, where)
        t = np.linspace(0.0, 1.0, samples)
        xs.append(np.floor((ax + t * (bx - ax)) / grid.tile_width).astype(np.int64))
        ys.append(np.floor((ay + t * (by - ay)) / grid.tile_height).astype(np.int64))
    x, y = np.concatenate(xs), np.concatenate(ys)
    inside = (x >= 0) & (x < grid.width) & (y >= 0) & (y < grid.height)
    x, y = x[inside], y[inside]
    if x.size == 0:
        return NOTHING_COVERED
    top, left = int(y.min()), int(x.min())
    shape = (int(y.max()) - top + 1, int(x.max()) - left + 1)
    grid.spend(shape[0] * shape[1], where)
    mask = np.zeros(shape, dtype=bool)
    mask[y - top, x - left] = True
    return Coverage(top, left, *shape, mask)
