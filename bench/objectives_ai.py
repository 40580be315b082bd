"""Does the normal AI play for the objectives better than the naive one? For each bundled
objective battle (maps/objectives/) under every ruleset, normal plays one side and naive the
other, then the other way round; the table gives normal's share of the decided battles and
what decided them. `python bench/objectives_ai.py [--runs N] [--workers W]` (docs/ai.md)."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from game.io.rulesets import load_ruleset
from game.io.scenarios import load_scenario
from game.play.simulate import setups_for, simulate

MAPS = Path(__file__).resolve().parents[1] / "maps" / "objectives"
RULESETS = ("bfrpg", "odnd", "cnc", "ch17", "spelljammer")


def measure(path: Path, runs: int, workers: int, seed: int) -> dict:
    scenario = load_scenario(path)
    setups = setups_for(scenario, [load_ruleset(r) for r in RULESETS])
    sides = list(dict.fromkeys(f.side for f in scenario.figures))
    normal_wins = naive_wins = draws = 0
    decided: dict[str, int] = {}
    for normal_side in sides:
        naive_side = next(s for s in sides if s != normal_side)
        report = simulate(setups, runs, seed=seed, workers=workers, max_rounds=30,
                          difficulty={normal_side: "normal", naive_side: "naive"})
        for data in report["rulesets"].values():
            normal_wins += data["sides"][normal_side]["wins"]
            naive_wins += data["sides"][naive_side]["wins"]
            draws += data["draws"]
            for k, v in data.get("decided_by", {}).items():
                decided[k] = decided.get(k, 0) + v
    total = normal_wins + naive_wins
    return {"battle": path.stem, "normal_wins": normal_wins, "naive_wins": naive_wins, "draws": draws,
            "normal_share": round(normal_wins / total, 3) if total else None, "decided_by": decided}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=6, help="battles per ruleset and side assignment")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = [measure(p, args.runs, args.workers, args.seed) for p in sorted(MAPS.glob("*.toml"))]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for r in rows:
        print(f"{r['battle']:<8} normal {r['normal_wins']:>3} - naive {r['naive_wins']:>3}, draws {r['draws']:>3}: "
              f"normal wins {r['normal_share']:.0%} of the decided battles; decided by "
              + ", ".join(f"{k} {v}" for k, v in sorted(r["decided_by"].items())))


if __name__ == "__main__":
    main()
