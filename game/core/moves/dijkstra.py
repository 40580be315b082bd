"""The search's inner loops: the rules of rules.MoveRules applied inline, where players wait.

Two loops over the same rules:
- `advance_walker` for a free-turning walker (the common case): a state is just the square and
  the diagonal parity, packed in one int (idx * 2 + parity), and each square's legal steps are
  worked out once per map and ruleset (walls, ledges, wall corners, costs) and kept;
- `advance_general` for everything else: states are (idx, facing, parity, straight, height).
Both settle states in order of cost (plus, for a search aimed at one goal, a lower bound on
the cost still to go: A* with an open-ground distance, which never overestimates), keep the
equally cheap ways into each state, and stop when asked to (a goal's cost level is finished
first). tests/core/test_planner_exhaustive.py and tests/core/test_follow.py hold them to MoveRules.
"""
from __future__ import annotations

import heapq

from ..values.geometry import SQUARE_FT, step_feet, turn_octants
from .grid import NEVER
from .rules import EPS

_SQRT2 = 2 ** 0.5
_NO_LIMIT = float("inf")


# ----- a lower bound on the cost still to go (A*) -----
def make_heuristic(rules, target, altitude_ft):
    """f(idx, parity, height) -> feet at least still needed to end on target, or None for no goal."""
    if target is None:
        return None
    grid = rules.grid
    stride = grid.stride
    tx, ty = target[0] + 1, target[1] + 1
    diagonal = rules.diagonal
    goal_h = down = up = None
    if altitude_ft is not None and rules.flying:
        goal_h = grid.elevation[grid.index(*target)] + altitude_ft
        if rules.winged:
            down = 1 / rules.dive_multiplier
            up = 0.0
        else:
            down = (rules.descend_cost or 0) / 5
            up = (rules.rise_cost or 0) / 5

    # One closure, called for every way into a state: the horizontal distance, and for a flight to
    # a height asked for, the cheapest change to that height.
    def horizontal(idx, par, h=0):
        y, x = divmod(idx, stride)
        dx = x - tx if x > tx else tx - x
        dy = y - ty if y > ty else ty - y
        if dx > dy:
            dx, dy = dy, dx
        if diagonal == "5-10":
            return 5 * dy + 5 * ((dx + par) >> 1)
        if diagonal == "5":
            return 5 * dy
        if diagonal == "euclidean":
            return 5 * (dy - dx) + 5 * _SQRT2 * dx
        return 5 * (dx + dy)

    if goal_h is None:
        return horizontal

    def with_height(idx, par, h):
        y, x = divmod(idx, stride)
        dx = x - tx if x > tx else tx - x
        dy = y - ty if y > ty else ty - y
        if dx > dy:
            dx, dy = dy, dx
        to_height = (h - goal_h) * down if h > goal_h else (goal_h - h) * up
        if diagonal == "5-10":
            return 5 * dy + 5 * ((dx + par) >> 1) + to_height
        if diagonal == "5":
            return 5 * dy + to_height
        if diagonal == "euclidean":
            return 5 * (dy - dx) + 5 * _SQRT2 * dx + to_height
        return 5 * (dx + dy) + to_height
    return with_height


# ----- free-turning walkers -----
def walker_steps(rules) -> list:
    """Per square (lazily): the legal steps out of it as (next idx, diagonal, cost at even parity,
    cost at odd parity), whoever walks. Shared by every search on the map under the same numbers."""
    return _lazy_table(rules, "walker", 1)


def _lazy_table(rules, kind: str, per_square: int) -> list:
    """A table on the map's grid filled as the searches need it, shared by every search under the
    same step numbers (diagonal rule, corner cutting, climb, difficult ground)."""
    grid = rules.grid
    key = (kind, rules.flying, rules.diagonal, rules.corner_cutting, rules.climb_step, rules.difficult_multiplier)
    table = grid.tables.get(key)
    if table is None:
        table = grid.tables[key] = [None] * (per_square * len(grid.passable))
    return table


