"""The map's terrain as flat lists with a one-square wall border, read by the search's inner loop.

Squares are numbered `idx = (y + 1) * stride + (x + 1)`, so a step is one addition and the
border stops every step off the map without a bounds check. Built once per map (maps do not
change during a battle) and shared by every planner on it.
"""
from __future__ import annotations

import weakref
from itertools import compress

from ..values.battlemap import BattleMap
from ..values.geometry import DIRECTION_DELTAS

NEVER = float("inf")   # the height over a wall no flyer passes


class FlatGrid:
    def __init__(self, m: BattleMap):
        self.width = m.width
        self.height = m.height
        self.stride = m.width + 2
        size = self.stride * (m.height + 2)
        # Built a row at a time from the layers' rows (a 1000 x 1000 map is a million squares).
        blocks = m.blocks_move.tolist()
        diff = m.difficult.tolist()
        elev = m.elevation_ft.tolist()
        obstacle = m.obstacle_height_ft.tolist()
        passable, wall, difficult, elevation, top = ([False] * self.stride, [True] * self.stride, [False] * self.stride,
                                                     [0] * self.stride, [NEVER] * self.stride)
        for b, d, e, o in zip(blocks, diff, elev, obstacle):
            passable.append(False)
            passable += [not v for v in b]
            passable.append(False)
            wall.append(True)
            wall += b
            wall.append(True)
            difficult.append(False)
            difficult += d
            difficult.append(False)
            elevation.append(0)
            elevation += e
            elevation.append(0)
            # Height a flyer must be at to pass over a blocking square; NEVER (off the map, or a wall
            # with no stated height). A number, not a sign: a wall standing in a hollow tops out below 0.
            top.append(NEVER)
            top += [NEVER if bv and ov <= 0 else ev + ov for bv, ev, ov in zip(b, e, o)]
            top.append(NEVER)
        for cells, border in ((passable, False), (wall, True), (difficult, False), (elevation, 0), (top, NEVER)):
            cells += [border] * self.stride
            assert len(cells) == size
        self.passable, self.wall, self.difficult, self.elevation, self.top = passable, wall, difficult, elevation, top
        # The lowest a flyer may be over a square: its floor, or the top of what stands there.
        self.lowest = [e if p or t == NEVER else t for e, p, t in zip(self.elevation, self.passable, self.top)]
        self.any_difficult = any(self.difficult)
        self.offsets = tuple(dx + dy * self.stride for dx, dy in DIRECTION_DELTAS)
        self.tables: dict = {}   # per-square step tables the searches build lazily (dijkstra.walker_steps)

    def __getattr__(self, name: str):
        if name == "squares":   # idx -> (x, y) for every index, made the first time it is asked for
            self.squares = [(i % self.stride - 1, i // self.stride - 1) for i in range(len(self.passable))]
            return self.squares
        if name == "level":     # level.py's question, the first time it is asked
            self.level = self._level()
            return self.level
        raise AttributeError(name)

    def _level(self) -> tuple[float, float]:
        """(the highest floor, the highest top of an obstacle with a stated height): a flyer above
        both passes over anything it may pass over (walls' floors count: cheaper to read, rarely higher)."""
        tops = set(compress(self.top, self.wall))
        tops.discard(NEVER)
        return max(self.elevation), max(tops, default=-NEVER)

    def index(self, x: int, y: int) -> int:
        return (y + 1) * self.stride + (x + 1)

    def square(self, idx: int) -> tuple[int, int]:
        y, x = divmod(idx, self.stride)
        return (x - 1, y - 1)

    def in_bounds(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def flyer_blocked(self, idx: int, height: float) -> bool:
        """Can a flyer at this absolute height not be over this square (a wall it is not above, or ground above it)?"""
        if height < self.elevation[idx]:
            return True
        return not self.passable[idx] and height < self.top[idx]


_GRIDS: "weakref.WeakKeyDictionary[BattleMap, FlatGrid]" = weakref.WeakKeyDictionary()


def flat_grid(bmap: BattleMap) -> FlatGrid:
    grid = _GRIDS.get(bmap)
    if grid is None:
        grid = _GRIDS[bmap] = FlatGrid(bmap)
    return grid
