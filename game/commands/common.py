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


# Bounds of the numeric arguments (docs/cli.md, "Limits"): each a size that still finishes, or fits.
MAX_RUNS = 100_000          # battles per ruleset (simulate) or per pairing (ladder): hours of CPU already
MAX_ROUNDS = 1_000          # --max-rounds
MAX_SEED = 2 ** 63 - 1      # --seed, as a save stores it
MAX_WORKERS = 256           # --workers with --oversubscribe (without it, at most the CPUs)
MAX_WINDOW = (8192, 8192)   # play --size: 256 MiB of window surface
MAX_FRAMES = 1_000_000_000  # play --frames (months of frames: a bound on typos, not on patience)


def bounded(flag: str, value: int, low: int, high: int, what: str = "") -> int:
    """`value` if low <= value <= high, else RulesError naming the flag and the bounds (exit 2)."""
    if not low <= value <= high:
        raise RulesError(f"{flag} {value}: {what or 'must be'} from {low:,} to {high:,}")
    return value


def add_workers_args(parser) -> None:
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: one per CPU; "
                                                                  "at most the CPUs unless --oversubscribe)")
    parser.add_argument("--oversubscribe", action="store_true",
                        help=f"allow more --workers than CPUs (up to {MAX_WORKERS})")


def check_battle_counts(args) -> None:
    """--runs, --max-rounds, --workers and --seed of the commands that play many battles (simulate, ladder)."""
    import os
    bounded("--runs", args.runs, 1, MAX_RUNS, "the battles to play must number")
    bounded("--max-rounds", args.max_rounds, 1, MAX_ROUNDS)
    if getattr(args, "seed", None) is not None:
        bounded("--seed", args.seed, 0, MAX_SEED)
    if args.workers is not None:
        cpus = os.cpu_count() or 1
        if args.workers > cpus and not getattr(args, "oversubscribe", False) and not getattr(args, "scheduler", None):
            raise RulesError(f"--workers {args.workers}: this machine has {cpus} CPUs; more workers than CPUs only "
                             "share them (say --oversubscribe to ask for it anyway)")
        bounded("--workers", args.workers, 1, MAX_WORKERS)


def output_file(flag: str, value: str) -> str:
    """A file a command will write: not a folder, in a folder that exists (RulesError, exit 2, if not)."""
    import os
    if value.endswith((os.sep, "/")) or os.path.isdir(value):
        raise RulesError(f"{flag} {value!r} is a folder; name a file in it")
    folder = os.path.dirname(value) or "."
    if not os.path.isdir(folder):
        raise RulesError(f"{flag} {value!r}: there is no folder {folder!r} to write it in")
    return value


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
