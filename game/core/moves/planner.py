"""Movement planner: every square a figure can reach this move, and the cheapest legal path.

The search is Dijkstra over states (square, facing, diagonal parity, feet flown straight since
the last facing change, height, feet since the last climb). Costs are feet of movement. Facing
rules (seed 000, Maneuverability) are constraints on which step may follow which state; see
docs/movement.md for the rules and the choices made where the documents are silent.
"""
from __future__ import annotations

import heapq
import weakref
from fractions import Fraction

from ..battlemap import BattleMap
from ..errors import RulesError
from ..figure import Figure
from ..geometry import DELTA_TO_DIRECTION, DIRECTION_DELTAS, FACINGS, is_diagonal, turn_octants
from ..ruleset import Ruleset
from .path import (MODES, SIDESTEP_DIRECTIONS, WITHDRAW_DIRECTIONS, MoveParams, Path, ReachEntry, Step, plain_number,
                   end_facings)


class Planner:
    """Plans moves for figures on one map under one ruleset."""

    def __init__(self, bmap: BattleMap, ruleset: Ruleset):
        self.map = bmap
        self.ruleset = ruleset
        grid = ruleset.section("grid")
        self.diagonal = grid["diagonal"]
        self.corner_cutting = grid["corner_cutting"]
        self.climb_step_ft = grid["climb_step_ft"]
        self.difficult_multiplier = ruleset.section("movement")["difficult_multiplier"]
        self._prepare_grid()

    # ----- grid preparation: a padded, flattened copy of the map for a fast inner loop -----
    def _prepare_grid(self) -> None:
        grid = _GRIDS.get(self.map)
        if grid is None:
            grid = _GRIDS[self.map] = _FlatGrid(self.map)
        self.stride = grid.stride
        self._passable = grid.passable
        self._wall = grid.wall
        self._difficult = grid.difficult
        self._elevation = grid.elevation
        self._top = grid.top
        self._offsets = [dx + dy * self.stride for dx, dy in DIRECTION_DELTAS]

    def index(self, x: int, y: int) -> int:
        return (y + 1) * self.stride + (x + 1)

    def square(self, idx: int) -> tuple[int, int]:
        y, x = divmod(idx, self.stride)
        return (x - 1, y - 1)

    # ----- rules -> parameters -----
    def params(self, figure: Figure, mode: str) -> MoveParams:
        rs = self.ruleset
        mv = rs.section("movement")
        fc = rs.section("facing")
        if mode not in MODES:
            raise RulesError(f"unknown movement mode {mode!r}: use one of {', '.join(MODES)}")
        incorporeal = figure.flyer == "incorporeal" and fc["incorporeal_flyers_turn_free"]
        turning = figure.turning_ft
        if mode in ("walk", "withdraw", "sidestep"):
            budget = figure.move_ft
            max_turn = fc["walk_turn_max_deg"] // 45
        elif mode == "jog":
            if not mv["jog_multiplier"]:
                raise RulesError(f"{rs.name} has no jogging pace: use walk or run")
            budget = figure.move_ft * mv["jog_multiplier"]
            turning = rs.running_turning_ft(turning)
            max_turn = fc["run_turn_max_deg"] // 45
        else:  # run, charge
            budget = figure.move_ft * mv["run_multiplier"]
            turning = rs.running_turning_ft(turning)
            max_turn = fc["run_turn_max_deg"] // 45
        directions = None
        keeps_facing = False
        max_steps = None
        if mode == "withdraw":
            budget = float(figure.move_ft * Fraction(mv["withdraw_fraction"]))
            directions = WITHDRAW_DIRECTIONS
            keeps_facing = True
        elif mode == "sidestep":
            directions = SIDESTEP_DIRECTIONS
            keeps_facing = True
            max_steps = 1
        return MoveParams(
            mode=mode,
            budget_ft=float(budget),
            turning_ft=0 if incorporeal else turning,
            max_turn=4 if incorporeal else max_turn,
            free_turning=incorporeal or turning == 0,
            directions=directions,
            keeps_facing=keeps_facing,
            flyer=figure.flyer,
            max_steps=max_steps,
        )

    # ----- the search -----
    def search(self, figure: Figure, mode: str = "walk", occupants: dict | None = None,
               budget_ft: float | None = None, ignore_turning: bool = False, goal: tuple | None = None) -> "SearchResult":
        """Dijkstra from the figure's square. `occupants` maps (x, y) -> Figure of everyone else.

        With `goal` = (square, facing or None, altitude or None) the search stops as soon as a
        state matching it settles: Dijkstra settles it at its least cost, so that path is the
        cheapest, and the rest of the reachable volume (large for flyers) is never explored.
        """
        p = self.params(figure, mode)
        if budget_ft is not None:
            p.budget_ft = budget_ft
        if ignore_turning:
            p.turning_ft, p.max_turn, p.free_turning = 0, 4, True
        return _run_search(self, figure, p, occupants or {}, goal)

    def reachable(self, figure: Figure, mode: str = "walk", occupants: dict | None = None) -> dict[tuple[int, int], ReachEntry]:
        """Every square the figure can move to in this mode (charges: Positioning.reach, by lanes)."""
        self._refuse_mode(figure, mode)
        return self.search(figure, mode, occupants).entries()

    def path_to(self, figure: Figure, target: tuple[int, int], mode: str = "walk",
                occupants: dict | None = None, facing: int | None = None,
                altitude_ft: int | None = None) -> tuple[Path | None, "SearchResult | None"]:
        """The cheapest legal path (searching only until the goal settles) and the search, or
        (None, search) when there is none; (None, None) for a square off the map.
        RulesError for a mode the figure may not use now. Why a square is out of reach is
        moves.explain's work: this module only searches."""
        occupants = occupants or {}
        self._refuse_mode(figure, mode)
        x, y = target
        if not self.map.in_bounds(x, y):
            return None, None
        result = self.search(figure, mode, occupants, goal=(target, facing, altitude_ft))
        return result.path_to(target, facing, altitude_ft), result

    def _refuse_mode(self, figure: Figure, mode: str) -> None:
        """Refuse a mode the figure may not use at all right now."""
        mv = self.ruleset.section("movement")
        if mode == "charge":
            raise RulesError("a charge is planned against a target: use the charge lane for that foe")
        if mode == "sidestep":
            if not mv["sidestep"]:
                raise RulesError(f"{self.ruleset.name} has no sidestep")
            if figure.running and "run" not in mv["sidestep_paces"]:
                raise RulesError(f"{figure.label} cannot sidestep while running: a sidestep is only allowed at walking pace")


