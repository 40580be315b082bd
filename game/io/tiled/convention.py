"""The fivefoot map convention: what Tiled properties mean to the rules (see maps/README.md).

Turns a checked `TiledDocument` into a `BattleMap`:
- square properties come from tilesets, tiles, tile layers, groups and `terrain` objects;
- within one source the most specific value of `elevation`/`height` wins (a tile layer's
  own value over its groups' over its tiles' over its tileset's; an object's own value
  over its template's over its tile's over its layer's);
- across sources booleans OR, degrees take the highest, `height` the highest, and
  `elevation` comes from the topmost layer (or object) that sets it;
- `spawn` objects become `Spawn`s; unknown properties become warnings.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, fields

from ...core.values.battlemap import OPEN_GROUND_NOTE, UNBOUNDED_HEIGHT_FT, BattleMap, Spawn
from ...core.values.errors import DataFileError
from ...core.values.geometry import FACINGS
from ...core.values.bodies import cells, footprint_problem
from ..paths import bundled_ruleset_ids
from .document import ImageLayer, ObjectLayer, TiledDocument, TileLayer
from .inference import Inferrer, reads_property, states_squares
from .shapes import Grid, anchor, covered
from .layerdata import GID_MASK
from .objectives import OBJECTIVE, read_objective, round_limit
from .planes import Planes
from .properties import Prop, as_bool, as_degree, as_int, as_text, short

BOOL_KEYS = ("wall", "blocks_move", "blocks_sight", "difficult", "water", "door")
DEGREE_KEYS = ("cover", "concealment")
SQUARE_KEYS = (*BOOL_KEYS, *DEGREE_KEYS, "elevation", "height")
SPAWN_KEYS = ("side", "template", "name", "facing", "altitude", "mount")
MAP_KEYS = ("ruleset", "title", "description", "round_limit")
ELEVATION_RANGE = (-10_000, 10_000)
ALTITUDE_RANGE = (0, 10_000)
TERRAIN, SPAWN = "terrain", "spawn"


@dataclass(frozen=True)
class SquareProps:
    """What one source says about a square. None means 'not stated'."""

    wall: bool = False
    blocks_move: bool = False
    blocks_sight: bool = False
    difficult: bool = False
    water: bool = False
    door: bool = False
    cover: int = 0
    concealment: int = 0
    elevation: int | None = None
    height: int | None = None

    def over(self, base: "SquareProps") -> "SquareProps":
        """Combine with a less specific source: flags OR, degrees max, numbers ours if stated."""
        return SquareProps(
            **{key: getattr(self, key) or getattr(base, key) for key in BOOL_KEYS},
            cover=max(self.cover, base.cover),
            concealment=max(self.concealment, base.concealment),
            elevation=self.elevation if self.elevation is not None else base.elevation,
            height=self.height if self.height is not None else base.height,
        )

    @property
    def obstacle_height(self) -> int:
        if self.height is not None:
            return self.height
        return UNBOUNDED_HEIGHT_FT if self.wall else 0


NOTHING = SquareProps()


def battlemap_from_document(doc: TiledDocument, infer: bool = True) -> BattleMap:
    """The map as the rules see it; `infer=False` reads fivefoot's convention alone (no inference
    from the map's own conventions, tiled/inference)."""
    return _Builder(doc, infer).build()


