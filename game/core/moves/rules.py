"""The rules of one move, stated once: the numbers every check reads, and one step checked in words.

`move_params` turns the ruleset and the figure into a move's parameters; `MoveRules` holds
everything fixed for one move (start state, who blocks, the flyer numbers) and checks one
given step from a state, returning its kind, cost and next state or refusing it with the rule
it breaks in a player's words. `trace` walks a whole given route with it and writes the Steps.

The search (planner.py) applies the same transitions in an inlined loop for speed; property
tests hold the two together (every path the search returns is traced to the same states and
costs, and every route `trace` accepts costs at least what the search finds).

A search state is `(idx, f, par, s, h)`: flat square index, facing (-1 when facing cannot
matter: a free-turning walker), diagonal parity under 5-10, feet moved straight ahead since
the start of the move or the last maneuver (capped where no rule reads further), absolute height.
"""
from __future__ import annotations

from fractions import Fraction

from ..values.errors import RulesError
from ..values.figure import Figure
from ..values.geometry import DELTA_TO_DIRECTION, FACINGS, step_cost_ft, step_feet, turn_octants
from .grid import NEVER, FlatGrid
from .path import MODES, SIDESTEP_DIRECTIONS, WITHDRAW_DIRECTIONS, MoveParams, Path, Step, plain_number

EPS = 1e-9
PASS_OVER_FT = 10   # a flyer this high above a square's floor passes over figures standing there
ALL_FACINGS = tuple(range(8))


class RulesetNumbers:
    """The movement numbers of one ruleset, read once (a search is started for every hover)."""

    def __init__(self, ruleset):
        grid_rules = ruleset.section("grid")
        alt = ruleset.section("altitude")
        mv = ruleset.section("movement")
        fc = ruleset.section("facing")
        self.diagonal = grid_rules["diagonal"]
        self.rule_510 = self.diagonal == "5-10"
        self.no_diagonals = self.diagonal == "none"
        self.diagonal_feet = step_feet(self.diagonal, True) if not self.no_diagonals else (5, 5)
        self.diagonal_ft = self.diagonal_feet[0]
        self.corner_cutting = grid_rules["corner_cutting"]
        self.climb_step = grid_rules["climb_step_ft"]
        self.difficult_multiplier = mv["difficult_multiplier"]
        self.withdraw_fraction = Fraction(mv["withdraw_fraction"])
        self.winged_climb = alt["winged_climb_ft"]
        self.dive_multiplier = alt["dive_multiplier"]
        self.max_above = alt["max_altitude_ft"]
        up, down = Fraction(alt["floater_climb_fraction"]), Fraction(alt["floater_descend_fraction"])
        self.rise_cost = float(5 / up) if up else None
        self.descend_cost = float(5 / down) if down else None
        self.stall_fraction = Fraction(alt["stall_below_fraction"])
        self.stationary_turns_free = fc["stationary_turns_free"]


_NUMBERS: dict = {}


def ruleset_numbers(ruleset) -> RulesetNumbers:
    key = id(ruleset)
    got = _NUMBERS.get(key)
    if got is None or got[0] is not ruleset:
        if len(_NUMBERS) > 64:
            _NUMBERS.clear()
        got = _NUMBERS[key] = (ruleset, RulesetNumbers(ruleset))
    return got[1]


