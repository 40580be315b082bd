"""Plans that strike: attack from here, move then attack, charge.

Squares to strike from are sorted cheaply first (arc on the target, height, other foes near,
cost); only the best few per target get a path, parting shots and the resolver's odds from that
square (`Battle.explain_attack(at=...)` through a hypothetical position).
"""
from __future__ import annotations

from ...core.values.actions import Attack, Charge, EndTurn, Move
from ...core.values.errors import RulesError
from ...core.values.geometry import FACINGS
from ..context import Context
from ..decision import Plan
from ..odds import Odds
from ..threat import Threats, add_exposure
from .scoring import add_potential, careful_shot, cover_proxy, end_facing, score_attack, through_figures
from .stance import with_stance

ANNOUNCE_CROWDED = 0.7      # a second charger at the same foe seldom still has its lane
ANNOUNCE_FREE_FOE = 0.3     # a foe not held in melee may step out of the lane before the charge runs


def attack_here_plans(ctx: Context, threats: Threats) -> list[Plan]:
    me = ctx.me
    out = []
    archer = ctx.is_archer(me)
    # Foes in reach (or, for an archer, the few best targets in range): each gets the resolver's odds.
    near = [e for e in ctx.enemies if ctx.dist(me.pos, me.altitude_ft, e.pos, e.altitude_ft) <= max(
        (ctx.reach_ft(me, w) for w in me.weapons if not ctx.weapon(w)["ranged"]), default=5) + 1e-9]
    ranged = [w for w in me.weapons if ctx.weapon(w)["ranged"] or ctx.weapon(w)["thrown"]]
    if ranged:
        reach = max(ctx.long_range_ft(me) if archer else 0, *(float((ctx.weapon(w)["range_ft"] or [0])[-1]) for w in ranged))
        far = [e for e in ctx.ranked_targets() if e not in near
               and ctx.dist(me.pos, me.altitude_ft, e.pos, e.altitude_ft) <= reach][: ctx.level.targets]
        near += far
    for e in near:
        odds = ctx.best_odds(me, e, after_move=ctx.moved)
        if odds is None:
            continue
        safe = careful_shot(ctx, e, odds, after_move=ctx.moved)
        odds = safe or odds
        w = odds.breakdown.weapon
        weapon = None if w == me.ready_weapon else w
        label = ("shoot carefully at " if safe else "attack ") + e.label + ("" if weapon is None else f" with {w}")
        actions = (Attack(figure=me.id, target=e.id, weapon=weapon, careful=safe is not None), EndTurn(figure=me.id))
        if ctx.strike_later:
            # d100 declarations, bfrpg's movement turn: stay put now, strike when the blows come.
            actions, label = (EndTurn(figure=me.id),), f"stay and strike {e.label} when the blows come"
        plan = Plan(actions, label, kind="attack", end=(me.x, me.y, me.facing, me.altitude_ft))
        score_attack(ctx, plan, e, odds)
        v, parts = threats.exposure(plan.end, exclude={e.id: plan.data["p_kill"]})
        add_exposure(plan, v, parts)
        add_potential(ctx, plan)
        out.append(plan)
    return out


