"""Hard's look-ahead: the best few plans played on copies of the battle, answered by the foes'
own best replies.

For each of the best plans, a copy of the battle (`Battle.clone()`, its dice reseeded from the
AI's own generator so the real rolls to come stay unknown) is put in the state the plan leaves:
the figure placed where it ends (the game master's place action, through `apply`) and its stance
taken (set, defend, through `apply`). In that copy every foe near enough to matter looks for its
best blow at my side as if starting a turn of its own: a strike from where it stands, from the
best squares its planner search reaches beside each of my figures (behind and beside them
first), a charge down a legal lane, a shot; each blow is the resolver's odds in the copy, so a
figure that moved is struck where it now stands, a set spear waits for a charger and a defended
figure is harder to hit.

What those answers would do to the whole side, not only to this figure, replaces the plan's
exposure (normal's assumption that every foe in reach strikes this figure). Each answer counts
as surely as it comes before this figure's next turn: a foe still to act this round answers for
sure; one that has acted answers first next round about half the time. A foe the plan is likely
to fell answers less. The plans searched stay ahead of those that were not, re-ranked among
themselves.
"""
from __future__ import annotations

from ..core.values.actions import Defend, GmPlace, SetAgainstCharge, Stand
from ..core.values.geometry import FACINGS, bearing_octant
from .context import HORIZON_ROUNDS, Context
from .decision import Plan, rank_key
from .odds import kill_chance
from .threat import CAUTION, Threats, strike_square

REPLY_SQUARES = 2           # squares a foe is thought to strike each of my figures from
LATER_NEXT_ROUND = 0.5      # a foe that has acted this round strikes before my next turn about half the time


def search_ahead(ctx: Context, threats: Threats, plans: list[Plan]) -> int:
    """Search the first plans ahead; re-rank them. Returns how many were searched."""
    level = ctx.level
    top = [p for p in plans[: level.search_plans] if p.end is not None]
    if not top or not ctx.enemies:
        return 0
    searched = 0
    copies: dict = {}
    for plan in top:
        # No foe able to answer where the plan leaves my side (a big field's far figures): no copy.
        quiet = plan.kind != "announce" and not any(
            _may_reply(ctx, e, [plan.end[:2]] + [a.pos for a in ctx.allies]) for e in ctx.enemies)
        board = _board_after(ctx, plan, copies, copy=not quiet)
        if board is None:
            continue
        focus_fire(ctx, plan)
        loss, parts = (0.0, []) if quiet else _replies(ctx, board, plan)
        quick = plan.data.get("exposure", 0.0)
        plan.add("the foes' best replies (searched ahead)", quick - loss)
        plan.data["replies"] = parts
        plan.data["searched"] = True
        searched += 1
    # The searched plans lead, re-ranked among themselves; one whose copy could not be set up (the
    # resolver refused to place it there) is not searched and follows them.
    n = level.search_plans
    head = plans[:n]
    head.sort(key=lambda p: (not p.data.get("searched"), *rank_key(p)))
    plans[:n] = head
    return searched


def _board_after(ctx: Context, plan: Plan, copies: dict, copy: bool = True):
    """A copy of the battle in the state the plan leaves (figure placed, stance taken), or None;
    `copy` False: the battle itself where the figure may be placed (nothing will be asked of it)."""
    stance = next((a for a in plan.actions if isinstance(a, (SetAgainstCharge, Defend, Stand))), None)
    announced = plan.actions[0] if plan.kind == "announce" else None
    key = (plan.end, stance, announced, plan.data.get("target") if plan.kind == "charge" else None)
    if key in copies:
        return copies[key]
    me = ctx.me
    seed = ctx.rng.random()                        # never the real dice to come
    x, y, facing, alt = plan.end
    place = None
    if (x, y, facing, alt) != (me.x, me.y, me.facing, me.altitude_ft):
        place = GmPlace(me.id, x=x, y=y, facing=FACINGS[facing], altitude_ft=alt if me.flyer != "none" else None)
    if not copy:
        copies[key] = None if place is not None and ctx.battle.check(place) is not None else ctx.battle
        return copies[key]
    board = ctx.battle.clone()
    board.rng.seed(seed)
    if announced is not None and board.check(announced) is None:
        board.apply(announced)                     # announced from where it stands, before it runs
    if place is not None:
        if board.check(place) is not None:
            copies[key] = None
            return None
        board.apply(place)
    if stance is not None and board.check(stance) is None:
        board.apply(stance)
    if plan.kind == "charge":
        # It stands at the lane's end at the ruleset's charge defence (the blow itself not rolled).
        board = board.hypothetical(charging={me.id: plan.data["target"]})
    copies[key] = board
    return board


