"""Reachable-set timing on a 100x100 map with 20% walls, against tcod's plain 8-way dijkstra2d.

Prints the median milliseconds for a walker (40 ft, free turning) and a runner (60 ft move run
at 2x = 120 ft, running turn limits: 45-degree changes after 10 ft straight), and the ratio to
tcod.path.dijkstra2d on the same window (the squares within the move's reach) in the same run.
Targets on the project's 2-core machine: walker within 2 ms, runner within 20 ms.

Run: make bench   (or .venv/bin/python bench/bench_reachable.py [--repeats N])
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from game.core.battlemap import BattleMap
from game.core.figure import Figure
from game.core.moves.planner import Planner
from game.io.rulesets import load_ruleset

SIZE = 100
WALL_FRACTION = 0.2


def build_map(seed: int) -> BattleMap:
    rng = np.random.default_rng(seed)
    walls = rng.random((SIZE, SIZE)) < WALL_FRACTION
    bmap = BattleMap.empty(SIZE, SIZE)
    bmap.blocks_move[:] = walls
    bmap.blocks_sight[:] = walls
    return bmap


def open_starts(bmap: BattleMap, count: int, seed: int) -> list[tuple[int, int, int]]:
    """Start squares (x, y, facing) away from the edge whose first step ahead is open."""
    rng = np.random.default_rng(seed)
    starts = []
    while len(starts) < count:
        x, y = (int(v) for v in rng.integers(30, SIZE - 30, size=2))
        facing = int(rng.integers(0, 4)) * 2
        dx, dy = ((0, -1), (1, 0), (0, 1), (-1, 0))[facing // 2]
        if not bmap.blocks_move[y, x] and not bmap.blocks_move[y + dy, x + dx] and not bmap.blocks_move[y + 2 * dy, x + 2 * dx]:
            starts.append((x, y, facing))
    return starts


def time_ms(fn, repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000)
    return statistics.median(samples)


def tcod_window(bmap: BattleMap, x: int, y: int, budget_ft: float):
    import tcod.path
    r = int(budget_ft // 5) + 1
    x0, x1 = max(0, x - r), min(SIZE, x + r + 1)
    y0, y1 = max(0, y - r), min(SIZE, y + r + 1)
    cost = np.where(bmap.blocks_move[y0:y1, x0:x1], 0, 1).astype(np.int32)

    def run():
        dist = np.full(cost.shape, np.iinfo(np.int32).max, dtype=np.int32)
        dist[y - y0, x - x0] = 0
        tcod.path.dijkstra2d(dist, cost, 5, 5, out=dist)
        return dist
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--starts", type=int, default=10)
    args = parser.parse_args()
    bmap = build_map(2026)
    planner = Planner(bmap, load_ruleset("bfrpg"))
    rows = []
    for label, move_ft, mode in (("walker 40 ft, free turning", 40, "walk"),
                                 ("runner 120 ft, running turns", 60, "run")):
        ours, theirs, squares, states = [], [], [], []
        for x, y, facing in open_starts(bmap, args.starts, 7):
            fig = Figure("f", "a", x, y, facing=facing, move_ft=move_ft)
            result = planner.search(fig, mode)
            squares.append(len(result.entries()))
            states.append(len(result.settled))
            ours.append(time_ms(lambda: planner.search(fig, mode), args.repeats))
            theirs.append(time_ms(tcod_window(bmap, x, y, result.params.budget_ft), args.repeats))
        rows.append((label, statistics.median(ours), statistics.median(theirs),
                     statistics.median(squares), statistics.median(states)))
    print(f"reachable set on {SIZE}x{SIZE}, {int(WALL_FRACTION * 100)}% walls, median of {args.starts} starts x {args.repeats} runs")
    print(f"{'figure':<30} {'fivefoot ms':>12} {'tcod ms':>9} {'ratio':>7} {'squares':>8} {'states':>7}")
    for label, ours, theirs, sq, st in rows:
        print(f"{label:<30} {ours:>12.3f} {theirs:>9.3f} {ours / theirs:>7.1f} {sq:>8.0f} {st:>7.0f}")


if __name__ == "__main__":
    main()
