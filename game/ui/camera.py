"""The camera: which part of the map is on screen and how large a square is drawn.

World coordinates are in squares (x, y) with y growing south; screen coordinates are pixels
inside the map view (the window minus the side panel). Zoom moves between fixed levels so
that every cached layer is drawn at one of a few sizes. Zooming stops at useful limits: out
to the level where the whole map shows, in to 80 px squares.
"""
from __future__ import annotations

import math

ZOOM_LEVELS = (6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64, 80)
READABLE_CELL = 24   # the smallest squares a view opens at: tokens show initials and hit points


class Camera:
    def __init__(self, view_w: int, view_h: int, map_w: int, map_h: int, cell: int | None = None):
        self.view_w, self.view_h = view_w, view_h
        self.map_w, self.map_h = map_w, map_h
        self.zoom_index = self._fit_index() if cell is None else self._nearest_index(cell)
        self.ox = 0.0  # screen x of the map's left edge (pixels; negative when scrolled right)
        self.oy = 0.0
        self.center_on((map_w / 2, map_h / 2))

    # ----- zoom -----
    @property
    def cell(self) -> int:
        return ZOOM_LEVELS[self.zoom_index]

    def _nearest_index(self, cell: int) -> int:
        return min(range(len(ZOOM_LEVELS)), key=lambda i: abs(ZOOM_LEVELS[i] - cell))

    def _whole_map_index(self) -> int:
        """The largest level that shows the whole map (the smallest level if none does)."""
        fits = [i for i, c in enumerate(ZOOM_LEVELS) if c * self.map_w <= self.view_w and c * self.map_h <= self.view_h]
        return fits[-1] if fits else 0

    def _fit_index(self) -> int:
        """The whole map when it shows at a readable size (up to 64 px squares); else 32 px squares."""
        whole = self._whole_map_index()
        if ZOOM_LEVELS[whole] * self.map_w <= self.view_w and ZOOM_LEVELS[whole] >= READABLE_CELL:
            return min(whole, ZOOM_LEVELS.index(64))
        return ZOOM_LEVELS.index(32)

    @property
    def min_index(self) -> int:
        """Zooming out stops once the whole map is on screen."""
        return min(self._whole_map_index(), ZOOM_LEVELS.index(READABLE_CELL))

    def fit(self) -> None:
        """Open the view on the map: all of it when it shows readably, else its middle."""
        self.zoom_index = self._fit_index()
        self.center_on((self.map_w / 2, self.map_h / 2))

    def zoom(self, steps: int, anchor: tuple[float, float] | None = None) -> bool:
        """Zoom by whole levels keeping the world point under `anchor` (screen px) still."""
        new = max(self.min_index, min(len(ZOOM_LEVELS) - 1, self.zoom_index + steps))
        if new == self.zoom_index:
            return False
        ax, ay = anchor if anchor is not None else (self.view_w / 2, self.view_h / 2)
        wx, wy = self.to_world_f(ax, ay)
        self.zoom_index = new
        self.ox = ax - wx * self.cell
        self.oy = ay - wy * self.cell
        self.clamp()
        return True

    def set_cell(self, cell: int) -> None:
        centre = self.to_world_f(self.view_w / 2, self.view_h / 2)
        self.zoom_index = self._nearest_index(cell)
        self.center_on(centre)

    # ----- panning -----
    def pan(self, dx: float, dy: float) -> None:
        self.ox += dx
        self.oy += dy
        self.clamp()

    def center_on(self, world: tuple[float, float]) -> None:
        self.ox = self.view_w / 2 - world[0] * self.cell
        self.oy = self.view_h / 2 - world[1] * self.cell
        self.clamp()

    def ensure_visible(self, square: tuple[int, int], margin: int = 2) -> None:
        x, y = square
        c = self.cell
        sx, sy = self.ox + x * c, self.oy + y * c
        if sx < margin * c or sy < margin * c or sx > self.view_w - (margin + 1) * c or sy > self.view_h - (margin + 1) * c:
            self.center_on((x + 0.5, y + 0.5))

    def resize(self, view_w: int, view_h: int) -> None:
        centre = self.to_world_f(self.view_w / 2, self.view_h / 2)
        self.view_w, self.view_h = view_w, view_h
        self.center_on(centre)

    def clamp(self) -> None:
        """Keep the view on the map: a map larger than the view fills it (no black beyond its
        edges), a smaller one is centred."""
        c = self.cell
        mw, mh = self.map_w * c, self.map_h * c
        if mw <= self.view_w:
            self.ox = (self.view_w - mw) / 2
        else:
            self.ox = min(0.0, max(self.view_w - mw, self.ox))
        if mh <= self.view_h:
            self.oy = (self.view_h - mh) / 2
        else:
            self.oy = min(0.0, max(self.view_h - mh, self.oy))
        self.ox, self.oy = round(self.ox), round(self.oy)

    # ----- transforms -----
    def to_screen(self, x: float, y: float) -> tuple[int, int]:
        """Top-left pixel of square (x, y); fractional squares for points inside squares."""
        c = self.cell
        return (int(round(self.ox + x * c)), int(round(self.oy + y * c)))

    def centre_of(self, square: tuple[int, int]) -> tuple[int, int]:
        return self.to_screen(square[0] + 0.5, square[1] + 0.5)

    def to_world_f(self, sx: float, sy: float) -> tuple[float, float]:
        c = self.cell
        return ((sx - self.ox) / c, (sy - self.oy) / c)

    def square_at(self, sx: float, sy: float) -> tuple[int, int] | None:
        wx, wy = self.to_world_f(sx, sy)
        x, y = math.floor(wx), math.floor(wy)
        if 0 <= x < self.map_w and 0 <= y < self.map_h:
            return (x, y)
        return None

    def visible_squares(self, area=None) -> tuple[int, int, int, int]:
        """(x0, y0, x1, y1) half-open range of squares at least partly on screen (or in `area`, a
        rect of the view: what a clipped drawing reaches), clipped to the map."""
        c = self.cell
        left, top, right, bottom = 0, 0, self.view_w, self.view_h
        if area is not None:
            left, top = max(left, area[0]), max(top, area[1])
            right, bottom = min(right, area[0] + area[2]), min(bottom, area[1] + area[3])
        x0 = max(0, math.floor((left - self.ox) / c))
        y0 = max(0, math.floor((top - self.oy) / c))
        x1 = min(self.map_w, math.ceil((right - self.ox) / c))
        y1 = min(self.map_h, math.ceil((bottom - self.oy) / c))
        return x0, y0, max(x0, x1), max(y0, y1)
