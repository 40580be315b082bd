"""Level flight: a flyer's move to an end at any height, searched at the one height it flies at now.

A flyer's search carries its height, so a winged flyer (its climbs free) settles every state
again at each height it may climb to, and a path's search finishes its end's cost level across
all of them. Where no height can matter, the answers come from a search at the start height
alone, with no climbs, dives, rises or descents: the same paths, costs and words. That is when

- the end may be at any height (no altitude asked for),
- nothing a flyer passes over needs more height than it has now (no floor higher, no obstacle
  with a stated height higher, no foe it would not fly over; walls with no stated height it never
  passes),
- it is one square wide, moves freely (not a withdrawal or sidestep) and is not diving a stall,
- for a path (not only what the cheapest way costs) of a winged flyer: the end's floor is no higher
  than the start's.

Why the answers are the same: a way with height changes, its height changes left out, is a way at
the start height along the same squares: every step still allowed (nothing needs more height),
no dearer (dives, rises and descents cost; climbs are free), with the same facings and parity and
at least as many feet straight ahead (a climb, a maneuver, sets them to 0). So the cheapest end at
any height costs what the cheapest level end does (and there is one within the budget exactly when
there is a level one). No way as cheap dives (or rises or descends: those cost) on its way to an
end, so the equally cheap ends are level or higher, by free climbs; the planner picks the one
keeping its altitude, or nearest to it: over a floor no higher than the start's, a level one (over
higher ground a winged flyer may climb to keep its altitude at no cost). A level state that some way with a dive (or a rise,
a descent) reaches as cheaply is never settled: the way with the height changes left out reaches a
state at the same square, facing, parity and height strictly cheaper with as many feet straight,
which dominates it; one reached by a climb has 0 ft straight and is dominated so too. So the
settled level states, their costs and their equally cheap ways in are the level search's, and
the path chosen along them is the same. Parting shots are the one thing a way at another height
may change: when the level path draws any, Positioning.plan asks the search at every height (among
equally cheap ways it takes the one drawing the fewest). tests/core/test_hover_answers.py holds it
to whole searches.
"""
from __future__ import annotations


def level_flight(rules, target_idx: int | None = None) -> bool:
    """Make this flyer's rules search at its start height only, when no height can matter for an end
    at any height (see above): for a path to target_idx, or with None for what ways cost. False,
    rules untouched, otherwise."""
    p = rules.params
    if not rules.flying or rules.must_dive or rules.body is not None:
        return False
    if rules.figure.footprint != (1, 1) or p.max_steps is not None or p.keeps_facing or p.directions is not None:
        return False
    height = rules.start[4]
    if any(need > height for need in rules.pass_over.values()):
        return False
    grid = rules.grid
    if target_idx is not None and not _level_end(rules, target_idx):
        return False
    highest_floor, highest_top = grid.level
    if highest_floor > height or highest_top > height:
        return False
    rules.level_flight = True
    rules.heights = _heights(grid, height)
    rules.blocking = {}     # it flies over every foe
    return True


def answers_path(result, target_idx: int) -> bool:
    """Does this search give the path to target_idx (any search but a level one to higher ground)?"""
    return not result.rules.level_flight or _level_end(result.rules, target_idx)


def _level_end(rules, target_idx: int) -> bool:
    """Is the cheapest end on this square a level one (see above)?"""
    return not rules.winged or rules.grid.elevation[target_idx] <= rules.grid.elevation[rules.start_idx]


def _heights(grid, height) -> list:
    """Per square, the height flown (the states' tuples carry it), once per map and height."""
    key = ("level", height)
    got = grid.tables.get(key)
    if got is None:
        got = grid.tables[key] = [height] * len(grid.elevation)
    return got
