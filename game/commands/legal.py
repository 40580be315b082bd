"""`fivefoot legal SCENARIO FIGURE`: what the figure may do now, each kind of action allowed or
why not, in the resolver's words (the same the window's buttons and tooltips show)."""
from __future__ import annotations

from ..core.values.errors import RulesError
from .common import add_json_flag, add_scenario_arg, emit_json, load


def register(subparsers) -> None:
    p = subparsers.add_parser("legal", help="what a figure may do now: each kind of action, allowed or why not")
    add_scenario_arg(p)
    p.add_argument("figure", metavar="FIGURE", help="figure id")
    p.add_argument("--scripted", action="store_true", help="play the scenario's scripted actions first")
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..core.battle import Battle
    from ..core.script import parse_script, run_script
    sc = load(args)
    battle = Battle.from_scenario(sc)
    ids = [f.id for f in sc.figures]
    if args.figure not in ids:
        raise RulesError(f"no figure {args.figure!r} in {sc.source}; figures: {', '.join(ids)}")
    if args.scripted:
        run_script(battle, parse_script(sc.actions, sc.source, ids), sc.source)
    options = battle.options(args.figure)
    fig = battle.figures[args.figure]
    current = battle.current
    if args.json:
        emit_json({"ruleset": sc.ruleset.id, "figure": fig.id, "current": current, "round": battle.round,
                   "phase": battle.current_phase,
                   "actions": {kind: {"allowed": refusal is None, **({"refusal": refusal.to_json()} if refusal else {})}
                               for kind, refusal in options.items()}})
        return 0
    who = battle.figures[current].label if current else "nobody"
    print(f"{fig.label} [{sc.ruleset.id}: {sc.ruleset.name}], round {battle.round}, {who}'s turn "
          f"({battle.current_phase})")
    width = max(len(kind) for kind in options)
    for kind, refusal in options.items():
        print(f"  {kind:<{width}}  " + ("yes" if refusal is None else f"no: {refusal.words}"))
    return 0