class _FlatGrid:
    """The map's terrain as flat lists with a one-square wall border, so steps need no bounds checks.

    Built once per map (maps do not change during a battle) and shared by every Planner on it.
    """

    def __init__(self, m: BattleMap):
        self.stride = m.width + 2
        size = self.stride * (m.height + 2)
        self.passable = [False] * size
        self.wall = [True] * size
        self.difficult = [False] * size
        self.elevation = [0] * size
        self.top = [-1] * size  # height a flyer must clear to pass a blocking square; -1: never (and off-map)
        blocks = m.blocks_move.tolist()
        diff = m.difficult.tolist()
        elev = m.elevation_ft.tolist()
        obstacle = m.obstacle_height_ft.tolist()
        for y in range(m.height):
            base = (y + 1) * self.stride + 1
            for x in range(m.width):
                i = base + x
                self.passable[i] = not blocks[y][x]
                self.wall[i] = blocks[y][x]
                self.difficult[i] = diff[y][x]
                self.elevation[i] = elev[y][x]
                self.top[i] = -1 if blocks[y][x] and obstacle[y][x] <= 0 else elev[y][x] + obstacle[y][x]


_GRIDS: "weakref.WeakKeyDictionary[BattleMap, _FlatGrid]" = weakref.WeakKeyDictionary()


