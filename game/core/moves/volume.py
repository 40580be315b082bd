"""A flyer's whole reachable volume in one vectorised sweep (numpy), for the reachable set only.

The general search (dijkstra.advance_general) settles a winged flyer's ~30k states one at a time
and keeps every state's parents and equally cheap ties, which paths need. A reachable set needs
none of that: only each state's least cost, then the least per square, end facing and altitude.
Here every state of the move is one cell of a dense array (height, facing, diagonal parity,
feet straight ahead, square in the window the budget can reach), and whole frontiers are
relaxed at once (Bellman-Ford: each round carries every state that got cheaper one move
further) until nothing gets cheaper. With no pruning every state ends at its exact least cost,
as in the exhaustive search, so the answers are the same (tests/commands/test_planner_volume.py holds this
sweep to the general search and to tests/movement_reference.py).

The moves are the search's own (rules.MoveRules): per-square step tables built with numpy from
the same flat grid, altitude changes as in advance_general. A move that would leave the arrays
(never expected: the height levels are the closure of every climb and dive) makes the sweep
give up and the caller run the general search instead.
"""
from __future__ import annotations


import numpy as np

from ..values.geometry import turn_octants
from .dijkstra import step_directions
from .path import ReachEntry
from .rules import EPS

MAX_CELLS = 6_000_000     # above this many states the arrays cost more than they save
MAX_LEVELS = 400
CHUNK = 2048         # states moved at once
_INF = float("inf")


def applies(rules) -> bool:
    """Flyers' free moves (rules.free_flight says which)."""
    return rules.free_flight


def _grid_arrays(grid) -> dict:
    """The flat grid as numpy arrays (built once per map), with `over`: the least height a flyer
    may be at over each square (inf for a wall no flyer passes)."""
    got = grid.tables.get("numpy")
    if got is None:
        elevation = np.array(grid.elevation, dtype=np.float64)
        passable = np.array(grid.passable, dtype=bool)
        top = np.array(grid.top, dtype=np.float64)
        lowest = np.array(grid.lowest, dtype=np.float64)
        over = np.where(passable, elevation, top)     # top: inf where no flyer passes
        got = grid.tables["numpy"] = {"elevation": elevation, "lowest": lowest, "over": over}
    return got


def _closure(seeds, moves, limit: int):
    """Every value reachable from seeds by the moves (each value -> iterable of values); None past limit."""
    seen = set(seeds)
    todo = list(seen)
    while todo:
        v = todo.pop()
        for n in moves(v):
            if n not in seen:
                seen.add(n)
                if len(seen) > limit:
                    return None
                todo.append(n)
    return seen