class _Builder:
    def __init__(self, doc: TiledDocument, infer: bool = True):
        self.doc = doc
        self.infer = infer
        self.shown = doc.shown
        self.warn = doc.assets.warn
        self.planes = Planes(doc.width, doc.height, BOOL_KEYS, DEGREE_KEYS)
        self.grid = Grid(doc.width, doc.height, doc.tile_width, doc.tile_height, doc.shown)
        self._tile_cache: dict[tuple[int, int], SquareProps] = {}
        self._tileset_cache: dict[int, SquareProps] = {}
        self._group_cache: dict[int, SquareProps] = {}
        self.spawn_objects: list[tuple] = []
        self.objective_entries: list[dict] = []
        self.inferrer: Inferrer | None = None   # set when the map states no fivefoot square property

    # -- building ------------------------------------------------------------------

    def build(self) -> BattleMap:
        meta = self._map_properties()
        inferences = []
        if self.infer and not states_squares(self.doc, SQUARE_KEYS, TERRAIN):  # a map made for another game
            self.inferrer = Inferrer(self.doc, self.grid)
            inferences = self.inferrer.run()
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
        if self.inferrer is not None:
            self.inferrer.apply(self.planes)
        self.planes.fill(battle, "wall")
        battle.spawns = self._spawns(battle)
        battle.objectives = tuple(self.objective_entries)
        battle.round_limit = round_limit(self.doc.properties, self.shown)
        battle.warnings = self.doc.assets.final_warnings()
        battle.inferred = tuple(inferences)
        battle.notes = tuple(self.doc.notes)
        if self.infer and self.inferrer is not None and not inferences:
            battle.notes += (OPEN_GROUND_NOTE,)
        battle.asset_root = str(self.doc.assets.root.folder)
        battle.files = (str(self.doc.file.real), *self.doc.assets.files())
        return battle

    def _map_properties(self) -> dict:
        props = self.doc.properties
        self._warn_unknown(props, MAP_KEYS, "map properties")
        meta = {}
        if "ruleset" in props:
            ruleset = as_text(props["ruleset"], self.shown, "map properties").strip()
            known = bundled_ruleset_ids()
            if ruleset not in known:
                raise DataFileError(
                    self.shown, "map properties",
                    f"ruleset '{short(ruleset)}' is unknown; use one of {', '.join(known)} (or leave it out)",
                )
            meta["default_ruleset"] = ruleset
        for key in ("title", "description"):
            if key in props:
                meta[key] = as_text(props[key], self.shown, "map properties").strip()
        return meta

    # -- tiles and tile layers -------------------------------------------------------

    def _check_tileset(self, tileset) -> None:
        self._tileset_props(tileset)
        unknown: dict[str, list[int]] = {}
        for tile in tileset.tiles.values():
            where = f"{tileset.where}, tile {tile.local_id}"
            self._square(tile.properties, tileset.shown, where, SPAWN_KEYS, quiet=True)
            for name in tile.properties:
                if name not in SQUARE_KEYS and name not in SPAWN_KEYS and not self._inferred_from(name):
                    unknown.setdefault(name, []).append(tile.local_id)
        for name, ids in unknown.items():
            listed = ", ".join(map(str, ids[:5])) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
            which = f"tiles {listed} have" if len(ids) > 1 else f"tile {listed} has"
            self.warn(f"{tileset.where}: {which} unknown property "
                      f"'{short(name)}', ignored{_hint(name, SQUARE_KEYS + SPAWN_KEYS)}", tileset.shown)

    def _tileset_props(self, tileset) -> SquareProps:
        if id(tileset) not in self._tileset_cache:
            self._tileset_cache[id(tileset)] = self._square(
                tileset.properties, tileset.shown, f"{tileset.where} properties", SPAWN_KEYS
            )
        return self._tileset_cache[id(tileset)]

    def _tile_props(self, tileset, local_id: int) -> SquareProps:
        key = (id(tileset), local_id)
        if key not in self._tile_cache:
            if id(tileset) not in self._tileset_cache:  # a template's own tileset, not in the map
                self._check_tileset(tileset)
            tile = tileset.tiles.get(local_id)
            own = NOTHING
            if tile is not None:
                own = self._square(tile.properties, tileset.shown, f"{tileset.where}, tile {local_id}",
                                   SPAWN_KEYS, quiet=True)
            self._tile_cache[key] = own.over(self._tileset_props(tileset))
        return self._tile_cache[key]

    def _chain(self, layer, extra_known) -> SquareProps:
        """A layer's own square properties over those of its groups (inner over outer)."""
        combined = NOTHING
        for group in layer.groups:
            if id(group) not in self._group_cache:
                self._group_cache[id(group)] = self._square(group.properties, self.shown, group.where, SPAWN_KEYS)
            combined = self._group_cache[id(group)].over(combined)
        return self._square(layer.properties, self.shown, layer.where, extra_known).over(combined)

    def _tile_layer(self, layer: TileLayer) -> None:
        if layer.offset != (0.0, 0.0):
            self.warn(f"{layer.where}: its pixel offset is ignored; squares follow the tile grid")
        chain = self._chain(layer, ())
        gids = layer.gids.cells
        kinds = set(gids)                                   # raw GIDs, flip flags included
        used = sorted({gid & GID_MASK for gid in kinds})
        codes, distinct = self._codes(used, chain)
        if len(distinct) == 1:
            return  # every square NOTHING: the layer says nothing about squares
        code_of_used = dict(zip(used, codes))
        squares = self.planes.square_codes(gids, {gid: code_of_used[gid & GID_MASK] for gid in kinds},
                                           len(distinct))  # per square: index into `distinct`
        for key in BOOL_KEYS:
            column = [getattr(p, key) for p in distinct]
            if any(column):
                self.planes.add_flags(key, squares, column)
        for key in DEGREE_KEYS:
            column = [getattr(p, key) for p in distinct]
            if any(column):
                self.planes.raise_degrees(key, squares, column)
        heights = [p.obstacle_height for p in distinct]
        if any(heights):
            self.planes.raise_heights(squares, heights)
        stated = [p.elevation is not None for p in distinct]
        if any(stated):
            self.planes.set_elevation(squares, stated, [p.elevation or 0 for p in distinct])

    def _codes(self, used: list[int], chain: SquareProps) -> tuple[list[int], list[SquareProps]]:
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

        codes = [0] * len(used)
        owners, local_ids, _ = self.doc.tilesets.owners(used)
        for number, tileset in enumerate(self.doc.tilesets.tilesets):
            mine = [i for i, gid in enumerate(used) if gid != 0 and owners[i] == number]
            if not mine:
                continue
            shared = code(chain.over(self._tileset_props(tileset)))
            for i in mine:
                codes[i] = shared
            for i in mine:
                if local_ids[i] in tileset.tiles:
                    codes[i] = code(chain.over(self._tile_props(tileset, local_ids[i])))
        return codes, distinct

    # -- objects ---------------------------------------------------------------------

    def _object_layer(self, layer: ObjectLayer) -> None:
        chain = self._chain(layer, SPAWN_KEYS)
        spawn_defaults = {k: p for k, p in _chain_props(layer).items() if k in SPAWN_KEYS}
        ignored: dict[str, int] = {}
        drawn: dict[str, int] = {}  # tile objects of no fivefoot class: pictures only
        terrain_count = 0
        for obj in layer.objects:
            tile = _tile_def(obj)
            cls = obj.cls or (tile.cls if tile else "")  # a tile object takes its tile's class
            kind = cls.lower()
            if kind == TERRAIN:
                terrain_count += 1
                self._terrain(obj, layer, chain)
            elif kind == SPAWN:
                self.spawn_objects.append((obj, layer, spawn_defaults))
            elif kind == OBJECTIVE:
                self.objective_entries.append(read_objective(obj, layer, self.grid, self.shown))
            else:
                self._ignored(obj, cls, drawn if obj.tile else ignored)
        for counts, what in ((ignored, "ignored objects"), (drawn, "tile objects drawn as pictures only")):
            if counts and not (self.inferrer and id(layer) in self.inferrer.used_layers):
                kinds = [f"{count} of class '{short(cls)}'" if cls else f"{count} with no class"
                         for cls, count in list(counts.items())[:8]]
                listed = ", ".join(kinds) + (", ..." if len(counts) > 8 else "")
                self.warn(f"{layer.where}: {what} ({listed}); only classes "
                          f"'{TERRAIN}' and '{SPAWN}' mean something to fivefoot")
        if chain != NOTHING and terrain_count == 0:
            self.warn(f"{layer.where}: its square properties apply to '{TERRAIN}' objects, "
                      "and it has none")

    def _image_layer(self, layer: ImageLayer) -> None:
        chain = self._chain(layer, ())
        if chain != NOTHING:
            self.warn(f"{layer.where}: image layers are only drawn; their square properties are ignored "
                      f"(put them on a tile layer or on '{TERRAIN}' objects)")

    def _ignored(self, obj, cls: str, ignored: dict[str, int]) -> None:
        ignored[cls] = ignored.get(cls, 0) + 1
        ours = sorted(k for k in obj.properties if k in SQUARE_KEYS or k in SPAWN_KEYS)
        if ours:
            self.warn(f"{obj.where}: has fivefoot properties ({', '.join(ours)}) but its class is "
                      f"'{short(cls)}'; set its Class to '{TERRAIN}' or '{SPAWN}' in Tiled")

    def _terrain(self, obj, layer: ObjectLayer, chain: SquareProps) -> None:
        props = self._square(obj.properties, self.shown, obj.where, ()) if obj.properties else NOTHING
        if obj.tile:
            props = props.over(self._tile_props(*obj.tile))
        props = props.over(chain) if props is not NOTHING else chain
        coverage = covered(obj, layer.offset, self.grid)
        if not coverage.any():
            self.warn(f"{obj.where}: terrain object covers no square centre of the map")
            return
        if not any(getattr(props, key) for key in BOOL_KEYS + DEGREE_KEYS) and not props.obstacle_height \
                and props.elevation is None:
            self.warn(f"{obj.where}: terrain object sets no square property")
            return
        runs, planes = coverage.runs, self.planes
        for key in BOOL_KEYS:
            if getattr(props, key):
                planes.fill_flag(key, runs)
        for key in DEGREE_KEYS:
            if getattr(props, key):
                planes.raise_degree(key, runs, getattr(props, key))
        if props.obstacle_height:
            planes.raise_height(runs, props.obstacle_height)
        if props.elevation is not None:
            planes.set_elevation_runs(runs, props.elevation)

    # -- spawns ----------------------------------------------------------------------

    def _spawns(self, battle: BattleMap) -> tuple[Spawn, ...]:
        spawns: list[Spawn] = []
        taken: dict[tuple[int, int, int], str] = {}
        for obj, layer, defaults in self.spawn_objects:
            spawn = self._spawn(obj, layer, defaults)
            label = short(spawn.name or f"object {obj.id}")
            if spawn.mount:     # a rider covers no square: it sits on its mount (checked when figures are made)
                spawns.append(spawn)
                continue
            body = cells(spawn.x, spawn.y, FACINGS.index(spawn.facing), spawn.footprint)
            for x, y in body:   # a big body needs every one of its squares
                if battle.blocks_move[y, x] and spawn.altitude_ft <= battle.obstacle_height_ft[y, x]:
                    raise DataFileError(
                        self.shown, obj.where,
                        f"spawn '{label}' stands on square ({x}, {y}), which blocks movement; move it",
                    )
            for x, y in body:
                key = (x, y, spawn.altitude_ft)
                if key in taken:
                    raise DataFileError(
                        self.shown, obj.where,
                        f"spawn '{label}' shares square ({x}, {y}) with spawn '{taken[key]}'; move one of them",
                    )
            for x, y in body:
                taken[(x, y, spawn.altitude_ft)] = label
            spawns.append(spawn)
        return tuple(spawns)

    def _spawn(self, obj, layer: ObjectLayer, defaults: dict[str, Prop]) -> Spawn:
        where = obj.where
        props = dict(defaults)
        tile = _tile_def(obj)
        if tile is not None:
            props.update(tile.properties)
        props.update(obj.properties)
        square = self.grid.square_of(*anchor(obj, layer.offset))
        if square is None:
            raise DataFileError(self.shown, where, "spawn lies outside the map; move it onto a square")
        if "side" not in props or not as_text(props["side"], self.shown, where).strip():
            raise DataFileError(self.shown, where, "spawn has no 'side' property; add one (for example side = red)")
        facing = as_text(props["facing"], self.shown, where).strip().upper() if "facing" in props else "N"
        if facing not in FACINGS:
            raise DataFileError(
                self.shown, where, f"spawn facing '{short(facing)}' is unknown; use one of {', '.join(FACINGS)}"
            )
        square, footprint = self._spawn_body(obj, layer, square, facing)
        extra = {}
        for name, prop in obj.properties.items():
            if name in SQUARE_KEYS:
                self.warn(f"{where}: square property '{short(name)}' on a spawn is ignored; "
                          f"put it on a '{TERRAIN}' object or a tile")
            elif name not in SPAWN_KEYS:
                extra[name] = _plain(prop)
                self.warn(f"{where}: spawn property '{short(name)}' is not part of the convention; "
                          f"kept in Spawn.properties{_hint(name, SPAWN_KEYS)}")
        return Spawn(
            x=square[0],
            y=square[1],
            side=as_text(props["side"], self.shown, where).strip(),
            template=as_text(props["template"], self.shown, where).strip() if "template" in props else "",
            name=(as_text(props["name"], self.shown, where) if "name" in props else obj.name).strip(),
            facing=facing,
            altitude_ft=as_int(props["altitude"], self.shown, where, *ALTITUDE_RANGE, " ft") if "altitude" in props else 0,
            properties=extra,
            footprint=footprint,
            mount=as_text(props["mount"], self.shown, where).strip() if "mount" in props else "",
        )

    def _spawn_body(self, obj, layer: ObjectLayer, square, facing: str) -> tuple[tuple[int, int], tuple[int, int]]:
        """(anchor square, footprint): an upright rectangle spawn covering more than one tile gives
        the figure a body of its width and height in tiles (maps/README.md, Spawns); the anchor is
        its top-left square (a square body) or its front square (a body one square wide)."""
        if obj.shape != "rectangle" or obj.rotation != 0 or not obj.width or not obj.height:
            return square, (1, 1)
        cols = max(1, round(obj.width / self.grid.tile_width))
        rows = max(1, round(obj.height / self.grid.tile_height))
        if (cols, rows) == (1, 1):
            return square, (1, 1)
        where = obj.where
        left = self.grid.square_of(obj.x + layer.offset[0] + self.grid.tile_width / 2,
                                   obj.y + layer.offset[1] + self.grid.tile_height / 2)
        if left is None or self.grid.square_of(obj.x + layer.offset[0] + obj.width - self.grid.tile_width / 2,
                                               obj.y + layer.offset[1] + obj.height - self.grid.tile_height / 2) is None:
            raise DataFileError(self.shown, where, f"spawn rectangle ({cols} x {rows} tiles) reaches off the map; move it")
        x0, y0 = left
        if cols == rows:
            footprint = (cols, rows)
            anchor_square = (x0, y0)
        elif min(cols, rows) == 1:
            along = max(cols, rows)
            heads = {"E": (x0 + cols - 1, y0), "W": (x0, y0)} if rows == 1 else {"S": (x0, y0 + rows - 1), "N": (x0, y0)}
            if facing not in heads:
                lies = "east-west" if rows == 1 else "north-south"
                raise DataFileError(self.shown, where, f"spawn rectangle {cols} x {rows} tiles lies {lies}: a body one "
                                    f"square wide faces along its length, so give it facing {' or '.join(heads)}")
            footprint = (1, along)
            anchor_square = heads[facing]
        else:
            footprint = (cols, rows)
            anchor_square = (x0, y0)
        problem = footprint_problem(list(footprint))
        if problem:
            raise DataFileError(self.shown, where, f"spawn rectangle {cols} x {rows} tiles: {problem}")
        return anchor_square, footprint

    # -- property parsing ----------------------------------------------------------

    def _square(self, props: dict[str, Prop], shown: str, where: str, extra_known, quiet=False) -> SquareProps:
        if not quiet:
            self._warn_unknown(props, SQUARE_KEYS + tuple(extra_known), where, shown)
        values = {}
        for key in BOOL_KEYS:
            if key in props:
                values[key] = as_bool(props[key], shown, where)
        for key in DEGREE_KEYS:
            if key in props:
                values[key] = as_degree(props[key], shown, where)
        if "elevation" in props:
            values["elevation"] = as_int(props["elevation"], shown, where, *ELEVATION_RANGE, " ft")
        if "height" in props:
            values["height"] = as_int(props["height"], shown, where, 0, UNBOUNDED_HEIGHT_FT, " ft")
        return SquareProps(**values) if values else NOTHING

    def _inferred_from(self, name: str) -> bool:
        """Whether the map's own conventions are being read and this property is one of them."""
        return self.inferrer is not None and reads_property(name)

    def _warn_unknown(self, props, known, where: str, shown: str | None = None) -> None:
        for name in props:
            if name not in known and not self._inferred_from(name):
                self.warn(f"{where}: unknown property '{short(name)}', ignored{_hint(name, known)}", shown)


def _tile_def(obj):
    return obj.tile[0].tiles.get(obj.tile[1]) if obj.tile else None


def _chain_props(layer) -> dict[str, Prop]:
    merged: dict[str, Prop] = {}
    for group in layer.groups:
        merged.update(group.properties)
    merged.update(layer.properties)
    return merged


def _hint(name: str, known) -> str:
    # A match needs a similarity ratio of 0.75, which no name over twice the longest key's length
    # reaches; comparing a megabyte-long name would take seconds and gigabytes.
    if len(name) > 2 * max(map(len, known), default=0):
        return ""
    close = difflib.get_close_matches(name.lower(), known, n=1, cutoff=0.75)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _plain(prop: Prop):
    if prop.type == "bool":
        return prop.value.strip().lower() in ("true", "1", "yes")
    for kind, cast in (("int", int), ("float", float)):
        if prop.type == kind:
            try:
                return cast(prop.value)
            except ValueError:
                return prop.value
    if prop.type == "class":
        return {name: _plain(member) for name, member in prop.members}
    return prop.value


assert {f.name for f in fields(SquareProps)} == set(SQUARE_KEYS)
