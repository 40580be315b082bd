"""Battles per second of `fivefoot simulate`: AI against AI, played headless.

    .venv/bin/python bench/bench_simulate.py [--scenario maps/corridor.toml ...] [--runs 10] [--workers 1,2]
                                             [--ruleset all] [--max-rounds 30]

For each scenario (by default maps/corridor.toml and maps/solo_ridge.toml) prints, per worker
count, the battles played, the wall time and battles per second; with one worker also battles
per CPU-second (the figure to compare on a shared machine) and the per-ruleset rate (so a slow
ruleset shows). Same seeds every time.

Target (issue "faster where players wait"): at least twice the battles per CPU-second of the
code before that work, one worker, all five rulesets, AI normal, 30 rounds at most. BEFORE holds
that figure as measured on the 2-core development machine with nothing else running (CPU time is
compared, not wall time); on another machine run the older code for its own figure. See
docs/simulate.md.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.play.simulate import deterministic_part, setups_for, simulate  # noqa: E402
from game.io.rulesets import bundled_ruleset_ids, load_ruleset  # noqa: E402
from game.io.scenarios import load_scenario  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = [str(ROOT / "maps" / "corridor.toml"), str(ROOT / "maps" / "solo_ridge.toml")]
# Battles per CPU-second of the code before the work (d5dd720; one worker, 10 runs per ruleset, all five
# rulesets, the 2-core development machine with nothing else running); the target is twice.
BEFORE = {"corridor.toml": 2.65, "solo_ridge.toml": 0.40}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenario", action="append", help="a scenario file (repeatable); default: corridor and solo_ridge")
    p.add_argument("--runs", type=int, default=10, help="battles per ruleset")
    p.add_argument("--workers", default="1,2", help="worker counts to compare, e.g. 1,2,4")
    p.add_argument("--ruleset", default="all")
    p.add_argument("--max-rounds", type=int, default=30)
    p.add_argument("--difficulty", default="normal")
    p.add_argument("--no-per-ruleset", action="store_true", help="skip the per-ruleset rates")
    args = p.parse_args(argv)
    same = True
    for path in args.scenario or SCENARIOS:
        same = bench_scenario(path, args) and same
    return 0 if same else 1


def bench_scenario(path: str, args) -> bool:
    sc = load_scenario(path)
    ids = bundled_ruleset_ids() if args.ruleset == "all" else [args.ruleset]
    setups = setups_for(sc, [load_ruleset(r) for r in ids])
    print(f"{Path(path).name} ({sc.title}): {args.runs} battle(s) per ruleset x {len(ids)} ruleset(s), "
          f"AI {args.difficulty}, at most {args.max_rounds} rounds")
    reports = []
    for w in [int(x) for x in args.workers.split(",")]:
        t0, c0 = time.perf_counter(), time.process_time()
        rep = simulate(setups, args.runs, seed=1, workers=w, max_rounds=args.max_rounds, difficulty=args.difficulty)
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        n = args.runs * len(ids)
        reports.append(deterministic_part(rep))
        line = f"  workers={w}: {n} battles in {dt:.1f} s = {n / dt:.2f} battles/s"
        if w == 1:
            line += f"; {n / cpu:.2f} battles per CPU-second"
            before = BEFORE.get(Path(path).name)
            if before and args.ruleset == "all" and args.difficulty == "normal" and args.max_rounds == 30:
                line += f" (target >= {2 * before:.2f}: twice the {before:.2f} before)"
        print(line)
        if w == 1 and not args.no_per_ruleset:
            for rid in ids:
                one = setups_for(sc, [load_ruleset(rid)])
                c1 = time.process_time()
                r = simulate(one, args.runs, seed=1, workers=1, max_rounds=args.max_rounds, difficulty=args.difficulty)
                d = time.process_time() - c1
                data = r["rulesets"][rid]
                print(f"    {rid:<12} {args.runs / d:6.2f} battles per CPU-second  avg {data['avg_rounds']:.1f} rounds, "
                      f"{data['avg_actions']:.0f} actions")
    same = all(r == reports[0] for r in reports)
    digest = hashlib.sha256(json.dumps(reports[0], sort_keys=True, default=str).encode()).hexdigest()[:16]
    print(f"  reports identical across worker counts: {same}; report digest {digest} (same code, same digest)")
    return same


if __name__ == "__main__":
    sys.exit(main())