def move_attack_plans(ctx: Context, threats: Threats) -> list[Plan]:
    me = ctx.me
    budget = min(ctx.mode_budget("walk"), ctx.attack_budget)
    if budget < 5:
        return []
    archer = ctx.is_archer(me)
    my_reach = ctx.reach_ft(me)
    out = []
    targets = ctx.ranked_targets()[: min(ctx.level.targets, 3) if archer else ctx.level.targets]
    if not archer and not me.big and me.flyer == "none":
        # Every step costs at least 5 ft a square: a one-square foe farther than the budget and the
        # reach is struck from no square the walk reaches (so no search is asked for it).
        targets = [e for e in targets if e.big or 5 * max(abs(me.x - e.x), abs(me.y - e.y)) <= budget + my_reach]
    reach = ctx.search("walk", budget=ctx.mode_budget("walk")) if targets else None
    if reach is None:
        return []
    for e in targets:
        if archer:
            cands = _shoot_squares(ctx, reach, budget, e)[: max(2, ctx.level.shoot // 2)]
        else:
            cands = []
            for sq, entry in reach.stops(budget, leave=me.pos):
                alt = _attack_altitude(ctx, entry, sq, e, my_reach)
                if alt is not None:
                    cands.append((_attack_square_heuristic(ctx, sq, alt, e, entry.cost_ft), sq, alt, entry))
            cands.sort(key=lambda c: (-c[0], c[1]))
            cands = cands[: ctx.level.attack_squares]
        for _h, sq, alt, entry in cands:
            plan = _move_attack_plan(ctx, threats, reach, sq, alt, entry, e)
            if plan is not None:
                out.append(plan)
    return out


def _attack_altitude(ctx: Context, entry, sq, e, reach: float):
    alts = entry.altitudes
    if (not alts or len(alts) == 1 and 0 in alts) and not (ctx.me.big or e.big):
        # On the ground, one square each: no distance rule makes it nearer than 5 ft a square along
        # the longer leg (most squares of the search are that far), else the loop below for alt 0.
        if 5 * max(abs(sq[0] - e.x), abs(sq[1] - e.y)) > reach:
            return None
        if ctx.dist(sq, 0, e.pos, e.altitude_ft) <= reach and \
                ctx.positioning.sight_map.clear_line(sq, e.pos, 0, e.altitude_ft):
            return 0
        return None
    alts = sorted(alts) if alts else [0]
    facing = entry.end_facing(ctx.me.facing)    # a long body's tail on the map, off walls
    for alt in sorted(alts, key=lambda a: abs(a - e.altitude_ft)):
        if ctx.me.big or e.big:    # bodies bigger than a square strike and are struck from their nearest squares
            d, mine, theirs = ctx.battle.nearest_cells(ctx.placed((sq[0], sq[1], facing, alt)), e)
            if d <= reach and ctx.positioning.sight_map.clear_line(mine, theirs, alt, e.altitude_ft):
                return alt
        elif ctx.dist(sq, alt, e.pos, e.altitude_ft) <= reach and \
                ctx.positioning.sight_map.clear_line(sq, e.pos, alt, e.altitude_ft):
            return alt
    return None


def _attack_square_heuristic(ctx: Context, sq, alt, e, cost: float) -> float:
    """A cheap first sort of squares to strike e from (a pre-filter: only the best few get a path and
    the resolver's odds): its back and flanks (the resolver's facing bonus from there: rear, flank, an
    ally on the far side), height, no other foes near."""
    placed = ctx.me.moved_to(sq[0], sq[1], ctx.me.facing, alt)
    arc = ctx.battle.facing_arc(e, sq)
    # The to-hit the place gives, and a little for being away from its front (where rulesets also
    # take a shield or DEX away: the exact odds decide among the best few).
    h = 2 * ctx.battle.facing_bonus(placed, e) + 0.25 * min(arc, 8 - arc)
    diff = ctx.height(sq, alt) - ctx.height(e.pos, e.altitude_ft)
    h += 0.1 * max(-10, min(10, diff))
    for o in ctx.enemies:
        if o.id != e.id and ctx.flat(o.pos, sq) <= ctx.reach_ft(o):
            h -= 1.5
    return h - cost / 100


def _move_attack_plan(ctx: Context, threats: Threats, reach, sq, alt, entry, e) -> Plan | None:
    me = ctx.me
    flyer = me.flyer != "none"
    facing = end_facing(ctx, sq, entry.facings, e, alt)
    path = reach.path_to(sq, facing, alt if flyer else None) or reach.path_to(sq, None, alt if flyer else None)
    if path is None or through_figures(ctx, path):
        return None
    end = (sq[0], sq[1], path.end.facing, path.end.altitude_ft)
    me_there = ctx.placed(end)
    walked = ctx.moved + path.total_ft
    odds = ctx.best_odds(me_there, e, placed=(me_there,), after_move=walked)
    if odds is None:
        return None
    safe = careful_shot(ctx, e, odds, attacker=me_there, placed=(me_there,), after_move=walked)
    odds = safe or odds
    w = odds.breakdown.weapon
    weapon = None if w == me.ready_weapon else w
    ranged = odds.breakdown.kind == "ranged"
    move = Move(figure=me.id, to=sq, mode="walk", facing=FACINGS[end[2]], altitude_ft=end[3] if flyer else None)
    actions = (move, Attack(figure=me.id, target=e.id, weapon=weapon, careful=safe is not None), EndTurn(figure=me.id))
    label = f"move to {sq[0]},{sq[1]} and {'shoot carefully at' if safe else 'shoot' if ranged else 'attack'} {e.label}"
    if ctx.strike_later:
        actions = (move, EndTurn(figure=me.id))
        label = f"{'declare a move' if ctx.declaring else 'move'} to {sq[0]},{sq[1]} to {'shoot' if ranged else 'strike'} {e.label} when the blows come"
    plan = Plan(actions, label, kind="move-attack", end=end, data={"cost_ft": path.total_ft, "path": path})
    score_attack(ctx, plan, e, odds)
    threats.parting_cost(path.steps, "walk", plan)
    threats.closing_cost(end, plan)
    if path.stall:
        plan.add("stalls (flies too little)", -1.5)
    v, parts = threats.exposure(end, exclude={e.id: plan.data["p_kill"]})
    add_exposure(plan, v, parts)
    if ranged:
        add_potential(ctx, plan)
    return plan


def _shoot_squares(ctx: Context, reach, budget, e):
    """Squares to shoot e from: in range, away from melee, near cover. Cheap first sort."""
    me = ctx.me
    bands = list(ctx.weapon(me.ready_weapon)["range_ft"] or [60])
    cands = []
    for sq, entry in reach.stops(budget, leave=me.pos):
        d = ctx.flat(sq, e.pos)
        if d > bands[-1] or d <= 5:
            continue
        alt = max(entry.altitudes) if entry.altitudes and me.flyer != "none" else 0
        if not (me.big or e.big) and not ctx.positioning.sight_map.visible(sq, e.pos, alt, e.altitude_ft):
            continue            # the ground or a wall hides it from there (the resolver's sight)
        h = -0.5 * bands.index(next(b for b in bands if d <= b))
        h += cover_proxy(ctx, sq) * 0.7
        for o in ctx.enemies:
            if ctx.is_archer(o):
                continue
            od = ctx.flat(o.pos, sq)
            if od <= ctx.strike_budget(o) + ctx.reach_ft(o):
                h -= 2.0 if od <= 10 else 1.0
        h -= entry.cost_ft / 200
        cands.append((h, sq, alt, entry))
    cands.sort(key=lambda c: (-c[0], c[1]))
    return cands


def charge_plans(ctx: Context, threats: Threats, announce: bool = False) -> list[Plan]:
    """Charges down the resolver's lanes. `announce`: the ruleset's declaration step (cnc), where the
    charge is announced now and run on the figure's initiative number, from the lane open now."""
    me = ctx.me
    if not ctx.rs.section("charge")["allowed"] or ctx.moved > 0:
        return []
    out = []
    live = ctx.me is ctx.battle.figures[me.id] and not ctx.fresh_turn and not announce
    for e in ctx.ranked_targets()[: max(3, ctx.level.targets)]:
        if not ctx.battle.charge_lane_may_open(me, e):
            continue        # the resolver's pre-filter: no lane can open (beyond the longest charge, a wall)
        action = Charge(figure=me.id, target=e.id)
        if announce and ctx.battle.check(action) is not None:
            continue
        if live:
            # The resolver's own answer: the lane it would run, the parting shots, the odds from its end.
            preview = ctx.battle.preview(action)
            if not preview.allowed or preview.breakdown is None or not preview.breakdown.allowed:
                continue
            steps, shots = preview.planned.path.steps, preview.planned.parting_shots
            end = preview.planned.path.end
            spot = (end.x, end.y, end.facing, end.altitude_ft)
            odds = Odds.of(ctx.battle, preview.breakdown, 1)
        else:
            # Turned first (a plan that starts with a turn): the resolver's charge from the new facing.
            try:
                planned = ctx.view((me,)).positioning().plan(me.id, e.pos, "charge")
            except RulesError:
                continue
            end = planned.path.end
            spot = (end.x, end.y, end.facing, end.altitude_ft)
            steps, shots = planned.path.steps, planned.parting_shots
            odds = ctx.odds(ctx.placed(spot), e, placed=(ctx.placed(spot),), charge=True)
            if not odds.allowed:
                continue
        me_there = ctx.placed(spot)
        if announce:
            plan = Plan((action,), f"announce a charge at {e.label}", kind="announce", end=spot)
        else:
            plan = Plan((action, EndTurn(figure=me.id)), f"charge {e.label}", kind="charge", end=spot)
        score_attack(ctx, plan, e, odds, "charge: ")
        if announce:
            _announcement_doubts(ctx, plan, e)
        threats.parting_cost(steps, "charge", plan, shots=shots)
        threats.closing_cost(spot, plan, only=e.id)
        if ctx.battle.state_of(e.id).set_vs_charge:
            back = ctx.odds(e, me_there, placed=(me_there,), set_vs_charge=True)
            if back.allowed:
                plan.add(f"{e.label}'s set {e.ready_weapon} strikes the charger",
                         -threats.loss(back))
        if announce:
            # Announced, it stands at the ruleset's charge defence for the whole round: the foes'
            # blows where it ends are asked of a copy of the battle where it has announced.
            twin = with_stance(ctx, action)
            v, parts = threats.exposure(plan.end, exact=True, exclude={e.id: plan.data["p_kill"]}, battle=twin)
            plan.data["exact"] = True
        else:
            # It ends the charge at the ruleset's charge defence: the foes' blows are asked of the
            # resolver as they would face a charger standing at the lane's end.
            twin = ctx.battle.hypothetical(me_there, charging={me.id: e.id})
            v, parts = threats.exposure(plan.end, exact=ctx.level.exact_plans > 0,
                                        exclude={e.id: plan.data["p_kill"]}, battle=twin)
            plan.data["exact"] = ctx.level.exact_plans > 0
        add_exposure(plan, v, parts)
        out.append(plan)
    return out


def _announcement_doubts(ctx: Context, plan: Plan, e) -> None:
    """An announced charge runs later, on the figure's number, and only if its lane is still open
    then: a foe that is free to move may walk out of it first, and friends already charging the same
    foe reach it first and crowd the lane's end. The charger's lowered defence stays either way."""
    gain = max(0.0, plan.score)
    others = [f for f in ctx.allies if ctx.battle.state_of(f.id).announced_charge == e.id]
    if others:
        plan.add(f"{len(others)} friend(s) already charge {e.label}: its lane may close", -ANNOUNCE_CROWDED * gain)
    elif not any(ctx.engagement.in_zone(e, f) for f in ctx.allies):
        plan.add(f"{e.label} may move before the charge runs", -ANNOUNCE_FREE_FOE * gain)
