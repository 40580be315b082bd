"""`fivefoot explain SCENARIO ATTACKER TARGET`: every modifier of the attack, without rolling."""
from __future__ import annotations

from ..core.battle import Battle
from ..core.errors import RulesError
from ..core.script import parse_script, run_script
from .common import add_json_flag, add_scenario_arg, emit_json, load


def register(subparsers) -> None:
    p = subparsers.add_parser("explain", help="the full modifier breakdown of an attack, without rolling")
    add_scenario_arg(p)
    p.add_argument("attacker", metavar="ATTACKER", help="attacking figure id")
    p.add_argument("target", metavar="TARGET", help="target figure id")
    p.add_argument("--weapon", help="weapon to use (default: the ready one)")
    p.add_argument("--charge", action="store_true", help="as the attack at the end of a charge")
    p.add_argument("--parting-shot", action="store_true", help="as a parting shot")
    p.add_argument("--scripted", action="store_true", help="play the scenario's scripted actions first")
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args) -> int:
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
    bd = battle.explain_attack(args.attacker, args.target, args.weapon, charge=args.charge, parting_shot=args.parting_shot)
    if args.json:
        emit_json({"ruleset": sc.ruleset.id, **bd.to_json()})
        return 0
    a, t = battle.figures[args.attacker], battle.figures[args.target]
    print(f"{a.label} -> {t.label} [{sc.ruleset.id}: {sc.ruleset.name}]")
    for line in bd.lines():
        print(line)
    return 0
