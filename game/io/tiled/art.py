"""What a renderer needs to draw a Tiled map from its own pictures, once a display exists.

Loading a map never touches pixels (it must work headless). `tile_art(doc)` lists what to
draw, in Tiled's document order (bottom first), as `TileArt.layers`:

- a tile layer: `TileArt.images[(x, y, layer_index)]` gives, for each non-empty square, the
  image file and rectangle that draw it, with Tiled's flip flags;
- an object layer: its visible tile objects as `Sprite`s (trees, rocks, whole scenes), in
  Tiled's drawing order (by y, or as listed when the layer's draworder is "index");
- an image layer: its picture as one `Sprite`, repeated across the map if Tiled says so.

How to draw them:
- load each distinct `TileImage.source` once (e.g. `pygame.image.load(...).convert_alpha()`),
  cut `rect`, then apply the flips in Tiled's order: diagonal (swap x/y axes, i.e. a
  transpose) first, then horizontal, then vertical;
- tile layers: scale by (your square size in pixels / `TileArt.tile_width`, `tile_height`):
  a tile image may be larger than a map tile (a tall tree), so anchor it at the bottom-left
  corner of its square, then shift by `offset` (the tileset's drawing offset, scaled);
- sprites: scale the picture to `width` x `height` map pixels, put its top-left corner at
  `(x, y)` and turn it by `rotation` degrees clockwise about `(pivot_x, pivot_y)`; all are map
  pixels, which the same factors turn into screen pixels;
- multiply alpha by `opacity` (the layer's and its groups' opacity).
Hidden layers and hidden objects are not included.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path
from typing import NamedTuple

import numpy as np

from .document import ImageLayer, ObjectLayer, TiledDocument, TileLayer
from .layerdata import FLIP_DIAGONAL, FLIP_HORIZONTAL, FLIP_VERTICAL, GID_MASK


class TileImage(NamedTuple):  # a tuple: a million of them are cheap to make, and hashable
    source: Path                          # image file, checked to exist inside the asset root
    rect: tuple[int, int, int, int]       # x, y, width, height of the tile within `source`
    flip_x: bool = False
    flip_y: bool = False
    flip_diagonal: bool = False
    offset: tuple[int, int] = (0, 0)      # tileset drawing offset, in the tileset's pixels
    opacity: float = 1.0


class Sprite(NamedTuple):
    """A picture placed in map pixels: a tile object, or an image layer's image."""

    image: TileImage                      # what to draw (its offset is already in x, y)
    x: float                              # top-left corner before rotation, map pixels
    y: float
    width: float                          # drawn size, map pixels
    height: float
    rotation: float = 0.0                 # degrees clockwise about the pivot
    pivot_x: float = 0.0
    pivot_y: float = 0.0
    repeat_x: bool = False                # an image layer repeated across the map
    repeat_y: bool = False


@dataclass(frozen=True)
class ArtLayer:
    """One step of drawing, in document order: a tile layer (by index) or sprites."""

    name: str
    tile_layer: int | None = None         # index into TileArt.layer_names
    sprites: tuple[Sprite, ...] = ()


@dataclass(frozen=True)
class TileArt:
    """What the window draws of a map's tile layers: each layer's tiles and their images."""

    tile_width: int                       # the map's grid, pixels per square in Tiled
    tile_height: int
    layer_names: tuple[str, ...]          # every tile layer, by layer_index
    images: dict[tuple[int, int, int], TileImage] = field(default_factory=dict)  # (x, y, layer_index)
    layers: tuple[ArtLayer, ...] = ()     # what to draw, bottom first
    transparent: dict = field(default_factory=dict)  # image file -> the colour Tiled draws see-through


def tile_art(doc: TiledDocument) -> TileArt:
    tile_layers = [layer for layer in doc.layers if isinstance(layer, TileLayer)]
    images: dict[tuple[int, int, int], TileImage] = {}
    order: list[ArtLayer] = []
    index = -1
    for layer in doc.layers:
        if isinstance(layer, TileLayer):
            index += 1
            if layer.visible:
                _tile_layer_images(doc, layer, index, images)
                order.append(ArtLayer(layer.name, tile_layer=index))
        elif not layer.visible:
            continue
        elif isinstance(layer, ObjectLayer):
            sprites = _object_sprites(layer)
            if sprites:
                order.append(ArtLayer(layer.name, sprites=sprites))
        elif isinstance(layer, ImageLayer) and layer.image is not None:
            order.append(ArtLayer(layer.name, sprites=(_image_layer_sprite(layer),)))
    return TileArt(doc.tile_width, doc.tile_height, tuple(layer.name for layer in tile_layers), images, tuple(order),
                   dict(doc.assets.transparent) if doc.assets is not None else {})


def _tile_layer_images(doc: TiledDocument, layer: TileLayer, index: int, images: dict) -> None:
    gids = layer.gids.numpy()
    ys, xs = np.nonzero(gids & GID_MASK)
    used, inverse = np.unique(gids[ys, xs], return_inverse=True)
    owners, local_ids, _ = doc.tilesets.owners((used & GID_MASK).tolist())
    table = [
        _tile_image(doc.tilesets.tilesets[owner], local, raw, layer.opacity)
        for owner, local, raw in zip(owners, local_ids, used.tolist())
    ]
    keys = zip(xs.tolist(), ys.tolist(), repeat(index))
    images.update(zip(keys, map(table.__getitem__, inverse.tolist())))


def _tile_image(tileset, local: int, raw: int, opacity: float) -> TileImage:
    source, rect = tileset.tile_image(local)
    return TileImage(
        source.real, rect, bool(raw & FLIP_HORIZONTAL), bool(raw & FLIP_VERTICAL), bool(raw & FLIP_DIAGONAL),
        tileset.offset, opacity,
    )


def _object_sprites(layer: ObjectLayer) -> tuple[Sprite, ...]:
    objects = [obj for obj in layer.objects if obj.tile is not None and obj.visible]
    if layer.draw_order == "topdown":
        objects.sort(key=lambda obj: obj.y)  # stable: equal y keeps the listed order, as in Tiled
    sprites = []
    for obj in objects:
        tileset, local = obj.tile
        source, rect = tileset.tile_image(local)
        width = obj.width or rect[2]  # Tiled always writes the size; an old file may not
        height = obj.height or rect[3]
        left, top = -tileset.alignment[0] * width, -tileset.alignment[1] * height  # as tiled/shapes.tile_corner
        pivot_x, pivot_y = obj.x + layer.offset[0], obj.y + layer.offset[1]
        flip_x, flip_y, diagonal = obj.flips
        image = TileImage(source.real, rect, flip_x, flip_y, diagonal, (0, 0), layer.opacity)
        sprites.append(Sprite(
            image, pivot_x + left + tileset.offset[0], pivot_y + top + tileset.offset[1], width, height,
            obj.rotation, pivot_x + tileset.offset[0], pivot_y + tileset.offset[1],
        ))
    return tuple(sprites)


def _image_layer_sprite(layer: ImageLayer) -> Sprite:
    width, height = layer.size
    x, y = layer.offset
    image = TileImage(layer.image.real, (0, 0, width, height), opacity=layer.opacity)
    return Sprite(image, x, y, width, height, 0.0, x, y, *layer.repeat)
