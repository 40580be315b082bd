"""What a renderer needs to draw a Tiled map from its own tiles, once a display exists.

Loading a map never touches pixels (it must work headless). `tile_art(doc)` lists, for
every non-empty square of every visible tile layer, which image file and which
rectangle of it to draw, with Tiled's flip flags. How to draw them:

- draw layers in increasing `layer_index` (Tiled's document order, bottom first);
- load each distinct `TileImage.source` once (e.g. `pygame.image.load(...).convert_alpha()`),
  cut `rect`, then apply the flips in Tiled's order: diagonal (swap x/y axes, i.e. a
  transpose) first, then horizontal, then vertical;
- scale by (your square size in pixels / `TileArt.tile_width`, `tile_height`): a tile
  image may be larger than a map tile (a tall tree), so anchor it at the bottom-left
  corner of its square, then shift by `offset` (the tileset's drawing offset, scaled);
- multiply alpha by `opacity` (the layer's and its groups' opacity).
Tile objects, image layers and hidden layers are not included.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path
from typing import NamedTuple

import numpy as np

from .tiled_document import TiledDocument, TileLayer
from .tiled_layerdata import FLIP_DIAGONAL, FLIP_HORIZONTAL, FLIP_VERTICAL, GID_MASK


class TileImage(NamedTuple):  # a tuple: a million of them are cheap to make, and hashable
    source: Path                          # image file, checked to exist inside the asset root
    rect: tuple[int, int, int, int]       # x, y, width, height of the tile within `source`
    flip_x: bool = False
    flip_y: bool = False
    flip_diagonal: bool = False
    offset: tuple[int, int] = (0, 0)      # tileset drawing offset, in the tileset's pixels
    opacity: float = 1.0


@dataclass(frozen=True)
class TileArt:
    tile_width: int                       # the map's grid, pixels per square in Tiled
    tile_height: int
    layer_names: tuple[str, ...]          # every tile layer, by layer_index
    images: dict[tuple[int, int, int], TileImage] = field(default_factory=dict)  # (x, y, layer_index)


def tile_art(doc: TiledDocument) -> TileArt:
    tile_layers = [layer for layer in doc.layers if isinstance(layer, TileLayer)]
    images: dict[tuple[int, int, int], TileImage] = {}
    for index, layer in enumerate(tile_layers):
        if not layer.visible:
            continue
        ys, xs = np.nonzero(layer.gids & GID_MASK)
        used, inverse = np.unique(layer.gids[ys, xs], return_inverse=True)
        owners, local_ids, _ = doc.tilesets.owners((used & GID_MASK).astype(np.int64))
        table = [
            _tile_image(doc.tilesets.tilesets[owner], local, raw, layer.opacity)
            for owner, local, raw in zip(owners.tolist(), local_ids.tolist(), used.tolist())
        ]
        keys = zip(xs.tolist(), ys.tolist(), repeat(index))
        images.update(zip(keys, map(table.__getitem__, inverse.tolist())))
    return TileArt(doc.tile_width, doc.tile_height, tuple(layer.name for layer in tile_layers), images)


def _tile_image(tileset, local: int, raw: int, opacity: float) -> TileImage:
    source, rect = tileset.tile_image(local)
    return TileImage(
        source.real, rect, bool(raw & FLIP_HORIZONTAL), bool(raw & FLIP_VERTICAL), bool(raw & FLIP_DIAGONAL),
        tileset.offset, opacity,
    )
