"""Tiled maps as fivefoot battle maps: one tile is one 5-ft square, whatever its pixels.

Public API
----------
load_map(path, asset_root=None) -> BattleMap
    Any map file fivefoot reads, chosen by extension (.tmx, .tmj, .json).
load_tiled_map(path, asset_root=None) -> BattleMap
    A Tiled map (TMX, or Tiled JSON) read with the convention in maps/README.md.
tile_image_sources(path, asset_root=None) -> TileArt
    For the renderer, after the display exists: what to draw, in Tiled's document order
    (tile layers square by square, tile objects and image layers as placed pictures); see
    game/io/tiled/art.py for how to draw them.
default_asset_root(path) -> Path

Every problem with a file raises `DataFileError(path, where, problem)` naming the file,
the place in it, what is wrong and what to change in Tiled. Loading is headless (no
image is decoded), all-or-nothing, and bounded in time and memory whatever the file
(see the limits in tiled/files, tiled/document, tiled/assets and tiled/shapes).

Asset root: tilesets, templates and images may only be read from inside it; references
must be relative. It defaults to the map's folder (for the maps shipped in fivefoot's
maps/ folder, the fivefoot folder, since their tileset lives in assets/); a game that
keeps tilesets beside its maps folder names its own folder so `../tilesets/x.tsx` works.

Why not pytmx's own loading: pytmx 3.32 (1) reorders layers (groups, then tile, image
and object layers; its issue #106), (2) refuses a layer or object property named
`height` as "reserved", (3) overwrites a tile's `height` property with its pixel
height, (4) ignores object templates, (5) opens tilesets and images with no path,
size or entity checks and inflates layer data without limit. So files are parsed
here with defusedxml into a checked model (tiled/document), and the test suite checks
the decoded tiles against pytmx on the real example maps.

Modules: tiled/files (safe reading), tiled/layerdata (layer encodings), tiled/images
(image headers), tiled/properties (typed values), tiled/tilesets, tiled/objects
(objects and templates), tiled/assets (per-load caches and caps), tiled/json_map (Tiled
JSON to the TMX tree), tiled/document (the checked model), tiled/shapes (objects to
squares), tiled/convention (model to BattleMap), tiled/art (what the renderer draws).
"""
from __future__ import annotations

import os
from pathlib import Path

from typing import TYPE_CHECKING

from ...core.values.errors import DataFileError
from .convention import battlemap_from_document
from .document import default_asset_root, read_document

if TYPE_CHECKING:  # what the renderer draws: loaded only when a window asks for the art
    from ...core.values.battlemap import BattleMap
    from .art import TileArt

__all__ = [
    "MAP_EXTENSIONS",
    "default_asset_root",
    "load_map",
    "load_tiled_map",
    "tile_image_sources",
]

MAP_EXTENSIONS = (".tmx", ".tmj", ".json")


def load_tiled_map(path: str | os.PathLike, asset_root: str | os.PathLike | None = None) -> BattleMap:
    return battlemap_from_document(read_document(path, asset_root))


def load_map(path: str | os.PathLike, asset_root: str | os.PathLike | None = None) -> BattleMap:
    suffix = Path(path).suffix.lower()
    if suffix in MAP_EXTENSIONS:
        return load_tiled_map(path, asset_root)
    if suffix in (".tsx", ".tsj", ".tx", ".tj"):
        raise DataFileError(path, "", "is a Tiled tileset or template, not a map; give the .tmx map that uses it")
    raise DataFileError(
        path, "",
        f"fivefoot cannot read '{suffix or 'extensionless'}' map files; draw the map in Tiled and save it as .tmx "
        "(File > Save As, 'Tiled map files (*.tmx)')",
    )


def tile_image_sources(path: str | os.PathLike, asset_root: str | os.PathLike | None = None) -> TileArt:
    from .art import tile_art
    return tile_art(read_document(path, asset_root))
