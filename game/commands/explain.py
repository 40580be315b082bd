"""`fivefoot explain SCENARIO ATTACKER TARGET [--from X,Y] [--facing F] [--charge]`: every modifier of
the attack, without rolling, from where the attacker stands or from any square."""
from __future__ import annotations

from ..core.values.errors import RulesError
from ..core.values.geometry import FACINGS
from .common import attack_battle, add_json_flag, add_scenario_arg, emit_json, parse_optional_facing, parse_square


def register(subparsers) -> None:
    p = subparsers.add_parser("explain", help="the full modifier breakdown of an attack, without rolling")
    add_scenario_arg(p)
    p.add_argument("attacker", metavar="ATTACKER", help="attacking figure id")
    p.add_argument("target", metavar="TARGET", help="target figure id")
    p.add_argument("--weapon", help="weapon to use (default: the ready one)")
    p.add_argument("--from", dest="from_square", metavar="X,Y", help="as if the attacker stood on this square")
    p.add_argument("--facing", help="as if the attacker faced this way (N, NE, E, ...)")
    p.add_argument("--charge", action="store_true", help="as the attack at the end of a charge")
    p.add_argument("--parting-shot", action="store_true", help="as a parting shot")
    p.add_argument("--scripted", action="store_true", help="play the scenario's scripted actions first")
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args) -> int:
    battle = attack_battle(args)
    a, t = battle.figures[args.attacker], battle.figures[args.target]
    at = parse_square(args.from_square) if args.from_square else None
    if at is not None and not battle.map.in_bounds(*at):
        raise RulesError(f"--from {at[0]},{at[1]} is off the map ({battle.map.width} x {battle.map.height} squares)")
    facing = parse_optional_facing(args.facing)
    bd = battle.explain_attack(args.attacker, args.target, args.weapon, at=at, facing=facing, charge=args.charge,
                               parting_shot=args.parting_shot)
    where = {"x": at[0] if at else a.x, "y": at[1] if at else a.y, "facing": FACINGS[a.facing if facing is None else facing]}
    if args.json:
        emit_json({"ruleset": battle.ruleset.id, "attacker_at": where, **bd.to_json()})
        return 0
    stands = "" if at is None and facing is None else f" (as if at {where['x']},{where['y']} facing {where['facing']})"
    print(f"{a.label}{stands} -> {t.label} [{battle.ruleset.id}: {battle.ruleset.name}]")
    for line in bd.lines():
        print(line)
    return 0