def walker_state_steps(rules) -> list:
    """Per walker state k = idx * 2 + parity (lazily): (next state, cost) for each legal step, the
    parity and its cost worked out once (the inner loop then only adds and compares)."""
    return _lazy_table(rules, "walker-states", 2)


def walker_state_groups(rules) -> list:
    """Per walker state (lazily): its steps grouped by cost, cheapest first, as (cost, next
    states), for the search without a goal: one addition and one budget check per group, and none
    left once a group is over budget. Each group keeps the steps' order, and its states all go
    into one bucket, so the queue holds them in the order the per-step loop would."""
    return _lazy_table(rules, "walker-groups", 2)


def _walker_state_groups(rules, table, state_table, k: int) -> tuple:
    steps = state_table[k]
    if steps is None:
        steps = state_table[k] = _walker_state_row(rules, table, k)
    by_cost: dict = {}
    for nk, cost in steps:
        by_cost.setdefault(cost, []).append(nk)
    return tuple((cost, tuple(by_cost[cost])) for cost in sorted(by_cost))


def _walker_state_row(rules, table, k: int) -> tuple:
    idx, par = k >> 1, k & 1
    row = table[idx]
    if row is None:
        row = table[idx] = _walker_row(rules, idx)
    return tuple(((n << 1) | (par ^ flips), odd if par else even) for n, flips, even, odd in row)


def _walker_row(rules, idx: int) -> tuple:
    if rules.flying:    # level flight (level.py): the flight's steps, none needing more height than flown
        return _flight_row(rules, idx)
    grid = rules.grid
    passable, wall, elevation, difficult, offsets = grid.passable, grid.wall, grid.elevation, grid.difficult, grid.offsets
    h = elevation[idx]
    row = []
    for d in range(8):
        n = idx + offsets[d]
        if not passable[n] or abs(elevation[n] - h) > rules.climb_step:
            continue
        diagonal = d & 1
        if diagonal:
            if rules.no_diagonals:
                continue
            if not rules.corner_cutting and (wall[idx + offsets[(d + 7) & 7]] or wall[idx + offsets[(d + 1) & 7]]):
                continue
        even, odd = step_feet(rules.diagonal, diagonal)
        if difficult[n]:
            even, odd = even * rules.difficult_multiplier, odd * rules.difficult_multiplier
        if walker_unit(rules) is not None:
            even, odd = int(even), int(odd)   # whole feet: costs add up exactly and index the buckets
        row.append((n, diagonal if rules.rule_510 else 0, even, odd))
    return tuple(row)


def _flight_row(rules, idx: int) -> tuple:
    """_walker_row for a flyer at one height above everything it may pass over: a step is refused only
    by a wall no flyer passes (and, diagonally, by one at either corner it cuts)."""
    grid = rules.grid
    passable, elevation, top = grid.passable, grid.elevation, grid.top
    around = [idx + o for o in grid.offsets]
    over = [elevation[n] if passable[n] else top[n] for n in around]
    whole = walker_unit(rules) is not None
    straight_feet = step_feet(rules.diagonal, False)
    diagonal_feet = None if rules.no_diagonals else step_feet(rules.diagonal, True)
    if whole:
        straight_feet = (int(straight_feet[0]), int(straight_feet[1]))
        diagonal_feet = diagonal_feet and (int(diagonal_feet[0]), int(diagonal_feet[1]))
    flips = 1 if rules.rule_510 else 0
    cut = rules.corner_cutting
    row = []
    for d in range(8):
        if d & 1:
            if diagonal_feet is None or over[d] == NEVER or (not cut and (over[(d + 7) & 7] == NEVER
                                                                         or over[(d + 1) & 7] == NEVER)):
                continue
            row.append((around[d], flips, *diagonal_feet))
        elif over[d] != NEVER:
            row.append((around[d], 0, *straight_feet))
    return tuple(row)


_NONE_YET = 1 << 62   # no way into a state found yet (an int: the costs it is compared with are)