class _Volume:
    """The arrays of one move; `sweep` fills `best`, `entries` reads it."""

    def __init__(self, rules):
        self.rules = rules
        grid = rules.grid
        p = rules.params
        fig = rules.figure
        self.ok = False
        arrays = _grid_arrays(grid)
        budget = self.budget = p.budget_ft + EPS
        # The window: every square within budget / 5 steps (no step is cheaper than 5 ft), one ring more.
        reach = int(budget // 5)
        gx, gy = fig.x + 1, fig.y + 1
        rows = len(grid.passable) // grid.stride
        x0, x1 = max(0, gx - reach - 1), min(grid.stride - 1, gx + reach + 1)
        y0, y1 = max(0, gy - reach - 1), min(rows - 1, gy + reach + 1)
        ww, wh = x1 - x0 + 1, y1 - y0 + 1
        self.ww, self.W = ww, ww * wh
        gidx = ((np.arange(y0, y1 + 1) * grid.stride)[:, None] + np.arange(x0, x1 + 1)[None, :]).ravel()
        self.gidx = gidx
        elevation = arrays["elevation"][gidx]
        lowest = arrays["lowest"][gidx]
        over = arrays["over"]
        self.elevation = elevation
        self.lowest = lowest
        ring = np.zeros((wh, ww), dtype=bool)
        ring[0, :] = ring[-1, :] = ring[:, 0] = ring[:, -1] = True
        ring = ring.ravel()

        # ----- steps: the least height a flyer needs to step from each square each way -----
        offsets = grid.offsets
        need = np.empty((self.W, 8))
        for d in range(8):
            n = gidx + offsets[d]
            col = over.take(n, mode="clip")     # the ring's own steps are cleared below
            if d & 1:
                if rules.no_diagonals:
                    col[:] = _INF
                elif not rules.corner_cutting:
                    col = np.maximum(col, np.maximum(over.take(gidx + offsets[(d + 7) & 7], mode="clip"),
                                                     over.take(gidx + offsets[(d + 1) & 7], mode="clip")))
            need[:, d] = col
        # A flyer passes over a foe only this high above the foe's floor; nothing enters the ring.
        enter_floor = np.full(self.W, -_INF)
        if rules.foes:
            local = {int(g): i for i, g in enumerate(gidx.tolist())}
            for foe_idx in rules.foes:
                i = local.get(foe_idx)
                if i is not None:
                    enter_floor[i] = rules.pass_over[foe_idx]
        enter_floor[ring] = _INF
        self.offs = np.array([dx + dy * ww for dx, dy in
                              ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))], dtype=np.int64)
        for d in range(8):
            shifted = np.full(self.W, _INF)
            lo, hi = max(0, -int(self.offs[d])), min(self.W, self.W - int(self.offs[d]))
            shifted[lo:hi] = enter_floor[lo + int(self.offs[d]):hi + int(self.offs[d])]
            need[:, d] = np.maximum(need[:, d], shifted)
        need[ring, :] = _INF
        self.need_flat = need.ravel()     # [square * 8 + direction]

        # ----- facings, parity, feet straight ahead -----
        self.keeps = p.keeps_facing
        self.facings = [-1] if rules.collapse else ([fig.facing] if p.keeps_facing else list(range(8)))
        F = len(self.facings)
        P = 2 if rules.rule_510 else 1
        diagonal_dists = () if rules.no_diagonals else ((5, 10) if rules.rule_510 else (rules.diagonal_ft,) * 2)
        start = rules.start
        cap = rules.straight_cap
        may_climb = rules.winged and not rules.must_dive
        climb_every = rules.climb_every - EPS

        def s_moves(s):
            out = []
            if p.keeps_facing:
                pass
            elif rules.collapse or not rules.tracks_straight:
                out.append(0)
            else:
                for dist in (5, *diagonal_dists):
                    out.append(dist if dist < cap else cap)
                    ns = s + dist
                    out.append(ns if ns < cap else cap)
            if may_climb and s >= climb_every:
                out.append(0)
            return out
        s_values = _closure([start[3]], s_moves, 200)
        if s_values is None:
            return
        self.s_values = sorted(s_values)
        S = len(self.s_values)
        s_index = {v: i for i, v in enumerate(self.s_values)}
        self.F, self.P, self.S = F, P, S
        K = self.K = F * P * S
        turn_at = rules.turning - EPS
        by_facing = step_directions(rules)
        # Per inner code c = (fi * P + pi) * S + si and direction: the next inner code (-1: no such
        # step) and its cost (flyers pay no difficult terrain: cost and distance are the same).
        step_to = np.full((K, 8), -1, dtype=np.int64)
        step_cost = np.full((K, 8), _INF)
        for fi, f in enumerate(self.facings):
            forward, turning_dirs = by_facing[f]
            for pi in range(P):
                for si, s in enumerate(self.s_values):
                    c = (fi * P + pi) * S + si
                    for turned, dirs in ((False, forward), (True, turning_dirs if s >= turn_at else ())):
                        for d in dirs:
                            diagonal = d & 1
                            if diagonal:
                                dist = (10 if pi else 5) if rules.rule_510 else rules.diagonal_ft
                                npi = pi ^ 1 if rules.rule_510 else pi
                            else:
                                dist, npi = 5, pi
                            if p.keeps_facing:
                                nfi, ns = fi, s
                            elif rules.collapse:
                                nfi, ns = 0, 0
                            else:
                                ns = (dist if turned else s + dist) if rules.tracks_straight else 0
                                nfi, ns = d, (ns if ns < cap else cap)
                            step_to[c, d] = (nfi * P + npi) * S + s_index[ns]
                            step_cost[c, d] = dist
        # Codes grouped by how many directions they may step in (straight on only, or turning too),
        # each group a table of just those directions: no work on steps a state may not take.
        allowed = step_to >= 0
        counts = allowed.sum(axis=1)
        self.group_of = np.full(K, -1, dtype=np.int64)
        self.groups = []
        for m in sorted(set(counts.tolist()) - {0}):
            codes = np.nonzero(counts == m)[0]
            self.group_of[codes] = len(self.groups)
            dirs = np.zeros((K, m), dtype=np.int64)
            for c in codes.tolist():
                dirs[c] = np.nonzero(allowed[c])[0]
            rows = np.arange(K)[:, None]
            to = np.where(counts[:, None] == m, step_to[rows, dirs], -1)
            cost = np.where(counts[:, None] == m, step_cost[rows, dirs], _INF)
            self.groups.append((m, dirs.ravel(), to.ravel(), cost.ravel()))
        self.cols = {m: np.arange(m)[None, :] for m in range(1, 9)}

        # ----- heights: every level a climb, dive, rise or descent can reach within the budget -----
        start_h = start[4]
        self.capw = elevation + rules.max_above
        lows = sorted(set(lowest[~ring].tolist()))
        top_cap = max(float(self.capw[~ring].max()), start_h)
        if rules.winged:
            climbs = 1 + int(budget // rules.climb_every) if rules.climb_every > 0 and may_climb else (0 if not may_climb else 10 ** 6)
            high = min(top_cap, start_h + rules.winged_climb * climbs)
            low = max(lows[0], start_h - budget * rules.dive_multiplier)
            ds = rules.dive_step

            def h_moves(h):
                out = []
                if may_climb and h + rules.winged_climb <= high:
                    out.append(h + rules.winged_climb)
                for floor in lows:
                    if floor < h:
                        drop = ds if h - floor > ds else h - floor
                        if h - drop >= low:
                            out.append(h - drop)
                return out
        else:
            ups = int(budget // rules.rise_cost) if rules.rise_cost else 0
            downs = int(budget // rules.descend_cost) if rules.descend_cost else 0
            high, low = min(top_cap, start_h + 5 * ups), max(lows[0], start_h - 5 * downs)

            def h_moves(h):
                out = []
                if rules.rise_cost is not None and h + 5 <= high:
                    out.append(h + 5)
                if rules.descend_cost is not None and h - 5 >= low:
                    out.append(h - 5)
                return out
        levels = _closure([start_h], h_moves, MAX_LEVELS)
        if levels is None:
            return
        self.levels = sorted(levels)
        H = self.H = len(self.levels)
        if H * K * self.W > MAX_CELLS:
            return
        level_index = {v: i for i, v in enumerate(self.levels)}
        lv = self.level_values = np.array(self.levels, dtype=np.float64)

        def index_of(values):
            """Level index of each value; -2 where a value is not a level (the sweep then gives up)."""
            pos = np.searchsorted(lv, values)
            pos = np.minimum(pos, H - 1)
            return np.where(lv[pos] == values, pos, -2)

        # Vertical moves by height level (and square where the ground or the ceiling matters).
        self.winged = rules.winged
        if rules.winged:
            # A climb: from a state that has flown its straight stretch, to s = 0, free; capped over each square.
            climb_c = np.full(K, -1, dtype=np.int64)
            if may_climb:
                zero = s_index.get(0)
                for c in range(K):
                    si = c % S
                    if self.s_values[si] >= climb_every:
                        climb_c[c] = c - si + zero
            self.climb_c = climb_c
            up = lv + rules.winged_climb
            self.climb_hi = index_of(up)
            self.climb_ok = up[:, None] <= self.capw[None, :]
            h = lv[:, None]
            drop = np.minimum(rules.dive_step, h - lowest[None, :])
            self.dive_hi = np.where(h > lowest[None, :], index_of(h - drop), -1)
            self.dive_hi_flat = self.dive_hi.ravel()      # [level * W + square]
            self.dive_cost_flat = (drop / rules.dive_multiplier).ravel()
        else:
            self.rise_hi = index_of(lv + 5) if rules.rise_cost is not None else np.full(H, -1)
            self.rise_ok = (lv + 5)[:, None] <= self.capw[None, :]
            self.descend_hi = index_of(lv - 5) if rules.descend_cost is not None else np.full(H, -1)
            self.descend_ok = (lv - 5)[:, None] >= lowest[None, :]
        local_start = (gy - y0) * ww + (gx - x0)
        start_fi = 0 if F == 1 else start[1]
        start_c = (start_fi * P + start[2]) * S + s_index[start[3]]
        self.start_id = (level_index[start_h] * K + start_c) * self.W + local_start
        self.start_w = local_start
        self.ok = True

    # ----- the sweep -----
    def sweep(self) -> bool:
        """Least cost of every state (self.best); False if a move left the arrays."""
        best = self.best = np.full(self.H * self.K * self.W, _INF)
        best[self.start_id] = 0.0
        # Which position wrote each state last: one survivor per state, with no sort (np.unique's).
        stamp = np.empty(best.size, dtype=np.int64)
        ids = np.array([self.start_id], dtype=np.int64)
        while ids.size:
            improved = []
            # In slices: numpy's temporaries stay small enough to be reused rather than mapped afresh.
            for lo in range(0, ids.size, CHUNK):
                got = self._moves(ids[lo:lo + CHUNK], best)
                if got is None:
                    return False
                tid, tc = got
                better = tc < best[tid] - EPS
                tid = tid[better]
                np.minimum.at(best, tid, tc[better])
                improved.append(tid)
            tid = improved[0] if len(improved) == 1 else np.concatenate(improved)
            order = np.arange(tid.size)
            stamp[tid] = order
            ids = tid[stamp[tid] == order]
        return True

    def _moves(self, ids, best):
        """(next state ids, their costs) of every move from these states, or None if one left the arrays."""
        W, K, budget = self.W, self.K, self.budget
        g = best[ids]
        code = ids // W
        c = code % K
        w = ids - code * W
        hi = code // K
        base = code - c     # hi * K
        hv = self.level_values[hi]
        out_ids, out_cost = [], []
        # Steps to the neighbours, keeping the height.
        groups, need, offs = self.groups, self.need_flat, self.offs
        which = self.group_of[c] if len(groups) > 1 else None
        for gi, (m, dirs_table, to_table, cost_table) in enumerate(groups):
            if which is not None:
                sel = np.flatnonzero(which == gi)
                if not sel.size:
                    continue
                cg, gg, wg, hg, bg = c[sel], g[sel], w[sel], hv[sel], base[sel]
            else:
                cg, gg, wg, hg, bg = c, g, w, hv, base
            if m == 1:
                d = dirs_table[cg]
                cost = gg + cost_table[cg]
                ok = np.flatnonzero((cost <= budget) & (hg >= need[wg * 8 + d]))
                if ok.size:
                    d = d[ok]
                    out_ids.append((bg[ok] + to_table[cg[ok]]) * W + wg[ok] + offs[d])
                    out_cost.append(cost[ok])
                continue
            cols = (cg * m)[:, None] + self.cols[m]
            d = np.take(dirs_table, cols)
            cost = np.take(cost_table, cols)
            cost += gg[:, None]
            ok = np.flatnonzero((cost <= budget) & (need[(wg * 8)[:, None] + d] <= hg[:, None]))
            if ok.size:
                rows = ok // m
                d = d.ravel()[ok]
                out_ids.append((bg[rows] + to_table[cols.ravel()[ok]]) * W + wg[rows] + offs[d])
                out_cost.append(cost.ravel()[ok])
        # Altitude changes in place.
        if self.winged:
            nc = self.climb_c[c]
            up = np.flatnonzero((nc >= 0) & self.climb_ok[hi, w])
            if up.size:
                nh = self.climb_hi[hi[up]]
                if (nh < 0).any():
                    return None
                out_ids.append((nh * K + nc[up]) * W + w[up])
                out_cost.append(g[up])
            hw = hi * W + w
            nh = self.dive_hi_flat[hw]
            dc = g + self.dive_cost_flat[hw]
            down = np.flatnonzero((nh != -1) & (dc <= budget))
            if down.size:
                nh = nh[down]
                if (nh < 0).any():
                    return None
                out_ids.append((nh * K + c[down]) * W + w[down])
                out_cost.append(dc[down])
        else:
            rules = self.rules
            for table, allowed, extra in ((self.rise_hi, self.rise_ok, rules.rise_cost),
                                          (self.descend_hi, self.descend_ok, rules.descend_cost)):
                if extra is None:
                    continue
                nh = table[hi]
                dc = g + extra
                move = np.flatnonzero((nh != -1) & allowed[hi, w] & (dc <= budget))
                if move.size:
                    nh = nh[move]
                    if (nh < 0).any():
                        return None
                    out_ids.append((nh * K + c[move]) * W + w[move])
                    out_cost.append(dc[move])
        if not out_ids:
            return np.empty(0, dtype=np.int64), np.empty(0)
        if len(out_ids) == 1:
            return out_ids[0], out_cost[0]
        return np.concatenate(out_ids), np.concatenate(out_cost)

    # ----- the answers -----
    def entries(self) -> dict:
        rules, p = self.rules, self.rules.params
        H, F, P, S, W = self.H, self.F, self.P, self.S, self.W
        best = self.best.reshape(H, F, P, S, W)
        by_height = best.min(axis=(1, 2, 3))                # (H, W): least cost per height and square
        least = by_height.min(axis=0)                       # (W,)
        by_facing_s = best.min(axis=(0, 2))                 # (F, S, W)
        if p.keeps_facing or p.free_turning:
            every = by_facing_s.min(axis=(0, 1))
            facing_cost = np.full((8, W), _INF)
            if p.keeps_facing:
                facing_cost[rules.figure.facing] = every
            else:
                facing_cost[:] = every
        else:
            can_turn = np.array([s >= rules.turning - EPS for s in self.s_values])
            keep = by_facing_s[:, ~can_turn].min(axis=1) if (~can_turn).any() else np.full((F, W), _INF)
            turn = by_facing_s[:, can_turn].min(axis=1) if can_turn.any() else np.full((F, W), _INF)
            allowed = np.array([[turn_octants(f, e) <= p.max_turn for f in range(8)] for e in range(8)])
            facing_cost = np.minimum(keep, np.where(allowed[:, :, None], turn[None, :, :], _INF).min(axis=1))
        if rules.stationary_free:
            facing_cost[:, self.start_w] = 0.0
        reached = np.nonzero(least < _INF)[0]
        gidx = self.gidx[reached]
        order = np.lexsort((gidx, least[reached]))
        reached, gidx = reached[order], gidx[order]
        square = rules.grid.square
        blocked = rules.ends_blocked
        costs = least[reached].tolist()
        facing_rows = facing_cost[:, reached].T.tolist()
        height_rows = by_height[:, reached].T.tolist()
        altitudes = self.level_values[None, :] - self.elevation[reached][:, None]
        ends = by_height[:, reached].T < _INF
        if (altitudes[ends] == np.round(altitudes[ends])).all():
            altitudes = altitudes.astype(np.int64)   # whole feet as ints, as entries.like_the_sweep gives them too
        out = {}
        new = ReachEntry.__new__
        for idx, cost, frow, hrow, arow in zip(gidx.tolist(), costs, facing_rows, height_rows, altitudes.tolist()):
            entry = new(ReachEntry)
            entry.cost_ft = cost
            entry.can_end = idx not in blocked
            entry.facings = {e: c for e, c in enumerate(frow) if c < _INF}
            entry.altitudes = {a: c for a, c in zip(arow, hrow) if c < _INF}
            out[square(idx)] = entry
        return out


def volume_entries(rules) -> dict | None:
    """The reachable set of a flyer's move (SearchResult.entries), or None when the sweep does not
    apply or would cost more than the general search."""
    if not applies(rules):
        return None
    volume = _Volume(rules)
    if not volume.ok or not volume.sweep():
        return None
    return volume.entries()