class SearchResult:
    def __init__(self, planner: Planner, figure: Figure, params: MoveParams, settled: dict, parents: dict,
                 start_state: tuple, occupants: dict):
        self.planner = planner
        self.figure = figure
        self.params = params
        self.settled = settled      # state -> cost
        self.parents = parents      # state -> (previous state, kind)
        self.start_state = start_state
        self.occupants = occupants

    def _end_facings(self, state: tuple) -> list[int]:
        stationary_free = self.planner.ruleset.section("facing")["stationary_turns_free"] and not self.figure.has_moved
        return end_facings(state, self.params, self.figure, self.start_state, stationary_free)

    def entries(self) -> dict[tuple[int, int], ReachEntry]:
        out: dict[tuple[int, int], ReachEntry] = {}
        planner = self.planner
        for state, cost in self.settled.items():
            sq = planner.square(state[0])
            entry = out.get(sq)
            if entry is None:
                entry = out[sq] = ReachEntry(cost_ft=cost, can_end=sq not in self.occupants)
            elif cost < entry.cost_ft:
                entry.cost_ft = cost
            for f in self._end_facings(state):
                if cost < entry.facings.get(f, float("inf")):
                    entry.facings[f] = cost
            alt = state[4] - planner._elevation[state[0]]
            if cost < entry.altitudes.get(alt, float("inf")):
                entry.altitudes[alt] = cost
        return out

    def best_state(self, target: tuple[int, int], facing: int | None, altitude_ft: int | None):
        idx = self.planner.index(*target)
        best = None
        for state, cost in self.settled.items():
            if state[0] != idx:
                continue
            if altitude_ft is not None and state[4] - self.planner._elevation[idx] != altitude_ft:
                continue
            if facing is not None and facing not in self._end_facings(state):
                continue
            # Among equally cheap ends: keep the altitude it has, then arrive already facing the
            # way asked (no last turn), then the state order (deterministic).
            altitude_change = abs(state[4] - self.planner._elevation[idx] - self.figure.altitude_ft)
            key = (cost, altitude_change, 0 if state[1] == facing or facing is None else 1, state)
            if best is None or key < best[0]:
                best = (key, state)
        return None if best is None else best[1]

    def path_to(self, target: tuple[int, int], facing: int | None = None, altitude_ft: int | None = None) -> Path | None:
        if target in self.occupants:
            return None
        state = self.best_state(target, facing, altitude_ft)
        if state is None:
            return None
        return self._build_path(state, facing)

    def _build_path(self, state: tuple, facing: int | None) -> Path:
        chain = []
        while state is not None:
            chain.append(state)
            state = self.parents.get(state, (None, ""))[0]
        chain.reverse()
        planner = self.planner
        rs = planner.ruleset
        fig = self.figure
        steps: list[Step] = []
        first = chain[0]
        steps.append(Step(fig.x, fig.y, fig.facing, fig.altitude_ft, 0, 0, "start", "", "starting square"))
        current_facing = fig.facing
        diagonals = fig.diagonals_moved
        for prev, cur in zip(chain, chain[1:]):
            kind = self.parents[cur][1]
            cost = self.settled[cur] - self.settled[prev]
            total = self.settled[cur]
            x, y = planner.square(cur[0])
            alt = cur[4] - planner._elevation[cur[0]]
            if kind in ("step", "turn+step"):
                px, py = planner.square(prev[0])
                direction = DELTA_TO_DIRECTION[(x - px, y - py)]
                rule, note = self._step_rule(direction, diagonals, (x, y), cost, kind, current_facing)
                if is_diagonal(direction):
                    diagonals += 1
                if not self.params.keeps_facing:
                    current_facing = direction
            else:
                rule, note = self._vertical_rule(kind, cost, cur[4] - prev[4])
            steps.append(Step(x, y, current_facing, alt, cost, total, kind, rule, note))
        last = chain[-1]
        if facing is not None and facing != current_facing:
            free = (last == first and not fig.has_moved) or self.params.free_turning
            rule = rs.cite("maneuverability")
            note = ("turns freely: it has not left its square" if last == first and not self.params.free_turning
                    else "turns freely" if free
                    else f"final facing change after {self.params.turning_ft} ft straight")
            steps.append(Step(steps[-1].x, steps[-1].y, facing, steps[-1].altitude_ft, 0, steps[-1].total_ft, "turn", rule, note))
        horizontal = sum(s.cost_ft for s in steps if s.kind in ("step", "turn+step"))
        stall = self._stalls(horizontal, steps[-1].altitude_ft)
        return Path(fig.id, self.params.mode, tuple(steps), steps[-1].total_ft, self.params.budget_ft, stall)

    def _stalls(self, horizontal_ft: float, end_altitude: int) -> bool:
        fig = self.figure
        if fig.flyer != "winged" or (fig.altitude_ft <= 0 and end_altitude <= 0):
            return False
        fraction = self.planner.ruleset.fraction("altitude", "stall_below_fraction")
        return horizontal_ft < fig.move_ft * fraction

    def _step_rule(self, direction: int, diagonals: int, dest, cost, kind, facing_before) -> tuple[str, str]:
        rs = self.planner.ruleset
        parts = []
        if is_diagonal(direction):
            if self.planner.diagonal == "5-10":
                nth = diagonals + 1
                parts.append(f"diagonal #{nth} costs {5 if nth % 2 else 10} ft (5-10 rule)")
                rule = rs.cite("5-10-diagonals")
            else:
                parts.append(f"diagonal ({self.planner.diagonal} rule)")
                rule = rs.cite("diagonals")
        else:
            parts.append("orthogonal step 5 ft")
            rule = rs.cite("movement")
        if self.planner._difficult[self.planner.index(*dest)]:
            parts.append(f"difficult terrain x{self.planner.difficult_multiplier}")
            rule = rs.cite("difficult-terrain")
        if kind == "turn+step":
            parts.insert(0, f"turns {FACINGS[facing_before]} to {FACINGS[direction]}")
            rule = rs.cite("maneuverability")
        if self.params.mode == "withdraw":
            parts.append("backing away, keeps facing")
            rule = rs.cite("fighting-withdrawal")
        if self.params.mode == "sidestep":
            parts.append("sidestep, keeps facing")
            rule = rs.cite("sidestep")
        return rule, "; ".join(parts)

    def _vertical_rule(self, kind: str, cost: float, delta_ft: int) -> tuple[str, str]:
        rs = self.planner.ruleset
        words = {
            "climb": f"climbs {delta_ft} ft after flying its maneuverability distance",
            "dive": f"dives {-delta_ft} ft (at up to {rs.section('altitude')['dive_multiplier']:g}x its move)",
            "rise": f"rises {delta_ft} ft straight up at half rate",
            "descend": f"descends {-delta_ft} ft",
        }
        return rs.cite("flyer-altitude"), f"{words[kind]}, {plain_number(cost)} ft"



