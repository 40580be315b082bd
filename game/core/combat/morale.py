"""Morale: a side checks when it loses its first figure and when half of it is out of the fight.

The document names the roll (2d6) but not its table: the engine reads "at or below the
side's morale score, it stands; above, those with a morale score are routed" (they run for the map
edge on their turns: battle/rout.py). Two passed checks
and the side fights to the death.
"""
from __future__ import annotations

from ..values.events import Event, EventKind
from .dice import parse_dice


def check_morale(battle, side: str, reason: str, rng) -> list[Event]:
    rs = battle.ruleset
    rules = rs.section("morale")
    if not rules["checks"]:
        return []
    record = battle.morale.setdefault(side, {"first_death": False, "half": False, "passes": 0})
    if rules["passes_to_fearless"] and record["passes"] >= rules["passes_to_fearless"]:
        return []
    members = [f for f in battle.figures.values() if f.side == side]
    standing = [f for f in members if battle.able(f.id)]
    scored = [f for f in standing if battle.profile(f.id)["morale"] > 0]
    if not scored:
        return []
    score = max(battle.profile(f.id)["morale"] for f in scored)
    roll = parse_dice(rules["dice"]).roll(rng)
    rule = rs.cite(rules["rule"])
    passed = roll.total <= score
    events = [Event(kind=EventKind.MORALE, rule=rule, actor=None, rolls=(roll,), total=roll.total, target_number=score,
                    outcome="stands" if passed else "flees",
                    text=f"side {side} checks morale ({reason}): {rules['dice']} {roll.total} vs morale {score}: "
                         + ("stands" if passed else "breaks and flees") + f" ({rule})",
                    data={"side": side, "reason": reason})]
    if passed:
        record["passes"] += 1
        if rules["passes_to_fearless"] and record["passes"] >= rules["passes_to_fearless"]:
            events.append(Event(kind=EventKind.MORALE, rule=rule, text=f"side {side} has held twice: it fights to the death ({rule})",
                                data={"side": side}))
    else:
        for f in scored:
            events.extend(battle.rout(f.id, rule))
    return events


def rout_chance(battle, felled_id: str) -> float:
    """Chance, without rolling, that felling this figure now makes its side fail one of the checks
    `morale_after_loss` would then make (first loss, half the side down) and flee."""
    rules = battle.ruleset.section("morale")
    fig = battle.figures[felled_id]
    if not rules["checks"] or not battle.able(felled_id):
        return 0.0
    record = battle.morale.get(fig.side, {"first_death": False, "half": False, "passes": 0})
    members = [f for f in battle.figures.values() if f.side == fig.side]
    standing = [f for f in members if f.id != felled_id and battle.able(f.id)]
    scores = [battle.profile(f.id)["morale"] for f in standing]
    score = max((m for m in scores if m > 0), default=0)
    if not score:
        return 0.0
    out = len(members) - len(standing)
    checks = int(bool(rules["after_first_death"] and not record["first_death"]))
    checks += int(bool(rules["at_half"] and not record["half"] and out * 2 >= len(members) and out < len(members)))
    stands = sum(p for total, p in parse_dice(rules["dice"]).totals() if total <= score)
    passes, chance, standing_so_far = record["passes"], 0.0, 1.0
    for _ in range(checks):
        if rules["passes_to_fearless"] and passes >= rules["passes_to_fearless"]:
            break
        chance += standing_so_far * (1 - stands)
        standing_so_far *= stands
        passes += 1
    return chance


def morale_after_loss(battle, side: str, rng) -> list[Event]:
    rules = battle.ruleset.section("morale")
    if not rules["checks"]:
        return []
    record = battle.morale.setdefault(side, {"first_death": False, "half": False, "passes": 0})
    members = [f for f in battle.figures.values() if f.side == side]
    out = [f for f in members if not battle.able(f.id)]
    events = []
    if rules["after_first_death"] and not record["first_death"] and out:
        record["first_death"] = True
        events.extend(check_morale(battle, side, "first loss", rng))
    out = [f for f in members if not battle.able(f.id)]
    if rules["at_half"] and not record["half"] and members and len(out) * 2 >= len(members) and len(out) < len(members):
        record["half"] = True
        events.extend(check_morale(battle, side, "half the side is down", rng))
    return events
