"""Plans that stay put: end the turn here, set a weapon against a charge, defend, turn to face.

A stance's worth is read from the resolver by taking it on a copy of the battle
(`Battle.clone()`, the stance applied there) and asking what the foes' attacks would be then.
"""
from __future__ import annotations

from ...core.values.actions import Defend, EndTurn, Hold, SetAgainstCharge, Stand, Turn
from ...core.values.geometry import FACINGS, bearing_octant
from ..context import Context
from ..decision import Plan
from ..threat import Threats, add_exposure, strike_square
from .scoring import TEMPO, add_potential


def hold_plan(ctx: Context, threats: Threats) -> Plan:
    me = ctx.me
    plan = Plan((EndTurn(figure=me.id),), "end the turn here", kind="hold", end=(me.x, me.y, me.facing, me.altitude_ft))
    v, parts = threats.exposure(plan.end)
    add_exposure(plan, v, parts)
    add_potential(ctx, plan)
    return plan


def with_stance(ctx: Context, action):
    """A copy of the battle with the stance taken, or None if the resolver refuses it."""
    key = ("stance", action)
    if key not in ctx.cache:
        twin = None
        if ctx.battle.check(action) is None:
            twin = ctx.battle.clone()
            twin.rng.seed(ctx.rng.random())          # never the real dice to come
            twin.apply(action)
        ctx.cache[key] = twin
    return ctx.cache[key]


def set_plans(ctx: Context, threats: Threats, hold: Plan) -> list[Plan]:
    me = ctx.me
    if not ctx.weapon(me.ready_weapon)["set"] or ctx.state.set_vs_charge or not ctx.rs.section("charge")["allowed"]:
        return []
    here = ctx.placed(hold.end)
    lanes = [(e, lane) for e in ctx.enemies if (lane := threats.lane_onto(e, here))]
    if not lanes:
        return []
    plan = Plan((SetAgainstCharge(figure=me.id), EndTurn(figure=me.id)),
                f"set {me.ready_weapon} against a charge", kind="set", end=hold.end)
    mult = ctx.rs.section("modifiers")["set_damage_multiplier"]
    for e, lane in lanes:
        end_sq = lane.squares[-1]
        charger = e.moved_to(end_sq[0], end_sq[1], bearing_octant(e.pos, me.pos))
        odds = ctx.odds(me, charger, placed=(charger,), set_vs_charge=True)
        if not odds.allowed:
            continue
        likely = 0.8 if ctx.weapon(e.ready_weapon)["charge"] else 0.5
        plan.add(f"{e.label} has a charge lane onto it: set {me.ready_weapon} x{mult}", likely * ctx.damage_value(e, odds))
        if ctx.rs.section("modifiers")["set_strikes_first"]:
            plan.add("set weapon strikes first", likely * odds.p_kill(ctx.hp(e)) * ctx.threat_rate(e))
    v, parts = threats.exposure(hold.end, set_spear=True)
    add_exposure(plan, v, parts)
    return [plan]


def defend_plans(ctx: Context, threats: Threats, hold: Plan) -> list[Plan]:
    me = ctx.me
    if not any(ctx.engagement.in_zone(me, e) for e in ctx.enemies):
        return []
    out = []
    base, _ = threats.exposure(hold.end, exact=True)
    for d in ctx.rs.data["defenses"]:
        if d["formula"] == "trade":
            continue
        action = Defend(figure=me.id, style=d["style"])
        twin = with_stance(ctx, action)
        if twin is None:
            continue
        can_attack = bool(d["can_attack"])
        # A style that still allows an attack is declared first; the attack is chosen after.
        actions = (action,) + (() if can_attack else (EndTurn(figure=me.id),))
        plan = Plan(actions, f"defend ({d['style']})", kind="defend", end=hold.end, data={"exact": True})
        v, parts = threats.exposure(hold.end, exact=True, battle=twin)
        add_exposure(plan, base, parts)
        plan.add(f"{d['style']}: attacks on it fare worse", base - v)
        if not can_attack:
            plan.add("gives up its attack", -0.2 - TEMPO)
        elif d["attack_penalty"]:
            plan.add(f"attacks at {int(d['attack_penalty']):+d}", 0.05 * int(d["attack_penalty"]))
        out.append(plan)
    return out


