"""Hard's search: an expectimax over the moves to come before the figure's next turn.

For each of hard's best plans (lookahead.search_ahead sets up the copy of the battle the plan
leaves), the plan's blow branches on its outcome, each weighted by the resolver's own odds (the
Breakdown's outcome distribution the roll draws from, `odds.Odds`): it misses, it hits and the
target stands wounded (by the mean damage of a hit that does not fell it), or it fells the target.
In each branch the figures whose turns come before this figure's next one act in the resolver's
order (`Battle.turn_order`): the friends still to act this round and the foes near enough to
matter, then the foes that have acted this round (they strike first next round about half the
time). Each picks its best plan with normal's own generator (`plans.generate`, as if starting a
turn of its own, on the branch's copy: no rule copied, the copy's dice reseeded from the AI's own
generator and never rolled). Its move is made on the copy (the game master's place action,
through `apply`), so a later figure sees where it went (who strikes first); its blow is counted at
its exact expected worth (hit points and the chance to fell, the same `damage_value` every plan is
scored with), and what it leaves (a wounded or felled figure) is what the figures after it see
(focus fire). A branch's worth is what the friends' blows gain less what the foes' blows cost
(weighed `CAUTION`, as exposure is); the plan's worth is its own score with its assumed exposure
replaced by the branches' weighted mean.

The search has a fixed size, never a time limit: `NODES` figures' decisions a choice on a small
field, fewer where more figures fight (`nodes_for`), spent on the best plans first; a plan the
budget does not reach is not searched (it follows the searched ones).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..core.values.actions import GmPlace
from ..core.values.geometry import FACINGS
from .context import Context
from .decision import Plan, rank_key
from .levels import LEVELS
from .plans import isolation
from .plans.attack import attack_here_plans, charge_plans, move_attack_plans
from .plans.stance import hold_plan
from .threat import CAUTION, Threats

NODES = 36              # figures' decisions one choice may search (a small field)
NODES_BIG = 8           # ... where more than BIG_FIELD figures fight
TURN_NODES = 48         # ... and over all the choices of one figure's turn
ROUND_NODES_BIG = 32    # ... and, on a big field, over all the choices of the side's figures in a round
BIG_FIELD = 24
FRIENDS = 1             # friends still to act this round searched in each branch, nearest the plan first
LEAST_BRANCH = 0.1      # an outcome less likely than this is folded into the miss
LATER_NEXT_ROUND = 0.5  # a foe that has acted this round strikes before my next turn about half the time
DECLARED_FOE = 0.75     # d100 declarations: a foe strikes before it about three times in four
# The foes' and friends' next blows: normal's generators, a little narrower (the breadth is the budget).
_REPLY = replace(LEVELS["normal"], name="normal (searched)", targets=2, attack_squares=2, approach=3, shoot=3,
                 withdraw=2, turn_facings=0, exact_plans=0, sight_squares=0, focus_fire=False)
# On a big field each figure's reply is its best blow, where it stands or a move away, without
# weighing what the foes would do to it there (a reply is asked of many figures a round).
REPLY = replace(_REPLY, big_field=replace(_REPLY, foresight=False))


def nodes_for(ctx: Context) -> int:
    """This choice's budget: NODES, and no more than what the figure's turn has left of TURN_NODES (a
    turn of several choices, e.g. a strike and then another). On a big field NODES_BIG, and no more
    than what the side's round has left of ROUND_NODES_BIG: a round's search costs the same however
    many figures fight (the first to act near a foe spend it)."""
    left = TURN_NODES - ctx.memo.get(_turn_key(ctx), 0)
    if len(ctx.active) <= BIG_FIELD:
        return max(0, min(NODES, left))
    return max(0, min(NODES_BIG, left, ROUND_NODES_BIG - ctx.memo.get(_round_key(ctx), 0)))


def spend(ctx: Context, budget: "Budget") -> None:
    """Count what this choice searched against the figure's turn and the side's round."""
    for key in (_turn_key(ctx), _round_key(ctx)):
        ctx.memo[key] = ctx.memo.get(key, 0) + budget.spent


def _turn_key(ctx: Context) -> tuple:
    return ("search spent", ctx.me.id, ctx.round, ctx.phase)


def _round_key(ctx: Context) -> tuple:
    return ("search spent by the side", ctx.me.side, ctx.round)


@dataclass
class Budget:
    left: int
    spent: int = 0

    def take(self, n: int) -> bool:
        if n > self.left:
            return False
        self.left -= n
        self.spent += n
        return True


@dataclass
class Belief:
    """What a branch takes as fact beyond the copy: hit points left, figures felled."""
    hp: dict = field(default_factory=dict)
    gone: set = field(default_factory=set)

    def copy(self) -> "Belief":
        return Belief(dict(self.hp), set(self.gone))


class Branch(Context):
    """A figure's decision in a branch of the search: the copy of the battle, with the branch's
    wounds and falls taken as fact (a felled figure is out of the fight; a wounded one has what is
    left)."""

    def __init__(self, board, figure_id: str, rng, memo: dict, belief: Belief):
        self.shared = memo.setdefault("branch searches", {})
        super().__init__(REPLY, board, figure_id, rng, memo, fresh_turn=True)
        for fid, hp in belief.hp.items():
            self._hp[fid] = max(0.5, hp)
        if belief.gone:
            self.active = {k: f for k, f in self.active.items() if k not in belief.gone}
            self.enemies = [f for f in self.enemies if f.id not in belief.gone]
            self.allies = [f for f in self.allies if f.id not in belief.gone]


    def search(self, mode: str, budget: float | None = None, fig=None):
        """Where a figure may go, searched once per decision from where it stands: the first copy
        that asks it answers every branch (a square the others' moves since took is refused when the
        move is made on the copy; the planner's search is the costliest question by far)."""
        fig = fig or self.me
        key = (fig.id, fig.x, fig.y, fig.facing, fig.altitude_ft, mode, budget)
        if key not in self.shared:
            self.shared[key] = super().search(mode, budget, fig)
        return self.shared[key]


def actors(ctx: Context) -> list[tuple[str, float]]:
    """(figure id, weight) of the figures searched in each branch, in the order they act: friends
    still to act this round and foes near the side, in the resolver's order, then the foes that have
    acted (next round)."""
    me = ctx.me
    mine = [me] + ctx.allies
    foes = []
    for e in ctx.enemies:
        d = min(ctx.flat(e.pos, f.pos) for f in mine)
        if ctx.is_archer(e) or d <= ctx.strike_budget(e) + ctx.reach_ft(e) + 5 + _charge_ft(ctx, e):
            foes.append((d, e.id))
    foes = {fid for _d, fid in sorted(foes)[:ctx.level.search_foes]}
    friends = set()
    if ctx.enemies:
        near = sorted(ctx.allies, key=lambda f: (ctx.flat(f.pos, me.pos), f.id))
        for f in near:
            if len(friends) >= FRIENDS:
                break
            if ctx.declaring or ctx.battle.turn_still_to_come(f.id):
                friends.add(f.id)
    now, later = [], []
    order = [fid for fid, _n, _acted in ctx.battle.turn_order()]
    for fid in order + [f for f in sorted(foes | friends) if f not in order]:
        if fid in friends:
            now.append((fid, 1.0))
        elif fid in foes:
            if ctx.declaring:
                now.append((fid, DECLARED_FOE))
            elif ctx.battle.turn_still_to_come(fid):
                now.append((fid, 1.0))
            else:
                later.append((fid, LATER_NEXT_ROUND))
    return now + later


def _charge_ft(ctx: Context, e) -> float:
    if not ctx.rs.section("charge")["allowed"]:
        return 0.0
    return max(0.0, ctx.charge_limits(e)[1] - ctx.strike_budget(e))


def outcomes(ctx: Context, plan: Plan) -> list[tuple[float, Belief, str]]:
    """The plan's blow's outcomes: (chance, what it leaves, name), from the resolver's odds."""
    target, odds = plan.data.get("target"), plan.data.get("odds")
    if target is None or odds is None or target not in ctx.active or not odds.allowed:
        return [(1.0, Belief(), "")]
    hp = ctx.hp(ctx.active[target])
    p_fell = odds.p_kill(hp)
    p_hit = 1 - (1 - odds.p_hit) ** odds.attacks
    p_wound = max(0.0, p_hit - p_fell)
    out = []
    if p_fell >= LEAST_BRANCH:
        out.append((p_fell, Belief(gone={target}), "fells"))
    if p_wound >= LEAST_BRANCH:
        mean = (odds.expected(hp) - p_fell * hp) / p_wound
        out.append((p_wound, Belief(hp={target: hp - min(max(1.0, mean), hp - 0.5)}), "hits"))
    out.append((1.0 - sum(p for p, _b, _n in out), Belief(), "misses"))
    return out


def expectimax(ctx: Context, board, branches, order, budget: Budget) -> tuple[float, list, str, float] | None:
    """A plan's worth over the turns to come before its next (friends' gains less foes' blows,
    the outcomes of its blow, `outcomes(ctx, plan)`, weighed by their odds), the parts of it by
    figure, what was weighed (in words) and what the foes' blows on the figure itself cost; None
    when the budget does not reach it."""
    if not budget.take(len(branches) * len(order)):
        return None
    total, parts, on_me = 0.0, {}, 0.0
    # Plans that leave the same copy (attacking one foe or another from the same square, or holding
    # there) play the same branch when their blows miss: played once a choice. (No die is rolled in
    # a branch, so its copy's seed changes nothing.)
    played = ctx.cache.setdefault("branches played", {})
    for p, belief, name in branches if order else ():
        seed = ctx.rng.random()                      # never the real dice to come
        key = (id(board), tuple(sorted(belief.hp.items())), tuple(sorted(belief.gone)), tuple(order))
        kept = played.get(key)
        if kept is None or kept[0] is not board:
            copy = board.clone()
            copy.rng.seed(seed)
            kept = played[key] = (board, _play(ctx, copy, belief, order))
        v, got = kept[1]
        total += p * v
        for (label, victim), x in got.items():
            parts[label] = parts.get(label, 0.0) + p * x
            if victim == ctx.me.id:
                on_me -= p * x
    said = ", ".join(f"{n} {p:.0%}" for p, _b, n in branches if n)
    summary = (f"{len(branches)} outcomes of its blow ({said}), " if said else "") + \
        f"then {len(order)} move(s) of friends and foes"
    return total, sorted(parts.items(), key=lambda kv: -abs(kv[1])), summary, on_me


def _play(ctx: Context, board, belief: Belief, order) -> tuple[float, dict]:
    """One branch: each figure in order picks its best plan (normal's generator) on the copy; its
    move is made there, its blow counted at its worth and taken as done for the ones after it."""
    side = ctx.me.side
    memo = ctx.cache.setdefault("search memo", {})
    total, parts = 0.0, {}
    belief = belief.copy()
    for fid, weight in order:
        if fid in belief.gone or not board.able(fid):
            continue
        best = _best_plan(board, fid, ctx, memo, belief)
        if best is None:
            continue
        plan, sub = best
        _move(board, plan, fid)
        target, odds = plan.data.get("target"), plan.data.get("odds")
        if target is None or odds is None or target in belief.gone or target not in sub.active:
            continue
        victim = sub.active[target]
        worth = sub.damage_value(victim, odds)
        friend = board.figures[fid].side == side
        v = worth * weight if friend else -worth * weight * CAUTION
        total += v
        who = board.figures[fid].label
        key = (f"{who}: {'strikes' if friend else 'replies on'} {victim.label}", victim.id)
        parts[key] = parts.get(key, 0.0) + v
        hp = sub.hp(victim)
        if weight >= 1.0 and odds.p_kill(hp) >= 0.5:
            belief.gone.add(target)
        else:
            belief.hp[target] = hp - odds.expected(hp) * weight
    return total, parts


def _best_plan(board, fid: str, ctx: Context, memo: dict, belief: Belief):
    """The figure's best plan on the copy by normal's generator (as if it started a turn now)."""
    sub = Branch(board, fid, ctx.rng, memo, belief)
    if not sub.enemies:
        return None
    plans = blow_plans(sub)
    plans.sort(key=rank_key)
    return (plans[0], sub) if plans else None


def blow_plans(sub: Context) -> list[Plan]:
    """Normal's own generators for a figure's blows, each scored as normal scores it (exposure,
    standing alone): strike from here, move and strike, charge, or stand where it is. (Its other
    plans, approaching, withdrawing, defending, strike no one before the figure's next turn.)"""
    threats = Threats(sub)
    out = [hold_plan(sub, threats)]
    if sub.can_attack:
        out += attack_here_plans(sub, threats) + charge_plans(sub, threats)
        if sub.can_move:
            out += move_attack_plans(sub, threats)
    for plan in out:
        isolation(sub, plan)
    return out


def _move(board, plan: Plan, fid: str) -> None:
    """Make the plan's move on the copy (the game master's place action), when it moves."""
    fig = board.figures[fid]
    if plan.end is None or plan.end == (fig.x, fig.y, fig.facing, fig.altitude_ft):
        return
    x, y, facing, alt = plan.end
    place = GmPlace(fid, x=x, y=y, facing=FACINGS[facing], altitude_ft=alt if fig.flyer != "none" else None)
    if board.check(place) is None:
        board.apply(place)


__all__ = ["Budget", "actors", "expectimax", "nodes_for", "outcomes", "spend"]
