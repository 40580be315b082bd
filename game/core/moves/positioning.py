"""One place to ask positioning questions about a set of figures on a map under a ruleset.

The CLI, the renderer's overlays and the AI all read from this, so they never disagree.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING

from ..values.battlemap import BattleMap
from ..values.errors import RulesError
from ..values.figure import Figure
from ..values.geometry import FACINGS, bearing_octant
from ..ruleset import Ruleset
from ..values.bodies import occupancy
from .body_sight import body_sight
from .engagement import Engagement, PartingShot
from .grid import NEVER
from .level import answers_path
from .los import Sight, SightMap
from .path import Path, ReachEntry, Step, plain_number
from .planner import Planner, projected_states
from .shots import fewest_shots

# Ends one figure may have planned at one moment by searches aimed at each (A*) before a whole
# search is run and answers the rest, when a whole search is small (WHOLE_SEARCH_STATES, as
# planner.projected_states guesses it): a turning figure's or a long move's whole search settles
# tens of thousands of states, where an aimed one settles hundreds, so those keep aiming.
AIMED_SEARCHES = 4
WHOLE_SEARCH_STATES = 4000

# Charges and the "why not" explanations load when first asked for: commands that only reach or
# plan a move (reach, path) start without them (bench/bench_startup.py).
if TYPE_CHECKING:
    from .charge import ChargeLane
    from .explain import Explainer


@dataclass(frozen=True)
class PlannedMove:
    """A legal path and the parting shots moving along it would draw."""

    path: Path
    parting_shots: tuple[PartingShot, ...]
    choice: str = ""    # why this path among equally cheap ones (fewer parting shots), or ""

    def to_json(self) -> dict:
        return {
            "figure": self.path.figure_id, "mode": self.path.mode, "legal": True,
            "total_ft": plain_number(self.path.total_ft), "budget_ft": plain_number(self.path.budget_ft),
            "end": {"x": self.path.end.x, "y": self.path.end.y, "facing": FACINGS[self.path.end.facing],
                    "altitude_ft": self.path.end.altitude_ft},
            "stall": self.path.stall,
            "steps": [s.to_json() for s in self.path.steps],
            "parting_shots": [p.to_json() for p in self.parting_shots],
            "choice": self.choice,
        }



class Positioning:
    def __init__(self, bmap: BattleMap, ruleset: Ruleset, figures: list[Figure], mounted: frozenset = frozenset(),
                 attacking: dict | None = None):
        self.map = bmap
        self.ruleset = ruleset
        self.figures = list(figures)
        self.mounted = mounted          # ids of the figures that fight mounted (their charges keep mounted limits)
        self.planner = Planner(bmap, ruleset)
        self.sight_map = SightMap(bmap, ruleset.section("cover")["figure_between_degree"])
        self.engagement = Engagement(bmap, ruleset, self.sight_map, attacking)
        # Searches and explanations per (figure as it stands, mode): a Positioning describes one
        # moment of the battle (the resolver builds a new one whenever anything changes), so
        # they stay true for its life; searches stopped at one goal are resumed for the next.
        self._searches: dict = {}
        self._aimed: dict = {}       # (figure, mode) -> how many ends were planned by searches aimed at them
        self._exhausted: dict = {}   # (figure, mode) -> an aimed search that settled all it could
        self._explainers: dict = {}
        self._standing: tuple | None = None
        self._standing_asked = False
        self._standing_base = None      # a what-if view's (moment it was made from, ids elsewhere, figures placed)
        self._sights: dict = {}
        self._plans: dict = {}          # plan()'s answers for this moment
        self._occupants: dict = {}

    def what_if(self, placed: dict[str, Figure], absent: frozenset = frozenset()) -> "Positioning":
        """This moment with these figures standing elsewhere and those left out, on the same map under
        the same ruleset (a what-if view): the planner, sight map and engagement hold nothing about
        the figures, so they are shared rather than built again (the AI asks for thousands of views a
        turn). Who stands where is this moment's index mended on the squares that differ; the view's
        list of figures is made only if asked."""
        _every, _on_square, order, _by_id, _riders = self._standing_index()
        here = {fid: f for fid, f in placed.items() if fid in order and fid not in absent}
        twin = object.__new__(_WhatIf)
        twin.map, twin.ruleset, twin.mounted = self.map, self.ruleset, self.mounted
        twin.planner, twin.sight_map, twin.engagement = self.planner, self.sight_map, self.engagement
        twin._standing_base = (self, frozenset(fid for fid in (*placed, *absent) if fid in order), list(here.values()))
        twin._here = here
        twin._searches, twin._explainers, twin._standing, twin._sights = {}, {}, None, {}
        twin._aimed = {}
        twin._exhausted = {}
        twin._standing_asked, twin._plans, twin._occupants = False, {}, {}
        return twin

    def figure(self, figure_id: str) -> Figure:
        for f in self.figures:
            if f.id == figure_id:
                return f
        raise RulesError(f"no figure {figure_id!r}; figures here: {', '.join(f.id for f in self.figures)}")

    def body(self, figure_id: str) -> Figure:
        """The figure whose body moves when this one moves: a rider's mount (it rides; its move is the
        mount's move, turning distance and footprint), else the figure itself."""
        fig = self.figure(figure_id)
        if fig.mount:
            for f in self.figures:
                if f.id == fig.mount:
                    return f
        return fig

    def occupants(self, excluding: str) -> dict[tuple[int, int], Figure]:
        """Who stands on each square but `excluding` (a copy the caller may change)."""
        return dict(self.occupied_except(excluding))

    def occupied_except(self, excluding: str) -> dict[tuple[int, int], Figure]:
        """occupants(), kept for this moment (its figures never change): read it, never change it."""
        got = self._occupants.get(excluding)
        if got is None:
            got = self._occupants[excluding] = occupancy(self.figures, excluding)
        return got

    def reach(self, figure_id: str, mode: str = "walk") -> dict[tuple[int, int], ReachEntry]:
        fig = self.body(figure_id)
        if mode == "charge":
            from .charge import charge_reach
            return charge_reach(self.planner, fig, self.occupants(fig.id), fig.id in self.mounted)
        self.planner.refuse_mode(fig, mode)
        # The search is kept: a reachable set is asked for before the squares in it are hovered, and
        # the whole search it ran (a flyer's sweep aside) answers their paths.
        return self._search(fig, mode).entries()

    def plan(self, figure_id: str, target: tuple[int, int], mode: str = "walk",
             facing: int | None = None, altitude_ft: int | None = None) -> PlannedMove:
        """The cheapest legal move to target (among equally cheap ones, the fewest parting shots),
        or RulesError saying why there is none. A rider's move is its mount's (body())."""
        if mode == "charge":
            return self._plan_charge(figure_id, target)
        key = (figure_id, tuple(target), mode, facing, altitude_ft)
        got = self._plans.get(key)
        if got is not None:     # the resolver checks a move, then applies it: one plan for this moment
            return got
        fig = self.body(figure_id)
        self.planner.refuse_mode(fig, mode)
        x, y = target
        if not self.map.in_bounds(x, y):
            raise RulesError(f"{x},{y} is off the map (it is {self.map.width} x {self.map.height} squares)")
        target = tuple(target)
        if target != fig.pos and (target in self.occupied_except(fig.id) or self._wall_for(fig, target)):
            # No move ends there (the explainer says so first, before any search): none to search for.
            raise RulesError(self.explainer(fig, mode).why(target, facing, altitude_ft))
        result = self._searches.get((fig, mode))
        goal = (target, facing, altitude_ft)
        if result is None or not (result.complete or (result.in_full and result.walker)):
            # An aimed search that found no way settled every state it could: a whole search's answers
            # (a level flight's, level.py, only for ends at any height it gives the paths to).
            done = self._exhausted.get((fig, mode))
            if done is None and altitude_ft is None:
                done = self._exhausted.get((fig, mode, "level"))
                if done is not None and not answers_path(done, self.planner.grid.index(x, y)):
                    done = None
            result = done or result
        if result is None or not (result.complete or (result.in_full and result.walker)):
            aimed = self._aimed[(fig, mode)] = self._aimed.get((fig, mode), 0) + 1
            # Aimed at this goal (A*): a flyer's whole volume is never needed to plan one flight.
            result = self.planner.unstarted_search(fig, mode, self.occupants(fig.id), goal=goal, level="path")
            if not result.level and altitude_ft is None and self._beyond_reach(fig, mode, goal):
                raise RulesError(self.explainer(fig, mode).why(target, facing, altitude_ft))
            if aimed > AIMED_SEARCHES and projected_states(result.rules) <= WHOLE_SEARCH_STATES:
                # Asked for many ends at this moment (an odds map, a menu): one whole search answers them all.
                result = self._search(fig, mode)
                result.run()
        chosen = fewest_shots(result, self.engagement, fig, self.figures, target, facing, altitude_ft)
        if chosen is not None and chosen[1] and result.level:
            # It draws parting shots: an equally cheap way at another height may draw fewer (level.py).
            result = self.planner.unstarted_search(fig, mode, self.occupants(fig.id), goal=(target, facing, altitude_ft))
            chosen = fewest_shots(result, self.engagement, fig, self.figures, target, facing, altitude_ft)
        if chosen is None and result.complete and result.goal is not None:
            self._exhausted[(fig, mode, "level") if result.level else (fig, mode)] = result
        if chosen is None:
            raise RulesError(self.explainer(fig, mode).why(target, facing, altitude_ft, result))
        path, shots, note = chosen
        got = self._plans[key] = PlannedMove(path, shots, note)
        return got

    def _beyond_reach(self, fig: Figure, mode: str, goal: tuple) -> bool:
        """Does no way end on the goal (at any height) within the move? Asked of a flyer searched at
        every height (a winged flyer's end over higher ground): a level flight answers it exactly
        for far less (level.py), where one may be flown at all."""
        probe = self.planner.unstarted_search(fig, mode, self.occupants(fig.id), goal=goal, level="cost")
        return probe.level and probe.least_cost(*goal) is None

    def _wall_for(self, fig: Figure, square: tuple[int, int]) -> bool:
        """Is the square a wall this figure cannot stand on (for a flyer, one with no stated height)?"""
        x, y = square
        grid = self.planner.grid
        return self.map.blocks_move[y, x] and (fig.flyer == "none" or grid.top[grid.index(x, y)] == NEVER)

    def follow(self, figure_id: str, steps, mode: str = "walk") -> PlannedMove:
        """Check a move along a given route and return it as the planner would have planned it.

        `steps` holds (x, y, facing index, altitude_ft) for every step after the start square, as
        `[(s.x, s.y, s.facing, s.altitude_ft) for s in path.steps[1:]]` gives for a planned path: a
        step to a neighbouring square, a climb or dive in place (same x, y), and at most one last
        turn on the spot (same x, y and altitude). Each step is derived from the state before it
        with the search's own rules, so a route the planner chose comes back with identical Steps.
        RulesError names the first step that breaks a rule: "step 3, to 4,5: ...".
        """
        fig = self.body(figure_id)
        if mode == "charge":
            raise RulesError("a charge runs along its lane toward a target: use the charge action for that foe")
        self.planner.refuse_mode(fig, mode)
        rules = self.planner.rules(fig, mode, self.occupants(fig.id))
        path, _states = rules.trace(list(steps))
        return self.planned(fig, path)

    def explainer(self, fig: Figure, mode: str) -> Explainer:
        key = (fig, mode)
        got = self._explainers.get(key)
        if got is None:
            from .explain import Explainer
            got = self._explainers[key] = Explainer(self.planner, fig, mode, self.occupants(fig.id))
        return got

    def _search(self, fig: Figure, mode: str):
        key = (fig, mode)
        got = self._searches.get(key)
        if got is None:
            got = self._searches[key] = self.planner.unstarted_search(fig, mode, self.occupants(fig.id))
        return got

    def planned(self, fig: Figure, path: Path) -> PlannedMove:
        """A path together with the parting shots taking it would give foes."""
        return PlannedMove(path, tuple(self.engagement.parting_shots(fig, path.steps, path.mode, self.figures)))

    def _plan_charge(self, figure_id: str, target: tuple[int, int]) -> PlannedMove:
        from .charge import charge_limits, lane_step_costs
        fig = self.body(figure_id)
        foe = self.occupants(fig.id).get(target)
        if foe is None or foe.side == fig.side:
            raise RulesError(f"a charge is made at a foe: name a square with an enemy on it (for example "
                             f"{', '.join(f'{f.x},{f.y}' for f in self.figures if f.side != fig.side) or 'none here'})")
        lane = self.charge_lane(figure_id, foe.id)
        if not lane.legal:
            raise RulesError(lane.reason)
        heading = lane_facing(fig.pos, foe.pos)
        steps = [Step(fig.x, fig.y, fig.facing, fig.altitude_ft, 0, 0, "start", "", "starting square")]
        total = 0.0
        costs = lane_step_costs(self.planner, [fig.pos, *lane.squares])
        for (x, y), cost in zip(lane.squares, costs):
            total += cost
            steps.append(Step(x, y, heading, fig.altitude_ft, cost, total, "step", lane.rule, "charge lane, running straight"))
        steps[-1] = Step(steps[-1].x, steps[-1].y, heading, fig.altitude_ft, steps[-1].cost_ft, total, "step",
                         lane.rule, lane.reason)
        budget = charge_limits(self.ruleset, fig, fig.id in self.mounted)[1]
        return self.planned(fig, Path(fig.id, "charge", tuple(steps), total, budget))

    def search(self, figure_id: str, mode: str = "walk") -> "MoveSearch":
        """One search from the figure's square, reusable for many targets (hover previews, the AI)."""
        fig = self.body(figure_id)
        self.planner.refuse_mode(fig, mode)
        result = self._search(fig, mode)
        # Run in full when a path is first asked for: a flyer's reachable set (the sweep) needs no run,
        # and plan() aims a flyer's flight at its goal rather than settle the whole volume.
        result.in_full = True
        return MoveSearch(self, fig, mode, result, result.occupants)

    def sight(self, viewer_id: str, target_id: str) -> Sight:
        return self.sight_between(self.figure(viewer_id), self.figure(target_id))

    def sight_between(self, a: Figure, b: Figure) -> Sight:
        """Sight and cover from figure a to figure b, wherever they stand (one of them may have just
        fallen and still strike, simultaneously), with the figures here in the way."""
        # An attack's breakdown asks twice (can it see, what cover): kept per pair of figure objects
        # (figures are immutable; the entry holds them, so their ids stay theirs).
        key = (id(a), id(b))
        got = self._sights.get(key)
        if got is not None and got[0] is a and got[1] is b:
            return got[2]
        pair = {a.id, b.id, a.mount, b.mount} - {""}     # a rider and its mount are no cover for each other
        sight = body_sight(self.sight_map, a.cells, b.cells, a.altitude_ft, b.altitude_ft, self._standing_except(pair))
        self._sights[key] = (a, b, sight)
        return sight

    def _standing_except(self, pair: set) -> dict:
        """(x, y) -> altitude of the figures here standing on it, leaving out the pair's figures and
        their riders (the last figure listed on a square counts, as a plain pass over all would).
        Copied from one index and mended on the squares that differ: asked for every attack the AI
        weighs, and a field may hold hundreds of figures. A what-if view mends the index of the
        moment it was made from; any other Positioning answers its first question with one plain
        pass (asked once or twice, the index costs more)."""
        if self._standing_base is not None:
            base, elsewhere, placed = self._standing_base
            return base._mended(pair, elsewhere, placed)
        if self._standing is None and not self._standing_asked:
            self._standing_asked = True
            standing: dict = {}
            for f in self.figures:
                if f.id not in pair and f.mount not in pair:
                    for cell in f.cells:
                        standing[cell] = f.altitude_ft
            return standing
        return self._mended(pair, frozenset(), [])

    def figures_on(self, cells) -> list[Figure]:
        """The figures here whose bodies cover any of these squares, in this moment's order (what a
        pass over every figure would find), read from the index of who stands where."""
        if self._standing_base is not None:
            base, elsewhere, placed = self._standing_base
            _every, on_square, order, _by_id, _riders = base._standing_index()
            found = {id(g): g for cell in cells for g in on_square.get(cell, ()) if g.id not in elsewhere}
            found.update((id(g), g) for g in placed if not set(g.cells).isdisjoint(cells))
        else:
            _every, on_square, order, _by_id, _riders = self._standing_index()
            found = {id(g): g for cell in cells for g in on_square.get(cell, ())}
        return sorted(found.values(), key=lambda g: order[g.id])

    def _standing_index(self) -> tuple:
        if self._standing is None:
            every: dict = {}
            on_square: dict = {}
            order, by_id, riders = {}, {}, {}
            for i, f in enumerate(self.figures):
                order[f.id] = i
                by_id[f.id] = f
                if f.mount:
                    riders.setdefault(f.mount, []).append(f)
                for cell in f.cells:
                    every[cell] = f.altitude_ft
                    on_square.setdefault(cell, []).append(f)
            self._standing = (every, on_square, order, by_id, riders)
        return self._standing

    def _mended(self, pair: set, elsewhere: frozenset, placed: list) -> dict:
        """This moment's squares stood on, leaving out the pair (and their riders) and the figures
        `elsewhere`, with `placed` (figures of this moment standing elsewhere) on their squares."""
        every, on_square, order, by_id, riders = self._standing_index()

        def out(f) -> bool:
            return f.id in pair or f.mount in pair

        touched = set()
        for fid in (*elsewhere, *pair):
            if fid in by_id:
                touched.update(by_id[fid].cells)
            for rider in riders.get(fid, ()):
                touched.update(rider.cells)
        for f in placed:
            touched.update(f.cells)
        standing = every.copy()
        for cell in touched:
            best, alt = -1, None
            for g in on_square.get(cell, ()):
                if g.id not in elsewhere and not out(g) and order[g.id] > best:
                    best, alt = order[g.id], g.altitude_ft
            for g in placed:
                if not out(g) and order.get(g.id, -1) > best and cell in g.cells:
                    best, alt = order[g.id], g.altitude_ft
            if best < 0:
                standing.pop(cell, None)
            else:
                standing[cell] = alt
        return standing

    def charge_lane(self, attacker_id: str, target_id: str) -> ChargeLane:
        a, b = self.body(attacker_id), self.body(target_id)     # a rider charges on its mount, at a pair's body
        if a.id != attacker_id:      # the rider's weapon charges on its mount's body
            a = replace(a, weapons=self.figure(attacker_id).weapons)
        from .charge import charge_lane
        return charge_lane(self.planner, self.sight_map, a, b, self.occupants(a.id), a.id in self.mounted)

    def threats(self) -> dict:
        eng = self.engagement
        pairs = [{"a": a.id, "b": b.id, "distance_ft": plain_number(d)} for a, b, d in eng.engaged_pairs(self.figures)]
        threatened = {f.id: {"reach_ft": eng.reach_ft(f), "squares": [list(s) for s in eng.threatened_squares(f)]}
                      for f in self.figures}
        lanes = []
        for a in self.figures:
            for b in self.figures:
                if a.side != b.side:
                    lanes.append(self.charge_lane(a.id, b.id).to_json())
        return {"engaged": pairs, "threatened": threatened, "charge_lanes": lanes}


