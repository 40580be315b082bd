"""Movement planner: every square a figure can reach this move, and the cheapest legal path.

Dijkstra over search states (see rules.py for what a state holds), costs in feet. The step
rules are those of rules.MoveRules, applied here in one inlined loop because this is where
players wait; tests/test_planner_exhaustive.py and tests/test_follow.py hold the two together.
A search may stop when a goal settles and be resumed later (the "why not" explanations keep
unlimited searches and resume them square by square).
"""
from __future__ import annotations

import heapq
import threading

from ..battlemap import BattleMap
from ..errors import RulesError
from ..figure import Figure
from ..geometry import turn_octants
from ..ruleset import Ruleset
from .grid import flat_grid
from .path import MoveParams, Path, ReachEntry
from .rules import EPS, PASS_OVER_FT, MoveRules, move_params


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
        self.grid = flat_grid(bmap)
        self.stride = self.grid.stride
        self._elevation = self.grid.elevation

    def index(self, x: int, y: int) -> int:
        return self.grid.index(x, y)

    def square(self, idx: int) -> tuple[int, int]:
        return self.grid.square(idx)

    def params(self, figure: Figure, mode: str) -> MoveParams:
        return move_params(self.ruleset, figure, mode)

    def rules(self, figure: Figure, mode: str, occupants: dict | None = None, budget_ft: float | None = None,
              ignore_turning: bool = False, ignore_turn_angle: bool = False,
              ignore_turning_distance: bool = False) -> MoveRules:
        """The rules of this move, optionally relaxed (the explanations relax one rule at a time)."""
        p = self.params(figure, mode)
        if budget_ft is not None:
            p.budget_ft = budget_ft
        if ignore_turning:
            p.turning_ft, p.max_turn, p.free_turning = 0, 4, True
        if ignore_turn_angle:
            p.max_turn = 4
        if ignore_turning_distance:
            p.turning_ft = 0
        # Ignoring turning, a winged flyer also climbs without its straight stretch first (a climb is
        # a maneuver like a turn), which lets the relaxed search drop facing: far fewer states.
        return MoveRules(self.grid, self.ruleset, figure, p, occupants or {}, free_climbs=ignore_turning)

    def unstarted_search(self, figure: Figure, mode: str = "walk", occupants: dict | None = None,
                         **relax) -> "SearchResult":
        """A search that has settled nothing yet: `run`, `run_to` or `path_to` carry it as far as needed."""
        occupants = occupants or {}
        return SearchResult(self, figure, self.rules(figure, mode, occupants, **relax), occupants)

    # ----- the search -----
    def search(self, figure: Figure, mode: str = "walk", occupants: dict | None = None,
               budget_ft: float | None = None, ignore_turning: bool = False, goal: tuple | None = None,
               ignore_turn_angle: bool = False) -> "SearchResult":
        """Dijkstra from the figure's square. `occupants` maps (x, y) -> Figure of everyone else.

        With `goal` = (square, facing or None, altitude or None) the search stops once a state
        matching it settles and its cost level is finished (so ties are chosen as a full search
        would); the rest of the volume (large for flyers) is explored only if asked for later.
        """
        result = self.unstarted_search(figure, mode, occupants, budget_ft=budget_ft, ignore_turning=ignore_turning,
                                       ignore_turn_angle=ignore_turn_angle)
        if goal is None:
            result.run()
        else:
            result.run_to(*goal)
        return result

    def reachable(self, figure: Figure, mode: str = "walk", occupants: dict | None = None) -> dict[tuple[int, int], ReachEntry]:
        """Every square the figure can move to in this mode (charges: Positioning.reach, by lanes)."""
        self.refuse_mode(figure, mode)
        return self.search(figure, mode, occupants).entries()

    def path_to(self, figure: Figure, target: tuple[int, int], mode: str = "walk",
                occupants: dict | None = None, facing: int | None = None,
                altitude_ft: int | None = None) -> tuple[Path | None, "SearchResult | None"]:
        """The cheapest legal path (searching only until the goal settles) and the search, or
        (None, search) when there is none; (None, None) for a square off the map.
        RulesError for a mode the figure may not use now. Why a square is out of reach is
        moves.explain's work: this module only searches."""
        self.refuse_mode(figure, mode)
        x, y = target
        if not self.map.in_bounds(x, y):
            return None, None
        result = self.search(figure, mode, occupants, goal=(target, facing, altitude_ft))
        return result.path_to(target, facing, altitude_ft), result

    def refuse_mode(self, figure: Figure, mode: str) -> None:
        """Refuse a mode the figure may not use at all right now."""
        mv = self.ruleset.section("movement")
        if mode == "charge":
            raise RulesError("a charge is planned against a target: use the charge lane for that foe")
        if mode == "sidestep":
            if not mv["sidestep"]:
                raise RulesError(f"{self.ruleset.name} has no sidestep")
            if figure.running and "run" not in mv["sidestep_paces"]:
                raise RulesError(f"{figure.label} cannot sidestep while running: a sidestep is only allowed at walking pace")
        if figure.must_dive and figure.flyer == "winged" and figure.altitude_ft > 0 and mode != "walk":
            raise RulesError(f"{figure.label} stalled and must dive this move: its dive is a walk-pace move "
                             f"(mode walk), diving at its full rate")



