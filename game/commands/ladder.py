"""`fivefoot ladder [SCENARIO...]`: the AI levels measured against each other.

Every pair of levels plays each mirrored battle (default: the bundled maps/mirror_*) from both
sides under every ruleset; the report gives pairwise win rates with 95% intervals and a rating
per level (docs/ai.md, docs/cli.md).
"""
from __future__ import annotations

import sys
from pathlib import Path

from ..core.values.errors import RulesError
from ..io.paths import MAPS_DIR
from .common import add_asset_root_arg
from .common import add_workers_args, check_battle_counts, emit_json


def register(subparsers) -> None:
    p = subparsers.add_parser("ladder", help="play the AI levels against each other on mirrored battles: win rates, ratings")
    p.add_argument("scenarios", metavar="SCENARIO", nargs="*",
                   help="mirrored battles (.toml or .tmx); default: the bundled maps/mirror_*")
    add_asset_root_arg(p)
    p.add_argument("--runs", type=int, default=1,
                   help="seeds per pair, battle and ruleset; each is played from both sides (default 1)")
    p.add_argument("--levels", default=None, help="levels to compare, e.g. normal,hard (default: naive,easy,normal,hard)")
    p.add_argument("--edge", action="append", default=[], metavar="LEVEL+K",
                   help="also play LEVEL with +K to hit (d100: +5K) against LEVEL, the calibration each pair's "
                        "to-hit worth is read from; repeat for several K (e.g. --edge naive+1 --edge naive+2)")
    p.add_argument("--ruleset", default="all", help="a ruleset id or file, or 'all' (default)")
    add_workers_args(p)
    p.add_argument("--seed", type=int, default=1, help="base seed (default 1); same seed, same table")
    p.add_argument("--max-rounds", type=int, default=30, help="a battle not over after this many rounds is a draw (default 30)")
    p.add_argument("--progress", action="store_true", help="show progress on stderr even when it is not a terminal")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=run)


class _Progress:
    def __init__(self, stream, width: int = 30):
        self.stream, self.width = stream, width

    def __call__(self, done: int, total: int, rec: dict) -> None:
        filled = int(self.width * done / total) if total else self.width
        what = f"{rec.get('stronger', '')} vs {rec.get('weaker', '')}"
        self.stream.write(f"\rladder [{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} {what:<18}")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


def _rulesets(choice: str):
    from ..io.rulesets import bundled_ruleset_ids, load_ruleset
    if choice == "all":
        return [load_ruleset(rid) for rid in bundled_ruleset_ids()]
    return [load_ruleset(choice)]


def run(args) -> int:
    from ..io.scenarios import load_scenario
    from ..play.ladder import LEVELS, bundled_battles, format_report, ladder
    from ..play.simulate import default_workers, setups_for
    check_battle_counts(args)
    levels = [lv.strip() for lv in args.levels.split(",")] if args.levels else list(LEVELS)
    paths = [Path(p) for p in args.scenarios] or bundled_battles(MAPS_DIR)
    if not paths:
        raise RulesError(f"no battles to play: name scenario files, or put mirror_* battles in {MAPS_DIR}")
    rulesets = _rulesets(args.ruleset)
    setups, sides = {}, {}
    for path in paths:
        scenario = load_scenario(path, asset_root=args.asset_root)
        names = list(dict.fromkeys(f.side for f in scenario.figures))
        if len(names) != 2:
            raise RulesError(f"{path}: a ladder battle has exactly two sides (found: {', '.join(names) or 'none'})")
        if path.stem in {b for b, _ in setups}:
            raise RulesError(f"{path}: two battles are called {path.stem!r}; name each once")
        # Each figure takes each ruleset's numbers for its template, as simulate plays them.
        for rid, setup in setups_for(scenario, rulesets).items():
            setups[(path.stem, rid)] = setup
            sides[(path.stem, rid)] = tuple(names)
    show = args.progress or sys.stderr.isatty()
    report = ladder(setups, sides, levels=levels, runs=args.runs, seed=args.seed,
                    workers=args.workers or default_workers(), max_rounds=args.max_rounds,
                    progress=_Progress(sys.stderr) if show else None,
                    edges=[e for text in args.edge for e in text.split(",") if e.strip()])
    report["scenarios"] = [str(p) for p in paths]
    if args.json:
        emit_json(report)
    else:
        print(format_report(report))
    return 0
