"""Turning figures on open ground: reachable sets against a plain search, and the hover's answer.

Rows (CPU time, one process, interleaved pairs so that a busy machine slows both alike):
- reachable sets (SearchResult.entries: every square with its least cost per end facing) of a
  runner (bfrpg: running turns at most 45 degrees after 10 ft straight), a horse (turning 20 ft,
  walking and running) on an open 400x400 map, at every budget up to 480 ft, against the anchor:
  a plain Dijkstra with heapq over the same full states (square, facing, diagonal parity, feet
  straight), no pruning, no parents, the least cost per square; the ratio of each pair, its
  median and 95th percentile, and the states each settles (growth: microseconds per state);
- the hover's answer (Positioning.plan: the path, or why not in words) for squares around the
  figure, the first after a change (a fresh position) included: median, p95 and the worst, in ms.
Targets (issue 30): reach within 2x the anchor at every speed up to 480 ft; the hover within 16 ms
at p95 up to 240 ft.

Run: .venv/bin/python bench/bench_turning.py [--pairs N] [--hovers N] [--quick]
"""
from __future__ import annotations

import argparse
import heapq
import random
import statistics
import time

from game.core.values.battlemap import BattleMap
from game.core.values.errors import RulesError
from game.core.values.figure import Figure
from game.core.values.geometry import step_feet, turn_octants
from game.core.moves.planner import Planner
from game.core.moves.positioning import Positioning
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


def hover_rows(args, bmap, rs) -> list:
    rows = []
    rng = random.Random(30)
    budgets = (60, 120) if args.quick else (60, 120, 240)
    for label, turning, mode in FIGURES + (("walker", 0, "walk"),):
        for budget in budgets:
            move = budget // 2 if mode == "run" else budget
            times, firsts = [], []
            for position in range(args.positions):
                facing = rng.randrange(8)
                fig = Figure("f", "a", SIZE // 2, SIZE // 2, facing=facing, move_ft=move, turning_ft=turning)
                pos = Positioning(bmap, rs, [fig])
                r = budget // 5 + 3
                for i in range(args.hovers):
                    square = (SIZE // 2 + rng.randint(-r, r), SIZE // 2 + rng.randint(-r, r))
                    t0 = time.process_time()
                    try:
                        pos.plan("f", square, mode=mode)
                    except RulesError:
                        pass
                    ms = (time.process_time() - t0) * 1000
                    times.append(ms)
                    if i == 0:
                        firsts.append(ms)
            rows.append((f"{label} {mode} {budget} ft", statistics.median(times), p95(times), max(times),
                         statistics.median(firsts)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=8, help="interleaved pairs at 60 ft (fewer for longer moves)")
    parser.add_argument("--hovers", type=int, default=40, help="squares hovered per position")
    parser.add_argument("--positions", type=int, default=3, help="positions (changes) per figure")
    parser.add_argument("--quick", action="store_true", help="budgets up to 240 ft (120 ft for the hover)")
    args = parser.parse_args()
    rs = load_ruleset("bfrpg")
    bmap = BattleMap.empty(SIZE, SIZE)
    print(f"reachable sets on an open {SIZE}x{SIZE} map, bfrpg (CPU ms; ratio = ours / anchor per pair)")
    print(f"{'figure':<22} {'ours':>9} {'anchor':>9} {'ratio':>6} {'p95':>6} {'states':>8} {'us/state':>9}  target ratio 2")
    for label, ours, theirs, ratio, ratio95, states, per in reach_rows(args, bmap, rs):
        print(f"{label:<22} {ours:>9.1f} {theirs:>9.1f} {ratio:>6.2f} {ratio95:>6.2f} {states:>8} {per:>9.2f}")
    print()
    print("the hover's answer (Positioning.plan: path or why not), CPU ms")
    print(f"{'figure':<22} {'median':>8} {'p95':>8} {'worst':>8} {'first':>8}  target p95 16")
    for label, median, high, worst, first in hover_rows(args, bmap, rs):
        print(f"{label:<22} {median:>8.1f} {high:>8.1f} {worst:>8.1f} {first:>8.1f}")


if __name__ == "__main__":
    main()
