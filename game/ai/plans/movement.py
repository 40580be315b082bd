"""Plans that move without striking: withdraw from melee, approach or reposition, flee."""
from __future__ import annotations

from ...core.values.actions import Attack, Disengage, EndTurn, Move
from ...core.values.geometry import FACINGS, SQUARE_FT
from ..context import LOCAL_FROM, Context
from ..decision import Plan
from ..threat import Threats, add_exposure
from .scoring import add_potential, careful_shot, cover_proxy, end_facing, score_attack, through_figures

APPROACH_PRESORT = 80     # squares that get the full approach heuristic after a cheap sort
REGROUP_FRIENDS = 2       # the nearest friends it may fall back beside
SIGHT_CHECKED = 3         # archers: squares (times the level's `shoot`) whose sight line to the target is asked


def withdraw_plans(ctx: Context, threats: Threats) -> list[Plan]:
    me = ctx.me
    engaged = [e for e in ctx.enemies if ctx.engagement.in_zone(me, e)]
    if not engaged:
        return []
    round_rules = ctx.rs.section("round")
    if not ctx.declaring and round_rules["declarations"] and "disengage" in round_rules["declared"]:
        return []                    # announced in the declaration step (cnc), or not at all
    out = []
    styles = list(ctx.rs.section("disengage")["styles"])
    modes = []
    if ctx.rs.section("parting_shots")["withdrawal_avoids"]:
        modes.append(("withdraw", None))
    for style in styles:
        modes.append(("walk" if style in ("retreat", "withdraw") else "withdraw" if style == "fighting" else "run", style))
    if not modes:
        modes.append(("walk", None))
    # Each foe's square and how far it strikes from there (its reach; a foe not engaged yet moves
    # first): the same for every square weighed.
    strikes = [(e.pos, ctx.reach_ft(e) + (0 if e in engaged else ctx.strike_budget(e))) for e in ctx.enemies]
    flat = ctx.flat
    for mode, style in modes:
        budget = ctx.mode_budget(mode)
        if budget < 5:
            continue
        reach = ctx.search(mode, budget=budget)
        if reach is None:
            continue
        cands = []
        for sq, entry in reach.stops(budget, leave=me.pos):
            threat = sum(1 for pos, strikes_ft in strikes if flat(pos, sq) <= strikes_ft)
            cands.append((-threat + cover_proxy(ctx, sq) * 0.3 + entry.cost_ft / 100, sq, entry))
        cands.sort(key=lambda c: (-c[0], c[1]))
        for _h, sq, entry in cands[: ctx.level.withdraw]:
            path = reach.path_to(sq, end_facing(ctx, sq, entry.facings)) or reach.path_to(sq)
            if path is None:
                continue
            end = (sq[0], sq[1], path.end.facing, path.end.altitude_ft)
            if style is None:
                action = Move(figure=me.id, to=sq, mode=mode, facing=FACINGS[end[2]] if mode != "withdraw" else None)
                label = f"{'fighting withdrawal' if mode == 'withdraw' else 'step back'} to {sq[0]},{sq[1]}"
            else:
                action = Disengage(figure=me.id, to=sq, style=style)
                label = f"disengage ({style}) to {sq[0]},{sq[1]}"
            plan = Plan((action, EndTurn(figure=me.id)), label, kind="withdraw", end=end, data={"path": path})
            cost = threats.parting_cost(path.steps, mode if style != "retreat" else "walk", plan)
            if style == "retreat" and cost:
                # odnd: winning the opposed d6 roll avoids the free attack about half the time.
                plan.add("opposed retreat roll may avoid it", cost * 0.45)
            if style == "hasty":
                plan.add("hasty: worse defense this round", -0.3)
            v, parts = threats.exposure(end)
            add_exposure(plan, v, parts)
            add_potential(ctx, plan)
            if ctx.is_archer(me):
                plan.add("archer out of melee", 0.8)
            out.append(plan)
            if style is None and mode == "withdraw":
                out += withdraw_then_strike(ctx, threats, plan, path.total_ft)
    return out


