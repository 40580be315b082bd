"""The map as a big body's anchor sees it, so the search moves bodies with its usual loops.

A square body (n x n) keeps its cells whatever its facing, so one derived grid answers for it:
an anchor square is passable when every cell of the body there is (on the map, open, floors
within a step of each other), a wall where any cell is one (so a diagonal step is judged for
each cell's corners), difficult where any cell is. Figures are spread the same way: an anchor
is held by a foe when any cell of the body there would be on it.

A body one square wide (1 x n) lies along its facing, so it has a grid per facing; the search's
state carries the facing, and `LongBody` checks the cells behind the head (the head is the
anchor, checked by the search as any one-square figure's square).
"""
from __future__ import annotations

from ..values.bodies import is_square_body, offsets
from .grid import NEVER, FlatGrid
from .rules import PASS_OVER_FT


# From this many squares a body's grid is worked out over whole numpy arrays (moves/volume.py is the
# other place numpy is used); smaller maps keep to lists and never load it.
WHOLE_ARRAYS_FROM = 20000


class BodyGrid(FlatGrid):
    """A FlatGrid whose squares are the anchors of a body with the given relative cells."""

    def __init__(self, base: FlatGrid, rel: tuple, climb_step: int, whole_arrays: bool | None = None):
        self.width, self.height, self.stride = base.width, base.height, base.stride
        self.offsets = base.offsets
        self.tables = {}
        if whole_arrays is None:
            whole_arrays = self.width * self.height >= WHOLE_ARRAYS_FROM
        if whole_arrays:
            self._build_arrays(base, rel, climb_step)
        else:
            self._build_rows(base, rel, climb_step)
        self.any_difficult = any(self.difficult)

    def _build_rows(self, base: FlatGrid, rel: tuple, climb_step: int) -> None:
        size = len(base.passable)
        self.passable = [False] * size
        self.wall = [True] * size
        self.difficult = [False] * size
        # The anchor's own floor: a body stands level with its anchor (heights read by the search).
        self.elevation = base.elevation
        self.top = [NEVER] * size      # off the map (some cell is) or over a wall without a height: never
        self.lowest = list(base.elevation)
        # Anchors whose cells are all on the map: a rectangle. Built a row of anchors at a time from
        # the base grid's rows shifted by each cell's offset (a 400 x 400 map is 160000 anchors).
        xs, ys = [dx for dx, _dy in rel], [dy for _dx, dy in rel]
        x0, x1 = max(0, -min(xs)), min(self.width, self.width - max(xs))
        shifts = [dy * self.stride + dx for dx, dy in rel]
        passable, wall, difficult, elevation, top = base.passable, base.wall, base.difficult, base.elevation, base.top
        for y in range(max(0, -min(ys)), min(self.height, self.height - max(ys))):
            a, b = base.index(x0, y), base.index(x1, y)
            if a >= b:
                break
            cols = [range(a + d, b + d) for d in shifts]
            floors = list(zip(*(elevation[c.start:c.stop] for c in cols)))
            open_ = map(all, zip(*(passable[c.start:c.stop] for c in cols)))
            row = [o and max(f) - min(f) <= climb_step for o, f in zip(open_, floors)]
            self.passable[a:b] = row
            self.wall[a:b] = map(any, zip(*(wall[c.start:c.stop] for c in cols)))
            self.difficult[a:b] = map(any, zip(*(difficult[c.start:c.stop] for c in cols)))
            for k, ok in enumerate(row):
                if not ok:
                    # A flyer's body must be above every cell: the highest of what each one needs.
                    i = a + k
                    need = max(elevation[i + d] if passable[i + d] else top[i + d] for d in shifts)
                    self.top[i] = need
                    if need != NEVER:
                        self.lowest[i] = need

    def _build_arrays(self, base: FlatGrid, rel: tuple, climb_step: int) -> None:
        """The same lists as _build_rows, worked out by numpy over whole arrays at once (a big map:
        160000 anchors in ~20 ms rather than ~0.2 s; numpy is loaded only for maps that big)."""
        import numpy as np
        shape = (self.height + 2, self.stride)
        passable = np.array(base.passable, dtype=bool).reshape(shape)
        wall = np.array(base.wall, dtype=bool).reshape(shape)
        difficult = np.array(base.difficult, dtype=bool).reshape(shape)
        elevation = np.array(base.elevation, dtype=np.int64).reshape(shape)
        need = np.where(passable, elevation, np.array(base.top, dtype=float).reshape(shape))
        xs, ys = [dx for dx, _dy in rel], [dy for _dx, dy in rel]
        x0, x1 = max(0, -min(xs)), min(self.width, self.width - max(xs))
        y0, y1 = max(0, -min(ys)), min(self.height, self.height - max(ys))
        out_pass = np.zeros(shape, dtype=bool)
        out_wall = np.ones(shape, dtype=bool)
        out_difficult = np.zeros(shape, dtype=bool)
        out_top = np.full(shape, NEVER)
        if x0 < x1 and y0 < y1:
            def cells(a):
                return [a[y0 + 1 + dy:y1 + 1 + dy, x0 + 1 + dx:x1 + 1 + dx] for dx, dy in rel]
            floors = cells(elevation)
            level = np.maximum.reduce(floors) - np.minimum.reduce(floors) <= climb_step
            anchors = np.logical_and.reduce(cells(passable)) & level
            block = (slice(y0 + 1, y1 + 1), slice(x0 + 1, x1 + 1))
            out_pass[block] = anchors
            out_wall[block] = np.logical_or.reduce(cells(wall))
            out_difficult[block] = np.logical_or.reduce(cells(difficult))
            out_top[block] = np.where(anchors, NEVER, np.maximum.reduce(cells(need)))
        self.passable = out_pass.ravel().tolist()
        self.wall = out_wall.ravel().tolist()
        self.difficult = out_difficult.ravel().tolist()
        self.elevation = base.elevation
        # Heights as the base grid has them: whole feet as ints, NEVER where no flyer passes.
        self.top = [NEVER if t == NEVER else int(t) for t in out_top.ravel().tolist()]
        self.lowest = [e if t == NEVER else t for e, t in zip(base.elevation, self.top)]


