"""What the cheapest way to one end costs, without the way: the explanations' question.

"Too far: needs 305 ft", "keeping to its turning rules, 12,4 needs 95 ft", "turning at any
step it could get there": the "why not" reads how much the cheapest way to a square costs under a
relaxed rule, or whether there is one, never which way it is. A path must be the one a whole
search would give among equally cheap ones (planner.chain), so its search finishes the goal's
whole cost level; a cost needs only the first end settled. Here a search aimed at the goal (A*
with the same lower bound, over the same integer states and step tables as the walker's and the
turner's loops) takes the states of one key (cost + bound) last in, first out, so it runs straight
along the equally cheap ways toward the goal rather than across all of them, and stops at the
first end it settles or when no key left is within the budget. The first end settled in key order
is the cheapest (the bound is consistent and nothing at the goal is left to go), so the number is
path_to's total. tests/core/test_hover_answers.py holds the explanations built on it to whole searches.
"""
from __future__ import annotations

from ..values.geometry import step_feet
from .dijkstra import advance_general, general_steps, walker_unit
from .grid import NEVER
from .rules import EPS
from .turner import _row, _table, decode, start_key

_NONE_YET = 1 << 62


def least_cost(result, goal_idx: int, reached) -> tuple[int] | None:
    """(cost,) of the cheapest end the `reached` test accepts on square goal_idx, (None,) when no end
    is within the budget, or None when this kind of search has no loop here (the caller plans a path)."""
    if result._heuristic is None:
        return None
    if result.walker and result.k_unit is not None:
        return (_walker_cost(result, goal_idx, reached),)
    if result.n_width is not None:
        return (_turner_cost(result, goal_idx, reached),)
    if not result.walker and result.rules.diagonal != "euclidean":
        return (_general_cost(result, goal_idx, reached),)
    return None     # a heap of float costs (euclidean): the path's own sum, step by step, is the number


def _general_cost(result, goal_idx, reached):
    """The general search's loop (flyers, long bodies, withdrawals), on a fresh copy of the search
    (it stops inside a cost level, so it is never resumed) whose heap holds (key, -cost, state)."""
    fresh = type(result)(result.planner, result.figure, result.rules, result.occupants, result.goal)
    key, start = fresh.t_heap[0]
    fresh.t_heap = [(key, 0.0, start)]
    fresh.first_end = None
    advance_general(fresh, goal_idx, reached, fresh._heuristic, first_end=True)
    return None if fresh.first_end is None else fresh.t_settled[fresh.first_end]


