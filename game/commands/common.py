"""Helpers shared by the subcommands: loading a scenario, parsing squares, printing JSON."""
from __future__ import annotations

import json
import sys

from ..core.values.errors import RulesError
from ..core.values.geometry import parse_facing
from ..core.values.modes import MODES


def add_json_flag(parser) -> None:
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON (see docs/cli.md)")


def add_scenario_arg(parser) -> None:
    parser.add_argument("scenario", metavar="SCENARIO", help="a scenario .toml or a Tiled map .tmx")
    parser.add_argument("--ruleset", help="play it under another ruleset (bfrpg, odnd, cnc, ch17, spelljammer)")
    add_asset_root_arg(parser)


def add_asset_root_arg(parser) -> None:
    parser.add_argument(
        "--asset-root", metavar="DIR", default=None,
        help="folder the map's tilesets, templates and images must lie in (default: the Tiled project's folder, "
             "else the nearest folder above the map holding every file it uses; see maps/README.md)",
    )


def add_mode_arg(parser) -> None:
    parser.add_argument("--mode", default="walk", choices=MODES, help="movement mode (default walk)")


def load(args):
    from ..io.rulesets import load_ruleset
    from ..io.scenarios import load_scenario
    scenario = load_scenario(args.scenario, asset_root=getattr(args, "asset_root", None))
    if getattr(args, "ruleset", None):
        # The same figures under other rules: each takes that ruleset's numbers for its template,
        # but for what the scenario sets itself, which is said.
        from ..core.scenario import figures_under, weapons_missing_from
        scenario.ruleset = load_ruleset(args.ruleset)
        scenario.figures, notes = figures_under(scenario.figures, scenario.ruleset)
        for note in notes:
            print(f"fivefoot: note: {note}", file=sys.stderr)
        for note in weapons_missing_from(scenario.figures, scenario.ruleset):
            print(f"fivefoot: warning: {note}", file=sys.stderr)
    return scenario


def parse_square(text: str) -> tuple[int, int]:
    try:
        x_text, y_text = text.split(",")
        return int(x_text), int(y_text)
    except ValueError:
        raise RulesError(f"square {text!r} is not X,Y (for example 4,7)") from None


def parse_optional_facing(text: str | None) -> int | None:
    return None if text is None else parse_facing(text)


def emit_json(data) -> None:
    json.dump(data, sys.stdout, indent=2, sort_keys=False)
    sys.stdout.write("\n")


def check_battle_counts(args) -> None:
    """--runs, --max-rounds and --workers of the commands that play many battles (simulate, ladder)."""
    from ..core.values.errors import RulesError
    if args.runs < 1:
        raise RulesError(f"--runs {args.runs}: play at least one battle")
    if args.max_rounds < 1:
        raise RulesError(f"--max-rounds {args.max_rounds}: must be at least 1")
    if args.workers is not None and args.workers < 1:
        raise RulesError(f"--workers {args.workers}: must be at least 1")


def attack_battle(args):
    """The battle an attack question is asked of (explain, odds-map): the scenario loaded, ATTACKER and
    TARGET checked, its script played with --scripted, --weapon one the attacker carries."""
    from ..core.battle import Battle
    from ..core.script import parse_script, run_script
    sc = load(args)
    battle = Battle.from_scenario(sc)
    ids = [f.id for f in sc.figures]
    for who in (args.attacker, args.target):
        if who not in ids:
            raise RulesError(f"no figure {who!r} in {sc.source}; figures: {', '.join(ids)}")
    if args.scripted:
        run_script(battle, parse_script(sc.actions, sc.source, ids), sc.source)
    if args.weapon and args.weapon not in battle.figures[args.attacker].weapons:
        raise RulesError(f"{args.attacker} carries no {args.weapon}: {', '.join(battle.figures[args.attacker].weapons)}")
    return battle
