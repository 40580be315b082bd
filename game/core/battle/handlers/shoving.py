"""Trip, Push and Overbear: manoeuvres that knock a figure down or move it by force (bfrpg tripping,
spelljammer's desperate-defence push, cnc overbearing). A figure moved over a drop falls, with the
ruleset's falling damage.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...values.actions import Overbear, Push, Trip
from ...combat import damage as damage_mod
from ...combat import manoeuvres as rolls
from ...combat.dice import parse_dice
from ...combat.state import condition_until
from ...values.events import Event, EventKind
from ...values.figure import Figure
from ...values.geometry import grid_distance_ft
from ...values.refusals import refuse
from ..holds import release_all, square_free
from .grappling import manoeuvre_rules, require_foe_beside, require_mechanism, spend_attack


@dataclass(frozen=True)
class ShovePlan:
    figure: Figure
    target: Figure
    to: tuple[int, int]          # where the target ends up (its own square: it stays)


def line_squares(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    """The squares a straight move from a to b passes through (a excluded, b included)."""
    steps = max(abs(b[0] - a[0]), abs(b[1] - a[1]))
    out = []
    for i in range(1, steps + 1):
        sq = (a[0] + round((b[0] - a[0]) * i / steps), a[1] + round((b[1] - a[1]) * i / steps))
        if sq not in out:
            out.append(sq)
    return out


def landing_problem(battle, target: Figure, to, most_ft: int) -> str | None:
    """Why a forced move may not put the target on `to` (None: it may): within most_ft, a straight way
    clear of walls and figures, never up a step higher than a walker climbs."""
    to = tuple(to)
    if to == target.pos:
        return None
    dist = grid_distance_ft(battle.ruleset.diagonal, to[0] - target.x, to[1] - target.y)
    if dist > most_ft:
        return f"{to[0]},{to[1]} is {dist:g} ft from {target.label}; it can be moved at most {most_ft} ft"
    climb = battle.ruleset.section("grid")["climb_step_ft"]
    floor = int(battle.map.elevation_ft[target.y, target.x])
    for sq in line_squares(target.pos, to):
        if not battle.map.in_bounds(*sq):
            return f"{sq[0]},{sq[1]} is off the map"
        if not square_free(battle, sq, (target.id,)):
            return f"{sq[0]},{sq[1]} is a wall or another figure's square: {target.label} cannot be moved there"
        step = int(battle.map.elevation_ft[sq[1], sq[0]])
        if step - floor > climb:
            return f"{sq[0]},{sq[1]} is {step - floor} ft higher: {target.label} cannot be moved up it"
        floor = step
    if target.big:      # a figure bigger than a square needs room for its whole body where it lands
        for cx, cy in target.moved_to(to[0], to[1], target.facing).cells:
            if not battle.map.in_bounds(cx, cy) or not square_free(battle, (cx, cy), (target.id,)):
                return f"{target.label}'s body would cover {cx},{cy}, a wall, the map's edge or another figure's square"
    return None


def fall_ft(battle, fig: Figure, to) -> int:
    """How far a figure forced onto `to` falls (0: no fall): the drop from its floor to the landing's,
    5 ft or more, for a figure on the ground."""
    drop = int(battle.map.elevation_ft[fig.y, fig.x]) - int(battle.map.elevation_ft[to[1], to[0]])
    return drop if drop >= 5 and fig.altitude_ft == 0 else 0


def forced_move(battle, fid: str, to, rule: str) -> list[Event]:
    """Put the figure on `to` (it keeps its facing); a drop on the way is a fall with the ruleset's damage."""
    fig = battle.figures[fid]
    if tuple(to) == fig.pos:
        return []
    release_all(battle, fid)
    drop = fall_ft(battle, fig, to)
    battle.set_figure(fig.moved_to(to[0], to[1], fig.facing))
    battle.figures_moved()
    return damage_mod.fall(battle, fid, drop, battle.rng) if drop else []


def knock_prone(battle, fid: str) -> None:
    battle.state_of(fid).conditions["prone"] = condition_until(battle, "prone")


# ----- trip -----
def check_trip(battle, action: Trip) -> ShovePlan:
    require_mechanism(battle, action)
    fig, target = require_foe_beside(battle, action, "trip")
    rules = manoeuvre_rules(battle)
    to = target.pos if action.to is None else tuple(action.to)
    problem = landing_problem(battle, target, to, rules["trip_ft"])
    if problem:
        refuse("trip.square", why=problem)
    return ShovePlan(fig, target, to)


