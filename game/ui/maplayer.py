"""The static map layer: terrain drawn once per zoom level into cached chunks.

A map of 200 x 200 squares at 64 px a square would be a 12800 px surface, so the map is cut
into chunks of about 256 px, drawn on demand and kept in a bounded LRU cache. A chunk not yet
drawn shows a scaled one-pixel-per-square thumbnail until it is ready, so zooming never stalls
a frame. Maps from Tiled are drawn from their own pictures (game.io.tiled.tile_image_sources:
tile layers, tile objects and image layers, in Tiled's order; see game/ui/tileart.py) when the
images load; squares no tile layer draws, and inline ASCII maps, get a clean drawn look.

The markers switch adds the rules' view of each square on top of the art: cover degree,
concealment, difficult ground, water, elevation. Grid lines are a switch too.
"""
from __future__ import annotations

import itertools
from collections import OrderedDict
from pathlib import Path

import numpy as np

from ..core.values.errors import RulesError
from . import theme
from .chunkbudget import BuildClock, FrameBudget, chunks_near
from .surfaces import copy_friendly_surface
from .tileart import TileArtLayer

CHUNK_PX = 256
MAX_CHUNKS = 400
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


# The bits of a square's look besides its colour (MapLayer._square_codes), in this order.
_CODE_BITS = ("blocks_move", "blocks_sight", "door", "water", "cover", "concealment", "difficult", "odd")


def _drawn_mask(cell: int) -> int:
    """The code bits that make `_draw_square` draw more than the square's colour at this size:
    walls, trunks and doors always; low walls from 8 px; water, brush, fog and rubble from 12 px."""
    mask = 0b111
    if cell >= 8:
        mask |= 1 << 4
    if cell >= 12:
        mask |= (1 << 3) | (1 << 5) | (1 << 6)
    return mask