class SearchResult:
    """A search that may be finished or stopped at a goal; `run`/`run_to` carry it on."""

    def __init__(self, planner: Planner, figure: Figure, rules: MoveRules, occupants: dict):
        self.planner = planner
        self.figure = figure
        self.rules = rules
        self.params = rules.params
        self.occupants = occupants
        self.start_state = rules.start
        self.settled: dict = {}     # state -> cost, in the order settled
        self.parents: dict = {rules.start: (None, "start")}   # state -> (previous state, kind)
        self.ties: dict = {}        # state -> more (previous state, kind) reaching it at the same cost
        self._best = {rules.start: 0.0}
        self._heap = [(0.0, rules.start)]
        self._dominance: dict = {}
        self.complete = False
        self._entries = None
        self._by_square = None
        # The window's planner thread and the resolver may share one cached search: one advances it at a time.
        self._lock = threading.RLock()

    # ----- running -----
    def run(self) -> None:
        if not self.complete:
            with self._lock:
                if not self.complete:
                    self._advance(None)

    def run_to(self, target, facing=None, altitude_ft=None) -> None:
        """Settle states until one ending the move as asked has settled, with its whole cost level."""
        if self.complete or self.best_state(target, facing, altitude_ft) is not None:
            return
        if not self.planner.map.in_bounds(*target):
            return
        rules, grid = self.rules, self.planner.grid
        idx = grid.index(*target)
        floor = grid.elevation[idx]

        def reached(state):
            if state[0] != idx or not rules.may_end(state):
                return False
            if altitude_ft is not None and state[4] - floor != altitude_ft:
                return False
            return facing is None or facing in rules.end_facings(state)
        with self._lock:
            if not self.complete and self.best_state(target, facing, altitude_ft) is None:
                self._advance(reached)

    def _advance(self, reached) -> None:
        rules = self.rules
        grid = self.planner.grid
        p = self.params
        passable, wall, difficult, elevation, top = grid.passable, grid.wall, grid.difficult, grid.elevation, grid.top
        lowest = grid.lowest
        offsets = grid.offsets
        rule_510 = rules.rule_510
        diag_ft = rules.diagonal_ft
        corner_cutting = rules.corner_cutting
        climb_step = rules.climb_step
        dmul = rules.difficult_multiplier
        budget = p.budget_ft + EPS
        T = rules.turning
        flying = rules.flying
        foes = rules.foes
        collapse = rules.collapse
        keeps = p.keeps_facing
        tracks = rules.tracks_straight
        cap = rules.straight_cap
        parity_dominates = rules.parity_dominates
        start_idx = rules.start_idx
        one_step = p.max_steps is not None
        steps_by_facing = _step_directions(rules)
        verticals = _vertical_moves(rules) if flying and not one_step else None
        settled, parents, ties, best, dominance = self.settled, self.parents, self.ties, self._best, self._dominance
        heap = self._heap
        pop, push = heapq.heappop, heapq.heappush
        goal_cost = None  # once the goal settles, finish that cost level so ties are kept as a full search would

        while heap:
            g, state = pop(heap)
            if goal_cost is not None and g > goal_cost + EPS:
                push(heap, (g, state))
                return
            if state in settled:
                continue
            idx, f, par, s, h = state
            # Dominance: a state settled strictly cheaper at the same square, facing and height
            # that can turn (and climb) at least as soon, with a diagonal count at least as good.
            # Equally cheap ones are kept: they are other routes of the same cost.
            dom_key = (idx, f, h)
            seen = dominance.get(dom_key)
            if seen is None:
                dominance[dom_key] = [(g, par, s)]
            else:
                pruned = False
                for g0, par0, s0 in seen:
                    if g0 < g - EPS and s0 >= s and (par0 == par or (parity_dominates and par0 == 0)):
                        pruned = True
                        break
                if pruned:
                    continue
                seen.append((g, par, s))
            settled[state] = g
            if goal_cost is None and reached is not None and reached(state):
                goal_cost = g
            if one_step and idx != start_idx:
                continue
            forward, turning_dirs = steps_by_facing[f]
            for turned, dirs in ((False, forward), (True, turning_dirs if s >= T - EPS else ())):
                for d in dirs:
                    nidx = idx + offsets[d]
                    if flying:
                        if h < elevation[nidx] or (not passable[nidx] and (top[nidx] < 0 or h < top[nidx])):
                            continue
                        if nidx in foes and h - elevation[nidx] < PASS_OVER_FT:
                            continue
                        nh = h
                    else:
                        if not passable[nidx] or nidx in foes:
                            continue
                        nh = elevation[nidx]
                        if nh - h > climb_step or h - nh > climb_step:
                            continue
                    if d & 1:
                        if not corner_cutting:
                            a, b = idx + offsets[(d + 7) & 7], idx + offsets[(d + 1) & 7]
                            if flying:
                                if (h < elevation[a] or (not passable[a] and (top[a] < 0 or h < top[a]))
                                        or h < elevation[b] or (not passable[b] and (top[b] < 0 or h < top[b]))):
                                    continue
                            elif wall[a] or wall[b]:
                                continue
                        if rule_510:
                            dist = 5 if par == 0 else 10
                            npar = par ^ 1
                        else:
                            dist = diag_ft
                            npar = 0
                    else:
                        dist = 5
                        npar = par
                    ng = g + (dist * dmul if (difficult[nidx] and not flying) else dist)
                    if ng > budget:
                        continue
                    if keeps:
                        nstate = (nidx, f, npar, s, nh)
                    elif collapse:
                        nstate = (nidx, -1, npar, 0, nh)
                    else:
                        ns = (dist if turned else s + dist) if tracks else 0
                        nstate = (nidx, d, npar, ns if ns < cap else cap, nh)
                    old = best.get(nstate)
                    if old is None or ng < old - EPS:
                        best[nstate] = ng
                        parents[nstate] = (state, "turn+step" if turned else "step")
                        if old is not None:
                            ties.pop(nstate, None)
                        push(heap, (ng, nstate))
                    elif ng <= old + EPS:
                        ties.setdefault(nstate, []).append((state, "turn+step" if turned else "step"))
            if verticals is not None:
                for kind, nh, ns, cost in verticals(h, s, elevation[idx], lowest[idx]):
                    ng = g + cost
                    if ng > budget:
                        continue
                    nstate = (idx, f, par, ns, nh)
                    old = best.get(nstate)
                    if old is None or ng < old - EPS:
                        best[nstate] = ng
                        parents[nstate] = (state, kind)
                        if old is not None:
                            ties.pop(nstate, None)
                        push(heap, (ng, nstate))
                    elif ng <= old + EPS:
                        ties.setdefault(nstate, []).append((state, kind))
        self.complete = True

    # ----- answers -----
    def entries(self) -> dict[tuple[int, int], ReachEntry]:
        if self._entries is not None:
            return self._entries
        self.run()
        with self._lock:
            if self._entries is None:
                self._entries = self._collect_entries()
        return self._entries

    def _collect_entries(self) -> dict[tuple[int, int], ReachEntry]:
        out: dict[tuple[int, int], ReachEntry] = {}
        rules = self.rules
        square = self.planner.grid.square
        elevation = self.planner.grid.elevation
        end_facings = rules.end_facings
        may_end = rules.may_end
        forced = rules.dive_end_height is not None
        for state, cost in self.settled.items():
            if forced and not may_end(state):
                continue
            idx = state[0]
            sq = square(idx)
            entry = out.get(sq)
            if entry is None:
                entry = out[sq] = ReachEntry(cost_ft=cost, can_end=idx not in rules.ends_blocked)
            elif cost < entry.cost_ft:
                entry.cost_ft = cost
            facings = entry.facings
            for f in end_facings(state):
                if cost < facings.get(f, 1e18):
                    facings[f] = cost
            alt = state[4] - elevation[idx]
            if cost < entry.altitudes.get(alt, 1e18):
                entry.altitudes[alt] = cost
        return out

    def end_states(self, target: tuple[int, int], facing: int | None, altitude_ft: int | None) -> list:
        """Settled states that may end the move on target as asked, cheapest first."""
        grid = self.planner.grid
        if not grid.in_bounds(*target):
            return []
        idx = grid.index(*target)
        rules = self.rules
        floor = grid.elevation[idx]
        out = []
        for state in self._states_at(idx):
            if not rules.may_end(state):
                continue
            if altitude_ft is not None and state[4] - floor != altitude_ft:
                continue
            if facing is not None and facing not in rules.end_facings(state):
                continue
            out.append(state)
        out.sort(key=lambda st: self._end_key(st, facing))
        return out

    def _end_key(self, state, facing):
        # Among equally cheap ends: keep the altitude it has, then arrive already facing the
        # way asked (no last turn), then the state order (deterministic).
        altitude_change = abs(self.rules.altitude(state) - self.figure.altitude_ft)
        return (self.settled[state], altitude_change, 0 if state[1] == facing or facing is None else 1, state)

    def _states_at(self, idx: int) -> list:
        if not self.complete:
            return [st for st in self.settled if st[0] == idx]
        if self._by_square is None:
            by_square: dict = {}
            for st in self.settled:
                by_square.setdefault(st[0], []).append(st)
            self._by_square = by_square
        return self._by_square.get(idx, [])

    def best_state(self, target: tuple[int, int], facing: int | None, altitude_ft: int | None):
        ends = self.end_states(target, facing, altitude_ft)
        return ends[0] if ends else None

    def path_to(self, target: tuple[int, int], facing: int | None = None, altitude_ft: int | None = None) -> Path | None:
        self.run_to(target, facing, altitude_ft)
        state = self.best_state(target, facing, altitude_ft)
        if state is None:
            return None
        return self.build_path(self.chain(state), facing)

    def chain(self, state) -> list:
        """The states from the start to this one, by the least of the equally cheap parents at each
        step: the same chain whatever order the search settled states in (a goal-directed search and
        the full one agree)."""
        out = [state]
        while state != self.start_state:
            state = self.tight_parents(state)[0][0]
            out.append(state)
        out.reverse()
        return out

    def tight_parents(self, state) -> list:
        """Every settled (previous state, kind) reaching this state at its cost (parents and ties), least first."""
        first = self.parents.get(state)
        if first is None or first[0] is None:
            return []
        ties = self.ties.get(state)
        if not ties:
            return [first]
        settled = self.settled
        return sorted({first, *(t for t in ties if t[0] in settled)})

    def build_path(self, chain: list, facing: int | None) -> Path:
        """The Path along a chain of states (and a last turn to `facing`), written by the rules' trace."""
        route = route_of(self.rules, chain, facing)
        path, states = self.rules.trace(route)
        return path


