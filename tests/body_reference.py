"""An exhaustive movement search for figures bigger than a square, written from docs/combat.md
(Figures bigger than a square) on top of movement_reference.Reference: the anchor moves as a
one-square figure would, and every state whose body does not fit is dropped. It shares no code
with game.core.moves (its own cells, its own checks).
"""
from __future__ import annotations

from movement_reference import DELTAS, SIDESTEP, Reference, octants


def body_cells(x, y, facing, footprint):
    across, along = footprint
    if across == along:
        return [(x + i, y + j) for i in range(across) for j in range(across)]
    dx, dy = DELTAS[facing]
    return [(x - k * dx, y - k * dy) for k in range(along)]


class BodyReference(Reference):
    def __init__(self, bmap, rs, fig, mode, occupants):
        super().__init__(bmap, rs, fig, mode, occupants)
        self.footprint = fig.footprint
        self.square = fig.footprint[0] == fig.footprint[1]
        self.taken = {}
        for pos, other in occupants.items():
            self.taken[pos] = other

    def fits(self, x, y, facing, h=None):
        """Every cell on the map, open, and the body's floors within one climb step of each other."""
        body = body_cells(x, y, facing, self.footprint)
        if not all(self.inside(cx, cy) and not self.bmap.blocks_move[cy, cx] for cx, cy in body):
            return False
        floors = [self.floor(cx, cy) for cx, cy in body]
        return max(floors) - min(floors) <= self.climb_step

    def on_foe(self, x, y, facing):
        return any(o.side != self.fig.side for c in body_cells(x, y, facing, self.footprint)
                   if (o := self.taken.get(c)) is not None)

    def on_anyone(self, x, y, facing):
        return any(c in self.taken for c in body_cells(x, y, facing, self.footprint))

    def cuts_corner(self, x, y, facing, d):
        """A diagonal step: does any cell of the new body pass a wall's corner (or the map's edge)?"""
        dx, dy = DELTAS[d]
        if self.corner_cutting or dx == 0 or dy == 0:
            return False
        for cx, cy in body_cells(x, y, facing, self.footprint):
            for sx, sy in ((cx - dx, cy), (cx, cy - dy)):
                if not self.inside(sx, sy) or self.bmap.blocks_move[sy, sx]:
                    return True
        return False

    def moves(self, state):
        out = []
        for cost, nxt in super().moves(state):
            nx, ny, nf = nxt[0], nxt[1], nxt[2]
            if (nx, ny) == state[:2]:
                out.append((cost, nxt))
                continue
            facing = self.fig.facing if self.square else nf
            d = DELTAS.index((nx - state[0], ny - state[1]))
            if not self.fits(nx, ny, facing) or self.on_foe(nx, ny, facing) or self.cuts_corner(nx, ny, facing, d):
                continue
            body = body_cells(nx, ny, facing, self.footprint)
            if self.square and not self.bmap.difficult[ny, nx] and any(self.bmap.difficult[cy, cx] for cx, cy in body):
                cost *= self.dmul   # a square body: any of its squares on difficult ground slows it
            # (a long body pays where its head steps: the rest follows the head's way)
            out.append((cost, nxt))
        return out

    def end_facings(self, state):
        got = super().end_facings(state)
        if self.square:
            return got
        x, y = state[0], state[1]
        return [g for g in got if self.fits(x, y, g) and not self.on_anyone(x, y, g)]

    def entries(self) -> dict:
        out = super().entries()
        for (x, y), entry in out.items():
            if self.square:
                entry[3] = not self.on_anyone(x, y, 0)
            else:
                entry[3] = (x, y) not in self.occupants and bool(entry[1])
        return out


