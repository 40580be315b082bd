"""The line-of-sight code as it was before lines were memoised by offset and answers cached
(game/core/moves/los.py before issue "faster where players wait"), kept word for word as a
reference: tests/core/test_sight_cache.py holds the memoised SightMap to it."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from game.core.values.battlemap import UNBOUNDED_HEIGHT_FT, BattleMap
from game.core.values.cover import COVER_DEGREES, COVER_INDEX

FULL = COVER_INDEX["full"]
BODY_MID_FT = 2.5  # height above its floor at which a figure is seen and aimed at (waist high)
_EPS = 1e-9


@dataclass(frozen=True)
class Sight:
    visible: bool
    cover: str                  # hard cover degree: none, 1/4, 1/2, 3/4, full
    concealment: str            # soft cover degree
    corner: tuple[int, int]     # the viewer's corner used (grid point)
    blockers: tuple[tuple[int, int, str], ...] = field(default=())  # squares that gave cover, with why

    def to_json(self) -> dict:
        return {
            "visible": self.visible, "cover": self.cover, "concealment": self.concealment,
            "blockers": [{"x": x, "y": y, "what": what} for x, y, what in self.blockers],
        }


def crossed_squares(x0: float, y0: float, x1: float, y1: float) -> list[tuple[int, int, float]]:
    """Squares a segment passes through or runs along, with the parameter t of the crossing.

    Touching a single corner point does not count; running along an edge counts for both
    squares that share it (a line grazing a wall's side is blocked by it).
    """
    dx, dy = x1 - x0, y1 - y0
    ts = {0.0, 1.0}
    if dx:
        lo, hi = sorted((x0, x1))
        for k in range(math.ceil(lo), math.floor(hi) + 1):
            t = (k - x0) / dx
            if 0 < t < 1:
                ts.add(t)
    if dy:
        lo, hi = sorted((y0, y1))
        for k in range(math.ceil(lo), math.floor(hi) + 1):
            t = (k - y0) / dy
            if 0 < t < 1:
                ts.add(t)
    ordered = sorted(ts)
    out: list[tuple[int, int, float]] = []
    seen = set()
    for a, b in zip(ordered, ordered[1:]):
        if b - a < _EPS:
            continue
        tm = (a + b) / 2
        mx, my = x0 + dx * tm, y0 + dy * tm
        xs = _cells_at(mx, dx == 0)
        ys = _cells_at(my, dy == 0)
        for cx in xs:
            for cy in ys:
                if (cx, cy) not in seen:
                    seen.add((cx, cy))
                    out.append((cx, cy, tm))
    return out


def sealed_corner_candidates(x0: float, y0: float, x1: float, y1: float, start=None, end=None):
    """Grid points where the segment passes from a square to its diagonal neighbour, touching
    the other two squares around the point only at that point: [(t, (bx, by), (cx, cy))].

    Those two squares seal the passage when both are walls (docs/geometry.md). An end of the
    segment on a grid point counts when the segment leaves `start` (or reaches `end`) through it.
    """
    dx, dy = x1 - x0, y1 - y0
    if not dx or not dy:
        return []
    sx, sy = (1 if dx > 0 else -1), (1 if dy > 0 else -1)
    out = []
    lo, hi = sorted((x0, x1))
    for k in range(math.ceil(lo - _EPS), math.floor(hi + _EPS) + 1):
        t = (k - x0) / dx
        y = y0 + t * dy
        py = round(y)
        if abs(y - py) > _EPS:
            continue
        before = (k - 1 if sx > 0 else k, py - 1 if sy > 0 else py)
        after = (k if sx > 0 else k - 1, py if sy > 0 else py - 1)
        if t < _EPS and before != start:
            continue
        if t > 1 - _EPS and after != end:
            continue
        out.append((min(max(t, 0.0), 1.0), (after[0], before[1]), (before[0], after[1])))
    return out


def _cells_at(coord: float, along_line: bool) -> tuple[int, ...]:
    nearest = round(coord)
    if along_line and abs(coord - nearest) < _EPS:
        return (nearest - 1, nearest)
    return (math.floor(coord),)


class SightMap:
    """Line of sight queries on one map, with figures standing in the way."""

    def __init__(self, bmap: BattleMap, figure_between_degree: str = "1/2"):
        self.map = bmap
        self.figure_degree = COVER_INDEX[figure_between_degree]

    def _height(self, x: int, y: int, altitude_ft: float) -> float:
        return float(self.map.elevation_ft[y, x]) + altitude_ft + BODY_MID_FT

    def _line(self, p0, p1, h0, h1, skip, standing, start=None, end=None) -> tuple[int, int, bool, list]:
        """(cover value, concealment value, sight blocked, blockers) for one line."""
        m = self.map
        cover = conceal = 0
        sight_blocked = False
        blockers = []
        for cx, cy, t in crossed_squares(p0[0], p0[1], p1[0], p1[1]):
            if (cx, cy) in skip or not m.in_bounds(cx, cy):
                continue
            line_h = h0 + (h1 - h0) * t
            floor = float(m.elevation_ft[cy, cx])
            if floor > line_h:  # the ground itself rises into the line: a ridge, a wall-walk's face
                cover, sight_blocked = FULL, True
                blockers.append((cx, cy, f"ground at {int(floor)} ft"))
                continue
            obstacle = int(m.obstacle_height_ft[cy, cx])
            top = floor + (obstacle if obstacle > 0 else UNBOUNDED_HEIGHT_FT)
            if line_h < top:
                if m.blocks_sight[cy, cx]:
                    sight_blocked = True
                    cover = FULL
                    blockers.append((cx, cy, "wall"))
                elif m.cover[cy, cx]:
                    value = int(m.cover[cy, cx])
                    if value > cover:
                        cover = value
                    blockers.append((cx, cy, f"{COVER_DEGREES[value]} cover"))
            if m.concealment[cy, cx] and line_h < floor + max(obstacle, 10):
                conceal = max(conceal, int(m.concealment[cy, cx]))
            occupant = standing.get((cx, cy))
            if occupant is not None and abs(line_h - (floor + occupant + BODY_MID_FT)) < 6:
                cover = max(cover, self.figure_degree)
                blockers.append((cx, cy, "figure"))
        for t, b, c in sealed_corner_candidates(p0[0], p0[1], p1[0], p1[1], start, end):
            line_h = h0 + (h1 - h0) * t
            if self._stops_sight(b, line_h) and self._stops_sight(c, line_h):
                cover, sight_blocked = FULL, True
                blockers.append((b[0], b[1], "wall corner"))
        return cover, conceal, sight_blocked, blockers

    def _stops_sight(self, square, line_h: float) -> bool:
        """Does this square stop a line passing at this height (a wall below its top, or the ground)?"""
        x, y = square
        m = self.map
        if not m.in_bounds(x, y):
            return False
        floor = float(m.elevation_ft[y, x])
        if floor > line_h:
            return True
        obstacle = int(m.obstacle_height_ft[y, x])
        top = floor + (obstacle if obstacle > 0 else UNBOUNDED_HEIGHT_FT)
        return bool(m.blocks_sight[y, x]) and line_h < top

    def _separates(self, square, line_h: float) -> bool:
        """Does this square stand between two figures at this height (a wall or obstacle, or the ground)?"""
        x, y = square
        m = self.map
        if not m.in_bounds(x, y):
            return False
        floor = float(m.elevation_ft[y, x])
        if floor > line_h:
            return True
        obstacle = int(m.obstacle_height_ft[y, x])
        top = floor + (obstacle if obstacle > 0 else UNBOUNDED_HEIGHT_FT)
        return bool(m.blocks_move[y, x] or m.blocks_sight[y, x]) and line_h < top

    def sight(self, a: tuple[int, int], b: tuple[int, int], altitude_a: float = 0, altitude_b: float = 0,
              standing: dict | None = None) -> Sight:
        """Cover and concealment of a target at b as seen from a viewer at a.

        `standing` maps (x, y) -> altitude_ft of other figures that may be in the way.
        """
        standing = {k: v for k, v in (standing or {}).items() if k != a and k != b}
        if a == b:
            return Sight(True, "none", "none", a)
        ha = self._height(a[0], a[1], altitude_a)
        hb = self._height(b[0], b[1], altitude_b)
        skip = {a, b}
        target_corners = [(b[0] + i, b[1] + j) for i in (0, 1) for j in (0, 1)]
        best = None
        visible = False
        for corner in ((a[0] + i, a[1] + j) for i in (0, 1) for j in (0, 1)):
            covers, conceals, all_blockers = [], [], []
            for tc in target_corners:
                c, k, blocked, blockers = self._line(corner, tc, ha, hb, skip, standing, a, b)
                covers.append(c)
                conceals.append(k)
                all_blockers.extend(blockers)
                visible = visible or not blocked
            key = (_mean_degree(covers), _mean_degree(conceals))
            if best is None or key < best[0]:
                best = (key, corner, tuple(dict.fromkeys(all_blockers)))
        (cover, conceal), corner, blockers = best
        own = int(self.map.concealment[b[1], b[0]])
        conceal = max(conceal, own)
        if not visible:
            cover = FULL
        return Sight(visible, COVER_DEGREES[cover], COVER_DEGREES[conceal], corner, blockers)

    def clear_line(self, a: tuple[int, int], b: tuple[int, int], altitude_a: float = 0, altitude_b: float = 0) -> bool:
        """True when a straight centre-to-centre line between the squares crosses no wall.

        Used for "not separated by an obstacle" (engagement, reach), which is stricter than sight.
        """
        ha = self._height(a[0], a[1], altitude_a)
        hb = self._height(b[0], b[1], altitude_b)
        x0, y0, x1, y1 = a[0] + 0.5, a[1] + 0.5, b[0] + 0.5, b[1] + 0.5
        for cx, cy, t in crossed_squares(x0, y0, x1, y1):
            if (cx, cy) in (a, b):
                continue
            if self._separates((cx, cy), ha + (hb - ha) * t):
                return False
        # Where the line passes exactly through a grid point from one square to its diagonal
        # neighbour, two walls meeting at that point seal it (neighbours and longer lines alike).
        for t, side_b, side_c in sealed_corner_candidates(x0, y0, x1, y1):
            line_h = ha + (hb - ha) * t
            if self._separates(side_b, line_h) and self._separates(side_c, line_h):
                return False
        return True


def _mean_degree(values: list[int]) -> int:
    return int(math.floor(sum(values) / len(values) + 0.5))