def _run_search(planner: Planner, figure: Figure, p: MoveParams, occupants: dict, goal: tuple | None = None) -> SearchResult:
    """Dijkstra over (idx, facing, parity, straight_ft, height_ft, climb_credit_ft)."""
    rs = planner.ruleset
    alt_rules = rs.section("altitude")
    passable = planner._passable
    wall = planner._wall
    difficult = planner._difficult
    elevation = planner._elevation
    top = planner._top
    offsets = planner._offsets
    rule_510 = planner.diagonal == "5-10"
    no_diagonals = planner.diagonal == "none"
    diag_base = 5 * 2 ** 0.5 if planner.diagonal == "euclidean" else 5
    corner_cutting = planner.corner_cutting
    climb_step = planner.climb_step_ft
    dmul = planner.difficult_multiplier
    budget = p.budget_ft
    T = p.turning_ft
    flying = p.flyer != "none"
    winged = p.flyer == "winged"

    # Who blocks: foes block, allies may be passed through but not ended on.
    blocked = set()
    for (ox, oy), other in occupants.items():
        if other.side != figure.side and planner.map.in_bounds(ox, oy):
            if not flying or figure.altitude_ft < 10:
                blocked.add(planner.index(ox, oy))

    # Facing is irrelevant to a free-turning figure that steps in any direction: collapse it.
    collapse = p.free_turning and p.directions is None
    start_idx = planner.index(figure.x, figure.y)
    start_height = elevation[start_idx] + figure.altitude_ft
    # A move continued later in the round carries on the diagonal count and the straight run.
    start_parity = figure.diagonals_moved % 2 if rule_510 else 0
    start_straight = 0 if (collapse or p.keeps_facing) else min(int(figure.straight_ft), max(T, 0))
    start = (start_idx, -1 if collapse else figure.facing, start_parity, start_straight, start_height, 0)

    if p.directions is not None:
        step_dirs_by_facing = {f: (tuple((f + d) % 8 for d in p.directions), ()) for f in range(8)}
    elif collapse:
        step_dirs_by_facing = {-1: (tuple(range(8)), ())}
    else:
        step_dirs_by_facing = {}
        for f in range(8):
            turns = tuple(d for d in range(8) if d != f and turn_octants(f, d) <= p.max_turn)
            step_dirs_by_facing[f] = ((f,), turns)
    if no_diagonals:
        step_dirs_by_facing = {f: (tuple(d for d in a if d % 2 == 0), tuple(d for d in b if d % 2 == 0))
                               for f, (a, b) in step_dirs_by_facing.items()}

    max_height_above = alt_rules["max_altitude_ft"]
    if winged:
        start = start[:3] + (min(int(figure.straight_ft), max(T, figure.turning_ft, 5)),) + start[4:]
    # A winged climb is a maneuver like a turn: it needs its maneuverability distance flown
    # straight since the last turn or climb, so both share the straight-flight counter.
    climb_every = max(T, figure.turning_ft, 5)
    straight_cap = max(T, climb_every) if winged else T
    winged_climb = alt_rules["winged_climb_ft"]
    dive_mult = alt_rules["dive_multiplier"]
    float_up_cost = float(5 / Fraction(alt_rules["floater_climb_fraction"])) if Fraction(alt_rules["floater_climb_fraction"]) else None
    float_down_cost = float(5 / Fraction(alt_rules["floater_descend_fraction"])) if Fraction(alt_rules["floater_descend_fraction"]) else None

    # An even diagonal count is never worse than an odd one unless doubled steps can shift
    # which diagonals are the dear ones: flyers ignore difficult terrain.
    parity_dominates = not rule_510 or flying or not any(difficult)
    reached = _goal_test(planner, figure, p, start, goal)
    goal_cost = None  # once the goal settles, finish that cost level so ties are chosen as a full search would
    settled: dict = {}
    parents: dict = {start: (None, "start")}
    best: dict = {start: 0}
    best_straight: dict = {}
    heap = [(0, start)]
    pop, push = heapq.heappop, heapq.heappush
    max_steps = p.max_steps

    while heap:
        g, state = pop(heap)
        if goal_cost is not None and g > goal_cost + 1e-9:
            break
        if state in settled:
            continue
        idx, f, par, s, h, _ = state
        # Dominance: a state settled earlier (so no dearer) at the same square, facing and
        # height that can turn at least as soon, with a diagonal count at least as good.
        dom_key = (idx, f, h)
        seen = best_straight.get(dom_key)
        if seen is None:
            seen = best_straight[dom_key] = [-1, -1]
        if seen[par] >= s or (parity_dominates and par == 1 and seen[0] >= s):
            continue
        seen[par] = s
        settled[state] = g
        if goal_cost is None and reached is not None and reached(state):
            goal_cost = g
        if max_steps is not None and idx != start_idx:
            continue
        forward, turning_dirs = step_dirs_by_facing[f]
        can_turn = s >= T
        for turned, dirs in ((False, forward), (True, turning_dirs if can_turn else ())):
            for d in dirs:
                nidx = idx + offsets[d]
                if nidx in blocked:
                    continue
                if flying:
                    if not passable[nidx] and (top[nidx] < 0 or h < top[nidx]):
                        continue
                    if h < elevation[nidx]:
                        continue
                    nh = h
                else:
                    if not passable[nidx]:
                        continue
                    nh = elevation[nidx]
                    if abs(nh - h) > climb_step:
                        continue
                diagonal = d & 1
                if diagonal:
                    if not corner_cutting and (wall[idx + offsets[(d + 7) % 8]] or wall[idx + offsets[(d + 1) % 8]]):
                        if not flying or h < 10:
                            continue
                    if rule_510:
                        dist = 5 if par == 0 else 10
                        npar = par ^ 1
                    else:
                        dist = diag_base
                        npar = 0
                else:
                    dist = 5
                    npar = par
                cost = dist * dmul if (difficult[nidx] and not flying) else dist
                ng = g + cost
                if ng > budget + 1e-9:
                    continue
                if collapse or p.keeps_facing:
                    nf, ns = f, 0
                else:
                    nf = d
                    ns = (0 if turned else s) + dist
                    if ns > straight_cap:
                        ns = straight_cap
                nstate = (nidx, nf, npar, ns, nh, 0)
                if ng < best.get(nstate, 1e18):
                    best[nstate] = ng
                    parents[nstate] = (state, "turn+step" if turned else "step")
                    push(heap, (ng, nstate))
        if flying:
            floor = elevation[idx]
            for kind, nh, ns, cost in _vertical_moves(p.flyer, h, s, floor, max_height_above, climb_every,
                                                       winged_climb, dive_mult, float_up_cost, float_down_cost):
                ng = g + cost
                if ng > budget + 1e-9:
                    continue
                nstate = (idx, f, par, ns, nh, 0)
                if ng < best.get(nstate, 1e18):
                    best[nstate] = ng
                    parents[nstate] = (state, kind)
                    push(heap, (ng, nstate))
    return SearchResult(planner, figure, p, settled, parents, start, occupants)


