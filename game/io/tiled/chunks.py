"""Infinite maps: their tile layers come in chunks, played on the box the non-empty chunks span.

Tiled stores an infinite map's tiles as chunks (16 x 16 squares by default) at any tile
coordinates, negative too. fivefoot plays the bounding box of every chunk that holds a tile
(empty chunks are nothing), so Tiled's tile (box.x, box.y) becomes square (0, 0) and objects
move by the same amount (tiled/document shifts every layer's offset).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...core.values.battlemap import MAX_MAP_SIDE
from ...core.values.errors import DataFileError
from ...core.values.layer import UInt32Layer
from .layerdata import decode_tiles
from .properties import int_attr, short

MAX_CHUNK_COORD = 1 << 30   # far beyond any real map; keeps the arithmetic small


@dataclass
class Chunks:
    """Every tile layer's non-empty chunks, and the box they span (in Tiled's tile coordinates)."""

    x: int = 0
    y: int = 0
    width: int = 0
    height: int = 0
    pieces: dict[int, list[tuple[int, int, UInt32Layer]]] = field(default_factory=dict)

    def layer(self, element) -> UInt32Layer:
        """The layer `element`'s tiles over the box."""
        gids = UInt32Layer(self.width, self.height)
        cells, width = gids.cells, self.width
        for x, y, chunk in self.pieces.get(id(element), ()):
            for row in range(chunk.height):
                start = (y - self.y + row) * width + (x - self.x)
                cells[start:start + chunk.width] = chunk.cells[row * chunk.width:(row + 1) * chunk.width]
        return gids


def read_chunks(map_el, shown: str, max_tiles: int) -> Chunks:
    """Decode every chunk of every tile layer (groups included), at most `max_tiles` tiles in all."""
    found = Chunks()
    left = top = right = bottom = None
    decoded = 0
    for layer_el in map_el.iter("layer"):
        where = f"tile layer '{short(layer_el.get('name') or '(unnamed)')}'"
        data_el = layer_el.find("data")
        if data_el is None:
            raise DataFileError(shown, where, "has no <data> element")
        pieces = found.pieces.setdefault(id(layer_el), [])
        for number, chunk in enumerate(data_el.findall("chunk"), 1):
            here = f"{where}, chunk #{number}"
            x = int_attr(chunk, "x", shown, here, -MAX_CHUNK_COORD, MAX_CHUNK_COORD)
            y = int_attr(chunk, "y", shown, here, -MAX_CHUNK_COORD, MAX_CHUNK_COORD)
            width = int_attr(chunk, "width", shown, here, 1, MAX_MAP_SIDE)
            height = int_attr(chunk, "height", shown, here, 1, MAX_MAP_SIDE)
            decoded += width * height
            if decoded > max_tiles:
                raise DataFileError(shown, here, f"the chunks of the tile layers hold more than {max_tiles:,} tiles "
                                                 "in all; remove far-off tiles or split the map")
            gids = decode_tiles(data_el, chunk, width, height, shown, here)
            if not gids.tobytes().strip(b"\0"):
                continue  # an empty chunk is nothing
            pieces.append((x, y, gids))
            left = x if left is None else min(left, x)
            top = y if top is None else min(top, y)
            right = x + width if right is None else max(right, x + width)
            bottom = y + height if bottom is None else max(bottom, y + height)
    if left is None:  # no tile anywhere: the size Tiled wrote
        found.width = int_attr(map_el, "width", shown, "map", 1, MAX_MAP_SIDE)
        found.height = int_attr(map_el, "height", shown, "map", 1, MAX_MAP_SIDE)
        return found
    found.x, found.y, found.width, found.height = left, top, right - left, bottom - top
    if found.width > MAX_MAP_SIDE or found.height > MAX_MAP_SIDE:
        raise DataFileError(
            shown, "map",
            f"is an infinite map whose tiles spread over {found.width} x {found.height} squares (from tile "
            f"({left}, {top}) to ({right - 1}, {bottom - 1})); fivefoot plays at most {MAX_MAP_SIDE} x "
            f"{MAX_MAP_SIDE}. Erase the far-off tiles in Tiled, or uncheck Map > Map Properties > Infinite and "
            "crop the map",
        )
    return found