def stand_plans(ctx: Context, threats: Threats, hold: Plan) -> list[Plan]:
    """Get up from prone at the ruleset's cost: the foes' blows on it standing (asked of a copy of the
    battle where it stood) against those on it lying there, this round and the next. Where getting
    up takes the whole turn it also gives up its attack; where it costs half a move the turn goes on
    (the AI decides again once it stands)."""
    me = ctx.me
    if "prone" not in ctx.status.conditions:
        return []
    action = Stand(figure=me.id)
    twin = with_stance(ctx, action)
    if twin is None:
        return []
    whole_turn = ctx.rs.section("prone")["stand"] == "turn"
    actions = (action, EndTurn(figure=me.id)) if whole_turn and not ctx.declaring else (action,)
    plan = Plan(actions, "stand up", kind="stand", end=hold.end, data={"exact": True})
    base, _ = threats.exposure(hold.end, exact=True)
    v, parts = threats.exposure(hold.end, exact=True, battle=twin)
    add_exposure(plan, base, parts)
    plan.add("standing: attacks on it fare worse, this round and the next", 2 * (base - v))
    if whole_turn:
        plan.add("getting up takes its turn", -0.2 - TEMPO)
    else:
        plan.add("it may still move and strike after", TEMPO)
    add_potential(ctx, plan)
    return [plan]


def turn_plans(ctx: Context, threats: Threats) -> list[Plan]:
    me = ctx.me
    near = sorted(ctx.enemies, key=lambda e: (ctx.dist(me.pos, me.altitude_ft, e.pos, e.altitude_ft), e.id))[:2]
    out = []
    seen = {me.facing}
    for e in near:
        f = bearing_octant(me.pos, e.pos)
        if f in seen:
            continue
        seen.add(f)
        plan = Plan((Turn(figure=me.id, facing=FACINGS[f]), EndTurn(figure=me.id)), f"turn to face {e.label}",
                    kind="turn", end=(me.x, me.y, f, me.altitude_ft))
        v, parts = threats.exposure(plan.end)
        add_exposure(plan, v, parts)
        add_potential(ctx, plan)
        out.append(plan)
    return out


HOLD_WEIGHT = 0.6         # striking first when a foe comes, against what the foe may do instead
HOLD_FOES = 2             # foes it considers waiting for, nearest first


def hold_for_plans(ctx: Context, threats: Threats, hold: Plan) -> list[Plan]:
    """Hold its action until a nearby foe still to act has acted: the foe comes to it (or not), and
    it strikes first, with its whole move and attack still to use this round."""
    me = ctx.me
    if (not ctx.level.holds or ctx.rs.d100 or ctx.phase != "all" or ctx.moved or ctx.acted
            or ctx.memo.get(("held", me.id, ctx.round))):
        return []
    out = []
    mine = ctx.strike_budget(me) + ctx.reach_ft(me)
    foes = sorted(ctx.enemies, key=lambda e: (ctx.flat(me.pos, e.pos), e.id))
    for e in foes:
        if len(out) >= HOLD_FOES:
            break
        if ctx.is_archer(e) or not ctx.battle.turn_still_to_come(e.id):
            continue
        if ctx.flat(me.pos, e.pos) > ctx.strike_budget(e) + ctx.reach_ft(e) + mine:
            continue                                   # it will not come into reach this round
        action = Hold(figure=me.id, until=e.id)
        if ctx.battle.check(action) is not None:
            continue
        plan = Plan((action,), f"hold its action until {e.label} has acted", kind="hold-for", end=hold.end,
                    data={"until": e.id})
        add_exposure(plan, hold.data.get("exposure", 0.0), [])
        sq = strike_square(ctx, me.pos, e.pos, (me.id,))
        if sq is not None:
            placed = me.moved_to(sq[0], sq[1], bearing_octant(sq, e.pos))
            odds = ctx.best_odds(placed, e, placed=(placed,), after_move=ctx.flat(me.pos, sq))
            if odds is not None:
                plan.add(f"acts after {e.label}: strikes first when it comes", HOLD_WEIGHT * ctx.damage_value(e, odds))
        out.append(plan)
    return out