def body_grid(base: FlatGrid, rel: tuple, climb_step: int) -> FlatGrid:
    """The derived grid for a body (cached on the base grid: maps do not change in a battle)."""
    if len(rel) == 1:
        return base
    key = ("body", rel, climb_step)
    got = base.tables.get(key)
    if got is None:
        got = base.tables[key] = BodyGrid(base, rel, climb_step)
    return got


def spread_occupants(occupants: dict, rel: tuple, side: str) -> dict:
    """Occupants by the anchors a body (cells `rel`) cannot have without covering them; where a
    foe and an ally both would be covered, the foe (it blocks the way, an ally only the end)."""
    out: dict = {}
    for (qx, qy), other in sorted(occupants.items(), key=lambda kv: kv[1].side != side):
        for dx, dy in rel:
            out[(qx - dx, qy - dy)] = other
    return out


def pass_over_heights(base: FlatGrid, occupants: dict, rel: tuple, side: str) -> dict:
    """Anchor square -> the least height at which a flying body (cells `rel`) anchored there passes
    over the foes it would cover: 10 ft above the floor of each foe's own square."""
    out: dict = {}
    for (qx, qy), other in occupants.items():
        if other.side != side and base.in_bounds(qx, qy):
            need = base.elevation[base.index(qx, qy)] + PASS_OVER_FT
            for dx, dy in rel:
                anchor = (qx - dx, qy - dy)
                if need > out.get(anchor, -NEVER):
                    out[anchor] = need
    return out