def _scaled(thumb, w: int, h: int, cell: int):
    """`thumb` (one pixel a square) at `cell` px a square, every square a whole block of its pixel.
    pygame's nearest-neighbour scale is exact up to 32x here; larger cells go in two exact steps."""
    import pygame
    if cell <= 32:
        return pygame.transform.scale(thumb, (w * cell, h * cell))
    steps = [k for k in range(2, 33) if cell % k == 0 and cell // k <= 32]
    if not steps:       # no zoom level is such a size; exact the slow way
        pixels = pygame.surfarray.array3d(thumb)
        surf = pygame.Surface((w * cell, h * cell))
        pygame.surfarray.blit_array(surf, np.repeat(np.repeat(pixels, cell, 0), cell, 1))
        return surf
    step = max(steps)
    return pygame.transform.scale(pygame.transform.scale(thumb, (w * step, h * step)), (w * cell, h * cell))


def _in_display_format(surf):
    """`surf` in the window's pixel format (blits from it are plain copies); as it is when it
    already is, or when there is no window."""
    import pygame
    display = pygame.display.get_surface()
    if display is None or (surf.get_bitsize(), surf.get_masks()) == (display.get_bitsize(), display.get_masks()):
        return surf
    return surf.convert()


class MapLayer:
    _serials = itertools.count()

    def __init__(self, bmap, tile_art=None):
        self.map = bmap
        self.serial = next(MapLayer._serials)   # names this layer's pictures (an id() may come back)
        self.art = TileArtLayer(tile_art, bmap.width, bmap.height) if tile_art is not None else None
        self.colours = terrain_colours(bmap)
        self._thumb = None
        self._base_thumb = None
        self._codes = None
        self._marks = None
        self._packed = None
        self._has_heights = bool(bmap.elevation_ft.count_nonzero())
        self._stamps: dict = {}
        self._chunks: OrderedDict = OrderedDict()
        self.show_grid = True
        self.show_markers = tile_art is None
        self.fonts = None
        self.built_last_frame = 0
        self.clock = BuildClock()
        self._scratch: dict = {}

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
    def draw(self, screen, camera, budget=0.006) -> None:
        """Blit the visible chunks (within the screen's clip); build missing ones within `budget`
        (a FrameBudget, or seconds; None: build all); a chunk left unbuilt shows the thumbnail."""
        import pygame
        budget = FrameBudget.of(budget)
        cell = camera.cell
        n = self.chunk_squares(cell)
        x0, y0, x1, y1 = camera.visible_squares(screen.get_clip())
        if x1 <= x0 or y1 <= y0:
            return
        thumb = None
        for cy in range(y0 // n, (y1 - 1) // n + 1):
            for cx in range(x0 // n, (x1 - 1) // n + 1):
                key = (cell, cx, cy, self.show_grid, self.show_markers)
                surf = self._chunks.get(key)
                if surf is None and budget.allows(self.clock.estimate_s):
                    surf = self.clock.timed(budget, lambda: self._build_chunk(cell, cx, cy, n))
                    self._chunks[key] = surf
                    self.built_last_frame += 1      # the scene sets it to 0 as a frame begins
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
                    screen.blit(self._scaled_thumbnail(part, w * cell, h * cell), (sx, sy))

    def _scaled_thumbnail(self, part, w: int, h: int):
        """`part` of the thumbnail scaled to w x h, into a picture kept for that size (a new one
        each time would cost its page faults: a zoom shows dozens)."""
        import pygame
        scratch = self._scratch.get((w, h))
        if scratch is None:
            if len(self._scratch) > 8:
                self._scratch.clear()
            scratch = self._scratch[(w, h)] = pygame.Surface((w, h), 0, part)
        return pygame.transform.scale(part, (w, h), scratch)

    def missing(self, camera, area=None) -> list:
        """Where the chunks of the view (or of `area`, a rect of it) not built yet are: their rects
        on screen."""
        import pygame
        cell = camera.cell
        n = self.chunk_squares(cell)
        x0, y0, x1, y1 = camera.visible_squares(area)
        if x1 <= x0 or y1 <= y0:
            return []
        return [pygame.Rect(camera.to_screen(cx * n, cy * n), (n * cell, n * cell))
                for cy in range(y0 // n, (y1 - 1) // n + 1) for cx in range(x0 // n, (x1 - 1) // n + 1)
                if (cell, cx, cy, self.show_grid, self.show_markers) not in self._chunks]

    def prefetch(self, camera, budget=None, ring: int = 1) -> bool:
        """Build one chunk of the view or of the `ring` chunks around it, if one is missing (the
        nearest to the view's centre first) and `budget` allows it, so that a pan finds its chunks
        ready; False when there was none."""
        budget = FrameBudget(None) if budget is None else budget
        missing = self.missing_around(camera, ring)
        if not missing or not budget.allows(self.clock.estimate_s):
            return False
        cell = camera.cell
        cx, cy = missing[0]
        self._chunks[(cell, cx, cy, self.show_grid, self.show_markers)] = \
            self.clock.timed(budget, lambda: self._build_chunk(cell, cx, cy, self.chunk_squares(cell)))
        if len(self._chunks) > MAX_CHUNKS:
            self._chunks.popitem(last=False)
        return True

    def missing_around(self, camera, ring: int = 1) -> list[tuple[int, int]]:
        """The chunks of the view and the `ring` chunks around it not built yet, nearest the view's
        centre first."""
        cell = camera.cell
        return [(cx, cy) for cx, cy in chunks_near(camera, self.chunk_squares(cell), ring)
                if (cell, cx, cy, self.show_grid, self.show_markers) not in self._chunks]

    def pending(self, camera) -> bool:
        """True while some visible chunk is still shown as a thumbnail."""
        return bool(self.missing(camera))

    def _build_chunk(self, cell: int, cx: int, cy: int, n: int):
        """One chunk's picture. Whole squares are painted at once (the thumbnail scaled up, then one
        stamp a kind of square blitted in a batch) so that a chunk costs about a millisecond at every
        zoom: a chunk coming into view while panning fits within a frame. The pixels are those of
        drawing each square in turn (`_draw_square`; tests/ui/test_map_chunks.py holds them equal)."""
        import pygame
        m = self.map
        x0, y0 = cx * n, cy * n
        w = min(n, m.width - x0)
        h = min(n, m.height - y0)
        surf = _scaled(self.base_thumbnail().subsurface(pygame.Rect(x0, y0, w, h)), w, h, cell)
        codes = self._square_codes()[y0:y0 + h, x0:x0 + w]
        ys, xs = np.nonzero(codes & _drawn_mask(cell))
        if len(ys):
            # One stamp per kind of square and colour; its key packs the code above the colour.
            keys = (codes[ys, xs].astype(np.int64) << 24) | self._packed_colours()[y0 + ys, x0 + xs].astype(np.int64)
            stamps = self._stamps.setdefault(cell, {})
            unique, first = np.unique(keys, return_index=True)
            for key, at in zip(unique.tolist(), first.tolist()):
                if key not in stamps:
                    stamps[key] = self._stamp(x0 + int(xs[at]), y0 + int(ys[at]), cell)
            surf.fblits([(stamps[key], (i * cell, j * cell))
                         for key, i, j in zip(keys.tolist(), xs.tolist(), ys.tolist())])
        if self.art is not None:
            self.art.draw_chunk(surf, x0, y0, w, h, cell)
        self._draw_elevation_edges(surf, x0, y0, w, h, cell)
        if self.show_markers and cell >= 20 and self.fonts is not None:
            marked = self._marked()[y0:y0 + h, x0:x0 + w]
            for j, i in zip(*(v.tolist() for v in np.nonzero(marked))):
                self._draw_markers(surf, x0 + i, y0 + j, i * cell, j * cell, cell)
        if self.show_grid and cell >= 8:
            colour = theme.GRID if cell >= 16 else theme.GRID_FAINT
            for i in range(w + 1):
                pygame.draw.line(surf, colour, (i * cell, 0), (i * cell, h * cell))
            for j in range(h + 1):
                pygame.draw.line(surf, colour, (0, j * cell), (w * cell, j * cell))
        # Kept in a surface whose rows copy fast wherever it lands in the view (ui/surfaces.py).
        out = copy_friendly_surface(surf.get_size())
        out.blit(surf, (0, 0))
        return out

    def base_thumbnail(self):
        """One pixel per square in the colour its square starts from: the terrain's colour, or the
        floor under a Tiled tile (the clean look is drawn only where no tile layer draws)."""
        if self._base_thumb is None:
            if self.art is None:
                self._base_thumb = self.thumbnail()
            else:
                import pygame
                colours = self.colours.copy()
                colours[self.art.has_tiles] = theme.FLOOR
                surf = pygame.Surface((self.map.width, self.map.height))
                pygame.surfarray.blit_array(surf, colours.transpose(1, 0, 2))
                self._base_thumb = surf
        return self._base_thumb

    def _square_codes(self) -> np.ndarray:
        """Per square, the bits its look depends on besides its colour (`_CODE_BITS`), and 0 where a
        Tiled tile draws it; computed once per map."""
        if self._codes is None:
            m = self.map
            h, w = m.height, m.width
            parity = (np.add.outer(np.arange(h, dtype=np.int32), np.arange(w, dtype=np.int32)) % 2).astype(bool)
            bits = (m.blocks_move.numpy(), m.blocks_sight.numpy(), m.door.numpy(), m.water.numpy(),
                    m.cover.numpy() > 0, m.concealment.numpy() > 0, m.difficult.numpy(), parity)
            codes = np.zeros((h, w), np.uint8)       # eight bits: one byte a square
            for k, bit in enumerate(bits):
                codes |= bit.astype(np.uint8) << k
            if self.art is not None:
                codes[self.art.has_tiles] = 0
            self._codes = codes
        return self._codes

    def _stamp(self, x: int, y: int, cell: int):
        """The picture of square (x, y) alone: the same for every square of its code and colour."""
        import pygame
        stamp = pygame.Surface((cell, cell))
        self._draw_square(stamp, x, y, 0, 0, cell)
        return _in_display_format(stamp)

    def _packed_colours(self) -> np.ndarray:
        """Each square's colour as one int (red << 16 | green << 8 | blue)."""
        if self._packed is None:
            c = self.colours.astype(np.int32)
            self._packed = (c[..., 0] << 16) | (c[..., 1] << 8) | c[..., 2]
        return self._packed

    def _marked(self) -> np.ndarray:
        """Squares that may carry a marker (cover, concealment, height); `_draw_markers` decides."""
        if self._marks is None:
            m = self.map
            self._marks = (m.cover.numpy() > 0) | (m.concealment.numpy() > 0) | (m.elevation_ft.numpy() != 0)
        return self._marks

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

    def _draw_elevation_edges(self, surf, x0: int, y0: int, w: int, h: int, c: int) -> None:
        """A dark ledge line wherever the floor height changes between two squares."""
        import pygame
        if not self._has_heights:
            return
        elev = self.map.elevation_ft.numpy()
        width = max(2, c // 10)
        # The chunk with one square more on every side; where the map ends there, the edge square
        # again (no ledge beyond the map). Which side of each square meets another height:
        ya, yb = max(0, y0 - 1), min(self.map.height, y0 + h + 1)
        xa, xb = max(0, x0 - 1), min(self.map.width, x0 + w + 1)
        ring = np.pad(elev[ya:yb, xa:xb], ((1 - (y0 - ya), 1 - (yb - y0 - h)), (1 - (x0 - xa), 1 - (xb - x0 - w))),
                      mode="edge")
        block = ring[1:-1, 1:-1]
        right, left = block != ring[1:-1, 2:], block != ring[1:-1, :-2]
        below, above = block != ring[2:, 1:-1], block != ring[:-2, 1:-1]
        colour = theme.ELEVATION_EDGE
        for j, i in zip(*(v.tolist() for v in np.nonzero(right | left | below | above))):
            rx, ry = i * c, j * c
            if right[j, i]:
                pygame.draw.line(surf, colour, (rx + c - 1, ry), (rx + c - 1, ry + c), width)
            if left[j, i]:
                pygame.draw.line(surf, colour, (rx, ry), (rx, ry + c), width)
            if below[j, i]:
                pygame.draw.line(surf, colour, (rx, ry + c - 1), (rx + c, ry + c - 1), width)
            if above[j, i]:
                pygame.draw.line(surf, colour, (rx, ry), (rx + c, ry), width)

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
