"""`fivefoot path SCENARIO FIGURE X,Y`: the cheapest legal path, or why there is none."""
from __future__ import annotations

import sys

from ..core.values.numbers import feet
from ..core.values.errors import RulesError
from ..core.values.geometry import FACINGS
from .common import (add_json_flag, add_mode_arg, add_scenario_arg, bounded, emit_json, load,
                     parse_optional_facing, parse_square)


def register(subparsers) -> None:
    p = subparsers.add_parser("path", help="plan a move to a square: legal or why not, cost, steps, parting shots")
    add_scenario_arg(p)
    p.add_argument("figure", metavar="FIGURE", help="figure id")
    p.add_argument("target", metavar="X,Y", help="destination square")
    p.add_argument("--facing", choices=FACINGS, help="facing wanted at the end of the move")
    p.add_argument("--altitude", type=int, help="altitude wanted at the end (flyers), in feet")
    add_mode_arg(p)
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..core.battle import Battle
    sc = load(args)
    pos = Battle.from_scenario(sc).positioning()  # the resolver's own view of the position
    fig = pos.figure(args.figure)
    target = parse_square(args.target)
    bmap = sc.map
    if not bmap.in_bounds(*target):  # a mistake in the question, as explain --from and compare --to say
        raise RulesError(f"{args.target}: off the map (it is {bmap.width} x {bmap.height} squares)")
    if args.altitude is not None:
        bounded("--altitude", args.altitude, 0, 10_000, "an altitude in feet is")
    try:
        move = pos.plan(fig.id, target, args.mode, parse_optional_facing(args.facing), args.altitude)
    except RulesError as err:
        # An illegal move is an answer, not a usage error: report it and exit 1.
        if args.json:
            emit_json({"figure": fig.id, "mode": args.mode, "legal": False, "target": list(target), "reason": str(err)})
        else:
            print(f"illegal: {err}")
        return 1
    if args.json:
        emit_json(move.to_json())
        return 0
    path = move.path
    end = path.end
    print(f"{fig.label}: {args.mode} to {end.x},{end.y} facing {FACINGS[end.facing]}"
          + (f" at {end.altitude_ft} ft" if fig.flyer != "none" else "")
          + f": {feet(path.total_ft)} ft of {feet(path.budget_ft)} ft [{sc.ruleset.id}]")
    for i, s in enumerate(path.steps[1:], start=1):
        print(f"  {i:>2}. {s.x},{s.y} {FACINGS[s.facing]:<2} +{feet(s.cost_ft):>3} = {feet(s.total_ft):>3} ft  "
              f"{s.note}  ({s.rule})")
    if path.stall:
        print("  stall: a winged flyer that covers under a third of its speed stalls and must dive next round")
    if move.parting_shots:
        for shot in move.parting_shots:
            print(f"  parting shot: {shot.attacker} strikes at {shot.bonus:+d} ({shot.reason}; {shot.rule})")
    else:
        print("  no parting shots")
    sys.stdout.flush()
    return 0
