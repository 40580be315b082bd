"""Are generated skirmishes fair? For each ruleset, a hundred seeds (terrain and objective taken in
turn), each battle played normal AI against normal AI; each side should win 40-60% of the decided
battles. `python bench/skirmish_fairness.py [--seeds N] [--workers W] [--size S]` (docs/skirmish.md)."""
from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from game.core.battle import BattleSetup
from game.io.rulesets import load_ruleset
from game.io.scenarios import scenario_from_data
from game.play.simulate import play_battle, wilson
from game.play.skirmish import OBJECTIVES, TERRAINS, SkirmishSpec, generate

RULESETS = ("bfrpg", "odnd", "cnc", "ch17", "spelljammer")


def one(args) -> dict:
    rid, seed, size, with_objectives = args
    terrain = TERRAINS[seed % len(TERRAINS)]
    objective = OBJECTIVES[seed % len(OBJECTIVES)] if with_objectives else "none"
    data = generate(SkirmishSpec(rid, size, seed=seed, terrain=terrain, objective=objective), load_ruleset(rid))
    sc = scenario_from_data(data, Path(f"skirmish-{seed}.toml"))
    setup = BattleSetup(sc.map, sc.ruleset, tuple(sc.figures), sc.seed, sc.title, sc.description, sc.objectives)
    battle, res, _info = play_battle(setup, max_rounds=30)
    return {"ruleset": rid, "seed": seed, "terrain": terrain, "objective": objective, "winner": res.winner,
            "decided_by": res.decided_by, "rounds": battle.round}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--size", default="small")
    parser.add_argument("--objectives", action="store_true", help="take the objective kinds in turn too")
    parser.add_argument("--rulesets", default=",".join(RULESETS))
    parser.add_argument("--json", metavar="OUT.jsonl", help="also append every battle's record here, one a line")
    args = parser.parse_args(argv)
    # Seed by seed across the rulesets, each record written as it comes (JSON lines): a run cut short
    # still measures every ruleset on the seeds it got to.
    tasks = [(rid, seed, args.size, args.objectives) for seed in range(1, args.seeds + 1) for rid in args.rulesets.split(",")]
    records = []
    out = open(args.json, "a") if args.json else None
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for rec in pool.map(one, tasks):
            records.append(rec)
            if out:
                out.write(json.dumps(rec) + "\n")
                out.flush()
    summarise(records, args.rulesets.split(","))


def summarise(records, rulesets) -> None:
    for rid in rulesets:
        recs = [r for r in records if r["ruleset"] == rid]
        blue = sum(r["winner"] == "blue" for r in recs)
        red = sum(r["winner"] == "red" for r in recs)
        decided = blue + red
        lo, hi = wilson(blue, decided)
        share = blue / decided if decided else float("nan")
        verdict = "fair" if 0.4 <= share <= 0.6 else "UNFAIR"
        print(f"{rid:<12} {len(recs)} battles: blue {blue}, red {red}, draws {len(recs) - decided}; "
              f"blue wins {share:.0%} of the decided (95% {lo:.0%}-{hi:.0%}): {verdict}")


if __name__ == "__main__":
    main()