def route_of(rules: MoveRules, chain: list, facing: int | None) -> list[tuple[int, int, int, int]]:
    """The (x, y, facing, altitude) steps after the start along a chain of states, then a last turn."""
    grid = rules.grid
    keeps = rules.params.keeps_facing
    face = rules.figure.facing
    route = []
    for prev, cur in zip(chain, chain[1:]):
        x, y = grid.square(cur[0])
        if cur[0] != prev[0] and not keeps:
            px, py = grid.square(prev[0])
            face = _direction(x - px, y - py)
        route.append((x, y, face, cur[4] - grid.elevation[cur[0]]))
    if facing is not None and facing != face:
        x, y = grid.square(chain[-1][0])
        route.append((x, y, facing, chain[-1][4] - grid.elevation[chain[-1][0]]))
    return route


def _direction(dx: int, dy: int) -> int:
    from ..geometry import DELTA_TO_DIRECTION
    return DELTA_TO_DIRECTION[(dx, dy)]


def _step_directions(rules: MoveRules) -> dict:
    """facing -> (directions stepped without a facing change, directions that turn first)."""
    p = rules.params
    if rules.must_dive:
        table = {f: ((), ()) for f in range(-1, 8)}
    elif p.directions is not None:
        table = {f: (tuple((f + d) % 8 for d in p.directions), ()) for f in range(8)}
    elif rules.collapse:
        table = {-1: (tuple(range(8)), ())}
    else:
        table = {}
        for f in range(8):
            turns = tuple(d for d in range(8) if d != f and turn_octants(f, d) <= p.max_turn)
            table[f] = ((f,), turns)
    if rules.no_diagonals:
        table = {f: (tuple(d for d in a if d % 2 == 0), tuple(d for d in b if d % 2 == 0)) for f, (a, b) in table.items()}
    return table


def _vertical_moves(rules: MoveRules):
    """A function (height, straight, floor, lowest) -> altitude changes in place: (kind, new height, new
    straight, cost); `lowest` is the floor, or the top of an obstacle the flyer is over."""
    max_above = rules.max_above
    if rules.winged:
        climb_every, climb = rules.climb_every, rules.winged_climb
        dive_step, dive_mult = rules.dive_step, rules.dive_multiplier
        may_climb = not rules.must_dive

        def winged(h, s, floor, lowest):
            moves = []
            if may_climb and s >= climb_every - EPS and h + climb <= floor + max_above:
                moves.append(("climb", h + climb, 0, 0))
            if h > lowest:
                drop = dive_step if h - lowest > dive_step else h - lowest
                moves.append(("dive", h - drop, s, drop / dive_mult))
            return moves
        return winged
    up, down = rules.rise_cost, rules.descend_cost

    def floater(h, s, floor, lowest):
        moves = []
        if up is not None and h + 5 <= floor + max_above:
            moves.append(("rise", h + 5, s, up))
        if down is not None and h - 5 >= lowest:
            moves.append(("descend", h - 5, s, down))
        return moves
    return floater
