"""Which 5-ft squares a Tiled object stands on, in pixels turned into square indices.

An area (rectangle, polygon, ellipse, tile object) covers every square whose centre lies
inside it (half-open on the right and bottom edges, so two areas sharing an edge never
both claim a square). A polyline covers every square it passes through; a point, the
square containing it. Rotation is about the object's position, as in Tiled.
"""
from __future__ import annotations

import math

import numpy as np

from ..core.errors import DataFileError
from .tiled_objects import MapObject


class Grid:
    """Map size in squares and pixels per square; tracks a work budget against hostile shapes."""

    WORK_BUDGET = 20_000_000  # point-in-shape tests over all objects: well under a second

    def __init__(self, width: int, height: int, tile_width: int, tile_height: int, shown: str):
        self.width, self.height = width, height
        self.tile_width, self.tile_height = tile_width, tile_height
        self.shown = shown
        self.work = 0

    def spend(self, amount: int, where: str) -> None:
        self.work += amount
        if self.work > self.WORK_BUDGET:
            raise DataFileError(
                self.shown, where,
                "terrain objects are too detailed to rasterize (too many points over too many squares); simplify them",
            )

    def square_of(self, px: float, py: float) -> tuple[int, int] | None:
        x, y = math.floor(px / self.tile_width), math.floor(py / self.tile_height)
        return (x, y) if 0 <= x < self.width and 0 <= y < self.height else None


def anchor(obj: MapObject, offset: tuple[float, float]) -> tuple[float, float]:
    """The pixel point that places the object on one square (a spawn's square)."""
    if obj.shape == "point" or (obj.shape == "rectangle" and obj.width == 0 and obj.height == 0):
        local = (0.0, 0.0)
    elif obj.shape == "tile":
        local = (obj.width / 2, -obj.height / 2)  # tile objects hang up from their bottom-left corner
    elif obj.shape in ("polygon", "polyline"):
        xs, ys = zip(*obj.points)
        local = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    else:
        local = (obj.width / 2, obj.height / 2)
    return _to_world(obj, offset, np.array([local], dtype=float))[0]


def covered(obj: MapObject, offset: tuple[float, float], grid: Grid) -> np.ndarray:
    """Boolean [y, x] mask of the squares the object covers."""
    mask = np.zeros((grid.height, grid.width), dtype=bool)
    w, h = obj.width, obj.height
    if obj.shape == "point" or (obj.shape in ("rectangle", "ellipse", "text", "tile") and (w == 0 or h == 0)):
        square = grid.square_of(*anchor(obj, offset))
        if square:
            mask[square[1], square[0]] = True
        return mask
    if obj.shape == "polyline":
        _polyline(mask, _to_world(obj, offset, np.array(obj.points, dtype=float)), grid, obj.where)
    elif obj.shape == "ellipse":
        _ellipse(mask, obj, offset, grid)
    else:
        if obj.shape == "polygon":
            local = np.array(obj.points, dtype=float)
        elif obj.shape == "tile":
            local = np.array([(0, -h), (w, -h), (w, 0), (0, 0)], dtype=float)
        else:
            local = np.array([(0, 0), (w, 0), (w, h), (0, h)], dtype=float)
        _polygon(mask, _to_world(obj, offset, local), grid, obj.where)
    return mask


def _to_world(obj: MapObject, offset, local: np.ndarray) -> np.ndarray:
    angle = math.radians(obj.rotation)
    cos, sin = math.cos(angle), math.sin(angle)
    x = obj.x + offset[0] + local[:, 0] * cos - local[:, 1] * sin
    y = obj.y + offset[1] + local[:, 0] * sin + local[:, 1] * cos
    return np.stack([x, y], axis=1)


def _row_range(low: float, high: float, grid: Grid) -> tuple[int, int]:
    first = max(0, math.ceil(low / grid.tile_height - 0.5))
    last = min(grid.height, math.ceil(high / grid.tile_height - 0.5))
    return first, last


def _polygon(mask: np.ndarray, vertices: np.ndarray, grid: Grid, where: str) -> None:
    first, last = _row_range(vertices[:, 1].min(), vertices[:, 1].max(), grid)
    if last <= first:
        return
    grid.spend((last - first) * len(vertices), where)
    centres = (np.arange(first, last) + 0.5) * grid.tile_height
    x0, y0 = vertices[:, 0], vertices[:, 1]
    x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
    below0 = y0[None, :] <= centres[:, None]
    below1 = y1[None, :] <= centres[:, None]
    crosses = below0 != below1
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (centres[:, None] - y0[None, :]) / (y1 - y0)[None, :]
        xs = np.where(crosses, x0[None, :] + t * (x1 - x0)[None, :], np.inf)
    xs.sort(axis=1)
    for row, crossings in zip(range(first, last), xs):
        crossings = crossings[np.isfinite(crossings)]
        for left, right in zip(crossings[0::2], crossings[1::2]):
            start = max(0, math.ceil(left / grid.tile_width - 0.5))
            stop = min(grid.width, math.ceil(right / grid.tile_width - 0.5))
            if stop > start:
                mask[row, start:stop] = True


def _ellipse(mask: np.ndarray, obj: MapObject, offset, grid: Grid) -> None:
    corners = _to_world(obj, offset, np.array([(0, 0), (obj.width, 0), (obj.width, obj.height), (0, obj.height)]))
    first, last = _row_range(corners[:, 1].min(), corners[:, 1].max(), grid)
    left = max(0, math.ceil(corners[:, 0].min() / grid.tile_width - 0.5))
    right = min(grid.width, math.ceil(corners[:, 0].max() / grid.tile_width - 0.5))
    if last <= first or right <= left:
        return
    grid.spend((last - first) * (right - left), obj.where)
    cy, cx = np.mgrid[first:last, left:right].astype(float)
    dx = (cx + 0.5) * grid.tile_width - (obj.x + offset[0])
    dy = (cy + 0.5) * grid.tile_height - (obj.y + offset[1])
    angle = math.radians(obj.rotation)
    lx = dx * math.cos(angle) + dy * math.sin(angle)
    ly = -dx * math.sin(angle) + dy * math.cos(angle)
    rx, ry = obj.width / 2, obj.height / 2
    inside = ((lx - rx) / rx) ** 2 + ((ly - ry) / ry) ** 2 <= 1.0
    mask[first:last, left:right] |= inside


def _polyline(mask: np.ndarray, points: np.ndarray, grid: Grid, where: str) -> None:
    step = min(grid.tile_width, grid.tile_height) / 4
    for (ax, ay), (bx, by) in zip(points[:-1], points[1:]):
        samples = int(math.hypot(bx - ax, by - ay) / step) + 2
        grid.spend(samples, where)
        t = np.linspace(0.0, 1.0, samples)
        xs = np.floor((ax + t * (bx - ax)) / grid.tile_width).astype(np.int64)
        ys = np.floor((ay + t * (by - ay)) / grid.tile_height).astype(np.int64)
        inside = (xs >= 0) & (xs < grid.width) & (ys >= 0) & (ys < grid.height)
        mask[ys[inside], xs[inside]] = True
