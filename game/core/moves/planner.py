"""Movement planner: every square a figure can reach this move, and the cheapest legal path.

Dijkstra over search states (see rules.py for what a state holds), costs in feet. The step
rules are those of rules.MoveRules, applied here in one inlined loop because this is where
players wait; tests/core/test_planner_exhaustive.py and tests/core/test_follow.py hold the two together.
A search may stop when a goal settles and be resumed later; one aimed at a goal (A*) stops too
once no state left can end there within the budget. The reachable sets are built in entries.py,
the explanations' costs without the way in costs.py.
"""
from __future__ import annotations

import sys
import threading

from ..values.battlemap import BattleMap
from ..values.errors import RulesError
from ..values.figure import Figure
from ..values.geometry import DELTA_TO_DIRECTION
from ..ruleset import Ruleset
from .dijkstra import advance_general, advance_walker, make_heuristic, walker_tight_parents, walker_unit
from .body_grid import big_body_setup
from .costs import least_cost
from .aimed import aimed_path
from .entries import collect_entries, like_the_sweep, walker_entries
from .grid import flat_grid
from .level import level_flight
from . import turner
from .path import MoveParams, Path, ReachEntry
from .rules import EPS, MoveRules, move_params


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
        self.capped: dict[int, Planner] = {}  # capped_planner's, by ceiling

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
        # A figure bigger than a square moves its anchor on the map as its body sees it (body_grid).
        grid, occupants, body, pass_over = big_body_setup(self.grid, figure, self.climb_step_ft, occupants or {},
                                                          figure.flyer != "none", self.corner_cutting)
        return MoveRules(grid, self.ruleset, figure, p, occupants, free_climbs=ignore_turning, body=body,
                         pass_over=pass_over)

    def unstarted_search(self, figure: Figure, mode: str = "walk", occupants: dict | None = None,
                         goal: tuple | None = None, level: str | None = None, **relax) -> "SearchResult":
        """A search that has settled nothing yet: `run`, `run_to` or `path_to` carry it as far as needed.
        With `goal` = (square, facing, altitude) it is aimed at that goal (A*): quick to reach it,
        and any other question about it runs it to the end. With `level` ("path", or "cost" for what
        the way costs only) and a goal at any height, a flyer is searched at the height it flies at
        where no height can matter (level.py: the same answers for ends at any height, paths but to
        a winged flyer's end over higher ground, none for a height asked; `.level` says it is one)."""
        occupants = occupants or {}
        rules = self.rules(figure, mode, occupants, **relax)
        if level and goal is not None and goal[2] is None and self.map.in_bounds(*goal[0]):
            level_flight(rules, self.grid.index(*goal[0]) if level == "path" else None)
        result = SearchResult(self, figure, rules, occupants, goal)
        result.asked = (mode, relax)
        return result

    # ----- the search -----
    def search(self, figure: Figure, mode: str = "walk", occupants: dict | None = None,
               budget_ft: float | None = None, ignore_turning: bool = False, goal: tuple | None = None,
               ignore_turn_angle: bool = False) -> "SearchResult":
        """Dijkstra from the figure's square. `occupants` maps (x, y) -> Figure of everyone else.

        With `goal` = (square, facing or None, altitude or None) the search stops once a state
        matching it settles and its cost level is finished (so ties are chosen as a full search
        would); the rest of the volume (large for flyers) is explored only if asked for later.
        """
        result = self.unstarted_search(figure, mode, occupants, goal=goal, budget_ft=budget_ft,
                                       ignore_turning=ignore_turning, ignore_turn_angle=ignore_turn_angle)
        if goal is None:
            result.in_full = True
        else:
            result.run_to(*goal)
        return result

    def reachable(self, figure: Figure, mode: str = "walk", occupants: dict | None = None) -> dict[tuple[int, int], ReachEntry]:
        """Every square the figure can move to in this mode (charges: Positioning.reach, by lanes)."""
        self.refuse_mode(figure, mode)
        return self.unstarted_search(figure, mode, occupants).entries()

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
    """A search that may be finished or stopped at a goal; `run`/`run_to` carry it on.

    Free-turning walkers are searched with integer states (dijkstra.advance_walker); `settled`,
    `parents` and `ties` present every search alike, as (idx, facing, parity, straight, height)
    tuples, converting the integer states the first time they are asked for.
    """

    def __init__(self, planner: Planner, figure: Figure, rules: MoveRules, occupants: dict, goal=None):
        self.planner = planner
        self.figure = figure
        self.rules = rules
        self.params = rules.params
        self.occupants = occupants
        self.start_state = rules.start
        self.walker = rules.collapse and (not rules.flying or rules.level_flight)
        self.level = rules.level_flight
        # A search aimed at one goal orders states by cost plus a lower bound of the cost still to go.
        self.goal = goal
        self._heuristic = None if goal is None else make_heuristic(rules, goal[0], goal[2])
        if self.walker:
            start_key = (rules.start_idx << 1) | rules.start[2]
            self.k_settled: dict = {}
            self.k_best = {start_key: 0.0}
            self.k_parents = {start_key: -1}
            self.k_unit = walker_unit(rules)
            self.k_bound: dict = {}     # the A* bound still to go per state, once worked out
            first_key = 0 if self._heuristic is None else self._heuristic(rules.start_idx, rules.start[2], 0)
            self.k_heap = [(first_key, start_key)]
            if self.k_unit is not None:
                # Whole feet. A key (cost + bound still to go) never passes twice the budget plus the
                # bound at the start: the bound grows by at most what each step costs.
                self.k_best[start_key] = 0
                top = 2 * int(rules.budget) + int(first_key)
                self.k_buckets = [[] for _ in range(top // self.k_unit + 2)]
                self.k_buckets[int(first_key) // self.k_unit].append(start_key)
                self.k_level = self.k_pos = 0
            self._converted = 0
        # Turning ground figures: integer states too (turner.py); None for the general search.
        self.n_width = None if self.walker else turner.turner_width(rules)
        if self.n_width is not None:
            turner.start_search(self)
        self.t_settled: dict = {}     # state -> cost, in the order settled
        self.t_parents: dict = {rules.start: (None, "start")}   # state -> (previous state, kind)
        self.t_ties: dict = {}        # state -> more (previous state, kind) reaching it at the same cost
        self.t_best = {rules.start: 0.0}
        self.t_heap = [(0.0 if self._heuristic is None else
                        self._heuristic(rules.start_idx, rules.start[2], rules.start[4]), rules.start)]
        self.dominance: dict = {}
        self.complete = False
        self.in_full = False    # asked to run in full: done the first time its states are read
        self._entries = None
        self._by_square = None
        self._paths: dict = {}            # (target, facing, altitude) -> path_to's answer, once complete
        self._chain_parents: dict = {}    # state -> the parent chain() follows, once complete
        self._aimed: dict = {}            # (target, altitude) -> a search aimed there (aimed.py)
        self.key_limit = float("inf")     # states keyed past it are never kept (aimed.py)
        self.asked = ("walk", {})         # the mode and relaxed rules it was made with
        # The window's planner thread and the resolver may share one cached search: one advances it at a time.
        self._lock = threading.RLock()

    # ----- the states, as tuples -----
    @property
    def settled(self) -> dict:
        self._views()
        return self.t_settled

    @property
    def parents(self) -> dict:
        self._views()
        return self.t_parents

    @property
    def ties(self) -> dict:
        self._views()
        return self.t_ties

    def _views(self) -> None:
        self._catch_up()
        if self.walker:
            self._convert()
        elif self.n_width is not None:
            with self._lock:
                turner.convert(self)

    def _catch_up(self) -> None:
        if self.in_full and not self.complete:
            self.run()

    def _convert(self) -> None:
        """Bring the tuple views up to date with the integer states settled so far (walkers only:
        a walker's settled state gains no more ways in, every step costing something)."""
        settled = self.k_settled
        if self._converted == len(settled):
            return
        with self._lock:
            elevation = self.rules.heights

            def tup(k):
                idx = k >> 1
                return (idx, -1, k & 1, 0, elevation[idx])
            keys = list(settled)[self._converted:]
            for k in keys:
                state = tup(k)
                self.t_settled[state] = settled[k]
                parent = self.k_parents[k]
                if parent >= 0:
                    self.t_parents[state] = (tup(parent), "step")
                    more = walker_tight_parents(self, k)[1:]
                    if more:
                        self.t_ties[state] = [(tup(t), "step") for t in more]
            self._converted += len(keys)

    # ----- running -----
    def run(self) -> None:
        if not self.complete:
            with self._lock:
                if not self.complete:
                    self._advance(None, None)

    def run_to(self, target, facing=None, altitude_ft=None) -> None:
        """Settle states until one ending the move as asked has settled, with its whole cost level."""
        if self.complete:
            return
        if self.in_full or (self.goal is not None and (tuple(self.goal[0]), self.goal[2]) != (tuple(target), altitude_ft)):
            # Ordered toward another goal: only a full search answers for this one. One at the same
            # square and altitude, whatever the facing, is ordered by the same bound: it carries on.
            self.run()
            return
        if self.best_state(target, facing, altitude_ft) is not None:
            return
        if not self.planner.map.in_bounds(*target):
            return
        idx, reached = self._goal_test(target, facing, altitude_ft)
        if self._beyond_budget():
            return  # even the open-ground way there costs more than the move has: no end to find
        with self._lock:
            if not self.complete and self.best_state(target, facing, altitude_ft) is None:
                self._advance(idx, reached)

    def _goal_test(self, target, facing, altitude_ft):
        """(the target's index, does a state end the move there as asked)."""
        rules, grid = self.rules, self.planner.grid
        idx = grid.index(*target)
        floor = grid.elevation[idx]

        def reached(state):
            if state[0] != idx or not rules.may_end(state):
                return False
            if altitude_ft is not None and state[4] - floor != altitude_ft:
                return False
            return facing is None or facing in rules.end_facings(state)
        return idx, reached

    def _beyond_budget(self) -> bool:
        rules = self.rules
        return self._heuristic is not None and \
            self._heuristic(rules.start_idx, rules.start[2], rules.start[4]) > rules.budget + EPS

    def least_cost(self, target, facing=None, altitude_ft=None) -> float | None:
        """What the cheapest way to end on target as asked costs, or None when there is none within
        the budget: path_to(...).total_ft, found by a search aimed at this goal that stops at the
        first end it settles, without the way itself (costs.py; the explanations read only this)."""
        if self.goal is not None and tuple(self.goal) == (tuple(target), facing, altitude_ft) \
                and not self.complete and self.planner.map.in_bounds(*target):
            if self._beyond_budget():
                return None
            idx, reached = self._goal_test(target, facing, altitude_ft)
            found = least_cost(self, idx, reached)
            if found is not None:
                return found[0]
        path = self.path_to(target, facing, altitude_ft)
        return None if path is None else path.total_ft

    def _advance(self, goal_idx, reached) -> None:
        if self.walker:
            advance_walker(self, goal_idx, reached, self._heuristic)
        elif self.n_width is not None:
            turner.advance_turner(self, goal_idx, reached, self._heuristic)
        else:
            advance_general(self, goal_idx, reached, self._heuristic)

    # ----- answers -----
    def entries(self) -> dict[tuple[int, int], ReachEntry]:
        """Every square the move can end on or pass, with its least costs (per end facing and altitude)."""
        if self._entries is not None:
            return self._entries
        with self._lock:
            if self._entries is None:
                if self.walker:
                    self.run()
                    entries = self._walker_entries()
                elif self.n_width is not None:
                    self.run()
                    entries = turner.turner_entries(self)
                else:
                    entries = self._state_entries()
                self._entries = entries
        return self._entries

    def _state_entries(self) -> dict[tuple[int, int], ReachEntry]:
        """The reachable set of a move searched in tuple states; a flyer's free move is left to the
        vectorised sweep once it has settled more states than the sweep costs (see SWEEP_AFTER_STATES).
        Both give the same entries; a search handed over is resumed if its states are asked for."""
        if not self.complete and self.rules.free_flight:
            advance_general(self, None, None, self._heuristic, max_settled=SWEEP_AFTER_STATES)
            first_sweep = "numpy" not in sys.modules      # the sweep would import it
            if not self.complete and first_sweep and self._projected_states() <= FIRST_SWEEP_AFTER_STATES:
                advance_general(self, None, None, self._heuristic, max_settled=FIRST_SWEEP_AFTER_STATES)
            if not self.complete:
                entries = _volume_entries(self.rules)
                if entries is not None:
                    return entries
        self.run()
        entries = self._collect_entries()
        return like_the_sweep(entries) if self.rules.free_flight else entries

    def _projected_states(self) -> float:
        """How many states the whole search would settle, from those settled so far: at least the
        count so far times the cube of how much of the budget is still to come (the squares grow as
        its square and the heights reached with it; measured flights settle more)."""
        reached = max(self.t_settled.values())
        if reached <= 0:
            return float("inf")
        return len(self.t_settled) * (self.params.budget_ft / reached) ** 3

    def _walker_entries(self) -> dict[tuple[int, int], ReachEntry]:
        return walker_entries(self)

    def _collect_entries(self) -> dict[tuple[int, int], ReachEntry]:
        return collect_entries(self)

    def end_states(self, target: tuple[int, int], facing: int | None, altitude_ft: int | None) -> list:
        """Settled states that may end the move on target as asked, cheapest first."""
        assert not (self.level and altitude_ft is not None), "a level flight answers for ends at any height only"
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
        return (self.cost(state), altitude_change, 0 if state[1] == facing or facing is None else 1, state)

    def cost(self, state) -> float:
        """The least cost of a settled state (a walker's read off its integer state: no tuple views built)."""
        if self.walker:
            return self.k_settled[(state[0] << 1) | state[2]]
        if self.n_width is not None:
            return float(self.n_settled[turner.encode(state, self.n_width)])
        return self.settled[state]

    def _states_at(self, idx: int) -> list:
        self._catch_up()
        if self.walker:
            elevation = self.rules.heights[idx]
            return [(idx, -1, par, 0, elevation) for par in (0, 1) if (idx << 1) | par in self.k_settled]
        if self.n_width is not None:
            return turner.states_at(self, idx)
        if not self.complete:
            return [st for st in self.t_settled if st[0] == idx]
        if self._by_square is None:
            by_square: dict = {}
            for st in self.t_settled:
                by_square.setdefault(st[0], []).append(st)
            self._by_square = by_square
        return self._by_square.get(idx, [])

    def best_state(self, target: tuple[int, int], facing: int | None, altitude_ft: int | None):
        ends = self.end_states(target, facing, altitude_ft)
        return ends[0] if ends else None

    def path_to(self, target: tuple[int, int], facing: int | None = None, altitude_ft: int | None = None) -> Path | None:
        key = (tuple(target), facing, altitude_ft)
        got = self._paths.get(key, self)
        if got is not self:
            return got
        if self.in_full and not self.complete and self.rules.free_flight:
            # A flight whose reachable set came from the sweep (or is not asked yet): its whole search
            # settles every height of the move, a search aimed at the one end far fewer states.
            path = self._paths[key] = aimed_path(self, *key)
            return path
        self.run_to(target, facing, altitude_ft)
        state = self.best_state(target, facing, altitude_ft)
        path = None if state is None else self.build_path(self.chain(state), facing)
        if self.complete:
            # A finished search's answers are final: the AI asks for the same path from several plans.
            self._paths[key] = path
        return path

    def chain(self, state) -> list:
        """The states from the start to this one, by the least of the equally cheap parents at each
        step: the same chain whatever order the search settled states in (a goal-directed search and
        the full one agree)."""
        out = [state]
        # Paths to neighbouring squares share most of their chain: a finished search keeps each
        # state's chosen parent (its tight parents can no longer change).
        known = self._chain_parents if self.complete else {}
        while state != self.start_state:
            parent = known.get(state)
            if parent is None:
                parent = self.tight_parents(state)[0][0]
                if self.complete:
                    self._chain_parents[state] = parent
            state = parent
            out.append(state)
        out.reverse()
        return out

    def tight_parents(self, state) -> list:
        """Every settled (previous state, kind) reaching this state at its cost (parents and ties), least first."""
        if self.walker:
            return self._walker_tight_parents(state)
        if self.n_width is not None:
            self._catch_up()
            return turner.tight_parents(self, state)
        first = self.parents.get(state)
        if first is None or first[0] is None:
            return []
        ties = self.ties.get(state)
        if not ties:
            return [first]
        settled = self.settled
        return sorted({first, *(t for t in ties if t[0] in settled)})

    def _walker_tight_parents(self, state) -> list:
        """tight_parents for one walker state, worked out from the integer states alone (what the
        tuple views would hold for it, without converting every settled state)."""
        self._catch_up()
        k = (state[0] << 1) | state[2]
        if k not in self.k_settled or self.k_parents[k] < 0:
            return []
        elevation = self.rules.heights

        def tup(j):
            idx = j >> 1
            return (idx, -1, j & 1, 0, elevation[idx]), "step"
        ways = walker_tight_parents(self, k)
        if len(ways) == 1:
            return [tup(ways[0])]
        return sorted({tup(j) for j in ways})

    def build_path(self, chain: list, facing: int | None) -> Path:
        """The Path along a chain of states (and a last turn to `facing`), written by the rules' trace."""
        route = route_of(self.rules, chain, facing)
        path, states = self.rules.trace(route)
        return path


def projected_states(rules: MoveRules) -> float:
    """About how many states a whole search of this move settles, for choosing between one whole
    search and searches aimed at each end: the squares within the budget (a disc, or the map when
    smaller) times the states one square holds (a free-turning walker's two parities; a turning
    figure's facings, parities and straight runs; a flyer's heights as well). A guess, never an answer."""
    grid = rules.grid
    radius = rules.budget / 5 + 1
    squares = min(3.2 * radius * radius, grid.width * grid.height)
    per_square = 2 if rules.collapse and not rules.flying else 16
    if rules.flying:
        per_square *= rules.max_above / 5 + 1
    return squares * per_square


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
    return DELTA_TO_DIRECTION[(dx, dy)]


# A flyer's reachable set: the general search takes about 10 microseconds a state; the vectorised sweep
# (volume.py) costs ~1-2 ms for a small flight, a few ms more per million cells of its arrays, and
# the first time in a process numpy's import (~0.1 s of CPU). How many states a flight settles cannot
# be told before searching (a winged flyer on the ground settles 2 where the sweep's arrays hold a
# million cells; sky.toml's griffon 31614 of 190080), so the general search goes first and hands over
# to the sweep after SWEEP_AFTER_STATES (about what the sweep of a small flight costs); while numpy is
# not loaded (a command's one question) it carries on to FIRST_SWEEP_AFTER_STATES if the states so far
# do not already promise more. `python bench/bench_startup.py --flights` measures both.
SWEEP_AFTER_STATES = 200
FIRST_SWEEP_AFTER_STATES = 2000


def _volume_entries(rules):
    """A flyer's reachable set by the vectorised sweep (game/core/moves/volume.py), imported only
    here: it needs numpy, which walkers' searches and small flights (and the commands that only ask
    those) never load."""
    from .volume import volume_entries
    return volume_entries(rules)


def capped_planner(planner: Planner, ceiling_ft: int) -> Planner:
    """A planner whose flyers climb at most `ceiling_ft` above the floor (when that is below the
    ruleset's own ceiling): its states are a subset of the full planner's, so every path it finds
    is one the resolver accepts; a search over it is cheaper (the AI's candidate flights).

    Kept on the full planner, so it lives and dies with its moment of the battle: a process-wide
    cache kept other battles' maps alive, and emptying it freed them all inside one AI decision
    (0.7 s at 100 a side)."""
    rs = planner.ruleset
    full = rs.section("altitude")["max_altitude_ft"]
    cap = min(full, ceiling_ft)
    cap -= cap % 5
    if cap >= full:
        return planner
    got = planner.capped.get(cap)
    if got is None:
        got = planner.capped[cap] = Planner(planner.map, rs.with_altitude_cap(cap))
    return got
