"""`fivefoot reach SCENARIO FIGURE`: every square the figure can reach, with its cost."""
from __future__ import annotations

from ..core.values.geometry import FACINGS
from ..core.values.numbers import feet, plain_number
from .common import add_json_flag, add_mode_arg, add_scenario_arg, emit_json, load


def register(subparsers) -> None:
    p = subparsers.add_parser("reach", help="squares a figure can reach this move")
    add_scenario_arg(p)
    p.add_argument("figure", metavar="FIGURE", help="figure id")
    add_mode_arg(p)
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..core.battle import Battle
    sc = load(args)
    pos = Battle.from_scenario(sc).positioning()  # the resolver's own view of the position
    fig = pos.figure(args.figure)
    entries = pos.reach(fig.id, args.mode)
    params = pos.planner.params(fig, args.mode) if args.mode != "charge" else None
    budget = params.budget_ft if params else None
    rows = sorted(((sq, e) for sq, e in entries.items() if sq != fig.pos), key=lambda r: (r[0][1], r[0][0]))
    if args.json:
        emit_json({
            "figure": fig.id, "mode": args.mode, "ruleset": sc.ruleset.id, "budget_ft": budget,
            "from": {"x": fig.x, "y": fig.y, "facing": FACINGS[fig.facing], "altitude_ft": fig.altitude_ft},
            "squares": [{"x": x, "y": y, "cost_ft": plain_number(e.cost_ft), "can_end": e.can_end,
                         "facings": {FACINGS[f]: plain_number(c) for f, c in sorted(e.facings.items())},
                         "altitudes_ft": sorted(e.altitudes)} for (x, y), e in rows],
        })
        return 0
    print(f"{fig.label} ({fig.id}) at {fig.x},{fig.y} facing {fig.facing_name}, mode {args.mode}"
          + (f", {feet(budget)} ft" if budget is not None else "") + f" [{sc.ruleset.id}]")
    print(f"{len(rows)} squares reachable")
    print(_grid(sc.map, fig, entries))
    return 0


def _grid(bmap, fig, entries) -> str:
    """A picture of the reachable squares: costs in tens of feet would not fit, so marks."""
    xs = [x for x, _ in entries] + [fig.x]
    ys = [y for _, y in entries] + [fig.y]
    x0, x1 = max(0, min(xs) - 1), min(bmap.width - 1, max(xs) + 1)
    y0, y1 = max(0, min(ys) - 1), min(bmap.height - 1, max(ys) + 1)
    lines = [f"     cost in ft (rows {y0}-{y1}, columns {x0}-{x1}); @ = the figure, # = wall, . = out of reach"]
    for y in range(y0, y1 + 1):
        cells = []
        for x in range(x0, x1 + 1):
            if (x, y) == fig.pos:
                cells.append("  @")
            elif bmap.blocks_move[y, x]:
                cells.append("  #")
            elif (x, y) in entries:
                cells.append(f"{int(entries[(x, y)].cost_ft):>3}")
            else:
                cells.append("  .")
        lines.append(f"{y:>4} " + "".join(cells))
    return "\n".join(lines)