class FlyingBodyReference(Reference):
    """A flying body (winged, floater or incorporeal), searched from the flyer rules of
    docs/movement.md and the body rules of docs/combat.md (Figures bigger than a square):

    - the body flies level at the state's height h; it is over each square it covers when h is at
      least that square's floor and, over a wall, at least the top of a wall with a stated height
      (never over a wall without one). On open ground whose floors are within one climb step of
      each other it may also be as low as its anchor's floor (it stands level with its anchor,
      as a walking body does);
    - the lowest it may dive or descend to is the least height at which it is over its squares;
      its altitude (and the altitude cap) is measured from its anchor's floor;
    - a step needs the body over its new squares, and passes a foe only 10 ft or more above that
      foe's floor (for every square with a foe on it); without corner cutting a diagonal step
      needs the body (as it faces after the step) over the squares where either half of the
      diagonal would have put it, which are each square's corners;
    - a body one square wide pivots about its head: an end facing needs the swung body over its
      squares at its height and on no other figure; a square body keeps its squares.
    """

    def __init__(self, bmap, rs, fig, mode, occupants):
        self.footprint = fig.footprint
        self.square = fig.footprint[0] == fig.footprint[1]
        self.taken = dict(occupants)
        super().__init__(bmap, rs, fig, mode, occupants)
        assert self.flying

    # ----- where the body may be -----
    def top(self, cx, cy):
        """The least height over a square: its floor, its wall's top, or None (a wall without a height)."""
        if not self.bmap.blocks_move[cy, cx]:
            return self.floor(cx, cy)
        height = int(self.bmap.obstacle_height_ft[cy, cx])
        return self.floor(cx, cy) + height if height > 0 else None

    def lowest(self, x, y, facing=None):
        """The least height the body anchored at (x, y) may fly at (None: it is never there)."""
        key = (x, y, self.fig.facing if facing is None or self.square else facing)
        memo = self.__dict__.setdefault("lowest_memo", {})
        if key not in memo:
            memo[key] = self.lowest_uncached(*key)
        return memo[key]

    def lowest_uncached(self, x, y, facing):
        body = body_cells(x, y, facing, self.footprint)
        if not all(self.inside(cx, cy) for cx, cy in body):
            return None
        floors = [self.floor(cx, cy) for cx, cy in body]
        if not any(self.bmap.blocks_move[cy, cx] for cx, cy in body) and max(floors) - min(floors) <= self.climb_step:
            return self.floor(x, y)
        tops = [self.top(cx, cy) for cx, cy in body]
        return None if None in tops else max(tops)

    def fits_air(self, x, y, facing, h):
        low = self.lowest(x, y, facing)
        return low is not None and h >= low

    def over_foe(self, x, y, facing, h):
        """Is the body, at h, on a square of a foe it is not 10 ft above?"""
        for cx, cy in body_cells(x, y, facing, self.footprint):
            other = self.taken.get((cx, cy))
            if other is not None and other.side != self.fig.side and h - self.floor(cx, cy) < 10:
                return True
        return False

    def on_anyone(self, x, y, facing):
        return any(c in self.taken for c in body_cells(x, y, facing, self.footprint))

    # ----- moves -----
    def moves(self, state):
        x, y, f, par, s, h, moved = state
        out = []
        if not self.must_dive and not (self.keeps == SIDESTEP and moved):
            for d in range(8):
                dx, dy = DELTAS[d]
                diagonal = dx != 0 and dy != 0
                if diagonal and self.rule == "none":
                    continue
                if self.keeps is not None:
                    if d not in [(f + k) % 8 for k in self.keeps]:
                        continue
                    turned, nf = False, f
                else:
                    turned, nf = d != f, d
                    if turned and not self.free and (octants(f, d) > self.max_turn or s < self.turning - 1e-9):
                        continue
                nx, ny = x + dx, y + dy
                if not self.fits_air(nx, ny, nf, h) or self.over_foe(nx, ny, nf, h):
                    continue
                if diagonal and not self.corner_cutting:
                    if not self.fits_air(x + dx, y, nf, h) or not self.fits_air(x, y + dy, nf, h):
                        continue
                if diagonal and self.rule == "5-10":
                    dist = 5 if par == 0 else 10
                elif diagonal and self.rule == "euclidean":
                    dist = 5 * 2 ** 0.5
                else:
                    dist = 5
                npar = par ^ 1 if diagonal and self.rule == "5-10" else par
                ns = s if self.keeps is not None else min((dist if turned else s + dist), self.cap)
                out.append((dist, (nx, ny, nf, npar, ns, h, True)))    # flyers pay no difficult ground
        if self.keeps != SIDESTEP:
            floor, lowest = self.floor(x, y), self.lowest(x, y, f)
            if self.winged:
                if (not self.must_dive and s >= self.climb_every - 1e-9
                        and h + self.climb <= floor + self.max_above):
                    out.append((0, (x, y, f, par, 0, h + self.climb, True)))
                if h > lowest:
                    drop = min(5 * self.dive_mult, h - lowest)
                    out.append((drop / self.dive_mult, (x, y, f, par, s, h - drop, True)))
            else:
                if self.rise is not None and h + 5 <= floor + self.max_above:
                    out.append((self.rise, (x, y, f, par, s, h + 5, True)))
                if self.descend is not None and h - 5 >= lowest:
                    out.append((self.descend, (x, y, f, par, s, h - 5, True)))
        return out

    def end_facings(self, state):
        got = super().end_facings(state)
        if self.square:
            return got
        x, y, h = state[0], state[1], state[5]
        return [g for g in got if self.fits_air(x, y, g, h) and not self.on_anyone(x, y, g)]

    def entries(self) -> dict:
        out = super().entries()
        for (x, y), entry in out.items():
            if self.square:
                entry[3] = not self.on_anyone(x, y, 0)
            else:
                entry[3] = (x, y) not in self.occupants and bool(entry[1])
        return out
