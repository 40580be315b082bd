"""The static map layer: terrain drawn once per zoom level into cached chunks.

A map of 200 x 200 squares at 64 px a square would be a 12800 px surface, so the map is cut
into chunks of about 512 px, drawn on demand and kept in a bounded LRU cache. A chunk not yet
drawn shows a scaled one-pixel-per-square thumbnail until it is ready, so zooming never stalls
a frame. Maps from Tiled are drawn from their own pictures (game.io.tiled.tile_image_sources:
tile layers, tile objects and image layers, in Tiled's order; see game/ui/tileart.py) when the
images load; squares no tile layer draws, and inline ASCII maps, get a clean drawn look.

The markers switch adds the rules' view of each square on top of the art: cover degree,
concealment, difficult ground, water, elevation. Grid lines are a switch too.
"""
from __future__ import annotations

import time
from collections import OrderedDict
from pathlib import Path

import numpy as np

from ..core.values.errors import RulesError
from . import theme
from .tileart import TileArtLayer

CHUNK_PX = 512
MAX_CHUNKS = 160
COVER_TEXT = ("", "¼", "½", "¾", "■")


def tile_art_for(scenario):
    """The Tiled tile images of the scenario's map, or None (ASCII maps; art that cannot be read:
    the map itself loaded, so the clean drawn look stands in)."""
    from ..io.tiled import default_asset_root, tile_image_sources
    source = Path(scenario.source or "")
    try:
        if scenario.map.asset_root and scenario.map.files:  # the map file and the root it was read with
            return tile_image_sources(scenario.map.files[0], scenario.map.asset_root)
        if source.suffix.lower() in (".tmx", ".tmj", ".json"):
            return tile_image_sources(source)
        if source.suffix.lower() == ".toml" and source.exists():
            from ..io.toml_file import read_toml
            spec = read_toml(source).get("map", {})
            if spec.get("file"):
                map_path = (source.parent / spec["file"]).resolve()
                root = (source.parent / spec["asset_root"]).resolve() if spec.get("asset_root") else default_asset_root(map_path)
                return tile_image_sources(map_path, root)
    except (RulesError, OSError):
        return None
    return None


def terrain_colours(bmap) -> np.ndarray:
    """(h, w, 3) uint8: one colour per square, the look of the map at a glance."""
    h, w = bmap.height, bmap.width
    rgb = np.empty((h, w, 3), np.int32)
    rgb[:] = theme.FLOOR
    checker = ((np.add.outer(np.arange(h), np.arange(w)) % 2) == 1)
    rgb[checker] = theme.FLOOR_ALT
    elev = bmap.elevation_ft.numpy()
    if elev.any():
        lift = np.clip(elev, -60, 60)
        # Higher ground is lighter and greener-warm, lower ground darker and cooler.
        rgb[..., 0] += (lift * 0.7).astype(np.int32)
        rgb[..., 1] += (lift * 1.1).astype(np.int32)
        rgb[..., 2] += (lift * 0.2).astype(np.int32)
    difficult, concealment, cover = bmap.difficult.numpy(), bmap.concealment.numpy(), bmap.cover.numpy()
    blocks_move, blocks_sight = bmap.blocks_move.numpy(), bmap.blocks_sight.numpy()
    rgb[difficult] = theme.RUBBLE
    rgb[concealment > 0] = theme.FOG
    brush = (concealment > 0) & difficult
    rgb[brush] = theme.BRUSH
    rgb[bmap.water.numpy()] = theme.WATER
    low = (cover > 0) & ~blocks_move
    rgb[low] = theme.LOW_WALL
    rgb[bmap.door.numpy()] = theme.DOOR
    trunk = blocks_move & ~blocks_sight
    rgb[trunk] = theme.LEAVES
    wall = blocks_move & blocks_sight
    rgb[wall] = theme.WALL
    return np.clip(rgb, 0, 255).astype(np.uint8)


