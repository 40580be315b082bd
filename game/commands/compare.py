"""`fivefoot compare SCENARIO ATTACKER TARGET`: the same attack (and move) under every ruleset.

The scenario's position is judged by each bundled ruleset (`Battle.rejudged`: the same figures
where they stand, hit points and whose turn), and each is asked the same questions: the
attack's modifier breakdown and whether it may be made now, the charge, and with `--to` the
move's path, costs and parting shots. The window's compare panel (V) shows the same.
"""
from __future__ import annotations

import sys

from ..core.values.modes import MOVE_MODES
from ..core.values.errors import RulesError
from .common import add_asset_root_arg, add_json_flag, emit_json, parse_square


def register(subparsers) -> None:
    p = subparsers.add_parser("compare", help="the same attack and move judged under every ruleset, side by side")
    p.add_argument("scenario", metavar="SCENARIO", help="a scenario .toml or a Tiled map .tmx")
    add_asset_root_arg(p)
    p.add_argument("attacker", metavar="ATTACKER", help="attacking (and moving) figure id")
    p.add_argument("target", metavar="TARGET", help="target figure id")
    p.add_argument("--to", metavar="X,Y", help="also compare the attacker's move to this square")
    p.add_argument("--mode", default="walk", choices=MOVE_MODES,
                   help="movement mode of the move (default walk)")
    p.add_argument("--rulesets", metavar="ID,ID", help="which rulesets (default: every bundled one)")
    p.add_argument("--scripted", action="store_true", help="play the scenario's scripted actions first")
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args) -> int:
    # Imported when run, not when the parser is built: start-up stays light for other commands.
    from ..core.battle import Battle
    from ..core.script import parse_script, run_script
    from ..io.rulesets import bundled_ruleset_ids, load_ruleset
    from ..io.scenarios import load_scenario
    from ..client.comparison import compare, differences, judgement_lines, rejudged_all
    sc = load_scenario(args.scenario, asset_root=args.asset_root)
    ids = [f.id for f in sc.figures]
    for who in (args.attacker, args.target):
        if who not in ids:
            raise RulesError(f"no figure {who!r} in {sc.source}; figures: {', '.join(ids)}")
    if args.attacker == args.target:
        raise RulesError("ATTACKER and TARGET must be two different figures")
    wanted = bundled_ruleset_ids() if not args.rulesets else [r.strip() for r in args.rulesets.split(",") if r.strip()]
    unknown = [r for r in wanted if r not in bundled_ruleset_ids()]
    if unknown or not wanted:
        raise RulesError(f"--rulesets {args.rulesets!r}: unknown ruleset {unknown[0] if unknown else '(none)'}; "
                         f"bundled: {', '.join(bundled_ruleset_ids())}")
    battle = Battle.from_scenario(sc)
    if args.scripted:
        run_script(battle, parse_script(sc.actions, sc.source, ids), sc.source)
    move_to = parse_square(args.to) if args.to else None
    if move_to is not None and not battle.map.in_bounds(*move_to):
        raise RulesError(f"--to {args.to}: off the map (it is {battle.map.width} x {battle.map.height} squares)")
    battles = rejudged_all(battle, [load_ruleset(r) for r in wanted])
    judgements = compare(battles, args.attacker, args.target, move_to, args.mode)
    differing = differences(judgements)
    if args.json:
        emit_json({"scenario": sc.title, "attacker": args.attacker, "target": args.target,
                   "move": None if move_to is None else {"to": list(move_to), "mode": args.mode},
                   "rulesets": {j.ruleset_id: {**j.to_json(), "differs": differing.get(j.ruleset_id, {})}
                                for j in judgements}})
        return 0
    a, t = battle.figures[args.attacker], battle.figures[args.target]
    print(f"{a.label} -> {t.label} in {sc.title}" + (f", moving ({args.mode}) to {args.to}" if move_to else ""))
    for j in judgements:
        print(f"\n== {j.ruleset_id}: {j.ruleset_name} ==")
        for text, _role in judgement_lines(j, battle.figures, args.attacker, args.target, move_to, args.mode,
                                           differing.get(j.ruleset_id)):
            print(text)
    sys.stdout.flush()
    return 0