def _reply_weight(ctx: Context, foe) -> float:
    if ctx.rs.d100:
        return 0.75
    return 1.0 if ctx.battle.turn_still_to_come(foe.id) else LATER_NEXT_ROUND


def _replies(ctx: Context, board, plan: Plan) -> tuple[float, list]:
    """What the foes' best answers in `board` would take from my side, in my side's values."""
    mine = [board.figures[f.id] for f in [ctx.me] + ctx.allies if board.able(f.id)]
    if not mine:
        return 0.0, []               # felled on its own number and still acting: nothing left to hit
    near = []
    spots = [f.pos for f in mine]
    for e in ctx.enemies:
        if board.able(e.id) and _may_reply(ctx, e, spots):
            near.append((min(ctx.flat(e.pos, sq) for sq in spots), e.id, e))
    near.sort(key=lambda t: t[:2])
    total, parts = 0.0, []
    target = plan.data.get("target")
    for _d, _id, foe in near[: ctx.level.search_foes]:
        weight = _reply_weight(ctx, foe)
        if foe.id == target:
            weight *= 1 - plan.data.get("p_fell", plan.data.get("p_kill", 0.0))
        if weight <= 0:
            continue
        reply = _best_reply(ctx, board, foe, mine)
        if reply is None:
            # No blow found in the copy (its search of squares came up empty): keep what the plan's
            # exposure already counted for this foe rather than call it harmless.
            kept = sum(v for name, v in plan.data.get("exposure_parts", ()) if name == foe.label)
            if kept > 0:
                total += kept
                parts.append((f"{foe.label}: strikes it (not searched)", round(kept, 2)))
            continue
        value, label = reply
        v = value * weight * CAUTION
        total += v
        parts.append((f"{foe.label}: {label}", round(v, 2)))
    return total, parts


def focus_fire(ctx: Context, plan: Plan) -> None:
    """Friends still to act this round that can strike the plan's target: together they may fell it
    before it acts again. The blow is worth what it adds to that chance (focus fire), and less when
    the friends would fell it anyway. Weighed once per plan (normal weighs it for its best plans,
    hard again finds it done when it searches them)."""
    target, odds = plan.data.get("target"), plan.data.get("odds")
    if target is None or odds is None or target not in ctx.active or plan.data.get("focus_weighed"):
        return
    plan.data["focus_weighed"] = True
    foe = ctx.active[target]
    helpers = []
    for friend in ctx.allies:
        if ctx.declaring:
            # d100 declarations: every friend gets its blows this round; those within reach strike it.
            if ctx.flat(friend.pos, foe.pos) > (ctx.long_range_ft(friend) if ctx.is_archer(friend) else ctx.reach_ft(friend)):
                continue
        elif not ctx.battle.turn_still_to_come(friend.id):
            continue
        got = _friend_blow(ctx, friend, foe)
        if got is not None:
            helpers.append(got)
    if not helpers:
        return
    hp = ctx.hp(foe)
    together, without = kill_chance(hp, [odds, *helpers]), kill_chance(hp, helpers)
    gain = (together - without - odds.p_kill(hp)) * 0.5 * ctx.threat_rate(foe) * HORIZON_ROUNDS
    plan.data["p_fell"] = together
    plan.add(f"with {len(helpers)} friend(s) still to strike: {together:.0%} to fell {foe.label} this round", gain)


def _friend_blow(ctx: Context, friend, foe):
    """The odds of a friend's blow at the foe on its turn still to come this round, or None."""
    gap = ctx.flat(friend.pos, foe.pos)
    if ctx.is_archer(friend):
        return ctx.best_odds(friend, foe) if gap <= ctx.long_range_ft(friend) else None
    if gap <= ctx.reach_ft(friend):
        return ctx.best_odds(friend, foe)
    if gap > _strike_reach(ctx, friend):
        return None
    sq = strike_square(ctx, friend.pos, foe.pos, (friend.id,))
    if sq is None:
        return None
    placed = friend.moved_to(sq[0], sq[1], bearing_octant(sq, foe.pos))
    return ctx.best_odds(placed, foe, placed=(placed,), after_move=ctx.flat(friend.pos, sq))


def _may_reply(ctx: Context, e, spots) -> bool:
    """Foe e answers my side standing on these squares: an archer, or within its strike or charge reach."""
    if ctx.is_archer(e):
        return True
    far = max(_strike_reach(ctx, e), _charge_reach(ctx, e))
    return any(ctx.flat(e.pos, sq) <= far for sq in spots)