def walker_unit(rules) -> int | None:
    """The step all a walker's costs (and the A* bound) are whole multiples of, for a bucket queue;
    None when there is none (euclidean diagonals)."""
    if rules.diagonal == "euclidean" or rules.difficult_multiplier != int(rules.difficult_multiplier):
        return None
    return 5


def advance_walker(result, goal_idx, reached, heuristic) -> None:
    """Settle int states (idx * 2 + parity) of a free-turning walker; see advance_general.

    Costs come in whole 5-ft steps (but for euclidean diagonals), so the queue is a list of
    buckets, one per 5 ft of cost (Dial's algorithm), cheaper than a heap. Equally cheap ways in
    are not recorded here: walker_tight_parents finds them when a path is wanted (most searches
    only feed a reachable set)."""
    if result.k_unit is None:
        return _advance_walker_heap(result, goal_idx, reached, heuristic)
    rules = result.rules
    table = walker_steps(rules)
    state_table = walker_state_steps(rules)
    group_table = walker_state_groups(rules)
    foes = rules.blocking or None
    budget = rules.budget + EPS
    # No step costs less than a square's 5 ft (difficult ground only adds): a state settled with
    # less than that left has nowhere to go, and the edge of a reachable set is most of its states.
    last_to_leave = budget - SQUARE_FT * min(1, rules.difficult_multiplier)
    parity_dominates = rules.parity_dominates
    settled, best, parents = result.k_settled, result.k_best, result.k_parents
    buckets = result.k_buckets
    unit = result.k_unit
    level, pos = result.k_level, result.k_pos
    elevation = rules.heights
    # The bound still to go, per state (a function of its square and parity, asked for every way in).
    bound = result.k_bound
    goal_level = None
    # Aimed at a goal: keys (cost + the bound still to go) past the budget cannot end on it (turner.py).
    last_level = len(buckets) if reached is None else min(len(buckets), int(budget) // unit + 1)
    while level < last_level:
        bucket = buckets[level]
        while pos < len(bucket):
            k = bucket[pos]
            pos += 1
            if k in settled:
                continue
            g = best[k]
            idx = k >> 1
            if foes is not None and idx in foes:
                continue    # never settled, so never left: cheaper to ask once here than on every step into it
            par = k & 1
            if par and parity_dominates:
                g0 = settled.get(k - 1)
                if g0 is not None and g0 < g - EPS:
                    continue  # the even count got here strictly cheaper and does everything this can
            settled[k] = g
            if idx == goal_idx and goal_level is None and reached((idx, -1, par, 0, elevation[idx])):
                goal_level = level
            if g > last_to_leave:
                continue
            if heuristic is None:
                groups = group_table[k]
                if groups is None:
                    groups = group_table[k] = _walker_state_groups(rules, table, state_table, k)
                for cost, nks in groups:
                    ng = g + cost
                    if ng > budget:
                        break
                    into = buckets[ng // unit]
                    for nk in nks:
                        if ng < best.get(nk, _NONE_YET):
                            best[nk] = ng
                            parents[nk] = k
                            into.append(nk)
                continue
            steps = state_table[k]
            if steps is None:
                steps = state_table[k] = _walker_state_row(rules, table, k)
            for nk, cost in steps:
                ng = g + cost
                if ng > budget:
                    continue
                old = best.get(nk)
                if old is None or ng < old:
                    best[nk] = ng
                    parents[nk] = k
                    to_go = bound.get(nk)
                    if to_go is None:
                        to_go = bound[nk] = heuristic(nk >> 1, nk & 1, 0)
                    buckets[(ng + to_go) // unit].append(nk)
        level += 1
        pos = 0
        if goal_level is not None:
            break   # the goal's cost level is finished
    result.k_level, result.k_pos = level, pos
    if level >= len(buckets):
        result.complete = True


def _advance_walker_heap(result, goal_idx, reached, heuristic) -> None:
    rules = result.rules
    table = walker_steps(rules)
    state_table = walker_state_steps(rules)
    foes = rules.blocking
    budget = rules.budget + EPS
    parity_dominates = rules.parity_dominates
    settled, best, parents = result.k_settled, result.k_best, result.k_parents
    heap = result.k_heap
    pop, push = heapq.heappop, heapq.heappush
    goal_level = None
    while heap:
        key, k = pop(heap)
        if (goal_level is not None and key > goal_level + EPS) or (reached is not None and key > budget):
            push(heap, (key, k))    # the goal's level is done, or no key left is within the budget
            return
        if k in settled:
            continue
        g = best[k]
        idx = k >> 1
        par = k & 1
        if par and parity_dominates:
            g0 = settled.get(k - 1)
            if g0 is not None and g0 < g - EPS:
                continue
        settled[k] = g
        if goal_level is None and idx == goal_idx and reached((idx, -1, par, 0, rules.heights[idx])):
            goal_level = key
        steps = state_table[k]
        if steps is None:
            steps = state_table[k] = _walker_state_row(rules, table, k)
        for nk, cost in steps:
            ng = g + cost
            if ng > budget or (foes and nk >> 1 in foes):
                continue
            old = best.get(nk)
            if old is None or ng < old - EPS:
                best[nk] = ng
                parents[nk] = k
                push(heap, (ng if heuristic is None else ng + heuristic(nk >> 1, nk & 1, 0), nk))
    result.complete = True


def walker_tight_parents(result, k: int) -> list[int]:
    """Every settled int state with a step into k at exactly k's cost (the search's parent first)."""
    rules = result.rules
    table = walker_steps(rules)
    settled = result.k_settled
    g = settled[k]
    idx, par = k >> 1, k & 1
    first = result.k_parents[k]
    out = [first]
    offsets = rules.grid.offsets
    for d in range(8):
        n = idx - offsets[d]
        row = table[n]
        if row is None:
            if not rules.grid.passable[n] and not (rules.flying and rules.grid.top[n] != NEVER):
                continue
            row = table[n] = _walker_row(rules, n)
        for m, flips, even, odd in row:
            if m != idx:
                continue
            u = (n << 1) | (par ^ flips)
            gu = settled.get(u)
            if u != first and gu is not None and abs(gu + (odd if u & 1 else even) - g) <= EPS:
                out.append(u)
    return out


# ----- everything else -----
def step_directions(rules) -> dict:
    """facing -> (directions stepped without a facing change, directions that turn first)."""
    p = rules.params
    if rules.must_dive:
        table = {f: ((), ()) for f in range(-1, 8)}
    elif p.directions is not None:
        table = {f: (tuple((f + d) % 8 for d in p.directions), ()) for f in range(8)}
    elif rules.collapse:
        table = {-1: (tuple(range(8)), ())}
    else:
        table = {}
        for f in range(8):
            turns = tuple(d for d in range(8) if d != f and turn_octants(f, d) <= p.max_turn)
            table[f] = ((f,), turns)
    if rules.no_diagonals:
        table = {f: (tuple(d for d in a if d % 2 == 0), tuple(d for d in b if d % 2 == 0)) for f, (a, b) in table.items()}
    return table


_NEVER = float("inf")


def general_steps(rules) -> list:
    """Per square (lazily): for each of the 8 directions, None if no figure of this kind may ever
    step that way, else (next idx, parity flips, cost at even parity, cost at odd parity, feet
    straight ahead at even, at odd, height a flyer needs, a walker's new height)."""
    grid = rules.grid
    key = ("general", rules.flying, rules.diagonal, rules.corner_cutting, rules.climb_step, rules.difficult_multiplier)
    table = grid.tables.get(key)
    if table is None:
        table = grid.tables[key] = [None] * len(grid.passable)
    return table


def _general_row(rules, idx: int) -> tuple:
    grid = rules.grid
    passable, elevation = grid.passable, grid.elevation
    around = [idx + o for o in grid.offsets]
    flying = rules.flying
    if flying:      # the least height over each neighbour (a wall no flyer passes: never)
        over = [elevation[n] if passable[n] else grid.top[n] for n in around]
    else:
        wall = [grid.wall[n] for n in around]
    h = elevation[idx]
    cut = rules.corner_cutting
    straight_feet = step_feet(rules.diagonal, False)
    diagonal_feet = None if rules.no_diagonals else step_feet(rules.diagonal, True)
    flips = 1 if rules.rule_510 else 0
    row = []
    for d in range(8):
        n = around[d]
        diagonal = d & 1
        if diagonal and diagonal_feet is None:
            row.append(None)
            continue
        if flying:
            need = over[d]
            if diagonal and not cut:
                need = max(need, over[(d + 7) & 7], over[(d + 1) & 7])
            if need == _NEVER:
                row.append(None)
                continue
        else:
            need = 0
            if not passable[n] or abs(elevation[n] - h) > rules.climb_step:
                row.append(None)
                continue
            if diagonal and not cut and (wall[(d + 7) & 7] or wall[(d + 1) & 7]):
                row.append(None)
                continue
        even, odd = diagonal_feet if diagonal else straight_feet
        dist_even, dist_odd = even, odd
        if not flying and grid.difficult[n]:
            even, odd = even * rules.difficult_multiplier, odd * rules.difficult_multiplier
        row.append((n, flips if diagonal else 0, even, odd, dist_even, dist_odd, need, elevation[n]))
    return tuple(row)


def advance_general(result, goal_idx, reached, heuristic, max_settled: int | None = None,
                    first_end: bool = False) -> None:
    """Settle states until the heap is empty (result.complete) or, with `reached`, until a state it
    accepts has settled and every state as cheap (by the heap's key) has too; with `max_settled`,
    stop (to be resumed) once that many states have settled. With `first_end` (costs.py: a search
    asked only what the goal costs, never resumed) the heap holds (key, -cost, state), so that of
    equally keyed states the farthest along goes first, and the search stops at the first state
    `reached` accepts (result.first_end)."""
    rules = result.rules
    grid = rules.grid
    p = rules.params
    elevation, lowest = grid.elevation, grid.lowest
    budget = p.budget_ft + EPS
    T = rules.turning - EPS
    flying = rules.flying
    winged = rules.winged
    foes = rules.foes
    pass_over = rules.pass_over
    body = rules.body
    collapse = rules.collapse
    keeps = p.keeps_facing
    tracks = rules.tracks_straight
    cap = rules.straight_cap
    parity_dominates = rules.parity_dominates
    start_idx = rules.start_idx
    one_step = p.max_steps is not None
    steps_by_facing = step_directions(rules)
    vertical = flying and not one_step and not rules.level_flight
    may_climb = winged and not rules.must_dive
    climb_every = rules.climb_every - EPS
    climb = rules.winged_climb
    dive_step, dive_mult = rules.dive_step, rules.dive_multiplier
    max_above = rules.max_above
    rise, descend = rules.rise_cost, rules.descend_cost
    settled, parents, ties, best, dominance = result.t_settled, result.t_parents, result.t_ties, result.t_best, result.dominance
    heap = result.t_heap
    rows = general_steps(rules)
    pop, push = heapq.heappop, heapq.heappush
    goal_level = None
    limit = _NO_LIMIT if max_settled is None else max_settled
    # A search asked only about one end (aimed.py) keeps no state keyed past what that end may cost.
    key_limit = result.key_limit

    while heap:
        if len(settled) >= limit:
            return
        entry = pop(heap)
        key, state = entry[0], entry[-1]
        if (goal_level is not None and key > goal_level + EPS) or (reached is not None and key > budget):
            push(heap, entry)    # the goal's level is done, or no key left is within the budget
            return
        if state in settled:
            continue
        g = best[state]
        idx, f, par, s, h = state
        # Dominance: a state settled strictly cheaper at the same square, facing and height that
        # can turn (and climb) at least as soon, with a diagonal count at least as good. Equally
        # cheap ones are kept: they are other routes of the same cost.
        dom_key = (idx, f, h)
        seen = dominance.get(dom_key)
        if seen is None:
            dominance[dom_key] = [(g, par, s)]
        else:
            pruned = False
            for g0, par0, s0 in seen:
                if g0 < g - EPS and s0 >= s and (par0 == par or (parity_dominates and par0 == 0)):
                    pruned = True
                    break
            if pruned:
                continue
            seen.append((g, par, s))
        settled[state] = g
        if goal_level is None and idx == goal_idx and reached(state):
            if first_end:
                result.first_end = state
                return
            goal_level = key
        if one_step and idx != start_idx:
            continue
        row = rows[idx]
        if row is None:
            row = rows[idx] = _general_row(rules, idx)
        forward, turning_dirs = steps_by_facing[f]
        for turned, dirs in ((False, forward), (True, turning_dirs if s >= T else ())):
            kind = "turn+step" if turned else "step"
            for d in dirs:
                e = row[d]
                if e is None:
                    continue
                nidx, flips, cost_even, cost_odd, dist_even, dist_odd, need, nh = e
                if flying:
                    if h < need:
                        continue
                    if foes and nidx in foes and h < pass_over[nidx]:
                        continue
                    nh = h
                elif foes and nidx in foes:
                    continue
                if par:
                    ng = g + cost_odd
                    dist = dist_odd
                else:
                    ng = g + cost_even
                    dist = dist_even
                if ng > budget:
                    continue
                npar = par ^ flips
                if keeps:
                    nstate = (nidx, f, npar, s, nh)
                elif collapse:
                    nstate = (nidx, -1, npar, 0, nh)
                else:
                    ns = (dist if turned else s + dist) if tracks else 0
                    nstate = (nidx, d, npar, ns if ns < cap else cap, nh)
                if body is not None and body.blocked(nidx, nstate[1], nh, d):
                    continue    # a long body's cells behind its head (body_grid.LongBody)
                old = best.get(nstate)
                if old is None or ng < old - EPS:
                    nkey = ng if heuristic is None else ng + heuristic(nidx, npar, nh)
                    if nkey > key_limit:
                        continue
                    best[nstate] = ng
                    parents[nstate] = (state, kind)
                    if old is not None:
                        ties.pop(nstate, None)
                    push(heap, (nkey, -ng, nstate) if first_end else (nkey, nstate))
                elif ng <= old + EPS:
                    got = ties.get(nstate)
                    if got is None:
                        ties[nstate] = [(state, kind)]
                    else:
                        got.append((state, kind))
        if vertical:
            # Altitude changes in place (bfrpg Maneuverability): a winged flyer climbs after its
            # straight stretch (free) and dives at its full rate; a floater rises and descends.
            moves = []
            low = lowest[idx] if body is None else body.lowest(idx, f)
            if winged:
                if may_climb and s >= climb_every and h + climb <= elevation[idx] + max_above:
                    moves.append(((idx, f, par, 0, h + climb), g, "climb"))
                if h > low:
                    drop = dive_step if h - low > dive_step else h - low
                    if g + drop / dive_mult <= budget:
                        moves.append(((idx, f, par, s, h - drop), g + drop / dive_mult, "dive"))
            else:
                if rise is not None and h + 5 <= elevation[idx] + max_above and g + rise <= budget:
                    moves.append(((idx, f, par, s, h + 5), g + rise, "rise"))
                if descend is not None and h - 5 >= low and g + descend <= budget:
                    moves.append(((idx, f, par, s, h - 5), g + descend, "descend"))
            for nstate, ng, kind in moves:
                old = best.get(nstate)
                if old is None or ng < old - EPS:
                    nkey = ng if heuristic is None else ng + heuristic(idx, par, nstate[4])
                    if nkey > key_limit:
                        continue
                    best[nstate] = ng
                    parents[nstate] = (state, kind)
                    if old is not None:
                        ties.pop(nstate, None)
                    push(heap, (nkey, -ng, nstate) if first_end else (nkey, nstate))
                elif ng <= old + EPS:
                    got = ties.get(nstate)
                    if got is None:
                        ties[nstate] = [(state, kind)]
                    else:
                        got.append((state, kind))
    result.complete = True
