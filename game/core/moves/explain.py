"""Why a square cannot be reached, in a player's words.

Works by relaxing the move one rule at a time: if the square is reachable without the budget
it is too far; if it is reachable with free turning it is the turning rules; and so on.
"""
from __future__ import annotations

from ..figure import Figure
from ..geometry import DIRECTION_DELTAS, FACINGS, bearing_octant, turn_octants
from .path import SIDESTEP_DIRECTIONS

_UNLIMITED_FT = 10_000


def _ft(value: float) -> str:
    return f"{int(value)}" if float(value).is_integer() else f"{value:.1f}"


def why_unreachable(planner, figure: Figure, mode: str, occupants: dict, target, facing, altitude_ft, result) -> str:
    x, y = target
    bmap = planner.map
    who = figure.label
    params = result.params
    if (x, y) == figure.pos and facing is None:
        return f"{who} is already on {x},{y}"
    if bmap.blocks_move[y, x] and figure.flyer == "none":
        return f"{x},{y} is blocked: a wall or obstacle stands there"
    other = occupants.get((x, y))
    if other is not None:
        return f"{x},{y} is occupied by {other.label}: a move may not end on another figure"
    if mode == "sidestep":
        lateral = [((figure.x + dx), (figure.y + dy)) for dx, dy in _lateral_deltas(figure.facing)]
        if (x, y) not in lateral:
            names = " or ".join(f"{a},{b}" for a, b in lateral)
            return (f"a sidestep moves one square to the side while keeping facing {figure.facing_name}: "
                    f"{who} may sidestep to {names}")
        return f"{who} cannot sidestep to {x},{y}: the square is blocked or a wall corner is in the way"
    if mode == "withdraw":
        free = planner.search(figure, mode, occupants, budget_ft=_UNLIMITED_FT).path_to(target)
        if free is None:
            return (f"a fighting withdrawal backs away from the facing ({figure.facing_name}) without turning: "
                    f"{x},{y} is not behind {who}")
        return (f"too far for a fighting withdrawal: needs {_ft(free.total_ft)} ft, "
                f"{who} may back away {_ft(params.budget_ft)} ft (half its move)")

    relaxed_all = planner.search(figure, mode, occupants, budget_ft=_UNLIMITED_FT, ignore_turning=True)
    anywhere = relaxed_all.path_to(target, None, altitude_ft)
    if anywhere is None:
        if altitude_ft is not None and relaxed_all.path_to(target) is not None:
            return f"{who} cannot be at {altitude_ft} ft over {x},{y} this move"
        if figure.flyer == "none" and _step_too_high(planner, target):
            return f"{x},{y} is blocked: it lies on a ledge or drop too high to step onto (more than {planner.climb_step_ft} ft)"
        return f"{x},{y} cannot be reached: walls, foes or drops close every way there"
    with_turning = planner.search(figure, mode, occupants, budget_ft=_UNLIMITED_FT).path_to(target, facing, altitude_ft)
    no_limits_cost = anywhere.total_ft
    if no_limits_cost > params.budget_ft and (with_turning is None or with_turning.total_ft >= no_limits_cost):
        return f"too far: {x},{y} needs {_ft(no_limits_cost)} ft, {who} has {_ft(params.budget_ft)} ft ({mode})"
    # The turning rules are what stands in the way.
    reason = _turning_reason(planner, figure, mode, params, target, facing, with_turning, result)
    lateral = [(figure.x + dx, figure.y + dy) for dx, dy in _lateral_deltas(figure.facing)]
    if mode in ("run", "jog") and (x, y) in lateral:
        reason += "; a sidestep would keep its facing, but sidestepping is only allowed at walking pace"
    return reason


def _turning_reason(planner, figure, mode, params, target, facing, with_turning, result) -> str:
    who = figure.label
    x, y = target
    run_words = ""
    if mode in ("run", "jog", "charge"):
        run_words = (f" (running: at most {params.max_turn * 45} degrees per facing change and "
                     f"{params.turning_ft} ft straight between changes)")
    reachable_anyway = result.path_to(target)
    if facing is not None and reachable_anyway is not None:
        arrive = reachable_anyway.end
        return (f"{who} can reach {x},{y} but not facing {FACINGS[facing]}: it arrives facing "
                f"{FACINGS[arrive.facing]} and must move {params.turning_ft} ft straight ahead after a facing "
                f"change before turning again{run_words}")
    first_step_needs_turn = _first_step_turn(figure, target)
    if first_step_needs_turn and params.turning_ft > 0 and figure.has_moved:
        lead = (f"{who} must move {params.turning_ft} ft straight ahead ({figure.facing_name}) before turning again; "
                f"it has moved {figure.straight_ft:g} ft since its last facing change{run_words}")
    elif first_step_needs_turn and params.turning_ft > 0:
        lead = (f"{who} must move {params.turning_ft} ft straight ahead ({figure.facing_name}) before its first "
                f"turn{run_words}")
    else:
        lead = f"{who} cannot turn sharply enough: turning distance {params.turning_ft} ft{run_words}"
    if with_turning is None:
        return f"{lead}; no path to {x},{y} keeps to it"
    return (f"{lead}; keeping to it, {x},{y} needs {_ft(with_turning.total_ft)} ft and it has "
            f"{_ft(params.budget_ft)} ft")


def _first_step_turn(figure: Figure, target) -> bool:
    return turn_octants(figure.facing, bearing_octant(figure.pos, target)) > 0


def _lateral_deltas(facing: int):
    return [DIRECTION_DELTAS[(facing + d) % 8] for d in SIDESTEP_DIRECTIONS]


def _step_too_high(planner, target) -> bool:
    x, y = target
    elev = planner.map.elevation_ft
    here = int(elev[y, x])
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            nx, ny = x + dx, y + dy
            if (dx or dy) and planner.map.in_bounds(nx, ny) and abs(int(elev[ny, nx]) - here) <= planner.climb_step_ft:
                return False
    return True