class MapLayer:
    def __init__(self, bmap, tile_art=None):
        self.map = bmap
        self.art = TileArtLayer(tile_art, bmap.width, bmap.height) if tile_art is not None else None
        self.colours = terrain_colours(bmap)
        self._thumb = None
        self._chunks: OrderedDict = OrderedDict()
        self.show_grid = True
        self.show_markers = tile_art is None
        self.fonts = None
        self.built_last_frame = 0

    # ----- the thumbnail (one pixel per square) -----
    def thumbnail(self):
        if self._thumb is None:
            import pygame
            surf = pygame.Surface((self.map.width, self.map.height))
            pygame.surfarray.blit_array(surf, self.colours.transpose(1, 0, 2))
            self._thumb = surf
        return self._thumb

    def chunk_squares(self, cell: int) -> int:
        return max(4, CHUNK_PX // cell)

    # ----- drawing -----
    def draw(self, screen, camera, time_budget_s: float | None = 0.006) -> None:
        """Blit the visible chunks; build missing ones within the time budget (None: build all)."""
        import pygame
        cell = camera.cell
        n = self.chunk_squares(cell)
        x0, y0, x1, y1 = camera.visible_squares()
        if x1 <= x0 or y1 <= y0:
            return
        start = time.perf_counter()
        self.built_last_frame = 0
        thumb = None
        for cy in range(y0 // n, (y1 - 1) // n + 1):
            for cx in range(x0 // n, (x1 - 1) // n + 1):
                key = (cell, cx, cy, self.show_grid, self.show_markers)
                surf = self._chunks.get(key)
                if surf is None and (time_budget_s is None or time.perf_counter() - start < time_budget_s
                                     or self.built_last_frame == 0):
                    surf = self._build_chunk(cell, cx, cy, n)
                    self._chunks[key] = surf
                    self.built_last_frame += 1
                    if len(self._chunks) > MAX_CHUNKS:
                        self._chunks.popitem(last=False)
                sx, sy = camera.to_screen(cx * n, cy * n)
                if surf is not None:
                    self._chunks.move_to_end(key)
                    screen.blit(surf, (sx, sy))
                else:
                    if thumb is None:
                        thumb = self.thumbnail()
                    w = min(n, self.map.width - cx * n)
                    h = min(n, self.map.height - cy * n)
                    part = thumb.subsurface(pygame.Rect(cx * n, cy * n, w, h))
                    screen.blit(pygame.transform.scale(part, (w * cell, h * cell)), (sx, sy))

    def pending(self, camera) -> bool:
        """True while some visible chunk is still shown as a thumbnail."""
        cell = camera.cell
        n = self.chunk_squares(cell)
        x0, y0, x1, y1 = camera.visible_squares()
        for cy in range(y0 // n, (y1 - 1) // n + 1):
            for cx in range(x0 // n, (x1 - 1) // n + 1):
                if (cell, cx, cy, self.show_grid, self.show_markers) not in self._chunks:
                    return True
        return False

    def _build_chunk(self, cell: int, cx: int, cy: int, n: int):
        import pygame
        m = self.map
        w = min(n, m.width - cx * n)
        h = min(n, m.height - cy * n)
        surf = pygame.Surface((w * cell, h * cell))
        surf.fill(theme.FLOOR)
        xs = range(cx * n, cx * n + w)
        ys = range(cy * n, cy * n + h)
        for y in ys:
            for x in xs:
                if self.art is None or not self.art.has_tiles[y, x]:  # the clean look under any pictures
                    self._draw_square(surf, x, y, (x - cx * n) * cell, (y - cy * n) * cell, cell)
        if self.art is not None:
            self.art.draw_chunk(surf, cx * n, cy * n, w, h, cell)
        self._draw_elevation_edges(surf, xs, ys, cx * n, cy * n, cell)
        if self.show_markers:
            for y in ys:
                for x in xs:
                    self._draw_markers(surf, x, y, (x - cx * n) * cell, (y - cy * n) * cell, cell)
        if self.show_grid and cell >= 8:
            colour = theme.GRID if cell >= 16 else theme.GRID_FAINT
            for i in range(w + 1):
                pygame.draw.line(surf, colour, (i * cell, 0), (i * cell, h * cell))
            for j in range(h + 1):
                pygame.draw.line(surf, colour, (0, j * cell), (w * cell, j * cell))
        if pygame.display.get_surface() is not None:
            surf = surf.convert()
        return surf

    def _draw_square(self, surf, x: int, y: int, rx: int, ry: int, c: int) -> None:
        import pygame
        m = self.map
        base = tuple(int(v) for v in self.colours[y, x])
        rect = pygame.Rect(rx, ry, c, c)
        pygame.draw.rect(surf, base, rect)
        if m.blocks_move[y, x] and m.blocks_sight[y, x]:
            if m.door[y, x]:
                pygame.draw.rect(surf, theme.DOOR, rect)
                pygame.draw.rect(surf, theme.darker(theme.DOOR), rect.inflate(-c // 3, -c // 6), max(1, c // 12))
                return
            pygame.draw.rect(surf, theme.WALL_TOP, rect.inflate(-max(2, c // 8), -max(2, c // 8)))
            if c >= 16:
                # A few stones, so walls read as masonry rather than holes.
                k = max(1, c // 16)
                pygame.draw.line(surf, theme.WALL_EDGE, (rx, ry + c // 2), (rx + c, ry + c // 2), k)
                off = c // 4 if (x + y) % 2 else 3 * c // 4
                pygame.draw.line(surf, theme.WALL_EDGE, (rx + off, ry), (rx + off, ry + c // 2), k)
                pygame.draw.line(surf, theme.WALL_EDGE, (rx + c - off, ry + c // 2), (rx + c - off, ry + c), k)
            return
        if m.blocks_move[y, x]:  # a trunk or pillar: blocks movement, not sight
            fl = theme.FLOOR if (x + y) % 2 == 0 else theme.FLOOR_ALT
            pygame.draw.rect(surf, fl, rect)
            pygame.draw.circle(surf, theme.LEAVES, rect.center, max(2, int(c * 0.46)))
            pygame.draw.circle(surf, theme.darker(theme.LEAVES, 0.75), rect.center, max(2, int(c * 0.46)), max(1, c // 16))
            pygame.draw.circle(surf, theme.TRUNK, rect.center, max(1, c // 6))
            return
        if m.water[y, x] and c >= 12:
            for k in (0.3, 0.65):
                yy = ry + int(c * k)
                pts = [(rx + i, yy + int(2 * np.sin(i * 6.28 / max(6, c // 2)))) for i in range(0, c, 2)]
                if len(pts) > 1:
                    pygame.draw.lines(surf, theme.WATER_WAVE, False, pts, 1)
        elif m.cover[y, x] and not m.blocks_move[y, x] and c >= 8:  # a low wall
            band = rect.inflate(0, -c // 3)
            pygame.draw.rect(surf, theme.LOW_WALL, band)
            pygame.draw.rect(surf, theme.LOW_WALL_MORTAR, band, max(1, c // 16))
            if c >= 16:
                pygame.draw.line(surf, theme.LOW_WALL_MORTAR, (rx + c // 2, band.top), (rx + c // 2, band.bottom), 1)
            fl = theme.FLOOR if (x + y) % 2 == 0 else theme.FLOOR_ALT
            pygame.draw.rect(surf, fl, (rx, ry, c, c // 6))
            pygame.draw.rect(surf, fl, (rx, ry + c - c // 6, c, c // 6))
        elif m.concealment[y, x] and m.difficult[y, x] and c >= 12:  # brush
            dark = theme.darker(theme.BRUSH, 0.7)
            for i, (fx, fy) in enumerate(((0.25, 0.3), (0.7, 0.25), (0.45, 0.6), (0.2, 0.8), (0.8, 0.75))):
                pygame.draw.circle(surf, dark, (rx + int(c * fx), ry + int(c * fy)), max(1, c // 9))
        elif m.concealment[y, x] and c >= 12:  # fog: a soft wash with streaks
            for k in (0.3, 0.55, 0.8):
                pygame.draw.line(surf, theme.lighter(theme.FOG, 30), (rx + c // 8, ry + int(c * k)),
                                 (rx + c - c // 8, ry + int(c * k) - c // 10), max(1, c // 14))
        elif m.difficult[y, x] and c >= 12:  # rubble
            dark = theme.darker(theme.RUBBLE, 0.7)
            for fx, fy in ((0.2, 0.25), (0.6, 0.2), (0.35, 0.65), (0.75, 0.6), (0.5, 0.85)):
                pygame.draw.rect(surf, dark, (rx + int(c * fx), ry + int(c * fy), max(2, c // 7), max(2, c // 9)))
        if m.door[y, x]:
            pygame.draw.rect(surf, theme.FLOOR, rect)
            pygame.draw.rect(surf, theme.DOOR, (rx, ry, max(2, c // 6), c))
            pygame.draw.rect(surf, theme.DOOR, (rx + c - max(2, c // 6), ry, max(2, c // 6), c))

    def _draw_elevation_edges(self, surf, xs, ys, bx: int, by: int, c: int) -> None:
        """A dark ledge line wherever the floor height changes between two squares."""
        import pygame
        elev = self.map.elevation_ft
        if not elev.count_nonzero():
            return
        width = max(2, c // 10)
        for y in ys:
            for x in xs:
                e = elev[y, x]
                rx, ry = (x - bx) * c, (y - by) * c
                if x + 1 < self.map.width and elev[y, x + 1] != e:
                    pygame.draw.line(surf, theme.ELEVATION_EDGE, (rx + c - 1, ry), (rx + c - 1, ry + c), width)
                if x > 0 and elev[y, x - 1] != e:
                    pygame.draw.line(surf, theme.ELEVATION_EDGE, (rx, ry), (rx, ry + c), width)
                if y + 1 < self.map.height and elev[y + 1, x] != e:
                    pygame.draw.line(surf, theme.ELEVATION_EDGE, (rx, ry + c - 1), (rx + c, ry + c - 1), width)
                if y > 0 and elev[y - 1, x] != e:
                    pygame.draw.line(surf, theme.ELEVATION_EDGE, (rx, ry), (rx + c, ry), width)

    def _draw_markers(self, surf, x: int, y: int, rx: int, ry: int, c: int) -> None:
        """The rules' view of a square: cover degree, elevation, concealment."""
        if c < 20 or self.fonts is None:
            return
        m = self.map
        size = max(10, min(16, c // 3))
        cover = int(m.cover[y, x])
        if cover and not (m.blocks_move[y, x] and m.blocks_sight[y, x]):
            label = self.fonts.render(COVER_TEXT[cover], size + 2, (255, 255, 255), True)
            back = self.fonts.render(COVER_TEXT[cover], size + 2, (30, 30, 30), True)
            px, py = rx + c - label.get_width() - 2, ry + 1
            surf.blit(back, (px + 1, py + 1))
            surf.blit(label, (px, py))
        conceal = int(m.concealment[y, x])
        if conceal and c >= 28:
            text = self.fonts.render(f"c{COVER_TEXT[conceal]}", size - 1, (40, 50, 70))
            surf.blit(text, (rx + 2, ry + c - text.get_height()))
        e = int(m.elevation_ft[y, x])
        if e and not m.blocks_move[y, x]:
            # A few labels per raised area, not one per square: its corners, and a sparse lattice.
            show = (x + 3 * y) % 7 == 0 or (
                (x == 0 or m.elevation_ft[y, x - 1] != e) and (y == 0 or m.elevation_ft[y - 1, x] != e))
            if show:
                text = self.fonts.render(f"{e} ft", size - 1, (70, 50, 20), True)
                surf.blit(text, (rx + 2, ry + 1))