def withdraw_then_strike(ctx: Context, threats: Threats, withdrawal: Plan, cost: float) -> list[Plan]:
    """Back out of the melee, then shoot or strike where the rules let a fighting withdrawal keep the
    attack (bfrpg, ch17: within the move-and-attack allowance; `Battle.check` has the last word):
    the withdrawal's own reasons, and the resolver's odds of the best blow from where it ends. Where
    the turn is split into phases (bfrpg: figures sharing a number move first, then shoot, then
    strike) it withdraws in the movement phase and the blow comes in its own phase."""
    me = ctx.me
    if not ctx.can_attack or ctx.declaring or ctx.attacked or ctx.moved + cost > ctx.attack_budget + 1e-9:
        return []
    x, y, facing, alt = withdrawal.end
    there = me.moved_to(x, y, facing, alt)
    best = None
    for e in ctx.ranked_targets()[: ctx.level.targets]:
        odds = ctx.best_odds(there, e, placed=(there,), after_move=ctx.moved + cost)
        if odds is None:
            continue
        safe = careful_shot(ctx, e, odds, attacker=there, placed=(there,), after_move=ctx.moved + cost)
        odds = safe or odds
        v = ctx.damage_value(e, odds)
        if best is None or v > best[0] + 1e-9:
            best = (v, e, odds, safe is not None)
    if best is None:
        return []
    _v, e, odds, careful = best
    weapon = None if odds.breakdown.weapon == me.ready_weapon else odds.breakdown.weapon
    verb = "shoot" if odds.breakdown.kind == "ranged" else "strike"
    actions = (withdrawal.actions[0], Attack(figure=me.id, target=e.id, weapon=weapon, careful=careful),
               EndTurn(figure=me.id))
    label = f"{withdrawal.label}, then {verb} {e.label}"
    if ctx.strike_later:
        # bfrpg's movement turn inside a shared number: withdraw now, shoot or strike when the blows come.
        actions, label = (withdrawal.actions[0], EndTurn(figure=me.id)), f"{label} when the blows come"
    plan = Plan(actions, label, kind="withdraw", end=withdrawal.end,
                data={"path": withdrawal.data.get("path"), "withdraws": True})
    for name, v in withdrawal.reasons:
        if name != "archer out of melee":
            plan.add(name, v)
    plan.data["exposure"] = withdrawal.data.get("exposure", 0.0)
    plan.data["parting_shots"] = withdrawal.data.get("parting_shots", 0)
    score_attack(ctx, plan, e, odds)
    plan.data["withdraws"] = True
    return [plan]