def apply_trip(battle, plan: ShovePlan) -> list[Event]:
    rules = manoeuvre_rules(battle)
    rs = battle.ruleset
    rule = rs.cite(rules["trip_rule"])
    fig, target = plan.figure, plan.target
    spend_attack(battle, fig.id, target.id)
    roll = rolls.trip_target(battle, fig.id, target.id).roll(battle.rng, "trip")
    words = roll.words
    extra: list[Event] = []
    if roll.success:
        knock_prone(battle, target.id)
        where = "where it stands" if plan.to == target.pos else f"on {plan.to[0]},{plan.to[1]}"
        words += f"; {target.label} falls prone {where}"
        extra = forced_move(battle, target.id, plan.to, rule)
    text = f"{fig.label} tries to trip {target.label}: {words}{rs.choice_words(rule)} ({rule})"
    event = Event(kind=EventKind.TRIP, rule=rule, actor=fig.id, target=target.id, rolls=tuple(roll.rolls),
                  total=roll.total, target_number=roll.target_number, outcome="prone" if roll.success else "miss",
                  text=text, squares=(target.pos, plan.to), data={"from": list(target.pos), "to": list(plan.to)})
    return [event] + extra


# ----- push -----
def check_push(battle, action: Push) -> ShovePlan:
    how = require_mechanism(battle, action)
    fig, target = require_foe_beside(battle, action, "push")
    tst = battle.state_of(target.id)
    if how == "desperate-defense" and tst.defense != "desperate-defense":
        refuse("push.not-desperate", target=target.label, rule=battle.ruleset.cite(manoeuvre_rules(battle)["push_rule"]))
    to = tuple(action.to)
    problem = landing_problem(battle, target, to, manoeuvre_rules(battle)["push_ft"])
    if problem:
        refuse("push.square", why=problem)
    if to == target.pos:
        refuse("push.square", why=f"{target.label} already stands on {to[0]},{to[1]}")
    return ShovePlan(fig, target, to)


def apply_push(battle, plan: ShovePlan) -> list[Event]:
    rules = manoeuvre_rules(battle)
    rs = battle.ruleset
    rule = rs.cite(rules["push_rule"])
    fig, target = plan.figure, plan.target
    spend_attack(battle, fig.id, target.id)
    drop = int(battle.map.elevation_ft[target.y, target.x]) - int(battle.map.elevation_ft[plan.to[1], plan.to[0]])
    text = (f"{fig.label} forces {target.label} to {plan.to[0]},{plan.to[1]} instead of attacking"
            + (f", over a {drop} ft drop" if drop >= 5 else "") + f"{rs.choice_words(rule)} ({rule})")
    event = Event(kind=EventKind.PUSH, rule=rule, actor=fig.id, target=target.id, outcome="moved", text=text,
                  squares=(target.pos, plan.to), data={"from": list(target.pos), "to": list(plan.to), "drop_ft": max(0, drop)})
    return [event] + forced_move(battle, target.id, plan.to, rule)


# ----- overbear -----
def check_overbear(battle, action: Overbear) -> ShovePlan:
    require_mechanism(battle, action)
    fig, target = require_foe_beside(battle, action, "overbear")
    rules = manoeuvre_rules(battle)
    gap = rolls.size_gap(battle, fig.id, target.id)
    if gap >= rules["overbear_max_larger"]:
        refuse("overbear.too-large", who=fig.label, target=target.label, steps=gap, rule=rs_cite(battle, "overbear_rule"))
    return ShovePlan(fig, target, target.pos)


def rs_cite(battle, key: str) -> str:
    return battle.ruleset.cite(manoeuvre_rules(battle)[key])


def apply_overbear(battle, plan: ShovePlan) -> list[Event]:
    rules = manoeuvre_rules(battle)
    rs = battle.ruleset
    rule = rs.cite(rules["overbear_rule"])
    fig, target = plan.figure, plan.target
    spend_attack(battle, fig.id, target.id)
    roll = rolls.overbear_target(battle, fig.id, target.id).roll(battle.rng, "overbear")
    all_rolls = list(roll.rolls)
    words = roll.words
    battle.state_of(fig.id).conditions["overbearing"] = battle.round
    extra: list[Event] = []
    if roll.success:
        knock_prone(battle, target.id)
        dmg = parse_dice(rules["overbear_damage"]).roll(battle.rng)
        all_rolls.append(dmg)
        words += f"; {target.label} is knocked prone for the round and takes {dmg.total} subdual damage ({rules['overbear_damage']})"
        extra = damage_mod.apply_damage(battle, target.id, dmg.total, True, rule)
    cond = rs.condition("overbearing")
    if cond and cond["defense"]:
        words += f"; {fig.label} is exposed: {cond['defense']:+d} AC for the round"
    text = f"{fig.label} tries to overbear {target.label}: {words}{rs.choice_words(rule)} ({rule})"
    event = Event(kind=EventKind.OVERBEAR, rule=rule, actor=fig.id, target=target.id, rolls=tuple(all_rolls),
                  total=roll.total, target_number=roll.target_number, outcome="prone" if roll.success else "miss",
                  text=text, squares=(fig.pos, target.pos))
    return [event] + extra