class MoveSearch:
    """A finished search: the reachable set and a plan to any square without searching again."""

    def __init__(self, positioning: Positioning, figure: Figure, mode: str, result, occupants: dict):
        self.positioning = positioning
        self.figure = figure
        self.mode = mode
        self.result = result
        self.occupants = occupants
        self._entries = None

    @property
    def params(self):
        return self.result.params

    def path_to(self, target: tuple[int, int], facing: int | None = None, altitude_ft: int | None = None) -> Path | None:
        """The cheapest path from this search, or None (no reason: use plan() for that)."""
        return self.result.path_to(target, facing, altitude_ft)

    def entries(self) -> dict[tuple[int, int], ReachEntry]:
        if self._entries is None:
            self._entries = self.result.entries()
        return self._entries

    def planned(self, target: tuple[int, int], facing: int | None = None,
                altitude_ft: int | None = None) -> PlannedMove | None:
        """The planned move from this search, or None when there is no path (plan() says why).
        The same choice as plan() makes: among equally cheap paths, the fewest parting shots."""
        pos = self.positioning
        chosen = fewest_shots(self.result, pos.engagement, self.figure, pos.figures, tuple(target), facing, altitude_ft)
        return None if chosen is None else PlannedMove(*chosen)

    def plan(self, target: tuple[int, int], facing: int | None = None, altitude_ft: int | None = None) -> PlannedMove:
        """Like Positioning.plan, from this search; RulesError with the reason when there is no path."""
        move = self.planned(target, facing, altitude_ft)
        if move is None:
            return self.positioning.plan(self.figure.id, target, self.mode, facing, altitude_ft)  # raises the reason
        return move


def lane_facing(a: tuple[int, int], b: tuple[int, int]) -> int:
    return bearing_octant(a, b)


class _WhatIf(Positioning):
    """A what-if view of a moment (Positioning.what_if): its figures are the moment's, with those
    placed elsewhere standing there and those left out gone, listed when first asked for."""

    @cached_property
    def figures(self) -> list[Figure]:
        base, elsewhere, _placed = self._standing_base
        here = self._here
        return [here.get(f.id, f) for f in base.figures if f.id not in elsewhere or f.id in here]