def _buckets(rules) -> tuple[list, float]:
    """One list per 5 ft of key up to the budget (costs and bounds are whole 5-ft steps here)."""
    budget = rules.budget + EPS
    return [[] for _ in range(int(budget) // 5 + 1)], budget


def _turner_cost(result, goal_idx, reached):
    rules = result.rules
    heuristic = result._heuristic
    width = result.n_width
    table, rows = _table(rules, width), general_steps(rules)
    foes = rules.blocking or None
    elevation = rules.heights
    turning = rules.turning - EPS
    cap = width - 1
    start = start_key(rules, width)
    first = int(heuristic(rules.start_idx, rules.start[2], 0))
    buckets, budget = _buckets(rules)
    if first // 5 >= len(buckets):
        return None
    best = {start: 0}
    bound: dict = {}    # the bound still to go per square, facing and parity
    # The farthest straight run settled per (square, facing, parity): states of one record settle
    # cheapest first (one bound for all of them), and one with a longer run settled at no more cost
    # does all a shorter one can (it may turn as soon or sooner).
    straightest: dict = {}
    buckets[first // 5].append(start)
    for bucket in buckets:
        while bucket:
            k = bucket.pop()
            base, s = divmod(k, width)
            if straightest.get(base, -1) >= s:
                continue
            idx = base >> 4
            if foes is not None and idx in foes:
                continue
            straightest[base] = s
            g = best[k]
            if idx == goal_idx and reached(decode(k, width, elevation)):
                return g
            code = (base << 1) | (s >= turning)
            steps = table.get(code)
            if steps is None:
                steps = table[code] = _row(rules, rows, width, code)
            for cost, nb, dist, turned in steps:
                ng = g + cost
                if turned:
                    ns = dist if dist < cap else cap
                else:
                    ns = s + dist
                    if ns > cap:
                        ns = cap
                nk = nb + ns
                if ng < best.get(nk, _NONE_YET):
                    to_go = bound.get(nb)
                    if to_go is None:
                        base = nb // width
                        to_go = bound[nb] = heuristic(base >> 4, base & 1, 0)
                    key = ng + to_go
                    if key <= budget:
                        best[nk] = ng
                        buckets[int(key) // 5].append(nk)
    return None


def _walker_cost(result, goal_idx, reached):
    """The walker's loop (a free-turning walker, and the explanations' searches without turning
    rules), its steps read from the shape of each square's surroundings, kept per shape: which
    neighbours are walls (for a level flight, level.py, walls no flyer passes), ledges too high to
    step and difficult ground, the steps out as dijkstra._walker_row makes them. A far square's
    question reaches ground no search has yet, and builds no rows for it."""
    rules = result.rules
    heuristic = result._heuristic
    grid = rules.grid
    passable = grid.passable
    flying = rules.flying
    key = ("shapes", flying, rules.climb_step)
    shapes = grid.tables.get(key)
    if shapes is None:
        shapes = grid.tables[key] = [None] * len(passable)
    numbers = (flying, grid.stride, rules.diagonal, rules.corner_cutting, rules.difficult_multiplier)
    foes = rules.blocking or None
    start = (rules.start_idx << 1) | rules.start[2]
    first = int(heuristic(rules.start_idx, rules.start[2], 0))
    buckets, budget = _buckets(rules)
    if first // 5 >= len(buckets):
        return None
    best = {start: 0}
    bound: dict = {}    # the bound still to go per state (its square and parity), asked for every way in
    done = set()
    buckets[first // 5].append(start)
    for bucket in buckets:
        while bucket:
            k = bucket.pop()
            if k in done:
                continue
            idx = k >> 1
            if foes is not None and idx in foes:
                continue
            done.add(k)
            g = best[k]
            if idx == goal_idx and reached((idx, -1, k & 1, 0, rules.heights[idx])):
                return g
            shape = shapes[idx]
            if shape is None:
                shape = shapes[idx] = _shape(rules, idx)
            moves = _MOVES.get((shape, k & 1, numbers))
            if moves is None:
                moves = _moves(rules, shape, k & 1, numbers)
            for delta, cost in moves:
                nk = k + delta
                ng = g + cost
                if ng < best.get(nk, _NONE_YET):
                    to_go = bound.get(nk)
                    if to_go is None:
                        to_go = bound[nk] = heuristic(nk >> 1, nk & 1, 0)
                    key = ng + to_go
                    if key <= budget:
                        best[nk] = ng
                        buckets[int(key) // 5].append(nk)
    return None


def _shape(rules, idx: int) -> int:
    """Bits d, 8 + d, 16 + d and 24 + d: the neighbour in direction d is no square to step on (for a
    level flight, a wall no flyer passes), a ledge too high to step, difficult ground (dearer to walk
    into), a wall whose corner a diagonal may not cut (for a flyer, bit d says so)."""
    grid = rules.grid
    passable, elevation, difficult, wall = grid.passable, grid.elevation, grid.difficult, grid.wall
    h = elevation[idx]
    shape = 0
    for bit, o in enumerate(grid.offsets):
        n = idx + o
        if rules.flying:
            if not passable[n] and grid.top[n] == NEVER:
                shape |= 1 << bit
            continue
        if not passable[n]:
            shape |= 1 << bit
        elif abs(elevation[n] - h) > rules.climb_step:
            shape |= 1 << (8 + bit)
        if difficult[n]:
            shape |= 1 << (16 + bit)
        if wall[n]:
            shape |= 1 << (24 + bit)
    return shape


_MOVES: dict = {}


def _moves(rules, shape: int, par: int, numbers: tuple) -> tuple:
    """(next state - state, cost) of each step out of a square of this shape at diagonal parity `par`."""
    offsets = rules.grid.offsets
    whole = walker_unit(rules) is not None
    corners = shape if rules.flying else shape >> 24
    out = []
    for d in range(8):
        if (shape | shape >> 8) >> d & 1:
            continue
        if d & 1:
            if rules.no_diagonals or (not rules.corner_cutting and (corners >> ((d + 7) & 7) & 1 or
                                                                    corners >> ((d + 1) & 7) & 1)):
                continue
            feet, flips = step_feet(rules.diagonal, True), 1 if rules.rule_510 else 0
        else:
            feet, flips = step_feet(rules.diagonal, False), 0
        cost = feet[par] * (rules.difficult_multiplier if shape >> (16 + d) & 1 else 1)
        out.append((2 * offsets[d] + (par ^ flips) - par, int(cost) if whole else cost))
    got = _MOVES[(shape, par, numbers)] = tuple(out)
    return got