def _goal_test(planner: Planner, figure: Figure, p: MoveParams, start: tuple, goal: tuple | None):
    """A predicate for states that end the move as asked, or None for a full search."""
    if goal is None:
        return None
    (x, y), facing, altitude_ft = goal
    if not planner.map.in_bounds(x, y):
        return None
    target = planner.index(x, y)
    floor = planner._elevation[target]
    stationary_free = planner.ruleset.section("facing")["stationary_turns_free"] and not figure.has_moved

    def reached(state: tuple) -> bool:
        if state[0] != target:
            return False
        if altitude_ft is not None and state[4] - floor != altitude_ft:
            return False
        return facing is None or facing in end_facings(state, p, figure, start, stationary_free)
    return reached


def _vertical_moves(flyer, h, straight, floor, max_above, climb_every, winged_climb, dive_mult, up_cost, down_cost):
    """Altitude changes available in place: (kind, new height, new straight-flight feet, cost in feet)."""
    moves = []
    if flyer == "winged":
        if straight >= climb_every and h + winged_climb <= floor + max_above:
            moves.append(("climb", h + winged_climb, 0, 0))
        drop = min(10, h - floor)
        if drop > 0:
            moves.append(("dive", h - drop, straight, drop / dive_mult))
    else:  # floaters and incorporeal flyers move straight up and down
        if up_cost is not None and h + 5 <= floor + max_above:
            moves.append(("rise", h + 5, straight, up_cost))
        if down_cost is not None and h - 5 >= floor:
            moves.append(("descend", h - 5, straight, down_cost))
    return moves
