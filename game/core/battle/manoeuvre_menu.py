"""The manoeuvres a figure may make now, for menus (the window's, the AI's, legal_actions): a grapple,
trip, push or overbear against each foe beside it, the squares worth forcing a foe onto. Only the
actions the resolver's check accepts."""
from __future__ import annotations

from ..combat.reach import gap_ft
from ..values.actions import Action, Grapple, Overbear, Push, Trip


def manoeuvre_actions(battle, fig, foes) -> list[Action]:
    """Grapple, trip, push and overbear against each foe beside the figure, where its ruleset has them;
    a trip or push to each square that matters: every one with a drop (off a ledge, into a pit), the
    one farthest from the figure's friends, and (a trip) where the foe stands. Only allowed ones."""
    rules = battle.ruleset.section("manoeuvres")
    out: list[Action] = []
    for foe in foes:
        if gap_ft(battle, fig, foe) > 5:
            continue
        kinds = [cls(fig.id, target=foe.id) for key, cls in (("grapple", Grapple), ("overbear", Overbear))
                 if rules[key] != "none"]
        out.extend(a for a in kinds if battle.check(a) is None)
        if rules["trip"] != "none" and battle.check(Trip(fig.id, target=foe.id)) is None:
            out.append(Trip(fig.id, target=foe.id))
            out.extend(Trip(fig.id, target=foe.id, to=sq) for sq in shove_squares(battle, fig, foe, rules["trip_ft"], Trip))
        if rules["push"] != "none":
            out.extend(Push(fig.id, target=foe.id, to=sq) for sq in shove_squares(battle, fig, foe, rules["push_ft"], Push))
    return out


def shove_squares(battle, fig, foe, most_ft: int, kind) -> list[tuple[int, int]]:
    """The squares worth forcing `foe` onto (a trip's or a push's `to`) that the handler allows: those
    lower than where it stands by a fall or more, and the one farthest from the figure's friends."""
    steps = most_ft // 5
    squares = [(foe.x + dx, foe.y + dy) for dy in range(-steps, steps + 1) for dx in range(-steps, steps + 1)
               if (dx or dy) and battle.map.in_bounds(foe.x + dx, foe.y + dy)]
    if not squares:
        return []
    first = battle.check(kind(fig.id, target=foe.id, to=squares[0]))
    if first is not None and first.key not in ("trip.square", "push.square"):
        return []                    # refused whatever the square (no such manoeuvre, not its turn, ...)
    legal = [sq for sq in squares if battle.check(kind(fig.id, target=foe.id, to=sq)) is None]
    floor = battle.map.elevation_ft[foe.y, foe.x]
    drops = [sq for sq in legal if floor - battle.map.elevation_ft[sq[1], sq[0]] >= 5]
    friends = [f for f in battle.figures.values() if f.side == fig.side and f.id != fig.id and battle.able(f.id)]
    away = max((sq for sq in legal if sq not in drops),
               key=lambda sq: (min((max(abs(sq[0] - f.x), abs(sq[1] - f.y)) for f in friends), default=0),
                               -sq[1], -sq[0]), default=None) if friends else None
    return drops + ([away] if away is not None else [])