def approach_plans(ctx: Context, threats: Threats) -> list[Plan]:
    me = ctx.me
    out = []
    archer = ctx.is_archer(me)
    modes = ["walk"]
    if not archer and me.flyer == "none" and not ctx.walk_only:
        for mode in ("jog", "run"):
            if ctx.mode_ok(mode) and ctx.limits.move(mode).budget_ft > ctx.limits.move("walk").budget_ft:
                modes.append(mode)
                break
    target = ctx.ranked_targets()[0]
    engaged = [e for e in ctx.enemies if ctx.engagement.in_zone(me, e)]
    flyer = me.flyer != "none"
    far = len(ctx.active) > LOCAL_FROM and threats.out_of_reach(max(ctx.mode_budget(m) for m in modes))
    if far:
        # A big field's figure that no foe can strike, shoot or charge wherever its longest move ends
        # closes in at its longest pace: a shorter move's squares weigh the same (no risk) and close less.
        modes = modes[-1:]
    for mode in modes:
        budget = ctx.mode_budget(mode)
        if budget < 5:
            continue
        reach = ctx.search(mode, budget=budget)
        if reach is None:
            continue
        usable = list(reach.stops(budget, leave=me.pos))
        if len(usable) > APPROACH_PRESORT:
            # Cheap first cut: melee wants to be near the target, archers near their range and cover.
            if archer:
                rng = (ctx.weapon(me.ready_weapon)["range_ft"] or [60])[0]
                usable.sort(key=lambda it: (abs(ctx.flat(it[0], target.pos) - rng) - 5 * cover_proxy(ctx, it[0]), it[0]))
            else:
                usable.sort(key=lambda it: (ctx.flat(it[0], target.pos), it[0]))
            usable = usable[:APPROACH_PRESORT]
        cands = []
        foes = ctx.foe_reaches()
        for sq, entry in usable:
            alts = [0]
            if flyer and entry.altitudes:
                alts = sorted({max(entry.altitudes), min(entry.altitudes)})
            for alt in alts:
                cands.append((_approach_heuristic(ctx, sq, alt, target, archer, foes), sq, alt, entry))
        cands.sort(key=lambda c: (-c[0], c[1], c[2]))
        if archer:
            # Sight lines are the costly question: asked of the best few squares only (a square the
            # target cannot be seen from loses 3, more than the rest of the sort tells apart).
            keep = SIGHT_CHECKED * ctx.level.shoot
            sight = ctx.positioning.sight_map
            cands[:keep] = sorted(((h - (0 if sight.visible(sq, target.pos, alt, target.altitude_ft) else 3), sq, alt, e)
                                   for h, sq, alt, e in cands[:keep]), key=lambda c: (-c[0], c[1], c[2]))
        for _h, sq, alt, entry in cands[: ctx.level.shoot if archer else ctx.level.approach]:
            facing = end_facing(ctx, sq, entry.facings, None, alt)
            path = reach.path_to(sq, facing, alt if flyer else None) or reach.path_to(sq, None, alt if flyer else None)
            if path is None or through_figures(ctx, path):
                continue
            end = (sq[0], sq[1], path.end.facing, path.end.altitude_ft)
            action = Move(figure=me.id, to=sq, mode=mode, facing=FACINGS[end[2]], altitude_ft=end[3] if flyer else None)
            what = "run" if mode == "run" else "jog" if mode == "jog" else "move"
            plan = Plan((action, EndTurn(figure=me.id)), f"{what} to {sq[0]},{sq[1]}" + (f" at {end[3]} ft" if flyer else ""),
                        kind="approach", end=end, data={"path": path})
            threats.parting_cost(path.steps, mode, plan)
            threats.closing_cost(end, plan)
            if path.stall:
                plan.add("stalls (flies too little)", -1.5)
            v, parts = threats.exposure(end)
            add_exposure(plan, v, parts)
            add_potential(ctx, plan)
            if engaged and not archer:
                plan.add("leaves a fight without striking", -0.3)
            if flyer and end[3] >= 15:
                plan.add("out of reach aloft", 0.1)
            out.append(plan)
    if not far:
        out += regroup_plans(ctx, threats)
    return out


def regroup_plans(ctx: Context, threats: Threats) -> list[Plan]:
    """Fall back beside a friend (the nearest ones a walk reaches) rather than stand alone where
    several foes can reach it: a figure not in a fight yet, with friends behind it."""
    me = ctx.me
    if me.flyer != "none" or not ctx.allies or any(ctx.engagement.in_zone(me, e) for e in ctx.enemies):
        return []
    budget = ctx.mode_budget("walk")
    reach = ctx.search("walk", budget=budget) if budget >= 5 else None
    if reach is None:
        return []
    out = []
    friends = sorted(ctx.allies, key=lambda a: (ctx.flat(me.pos, a.pos), a.id))[:REGROUP_FRIENDS]
    taken = set(ctx.standing)
    for friend in friends:
        if ctx.flat(me.pos, friend.pos) <= 2 * SQUARE_FT:
            continue                     # already beside it
        best = None
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                sq = (friend.x + dx, friend.y + dy)
                entry = reach.stop(sq, budget) if (dx or dy) and sq not in taken else None
                if entry is None:
                    continue
                key = (min((ctx.flat(sq, e.pos) for e in ctx.enemies), default=0.0), -entry.cost_ft, sq)
                if best is None or key < best[0]:
                    best = (key, sq, entry)      # the friend's side nearest the foes: it stands in line
        if best is None:
            continue
        _key, sq, entry = best
        facing = end_facing(ctx, sq, entry.facings)
        path = reach.path_to(sq, facing) or reach.path_to(sq)
        if path is None or through_figures(ctx, path):
            continue
        end = (sq[0], sq[1], path.end.facing, path.end.altitude_ft)
        plan = Plan((Move(figure=me.id, to=sq, mode="walk", facing=FACINGS[end[2]]), EndTurn(figure=me.id)),
                    f"fall back beside {friend.label} to {sq[0]},{sq[1]}", kind="regroup", end=end, data={"path": path})
        threats.parting_cost(path.steps, "walk", plan)
        v, parts = threats.exposure(end)
        add_exposure(plan, v, parts)
        add_potential(ctx, plan)
        out.append(plan)
    return out


