"""The search's inner loop for figures that turn on the ground: runners, horses, big square bodies.

The same transitions as dijkstra.advance_general (a step ahead; a turn and a step once the
figure has gone its turning distance straight, within its largest facing change), the same
dominance, the same settled states and costs, in a faster form:
- a state (idx, facing, parity, straight, height) is one int, ((idx * 8 + facing) * 2 + parity)
  * W + straight, W = the straight counter's cap + 1 (on the ground the height is the floor's);
- costs are whole 5-ft steps, so the queue is a list of buckets (Dial's algorithm), not a heap;
- the steps out of (square, facing, parity, may turn) are worked out once per map and numbers;
- dominance (a state is dropped when one settled strictly cheaper at the same square, facing
  and parity has gone at least as far straight) is one record per (square, facing, parity):
  states of one record settle cheapest first, so the farthest straight run settled at a lower
  cost is all it needs to keep;
- parents are not recorded: a settled state's equally cheap ways in are found when a path is
  asked for (turner_tight_parents), from the settled costs alone, as the walker's are.
`SearchResult` presents its states as tuples like every other search's (planner.py converts
them the first time they are asked for). tests/core/test_turner.py holds it to advance_general.
"""
from __future__ import annotations

from ..values.geometry import turn_octants
from .dijkstra import _general_row, general_steps, walker_unit
from .grid import NEVER
from .rules import ALL_FACINGS, EPS

_NONE_YET = 1 << 62


def turner_width(rules) -> int | None:
    """W for this move's integer states, or None when the turner loop does not apply (the
    general search then runs): flyers (but for a level flight, level.py), long bodies, moves that keep their facing or are one
    step, free-turning walkers (their own loop), and costs or straight runs not in whole feet."""
    p = rules.params
    if rules.flying and not rules.level_flight:
        return None
    if rules.collapse or rules.body is not None or p.keeps_facing or p.directions is not None:
        return None
    if p.max_steps is not None or walker_unit(rules) is None or not rules.tracks_straight:
        return None
    cap = rules.straight_cap
    start = rules.start
    if cap != int(cap) or cap > 1000 or start[3] != int(start[3]) or start[4] != rules.heights[start[0]]:
        return None
    return int(cap) + 1


def encode(state: tuple, width: int) -> int:
    idx, f, par, s, _h = state
    return (((idx << 3) | f) << 1 | par) * width + int(s)


def start_key(rules, width: int) -> int:
    return encode(rules.start, width)


