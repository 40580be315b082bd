"""Turning figures on open ground: reachable sets against a plain search.

Rows (CPU time, one process, interleaved pairs so that a busy machine slows both alike):
- reachable sets (SearchResult.entries: every square with its least cost per end facing) of a
  runner (bfrpg: running turns at most 45 degrees after 10 ft straight), a horse (turning 20 ft,
  walking and running) on an open 400x400 map, at every budget up to 480 ft, against the anchor:
  a plain Dijkstra with heapq over the same full states (square, facing, diagonal parity, feet
  straight), no pruning, no parents, the least cost per square; the ratio of each pair, its
  median and 95th percentile, and the states each settles (growth: microseconds per state).
Target (issue 30): within 2x the anchor at every speed up to 480 ft. The hover's answer for the
same figures (and big bodies and flyers, on open ground and among walls): bench/bench_hover.py.

Run: .venv/bin/python bench/bench_turning.py [--pairs N] [--quick]
"""
from __future__ import annotations

import argparse
import heapq
import statistics
import time

from game.core.values.battlemap import BattleMap
from game.core.values.figure import Figure
from game.core.values.geometry import step_feet, turn_octants
from game.core.moves.planner import Planner
from game.io.rulesets import load_ruleset

SIZE = 400


def plain_search(rules) -> dict:
    """The anchor: Dijkstra over (idx, facing, parity, straight) tuples with heapq."""
    grid = rules.grid
    offsets, passable = grid.offsets, grid.passable
    budget, turning, cap = rules.budget, rules.turning, rules.straight_cap
    max_turn = rules.params.max_turn
    turns = {f: [d for d in range(8) if d != f and turn_octants(f, d) <= max_turn] for f in range(8)}
    diagonal = step_feet(rules.diagonal, True)
    rule_510 = rules.rule_510
    start = rules.start[:4]
    best = {start: 0}
    done = set()
    least: dict = {}
    heap = [(0, start)]
    while heap:
        g, state = heapq.heappop(heap)
        if state in done:
            continue
        done.add(state)
        idx, f, par, s = state
        if idx not in least:
            least[idx] = g
        steps = [(f, False)]
        if s >= turning:
            steps += [(d, True) for d in turns[f]]
        for d, turned in steps:
            n = idx + offsets[d]
            if not passable[n]:
                continue
            if d & 1:
                cost = diagonal[par]
                npar = par ^ 1 if rule_510 else par
            else:
                cost, npar = 5, par
            ng = g + cost
            if ng > budget:
                continue
            ns = min(cost if turned else s + cost, cap)
            nstate = (n, d, npar, ns)
            if ng < best.get(nstate, 1 << 60):
                best[nstate] = ng
                heapq.heappush(heap, (ng, nstate))
    return least


FIGURES = (  # label, move_ft, turning_ft, mode (budget = move, or twice it running)
    ("runner", 0, "run"),
    ("horse", 20, "walk"),
    ("horse", 20, "run"),
)


def p95(values):
    values = sorted(values)
    return values[max(0, int(round(0.95 * len(values))) - 1)]


def reach_rows(args, bmap, rs) -> list:
    planner = Planner(bmap, rs)
    rows = []
    budgets = (60, 120, 240) if args.quick else (60, 120, 240, 480)
    for label, turning, mode in FIGURES:
        for budget in budgets:
            move = budget // 2 if mode == "run" else budget
            fig = Figure("f", "a", SIZE // 2, SIZE // 2, facing=2, move_ft=move, turning_ft=turning)
            result = planner.search(fig, mode)
            entries = result.entries()     # warms the map's step tables, as any earlier search would
            rules = result.rules
            assert len(plain_search(rules)) == len(entries)
            pairs = max(2, args.pairs // (budget // 60))
            ours, theirs = [], []
            for i in range(pairs):
                for which in ((0, 1) if i % 2 == 0 else (1, 0)):
                    t0 = time.process_time()
                    if which == 0:
                        planner.search(fig, mode).entries()
                    else:
                        plain_search(rules)
                    (ours if which == 0 else theirs).append(time.process_time() - t0)
            ratios = [a / b for a, b in zip(ours, theirs)]
            states = len(result.n_settled) if result.n_width is not None else len(result.settled)
            rows.append((f"{label} {mode} {budget} ft", statistics.median(ours) * 1000, statistics.median(theirs) * 1000,
                         statistics.median(ratios), p95(ratios), states,
                         statistics.median(ours) * 1e6 / states))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=8, help="interleaved pairs at 60 ft (fewer for longer moves)")
    parser.add_argument("--quick", action="store_true", help="budgets up to 240 ft")
    args = parser.parse_args()
    rs = load_ruleset("bfrpg")
    bmap = BattleMap.empty(SIZE, SIZE)
    print(f"reachable sets on an open {SIZE}x{SIZE} map, bfrpg (CPU ms; ratio = ours / anchor per pair)")
    print(f"{'figure':<22} {'ours':>9} {'anchor':>9} {'ratio':>6} {'p95':>6} {'states':>8} {'us/state':>9}  target ratio 2")
    for label, ours, theirs, ratio, ratio95, states, per in reach_rows(args, bmap, rs):
        print(f"{label:<22} {ours:>9.1f} {theirs:>9.1f} {ratio:>6.2f} {ratio95:>6.2f} {states:>8} {per:>9.2f}")


if __name__ == "__main__":
    main()
