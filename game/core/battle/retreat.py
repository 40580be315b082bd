"""odnd's Retreat (MISC COMBAT RULES): a figure that turns and leaves a melee rolls the retreat die + DEX
once, and each foe whose free attack its move would draw rolls its own; a foe gets its +2 free attack
only by rolling at least as high. Where the ruleset says so ([disengage] move_is_retreat), every move
that draws free attacks is such a retreat (a fighting withdrawal draws none), so a plain move and the
Disengage action's retreat style roll alike.
"""
from __future__ import annotations

from ..combat.dice import parse_dice
from ..values.events import Event, EventKind


def moves_retreat(ruleset) -> bool:
    """Whether a move drawing free attacks is a retreat decided by opposed rolls."""
    return ruleset.section("disengage")["move_is_retreat"]


def free_attack_chance(battle, mover_id: str, foe_id: str) -> float:
    """The chance that a foe whose free attack a move draws gets it: 1, or where moves are retreats the
    chance its retreat die + DEX reaches the mover's (ties go to the foe: the mover must roll highest)."""
    if not moves_retreat(battle.ruleset):
        return 1.0
    totals = parse_dice(battle.ruleset.section("disengage")["retreat_die"]).totals()
    mine, theirs = battle.profile(mover_id)["dex_mod"], battle.profile(foe_id)["dex_mod"]
    return sum(p * q for a, p in totals for b, q in totals if b + theirs >= a + mine)


def retreat_rolls(battle, fig, foe_ids, rule: str) -> tuple[list[Event], set]:
    """Roll the retreat: the mover once, each foe once. (events, ids of the foes that get their free attack)."""
    die_text = battle.ruleset.section("disengage")["retreat_die"]
    mine = parse_dice(die_text).roll(battle.rng)
    my_total = mine.total + battle.profile(fig.id)["dex_mod"]
    events: list[Event] = []
    winners = set()
    for foe_id in foe_ids:
        foe = battle.figures[foe_id]
        theirs = parse_dice(die_text).roll(battle.rng)
        their_total = theirs.total + battle.profile(foe_id)["dex_mod"]
        escaped = my_total > their_total
        if not escaped:
            winners.add(foe_id)
        events.append(Event(kind=EventKind.RETREAT, rule=rule, actor=fig.id, target=foe_id, rolls=(mine, theirs),
                            total=my_total, target_number=their_total, outcome="escapes" if escaped else "caught",
                            text=f"{fig.label} retreats from {foe.label}: {die_text}+DEX {my_total} vs {their_total}: "
                                 + ("ducks away without a free attack" if escaped
                                    else f"{foe.label} gets a free attack") + f" ({rule})"))
    return events, winners


def retreat_by_moving(battle, fig, planned) -> tuple[list[Event], set]:
    """A plain move that draws free attacks where moves are retreats: the opening event and the rolls
    against each foe whose free attack the path draws. (events, foes that still strike)."""
    rs = battle.ruleset
    rules = rs.section("disengage")
    why = rs.cite(rules["move_rule"])
    shooters = list(dict.fromkeys(s.attacker_id for s in planned.parting_shots))
    opening = Event(kind=EventKind.DISENGAGE, rule=why, actor=fig.id, data={"style": "retreat", "announced": False},
                    text=f"{fig.label} turns to leave the melee: a retreat, {rules['retreat_die']} + DEX against each "
                         f"foe whose free attack it would draw{rs.choice_words(why)} ({why})")
    events, winners = retreat_rolls(battle, fig, shooters, rs.cite(rules["rule"]))
    return [opening] + events, winners
