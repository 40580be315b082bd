"""Time per battle of `fivefoot ladder`: each pair of AI levels on the bundled mirrored battles.

    .venv/bin/python bench/bench_ladder.py [--levels naive,easy,normal,hard] [--ruleset all] [--runs 1]
                                           [--workers 2] [--battles mirror_corridor,...]

Plays a ladder (every pair, each battle and ruleset from both sides) and prints the seconds of play
per battle for each pair and each ruleset, the wall time, and what a full ladder of --runs N would
take with these workers. Same seeds every time.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.io.paths import MAPS_DIR  # noqa: E402
from game.io.rulesets import bundled_ruleset_ids, load_ruleset  # noqa: E402
from game.io.scenarios import load_scenario  # noqa: E402
from game.play.ladder import bundled_battles, play_tasks, tasks_for  # noqa: E402
from game.play.simulate import setups_for  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--levels", default="naive,easy,normal,hard")
    p.add_argument("--ruleset", default="all")
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--battles", default="", help="battle names (file stems) to play; default: all bundled")
    args = p.parse_args(argv)
    levels = tuple(args.levels.split(","))
    ids = bundled_ruleset_ids() if args.ruleset == "all" else [args.ruleset]
    paths = [b for b in bundled_battles(MAPS_DIR) if not args.battles or b.stem in args.battles.split(",")]
    setups, sides = {}, {}
    for path in paths:
        sc = load_scenario(path)
        for rid, setup in setups_for(sc, [load_ruleset(rid) for rid in ids]).items():
            setups[(path.stem, rid)] = setup
            sides[(path.stem, rid)] = tuple(dict.fromkeys(f.side for f in sc.figures))
    tasks = tasks_for(setups, sides, levels, args.runs, seed=1)
    print(f"ladder: {len(paths)} battle(s) x {len(ids)} ruleset(s), levels {', '.join(levels)}, {args.runs} run(s), "
          f"{len(tasks)} battles, {args.workers} worker(s)")
    t0 = time.perf_counter()
    records = play_tasks(setups, tasks, workers=args.workers)
    wall = time.perf_counter() - t0
    by: dict = {}
    for r in records:
        for key in (f"{r['stronger']} vs {r['weaker']}", r["ruleset"], r["battle"]):
            by.setdefault(key, []).append(r["seconds"])
    print(f"{'':<20} {'battles':>8} {'s per battle':>13} {'max s':>7}")
    for key, secs in by.items():
        print(f"{key:<20} {len(secs):>8} {sum(secs) / len(secs):>13.1f} {max(secs):>7.1f}")
    total = sum(r["seconds"] for r in records)
    print(f"all: {len(records)} battles, {total / len(records):.1f} s of play per battle, wall {wall:.0f} s "
          f"({len(records) / wall * 60:.1f} battles a minute with {args.workers} worker(s))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