def _approach_heuristic(ctx: Context, sq, alt, target, archer: bool, foes: list) -> float:
    """`foes`: ctx.foe_reaches(), the same for every square weighed."""
    flat = ctx.flat
    d = flat(sq, target.pos)
    h = 0.0
    if archer:
        bands = list(ctx.weapon(ctx.me.ready_weapon)["range_ft"] or [60])
        medium = bands[min(1, len(bands) - 1)]
        h -= 0 if d <= medium else (d - medium) / 10
        h += cover_proxy(ctx, sq)      # (approach_plans takes 3 off the best few it cannot see the target from)
    else:
        h -= d / 5
    x, y = sq
    for o, reach, closing in foes:
        if SQUARE_FT * max(abs(o.x - x), abs(o.y - y)) > (closing if archer else reach):
            continue    # no distance rule makes it nearer than its larger offset: most foes of a field
        od = flat(o.pos, sq)
        if od <= reach:
            h -= 3
        elif archer and od <= closing:
            h -= 1.5
    h += 0.05 * ctx.floor_ft(sq)
    if ctx.me.flyer != "none" and alt:
        reach = max((ctx.reach_ft(o) for o in ctx.enemies if not ctx.is_archer(o)), default=5)
        h += 3.0 if alt > reach + 5 else 0.02 * alt
    return h


def flee_plans(ctx: Context, threats: Threats) -> list[Plan]:
    me = ctx.me
    mode = "run" if ctx.mode_ok("run") and ctx.mode_budget("run") >= 5 else "walk"
    budget = ctx.mode_budget(mode)
    reach = ctx.search(mode, budget=budget)
    if reach is None:
        return []
    bm = ctx.battle.map
    cands = []
    for sq, entry in reach.stops(budget, leave=me.pos):
        nearest = min(ctx.dist(sq, 0, e.pos, e.altitude_ft) for e in ctx.enemies)
        edge = min(sq[0], sq[1], bm.width - 1 - sq[0], bm.height - 1 - sq[1])
        cands.append((nearest / 5 - edge * 0.5, sq, entry))
    cands.sort(key=lambda c: (-c[0], c[1]))
    out = []
    for h, sq, _entry in cands[:3]:
        path = reach.path_to(sq)
        if path is None:
            continue
        edge = sq[0] in (0, bm.width - 1) or sq[1] in (0, bm.height - 1)
        move = Move(figure=me.id, to=sq, mode=mode, exit=edge)
        plan = Plan((move, EndTurn(figure=me.id)), f"flee {'off the map at' if edge else 'to'} {sq[0]},{sq[1]}",
                    kind="flee", end=(sq[0], sq[1], path.end.facing, path.end.altitude_ft))
        if edge:
            plan.add("leaves the battle", 1.0)
        plan.add("morale broken: flee", 5.0 + h * 0.1)
        threats.parting_cost(path.steps, mode, plan)
        out.append(plan)
    return out
