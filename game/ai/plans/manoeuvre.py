"""Plans that hold a foe or move it by force, and a held figure's way out.

| plan | when |
| --- | --- |
| grapple a foe | it stands beside it and the ruleset has a grapple |
| trip or push a foe (off a ledge, into a pit, away from friends) | it stands beside it, the ruleset has the manoeuvre |
| overbear a foe | it stands beside it and the ruleset has overbearing |
| escape a hold | it is held |
| keep the hold and strike with fists; let go and strike with a weapon | it holds a foe |

Every number is the resolver's: the menu is its `manoeuvre_actions` (only allowed actions), the
odds and what success does are `Battle.explain_manoeuvre` (the rolls the handler makes: chance of
each outcome, the square the foe lands on, the fall and its dice, the chance a held foe breaks
free), blows are `Context.odds`. Scores are in the attack plans' units (hit points gained for my
side): damage done is priced as a blow's (`Context.damage_value`), and a round a foe cannot strike
is worth its damage rate (`Context.threat_rate`) for that round, as felling it is worth about
HORIZON_ROUNDS rounds of it between the two halves of `damage_value`.
"""
from __future__ import annotations

from dataclasses import replace

from ...core.values.actions import Attack, EndTurn, Escape, Release
from ..context import HORIZON_ROUNDS, Context
from ..decision import Plan
from ..odds import Odds
from ..threat import Threats, add_exposure
from .scoring import TEMPO, add_potential, score_attack

SEPARATED_ROUNDS = 1.0     # a foe thrown down a drop it cannot climb needs about a round to come back up
OPENED_ROUNDS = 1.0        # a foe knocked prone or held stays open to blows about a round
PRONE_STILL = 0.5          # a blow after the prone foe's turn finds it still down if it comes first


def manoeuvre_plans(ctx: Context, threats: Threats) -> list[Plan]:
    if ctx.declaring or ctx.routed or ctx.fresh_turn or ctx.me is not ctx.battle.figures.get(ctx.me.id):
        return []
    battle, me = ctx.battle, ctx.me
    out: list[Plan] = []
    if ctx.state.held_by:
        out += _escape_plans(ctx, threats)
    if ctx.state.holding:
        out += _holder_plans(ctx, threats)
    if not ctx.can_attack or ctx.phase in ("movement", "missile"):
        return out
    # A cheap first sort (bodies bigger than a square reach further from their anchor); the menu
    # keeps only foes the resolver finds within 5 ft.
    beside = [e for e in ctx.enemies if max(abs(e.x - me.x), abs(e.y - me.y)) <= 1 + max(e.footprint) + max(me.footprint)]
    if not beside:
        return out
    for action in battle.manoeuvre_actions(me.id, beside):
        odds = battle.explain_manoeuvre(action)
        if not odds.allowed:
            continue
        target = ctx.active.get(action.target)
        if target is None:
            continue
        plan = _grapple_plan(ctx, threats, action, odds, target) if action.kind == "grapple" else \
            _shove_plan(ctx, threats, action, odds, target)
        if plan is not None:
            out.append(plan)
    return out


# ----- pricing -----
def _rate(odds: Odds | None) -> float:
    """Damage a round of these blows (nothing if they cannot be made)."""
    if odds is None or not odds.allowed:
        return 0.0
    return odds.p_hit * odds.mean_damage * odds.attacks


