"""`fivefoot simulate SCENARIO --runs N`: AI against AI, many times, and what it adds up to.

Per ruleset: each side's win rate with a 95% Wilson interval, draws (no result within
--max-rounds), average rounds, and how often the notable rules fired (parting shots, charges,
set weapons, flank and rear attacks, criticals...), as a table or as JSON (docs/simulate.md).
"""
from __future__ import annotations

import sys

from ..core.values.errors import RulesError
from .common import add_asset_root_arg, add_workers_args, check_battle_counts, emit_json


def register(subparsers) -> None:
    p = subparsers.add_parser("simulate", help="play a scenario AI against AI many times: win rates, rounds, rules fired")
    p.add_argument("scenario", metavar="SCENARIO", help="a scenario .toml or a Tiled map .tmx")
    add_asset_root_arg(p)
    p.add_argument("--runs", type=int, default=20, help="battles per ruleset (default 20)")
    p.add_argument("--ruleset", default=None,
                   help="play under this ruleset id or file, or 'all' for every bundled ruleset (default: the scenario's)")
    add_workers_args(p)
    p.add_argument("--seed", type=int, default=None, help="base seed (default: the scenario's); same seed, same report")
    p.add_argument("--max-rounds", type=int, default=30, help="a battle not over after this many rounds is a draw (default 30)")
    p.add_argument("--difficulty", default="normal",
                   help="AI level for every side (naive, easy, normal, hard; LEVEL+K: +K to hit) or per side, e.g. red=hard,blue=easy")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run on an existing Dask cluster (needs fivefoot[cluster])")
    p.add_argument("--progress", action="store_true", help="show the progress bar even when stderr is not a terminal")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=run)


def _difficulty(text: str):
    from ..ai.brain import DIFFICULTIES
    from ..play.edge import split_level
    text = (text or "normal").strip()
    if "=" not in text:
        if text.partition("+")[0] not in DIFFICULTIES:
            raise RulesError(f"--difficulty {text!r}: use one of {', '.join(DIFFICULTIES)} or side=level pairs")
        split_level(text)
        return text
    out = {}
    for part in text.split(","):
        side, _, level = part.partition("=")
        side, level = side.strip(), level.strip()
        if not side or level.partition("+")[0] not in DIFFICULTIES:
            raise RulesError(f"--difficulty {part!r}: write side=level with a level from {', '.join(DIFFICULTIES)}")
        split_level(level)
        out[side] = level
    return out


def _rulesets(choice: str | None, scenario):
    from ..io.rulesets import bundled_ruleset_ids, load_ruleset
    if not choice:
        return [scenario.ruleset]
    if choice == "all":
        return [load_ruleset(rid) for rid in bundled_ruleset_ids()]
    return [load_ruleset(choice)]


class _Bar:
    def __init__(self, stream, width: int = 30):
        self.stream = stream
        self.width = width

    def __call__(self, done: int, total: int, rec: dict) -> None:
        filled = int(self.width * done / total) if total else self.width
        self.stream.write(f"\rsimulating [{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} {rec.get('ruleset', ''):<12}")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


def run(args) -> int:
    from ..play.simulate import default_workers, format_report, setups_for, simulate
    from ..io.scenarios import load_scenario
    check_battle_counts(args)
    difficulty = _difficulty(args.difficulty)
    scenario = load_scenario(args.scenario, asset_root=args.asset_root)
    rulesets = _rulesets(args.ruleset, scenario)
    sides = {f.side for f in scenario.figures}
    if len(sides) < 2:
        raise RulesError(f"{args.scenario}: a simulation needs figures of at least two sides (found: {', '.join(sorted(sides)) or 'none'})")
    if isinstance(difficulty, dict):
        unknown = sorted(set(difficulty) - sides)
        if unknown:
            raise RulesError(f"--difficulty names side {unknown[0]!r}; the sides here are {', '.join(sorted(sides))}")
    setups = setups_for(scenario, rulesets)
    seed = scenario.seed if args.seed is None else args.seed
    workers = args.workers or default_workers()
    show = args.progress or sys.stderr.isatty()
    report = simulate(setups, args.runs, seed=seed, workers=workers, max_rounds=args.max_rounds, difficulty=difficulty,
                      progress=_Bar(sys.stderr) if show else None, scheduler=args.scheduler, title=scenario.title)
    report["scenario"] = args.scenario
    if args.json:
        emit_json(report)
    else:
        print(format_report(report))
    return 0