def _strike_reach(ctx: Context, e) -> float:
    return ctx.strike_budget(e) + ctx.reach_ft(e) + 5


def _charge_reach(ctx: Context, e) -> float:
    if not ctx.rs.section("charge")["allowed"]:
        return 0.0
    return ctx.charge_limits(e)[1] + 5


def _best_reply(ctx: Context, board, foe, mine) -> tuple[float, str] | None:
    """The foe's best blow at my side in `board`, as if it started its turn now: (value it would
    take from my side, what it is), or None. Its blows are the resolver's odds: in the copy for the
    figure whose plan is searched, in the battle as it stands for its friends (what they face
    barely depends on where it ends; asked once per decision)."""
    foe = foe.fresh_round()
    best = None
    for victim in mine:
        if victim.id == ctx.me.id:
            got = _blows_at(ctx, board, foe, victim)
        else:
            key = ("blows", foe.id, victim.id)
            if key not in ctx.cache:
                ctx.cache[key] = _blows_at(ctx, ctx.battle, foe, victim)
            got = ctx.cache[key]
        if got is not None and (best is None or got[0] > best[0] + 1e-9):
            best = got
    return best


def _blows_at(ctx: Context, board, foe, victim) -> tuple[float, str] | None:
    """The foe's best blow at one of my figures in `board`: a strike, a move and a strike, a charge, a shot."""
    best = None

    def consider(odds, label):
        nonlocal best
        if odds is None or not odds.allowed:
            return
        v = ctx.damage_value(victim, odds)
        if best is None or v > best[0] + 1e-9:
            best = (v, label)

    gap = ctx.flat(foe.pos, victim.pos)
    if ctx.is_archer(foe):
        if gap <= ctx.long_range_ft(foe):
            consider(ctx.odds(foe, victim, battle=board), f"shoots {victim.label}")
        return best
    if gap <= ctx.reach_ft(foe):
        consider(ctx.odds(foe, victim, battle=board), f"strikes {victim.label}")
    elif gap <= _strike_reach(ctx, foe):
        reach = ctx.search("walk", budget=ctx.strike_budget(foe), fig=foe)
        taken = {f.pos for f in board.figures.values() if board.able(f.id) and f.id != foe.id}
        squares = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                sq = (victim.x + dx, victim.y + dy)
                entry = reach.stop(sq, ctx.strike_budget(foe)) if reach is not None else None
                if (dx or dy) and entry is not None and sq not in taken:
                    squares.append((_square_rank(board, victim, sq, entry.cost_ft), sq, entry.cost_ft))
        for _rank, sq, cost in sorted(squares)[:REPLY_SQUARES]:
            placed = foe.moved_to(sq[0], sq[1], bearing_octant(sq, victim.pos))
            consider(ctx.odds(placed, victim, placed=(placed,), after_move=cost, battle=board),
                     f"moves to {sq[0]},{sq[1]} and strikes {victim.label}")
    if _charge_reach(ctx, foe) and gap <= _charge_reach(ctx, foe) and not board.state_of(victim.id).set_vs_charge:
        # (a rules-aware foe never charges a set weapon: it would take the set blow first)
        lane = _lane(ctx, board, foe, victim)
        if lane is not None:
            end = lane.squares[-1]
            charger = foe.moved_to(end[0], end[1], bearing_octant(foe.pos, victim.pos))
            consider(ctx.odds(charger, victim, placed=(charger,), charge=True, battle=board), f"charges {victim.label}")
    return best


def _square_rank(board, victim, sq, cost: float) -> tuple:
    """Squares the foe would strike from: behind the victim first, then its flanks, then cheap ones
    (the octant the resolver judges rear and flank by)."""
    arc = board.facing_arc(victim, sq)
    return (-min(arc, 8 - arc), cost, sq)


def _lane(ctx: Context, board, foe, victim):
    """The foe's legal charge lane onto the victim in the board (it may face it first), or None."""
    least, _most, _ = ctx.charge_limits(foe)
    if ctx.flat(foe.pos, victim.pos) < least or not board.charge_lane_may_open(foe, victim):
        return None                                  # the resolver's cheap first look: surely no lane
    if ctx.rs.section("facing")["stationary_turns_free"]:
        foe = foe.moved_to(foe.x, foe.y, bearing_octant(foe.pos, victim.pos))
    lane = board.hypothetical(foe).positioning().charge_lane(foe.id, victim.id)
    return lane if lane.legal and lane.squares else None


__all__ = ["focus_fire", "search_ahead"]
