"""Area overlays drawn over the map: reachable squares, zones, threatened squares, highlights.

Every square comes from RulesView. The layers are drawn into chunks of about 256 px per zoom
level, cached until the squares or the switches change, and a frame blits only the visible
chunks that hold something: a still frame at 80 px squares costs about what one at 32 px does.
Regions (walk, run, charge) get a tint and an outline with a dark edge, so they read on any
tileset, green forest included; threatened squares are hatched in the foe's side colour.
"""
from __future__ import annotations

from collections import OrderedDict

import numpy as np

from . import theme
from .chunkbudget import BuildClock, FrameBudget, chunks_near


OUTLINED = {"walk": theme.REACH_WALK_EDGE, "run": theme.REACH_RUN_EDGE, "charge": theme.REACH_CHARGE_EDGE}
CHUNK_PX = 256
MAX_CHUNKS = 240


class Stamps:
    """One pre-drawn translucent square per overlay style and zoom level."""

    def __init__(self):
        self._cache: dict = {}

    def get(self, style: str, cell: int):
        key = (style, cell)
        surf = self._cache.get(key)
        if surf is None:
            surf = _make_stamp(style, cell)
            self._cache[key] = surf
        return surf


def _make_stamp(style: str, c: int):
    import pygame
    surf = pygame.Surface((c, c), pygame.SRCALPHA)
    if style == "walk":
        surf.fill(theme.REACH_WALK)
    elif style == "run":
        surf.fill(theme.REACH_RUN)
        step, width = max(6, c // 3), max(1, c // 24)
        for k in range(-c, c, step):  # dots along diagonals: run squares differ from walk ones in pattern too
            pygame.draw.line(surf, (*theme.REACH_RUN_EDGE, 90), (k, 0), (k + c, c), width)
    elif style == "charge":
        surf.fill(theme.REACH_CHARGE)
    elif style == "zone":
        surf.fill(theme.ZONE)
        pygame.draw.rect(surf, (*theme.ZONE[:3], 150), (0, 0, c, c), max(1, c // 16))
    elif style.startswith("threat"):
        colour = tuple(int(v) for v in style.split(":")[1].split(",")) if ":" in style else theme.THREAT[:3]
        step = max(4, c // 4)
        width = max(1, c // 12)
        pygame.draw.rect(surf, (*colour, 55), (0, 0, c, c))
        for k in range(-c, c, step):
            pygame.draw.line(surf, (*colour, 200), (k, c), (k + c, 0), width)
    elif style == "lane":
        surf.fill((*theme.LANE_OK, 110))
    elif style == "lane_refused":
        surf.fill((*theme.LANE_REFUSED, 70))
    elif style == "highlight":
        pygame.draw.rect(surf, (*theme.HIGHLIGHT, 90), (0, 0, c, c))
        pygame.draw.rect(surf, (*theme.HIGHLIGHT, 255), (0, 0, c, c), max(2, c // 10))
    elif style.startswith("odds:"):
        band = int(style.split(":")[1])
        surf.fill(theme.ODDS_NONE if band < 0 else theme.ODDS_RAMP[min(band, len(theme.ODDS_RAMP) - 1)])
    elif style == "blocker":
        pygame.draw.rect(surf, (*theme.BLOCKER, 220), (0, 0, c, c), max(2, c // 10))
    return surf


def as_array(squares) -> np.ndarray:
    squares = list(squares)
    if not squares:
        return np.zeros((0, 2), np.int32)
    return np.asarray(squares, dtype=np.int32).reshape(-1, 2)


def blit_squares(screen, camera, stamps: Stamps, style: str, squares) -> int:
    """Stamp `squares` (list or (N, 2) array) that are on screen; returns how many were drawn."""
    if squares is None or len(squares) == 0:
        return 0
    arr = squares if isinstance(squares, np.ndarray) else as_array(squares)
    x0, y0, x1, y1 = camera.visible_squares()
    keep = (arr[:, 0] >= x0) & (arr[:, 0] < x1) & (arr[:, 1] >= y0) & (arr[:, 1] < y1)
    arr = arr[keep]
    if not len(arr):
        return 0
    c = camera.cell
    stamp = stamps.get(style, c)
    xs = (arr[:, 0] * c + camera.ox).tolist()
    ys = (arr[:, 1] * c + camera.oy).tolist()
    screen.fblits([(stamp, (x, y)) for x, y in zip(xs, ys)])
    return len(arr)


class AreaLayers:
    """The area overlays as cached chunks: redrawn only when their squares, style or zoom change."""

    def __init__(self, stamps: Stamps):
        self.stamps = stamps
        self._key = None
        self._layers: list = []
        self._chunks: OrderedDict = OrderedDict()
        self.clock = BuildClock(0.0002)

    def set_layers(self, key, layers: list) -> None:
        """`layers`: [(style, (N, 2) int array of squares)], drawn in order. `key` names them."""
        if key != self._key:
            self._key = key
            self._layers = [(style, arr) for style, arr in layers if len(arr)]
            self._chunks.clear()

    def draw(self, screen, camera, budget=None) -> None:
        """Blit the visible chunks (within the screen's clip); build missing ones within `budget`
        (a FrameBudget shared with the map's chunks, or seconds; None: build all). A chunk left
        unbuilt is not drawn: `missing` says so, and the scene fills it in on a later frame."""
        if not self._layers:
            return
        budget = FrameBudget.of(budget)
        c = camera.cell
        n = max(4, CHUNK_PX // c)
        x0, y0, x1, y1 = camera.visible_squares(screen.get_clip())
        if x1 <= x0 or y1 <= y0:
            return
        for cy in range(y0 // n, (y1 - 1) // n + 1):
            for cx in range(x0 // n, (x1 - 1) // n + 1):
                key = (c, cx, cy)
                surf = self._chunks.get(key, False)
                if surf is False:
                    if not budget.allows(self.clock.estimate_s):
                        continue
                    surf = self.clock.timed(budget, lambda: self._build(c, cx, cy, n))
                    self._chunks[key] = surf
                    if len(self._chunks) > MAX_CHUNKS:
                        self._chunks.popitem(last=False)
                if surf is not None:
                    screen.blit(surf, camera.to_screen(cx * n, cy * n))

    def missing(self, camera, area=None) -> list:
        """Where the chunks of the view (or of `area`, a rect of it) not built yet are: their rects
        on screen."""
        import pygame
        if not self._layers:
            return []
        c = camera.cell
        n = max(4, CHUNK_PX // c)
        x0, y0, x1, y1 = camera.visible_squares(area)
        if x1 <= x0 or y1 <= y0:
            return []
        return [pygame.Rect(camera.to_screen(cx * n, cy * n), (n * c, n * c))
                for cy in range(y0 // n, (y1 - 1) // n + 1) for cx in range(x0 // n, (x1 - 1) // n + 1)
                if (c, cx, cy) not in self._chunks]

    def prefetch(self, camera, budget, ring: int = 1) -> bool:
        """Build one missing chunk of the view or of the `ring` chunks around it (the nearest the
        view's centre first) if `budget` allows it; False when there was none to build or no time."""
        if not self._layers:
            return False
        c = camera.cell
        n = max(4, CHUNK_PX // c)
        missing = [(cx, cy) for cx, cy in chunks_near(camera, n, ring) if (c, cx, cy) not in self._chunks]
        if not missing or not budget.allows(self.clock.estimate_s):
            return False
        cx, cy = missing[0]
        self._chunks[(c, cx, cy)] = self.clock.timed(budget, lambda: self._build(c, cx, cy, n))
        if len(self._chunks) > MAX_CHUNKS:
            self._chunks.popitem(last=False)
        return True

    def pending(self, camera) -> bool:
        """True while a visible chunk was left unbuilt (drawing within a time budget)."""
        return bool(self.missing(camera))

    def _build(self, c: int, cx: int, cy: int, n: int):
        """One chunk of every layer, or None when no layer reaches it."""
        import pygame
        bx, by = cx * n, cy * n
        surf = None
        for style, arr in self._layers:
            inside = (arr[:, 0] >= bx - 1) & (arr[:, 0] < bx + n + 1) & (arr[:, 1] >= by - 1) & (arr[:, 1] < by + n + 1)
            part = arr[inside]
            if not len(part):
                continue
            own = part[(part[:, 0] >= bx) & (part[:, 0] < bx + n) & (part[:, 1] >= by) & (part[:, 1] < by + n)]
            if not len(own):
                continue
            if surf is None:
                surf = pygame.Surface((n * c, n * c), pygame.SRCALPHA)
            stamp = self.stamps.get(style, c)
            surf.fblits([(stamp, ((x - bx) * c, (y - by) * c)) for x, y in own.tolist()])
            if style in OUTLINED:
                _outline(surf, part, bx, by, n, c, OUTLINED[style])
        return surf


def _outline(surf, squares: np.ndarray, bx: int, by: int, n: int, c: int, colour) -> None:
    """The edge of a region of squares: a bright line with a dark rim, inside the region."""
    import pygame
    grid = np.zeros((n + 2, n + 2), bool)
    xs, ys = squares[:, 0] - bx + 1, squares[:, 1] - by + 1
    grid[ys, xs] = True
    inner = grid[1:-1, 1:-1]
    width = max(2, c // 14)
    dark = (20, 24, 20)
    for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        neighbour = grid[1 + dy:n + 1 + dy, 1 + dx:n + 1 + dx]
        for y, x in zip(*np.nonzero(inner & ~neighbour)):
            px, py = x * c, y * c
            if dx == -1:
                a, b, off = (px, py), (px, py + c - 1), (1, 0)
            elif dx == 1:
                a, b, off = (px + c - 1, py), (px + c - 1, py + c - 1), (-1, 0)
            elif dy == -1:
                a, b, off = (px, py), (px + c - 1, py), (0, 1)
            else:
                a, b, off = (px, py + c - 1), (px + c - 1, py + c - 1), (0, -1)
            pygame.draw.line(surf, dark, a, b, width + 2)
            k = width // 2 + 1
            pygame.draw.line(surf, colour, (a[0] + off[0] * k, a[1] + off[1] * k),
                             (b[0] + off[0] * k, b[1] + off[1] * k), width)