def _opened(ctx: Context, target, spot, condition: str, skip=(), escape: float = 0.0) -> tuple[float, int]:
    """What a condition's defence penalty on `target` (standing on `spot`) adds to the blows my side can
    deal it there next (each point a twentieth, on d100 a hundredth, of a hit, as score_attack splits a
    blow by its modifiers), at most the foe's whole worth. A friend whose turn comes after the foe's
    strikes only if the foe has not got free first (`escape`); a prone foe gets up on its own turn,
    so a blow that comes after it (mine next round, a friend's that has acted) finds it down only
    if it comes first, about half the time (PRONE_STILL). (value, friends that gain)"""
    cond = ctx.rs.condition(condition)
    if not cond or not cond["defense"] or cond["defense"] > 0:
        return 0.0, 0
    there = ctx.placed((spot[0], spot[1], target.facing, target.altitude_ft), target)
    total, n = 0.0, 0
    for f in [ctx.me] + ctx.allies:
        if f.id in skip or ctx.is_archer(f) or ctx.flat(f.pos, spot) > ctx.reach_ft(f) + 1e-9:
            continue
        blow = ctx.odds(f, there, placed=(there,))
        if not blow.allowed:
            continue
        step = 100 if blow.breakdown.resolution == "d100" else 20
        easier = replace(blow, p_hit=min(1.0, blow.p_hit - cond["defense"] / step))
        first = f.id != ctx.me.id and ctx.battle.turn_still_to_come(f.id)
        later = PRONE_STILL if condition == "prone" else 1 - escape
        total += (ctx.damage_value(target, easier) - ctx.damage_value(target, blow)) * (1.0 if first else later)
        n += 1
    whole = ctx.damage_value(target, Odds(None, 1.0, ((int(-(-ctx.hp(target) // 1)), 1.0),)))
    return min(total, whole) * OPENED_ROUNDS, n


def held_loss(ctx: Context, victim, holder, outcome: str, held_acts: str) -> tuple[float, str]:
    """How much of the victim's damage a round a hold takes away (holder standing where it would),
    and why: pinned or only free to struggle loose, all of it; struggling, all but its fists; held
    but free to strike, the shots the resolver no longer allows it with the holder at arm's length."""
    rate = ctx.threat_rate(victim)
    if outcome == "pinned" or held_acts == "escape":
        return rate, "it can only try to break free"
    placed = (holder,) if holder is not ctx.battle.figures.get(holder.id) else ()
    fist = _rate(ctx.odds(victim, holder, "fist", placed=placed))
    if outcome == "struggling":
        return max(0.0, rate - fist), "it may fight only with its fists"
    if not ctx.is_archer(victim):
        return 0.0, ""
    others = sorted((f for f in ctx.active.values() if f.side != victim.side and f.id != holder.id),
                    key=lambda f: (ctx.flat(f.pos, victim.pos), f.id))[:2]
    weapons = [w for w in dict.fromkeys(victim.weapons) if ctx.weapon(w)["ranged"]]
    for other in others:
        for w in weapons:
            if ctx.odds(victim, other, None if w == victim.ready_weapon else w, placed=placed).allowed:
                return 0.0, ""
    melee = max((_rate(ctx.odds(victim, holder, None if w == victim.ready_weapon else w, placed=placed))
                 for w in dict.fromkeys(victim.weapons) if not ctx.weapon(w)["ranged"]), default=fist)
    return max(0.0, rate - max(melee, fist)), "it cannot shoot while held"


def hold_rounds(escape_chance: float) -> float:
    """Rounds a hold is likely to last (its first is sure; each try after frees it at escape_chance)."""
    stay = 1 - escape_chance
    return sum(stay ** k for k in range(int(HORIZON_ROUNDS)))


# ----- grapple -----
def _grapple_plan(ctx: Context, threats: Threats, action, odds, target) -> Plan | None:
    me = ctx.me
    rules = ctx.rs.section("manoeuvres")
    spot = (target.x, target.y, me.facing, target.altitude_ft) if rules["enters_square"] else \
        (me.x, me.y, me.facing, me.altitude_ft)
    holder = ctx.placed(spot)
    if not all(ctx.battle.map.in_bounds(x, y) for x, y in holder.cells):
        return None              # a body longer than a square, facing as it does, would stick out of the map there
    rounds = hold_rounds(odds.escape_chance or 0.0)
    rate = max(ctx.threat_rate(target), 1e-9)
    # Scored (exposure, the look-ahead's copy) where it stands now: the square it shares with the
    # held foe is one no figure may be placed on.
    here = (me.x, me.y, me.facing, me.altitude_ft)
    plan = Plan((action,), "", kind="manoeuvre", end=here, data={"target": target.id})
    value, removed, why = 0.0, 0.0, ""
    for o in odds.outcomes:
        if o.name in ("held", "pinned", "struggling"):
            lost, reason = held_loss(ctx, target, holder, o.name, odds.held_acts)
            value += o.chance * lost * rounds
            removed += o.chance * min(1.0, lost / rate)
            why = why or reason
    plan.add(f"{odds.chance:.0%} to hold {target.label}, {odds.escape_chance or 0:.0%} a try to break free"
             + (f" ({why})" if why else ""), value)
    cond = "held" if any(o.name == "held" for o in odds.outcomes) else "pinned"
    opened, n = _opened(ctx, target, target.pos, cond, skip=(me.id,) if rules["holder_exempt"] else (),
                        escape=odds.escape_chance or 0.0)
    if n:
        plan.add(f"{n} blow(s) on the held {target.label} come easier", odds.chance * opened)
    stunned = sum(r * p for r, p in odds.stunned)
    thrown = odds.chance_of("thrown-off")
    if thrown:
        # The hit-dice contest lost: every grappler stunned for the margin in rounds.
        plan.add(f"{thrown:.0%} thrown off and stunned", -thrown * min(HORIZON_ROUNDS, stunned / max(
            1e-9, sum(p for _r, p in odds.stunned))) * ctx.threat_rate(me))
    if rules["holder_fist_only"]:
        weapon = ctx.best_odds(me, target)
        fist = ctx.odds(me, target, "fist")
        if weapon is not None and fist.allowed:
            cost = ctx.damage_value(target, weapon) - ctx.damage_value(target, fist)
            if cost > 0:
                plan.add("holds it with bare hands: fists, not its weapon", -odds.chance * cost * min(rounds, 1.0))
    plan.add("acts this turn", TEMPO)
    plan.data.update(p_kill=removed, p_fell=removed)
    v, parts = threats.exposure(here, exclude={target.id: removed})
    add_exposure(plan, v, parts)
    add_potential(ctx, plan)            # it stays on its square, as a blow struck from here does
    plan.label = f"grapple {target.label}: {odds.chance:.0%} to hold it" + (f", {why}" if why else "")
    return plan


# ----- trip, push, overbear -----
def _shove_plan(ctx: Context, threats: Threats, action, odds, target) -> Plan | None:
    me = ctx.me
    p = odds.chance
    to = odds.to or target.pos
    spot = (me.x, me.y, me.facing, me.altitude_ft)
    plan = Plan((action,), "", kind="manoeuvre", end=spot, data={"target": target.id})
    hp = ctx.hp(target)
    p_kill = 0.0
    what = odds.kind
    where = f" off the ledge to {to[0]},{to[1]}" if odds.fall_ft else (f" to {to[0]},{to[1]}" if to != target.pos else "")
    if odds.damage:
        blow = Odds(None, p, odds.damage)
        p_kill = blow.p_kill(hp)
        dmg = f"{odds.fall_ft} ft fall, {odds.fall_dice}" if odds.fall_ft else f"{odds.damage[-1][0]} at most subdual"
        plan.add(f"{p:.0%} to {what} {target.label}{where}: {dmg}, {p_kill:.0%} to fell it", ctx.damage_value(target, blow))
    elif odds.fall_ft:
        plan.add(f"{p:.0%} to {what} {target.label}{where}: a {odds.fall_ft} ft drop", 0.0)
    else:
        plan.add(f"{p:.0%} to {what} {target.label}{where}", 0.0)
    p_standing = p - p_kill                       # knocked over or moved, and still in the fight
    climb = ctx.rs.section("grid")["climb_step_ft"]
    separated = odds.fall_ft > climb and not ctx.is_archer(target) and not _walks_back(ctx, target, to)
    removed = p_kill
    if separated:
        rounds = SEPARATED_ROUNDS + (1 if odds.prone and ctx.rs.section("prone")["stand"] == "turn" else 0)
        rounds = min(HORIZON_ROUNDS, rounds)
        plan.add(f"{target.label} below, {rounds:g} round(s) from the fight", p_standing * ctx.threat_rate(target) * rounds)
        removed += p_standing
    elif odds.prone:
        opened, n = _opened(ctx, target, to, "prone")
        if n:
            plan.add(f"{n} blow(s) on the prone {target.label} come easier", p_standing * opened)
    if odds.kind == "push" and not separated and to != target.pos:
        away = min((ctx.flat(to, f.pos) for f in [me] + ctx.allies), default=0) - \
            min((ctx.flat(target.pos, f.pos) for f in [me] + ctx.allies), default=0)
        if away > ctx.reach_ft(target):
            plan.add(f"{target.label} pushed out of reach of my side", p * ctx.threat_rate(target) * 0.5)
            removed = max(removed, p * 0.5)
    plan.add("acts this turn", TEMPO)
    plan.data.update(p_kill=removed, p_fell=removed)
    v, parts = threats.exposure(spot, exclude={target.id: removed})
    add_exposure(plan, v, parts)
    add_potential(ctx, plan)            # it stays on its square, as a blow struck from here does
    fall = f", {odds.fall_dice} falling" if odds.fall_dice else (f", a {odds.fall_ft} ft drop" if odds.fall_ft else "")
    plan.label = f"{what} {target.label}{where}: {p:.0%}{fall}"
    return plan


def _walks_back(ctx: Context, target, to) -> bool:
    """Can the foe, thrown down to `to`, walk back within reach of me in one move (the planner's
    search: a hill's slope climbs back, a wall's drop does not)? Then the fall keeps it from the
    fight no longer than getting up does."""
    key = ("walks back", target.id, to, ctx.me.pos)
    got = ctx.cache.get(key)
    if got is None:
        down = target.moved_to(to[0], to[1], target.facing, target.altitude_ft)
        reach = ctx.search("walk", budget=float(target.move_ft), fig=down)
        strike = ctx.reach_ft(target)
        got = reach is not None and any(
            entry.can_end and ctx.dist(sq, 0, ctx.me.pos, ctx.me.altitude_ft) <= strike + 1e-9
            for sq, entry in reach.entries.items())
        ctx.cache[key] = got
    return got


# ----- held, or holding -----
def _escape_plans(ctx: Context, threats: Threats) -> list[Plan]:
    me = ctx.me
    action = Escape(figure=me.id)
    odds = ctx.battle.explain_manoeuvre(action)
    if not odds.allowed:
        return []
    holder = ctx.battle.figures[ctx.state.held_by[0]]
    free = odds.chance_of("free")
    rules = ctx.rs.section("manoeuvres")
    outcome = "pinned" if ctx.state.has("pinned") else "struggling" if ctx.state.has("struggling") else "held"
    lost, why = held_loss(ctx, me, holder, outcome, rules["held_acts"])
    rounds = hold_rounds(free)
    spot = (odds.to[0], odds.to[1], me.facing, me.altitude_ft) if odds.to else (me.x, me.y, me.facing, me.altitude_ft)
    plan = Plan((action,), f"break {holder.label}'s hold: {free:.0%}" + (f" ({why})" if why else ""),
                kind="manoeuvre", end=spot)
    plan.add(f"{free:.0%} to break free" + (f": {why}" if why else ""), free * lost * rounds)
    # Held, the foes' blows on it come easier (the held condition's penalty, the holder's excepted).
    exposed, n = _held_exposure(ctx, holder)
    if n:
        plan.add(f"free of the hold, {n} foe(s) strike it less easily", free * exposed)
    if odds.stunned:
        stunned = sum(r * p for r, p in odds.stunned) / max(1e-9, sum(p for _r, p in odds.stunned))
        plan.add(f"{holder.label} thrown off and stunned", free * min(HORIZON_ROUNDS, stunned) * ctx.threat_rate(holder))
    plan.add("acts this turn", TEMPO)
    v, parts = threats.exposure(spot)
    add_exposure(plan, v, parts)
    return [plan]


def _held_exposure(ctx: Context, holder) -> tuple[float, int]:
    cond = ctx.rs.condition("held")
    if not cond or not cond["defense"] or cond["defense"] > 0:
        return 0.0, 0
    exempt = ctx.rs.section("manoeuvres")["holder_exempt"]
    total, n = 0.0, 0
    for e in ctx.enemies:
        if (exempt and e.id == holder.id) or ctx.is_archer(e) or ctx.flat(e.pos, ctx.me.pos) > ctx.reach_ft(e) + 1e-9:
            continue
        blow = ctx.odds(e, ctx.me)
        if not blow.allowed:
            continue
        step = 100 if blow.breakdown.resolution == "d100" else 20
        total += min(-cond["defense"] / step, blow.p_hit) * blow.mean_damage * blow.attacks * ctx.hp_worth(ctx.me)
        n += 1
    return total, n


def _holder_plans(ctx: Context, threats: Threats) -> list[Plan]:
    """Holding a foe: keep the hold and strike it (with fists where the rules allow no weapon), or let
    go and strike with a weapon (the hold's worth for the next round given up)."""
    me, battle = ctx.me, ctx.battle
    held = ctx.active.get(ctx.state.holding)
    out: list[Plan] = []
    if held is None:
        return out
    rules = ctx.rs.section("manoeuvres")
    lost, why = held_loss(ctx, held, me, "pinned" if battle.state_of(held.id).has("pinned") else "held",
                          rules["held_acts"])
    here = (me.x, me.y, me.facing, me.altitude_ft)
    hold_worth = lost * OPENED_ROUNDS
    if ctx.can_attack and ctx.phase not in ("movement", "missile"):
        fist = Attack(figure=me.id, target=held.id, weapon="fist")
        if battle.check(fist) is None:
            plan = Plan((fist, EndTurn(figure=me.id)), f"keep the hold on {held.label} and strike it with fists",
                        kind="attack", end=here)
            score_attack(ctx, plan, held, ctx.odds(me, held, "fist"))
            if hold_worth:
                plan.add(f"keeps {held.label} held ({why})", hold_worth)
            v, parts = threats.exposure(here, exclude={held.id: plan.data["p_kill"]})
            add_exposure(plan, v, parts)
            out.append(plan)
    release = Release(figure=me.id)
    if battle.check(release) is not None:
        return out
    back = tuple(ctx.state.hold_from) if ctx.state.hold_from else me.pos
    spot = (back[0], back[1], me.facing, me.altitude_ft)
    me_there = ctx.placed(spot)
    freed = battle.hypothetical(me_there, let_go=(me.id,))     # its hold let go: weapons and other foes again
    let_go = Plan((release,), f"let go of {held.label}", kind="manoeuvre", end=spot)
    if hold_worth:
        let_go.add(f"{held.label} free again", -hold_worth)
    v, parts = threats.exposure(spot)
    add_exposure(let_go, v, parts)
    out.append(let_go)
    if not ctx.can_attack or ctx.phase in ("movement", "missile"):
        return out
    for e in ctx.enemies:
        if ctx.flat(spot[:2], e.pos) > max(ctx.reach_ft(me), 7.5) + 1e-9:
            continue
        odds = ctx.best_odds(me_there, e, battle=freed)
        if odds is None:
            continue
        w = odds.breakdown.weapon
        strike = Attack(figure=me.id, target=e.id, weapon=None if w == me.ready_weapon else w)
        plan = Plan((release, strike, EndTurn(figure=me.id)), f"let go of {held.label} and attack {e.label} with {w}",
                    kind="manoeuvre", end=spot)
        score_attack(ctx, plan, e, odds)
        if hold_worth:
            plan.add(f"{held.label} free again", -hold_worth)
        v, parts = threats.exposure(spot, exclude={e.id: plan.data["p_kill"]})
        add_exposure(plan, v, parts)
        out.append(plan)
    return out


__all__ = ["manoeuvre_plans", "held_loss", "hold_rounds"]
