"""The hover's answer: the path to a square, or why not, for every kind of figure, pace and speed.

What the window asks when the pointer rests on a square (Positioning.plan: the cheapest legal path
and its parting shots, or RulesError with the reason in words, numbers included), timed in CPU
time on 400x400 maps, open ground and 20% walls, for a walker, a runner (bfrpg: running turns at
most 45 degrees after 10 ft straight), a horse walking and running (turning distance 20 ft), a big
body (2x2, turning distance 5 ft) and a winged flyer (turning distance 10 ft, 20 ft up), at moves
of 60, 120 and 240 ft. Each position is a change (the figure moved and turned: a fresh
Positioning, as the resolver builds after any change); the first square hovered after it is
counted with the rest and shown on its own too. Squares: mostly near the figure (in and out of
reach), some anywhere on the map.

The anchor, timed in the same run between the cases (so a busy machine slows both alike): a plain
heapq Dijkstra over the full states of a 60-ft runner on the open map (bench_turning.plain_search).
Printed: median and p95 of all hovers, p95 and worst of the first hovers (ms), the p95 as a
multiple of the anchor's median. Target (issue 30): p95 within 16 ms, first hovers included.

With --raised F a fraction F of the squares stands 10 ft higher (uneven ground: walkers cannot step
onto them, a flyer's altitude over them differs).

Run: .venv/bin/python bench/bench_hover.py [--positions N] [--hovers N] [--quick] [--only LABEL] [--raised F]
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

import numpy as np

from game.core.values.battlemap import BattleMap
from game.core.values.errors import RulesError
from game.core.values.figure import Figure
from game.core.moves.planner import Planner
from game.core.moves.positioning import Positioning
from game.io.rulesets import load_ruleset

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_turning import p95, plain_search  # noqa: E402  (the turning bench's anchor)

SIZE = 400
WALLS = 0.2

# label, turning_ft, mode, flyer, altitude_ft, footprint
FIGURES = (
    ("walker", 0, "walk", "none", 0, (1, 1)),
    ("runner", 0, "run", "none", 0, (1, 1)),
    ("horse walking", 20, "walk", "none", 0, (1, 1)),
    ("horse running", 20, "run", "none", 0, (1, 1)),
    ("big body 2x2", 5, "walk", "none", 0, (2, 2)),
    ("winged flyer", 10, "walk", "winged", 20, (1, 1)),
)


def build_map(walls: bool, raised: float = 0.0) -> BattleMap:
    bmap = BattleMap.empty(SIZE, SIZE)
    if walls:
        blocked = np.random.default_rng(30).random((SIZE, SIZE)) < WALLS
        bmap.blocks_move.numpy()[:] = blocked
        bmap.blocks_sight.numpy()[:] = blocked
    if raised:      # squares 10 ft up: a walker steps up (5-ft climb: no), a flyer's altitude over them differs
        bmap.elevation_ft.numpy()[:] = np.where(np.random.default_rng(31).random((SIZE, SIZE)) < raised, 10, 0)
    return bmap


def room_at(bmap: BattleMap, rng: random.Random) -> tuple[int, int]:
    """A square near the middle with room for the figure to stand (a 2x2 body too): the map is
    never changed once planned on (its grid is built once)."""
    while True:
        x = SIZE // 2 + rng.randint(-20, 20)
        y = SIZE // 2 + rng.randint(-20, 20)
        if not bmap.blocks_move.numpy()[y - 1:y + 3, x - 1:x + 3].any():
            return x, y


def anchor_ms(planner: Planner) -> float:
    fig = Figure("a", "a", SIZE // 2, SIZE // 2, facing=2, move_ft=30)
    rules = planner.search(fig, "run").rules
    t0 = time.process_time()
    plain_search(rules)
    return (time.process_time() - t0) * 1000


def hover_case(bmap, rs, figure, budget, args, rng) -> tuple[list, list]:
    label, turning, mode, flyer, altitude, footprint = figure
    move = budget // 2 if mode == "run" else budget
    times, firsts = [], []
    r = budget // 5 + 4
    for _ in range(args.positions):
        x, y = room_at(bmap, rng)
        fig = Figure("f", "a", x, y, facing=rng.randrange(8), move_ft=move, turning_ft=turning, flyer=flyer,
                     altitude_ft=altitude, footprint=footprint)
        pos = Positioning(bmap, rs, [fig])    # a change: the resolver's view of the new moment
        for i in range(args.hovers):
            if rng.random() < 0.85:
                square = (x + rng.randint(-r, r), y + rng.randint(-r, r))
            else:
                square = (rng.randrange(SIZE), rng.randrange(SIZE))
            t0 = time.process_time()
            try:
                pos.plan("f", square, mode=mode)
            except RulesError:
                pass
            ms = (time.process_time() - t0) * 1000
            times.append(ms)
            if i == 0:
                firsts.append(ms)
    return times, firsts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=6, help="changes (fresh positions) per case")
    parser.add_argument("--hovers", type=int, default=30, help="squares hovered per position")
    parser.add_argument("--quick", action="store_true", help="open ground only, 60 and 240 ft")
    parser.add_argument("--only", default="", help="only the figures whose label contains this")
    parser.add_argument("--raised", type=float, default=0.0,
                        help="raise this fraction of the squares 10 ft (uneven ground; default none)")
    args = parser.parse_args()
    rs = load_ruleset("bfrpg")
    rng = random.Random(30)
    open_map = build_map(False, args.raised)
    # The anchor on open level ground whatever the maps (this map's grid is built here as well).
    anchor_planner = Planner(open_map if not args.raised else build_map(False), rs)
    Planner(open_map, rs)
    anchor_ms(anchor_planner)    # warm its tables
    anchors = []
    maps = (("open", open_map),) if args.quick else (("open", open_map), ("20% walls", build_map(True, args.raised)))
    budgets = (60, 240) if args.quick else (60, 120, 240)
    raised = f", {args.raised:.0%} of the squares 10 ft up" if args.raised else ""
    print(f"the hover's answer on {SIZE}x{SIZE} maps{raised}, bfrpg: CPU ms ({args.positions} changes x {args.hovers} squares)")
    print(f"{'map':<10} {'figure':<14} {'ft':>4} {'median':>7} {'p95':>7} {'first p95':>10} {'first max':>10}"
          f" {'p95/anchor':>11}  target p95 16 ms")
    rows = []
    for map_label, bmap in maps:
        for figure in FIGURES:
            if args.only not in figure[0]:
                continue
            for budget in budgets:
                anchors.append(anchor_ms(anchor_planner))
                times, firsts = hover_case(bmap, rs, figure, budget, args, rng)
                anchors.append(anchor_ms(anchor_planner))
                row = (map_label, figure[0], budget, statistics.median(times), p95(times), p95(firsts), max(firsts))
                rows.append(row)
                print(f"{row[0]:<10} {row[1]:<14} {row[2]:>4} {row[3]:>7.2f} {row[4]:>7.2f} {row[5]:>10.2f}"
                      f" {row[6]:>10.2f} {row[4] / statistics.median(anchors):>11.2f}", flush=True)
    anchor = statistics.median(anchors)
    print(f"anchor (plain full-state search, 60-ft runner, open ground): median {anchor:.2f} ms over {len(anchors)}")
    print(f"worst p95 {max(r[4] for r in rows):.2f} ms ({max(r[4] for r in rows) / anchor:.2f}x anchor); "
          f"worst first hover {max(r[6] for r in rows):.2f} ms")


if __name__ == "__main__":
    main()