class LongBody:
    """The cells behind the head of a 1 x n body: do they fit where the head goes, facing that way?"""

    def __init__(self, base: FlatGrid, footprint: tuple, climb_step: int, occupants: dict, side: str, flying: bool,
                 corner_cutting: bool = True):
        self.footprint = footprint
        self.flying = flying
        self.corner_cutting = corner_cutting
        self.offsets = base.offsets
        self.grids = []
        self.foes = []
        self.held = []
        self.pass_over = []     # per facing: head idx -> least height to fly over the foes the body covers
        for facing in range(8):
            rel = offsets(facing, footprint)
            self.grids.append(body_grid(base, rel, climb_step))
            foes, held = {}, {}
            for (ax, ay), other in spread_occupants(occupants, rel, side).items():
                if base.in_bounds(ax, ay):
                    idx = base.index(ax, ay)
                    held[idx] = other
                    if other.side != side:
                        foes[idx] = other
            self.foes.append(foes)
            self.held.append(held)
            heights = pass_over_heights(base, occupants, rel, side)
            self.pass_over.append({base.index(*sq): need for sq, need in heights.items() if base.in_bounds(*sq)})

    def blocked(self, idx: int, facing: int, height, step: int | None = None) -> bool:
        """Can the body not pass with its head at idx facing this way (walls, ledges, foes)? A
        diagonal `step` also may not cut a wall's corner with any cell (without corner cutting)."""
        grid = self.grids[facing]
        if self.flying:
            if grid.flyer_blocked(idx, height):
                return True
            if idx in self.foes[facing] and height < self.pass_over[facing][idx]:
                return True
        elif not grid.passable[idx] or idx in self.foes[facing]:
            return True
        if step is not None and step & 1 and not self.corner_cutting:
            # Each cell's corners are the squares beside it toward where it came from: the body
            # anchored one square back along each half of the diagonal covers exactly those.
            for side in ((step + 1) & 7, (step + 7) & 7):
                corner = idx - self.offsets[side]
                if (grid.flyer_blocked(corner, height) if self.flying else grid.wall[corner]):
                    return True
        return False

    def why_blocked(self, idx: int, facing: int) -> str:
        other = self.foes[facing].get(idx)
        if other is not None:
            return f"its body would be on {other.label}'s square: foes block movement"
        return "its body would be on a wall, off the map or across a ledge"

    def fits_end(self, idx: int, facing: int, height=None) -> bool:
        """May the move end with the head at idx facing this way (all cells free of figures and open)?"""
        if idx in self.held[facing]:
            return False
        if self.flying:
            return height is None or not self.grids[facing].flyer_blocked(idx, height)
        return self.grids[facing].passable[idx]

    def fitting(self, idx: int, facings, height) -> tuple:
        """The end facings among these that the body, its head at idx and at this height, fits in."""
        return tuple(g for g in facings if self.fits_end(idx, g, height))

    def lowest(self, idx: int, facing: int) -> float:
        """The least height a flying body with its head at idx, facing this way, may dive or descend to."""
        return self.grids[facing].lowest[idx]

    def filter_entries(self, entries: dict, grid: FlatGrid) -> dict:
        """Reach entries keeping only the end facings the body fits in (it pivots about its head)."""
        for (x, y), entry in entries.items():
            idx = grid.index(x, y)
            entry.facings = {g: c for g, c in entry.facings.items() if self.fits_end(idx, g)}
            entry.can_end = entry.can_end and bool(entry.facings)
        return entries


def big_body_setup(base: FlatGrid, figure, climb_step: int, occupants: dict, flying: bool,
                   corner_cutting: bool = True):
    """(grid, occupants, long body or None, pass-over heights by anchor square or None) for a
    figure's search: itself for a one-square figure."""
    fp = figure.footprint
    if fp == (1, 1):
        return base, occupants, None, None
    if is_square_body(fp):
        rel = offsets(0, fp)
        return (body_grid(base, rel, climb_step), spread_occupants(occupants, rel, figure.side), None,
                pass_over_heights(base, occupants, rel, figure.side))
    return base, occupants, LongBody(base, fp, climb_step, occupants, figure.side, flying, corner_cutting), None
