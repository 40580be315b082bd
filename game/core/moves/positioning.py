"""One place to ask positioning questions about a set of figures on a map under a ruleset.

The CLI, the renderer's overlays and the AI all read from this, so they never disagree.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..battlemap import BattleMap
from ..errors import RulesError
from ..figure import Figure
from ..geometry import FACINGS, bearing_octant
from ..ruleset import Ruleset
from .charge import ChargeLane, charge_lane, charge_limits, charge_reach, lane_step_costs
from .engagement import Engagement, PartingShot
from .explain import why_unreachable
from .los import Sight, SightMap
from .path import Path, ReachEntry, Step, plain_number
from .planner import Planner


@dataclass(frozen=True)
class PlannedMove:
    path: Path
    parting_shots: tuple[PartingShot, ...]

    def to_json(self) -> dict:
        return {
            "figure": self.path.figure_id, "mode": self.path.mode, "legal": True,
            "total_ft": plain_number(self.path.total_ft), "budget_ft": plain_number(self.path.budget_ft),
            "end": {"x": self.path.end.x, "y": self.path.end.y, "facing": FACINGS[self.path.end.facing],
                    "altitude_ft": self.path.end.altitude_ft},
            "stall": self.path.stall,
            "steps": [s.to_json() for s in self.path.steps],
            "parting_shots": [p.to_json() for p in self.parting_shots],
        }



class Positioning:
    def __init__(self, bmap: BattleMap, ruleset: Ruleset, figures: list[Figure]):
        self.map = bmap
        self.ruleset = ruleset
        self.figures = list(figures)
        self.planner = Planner(bmap, ruleset)
        self.sight_map = SightMap(bmap, ruleset.section("cover")["figure_between_degree"])
        self.engagement = Engagement(bmap, ruleset, self.sight_map)

    def figure(self, figure_id: str) -> Figure:
        for f in self.figures:
            if f.id == figure_id:
                return f
        raise RulesError(f"no figure {figure_id!r}; figures here: {', '.join(f.id for f in self.figures)}")

    def occupants(self, excluding: str) -> dict[tuple[int, int], Figure]:
        return {f.pos: f for f in self.figures if f.id != excluding}

    def reach(self, figure_id: str, mode: str = "walk") -> dict[tuple[int, int], ReachEntry]:
        fig = self.figure(figure_id)
        if mode == "charge":
            return charge_reach(self.planner, fig, self.occupants(fig.id))
        return self.planner.reachable(fig, mode, self.occupants(fig.id))

    def plan(self, figure_id: str, target: tuple[int, int], mode: str = "walk",
             facing: int | None = None, altitude_ft: int | None = None) -> PlannedMove:
        fig = self.figure(figure_id)
        if mode == "charge":
            return self._plan_charge(fig, target)
        occupants = self.occupants(fig.id)
        path, result = self.planner.path_to(fig, target, mode, occupants, facing, altitude_ft)
        if path is None:
            x, y = target
            if result is None:
                raise RulesError(f"{x},{y} is off the map (it is {self.map.width} x {self.map.height} squares)")
            raise RulesError(why_unreachable(self.planner, fig, mode, occupants, target, facing, altitude_ft, result))
        return self.planned(fig, path)

    def planned(self, fig: Figure, path: Path) -> PlannedMove:
        """A path together with the parting shots taking it would give foes."""
        return PlannedMove(path, tuple(self.engagement.parting_shots(fig, path.steps, path.mode, self.figures)))

    def _plan_charge(self, fig: Figure, target: tuple[int, int]) -> PlannedMove:
        foe = self.occupants(fig.id).get(target)
        if foe is None or foe.side == fig.side:
            raise RulesError(f"a charge is made at a foe: name a square with an enemy on it (for example "
                             f"{', '.join(f'{f.x},{f.y}' for f in self.figures if f.side != fig.side) or 'none here'})")
        lane = self.charge_lane(fig.id, foe.id)
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
        budget = charge_limits(self.ruleset, fig)[1]
        return self.planned(fig, Path(fig.id, "charge", tuple(steps), total, budget))

    def search(self, figure_id: str, mode: str = "walk") -> "MoveSearch":
        """One search from the figure's square, reusable for many targets (hover previews, the AI)."""
        fig = self.figure(figure_id)
        self.planner._refuse_mode(fig, mode)
        occupants = self.occupants(fig.id)
        return MoveSearch(self, fig, mode, self.planner.search(fig, mode, occupants), occupants)

    def sight(self, viewer_id: str, target_id: str) -> Sight:
        a, b = self.figure(viewer_id), self.figure(target_id)
        standing = {f.pos: f.altitude_ft for f in self.figures if f.id not in (a.id, b.id)}
        return self.sight_map.sight(a.pos, b.pos, a.altitude_ft, b.altitude_ft, standing)

    def charge_lane(self, attacker_id: str, target_id: str) -> ChargeLane:
        a, b = self.figure(attacker_id), self.figure(target_id)
        return charge_lane(self.planner, self.sight_map, a, b, self.occupants(a.id))

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
        """The planned move from this search, or None when there is no path (plan() says why)."""
        path = self.result.path_to(target, facing, altitude_ft)
        return None if path is None else self.positioning.planned(self.figure, path)

    def plan(self, target: tuple[int, int], facing: int | None = None, altitude_ft: int | None = None) -> PlannedMove:
        """Like Positioning.plan, from this search; RulesError with the reason when there is no path."""
        move = self.planned(target, facing, altitude_ft)
        if move is None:
            return self.positioning.plan(self.figure.id, target, self.mode, facing, altitude_ft)  # raises the reason
        return move


def lane_facing(a: tuple[int, int], b: tuple[int, int]) -> int:
    return bearing_octant(a, b)
