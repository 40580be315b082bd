"""`fivefoot odds-map SCENARIO ATTACKER TARGET`: the attack the attacker could make on the target from
every square it can reach this turn, with the chance (or expected damage) and why, the best squares
first; the same answers the window's odds map (O) shades."""
from __future__ import annotations

from .common import attack_battle, add_json_flag, add_scenario_arg, emit_json

# The measures the map ranks by (game.core.battle.ODDS_MEASURES; named here so that `--help` need
# not load the resolver).
MEASURES = ("chance", "damage")


def register(subparsers) -> None:
    p = subparsers.add_parser("odds-map", help="the odds of an attack from every square the attacker can reach")
    add_scenario_arg(p)
    p.add_argument("attacker", metavar="ATTACKER", help="attacking figure id")
    p.add_argument("target", metavar="TARGET", help="target figure id")
    p.add_argument("--weapon", help="weapon to use (default: the ready one)")
    p.add_argument("--measure", choices=MEASURES, default="chance",
                   help="shade and rank by the chance to hit (default) or the expected damage")
    p.add_argument("--all", action="store_true", help="list every square, not only the best and the map")
    p.add_argument("--scripted", action="store_true", help="play the scenario's scripted actions first")
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args) -> int:
    battle = attack_battle(args)
    odds = battle.odds_map(args.attacker, args.target, args.weapon)
    if args.json:
        emit_json(odds.to_json(args.measure))
        return 0
    _print(battle, odds, args.measure, args.all)
    return 0


def _print(battle, odds, measure: str, every: bool) -> None:
    from ..core.battle import square_words
    a, t = battle.figures[odds.attacker], battle.figures[odds.target]
    turn = "its turn now" if odds.its_turn else "not its turn: what its turn would offer from where it stands"
    print(f"{a.label} -> {t.label} [{battle.ruleset.id}: {battle.ruleset.name}] ({turn})")
    for line in _grid(battle, odds, measure):
        print("  " + line)
    print("  key: A attacker, T target, 0-9 tenths of the best " + ("chance" if measure == "chance" else "damage")
          + " (9: the best), * best, c charge, . reachable but no attack, # wall")
    best = odds.best(measure)
    if not best:
        print("no square it can reach this turn allows the attack; from where it stands: "
              + square_words(odds.at(a.pos)[0], measure))
        return
    print("best:")
    for square in best[:8]:
        print(f"  {square.square[0]},{square.square[1]}  {square_words(square, measure)}")
    if len(best) > 8:
        print(f"  and {len(best) - 8} more squares as good")
    if every:
        print("every square:")
        for square in sorted(odds.squares, key=lambda s: (-s.value(measure), s.cost_ft, s.square)):
            print(f"  {square.square[0]},{square.square[1]}  {square_words(square, measure)}")


def _grid(battle, odds, measure: str) -> list[str]:
    """The reachable squares around attacker and target as characters, a row per line."""
    a, t = battle.figures[odds.attacker], battle.figures[odds.target]
    xs = [s.square[0] for s in odds.squares] + [a.x, t.x]
    ys = [s.square[1] for s in odds.squares] + [a.y, t.y]
    best = {s.square for s in odds.best(measure)}
    top = max((s.value(measure) for s in odds.squares if s.allowed), default=0.0)
    cells = {}
    for s in odds.squares:
        if s.how == "charge":
            cells[s.square] = "c" if s.allowed else cells.get(s.square, ".")
        elif s.allowed:
            cells[s.square] = "*" if s.square in best else str(min(9, int(10 * s.value(measure) / top))) if top else "0"
        else:
            cells.setdefault(s.square, ".")
    rows = []
    for y in range(min(ys), max(ys) + 1):
        row = []
        for x in range(min(xs), max(xs) + 1):
            if (x, y) == a.pos:
                row.append("A")
            elif (x, y) == t.pos:
                row.append("T")
            elif (x, y) in cells:
                row.append(cells[(x, y)])
            elif not battle.map.passable(x, y):
                row.append("#")
            else:
                row.append(" ")
        rows.append(f"{y:>3} " + "".join(row))
    return rows
