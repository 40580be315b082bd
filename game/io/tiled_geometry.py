"""Which 5-ft squares a Tiled object stands on, in pixels turned into square indices.

An area (rectangle, polygon, ellipse, tile object) covers every square whose centre lies
inside it (half-open on the right and bottom edges, so two areas sharing an edge never
both claim a square). A polyline covers every square it passes through; a point, the
square containing it. Rotation is about the object's position, as in Tiled.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..core.errors import DataFileError
from .tiled_objects import MapObject


class Grid:
    """Map size in squares and pixels per square; tracks a work budget against hostile shapes.

    Work is counted in squares looked at (an object's bounding box, clipped to the map), plus
    rows times vertices for polygons and a fixed cost per object, so neither a few huge shapes
    nor a flood of small ones can take more than about a second.
    """

    WORK_BUDGET = 50_000_000
    OBJECT_COST = 64  # an object's fixed Python overhead, in squares' worth of numpy work

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
                "terrain objects are too detailed or too many to place on the map within fivefoot's work "
                f"budget ({self.WORK_BUDGET:,} square tests); merge or simplify them",
            )

    def square_of(self, px: float, py: float) -> tuple[int, int] | None:
        x, y = math.floor(px / self.tile_width), math.floor(py / self.tile_height)
        return (x, y) if 0 <= x < self.width and 0 <= y < self.height else None


@dataclass(frozen=True)
class Coverage:
    """The squares an object covers: a box of rows and columns, and which squares of it.

    Kept to the object's bounding box so a small object on a big map costs only its own
    squares; `mask` None means every square of the box (an upright rectangle).
    """

    top: int
    left: int
    rows: int
    cols: int
    mask: np.ndarray | None = None  # bool [rows, cols]

    def any(self) -> bool:
        if self.rows <= 0 or self.cols <= 0:
            return False
        return self.mask is None or bool(self.mask.any())

    @property
    def region(self) -> tuple[slice, slice]:
        return slice(self.top, self.top + self.rows), slice(self.left, self.left + self.cols)

    def full(self, height: int, width: int) -> np.ndarray:
        """The same squares as a mask over the whole map (for tests and small uses)."""
        whole = np.zeros((height, width), dtype=bool)
        if self.any():
            whole[self.region] = True if self.mask is None else self.mask
        return whole


NOTHING_COVERED = Coverage(0, 0, 0, 0)


def tile_corner(obj: MapObject) -> tuple[float, float]:
    """A tile object's top-left corner relative to its position, before rotation.

    Tiled places the picture by its tileset's object alignment: on orthogonal maps, by default,
    the position is the bottom-left corner, so the picture hangs up from it.
    """
    ax, ay = obj.tile[0].alignment if obj.tile else (0.0, 1.0)
    return -ax * obj.width, -ay * obj.height


def anchor(obj: MapObject, offset: tuple[float, float]) -> tuple[float, float]:
    """The pixel point that places the object on one square (a spawn's square)."""
    if obj.shape == "point" or (obj.shape == "rectangle" and obj.width == 0 and obj.height == 0):
        local = (0.0, 0.0)
    elif obj.shape == "tile":
        left, top = tile_corner(obj)
        local = (left + obj.width / 2, top + obj.height / 2)
    elif obj.shape in ("polygon", "polyline"):
        xs, ys = zip(*obj.points)
        local = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    else:
        local = (obj.width / 2, obj.height / 2)
    return _to_world(obj, offset, np.array([local], dtype=float))[0]


def covered(obj: MapObject, offset: tuple[float, float], grid: Grid) -> Coverage:
    """The squares the object covers."""
    grid.spend(grid.OBJECT_COST, obj.where)
    w, h = obj.width, obj.height
    if obj.shape == "point" or (obj.shape in ("rectangle", "ellipse", "text", "tile") and (w == 0 or h == 0)):
        square = grid.square_of(*anchor(obj, offset))
        return NOTHING_COVERED if square is None else Coverage(square[1], square[0], 1, 1)
    if obj.shape in ("rectangle", "text", "tile") and obj.rotation == 0:
        # The common case, thousands of times in a big map: plain arithmetic, no arrays.
        left, top = tile_corner(obj) if obj.shape == "tile" else (0.0, 0.0)
        left, top = obj.x + offset[0] + left, obj.y + offset[1] + top
        return _box(left, top, left + w, top + h, grid, obj.where)
    if obj.shape == "polyline":
        return _polyline(_to_world(obj, offset, np.array(obj.points, dtype=float)), grid, obj.where)
    if obj.shape == "ellipse":
        return _ellipse(obj, offset, grid)
    if obj.shape == "polygon":
        local = np.array(obj.points, dtype=float)
    elif obj.shape == "tile":
        left, top = tile_corner(obj)
        local = np.array([(left, top), (left + w, top), (left + w, top + h), (left, top + h)], dtype=float)
    else:
        local = np.array([(0, 0), (w, 0), (w, h), (0, h)], dtype=float)
    return _polygon(_to_world(obj, offset, local), grid, obj.where)


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


def _column_range(low: float, high: float, grid: Grid) -> tuple[int, int]:
    first = max(0, math.ceil(low / grid.tile_width - 0.5))
    last = min(grid.width, math.ceil(high / grid.tile_width - 0.5))
    return first, last


def _box(x0: float, y0: float, x1: float, y1: float, grid: Grid, where: str) -> Coverage:
    first, last = _row_range(y0, y1, grid)
    left, right = _column_range(x0, x1, grid)
    if last <= first or right <= left:
        return NOTHING_COVERED
    grid.spend((last - first) * (right - left), where)
    return Coverage(first, left, last - first, right - left)


def _polygon(vertices: np.ndarray, grid: Grid, where: str) -> Coverage:
    first, last = _row_range(vertices[:, 1].min(), vertices[:, 1].max(), grid)
    left, right = _column_range(vertices[:, 0].min(), vertices[:, 0].max(), grid)
    if last <= first or right <= left:
        return NOTHING_COVERED
    grid.spend((last - first) * (len(vertices) + right - left), where)
    mask = np.zeros((last - first, right - left), dtype=bool)
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
    for row, crossings in enumerate(xs):
        crossings = crossings[np.isfinite(crossings)]
        for start_x, stop_x in zip(crossings[0::2], crossings[1::2]):
            start, stop = _column_range(start_x, stop_x, grid)
            if stop > start:
                mask[row, start - left:stop - left] = True
    return Coverage(first, left, *mask.shape, mask)


def _ellipse(obj: MapObject, offset, grid: Grid) -> Coverage:
    corners = _to_world(obj, offset, np.array([(0, 0), (obj.width, 0), (obj.width, obj.height), (0, obj.height)]))
    first, last = _row_range(corners[:, 1].min(), corners[:, 1].max(), grid)
    left, right = _column_range(corners[:, 0].min(), corners[:, 0].max(), grid)
    if last <= first or right <= left:
        return NOTHING_COVERED
    grid.spend(4 * (last - first) * (right - left), obj.where)  # a dozen float operations a square
    cy, cx = np.mgrid[first:last, left:right].astype(float)
    dx = (cx + 0.5) * grid.tile_width - (obj.x + offset[0])
    dy = (cy + 0.5) * grid.tile_height - (obj.y + offset[1])
    angle = math.radians(obj.rotation)
    lx = dx * math.cos(angle) + dy * math.sin(angle)
    ly = -dx * math.sin(angle) + dy * math.cos(angle)
    rx, ry = obj.width / 2, obj.height / 2
    return Coverage(first, left, last - first, right - left, ((lx - rx) / rx) ** 2 + ((ly - ry) / ry) ** 2 <= 1.0)


def _polyline(points: np.ndarray, grid: Grid, where: str) -> Coverage:
    step = min(grid.tile_width, grid.tile_height) / 4
    xs, ys = [], []
    for (ax, ay), (bx, by) in zip(points[:-1], points[1:]):
        samples = int(math.hypot(bx - ax, by - ay) / step) + 2
        grid.spend(samples, where)
        t = np.linspace(0.0, 1.0, samples)
        xs.append(np.floor((ax + t * (bx - ax)) / grid.tile_width).astype(np.int64))
        ys.append(np.floor((ay + t * (by - ay)) / grid.tile_height).astype(np.int64))
    x, y = np.concatenate(xs), np.concatenate(ys)
    inside = (x >= 0) & (x < grid.width) & (y >= 0) & (y < grid.height)
    x, y = x[inside], y[inside]
    if x.size == 0:
        return NOTHING_COVERED
    top, left = int(y.min()), int(x.min())
    shape = (int(y.max()) - top + 1, int(x.max()) - left + 1)
    grid.spend(shape[0] * shape[1], where)
    mask = np.zeros(shape, dtype=bool)
    mask[y - top, x - left] = True
    return Coverage(top, left, *shape, mask)
