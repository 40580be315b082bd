"""A flyer's path after its reachable set: searched toward the one end asked for, not over the whole move.

A flight's reachable set comes from the vectorised sweep (volume.py), which keeps no parents; the
whole search that would give its paths settles every state of every height the move may fly at
(tens of thousands on a big field). A path to one end asked of that search (planner.SearchResult.
path_to, the AI's MoveSearch) comes instead from a search aimed at the end (A* with the open-ground
distance and the cheapest dive to the height asked for): it settles every state the whole search
settles as cheaply as the end and whose bound reaches no further, the end's cost level in full and
the equally cheap ways into each, so the chain picked along the least of them is the same
(planner.SearchResult.chain). An end at any height is searched level where no height can matter
(level.py: the same path). One aimed search is kept per square and altitude and carries on for the
other facings asked there (the bound is the same). tests/core/test_flight_search_paths.py holds
the paths to the whole search's.
"""
from __future__ import annotations

from .rules import EPS


def aimed_path(result, target: tuple[int, int], facing: int | None, altitude_ft: int | None):
    """result.path_to(target, facing, altitude_ft) by a search aimed at that end, kept on the result;
    None at once where its reachable set, when asked already, has no such end."""
    entries = result._entries
    entry = None
    if entries is not None:
        entry = entries.get(target)
        if entry is None or not entry.can_end or (facing is not None and entry.facings and facing not in entry.facings) \
                or (altitude_ft is not None and entry.altitudes and altitude_ft not in entry.altitudes):
            return None
    if not result.planner.map.in_bounds(*target):
        return None
    budget_key = result.rules.budget + EPS
    aimed = result._aimed.get((target, altitude_ft))
    # A search kept to the least cost of its end at one facing (or at any) answers for that one only.
    if aimed is None or (aimed.goal[1] != facing and aimed.key_limit < budget_key):
        goal = (target, facing, altitude_ft)
        if altitude_ft is None:     # at any height: searched level where no height can matter (level.py)
            mode, relax = result.asked
            aimed = result.planner.unstarted_search(result.figure, mode, result.occupants, goal=goal, level="path",
                                                    **relax)
        else:
            aimed = type(result)(result.planner, result.figure, result.rules, result.occupants, goal)
        # Only this end is asked of it: a state keyed (cost + bound still to go) past the budget, or past
        # the end's least cost where the reachable set gives it, never settles for it; none is kept.
        known = None if entry is None or (facing is None) == (altitude_ft is None) else \
            entry.facings.get(facing) if altitude_ft is None else entry.altitudes.get(altitude_ft)
        aimed.key_limit = budget_key if known is None else known + EPS
        result._aimed[(target, altitude_ft)] = aimed
    return aimed.path_to(target, facing, altitude_ft)
