"""Why a square cannot be reached, in a player's words.

Works by relaxing the move one rule at a time: if the square is reachable without the budget
it is too far; if it is reachable with free turning it is the turning rules (and then which of
them: the straight distance between facing changes, or the angle of one change); and so on.
Each relaxed search is aimed at the square asked about (A*, stopping once the bound still to go
says the square is out of its budget), and whether any way at all leads there is a flood of the
map from both ends (flood.py) asked first: every answer settles only the states that may lie on
the way there, so the first square hovered after a change costs what any other does. The paths
are those a whole search finds (a search's chain does not depend on the order it settled states
in); tests/core/test_hover_answers.py holds the words to the explainer that resumed whole searches.
"""
from __future__ import annotations

from ..values.bodies import cells, is_square_body
from ..values.errors import RulesError
from ..values.figure import Figure
from ..values.geometry import DIRECTION_DELTAS, FACINGS, step_cost_ft, turn_octants
from .flood import Flood
from .grid import NEVER
from .level import answers_path
from .path import plain_number



def _ft(value: float) -> str:
    return str(plain_number(value))


class Explainer:
    """Reasons for one figure moving in one mode from where it stands now."""

    def __init__(self, planner, figure: Figure, mode: str, occupants: dict):
        self.planner = planner
        self.figure = figure
        self.mode = mode
        self.occupants = occupants
        self._searches: dict = {}
        self._connected: dict = {}
        self._paths: dict = {}
        self.rules = planner.rules(figure, mode, occupants)
        self.bound = max(3 * self.rules.budget, self.rules.budget + 60)

    def _relax(self, name: str) -> dict:
        bound = self.bound
        return {
            "budget": dict(),                                        # the move as it is
            "free": dict(budget_ft=bound, ignore_turning=True),      # (almost) no budget, no turning rules
            "unlimited": dict(budget_ft=bound),                      # (almost) no budget, turning rules
            "any-angle": dict(ignore_turn_angle=True),               # budget, any turn angle
            "any-time": dict(ignore_turning_distance=True),          # budget, turn at any step
        }[name]

    def _aimed(self, name: str, target, facing, altitude_ft):
        """The path a relaxed search with the turning rules finds to one end, by a search aimed at it
        (A*): carried to a far cost level, a search with turning rules settles a great many states;
        aimed at one square, only those that may lie on the way there (the same path: a search's
        chain does not depend on the order it settled states in). An aimed search that had to
        settle every state it could (no way there) is a whole search: it answers every square after.
        A search stopped at the budget's edge (the square out of its reach) settled only a part."""
        whole = self._whole_search(name, altitude_ft, target)
        if whole is not None:
            return whole.path_to(target, facing, altitude_ft)
        key = (name, tuple(target), facing, altitude_ft)
        if key not in self._paths:
            search = self.planner.unstarted_search(self.figure, self.mode, self.occupants, level="path",
                                                   goal=(tuple(target), facing, altitude_ft), **self._relax(name))
            if len(self._paths) > 256:
                self._paths.clear()
            self._paths[key] = search.path_to(target, facing, altitude_ft)
            if search.complete:
                self._searches[(name, search.level)] = search
        return self._paths[key]

    def _whole_search(self, name: str, altitude_ft, path_to=None):
        """A search under this relaxation that settled all it could, if any answers here: a level flight
        (level.py) answers for ends at any height only, and with a path (to `path_to`) not over ground
        higher than the start's (level.answers_path)."""
        whole = self._searches.get((name, False))
        if whole is None and altitude_ft is None:
            whole = self._searches.get((name, True))
            if whole is not None and path_to is not None and \
                    not answers_path(whole, self.planner.grid.index(*path_to)):
                whole = None
        return whole

    def _cost(self, name: str, target, facing, altitude_ft) -> float | None:
        """What the cheapest way to one end costs under a relaxed rule, or None when there is none:
        where only the number is read (or whether there is a way), a search aimed at the end that
        stops at the first end it settles (costs.py), without the way itself."""
        whole = self._whole_search(name, altitude_ft)
        if whole is not None:
            path = whole.path_to(target, facing, altitude_ft)
            return None if path is None else path.total_ft
        key = (name, tuple(target), facing, altitude_ft, "cost")
        if key not in self._paths:
            path = self._paths.get(key[:4], self)
            if path is not self:
                return None if path is None else path.total_ft
            search = self.planner.unstarted_search(self.figure, self.mode, self.occupants, level="cost",
                                                   goal=(tuple(target), facing, altitude_ft), **self._relax(name))
            if len(self._paths) > 256:
                self._paths.clear()
            self._paths[key] = search.least_cost(target, facing, altitude_ft)
        return self._paths[key]

    def why(self, target, facing, altitude_ft, result=None) -> str:
        """Why the move cannot end on target (facing, altitude) as asked; `result` is the move's own search."""
        if result is not None and result.complete and ("budget", result.level) not in self._searches:
            # A whole search answers every square (an aimed one, only its own); a level one, at any height.
            self._searches[("budget", result.level)] = result
        planner, fig, rules = self.planner, self.figure, self.rules
        x, y = target
        who = fig.label
        bmap = planner.map
        grid = planner.grid
        if not bmap.in_bounds(x, y):
            return f"{x},{y} is off the map (it is {bmap.width} x {bmap.height} squares)"
        same_square = (x, y) == fig.pos
        if same_square and altitude_ft in (None, fig.altitude_ft) and facing in (None, fig.facing):
            return f"{who} is already on {x},{y}"
        idx = grid.index(x, y)
        if bmap.blocks_move[y, x] and (fig.flyer == "none" or grid.top[idx] == NEVER):
            return f"{x},{y} is blocked: a wall or obstacle stands there" + (
                " that no flyer passes over" if fig.flyer != "none" else "")
        other = self.occupants.get((x, y))
        if other is not None:
            return f"{x},{y} is occupied by {other.label}: a move may not end on another figure"
        if altitude_ft is not None:
            words = self._altitude_refusal(target, altitude_ft)
            if words:
                return words
        if rules.must_dive:
            end = rules.dive_end_height - grid.elevation[rules.start_idx]
            return (f"{who} stalled and must dive at its full rate this move: it can only dive straight down over "
                    f"{fig.x},{fig.y}, to {end} ft")
        if self.mode == "sidestep":
            return self._sidestep(target, facing, altitude_ft)
        if self.mode == "withdraw":
            return self._withdraw(target, facing, altitude_ft)
        return self._general(target, facing, altitude_ft)

    # ----- the branches -----
    def connected(self, target, ledges: bool) -> bool:
        """Is there any way at all from the figure's square to target, by a flood fill of the map that
        ignores budget, facing and heights flown (a walker keeps to its climb step when `ledges`)?"""
        got = self._connected.get(ledges)
        if got is None:
            got = self._connected[ledges] = Flood(self.rules, ledges)
        return got.joins(self.planner.grid.index(*target))

    def _body_misfit(self, target) -> str | None:
        """A body of more than one square whose cells cannot all stand with its corner on target: which
        cells are walls (a square the body covers from another corner may still be reached)."""
        fig, grid = self.figure, self.planner.grid
        if fig.footprint == (1, 1) or not is_square_body(fig.footprint):
            return None
        x, y = target
        blocked = [(cx, cy) for cx, cy in cells(x, y, fig.facing, fig.footprint)
                   if not grid.in_bounds(cx, cy) or not grid.passable[grid.index(cx, cy)]]
        if not blocked:
            return None
        names = " and ".join(f"{cx},{cy}" for cx, cy in blocked[:4]) + (" and more" if len(blocked) > 4 else "")
        w, h = fig.footprint
        words = (f"{fig.label}'s {w * 5} x {h * 5} ft body does not fit with its corner square on {x},{y}: "
                 f"{names} {'is a wall or off the map' if len(blocked) == 1 else 'are walls or off the map'}")
        # The body may still cover the square from another corner: say why it cannot get there either.
        fitting = [(x - dx, y - dy) for dx, dy in cells(0, 0, fig.facing, fig.footprint)
                   if all(grid.in_bounds(cx, cy) and grid.passable[grid.index(cx, cy)]
                          for cx, cy in cells(x - dx, y - dy, fig.facing, fig.footprint))]
        if fitting:
            corner = min(fitting, key=lambda a: (max(abs(a[0] - fig.x), abs(a[1] - fig.y)), a[1], a[0]))
            words += f"; covering it from {corner[0]},{corner[1]}: {self._general(corner, None, None)}"
        return words

    def _altitude_refusal(self, target, altitude_ft) -> str | None:
        fig, grid, rules = self.figure, self.planner.grid, self.rules
        x, y = target
        idx = grid.index(x, y)
        if fig.flyer == "none" and altitude_ft != 0:
            return f"{fig.label} does not fly: it moves on the ground (altitude 0)"
        if altitude_ft < 0:
            return f"{fig.label} cannot be below the ground"
        if altitude_ft > rules.max_above:
            return f"{altitude_ft} ft is above the {rules.max_above} ft the planner allows over a square"
        if not grid.passable[idx] and grid.elevation[idx] + altitude_ft < grid.top[idx]:
            return (f"{x},{y} holds an obstacle {grid.top[idx] - grid.elevation[idx]} ft high: {fig.label} can be "
                    f"over it only at that height or higher")
        return None

    def _sidestep(self, target, facing, altitude_ft) -> str:
        fig, who = self.figure, self.figure.label
        x, y = target
        lateral = [(fig.x + dx, fig.y + dy) for dx, dy in _deltas(fig.facing, self.rules.params.directions)]
        if (x, y) not in lateral:
            names = " or ".join(f"{a},{b}" for a, b in lateral)
            return (f"a sidestep moves one square to the side while keeping facing {fig.facing_name}: "
                    f"{who} may sidestep to {names}")
        if facing is not None and facing != fig.facing:
            return f"a sidestep keeps the facing: {who} ends facing {fig.facing_name}, not {FACINGS[facing]}"
        if altitude_ft is not None and altitude_ft != fig.altitude_ft:
            return f"a sidestep keeps the altitude: {who} stays {fig.altitude_ft} ft up"
        grid = self.planner.grid
        altitude = self.rules.start[4] - grid.elevation[grid.index(x, y)] if fig.flyer != "none" else 0
        try:
            self.rules.step(self.rules.start, 0.0, fig.facing, (x, y, fig.facing, altitude), True, False)
        except RulesError as err:
            return f"{who} cannot sidestep to {x},{y}: {err}"
        return f"{who} cannot sidestep to {x},{y}"

    def _withdraw(self, target, facing, altitude_ft) -> str:
        fig, who = self.figure, self.figure.label
        x, y = target
        rear = [FACINGS[(fig.facing + d) % 8] for d in self.rules.params.directions]
        if not _behind(fig.facing, self.rules.params.directions, x - fig.x, y - fig.y, self.rules.no_diagonals):
            return (f"a fighting withdrawal backs away from the facing ({fig.facing_name}) without turning, stepping "
                    f"{', '.join(rear)}: {x},{y} is not behind {who}")
        if facing is not None and facing != fig.facing:
            return f"a fighting withdrawal keeps the facing: {who} ends facing {fig.facing_name}, not {FACINGS[facing]}"
        joined = self.connected(target, ledges=True)
        free = self._cost("unlimited", target, None, altitude_ft) if joined else None
        if free is None:
            if joined:
                return (f"too far for a fighting withdrawal: {x},{y} is more than {_ft(self.bound)} ft back, "
                        f"{who} may back away {_ft(self.rules.budget)} ft")
            return f"{x},{y} is behind {who}, but walls, foes or drops close every way back to it"
        return (f"too far for a fighting withdrawal: needs {_ft(free)} ft, "
                f"{who} may back away {_ft(self.rules.budget)} ft")

    def _general(self, target, facing, altitude_ft) -> str:
        fig, who, rules = self.figure, self.figure.label, self.rules
        x, y = target
        where = f"{x},{y}" + (f" at {altitude_ft} ft up" if altitude_ft is not None else "")
        # No way at all (the flood) needs no search; else the search without turning rules, aimed.
        joined = self.connected(target, ledges=True)
        anywhere = self._cost("free", target, None, altitude_ft) if joined else None
        if anywhere is None:
            if joined and altitude_ft is not None and self._cost("free", target, None, None) is not None:
                return self._altitude_unreachable(target, altitude_ft)
            if not joined:
                misfit = self._body_misfit(target)
                if misfit is not None:
                    return misfit
                if fig.flyer == "none" and self.connected(target, ledges=False):
                    return (f"{x},{y} cannot be reached: ledges or drops too high to step (more than "
                            f"{self.planner.climb_step_ft} ft) close every way there")
                return f"{x},{y} cannot be reached: walls, foes or drops close every way there"
            return (f"too far: {where} is more than {_ft(self.bound)} ft away by any way there, {who} has "
                    f"{_ft(rules.budget)} ft ({self.mode})")
        no_limits = anywhere
        # The free search is a relaxation of the one with turning rules (every move keeping to them
        # is a move without them, at the same cost; a flyer's climbs and dives alike): no path keeping
        # to them costs less than `anywhere`, so a square too far without them is too far, and the
        # search with them (the dearest: it may run to the bound) is not needed.
        if no_limits > rules.budget + 1e-9:
            return f"too far: {where} needs {_ft(no_limits)} ft, {who} has {_ft(rules.budget)} ft ({self.mode})"
        with_turning = self._cost("unlimited", target, facing, altitude_ft)
        reason = self._turning_reason(target, facing, altitude_ft, with_turning)
        lateral = [(fig.x + dx, fig.y + dy) for dx, dy in _deltas(fig.facing, (6, 2))]
        if self.mode in ("run", "jog") and (x, y) in lateral:
            reason += "; a sidestep would keep its facing, but sidestepping is only allowed at walking pace"
        return reason

    def _turning_reason(self, target, facing, altitude_ft, with_turning) -> str:
        fig, who, rules = self.figure, self.figure.label, self.rules
        x, y = target
        # Asked for no end facing, the square is out of the move's reach: no arrival to read.
        arrival = None if facing is None else self._aimed("budget", target, None, altitude_ft)
        if facing is not None and arrival is not None:
            # The square is in reach; the end facing is not. Name the rule that refuses the last
            # turn of the cheapest arrival: the angle of one change, or the straight distance.
            arrive = arrival.end
            lead = f"{who} can reach {x},{y} but not facing {FACINGS[facing]}: it arrives facing {FACINGS[arrive.facing]}"
            if turn_octants(arrive.facing, facing) > rules.params.max_turn:
                why = rules.turn_angle_words(arrive.facing, facing)
            else:
                turned = any(st.kind in ("turn+step", "climb") for st in arrival.steps)
                why = rules.straight_words(self._straight_on_arrival(arrival), turned, arrive.facing)
            if with_turning is None:
                return f"{lead}, and {why}; no way there ends facing {FACINGS[facing]}"
            return (f"{lead}, and {why}; ending facing {FACINGS[facing]} needs {_ft(with_turning)} ft "
                    f"and it has {_ft(rules.budget)} ft")
        distance_only = self._cost("any-time", target, facing, altitude_ft) is not None
        if distance_only:
            lead = rules.straight_words(rules.start[3] if rules.tracks_straight else 0, False, fig.facing)
        elif self._cost("any-angle", target, facing, altitude_ft) is not None:
            lead = (f"{who} cannot turn sharply enough: a facing change turns at most "
                    f"{rules.params.max_turn * 45} degrees{rules.running_words()}")
        else:
            lead = (f"{who} cannot turn that way within its turning rules: {rules.turning} ft straight ahead "
                    f"between facing changes, at most {rules.params.max_turn * 45} degrees each{rules.running_words()}")
        if with_turning is None:
            return f"{lead}; no path to {x},{y} keeps to its turning rules"
        return (f"{lead}; keeping to its turning rules, {x},{y} needs {_ft(with_turning)} ft and it has "
                f"{_ft(rules.budget)} ft")

    def _straight_on_arrival(self, path) -> float:
        """Feet straight ahead since the last maneuver (or the start) when the path arrives."""
        rules = self.rules
        straight = rules.start[3] if rules.tracks_straight else 0.0
        diagonals = rules.figure.diagonals_moved
        for prev, step in zip(path.steps, path.steps[1:]):
            if step.kind == "climb":
                straight = 0.0
            if step.kind not in ("step", "turn+step"):
                continue
            diagonal = prev.x != step.x and prev.y != step.y
            dist = step_cost_ft(rules.diagonal, diagonal, diagonals)
            diagonals += diagonal
            straight = (0.0 if step.kind == "turn+step" else straight) + dist
        return straight

    def _altitude_unreachable(self, target, altitude_ft) -> str:
        fig, rules = self.figure, self.rules
        x, y = target
        if rules.winged:
            return (f"{fig.label} cannot be at {altitude_ft} ft over {x},{y}: a winged flyer climbs "
                    f"{rules.winged_climb} ft after each {rules.climb_every} ft flown straight and dives "
                    f"{rules.dive_step} ft per 5 ft of movement (less only onto the ground), and no way there "
                    f"ends at that height")
        if fig.flyer != "none" and rules.rise_cost is None:
            return f"{fig.label} cannot rise under these rules, so it cannot be at {altitude_ft} ft over {x},{y}"
        return f"{fig.label} cannot be at {altitude_ft} ft over {x},{y}: walls or the ground close every way there"


def _deltas(facing: int, directions):
    return [DIRECTION_DELTAS[(facing + d) % 8] for d in directions]


def _behind(facing: int, directions, dx: int, dy: int, no_diagonals: bool) -> bool:
    """Can steps only in these directions relative to the facing lead from (0, 0) to (dx, dy) on open ground?"""
    vectors = [DIRECTION_DELTAS[(facing + d) % 8] for d in directions]
    if no_diagonals:
        vectors = [v for v in vectors if 0 in v]
    r = max(abs(dx), abs(dy))
    frontier, seen = [(0, 0)], {(0, 0)}
    while frontier:
        nxt = []
        for ax, ay in frontier:
            for vx, vy in vectors:
                p = (ax + vx, ay + vy)
                if p not in seen and max(abs(p[0]), abs(p[1])) <= r:
                    seen.add(p)
                    nxt.append(p)
        frontier = nxt
    return (dx, dy) in seen and (dx, dy) != (0, 0)
