"""Scoring pieces every kind of plan shares: the worth of an attack (split by the modifiers the
resolver lists), the worth of where a plan ends for next round, and cheap first sorts."""
from __future__ import annotations


from ...core.values.geometry import bearing_octant, turn_octants
from ..context import Context
from ..decision import Plan
from ..odds import Odds

TEMPO = 0.25              # striking now rather than waiting: breaks even trades, so battles end
PRESSURE_FROM, PRESSURE_EVERY, PRESSURE_MAX = 3, 3.0, 5.0   # "closing in" weighs x1 until round 3, then grows
SUPPORT = 0.5             # a blow it can strike next round, against one struck now
HORIZON_HP_WORTH = 0.6    # about what a foe's hit point is worth (ctx.hp_worth of a typical foe)
JOIN_PER_FT = 0.02        # the pull of a fight friends are in, per foot away from it
CLOSING_PER_FT = 0.01     # the pull toward the nearest foe, per foot (times the pressure)


def score_attack(ctx: Context, plan: Plan, target, odds: Odds, what: str = "") -> None:
    """Value of the attack, split into what each modifier the resolver lists adds and the rest."""
    step = 100 if odds.breakdown.resolution == "d100" else 20
    unit = odds.mean_damage * odds.attacks * ctx.hp_worth(target)
    total = ctx.damage_value(target, odds)
    shares = 0.0
    mods = odds.modifiers()
    plan.data["modifier_keys"] = [key for key, _name, _v in mods]
    for _key, name, v in mods:
        share = (v / step) * unit
        plan.add(f"{name} {v:+d}", share)
        shares += share
    hp, hp_max = ctx.hp(target), ctx.hp_max(target)
    wounded = f" (wounded {hp:g}/{hp_max:g})" if hp < hp_max else ""
    p_kill = odds.p_kill(hp)
    plan.add(f"{what}{odds.p_hit:.0%} to hit {target.label}, {p_kill:.0%} to fell it{wounded}", total - shares)
    plan.data.update(target=target.id, p_kill=p_kill, p_hit=odds.p_hit, expected=odds.expected(hp), odds=odds,
                     wounded=hp < hp_max, ranged=odds.breakdown.kind == "ranged", later=ctx.strike_later)
    if odds.p_hit > 0:
        plan.add("strikes this turn", TEMPO)          # a blow that cannot hit strikes nothing
    friends = odds.breakdown.friends_in_melee
    if friends and odds.breakdown.kind == "ranged":
        plan.add("may hit a friend in the melee", -friendly_fire_cost(ctx, odds, friends))


def friendly_fire_cost(ctx: Context, odds: Odds, friends) -> float:
    """What a shot into a melee may cost the friends there: the resolver's into-melee odds (the
    table before the roll, a near miss, a miss flying on at each friend) priced as a blow on a foe
    is (hit points, capped at what each has, and the chance to fell it), and the blow at the foe a
    shot sent elsewhere never strikes, so a shot is weighed on one scale."""
    if not friends:
        return 0.0
    risk = ctx.into_melee_risk(odds.breakdown)
    cost = 0.0
    for friend_id, p, damage in risk.struck:
        friend = ctx.active.get(friend_id)
        if friend is not None and p > 0:
            cost += min(1.0, p * odds.attacks) * ctx.damage_value(friend, Odds(odds.breakdown, 1.0, damage, 1))
    foe = ctx.active.get(odds.breakdown.target)
    if risk.p_diverted and foe is not None:
        cost += risk.p_diverted * ctx.damage_value(foe, odds)
    return cost


def careful_shot(ctx: Context, target, odds: Odds, attacker=None, placed=(), after_move: float = 0.0) -> Odds | None:
    """The careful shot into this melee, if the ruleset offers one (the resolver's Breakdown with
    `careful` set clears the friends at risk) and it is worth more than the plain shot less what
    the plain shot may cost a friend; else None."""
    bd = odds.breakdown
    if bd.kind != "ranged" or not bd.friends_in_melee:
        return None
    weapon = None if bd.weapon == (attacker or ctx.me).ready_weapon else bd.weapon
    safe = ctx.odds(attacker or ctx.me, target, weapon, placed=placed, after_move=after_move, careful=True)
    if not safe.allowed or safe.breakdown.friends_in_melee:
        return None          # no careful shot under this ruleset (or the big-target exemption already)
    plain = ctx.damage_value(target, odds) - friendly_fire_cost(ctx, odds, bd.friends_in_melee)
    return safe if ctx.damage_value(target, safe) > plain + 1e-9 else None


