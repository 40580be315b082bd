"""A finished search's reachable set: every square the move can end on or pass, with its least
cost per end facing and altitude, as the overlay, the AI and `fivefoot reach` read it.

Built from the states a search settled (planner.SearchResult.entries chooses the builder: these
two for free-turning walkers and for states kept as tuples, turner.turner_entries for turning
ground figures, volume.py's sweep for a flyer's big volume); `like_the_sweep` writes a flight's
entries as the sweep gives them, so the answer reads the same whichever worked it out.
"""
from __future__ import annotations

from ..values.geometry import turn_octants
from .path import ReachEntry
from .rules import ALL_FACINGS, EPS


def walker_entries(result) -> dict[tuple[int, int], ReachEntry]:
    """A free-turning walker ends a move facing any way, on the ground: one cost per square."""
    square = result.planner.grid.square
    blocked = result.rules.ends_blocked
    if result._heuristic is None:     # settled cheapest first: the first at a square is its cost
        least: dict = {}
        for k, cost in result.k_settled.items():
            if k >> 1 not in least:
                least[k >> 1] = cost
    else:
        least = {}
        for k, cost in result.k_settled.items():
            if cost < least.get(k >> 1, 1e18):
                least[k >> 1] = cost
    out = {}
    new = ReachEntry.__new__
    # cost -> ({facing: cost}, {0: cost}): squares at one cost share these two read-only
    # dicts (nothing writes into an entry's dicts; whoever narrows them assigns new ones).
    by_cost: dict = {}
    for idx, cost in least.items():
        shared = by_cost.get(cost)
        if shared is None:
            shared = by_cost[cost] = (dict.fromkeys(ALL_FACINGS, cost), {0: cost})
        entry = new(ReachEntry)
        entry.cost_ft = cost
        entry.facings, entry.altitudes = shared
        entry.can_end = idx not in blocked
        out[square(idx)] = entry
    return out

def collect_entries(result) -> dict[tuple[int, int], ReachEntry]:
    rules = result.rules
    grid = result.planner.grid
    stride = grid.stride
    elevation = grid.elevation
    forced = rules.dive_end_height is not None
    may_end = rules.may_end
    start = rules.start
    stationary = rules.stationary_free and not rules.must_dive
    p = rules.params
    turning = rules.turning - EPS
    # End facings by (facing, may turn now): the same few tuples for every state.
    keep = {f: (f,) for f in range(-1, 8)}
    if p.keeps_facing or rules.must_dive:
        keep[-1] = (result.figure.facing,)
        turnable = keep
    elif p.free_turning:
        keep = turnable = {f: ALL_FACINGS for f in range(-1, 8)}
    else:
        keep[-1] = ALL_FACINGS
        turnable = {f: tuple(g for g in range(8) if turn_octants(f, g) <= p.max_turn) for f in range(8)}
        turnable[-1] = ALL_FACINGS
    out: dict[tuple[int, int], ReachEntry] = {}
    blocked = rules.ends_blocked
    for state, cost in result.t_settled.items():
        if forced and not may_end(state):
            continue
        idx, f, _par, s, h = state
        y, x = divmod(idx, stride)
        sq = (x - 1, y - 1)
        entry = out.get(sq)
        if entry is None:
            entry = out[sq] = ReachEntry(cost_ft=cost, can_end=idx not in blocked)
        elif cost < entry.cost_ft:
            entry.cost_ft = cost
        if state == start and stationary:
            ends = ALL_FACINGS
        else:
            ends = turnable[f] if s >= turning else keep[f]
        if rules.body is not None:
            ends = rules.body.fitting(idx, ends, h)    # a long body swings about its head
        facings = entry.facings
        for e in ends:
            if cost < facings.get(e, 1e18):
                facings[e] = cost
        alt = h - elevation[idx]
        if cost < entry.altitudes.get(alt, 1e18):
            entry.altitudes[alt] = cost
    if rules.body is not None:
        out = rules.body.filter_entries(out, grid)
    return out



def like_the_sweep(entries: dict) -> dict:
    """A flight's entries as the sweep gives them (volume.py), so that the answer reads the same
    whichever worked it out: end facings in facing order, altitudes in height order, and whole feet as
    ints when every altitude reached is whole (a dive of twice 5 ft leaves the search at 40 - 10.0 ft)."""
    whole = all(float(a).is_integer() for entry in entries.values() for a in entry.altitudes)
    kind = int if whole else float
    for entry in entries.values():
        entry.facings = dict(sorted(entry.facings.items()))
        entry.altitudes = {kind(a): c for a, c in sorted(entry.altitudes.items())}
    return entries
