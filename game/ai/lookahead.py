"""Hard's look-ahead: the best few plans each put on a copy of the battle and searched there.

For each of the best plans, a copy of the battle (`Battle.clone()`, its dice reseeded from the
AI's own generator so the real rolls to come stay unknown) is put in the state the plan leaves:
the figure placed where it ends (the game master's place action, through `apply`) and its stance
taken (set, defend, through `apply`). search.expectimax then plays, in each outcome of the plan's
blow, the turns that come before the figure's next one on that copy (friends still to act, foes'
replies). What it finds replaces the plan's assumed exposure (and the focus-fire guess: the
friends' blows are played). The plans searched, best first while the decision's budget lasts,
stay ahead of those that were not, re-ranked among themselves. `focus_fire` is normal's guess at
the friends still to strike a plan's target this round.
"""
from __future__ import annotations

from ..core.values.actions import Defend, GmPlace, SetAgainstCharge, Stand
from ..core.values.geometry import FACINGS, bearing_octant
from .context import HORIZON_ROUNDS, Context
from .decision import Plan, rank_key
from .odds import kill_chance
from .search import Budget, actors, expectimax, nodes_for, outcomes, spend
from .threat import Threats, strike_square


def search_ahead(ctx: Context, threats: Threats, plans: list[Plan]) -> int:
    """Search the first plans ahead (search.expectimax), best first while the decision's budget
    lasts; re-rank them. Returns how many were searched."""
    level = ctx.level
    top = [p for p in plans[: level.search_plans] if p.end is not None]
    if not top or not ctx.enemies:
        return 0
    searched = 0
    copies: dict = {}
    order = actors(ctx)
    budget = Budget(nodes_for(ctx))
    for plan in top:
        branches = outcomes(ctx, plan)
        if order and len(branches) * len(order) > budget.left:
            break                                  # the budget is spent: no copy made for nothing
        board = _board_after(ctx, plan, copies, copy=bool(order) or plan.kind == "announce")
        if board is None:
            continue
        got = expectimax(ctx, board, branches, order, budget)
        if got is None:
            break                                  # the budget is spent: the rest are not searched
        value, parts, summary, on_me = got
        _drop_focus(plan)
        exposure = plan.data.get("exposure", 0.0)
        if any(name.startswith("alone against") for name, _v in plan.reasons) and on_me < exposure:
            # Alone within reach of two or more foes: however the foes' next blows fall, it keeps
            # the exposure counted for it (they are free to turn on it the round after).
            value += on_me - exposure
        plan.add(f"searched ahead: {summary}", exposure + value)
        plan.data["replies"] = [(name, round(-v, 2)) for name, v in parts if v < 0]
        plan.data["search"] = summary
        plan.data["search_words"] = _words(plan, len(order))
        plan.data["searched"] = True
        searched += 1
    ctx.cache["search moves"] = budget.spent
    spend(ctx, budget)
    # The searched plans lead, re-ranked among themselves; one whose copy could not be set up (the
    # resolver refused to place it there) is not searched and follows them.
    n = level.search_plans
    head = plans[:n]
    head.sort(key=lambda p: (not p.data.get("searched"), *rank_key(p)))
    plans[:n] = head
    return searched


def _words(plan: Plan, moves: int) -> str:
    """What the search weighed, short enough for the window's panel."""
    if plan.data.get("target") is not None and plan.data.get("odds") is not None:
        return f"weighs its blow's outcomes and the {moves} moves after"
    return f"weighs the {moves} moves after"


def _drop_focus(plan: Plan) -> None:
    """The search plays the friends still to strike: the focus-fire guess is taken out again."""
    for name, v in list(plan.reasons):
        if "friend(s) still to strike" in name:
            plan.reasons.remove((name, v))
            plan.score -= v


def _key(plan: Plan) -> tuple:
    stance = next((a for a in plan.actions if isinstance(a, (SetAgainstCharge, Defend, Stand))), None)
    announced = plan.actions[0] if plan.kind == "announce" else None
    return (plan.end, stance, announced, plan.data.get("target") if plan.kind == "charge" else None)


def _board_after(ctx: Context, plan: Plan, copies: dict, copy: bool = True):
    """A copy of the battle in the state the plan leaves (figure placed, stance taken), or None.
    (A charger stands at the lane's end; the copy does not lower its defence for the charge, which
    a copy can only show by rolling the charge.) `copy` False: no figure is near enough to act on
    it (a big field's far figures), so the battle itself, where the figure may be placed."""
    stance = next((a for a in plan.actions if isinstance(a, (SetAgainstCharge, Defend, Stand))), None)
    announced = plan.actions[0] if plan.kind == "announce" else None
    key = _key(plan)
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
    copies[key] = board
    return board


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


def _strike_reach(ctx: Context, e) -> float:
    return ctx.strike_budget(e) + ctx.reach_ft(e) + 5


__all__ = ["focus_fire", "search_ahead"]