def start_search(result) -> None:
    """The integer search's fields on a SearchResult (see planner.SearchResult.__init__)."""
    rules, width = result.rules, result.n_width
    heuristic = result._heuristic
    k = start_key(rules, width)
    first_key = 0 if heuristic is None else int(heuristic(rules.start_idx, rules.start[2], 0))
    result.n_settled = {}
    result.n_best = {k: 0}
    result.n_dominance = {}
    # A key (cost + bound still to go) never passes twice the budget plus the bound at the start.
    top = 2 * int(rules.budget) + first_key
    result.n_buckets = [[] for _ in range(top // 5 + 2)]
    result.n_buckets[first_key // 5].append(k)
    result.n_level = result.n_pos = 0
    result.n_converted = 0
    result.n_bound = {}     # the A* bound still to go per square, facing and parity, once worked out


def decode(k: int, width: int, elevation) -> tuple:
    base, s = divmod(k, width)
    idx = base >> 4
    return (idx, (base >> 1) & 7, base & 1, s, elevation[idx])


def _table(rules, width: int) -> dict:
    """(idx * 16 + facing * 2 + parity) * 2 + may_turn -> the steps out: (cost, next base * W,
    feet straight it adds, turned). Shared by every search on the map under the same numbers."""
    grid = rules.grid
    key = ("turner", rules.flying, rules.diagonal, rules.corner_cutting, rules.climb_step, rules.difficult_multiplier,
           rules.params.max_turn, width)
    table = grid.tables.get(key)
    if table is None:
        table = grid.tables[key] = {}
    return table


_DIRS: dict = {}


def _directions(f: int, may_turn: int, max_turn: int) -> tuple:
    """(direction, turned) of the steps out of facing f."""
    key = (f, may_turn, max_turn)
    got = _DIRS.get(key)
    if got is None:
        got = [(f, False)]
        if may_turn:
            got += [(d, True) for d in range(8) if d != f and turn_octants(f, d) <= max_turn]
        got = _DIRS[key] = tuple(got)
    return got


def _row(rules, rows, width: int, code: int) -> tuple:
    base = code >> 1
    par = base & 1
    f = (base >> 1) & 7
    idx = base >> 4
    row = rows[idx]
    if row is None:
        row = rows[idx] = _general_row(rules, idx)
    out = []
    for d, turned in _directions(f, code & 1, rules.params.max_turn):
        e = row[d]
        if e is None:
            continue
        if par:
            out.append((int(e[3]), (((e[0] << 3) | d) << 1 | par ^ e[1]) * width, int(e[5]), turned))
        else:
            out.append((int(e[2]), (((e[0] << 3) | d) << 1 | e[1]) * width, int(e[4]), turned))
    return tuple(out)


def advance_turner(result, goal_idx, reached, heuristic) -> None:
    """Settle the integer states of a turning ground figure in cost order (plus the A* bound with a
    goal), until the buckets are empty (result.complete) or, with `reached`, the goal's cost level
    is finished; resumable."""
    rules = result.rules
    width = result.n_width
    table = _table(rules, width)
    rows = general_steps(rules)
    foes = rules.blocking or None
    budget = rules.budget + EPS
    turning = rules.turning - EPS
    cap = width - 1
    settled, best, dominance = result.n_settled, result.n_best, result.n_dominance
    buckets = result.n_buckets
    unit = 5
    level, pos = result.n_level, result.n_pos
    elevation = rules.heights
    # The bound still to go, per square, facing and parity (asked for every way into a state).
    bound = result.n_bound
    goal_level = None
    # Aimed at a goal: once the key (cost + the bound still to go) passes the budget, no state left
    # can end on the goal within it, and the search stops there (resumable: nothing is dropped).
    last_level = len(buckets) if reached is None else min(len(buckets), int(budget) // unit + 1)
    while level < last_level:
        bucket = buckets[level]
        if pos == 0:
            bucket.sort()   # equally cheap states in state order, as a heap of (cost, state) pops them
        while pos < len(bucket):
            k = bucket[pos]
            pos += 1
            if k in settled:
                continue
            g = best[k]
            base, s = divmod(k, width)
            idx = base >> 4
            if foes is not None and idx in foes:
                continue    # never settled, so never left
            seen = dominance.get(base)
            if seen is None:
                dominance[base] = [g, -1, s]
            else:
                if seen[0] < g:     # every state of this record settled so far is strictly cheaper
                    seen[0] = g
                    seen[1] = seen[2]
                if seen[1] >= s:
                    continue
                if s > seen[2]:
                    seen[2] = s
            settled[k] = g
            if idx == goal_idx and goal_level is None and reached((idx, (base >> 1) & 7, base & 1, s, elevation[idx])):
                goal_level = level
            code = (base << 1) | (s >= turning)
            steps = table.get(code)
            if steps is None:
                steps = table[code] = _row(rules, rows, width, code)
            for cost, nb, dist, turned in steps:
                ng = g + cost
                if ng > budget:
                    continue
                if turned:
                    ns = dist if dist < cap else cap
                else:
                    ns = s + dist
                    if ns > cap:
                        ns = cap
                nk = nb + ns
                if ng < best.get(nk, _NONE_YET):
                    best[nk] = ng
                    if heuristic is None:
                        buckets[ng // unit].append(nk)
                    else:
                        to_go = bound.get(nb)
                        if to_go is None:
                            base = nb // width
                            to_go = bound[nb] = heuristic(base >> 4, base & 1, 0)
                        buckets[int(ng + to_go) // unit].append(nk)
        level += 1
        pos = 0
        if goal_level is not None:
            break
    result.n_level, result.n_pos = level, pos
    if level >= len(buckets):
        result.complete = True


def turner_tight_parents(result, k: int) -> list[tuple[int, str]]:
    """Every settled (state, kind) with a step into state k at exactly its cost, least first."""
    rules = result.rules
    width = result.n_width
    settled = result.n_settled
    g = settled.get(k)
    if g is None:
        return []
    base, s = divmod(k, width)
    idx, f, par = base >> 4, (base >> 1) & 7, base & 1
    grid = rules.grid
    pidx = idx - grid.offsets[f]
    if not grid.passable[pidx] and not (rules.flying and grid.top[pidx] != NEVER):
        return []
    rows = general_steps(rules)
    row = rows[pidx]
    if row is None:
        row = rows[pidx] = _general_row(rules, pidx)
    e = row[f]
    if e is None or e[0] != idx:
        return []
    _nidx, flips, cost_even, cost_odd, dist_even, dist_odd, _need, _nh = e
    ppar = par ^ flips
    cost, dist = (cost_odd, dist_odd) if ppar else (cost_even, dist_even)
    cap = width - 1
    turning = rules.turning - EPS
    max_turn = rules.params.max_turn
    out = []
    for pf in range(8):
        turned = pf != f
        if turned and turn_octants(pf, f) > max_turn:
            continue
        pbase = (((pidx << 3) | pf) << 1 | ppar) * width
        for ps in range(width):
            gp = settled.get(pbase + ps)
            if gp is None or abs(gp + cost - g) > EPS:
                continue
            if turned:
                if ps < turning or min(dist, cap) != s:
                    continue
            elif min(ps + dist, cap) != s:
                continue
            out.append((pbase + ps, "turn+step" if turned else "step"))
    return out


def turner_states_at(result, idx: int) -> list[int]:
    """The settled integer states on square idx."""
    width = result.n_width
    settled = result.n_settled
    out = []
    for f in range(8):
        for par in (0, 1):
            base = (((idx << 3) | f) << 1 | par) * width
            out.extend(base + s for s in range(width) if base + s in settled)
    return out


_ENDS_OF: dict = {}


def _ends_of(free_turning: bool, max_turn) -> list:
    """End facings by facing * 2 + whether it may turn now (the same for every search with these
    turning rules: worked out once)."""
    key = (free_turning, max_turn)
    got = _ENDS_OF.get(key)
    if got is None:
        if free_turning:
            turnable = {f: ALL_FACINGS for f in range(8)}
        else:
            turnable = {f: tuple(g for g in range(8) if turn_octants(f, g) <= max_turn) for f in range(8)}
        got = _ENDS_OF[key] = [ends for f in range(8) for ends in ((f,), turnable[f])]
    return got


def turner_entries(result) -> dict:
    """The reachable set from the integer states: what entries.collect_entries makes of the same
    states as tuples (a ground figure: altitude 0; end facings by the turning rules)."""
    from .path import ReachEntry
    rules = result.rules
    width = result.n_width
    grid = rules.grid
    square = grid.square
    p = rules.params
    turning = rules.turning - EPS
    blocked = rules.ends_blocked
    start_k = start_key(rules, width)
    stationary = rules.stationary_free and not rules.must_dive
    ends_of = _ends_of(p.free_turning, p.max_turn)
    # Settled cheapest first (no A* bound): the first cost met for an end facing is its least.
    ordered = result._heuristic is None
    by_idx: dict = {}
    for k, cost in result.n_settled.items():
        base, s = divmod(k, width)
        idx = base >> 4
        facings = by_idx.get(idx)
        if facings is None:
            facings = by_idx[idx] = {}
        elif ordered and len(facings) == 8:
            continue
        if k == start_k and stationary:
            ends = ALL_FACINGS
        else:
            ends = ends_of[((base >> 1) & 7) * 2 + (s >= turning)]
        cost = float(cost)
        if ordered:
            for e in ends:
                if e not in facings:
                    facings[e] = cost
        else:
            for e in ends:
                if cost < facings.get(e, 1e18):
                    facings[e] = cost
    out = {}
    for idx, facings in by_idx.items():
        least = min(facings.values())
        out[square(idx)] = ReachEntry(cost_ft=least, facings=facings, altitudes={0: least},
                                       can_end=idx not in blocked)
    return out


# ----- the integer states as the tuples every search presents -----
def states_at(result, idx: int) -> list[tuple]:
    elevation = result.rules.heights
    return [decode(k, result.n_width, elevation) for k in turner_states_at(result, idx)]


def tight_parents(result, state: tuple) -> list:
    width, elevation = result.n_width, result.rules.heights
    k = encode(state, width)
    if k == start_key(result.rules, width):
        return []
    return sorted((decode(j, width, elevation), kind) for j, kind in turner_tight_parents(result, k))


def convert(result) -> None:
    """Bring the tuple views (t_settled, t_parents, t_ties) up to date with the integer states
    settled so far."""
    settled = result.n_settled
    if result.n_converted == len(settled):
        return
    width, elevation = result.n_width, result.rules.heights
    start = start_key(result.rules, width)
    keys = list(settled)[result.n_converted:]
    for k in keys:
        state = decode(k, width, elevation)
        result.t_settled[state] = float(settled[k])
        if k == start:
            continue
        ways = sorted((decode(j, width, elevation), kind) for j, kind in turner_tight_parents(result, k))
        if ways:
            result.t_parents[state] = ways[0]
            if len(ways) > 1:
                result.t_ties[state] = ways[1:]
    result.n_converted += len(keys)
