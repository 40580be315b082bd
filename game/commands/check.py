"""`fivefoot check SCENARIO|SAVE.json`: load and validate a scenario (or a saved battle, replaying
it), and say what is in it."""
from __future__ import annotations

from ..core.values.geometry import FACINGS
from .common import add_json_flag, add_scenario_arg, emit_json, load


def register(subparsers) -> None:
    p = subparsers.add_parser("check", help="validate a scenario and summarise it")
    add_scenario_arg(p)
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args) -> int:
    if str(args.scenario).lower().endswith(".json"):
        return run_save(args)
    sc = load(args)
    summary = sc.map.summary()
    data = {
        "scenario": sc.source, "title": sc.title, "description": sc.description,
        "ruleset": sc.ruleset.id, "map": summary,
        "figures": [{"id": f.id, "name": f.label, "side": f.side, "x": f.x, "y": f.y, "facing": FACINGS[f.facing],
                     "altitude_ft": f.altitude_ft, "move_ft": f.move_ft, "turning_ft": f.turning_ft,
                     "flyer": f.flyer, "weapons": list(f.weapons), "footprint": list(f.footprint), "mount": f.mount}
                    for f in sc.figures],
        "actions": len(sc.actions),
        "objectives": [o.to_json() for o in sc.objectives.items], "round_limit": sc.objectives.round_limit,
    }
    if args.json:
        emit_json(data)
        return 0
    print(f"{sc.title}  [{sc.ruleset.id}: {sc.ruleset.name}]")
    if sc.description:
        print(f"  {sc.description}")
    print(f"  map {summary['width']} x {summary['height']} squares: {summary['blocking']} blocking, "
          f"{summary['cover']} cover, {summary['concealment']} concealment, {summary['difficult']} difficult, "
          f"{summary['elevated']} elevated")
    for w in summary["warnings"]:
        print(f"  warning: {w}")
    print(f"  {len(sc.figures)} figures:")
    for f in data["figures"]:
        extra = f", {f['flyer']} flyer at {f['altitude_ft']} ft" if f["flyer"] != "none" else ""
        turn = f", turning {f['turning_ft']} ft" if f["turning_ft"] else ""
        body = f", {f['footprint'][0] * 5} x {f['footprint'][1] * 5} ft body" if f["footprint"] != [1, 1] else ""
        rides = f", riding {f['mount']}" if f["mount"] else ""
        print(f"    {f['id']:<10} {f['side']:<6} at {f['x']},{f['y']} facing {f['facing']:<2} "
              f"move {f['move_ft']} ft{turn}{extra}{body}{rides}; {', '.join(f['weapons'])}")
    if sc.objectives:
        limit = f", round limit {sc.objectives.round_limit}" if sc.objectives.round_limit else ""
        print(f"  {len(sc.objectives.items)} objective(s){limit}:")
        for o in sc.objectives.items:
            worth = f"{o.points} victory point(s)" if o.points else "wins the battle"
            print(f"    {o.id:<10} {o.side:<6} {o.kind:<8} {o.title} ({worth})")
    print("ok")
    return 0


def run_save(args) -> int:
    """A saved battle: validated like a scenario, replayed to where it was saved."""
    from ..core.values.errors import RulesError
    from ..io.saves import load_battle
    if getattr(args, "ruleset", None):
        raise RulesError("a save is played under its own ruleset; --ruleset applies to scenarios")
    battle = load_battle(args.scenario)
    figures = []
    for f in battle.figures.values():
        st = battle.status(f.id)
        figures.append({"id": f.id, "name": f.label, "side": f.side, "x": f.x, "y": f.y, "facing": FACINGS[f.facing],
                        "altitude_ft": f.altitude_ft, "hp": st.hp, "max_hp": st.max_hp, "able": st.able,
                        "conditions": list(st.conditions), "weapons": list(f.weapons), "footprint": list(f.footprint)})
    data = {"save": str(args.scenario), "title": battle.setup.title, "ruleset": battle.ruleset.id,
            "round": battle.round, "current": battle.current, "over": battle.is_over, "winner": battle.winner,
            "actions": len(battle.actions), "map": battle.map.summary(), "figures": figures}
    if args.json:
        emit_json(data)
        return 0
    who = battle.figures[battle.current].label if battle.current else "nobody"
    state = (f"over: {battle.winner or 'a draw'}" if battle.is_over else f"round {battle.round}, {who}'s turn")
    print(f"{battle.setup.title or args.scenario}  [{battle.ruleset.id}: {battle.ruleset.name}]  saved battle, "
          f"{len(battle.actions)} actions replayed; {state}")
    for f in figures:
        status = "" if f["able"] else " (" + ", ".join(f["conditions"]) + ")"
        print(f"    {f['id']:<10} {f['side']:<6} at {f['x']},{f['y']} facing {f['facing']:<2} "
              f"hp {f['hp']}/{f['max_hp']}{status}")
    print("ok")
    return 0
