"""Planner timing: reachable sets, flights and "why not" explanations, with the targets beside them.

Rows (CPU milliseconds, one process; each the least of several timed blocks, since other work on a
shared machine only ever adds time; medians over the start squares):
- walker 40 ft (free turning) and runner 60 ft run at 2x (45-degree changes after 10 ft straight) on a
  100x100 map with 20% walls; the walker also with entries() (what the overlay and the AI read),
  against tcod.path.dijkstra2d on the same window (a plain 8-way Dijkstra, no parity, no facing);
- the 90-ft winged griffon of maps/sky.toml (turning distance 10 ft, 40 ft up over a gorge): its
  whole 3-D volume (search + entries) and single planned flights to six squares; with --big-flyer
  also the same flyer over 100x100 of rocks 15 ft high and a 30-ft plateau (no target: far bigger);
- "why not" on 200x200 with 20% walls for a horse (turning distance 20 ft): the first unreachable
  square explained, then each further square for the same figure and position.
Targets (issue "faster where players wait"): walker with entries <= 0.5 ms; flyer volume <= 25 ms,
one flight <= 5 ms; each further "why not" <= 16 ms.

Run: make bench   (or .venv/bin/python bench/bench_reachable.py [--repeats N] [--starts N])
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from game.core.values.battlemap import BattleMap
from game.core.values.errors import RulesError
from game.core.values.figure import Figure
from game.core.moves.planner import Planner
from game.core.moves.positioning import Positioning
from game.io.rulesets import load_ruleset

SIZE = 100
WALL_FRACTION = 0.2


def build_map(seed: int, size: int = SIZE) -> BattleMap:
    rng = np.random.default_rng(seed)
    walls = rng.random((size, size)) < WALL_FRACTION
    bmap = BattleMap.empty(size, size)
    bmap.blocks_move[:] = walls
    bmap.blocks_sight[:] = walls
    return bmap


def build_sky(seed: int) -> BattleMap:
    """Open ground with 10% rocks 15 ft high (a flyer above them passes) and a 30-ft plateau."""
    rng = np.random.default_rng(seed)
    bmap = BattleMap.empty(SIZE, SIZE)
    rocks = rng.random((SIZE, SIZE)) < 0.1
    bmap.blocks_move[:] = rocks
    bmap.blocks_sight[:] = rocks
    bmap.obstacle_height_ft[rocks] = 15
    bmap.elevation_ft[:, 60:] = 30
    return bmap


def open_starts(bmap: BattleMap, count: int, seed: int, margin: int = 30) -> list[tuple[int, int, int]]:
    """Start squares (x, y, facing) away from the edge whose first two squares ahead are open."""
    rng = np.random.default_rng(seed)
    size = bmap.width
    starts = []
    while len(starts) < count:
        x, y = (int(v) for v in rng.integers(margin, size - margin, size=2))
        facing = int(rng.integers(0, 4)) * 2
        dx, dy = ((0, -1), (1, 0), (0, 1), (-1, 0))[facing // 2]
        if not bmap.blocks_move[y, x] and not bmap.blocks_move[y + dy, x + dx] and not bmap.blocks_move[y + 2 * dy, x + 2 * dx]:
            starts.append((x, y, facing))
    return starts


def cpu_ms(fn, repeats: int) -> float:
    """CPU ms of one call: the least of `repeats` (other work on a shared machine only adds time)."""
    samples = []
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        samples.append((time.process_time() - t0) * 1000)
    return min(samples)


def per_call_ms(fn, repeats: int, blocks: int = 5) -> float:
    """CPU ms per call, timing `repeats` calls together (process_time is too coarse for one), the
    least of `blocks` such blocks."""
    best = float("inf")
    for _ in range(blocks):
        t0 = time.process_time()
        for _ in range(repeats):
            fn()
        best = min(best, (time.process_time() - t0) * 1000 / repeats)
    return best


def tcod_window(bmap: BattleMap, x: int, y: int, budget_ft: float):
    import tcod.path
    r = int(budget_ft // 5) + 1
    x0, x1 = max(0, x - r), min(bmap.width, x + r + 1)
    y0, y1 = max(0, y - r), min(bmap.height, y + r + 1)
    cost = np.where(bmap.blocks_move[y0:y1, x0:x1], 0, 1).astype(np.int32)

    def run():
        dist = np.full(cost.shape, np.iinfo(np.int32).max, dtype=np.int32)
        dist[y - y0, x - x0] = 0
        tcod.path.dijkstra2d(dist, cost, 5, 5, out=dist)
        return dist
    return run


def ground_rows(args) -> list[tuple]:
    bmap = build_map(2026)
    planner = Planner(bmap, load_ruleset("bfrpg"))
    rows = []
    for label, move_ft, mode in (("walker 40 ft, free turning", 40, "walk"),
                                 ("runner 120 ft, running turns", 60, "run")):
        ours, with_entries, theirs, squares, states = [], [], [], [], []
        for x, y, facing in open_starts(bmap, args.starts, 7):
            fig = Figure("f", "a", x, y, facing=facing, move_ft=move_ft)
            result = planner.search(fig, mode)
            squares.append(len(result.entries()))
            states.append(len(result.settled))
            ours.append(per_call_ms(lambda: planner.search(fig, mode).run(), args.repeats))
            with_entries.append(per_call_ms(lambda: planner.search(fig, mode).entries(), args.repeats))
            theirs.append(per_call_ms(tcod_window(bmap, x, y, result.params.budget_ft), args.repeats))
        target = "0.5 (with entries)" if mode == "walk" else ""
        rows.append((label, statistics.median(ours), statistics.median(with_entries), statistics.median(theirs),
                     statistics.median(squares), statistics.median(states), target))
    return rows


def sky_rows(args) -> list[tuple]:
    """The griffon of maps/sky.toml (move 90, turning 10, 40 ft up over a 20x10 gorge)."""
    from game.io.scenarios import load_scenario
    from pathlib import Path
    sc = load_scenario(Path(__file__).resolve().parents[1] / "maps" / "sky.toml")
    planner = Planner(sc.map, sc.ruleset)
    griffon = next(f for f in sc.figures if f.id == "griffon")
    occupants = {f.pos: f for f in sc.figures if f.id != griffon.id}
    states = len(planner.search(griffon, "walk", occupants).settled)
    volume = cpu_ms(lambda: planner.search(griffon, "walk", occupants).entries(), max(5, args.repeats // 3))
    flights = []
    for goal in ((10, 5), (17, 4), (5, 8), (12, 3), (18, 7), (8, 2)):
        flights.append(cpu_ms(lambda: planner.path_to(griffon, goal, "walk", occupants), max(3, args.repeats // 5)))
    return [("sky.toml griffon: whole volume + entries", volume, states, "25"),
            ("sky.toml griffon: one flight (median of 6)", statistics.median(flights), None, "5"),
            ("sky.toml griffon: one flight (slowest of 6)", max(flights), None, "")]


def flyer_rows(args) -> list[tuple]:
    bmap = build_sky(11)
    planner = Planner(bmap, load_ruleset("bfrpg"))
    volume, flight, states = [], [], []
    for x, y, facing in open_starts(bmap, max(3, args.starts // 2), 5, margin=25):
        x = min(x, 50)
        fig = Figure("g", "a", x, y, facing=facing, move_ft=90, turning_ft=10, flyer="winged", altitude_ft=40)
        result = planner.search(fig, "walk")
        states.append(len(result.settled))
        volume.append(cpu_ms(lambda: planner.search(fig, "walk").entries(), max(3, args.repeats // 10)))
        goal = _flight_goal(bmap, fig)
        flight.append(cpu_ms(lambda: planner.path_to(fig, goal, "walk"), max(3, args.repeats // 5)))
    return [("100x100: whole volume + entries", statistics.median(volume), statistics.median(states), ""),
            ("100x100: one flight ~60 ft away", statistics.median(flight), None, "")]


def _flight_goal(bmap: BattleMap, fig: Figure) -> tuple[int, int]:
    dx, dy = ((0, -1), (1, 0), (0, 1), (-1, 0))[fig.facing // 2]
    for k in range(12, 0, -1):
        x, y = fig.x + dx * k + dy * 3, fig.y + dy * k + dx * 3
        if not bmap.blocks_move[y, x]:
            return (x, y)
    return (fig.x + dx, fig.y + dy)


def why_not_rows(args) -> list[tuple]:
    bmap = build_map(99, 200)
    rs = load_ruleset("bfrpg")
    firsts, furthers = [], []
    for x, y, facing in open_starts(bmap, max(2, args.starts // 4), 3, margin=60):
        horse = Figure("h", "a", x, y, facing=facing, move_ft=60, turning_ft=20)
        far = _unreachable_squares(bmap, horse, 12)
        pos = Positioning(bmap, rs, [horse])

        def explain(square):
            try:
                pos.plan("h", square)
            except RulesError:
                return
            raise AssertionError(f"{square} was expected to be out of reach")
        t0 = time.process_time()
        explain(far[0])
        firsts.append((time.process_time() - t0) * 1000)
        t0 = time.process_time()
        for square in far[1:]:
            explain(square)
        furthers.append((time.process_time() - t0) * 1000 / (len(far) - 1))
    return [("first square", statistics.median(firsts), ""),
            ("each further square", statistics.median(furthers), "16")]


def _unreachable_squares(bmap: BattleMap, fig: Figure, count: int) -> list[tuple[int, int]]:
    out = []
    for k in range(1, 200):
        for x, y in ((fig.x + 20 + k, fig.y), (fig.x - 20 - k, fig.y + k % 7), (fig.x + k % 5, fig.y + 20 + k)):
            if bmap.in_bounds(x, y) and not bmap.blocks_move[y, x]:
                out.append((x, y))
                if len(out) == count:
                    return out
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--starts", type=int, default=10)
    parser.add_argument("--big-flyer", action="store_true", help="also the flyer over 100x100 rocks (slow)")
    args = parser.parse_args()
    print(f"reachable set on {SIZE}x{SIZE}, {int(WALL_FRACTION * 100)}% walls, median of {args.starts} starts "
          f"x {args.repeats} runs (CPU ms)")
    print(f"{'figure':<30} {'search':>8} {'+entries':>9} {'tcod':>7} {'ratio':>6} {'squares':>8} {'states':>7}  target")
    for label, ours, with_entries, theirs, sq, st, target in ground_rows(args):
        print(f"{label:<30} {ours:>8.3f} {with_entries:>9.3f} {theirs:>7.3f} {ours / theirs:>6.1f} {sq:>8.0f} "
              f"{st:>7.0f}  {target}")
    print()
    print("winged flyer, 90 ft, turning 10 ft, 40 ft up (CPU ms)")
    for label, ms, states, target in sky_rows(args) + (flyer_rows(args) if args.big_flyer else []):
        extra = f"  ({states:.0f} states)" if states else ""
        print(f"{label:<44} {ms:>8.2f}" + (f"  target {target}" if target else "") + extra)
    print()
    print("why not, a horse (turning 20 ft) on 200x200, 20% walls (CPU ms)")
    for label, ms, target in why_not_rows(args):
        print(f"{label:<40} {ms:>8.2f}" + (f"  target {target}" if target else ""))


if __name__ == "__main__":
    main()
