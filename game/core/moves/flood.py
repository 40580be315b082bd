"""Is there any way at all from a figure's square to another: a flood of the map that ignores
budget, facing and the heights flown (the explainer's "walls, foes or drops close every way").

The flood from the figure's square grows a breadth at a time and is kept (later questions about
the same figure read it); a question about one square also searches back from that square toward
the figure's, best first, and the two stop as soon as they meet or either runs out. A square joined
to the figure's is found along about the straight way there; one cut off is found by exhausting
the smaller of the two sides (a walled pocket, or the figure's own), never the whole map.
"""
from __future__ import annotations

import heapq

from .grid import NEVER

_SLICE = 64     # squares each side takes in turn


class Flood:
    """The squares joined to the start by steps a figure could ever take (a walker keeping to its
    climb step when `ledges`), flooded as far as the questions so far needed."""

    def __init__(self, rules, ledges: bool):
        self.rules = rules
        self.ledges = ledges
        p = rules.params
        self.directions = tuple(range(8)) if p.directions is None else tuple(
            (rules.figure.facing + k) % 8 for k in p.directions)
        self.start = rules.start_idx
        self.seen = {self.start}
        self.frontier = [self.start]
        self.pos = 0
        self.done = False

    def _enter(self, n: int) -> bool:
        """May a step end on square n at all?"""
        grid = self.rules.grid
        if self.rules.flying:
            return grid.passable[n] or grid.top[n] != NEVER
        return grid.passable[n] and n not in self.rules.foes

    def _between(self, idx: int, n: int, d: int) -> bool:
        """May a step in direction d go from idx to n (ledges, wall corners)?"""
        rules = self.rules
        grid = rules.grid
        if not rules.flying and self.ledges and abs(grid.elevation[n] - grid.elevation[idx]) > rules.climb_step:
            return False
        if d & 1 and not rules.corner_cutting:
            offsets = grid.offsets
            a, b = idx + offsets[(d + 7) % 8], idx + offsets[(d + 1) % 8]
            if (grid.top[a] == NEVER and not grid.passable[a]) or (grid.top[b] == NEVER and not grid.passable[b]) \
                    or (not rules.flying and (grid.wall[a] or grid.wall[b])):
                return False
        return True

    def _grow(self, count: int, other: set) -> bool:
        """Flood `count` more squares (breadth first); True when one of them is in `other`."""
        offsets = self.rules.grid.offsets
        seen, frontier = self.seen, self.frontier
        end = self.pos + count
        met = False
        while self.pos < len(frontier) and self.pos < end and not met:
            idx = frontier[self.pos]
            self.pos += 1
            for d in self.directions:
                n = idx + offsets[d]
                if n in seen or not self._enter(n) or not self._between(idx, n, d):
                    continue
                seen.add(n)
                frontier.append(n)
                met = met or n in other
        if self.pos >= len(frontier):
            self.done = True
            self.frontier, self.pos = [], 0
        return met

    def everything(self) -> set:
        """The whole set of squares joined to the start."""
        while not self.done:
            self._grow(1 << 20, set())
        return self.seen

    def joins(self, target: int) -> bool:
        """Is square `target` (a flat index) joined to the start?"""
        if target in self.seen:
            return True
        if self.done or not self._enter(target):
            return False
        grid = self.rules.grid
        stride, offsets = grid.stride, grid.offsets
        sy, sx = divmod(self.start, stride)

        def apart(idx):
            y, x = divmod(idx, stride)
            return max(abs(x - sx), abs(y - sy))
        back = {target}
        heap = [(apart(target), target)]
        while True:
            # Back from the target, toward the start: squares from which a step could lead on.
            for _ in range(_SLICE):
                if not heap:
                    return False
                _key, m = heapq.heappop(heap)
                for d in self.directions:
                    idx = m - offsets[d]
                    if idx in back or not self._between(idx, m, d):
                        continue
                    if idx in self.seen:
                        return True
                    if not self._enter(idx):
                        continue
                    back.add(idx)
                    heapq.heappush(heap, (apart(idx), idx))
            if self._grow(_SLICE, back):
                return True
            if self.done:
                return target in self.seen