def move_params(ruleset, figure: Figure, mode: str) -> MoveParams:
    mv = ruleset.section("movement")
    fc = ruleset.section("facing")
    if mode not in MODES:
        raise RulesError(f"unknown movement mode {mode!r}: use one of {', '.join(MODES)}")
    incorporeal = figure.flyer == "incorporeal" and fc["incorporeal_flyers_turn_free"]
    turning = figure.turning_ft
    if mode in ("walk", "withdraw", "sidestep"):
        budget = figure.move_ft
        max_turn = fc["walk_turn_max_deg"] // 45
    elif mode == "jog":
        if not mv["jog_multiplier"]:
            raise RulesError(f"{ruleset.name} has no jogging pace: use walk or run")
        budget = figure.move_ft * mv["jog_multiplier"]
        turning = ruleset.running_turning_ft(turning)
        max_turn = fc["run_turn_max_deg"] // 45
    else:  # run, charge
        budget = figure.move_ft * mv["run_multiplier"]
        turning = ruleset.running_turning_ft(turning)
        max_turn = fc["run_turn_max_deg"] // 45
    directions = None
    keeps_facing = False
    max_steps = None
    if mode == "withdraw":
        budget = float(figure.move_ft * ruleset_numbers(ruleset).withdraw_fraction)
        directions = WITHDRAW_DIRECTIONS
        keeps_facing = True
    elif mode == "sidestep":
        directions = SIDESTEP_DIRECTIONS
        keeps_facing = True
        max_steps = 1
    free = incorporeal or turning == 0
    return MoveParams(
        mode=mode,
        budget_ft=float(budget),
        turning_ft=0 if incorporeal else turning,
        max_turn=4 if free else max_turn,     # turning freely: any new direction at any step
        free_turning=free,
        directions=directions,
        keeps_facing=keeps_facing,
        flyer=figure.flyer,
        max_steps=max_steps,
        must_dive=figure.must_dive,
    )


