"""Line of sight and cover between two squares, by corner-to-corner lines (see docs/geometry.md).

From each corner of the viewer's square, four lines run to the four corners of the target's
square. Each line gets a cover value (0..4, from none to full) from what it crosses, and the
viewer uses its best corner. The target's cover is the mean of that corner's four lines,
rounded half up: a wall hiding one line in four is 1/4 cover, a low wall across all four
lines is that wall's own degree. Concealment is found the same way from soft cover, plus the
concealment of the target's own square. Heights matter: a line passes over anything lower
than the line's height where it crosses.
"""
from __future__ import annotations

import math
import weakref
from dataclasses import dataclass, field

from ..values.battlemap import UNBOUNDED_HEIGHT_FT, BattleMap
from ..values.cover import COVER_DEGREES, COVER_INDEX

FULL = COVER_INDEX["full"]
BODY_MID_FT = 2.5  # height above its floor at which a figure is seen and aimed at (waist high)
_EPS = 1e-9


@dataclass(frozen=True)
class Sight:
    """What one figure sees of another: whether at all, and the cover and concealment between them."""

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
    if x0.__class__ is int and y0.__class__ is int and x1.__class__ is int and y1.__class__ is int:
        # Grid point to grid point: it passes grid points only every |dx| / gcd columns (any other
        # column's y is at least 1 / |dx| from a whole number), so only those are looked at.
        columns = range(lo, hi + 1, abs(dx) // math.gcd(dx, dy))
    else:
        columns = range(math.ceil(lo - _EPS), math.floor(hi + _EPS) + 1)
    for k in columns:
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


class _Terrain:
    """What sight reads of a map, as plain nested lists (a layer's square read costs many list
    reads), with the answers worked out on it: the same map gives the same answers until it
    changes, and a changed map (a different fingerprint) gets a new _Terrain."""

    def __init__(self, m: BattleMap):
        self.width, self.height = m.width, m.height
        # Heights as floats, one float object per distinct value (a big map repeats a few heights:
        # a million squares would otherwise hold a million floats per table).
        elevation = m.elevation_ft.tolist()
        obstacle = m.obstacle_height_ft.tolist()
        floats: dict = {}
        tops: dict = {}
        conceal: dict = {}
        floor, top, conceal_top = [], [], []
        for erow, orow in zip(elevation, obstacle):
            width = len(erow)
            level = erow[0] if width and min(erow) == max(erow) else None
            if level is not None:     # a flat row (most rows): set where something stands
                f = floats.setdefault(level, float(level))
                floor.append([f] * width)
                trow = [tops.setdefault((f, 0), f + UNBOUNDED_HEIGHT_FT)] * width
                crow = [conceal.setdefault((f, 0), f + 10)] * width
                for i in [i for i, o in enumerate(orow) if o]:
                    o = orow[i]
                    trow[i] = tops.get((f, o)) or tops.setdefault((f, o), f + (o if o > 0 else UNBOUNDED_HEIGHT_FT))
                    crow[i] = conceal.get((f, o)) or conceal.setdefault((f, o), f + max(o, 10))
                top.append(trow)
                conceal_top.append(crow)
                continue
            fr = [floats.get(e) or floats.setdefault(e, float(e)) for e in erow]
            floor.append(fr)
            # The height below which the square's wall or cover stands in a line's way.
            top.append([tops.get((f, o)) or tops.setdefault((f, o), f + (o if o > 0 else UNBOUNDED_HEIGHT_FT))
                        for f, o in zip(fr, orow)])
            conceal_top.append([conceal.get((f, o)) or conceal.setdefault((f, o), f + max(o, 10))
                                for f, o in zip(fr, orow)])
        self.floor, self.top, self.conceal_top = floor, top, conceal_top
        self.blocks_sight = m.blocks_sight.tolist()
        self.blocks_move = m.blocks_move.tolist()
        self.cover = m.cover.tolist()
        self.concealment = m.concealment.tolist()
        self.sights: dict = {}      # (a, b, altitudes, figure degree, figures on the lines) -> Sight
        self.clear: dict = {}       # (a, b, altitudes) -> clear_line's answer
        self.visible: dict = {}     # (a, b, altitudes) -> visible's answer


def _fingerprint(m: BattleMap) -> tuple:
    return tuple(hash(a.tobytes()) for a in (m.elevation_ft, m.obstacle_height_ft, m.blocks_sight, m.blocks_move,
                                               m.cover, m.concealment)) + (m.width, m.height)


_TERRAINS: "weakref.WeakKeyDictionary[BattleMap, tuple]" = weakref.WeakKeyDictionary()
_CACHE_LIMIT = 200_000      # answers kept per map before the cache starts afresh


def terrain(m: BattleMap) -> _Terrain:
    """The map's sight tables (built once per map, again if the map changed)."""
    stamp = _fingerprint(m)
    got = _TERRAINS.get(m)
    if got is None or got[0] != stamp:
        got = _TERRAINS[m] = (stamp, _Terrain(m))
    return got[1]


# Corner-to-corner lines depend only on the offset between the two squares: each is worked out
# once per offset, relative to the viewer's square, and translated for every pair at that offset.
_CORNERS = ((0, 0), (0, 1), (1, 0), (1, 1))
_SIGHT_LINES: dict = {}
_CENTRE_LINES: dict = {}
_SEGMENTS: dict = {}


def _segment(ex: int, ey: int) -> tuple:
    """crossed_squares of the segment from grid point (0, 0) to (ex, ey): a line from one grid point
    to another crosses the same squares, moved, wherever it starts (neighbouring offsets share most)."""
    got = _SEGMENTS.get((ex, ey))
    if got is None:
        got = _SEGMENTS[(ex, ey)] = tuple(_grid_segment(ex, ey) if ex and ey else crossed_squares(0, 0, ex, ey))
    return got


def _grid_segment(ex: int, ey: int) -> list[tuple[int, int, float]]:
    """crossed_squares(0, 0, ex, ey) for a slanted segment (ex, ey both non-zero), by walking its
    crossings in order: the x crossings are i / |ex|, the y crossings j / |ey| (the same correctly
    rounded quotients crossed_squares computes, so equal crossings are equal floats and none lie
    closer than 1 / (|ex| |ey|)); tests/core/test_sight_cache.py compares the two."""
    nx, ny = abs(ex), abs(ey)
    floor = math.floor
    out: list[tuple[int, int, float]] = []
    i = j = 1
    prev = 0.0
    while True:
        tx = i / nx if i < nx else 1.0
        ty = j / ny if j < ny else 1.0
        t = tx if tx < ty else ty
        tm = (prev + t) / 2
        out.append((floor(ex * tm), floor(ey * tm), tm))
        if t == 1.0:
            return out
        if tx == t:
            i += 1
        if ty == t:
            j += 1
        prev = t


def _sight_lines(dx: int, dy: int):
    """(lines, squares, the same as a set) for a target at offset (dx, dy): per viewer corner, its four lines to the
    target's corners, each (crossed squares but the two ends as (x, y, t), sealed corners); and
    every square any of them crosses (the only squares where a figure can stand in the way)."""
    got = _SIGHT_LINES.get((dx, dy))
    if got is None:
        ends = {(0, 0), (dx, dy)}
        lines, squares = [], {}
        for i, j in _CORNERS:
            corner_lines = []
            for k, l in _CORNERS:
                x1, y1 = dx + k, dy + l
                crossed = tuple((cx + i, cy + j, t) for cx, cy, t in _segment(x1 - i, y1 - j)
                                if (cx + i, cy + j) not in ends)
                sealed = tuple(sealed_corner_candidates(i, j, x1, y1, (0, 0), (dx, dy)))
                corner_lines.append((crossed, sealed))
                squares.update(((cx, cy), None) for cx, cy, _t in crossed)
            lines.append(((i, j), corner_lines))
        got = _SIGHT_LINES[(dx, dy)] = (lines, tuple(squares), frozenset(squares))
    return got


def _centre_line(dx: int, dy: int):
    """clear_line's centre-to-centre line at offset (dx, dy): (crossed squares but the ends, sealed corners)."""
    got = _CENTRE_LINES.get((dx, dy))
    if got is None:
        x1, y1 = dx + 0.5, dy + 0.5
        crossed = tuple((cx, cy, t) for cx, cy, t in crossed_squares(0.5, 0.5, x1, y1) if (cx, cy) not in ((0, 0), (dx, dy)))
        got = _CENTRE_LINES[(dx, dy)] = (crossed, tuple(sealed_corner_candidates(0.5, 0.5, x1, y1)))
    return got


class SightMap:
    """Line of sight queries on one map, with figures standing in the way."""

    def __init__(self, bmap: BattleMap, figure_between_degree: str = "1/2"):
        self.map = bmap
        self.figure_degree = COVER_INDEX[figure_between_degree]
        self._terrain: _Terrain | None = None

    @property
    def terrain(self) -> _Terrain:
        if self._terrain is None:
            self._terrain = terrain(self.map)
        return self._terrain

    def _height(self, x: int, y: int, altitude_ft: float) -> float:
        return self.terrain.floor[y][x] + altitude_ft + BODY_MID_FT

    def _line(self, ax, ay, crossed, sealed, h0, h1, standing) -> tuple[int, int, bool, list]:
        """(cover value, concealment value, sight blocked, blockers) for one line from square (ax, ay)."""
        ter = self.terrain
        width, height = ter.width, ter.height
        floors, tops, conceal_tops = ter.floor, ter.top, ter.conceal_top
        blocks_sight, covers, concealment = ter.blocks_sight, ter.cover, ter.concealment
        cover = conceal = 0
        sight_blocked = False
        blockers = []
        rise = h1 - h0
        for rx, ry, t in crossed:
            cx, cy = ax + rx, ay + ry
            if not (0 <= cx < width and 0 <= cy < height):
                continue
            line_h = h0 + rise * t
            floor = floors[cy][cx]
            if floor > line_h:  # the ground itself rises into the line: a ridge, a wall-walk's face
                cover, sight_blocked = FULL, True
                blockers.append((cx, cy, f"ground at {int(floor)} ft"))
                continue
            if line_h < tops[cy][cx]:
                if blocks_sight[cy][cx]:
                    sight_blocked = True
                    cover = FULL
                    blockers.append((cx, cy, "wall"))
                elif covers[cy][cx]:
                    value = covers[cy][cx]
                    if value > cover:
                        cover = value
                    blockers.append((cx, cy, f"{COVER_DEGREES[value]} cover"))
            if concealment[cy][cx] and line_h < conceal_tops[cy][cx]:
                conceal = max(conceal, concealment[cy][cx])
            if standing:
                occupant = standing.get((cx, cy))
                if occupant is not None and abs(line_h - (floor + occupant + BODY_MID_FT)) < 6:
                    cover = max(cover, self.figure_degree)
                    blockers.append((cx, cy, "figure"))
        for t, (bx, by), (qx, qy) in sealed:
            line_h = h0 + rise * t
            b, c = (ax + bx, ay + by), (ax + qx, ay + qy)
            if self._stops_sight(b, line_h) and self._stops_sight(c, line_h):
                cover, sight_blocked = FULL, True
                blockers.append((b[0], b[1], "wall corner"))
        return cover, conceal, sight_blocked, blockers

    def _stops_sight(self, square, line_h: float) -> bool:
        """Does this square stop a line passing at this height (a wall below its top, or the ground)?"""
        x, y = square
        ter = self.terrain
        if not (0 <= x < ter.width and 0 <= y < ter.height):
            return False
        if ter.floor[y][x] > line_h:
            return True
        return bool(ter.blocks_sight[y][x]) and line_h < ter.top[y][x]

    def _separates(self, square, line_h: float) -> bool:
        """Does this square stand between two figures at this height (a wall or obstacle, or the ground)?"""
        x, y = square
        ter = self.terrain
        if not (0 <= x < ter.width and 0 <= y < ter.height):
            return False
        if ter.floor[y][x] > line_h:
            return True
        return bool(ter.blocks_move[y][x] or ter.blocks_sight[y][x]) and line_h < ter.top[y][x]

    def sight(self, a: tuple[int, int], b: tuple[int, int], altitude_a: float = 0, altitude_b: float = 0,
              standing: dict | None = None) -> Sight:
        """Cover and concealment of a target at b as seen from a viewer at a.

        `standing` maps (x, y) -> altitude_ft of other figures that may be in the way (figures on
        a and b themselves are not). Answers are kept per pair, altitudes and figures standing on
        the squares the lines cross: nothing else changes them while the map stays as it is.
        """
        if a == b:
            return Sight(True, "none", "none", a)
        ax, ay = a
        lines, squares, square_set = _sight_lines(b[0] - ax, b[1] - ay)
        in_way = ()
        if standing:
            if len(standing) < len(squares):
                in_way = frozenset((sq, alt) for sq, alt in standing.items()
                                   if (sq[0] - ax, sq[1] - ay) in square_set)
            else:
                in_way = frozenset(((ax + rx, ay + ry), standing[(ax + rx, ay + ry)]) for rx, ry in squares
                                   if (ax + rx, ay + ry) in standing)
        ter = self.terrain
        key = (a, b, altitude_a, altitude_b, self.figure_degree, in_way)
        got = ter.sights.get(key)
        if got is None:
            if len(ter.sights) > _CACHE_LIMIT:
                ter.sights.clear()
            got = ter.sights[key] = self._sight(a, b, altitude_a, altitude_b, dict(in_way), lines)
        return got

    def _sight(self, a, b, altitude_a, altitude_b, standing, lines) -> Sight:
        ha = self._height(a[0], a[1], altitude_a)
        hb = self._height(b[0], b[1], altitude_b)
        ax, ay = a
        best = None
        visible = False
        for (i, j), corner_lines in lines:
            covers, conceals, all_blockers = [], [], []
            for crossed, sealed in corner_lines:
                c, k, blocked, blockers = self._line(ax, ay, crossed, sealed, ha, hb, standing)
                covers.append(c)
                conceals.append(k)
                all_blockers.extend(blockers)
                visible = visible or not blocked
            key = (_mean_degree(covers), _mean_degree(conceals))
            if best is None or key < best[0]:
                best = (key, (ax + i, ay + j), tuple(dict.fromkeys(all_blockers)))
            if key == (0, 0):
                # No corner does better, and none of its lines is blocked (a blocked line is full
                # cover, which no mean rounds to none): the other corners cannot change the answer.
                break
        (cover, conceal), corner, blockers = best
        own = self.terrain.concealment[b[1]][b[0]]
        conceal = max(conceal, own)
        if not visible:
            cover = FULL
        return Sight(visible, COVER_DEGREES[cover], COVER_DEGREES[conceal], corner, blockers)

    def visible(self, a: tuple[int, int], b: tuple[int, int], altitude_a: float = 0, altitude_b: float = 0) -> bool:
        """sight(a, b, ...).visible, found line by line until one is clear: figures give cover but
        never block a line, so only the ground, walls and sealed corners count (charge lanes ask this)."""
        if a == b:
            return True
        return _remembered(self.terrain.visible, (a, b, altitude_a, altitude_b), self._visible)

    def _visible(self, a, b, altitude_a, altitude_b) -> bool:
        ter = self.terrain
        width, height = ter.width, ter.height
        floors, tops, blocks_sight = ter.floor, ter.top, ter.blocks_sight
        ha = self._height(a[0], a[1], altitude_a)
        hb = self._height(b[0], b[1], altitude_b)
        rise = hb - ha
        ax, ay = a
        dx, dy = b[0] - ax, b[1] - ay
        for i, j in _CORNERS:
            for k, l in _CORNERS:
                x1, y1 = dx + k, dy + l
                blocked = False
                for rx, ry, t in _segment(x1 - i, y1 - j):
                    rx, ry = rx + i, ry + j
                    if (rx == 0 and ry == 0) or (rx == dx and ry == dy):
                        continue
                    cx, cy = ax + rx, ay + ry
                    if not (0 <= cx < width and 0 <= cy < height):
                        continue
                    line_h = ha + rise * t
                    if floors[cy][cx] > line_h or (line_h < tops[cy][cx] and blocks_sight[cy][cx]):
                        blocked = True
                        break
                if not blocked:
                    for t, (bx, by), (qx, qy) in sealed_corner_candidates(i, j, x1, y1, (0, 0), (dx, dy)):
                        line_h = ha + rise * t
                        if self._stops_sight((ax + bx, ay + by), line_h) and self._stops_sight((ax + qx, ay + qy), line_h):
                            blocked = True
                            break
                if not blocked:
                    return True
        return False

    def clear_line(self, a: tuple[int, int], b: tuple[int, int], altitude_a: float = 0, altitude_b: float = 0) -> bool:
        """True when a straight centre-to-centre line between the squares crosses no wall.

        Used for "not separated by an obstacle" (engagement, reach), which is stricter than sight.
        """
        return _remembered(self.terrain.clear, (a, b, altitude_a, altitude_b), self._clear_line)

    def _clear_line(self, a, b, altitude_a, altitude_b) -> bool:
        ha = self._height(a[0], a[1], altitude_a)
        hb = self._height(b[0], b[1], altitude_b)
        ax, ay = a
        crossed, sealed = _centre_line(b[0] - ax, b[1] - ay)
        rise = hb - ha
        for rx, ry, t in crossed:
            if self._separates((ax + rx, ay + ry), ha + rise * t):
                return False
        # Where the line passes exactly through a grid point from one square to its diagonal
        # neighbour, two walls meeting at that point seal it (neighbours and longer lines alike).
        for t, (bx, by), (qx, qy) in sealed:
            line_h = ha + rise * t
            if self._separates((ax + bx, ay + by), line_h) and self._separates((ax + qx, ay + qy), line_h):
                return False
        return True


def _mean_degree(values: list[int]) -> int:
    return int(math.floor(sum(values) / len(values) + 0.5))


def _remembered(cache: dict, key: tuple, compute) -> bool:
    """A terrain-only answer for (a, b, altitude_a, altitude_b), kept per map (cleared when full)."""
    got = cache.get(key)
    if got is None:
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        got = cache[key] = compute(*key)
    return got
