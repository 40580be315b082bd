"""Which 5-ft squares a Tiled object stands on, in pixels turned into square indices.

An area (rectangle, polygon, ellipse, tile object) covers every square whose centre lies
inside it (half-open on the right and bottom edges, so two areas sharing an edge never
both claim a square). A polyline covers every square it passes through; a point, the
square containing it. Rotation is about the object's position, as in Tiled.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ...core.values.errors import DataFileError
from .objects import MapObject


class Grid:
    """Map size in squares and pixels per square; tracks a work budget against hostile shapes.

    Work is counted in squares looked at (an object's bounding box, clipped to the map), plus
    each step of a Python loop (the rows a polygon's edges cross, a polyline's samples) at
    STEP_COST and a fixed cost per object, each charged before it is done, so neither a few huge
    shapes nor a flood of small ones can take more than about a second.
    """

    WORK_BUDGET = 50_000_000
    OBJECT_COST = 64  # an object's fixed Python overhead, in squares' worth of work
    # One step of a Python loop (a polygon edge crossing a row, a polyline sample): what the budget
    # pays for in about 10 ns of work (a square of a box), so a whole budget is at most a second.
    STEP_COST = 100

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
    """The squares an object covers, as runs along rows: (row, first column, column after the last).

    Runs are what the map's layers are written in (one slice of a row each), so a big object
    costs its rows, not its squares, and a small object on a big map only its own squares.
    """

    runs: tuple[tuple[int, int, int], ...] = ()

    def any(self) -> bool:
        return bool(self.runs)

    def squares(self) -> set[tuple[int, int]]:
        """Every covered square as (x, y)."""
        return {(x, y) for y, start, stop in self.runs for x in range(start, stop)}

    def full(self, height: int, width: int) -> list[list[bool]]:
        """The same squares as rows of booleans over the whole map (for tests and small uses)."""
        whole = [[False] * width for _ in range(height)]
        for y, start, stop in self.runs:
            whole[y][start:stop] = [True] * (stop - start)
        return whole


NOTHING_COVERED = Coverage()


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
    return _to_world(obj, offset, [local])[0]


def covered(obj: MapObject, offset: tuple[float, float], grid: Grid) -> Coverage:
    """The squares the object covers."""
    grid.spend(grid.OBJECT_COST, obj.where)
    w, h = obj.width, obj.height
    if obj.shape == "point" or (obj.shape in ("rectangle", "ellipse", "text", "tile") and (w == 0 or h == 0)):
        square = grid.square_of(*anchor(obj, offset))
        return NOTHING_COVERED if square is None else Coverage(((square[1], square[0], square[0] + 1),))
    if obj.shape in ("rectangle", "text", "tile") and obj.rotation == 0:
        # The common case, thousands of times in a big map: plain arithmetic.
        left, top = tile_corner(obj) if obj.shape == "tile" else (0.0, 0.0)
        left, top = obj.x + offset[0] + left, obj.y + offset[1] + top
        return _box(left, top, left + w, top + h, grid, obj.where)
    if obj.shape == "polyline":
        return _polyline(_to_world(obj, offset, obj.points), grid, obj.where)
    if obj.shape == "ellipse":
        return _ellipse(obj, offset, grid)
    if obj.shape == "polygon":
        local = [(float(x), float(y)) for x, y in obj.points]
    elif obj.shape == "tile":
        left, top = tile_corner(obj)
        local = [(left, top), (left + w, top), (left + w, top + h), (left, top + h)]
    else:
        local = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
    return _polygon(_to_world(obj, offset, local), grid, obj.where)


def _to_world(obj: MapObject, offset, local) -> list[tuple[float, float]]:
    """Object-local pixel points turned by the object's rotation about its position, on the map."""
    angle = math.radians(obj.rotation)
    cos, sin = math.cos(angle), math.sin(angle)
    x0, y0 = obj.x + offset[0], obj.y + offset[1]
    return [(x0 + lx * cos - ly * sin, y0 + lx * sin + ly * cos) for lx, ly in local]


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
    return Coverage(tuple((row, left, right) for row in range(first, last)))


def _polygon(vertices: list[tuple[float, float]], grid: Grid, where: str) -> Coverage:
    """Even-odd scanlines through the square centres: each edge gives the rows it crosses a
    crossing x (the arithmetic exactly as numpy's row-by-vertex version had it)."""
    xs_, ys_ = [v[0] for v in vertices], [v[1] for v in vertices]
    first, last = _row_range(min(ys_), max(ys_), grid)
    left, right = _column_range(min(xs_), max(xs_), grid)
    if last <= first or right <= left:
        return NOTHING_COVERED
    th = grid.tile_height
    edges = list(zip(vertices, vertices[1:] + vertices[:1]))
    # Charged before the work: the squares of its box, and each row each edge crosses (the loop below)
    steps = sum(min(last, math.ceil(max(y0, y1) / th - 0.5) + 1) - max(first, math.ceil(min(y0, y1) / th - 0.5) - 1)
                for (_, y0), (_, y1) in edges if y0 != y1)
    grid.spend((last - first) * (right - left) + grid.STEP_COST * (max(0, steps) + len(vertices)), where)
    crossings: dict[int, list[float]] = {}
    for (x0, y0), (x1, y1) in edges:
        if y0 == y1:
            continue  # level: never crosses a centre line
        low, high = (y0, y1) if y0 < y1 else (y1, y0)
        # Rows whose centre c has low <= c < high, widened by one each way against rounding;
        # the test below is the exact one.
        for row in range(max(first, math.ceil(low / th - 0.5) - 1), min(last, math.ceil(high / th - 0.5) + 1)):
            c = (row + 0.5) * th
            if (y0 <= c) != (y1 <= c):
                t = (c - y0) / (y1 - y0)
                crossings.setdefault(row, []).append(x0 + t * (x1 - x0))
    runs = []
    for row in sorted(crossings):
        xs = sorted(crossings[row])
        for start_x, stop_x in zip(xs[0::2], xs[1::2]):
            start, stop = _column_range(start_x, stop_x, grid)
            start, stop = max(start, left), min(stop, right)
            if stop > start:
                runs.append((row, start, stop))
    return Coverage(tuple(runs))


def _ellipse(obj: MapObject, offset, grid: Grid) -> Coverage:
    corners = _to_world(obj, offset, [(0, 0), (obj.width, 0), (obj.width, obj.height), (0, obj.height)])
    first, last = _row_range(min(y for _, y in corners), max(y for _, y in corners), grid)
    left, right = _column_range(min(x for x, _ in corners), max(x for x, _ in corners), grid)
    if last <= first or right <= left:
        return NOTHING_COVERED
    grid.spend(4 * (last - first) * (right - left), obj.where)  # charged as testing every square
    angle = math.radians(obj.rotation)
    cos, sin = math.cos(angle), math.sin(angle)
    ox, oy = obj.x + offset[0], obj.y + offset[1]
    rx, ry = obj.width / 2, obj.height / 2
    tw, th = grid.tile_width, grid.tile_height

    def inside(col: int, dy: float) -> bool:  # the square centre test, as the numpy version wrote it
        dx = (col + 0.5) * tw - ox
        u = (dx * cos + dy * sin - rx) / rx
        v = (-dx * sin + dy * cos - ry) / ry
        return u * u + v * v <= 1.0

    # Along a row the inside squares are one run (an ellipse is convex): find the square nearest
    # the middle of the row's chord, then each end of the run by bisection.
    a1, a2 = cos / rx, -sin / ry
    runs = []
    for row in range(first, last):
        dy = (row + 0.5) * th - oy
        b1, b2 = (dy * sin - rx) / rx, (dy * cos - ry) / ry
        middle = (-(a1 * b1 + a2 * b2) / (a1 * a1 + a2 * a2) + ox) / tw - 0.5
        near = min(max(math.floor(middle), left), right - 1)
        seed = next((c for c in (near, near + 1) if c < right and inside(c, dy)), None)
        if seed is None:
            continue
        lo, hi = left, seed           # first inside column lies in (lo - 1, hi]
        if inside(lo, dy):
            hi = lo
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if inside(mid, dy) else (mid, hi)
        start = hi
        lo, hi = seed, right - 1      # last inside column lies in [lo, hi)
        if inside(hi, dy):
            lo = hi
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if inside(mid, dy) else (lo, mid)
        runs.append((row, start, lo + 1))
    return Coverage(tuple(runs))


def _polyline(points: list[tuple[float, float]], grid: Grid, where: str) -> Coverage:
    """Every square the line passes through, sampled four times a square along each segment
    (the samples exactly numpy.linspace's)."""
    step = min(grid.tile_width, grid.tile_height) / 4
    tw, th = grid.tile_width, grid.tile_height
    cells: set[tuple[int, int]] = set()
    for (ax, ay), (bx, by) in zip(points[:-1], points[1:]):
        samples = int(math.hypot(bx - ax, by - ay) / step) + 2
        grid.spend(grid.STEP_COST * samples, where)
        dt = 1.0 / (samples - 1)
        dx, dy = bx - ax, by - ay
        for i in range(samples):
            t = i * dt if i < samples - 1 else 1.0
            x, y = math.floor((ax + t * dx) / tw), math.floor((ay + t * dy) / th)
            if 0 <= x < grid.width and 0 <= y < grid.height:
                cells.add((y, x))
    if not cells:
        return NOTHING_COVERED
    ys = [y for y, _ in cells]
    xs = [x for _, x in cells]
    top, left = min(ys), min(xs)
    grid.spend((max(ys) - top + 1) * (max(xs) - left + 1), where)
    runs = []
    for y, x in sorted(cells):
        if runs and runs[-1][0] == y and runs[-1][2] == x:
            runs[-1] = (y, runs[-1][1], x + 1)
        else:
            runs.append((y, x, x + 1))
    return Coverage(tuple(runs))
