"""Battles per second of `fivefoot simulate`: AI against AI, played headless.

    .venv/bin/python bench/bench_simulate.py [--scenario maps/corridor.toml] [--runs 10] [--workers 1,2]
                                             [--ruleset all] [--max-rounds 30]

Prints, per worker count, the battles played, the wall time and battles per second, and the
per-ruleset rate with one worker (so a slow ruleset shows). Same seeds every time.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.play.simulate import deterministic_part, setups_for, simulate  # noqa: E402
from game.io.rulesets import bundled_ruleset_ids, load_ruleset  # noqa: E402
from game.io.scenarios import load_scenario  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenario", default=str(ROOT / "maps" / "corridor.toml"))
    p.add_argument("--runs", type=int, default=10, help="battles per ruleset")
    p.add_argument("--workers", default="1,2", help="worker counts to compare, e.g. 1,2,4")
    p.add_argument("--ruleset", default="all")
    p.add_argument("--max-rounds", type=int, default=30)
    p.add_argument("--difficulty", default="normal")
    args = p.parse_args(argv)
    sc = load_scenario(args.scenario)
    ids = bundled_ruleset_ids() if args.ruleset == "all" else [args.ruleset]
    setups = setups_for(sc, [load_ruleset(r) for r in ids])
    print(f"{sc.title}: {args.runs} battle(s) per ruleset x {len(ids)} ruleset(s), AI {args.difficulty}, "
          f"at most {args.max_rounds} rounds")
    reports = []
    for w in [int(x) for x in args.workers.split(",")]:
        t0 = time.perf_counter()
        rep = simulate(setups, args.runs, seed=1, workers=w, max_rounds=args.max_rounds, difficulty=args.difficulty)
        dt = time.perf_counter() - t0
        n = args.runs * len(ids)
        reports.append(deterministic_part(rep))
        print(f"  workers={w}: {n} battles in {dt:.1f} s = {n / dt:.2f} battles/s")
        if w == 1:
            for rid in ids:
                one = setups_for(sc, [load_ruleset(rid)])
                t1 = time.perf_counter()
                r = simulate(one, args.runs, seed=1, workers=1, max_rounds=args.max_rounds, difficulty=args.difficulty)
                d = time.perf_counter() - t1
                data = r["rulesets"][rid]
                print(f"    {rid:<12} {args.runs / d:6.2f} battles/s  avg {data['avg_rounds']:.1f} rounds, "
                      f"{data['avg_actions']:.0f} actions")
    same = all(r == reports[0] for r in reports)
    print(f"reports identical across worker counts: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