def pressure(ctx: Context) -> float:
    """The longer a battle goes, the more closing in is worth: stand-offs do not last."""
    return min(PRESSURE_MAX, 1 + max(0, ctx.round - PRESSURE_FROM) / PRESSURE_EVERY)


def add_potential(ctx: Context, plan: Plan) -> None:
    """Worth of where the plan ends for next round: foes it can strike then, closeness, high ground."""
    x, y, _facing, alt = plan.end
    if not ctx.enemies:
        return
    nearest = min(ctx.flat((x, y), e.pos) for e in ctx.enemies)
    best = 0.0
    if ctx.is_archer(ctx.me):
        bands = list(ctx.weapon(ctx.me.ready_weapon)["range_ft"] or [50, 100])
        medium = bands[min(1, len(bands) - 1)]
        if any(ctx.dist((x, y), alt, e.pos, e.altitude_ft) <= medium for e in ctx.enemies):
            best = 0.3
        plan.add("distance from the nearest foe", min(nearest, 40) / 40 * 0.6)
    else:
        if nearest <= ctx.strike_budget(ctx.me) + ctx.reach_ft(ctx.me):
            # Half a blow's worth: it may strike first next round, or a foe closing in meets it.
            best = 2 * SUPPORT * ctx.threat_rate(ctx.me) * HORIZON_HP_WORTH
        plan.add("closing in", -CLOSING_PER_FT * pressure(ctx) * nearest)
        fighting = ctx.cache.get("foes fighting friends")
        if fighting is None:
            fighting = ctx.cache["foes fighting friends"] = [
                e for e in ctx.enemies if any(ctx.engagement.in_zone(a, e) for a in ctx.allies)]
        if fighting:
            # Friends already fight: joining them (ganging up) beats arriving later, one by one.
            plan.add("joins the friends' fight", -JOIN_PER_FT * min(ctx.flat((x, y), e.pos) for e in fighting))
    if best:
        plan.add("can strike next round", best * 0.5)
    elev = ctx.floor_ft((x, y))
    if elev and ctx.rs.section("modifiers")["higher_bonus"]:
        plan.add("high ground", 0.02 * min(elev, 20))


def end_facing(ctx: Context, sq, entry_facings, prefer=None, alt: int = 0) -> int:
    """Facing to end with: toward the target, else toward the nearest foe."""
    options = list(entry_facings) if entry_facings else [ctx.me.facing]
    if prefer is None and ctx.enemies:
        prefer = min(ctx.enemies, key=lambda e: (ctx.dist(sq, alt, e.pos, e.altitude_ft), e.id))
    if prefer is None:
        return options[0]
    want = bearing_octant(sq, prefer.pos)
    costs = entry_facings if isinstance(entry_facings, dict) else {}
    return min(options, key=lambda f: (turn_octants(f, want), costs.get(f, 0), f))


def cover_proxy(ctx: Context, sq) -> float:
    """How much hard cover stands next to a square, and its concealment (a cheap first sort only)."""
    known = ctx.memo.setdefault("cover proxy", {})      # the map's: asked of the same squares all battle long
    got = known.get(sq)
    if got is None:
        got = known[sq] = _cover_proxy(ctx, sq)
    return got


def _cover_proxy(ctx: Context, sq) -> float:
    bm = ctx.battle.map
    x, y = sq
    total = 0.0
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if (dx or dy) and bm.in_bounds(x + dx, y + dy):
                c = int(bm.cover[y + dy, x + dx])
                if c:
                    total += c / 4
    total += int(bm.concealment[y, x]) / 4
    return min(total, 2.0)


def through_figures(ctx: Context, path) -> bool:
    """A move that would stop short where someone stands (d100 segments: the resolver's stops_short)."""
    return ctx.battle.stops_short(ctx.me, path)
