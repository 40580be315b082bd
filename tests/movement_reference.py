"""An exhaustive movement search written from docs/movement.md, for the planner's property tests.

No pruning and no shortcuts: a plain Dijkstra over full states (square, facing, diagonal
count parity, feet straight ahead since the last maneuver, height, whether the figure has
left its starting state), equal only when every part is equal. The straight
counter is capped at the largest distance any rule compares it with, which keeps states
finite and changes no answer. It shares no code with game.core.moves.
"""
from __future__ import annotations

import heapq
from fractions import Fraction

DELTAS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
WITHDRAW = (3, 4, 5)
SIDESTEP = (6, 2)


def octants(a: int, b: int) -> int:
    d = (b - a) % 8
    return min(d, 8 - d)


class Reference:
    def __init__(self, bmap, rs, fig, mode: str, occupants: dict):
        self.bmap, self.rs, self.fig, self.mode = bmap, rs, fig, mode
        mv, fc, al = rs.section("movement"), rs.section("facing"), rs.section("altitude")
        g = rs.section("grid")
        self.rule = g["diagonal"]
        self.climb_step = g["climb_step_ft"]
        self.corner_cutting = g["corner_cutting"]
        self.dmul = mv["difficult_multiplier"]
        running = mode in ("run", "jog")
        turning = fig.turning_ft
        if running:
            turning = (fc["run_turning_small_becomes_ft"] if turning <= fc["run_turning_small_ft"]
                       else turning + fc["run_turning_extra_ft"])
        self.max_turn = (fc["run_turn_max_deg"] if running else fc["walk_turn_max_deg"]) // 45
        budget = fig.move_ft * {"walk": 1, "run": mv["run_multiplier"], "jog": mv["jog_multiplier"],
                                "withdraw": Fraction(mv["withdraw_fraction"]), "sidestep": 1}[mode]
        self.budget = float(budget)
        if fig.flyer == "incorporeal" and fc["incorporeal_flyers_turn_free"]:
            turning = 0
        self.turning = turning
        self.free = turning == 0
        self.keeps = {"withdraw": WITHDRAW, "sidestep": SIDESTEP}.get(mode)
        self.winged = fig.flyer == "winged"
        self.flying = fig.flyer != "none"
        self.climb_every = max(turning, fig.turning_ft, 5)
        self.cap = max(turning, self.climb_every if self.winged else 0)
        self.climb = al["winged_climb_ft"]
        self.dive_mult = al["dive_multiplier"]
        self.max_above = al["max_altitude_ft"]
        up, down = Fraction(al["floater_climb_fraction"]), Fraction(al["floater_descend_fraction"])
        self.rise = float(5 / up) if up else None
        self.descend = float(5 / down) if down else None
        self.stationary_free = fc["stationary_turns_free"] and not fig.has_moved
        self.occupants = occupants
        self.must_dive = (fig.must_dive and self.winged
                          and self.floor(*fig.pos) + fig.altitude_ft > self.lowest(*fig.pos))

    # ----- terrain -----
    def floor(self, x, y):
        return int(self.bmap.elevation_ft[y, x])

    def lowest(self, x, y):
        """The lowest a flyer may be over (x, y): the floor, or the top of the obstacle there."""
        if self.bmap.blocks_move[y, x]:
            return self.floor(x, y) + int(self.bmap.obstacle_height_ft[y, x])
        return self.floor(x, y)

    def inside(self, x, y):
        return 0 <= x < self.bmap.width and 0 <= y < self.bmap.height

    def enterable(self, x, y, h):
        """May the figure be in (x, y) at height h (a walker: on its floor)."""
        if not self.inside(x, y):
            return False
        if not self.flying:
            return not self.bmap.blocks_move[y, x]
        if h < self.floor(x, y):
            return False
        if self.bmap.blocks_move[y, x]:
            top = int(self.bmap.obstacle_height_ft[y, x])
            return top > 0 and h >= self.floor(x, y) + top
        return True

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
                    turned = False
                else:
                    turned = d != f
                    if turned and not self.free and (octants(f, d) > self.max_turn or s < self.turning - 1e-9):
                        continue
                nx, ny = x + dx, y + dy
                if not self.enterable(nx, ny, h):
                    continue
                nh = h if self.flying else self.floor(nx, ny)
                if not self.flying and abs(nh - h) > self.climb_step:
                    continue
                if diagonal and not self.corner_cutting:
                    if not self.enterable(nx, y, h) or not self.enterable(x, ny, h):
                        continue
                other = self.occupants.get((nx, ny))
                if other is not None and other.side != self.fig.side:
                    if not (self.flying and h - self.floor(nx, ny) >= 10):
                        continue
                if diagonal:
                    if self.rule == "5-10":
                        dist = 5 if par == 0 else 10
                    elif self.rule == "euclidean":
                        dist = 5 * 2 ** 0.5
                    else:
                        dist = 5
                else:
                    dist = 5
                npar = par ^ 1 if diagonal and self.rule == "5-10" else par
                cost = dist * self.dmul if (self.bmap.difficult[ny, nx] and not self.flying) else dist
                if self.keeps is not None:
                    nf, ns = f, s
                else:
                    nf, ns = d, min((dist if turned else s + dist), self.cap)
                out.append((cost, (nx, ny, nf, npar, ns, nh, True)))
        if self.flying and self.keeps != SIDESTEP:
            floor = self.floor(x, y)
            lowest = self.lowest(x, y)
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
        x, y, f, par, s, h, moved = state
        if not moved and self.stationary_free and not self.must_dive:
            return range(8)
        if self.keeps is not None or self.must_dive:
            return (f,)
        if self.free:
            return range(8)
        if s >= self.turning - 1e-9:
            return [g for g in range(8) if octants(f, g) <= self.max_turn]
        return (f,)

    def may_end(self, state):
        x, y, f, par, s, h, moved = state
        if self.must_dive:
            return (x, y) == self.fig.pos and h == self.full_dive_height()
        return True

    def full_dive_height(self):
        h = self.floor(*self.fig.pos) + self.fig.altitude_ft
        floor = self.lowest(*self.fig.pos)
        spent = 0.0
        while h > floor:
            drop = min(5 * self.dive_mult, h - floor)
            if spent + drop / self.dive_mult > self.budget + 1e-9:
                break
            spent += drop / self.dive_mult
            h -= drop
        return h

    def start(self):
        fig = self.fig
        par = fig.diagonals_moved % 2 if self.rule == "5-10" else 0
        return (fig.x, fig.y, fig.facing, par, min(fig.straight_ft, self.cap), self.floor(fig.x, fig.y) + fig.altitude_ft,
                False)

    def search(self) -> dict:
        """Every state -> least cost (no pruning: states equal only when every part is)."""
        best = {}
        heap = [(0.0, self.start())]
        while heap:
            g, state = heapq.heappop(heap)
            if state in best:
                continue
            best[state] = g
            for cost, nxt in self.moves(state):
                if g + cost <= self.budget + 1e-9 and nxt not in best:
                    heapq.heappush(heap, (g + cost, nxt))
        return best

    def entries(self) -> dict:
        """(x, y) -> (least cost, {facing: least cost}, {altitude: least cost}, can end)."""
        out = {}
        for state, g in self.search().items():
            if not self.may_end(state):
                continue
            x, y, f, par, s, h, moved = state
            cost, facings, altitudes, _ = out.setdefault((x, y), [g, {}, {}, (x, y) not in self.occupants])
            out[(x, y)][0] = min(cost, g)
            for e in self.end_facings(state):
                facings[e] = min(facings.get(e, g), g)
            alt = h - self.floor(x, y)
            altitudes[alt] = min(altitudes.get(alt, g), g)
        return out
