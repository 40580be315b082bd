"""An exhaustive movement search for figures bigger than a square, written from docs/combat.md
(Figures bigger than a square) on top of movement_reference.Reference: the anchor moves as a
one-square figure would, and every state whose body does not fit is dropped. It shares no code
with game.core.moves (its own cells, its own checks).
"""
from __future__ import annotations

from movement_reference import DELTAS, Reference


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