class MoveRules:
    """Everything fixed for one figure's move; one step checked at a time."""

    def __init__(self, grid: FlatGrid, ruleset, figure: Figure, params: MoveParams, occupants: dict,
                 free_climbs: bool = False, body=None, pass_over: dict | None = None):
        self.grid = grid
        self._step_notes: dict = {}     # step_note's answers: the AI traces dozens of paths per search
        self._traced: dict = {}         # trace's tree of route beginnings (see there)
        # A body one square wide and longer (body_grid.LongBody) lies along its facing: the search
        # keeps the facing for it and checks the cells behind the head. None for other figures.
        self.body = body
        self.ruleset = ruleset
        self.figure = figure
        self.params = p = params
        n = self.numbers = ruleset_numbers(ruleset)
        self.diagonal = n.diagonal
        self.rule_510 = n.rule_510
        self.no_diagonals = n.no_diagonals
        self.diagonal_ft = n.diagonal_ft
        self.diagonal_feet = n.diagonal_feet
        self.corner_cutting = n.corner_cutting
        self.climb_step = n.climb_step
        self.difficult_multiplier = n.difficult_multiplier
        self.budget = p.budget_ft
        self.turning = p.turning_ft
        self.flying = p.flyer != "none"
        self.winged = p.flyer == "winged"
        self.climb_every = 0 if free_climbs else max(self.turning, figure.turning_ft, 5)
        # A free-turning walker steps any way at any time: its facing cannot constrain it, so the
        # search drops it (a winged flyer keeps it: its climbs need a straight stretch ahead).
        self.collapse = (p.free_turning and p.directions is None and (not self.winged or not self.climb_every)
                         and body is None)
        self.tracks_straight = not self.collapse and (not p.keeps_facing or self.winged)
        self.straight_cap = max(self.turning, self.climb_every) if self.winged else self.turning
        self.winged_climb = n.winged_climb
        self.dive_multiplier = n.dive_multiplier
        self.dive_step = 5 * n.dive_multiplier     # one square's worth of movement, dived
        self.max_above = n.max_above
        self.rise_cost = n.rise_cost
        self.descend_cost = n.descend_cost
        self.stationary_free = n.stationary_turns_free and not figure.has_moved
        # Who blocks: foes block (a flyer high enough passes over them), allies may be passed.
        self.foes: dict[int, Figure] = {}
        self.allies: dict[int, Figure] = {}
        stride, width, height = grid.stride, grid.width, grid.height
        side = figure.side
        for (ox, oy), other in occupants.items():
            if 0 <= ox < width and 0 <= oy < height:
                (self.foes if other.side != side else self.allies)[(oy + 1) * stride + ox + 1] = other
        self.ends_blocked = set(self.foes) | set(self.allies)
        # The least height at which a flyer passes over the foes a step would put it on: 10 ft
        # above each one's floor (a big body's anchors cover foes on other floors: `pass_over`).
        elevation = grid.elevation
        self.pass_over = {idx: elevation[idx] + PASS_OVER_FT for idx in self.foes}
        if pass_over:
            self.pass_over.update((grid.index(*sq), need) for sq, need in pass_over.items() if grid.in_bounds(*sq))
        self.start_idx = grid.index(figure.x, figure.y)
        floor = grid.elevation[self.start_idx]
        start_height = floor + figure.altitude_ft
        lowest = grid.lowest[self.start_idx] if body is None else body.lowest(self.start_idx, figure.facing)
        straight = min(figure.straight_ft, self.straight_cap) if self.tracks_straight else 0
        self.start = (self.start_idx, -1 if self.collapse else figure.facing,
                      figure.diagonals_moved % 2 if self.rule_510 else 0, straight, start_height)
        # A stalled winged flyer aloft spends this move diving at its full rate (bfrpg Maneuverability).
        self.must_dive = p.must_dive and self.winged and start_height > lowest
        self.dive_end_height = self._full_dive_end(start_height, lowest) if self.must_dive else None
        # A flyer's free move, whose reachable set the vectorised sweep (volume.py) may give: a sidestep
        # is one square, a forced dive a handful of states, and the sweep knows no cells behind a long
        # body's head (body_grid.LongBody).
        self.free_flight = self.flying and p.max_steps is None and not self.must_dive and body is None
        # An even diagonal count is as good as an odd one and cheaper to continue, unless the
        # straight counter matters (the odd one's next diagonal counts 10 ft toward it) or doubled
        # steps can change which diagonals are the dear ones.
        self.parity_dominates = (not self.tracks_straight) and (self.flying or not grid.any_difficult)
        # Searched at one height (level.py: a flyer where no height can matter); the height of a
        # square's states in the integer searches: its floor, or the height flown.
        self.level_flight = False
        self.heights = grid.elevation
        self.blocking = self.foes     # the foes the integer loops never step on: none for a level flight over them

    def _full_dive_end(self, height: int, floor: int) -> int:
        spent = 0.0
        while height > floor:
            drop = min(self.dive_step, height - floor)
            if spent + drop / self.dive_multiplier > self.budget + EPS:
                break
            spent += drop / self.dive_multiplier
            height -= drop
        return height

    # ----- ends -----
    def end_facings(self, state: tuple, moved: bool = False) -> tuple[int, ...]:
        """Facings a figure in this state may end with (a last facing change on the spot). `moved`: it
        got to this state by moving (a flyer that rose and came down again is back in its starting
        state, but no longer turns as one that stood still)."""
        if self.body is not None:
            return tuple(g for g in self._end_facings(state, moved) if self.body.fits_end(state[0], g, state[4]))
        return self._end_facings(state, moved)

    def _end_facings(self, state: tuple, moved: bool = False) -> tuple[int, ...]:
        f = state[1]
        if state == self.start and not moved and self.stationary_free and not self.must_dive:
            return ALL_FACINGS
        if self.params.keeps_facing or self.must_dive:
            return (self.figure.facing,) if f < 0 else (f,)
        if f < 0 or self.params.free_turning:
            return ALL_FACINGS
        if state[3] >= self.turning - EPS:
            return tuple(g for g in range(8) if turn_octants(f, g) <= self.params.max_turn)
        return (f,)

    def may_end(self, state: tuple) -> bool:
        """Can the move stop in this state: not on another figure, and a forced dive dived in full."""
        if state[0] in self.ends_blocked:
            return False
        if self.body is not None and not self.end_facings(state):
            return False
        return self.dive_end_height is None or (state[0] == self.start_idx and state[4] == self.dive_end_height)

    def altitude(self, state: tuple) -> int:
        return state[4] - self.grid.elevation[state[0]]

    def step_cost(self, diagonal: bool, parity: int, idx: int) -> tuple[float, float, int]:
        """(cost, distance straight ahead, new parity) of a step into square idx."""
        if diagonal:
            dist = self.diagonal_feet[parity]
            npar = parity ^ 1 if self.rule_510 else 0
        else:
            dist, npar = 5, parity
        cost = dist * self.difficult_multiplier if (self.grid.difficult[idx] and not self.flying) else dist
        return cost, dist, npar

    # ----- one given step -----
    def step(self, state: tuple, spent: float, here_facing: int, to: tuple, last: bool,
             turned: bool) -> tuple[str, float, tuple, int]:
        """(kind, cost, next state, facing after) of the step to `to` = (x, y, facing, altitude_ft),
        or RulesError in a player's words naming the rule it breaks."""
        grid, who = self.grid, self.figure.label
        idx, f, par, s, h = state
        px, py = grid.square(idx)
        x, y, facing, altitude = to
        if (x, y) != (px, py):
            return self._horizontal(state, spent, here_facing, to, turned)
        if not self.flying or altitude == h - grid.elevation[idx]:
            if altitude != h - grid.elevation[idx]:
                raise RulesError(f"{who} does not fly: it stays on the ground (altitude 0)")
            if facing == here_facing:
                raise RulesError(f"{who} is already at {x},{y} facing {FACINGS[facing]}: each step moves to a "
                                 f"square, climbs, dives or (last) turns")
            return self._last_turn(state, spent, here_facing, facing, last, turned)
        return self._vertical(state, spent, here_facing, to)

    def _horizontal(self, state, spent, here_facing, to, turned):
        grid, p, who = self.grid, self.params, self.figure.label
        idx, f, par, s, h = state
        px, py = grid.square(idx)
        x, y, facing, altitude = to
        delta = (x - px, y - py)
        if max(abs(delta[0]), abs(delta[1])) != 1:
            raise RulesError(f"a step goes to one of the 8 squares next to the figure's; {who} is at {px},{py}")
        if not grid.in_bounds(x, y):
            raise RulesError(f"{x},{y} is off the map")
        if self.must_dive:
            raise RulesError(self.stall_words())
        if p.max_steps is not None and idx != self.start_idx:
            raise RulesError("a sidestep is a single square")
        d = DELTA_TO_DIRECTION[delta]
        diagonal = d & 1
        if diagonal and self.no_diagonals:
            raise RulesError(f"{self.ruleset.name} allows no diagonal steps")
        kind = "step"
        if p.directions is not None:
            allowed = [(f + k) % 8 for k in p.directions]
            if d not in allowed:
                names = " or ".join(FACINGS[a] for a in allowed)
                what = ("a fighting withdrawal backs away without turning" if p.mode == "withdraw"
                        else "a sidestep shifts one square to the side without turning")
                raise RulesError(f"{what}: facing {FACINGS[f]}, {who} may step {names}, not {FACINGS[d]}")
        elif not self.collapse and d != f:
            if turn_octants(f, d) > p.max_turn:
                raise RulesError(self.turn_angle_words(f, d))
            if s + EPS < self.turning:
                raise RulesError(self.straight_words(s, turned, f))
            kind = "turn+step"
        nidx = idx + grid.offsets[d]
        if self.flying:
            if h < grid.elevation[nidx]:
                raise RulesError(f"the ground at {x},{y} rises above {who}'s height "
                                 f"({h - grid.elevation[idx]} ft over {px},{py})")
            if not grid.passable[nidx] and h < grid.top[nidx]:
                raise RulesError(self._too_high_words(x, y, nidx, h))
            nh = h
        else:
            if not grid.passable[nidx]:
                raise RulesError(f"{x},{y} is blocked: a wall or obstacle stands there")
            nh = grid.elevation[nidx]
            if abs(nh - h) > self.climb_step:
                rise = "higher" if nh > h else "lower"
                raise RulesError(f"{x},{y} is {abs(nh - h)} ft {rise} than {px},{py}: a step climbs or drops at most "
                                 f"{self.climb_step} ft (a ledge)")
        if diagonal and not self.corner_cutting:
            for side in ((d + 7) % 8, (d + 1) % 8):
                corner = idx + grid.offsets[side]
                if (grid.flyer_blocked(corner, h) if self.flying else grid.wall[corner]):
                    cx, cy = grid.square(corner)
                    raise RulesError(f"stepping diagonally from {px},{py} to {x},{y} would cut the corner of the "
                                     f"wall at {cx},{cy}")
        foe = self.foes.get(nidx)
        if foe is not None and not (self.flying and h >= self.pass_over[nidx]):
            over = f" ({who} flies under {PASS_OVER_FT} ft above it)" if self.flying else ""
            raise RulesError(f"{x},{y} is held by {foe.label}: foes block movement{over}")
        if self.body is not None and self.body.blocked(nidx, f if p.keeps_facing else d, nh, d):
            raise RulesError(f"{who} cannot go to {x},{y} facing {FACINGS[f if p.keeps_facing else d]}: "
                             f"{self.body.why_blocked(nidx, f if p.keeps_facing else d)}")
        cost, dist, npar = self.step_cost(diagonal, par, nidx)
        self._within_budget(spent + cost)
        if p.keeps_facing:
            nf, ns, face = f, s, f
        else:
            nf = -1 if self.collapse else d
            face = d
            ns = 0
            if self.tracks_straight:
                ns = min((0 if kind == "turn+step" else s) + dist, self.straight_cap)
        if facing != face:
            raise RulesError(f"stepping {FACINGS[d]} {who} faces {FACINGS[face]}, not {FACINGS[facing]}; a facing of "
                             f"its own choosing comes as the move's last step")
        if altitude != nh - grid.elevation[nidx]:
            if not self.flying:
                raise RulesError(f"{who} does not fly: it stays on the ground (altitude 0)")
            raise RulesError(f"flying across, {who} keeps its height: over {x},{y} it is "
                             f"{nh - grid.elevation[nidx]} ft up, not {altitude} (climbs and dives are steps of their own)")
        return kind, cost, (nidx, nf, npar, ns, nh), face

    def _vertical(self, state, spent, here_facing, to):
        grid, p, who = self.grid, self.params, self.figure.label
        idx, f, par, s, h = state
        x, y, facing, altitude = to
        floor = grid.elevation[idx]
        lowest = grid.lowest[idx] if self.body is None else self.body.lowest(idx, f)
        if p.max_steps is not None:
            raise RulesError("a sidestep shifts one square to the side; it does not change altitude")
        if facing != here_facing:
            raise RulesError(f"climbing or diving {who} keeps its facing ({FACINGS[here_facing]})")
        nh = floor + altitude
        if nh < lowest:
            raise RulesError(f"{who} cannot fly below the ground" if lowest == floor else
                             f"{who} cannot fly down into the obstacle at {x},{y} ({lowest - floor} ft high)")
        up = nh > h
        if up and self.must_dive:
            raise RulesError(self.stall_words())
        if up and nh > floor + self.max_above:
            raise RulesError(f"{altitude} ft is above the {self.max_above} ft the planner allows over a square")
        if self.winged:
            if up:
                if nh - h != self.winged_climb:
                    raise RulesError(f"a winged flyer climbs {self.winged_climb} ft at a time, not {nh - h}")
                if s + EPS < self.climb_every:
                    raise RulesError(f"{who} must fly {self.climb_every} ft straight ahead after "
                                     f"{'its last turn or climb' if s or self.figure.has_moved else 'the start of its move'} "
                                     f"before climbing; it has flown {plain_number(s)} ft")
                kind, cost, ns = "climb", 0, 0
            else:
                drop = min(self.dive_step, h - lowest)
                if h - nh != drop:
                    raise RulesError(f"a dive drops {self.dive_step} ft for each 5 ft of movement (less only onto "
                                     f"the ground): from {h - floor} ft {who} dives to {h - floor - drop} ft, "
                                     f"not {altitude}")
                kind, cost, ns = "dive", drop / self.dive_multiplier, s
        else:
            step = 5
            if abs(nh - h) != step:
                raise RulesError(f"{who} rises or descends {step} ft at a time, not {abs(nh - h)}")
            cost = self.rise_cost if up else self.descend_cost
            if cost is None:
                raise RulesError(f"{who} cannot {'rise' if up else 'descend'} under these rules")
            kind, ns = ("rise" if up else "descend"), s
        self._within_budget(spent + cost)
        return kind, cost, (idx, f, par, ns, nh), here_facing

    def _last_turn(self, state, spent, here_facing, facing, last, turned):
        if not last:
            raise RulesError("a figure changes facing by stepping in the new direction; a turn on the spot can "
                             "only end its move")
        if facing not in self.end_facings(state, moved=spent > EPS):
            raise RulesError(self.end_facing_words(state, here_facing, facing, turned))
        return "turn", 0, state, facing

    def _within_budget(self, total: float) -> None:
        if total > self.budget + EPS:
            raise RulesError(f"that brings the move to {plain_number(total)} ft; {self.figure.label} has "
                             f"{plain_number(self.budget)} ft ({self.params.mode})")

    # ----- words -----
    def _too_high_words(self, x, y, nidx, h) -> str:
        top = self.grid.top[nidx]
        if top == NEVER:
            return f"{x},{y} is a wall no flyer passes over"
        return (f"{x},{y} holds an obstacle {top - self.grid.elevation[nidx]} ft high: {self.figure.label} at "
                f"{h - self.grid.elevation[nidx]} ft over it is below its top")

    def running_words(self) -> str:
        if self.params.mode in ("run", "jog", "charge"):
            return (f" (running: at most {self.params.max_turn * 45} degrees per facing change, "
                    f"{self.turning} ft straight between changes)")
        return ""

    def turn_angle_words(self, f: int, d: int) -> str:
        return (f"a facing change turns at most {self.params.max_turn * 45} degrees: {FACINGS[f]} to {FACINGS[d]} "
                f"is {turn_octants(f, d) * 45}{self.running_words()}")

    def straight_words(self, straight: float, turned: bool, facing: int) -> str:
        who = self.figure.label
        if turned or self.figure.has_moved:
            when = "before turning again"
        else:
            when = "after the start of its move before it may turn"
        return (f"{who} must move {self.turning} ft straight ahead ({FACINGS[facing]}) {when}; it has moved "
                f"{plain_number(straight)} ft{self.running_words()}")

    def end_facing_words(self, state, here_facing: int, facing: int, turned: bool) -> str:
        who = self.figure.label
        if self.must_dive:
            return f"{self.stall_words()}; it keeps its facing"
        if self.params.keeps_facing:
            what = "a fighting withdrawal" if self.params.mode == "withdraw" else "a sidestep"
            return f"{what} keeps the facing: {who} ends facing {FACINGS[here_facing]}"
        if turn_octants(here_facing, facing) > self.params.max_turn:
            return self.turn_angle_words(here_facing, facing)
        return self.straight_words(state[3], turned, here_facing)

    def stall_words(self) -> str:
        return (f"{self.figure.label} stalled and must dive at its full rate this move: it may only dive "
                f"straight down (to {self.dive_end_height - self.grid.elevation[self.start_idx]} ft here)")

    # ----- notes for the steps -----
    def step_note(self, kind: str, direction: int, diagonals: int, idx: int, facing_before: int) -> tuple[str, str]:
        rs = self.ruleset
        parts = []
        if direction & 1:
            if self.rule_510:
                nth = diagonals + 1
                parts.append(f"diagonal #{nth} costs {step_cost_ft(self.diagonal, True, diagonals)} ft (5-10 rule)")
                rule = rs.cite("5-10-diagonals")
            else:
                parts.append(f"diagonal ({self.diagonal} rule)")
                rule = rs.cite("diagonals")
        else:
            parts.append("orthogonal step 5 ft")
            rule = rs.cite("movement")
        if self.grid.difficult[idx] and not self.flying:
            parts.append(f"difficult terrain x{self.difficult_multiplier}")
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

    def vertical_note(self, kind: str, cost: float, delta_ft: int) -> tuple[str, str]:
        rs = self.ruleset
        words = {
            "climb": f"climbs {delta_ft} ft after flying its maneuverability distance",
            "dive": f"dives {-delta_ft} ft (at up to {self.dive_multiplier:g}x its move)"
                    + (": stalled, it must dive" if self.must_dive else ""),
            "rise": f"rises {delta_ft} ft straight up at half rate",
            "descend": f"descends {-delta_ft} ft",
        }
        return rs.cite("flyer-altitude"), f"{words[kind]}, {plain_number(cost)} ft"

    def turn_note(self, state: tuple) -> str:
        if state == self.start and self.stationary_free and not self.params.free_turning:
            return "turns freely: it has not left its square"
        if self.params.free_turning:
            return "turns freely"
        return f"final facing change after {self.turning} ft straight"

    # ----- a whole route -----
    def trace(self, route) -> tuple[Path, list[tuple]]:
        """Check a route, `(x, y, facing, altitude_ft)` for every step after the start square, and
        write its Steps: (the Path, the search state after each step). RulesError("step N, to x,y: why")."""
        fig, grid = self.figure, self.grid
        state = self.start
        states = [state]
        face = fig.facing
        steps = [_step(fig.x, fig.y, fig.facing, fig.altitude_ft, 0, 0, "start", "", "starting square")]
        total = 0.0
        diagonals = fig.diagonals_moved
        turned = False
        horizontal = 0.0
        route = [tuple(map(int, r)) for r in route]
        notes = self._step_notes
        # Routes traced on one search share their beginnings (the AI traces dozens to squares near
        # each other): each step but a route's last (the last may turn in place, which a step on the
        # way may not) is kept in a tree of routes, with everything the walk carries after it.
        node = self._traced
        for n, to in enumerate(route, start=1):
            kept = node.get(to) if node is not None and n < len(route) else None
            if kept is not None:
                node, (state, face, total, diagonals, turned, horizontal), step = kept
                steps.append(step)
                states.append(state)
                continue
            x, y, facing, altitude = to
            if not 0 <= facing < 8:
                raise RulesError(f"step {n}, to {x},{y}: facing {facing} is not one of 0-7 ({', '.join(FACINGS)})")
            try:
                kind, cost, nstate, nface = self.step(state, total, face, to, n == len(route), turned)
            except RulesError as err:
                raise RulesError(f"step {n}, to {x},{y}: {err}") from None
            total += cost
            if kind in ("step", "turn+step"):
                direction = DELTA_TO_DIRECTION[(x - steps[-1].x, y - steps[-1].y)]
                key = (kind, direction, diagonals, nstate[0], face)
                got = notes.get(key)
                if got is None:
                    got = notes[key] = self.step_note(kind, direction, diagonals, nstate[0], face)
                rule, note = got
                diagonals += direction & 1
                horizontal += cost
                turned = turned or kind == "turn+step"
            elif kind == "turn":
                rule, note = self.ruleset.cite("maneuverability"), self.turn_note(state)
            else:
                rule, note = self.vertical_note(kind, cost, nstate[4] - state[4])
                turned = turned or kind == "climb"
            step = _step(x, y, nface, altitude, cost, total, kind, rule, note)
            steps.append(step)
            state, face = nstate, nface
            states.append(state)
            if node is not None and n < len(route):
                child: dict = {}
                node[to] = (child, (state, face, total, diagonals, turned, horizontal), step)
                node = child
        if len(route) and not self.may_end(state):
            x, y = grid.square(state[0])
            other = self.foes.get(state[0]) or self.allies.get(state[0])
            if other is not None:
                raise RulesError(f"step {len(route)}, to {x},{y}: a move may not end on another figure's square "
                                 f"({other.label} is there)")
            raise RulesError(f"step {len(route)}, to {x},{y}: {self.stall_words()}, and must go all the way")
        path = Path(fig.id, self.params.mode, tuple(steps), total, self.params.budget_ft,
                    self._stalls(horizontal, steps[-1].altitude_ft))
        return path, states

    def _stalls(self, horizontal_ft: float, end_altitude: int) -> bool:
        fig = self.figure
        if not self.winged or self.must_dive or (fig.altitude_ft <= 0 and end_altitude <= 0):
            return False  # the forced dive is the stall's consequence, not a new stall
        return horizontal_ft < fig.move_ft * self.numbers.stall_fraction


def _step(x, y, facing, altitude_ft, cost_ft, total_ft, kind, rule, note) -> Step:
    """Step(...) with every field given, without the frozen __init__'s guarded setattr per field
    (a path is traced for every plan the AI weighs)."""
    step = object.__new__(Step)
    step.__dict__.update(x=x, y=y, facing=facing, altitude_ft=altitude_ft, cost_ft=cost_ft, total_ft=total_ft,
                         kind=kind, rule=rule, note=note)
    return step
