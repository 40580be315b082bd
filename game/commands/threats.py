"""`fivefoot threats SCENARIO`: who is engaged, what each threatens, which charges are legal."""
from __future__ import annotations

from ..core.values.numbers import feet
from .common import add_json_flag, add_scenario_arg, emit_json, load


def register(subparsers) -> None:
    p = subparsers.add_parser("threats", help="engagement pairs, threatened squares and charge lanes")
    add_scenario_arg(p)
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..core.battle import Battle
    sc = load(args)
    pos = Battle.from_scenario(sc).positioning()  # the resolver's own view of the position
    data = pos.threats()
    if args.json:
        emit_json({"ruleset": sc.ruleset.id, **data})
        return 0
    eng = sc.ruleset.section("engagement")
    print(f"{sc.title} [{sc.ruleset.id}]: engaged within {eng['zone_ft']} ft"
          + (", not through obstacles" if eng["obstacle_breaks"] else ""))
    if data["engaged"]:
        for pair in data["engaged"]:
            print(f"  engaged: {pair['a']} and {pair['b']} ({feet(pair['distance_ft'])} ft)")
    else:
        print("  nobody is engaged")
    print("threatened squares (ready weapon reach):")
    for fid, t in data["threatened"].items():
        print(f"  {fid:<10} reach {t['reach_ft']} ft: {len(t['squares'])} squares")
    print("charge lanes:")
    for lane in data["charge_lanes"]:
        mark = "LEGAL" if lane["legal"] else "no   "
        print(f"  {mark} {lane['attacker']} -> {lane['target']}: {lane['reason']} ({lane['rule']})")
    return 0
