"""Map chunks painted whole squares at a time look exactly as drawing each square in turn.

The fast chunk (the thumbnail scaled up, one stamp per kind of square blitted in a batch, ledges
and markers only where they are) is held pixel for pixel to the plain way: every square drawn by
`MapLayer._draw_square`, every ledge and marker looked for on every square. At every zoom level,
on a map with every kind of square and ground at several heights, and on a Tiled map's art.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
import pygame  # noqa: E402

from game.core.values.battlemap import COVER_INDEX, BattleMap  # noqa: E402
from game.ui import theme  # noqa: E402
from game.ui.camera import ZOOM_LEVELS  # noqa: E402
from game.ui.maplayer import MapLayer, tile_art_for  # noqa: E402

MAPS = Path(__file__).resolve().parents[2] / "maps"


def varied_map() -> BattleMap:
    """30 x 22 squares: walls, doors, trunks, water, low walls, brush, fog, rubble, three heights."""
    rng = np.random.default_rng(7)
    m = BattleMap.empty(30, 22, title="varied")
    for _ in range(60):
        x, y = (int(v) for v in rng.integers(0, (30, 22)))
        m.add_wall(x, y)
    m.door[3, 4:7] = True
    m.blocks_move[10, 2:6] = True          # trunks: block moving, not sight
    m.water[12:16, 8:14] = True
    m.cover[5, 10:25] = COVER_INDEX["1/2"]
    m.concealment[15:20, 15:22] = COVER_INDEX["1/2"]
    m.difficult[17:21, 18:28] = True       # brush where it meets the fog, rubble beyond
    m.elevation_ft[0:8, 20:30] = 10
    m.elevation_ft[2:5, 24:28] = 20
    m.elevation_ft[18:22, 0:6] = -5
    return m


def square_by_square(layer: MapLayer, cell: int, cx: int, cy: int, n: int):
    """The plain way: each square drawn in turn, each side and marker looked for everywhere."""
    m = layer.map
    w, h = min(n, m.width - cx * n), min(n, m.height - cy * n)
    surf = pygame.Surface((w * cell, h * cell))
    surf.fill(theme.FLOOR)
    xs, ys = range(cx * n, cx * n + w), range(cy * n, cy * n + h)
    for y in ys:
        for x in xs:
            if layer.art is None or not layer.art.has_tiles[y, x]:
                layer._draw_square(surf, x, y, (x - cx * n) * cell, (y - cy * n) * cell, cell)
    if layer.art is not None:
        layer.art.draw_chunk(surf, cx * n, cy * n, w, h, cell)
    elev = m.elevation_ft.numpy()
    width = max(2, cell // 10)
    for y in ys:
        for x in xs:
            e, rx, ry, c = elev[y, x], (x - cx * n) * cell, (y - cy * n) * cell, cell
            if x + 1 < m.width and elev[y, x + 1] != e:
                pygame.draw.line(surf, theme.ELEVATION_EDGE, (rx + c - 1, ry), (rx + c - 1, ry + c), width)
            if x > 0 and elev[y, x - 1] != e:
                pygame.draw.line(surf, theme.ELEVATION_EDGE, (rx, ry), (rx, ry + c), width)
            if y + 1 < m.height and elev[y + 1, x] != e:
                pygame.draw.line(surf, theme.ELEVATION_EDGE, (rx, ry + c - 1), (rx + c, ry + c - 1), width)
            if y > 0 and elev[y - 1, x] != e:
                pygame.draw.line(surf, theme.ELEVATION_EDGE, (rx, ry), (rx + c, ry), width)
    if layer.show_markers:
        for y in ys:
            for x in xs:
                layer._draw_markers(surf, x, y, (x - cx * n) * cell, (y - cy * n) * cell, cell)
    if layer.show_grid and cell >= 8:
        colour = theme.GRID if cell >= 16 else theme.GRID_FAINT
        for i in range(w + 1):
            pygame.draw.line(surf, colour, (i * cell, 0), (i * cell, h * cell))
        for j in range(h + 1):
            pygame.draw.line(surf, colour, (0, j * cell), (w * cell, j * cell))
    return surf


def same_pixels(layer: MapLayer, cell: int, n: int) -> None:
    m = layer.map
    for cy in range((m.height + n - 1) // n):
        for cx in range((m.width + n - 1) // n):
            fast = layer._build_chunk(cell, cx, cy, n)
            plain = square_by_square(layer, cell, cx, cy, n)
            assert fast.get_size() == plain.get_size()
            got, want = pygame.surfarray.array3d(fast), pygame.surfarray.array3d(plain)
            differ = np.argwhere((got != want).any(axis=2))
            assert not len(differ), f"{cell} px, chunk {cx},{cy}: {len(differ)} pixels differ, first at {differ[0]}"


@pytest.fixture(scope="module")
def fonts():
    pygame.init()
    pygame.display.set_mode((64, 64))
    return theme.Fonts()


@pytest.mark.parametrize("cell", ZOOM_LEVELS)
def test_every_kind_of_square_at_every_zoom(cell, fonts):
    layer = MapLayer(varied_map())
    layer.fonts = fonts
    layer.show_markers = True
    # Chunks of 12 squares: the map's edges and chunk seams (ledges across them) both show.
    same_pixels(layer, cell, 12)


@pytest.mark.parametrize("cell", (8, 32, 80))
def test_grid_off_and_markers_off(cell, fonts):
    layer = MapLayer(varied_map())
    layer.fonts = fonts
    layer.show_grid = False
    layer.show_markers = False
    same_pixels(layer, cell, layer.chunk_squares(cell))


@pytest.mark.parametrize("cell", (6, 24, 64))
def test_a_tiled_maps_art(cell, fonts):
    from game.io.scenarios import load_scenario
    scenario = load_scenario(MAPS / "mirror_ruins.tmx")
    art = tile_art_for(scenario)
    assert art is not None
    layer = MapLayer(scenario.map, art)
    layer.fonts = fonts
    same_pixels(layer, cell, layer.chunk_squares(cell))
