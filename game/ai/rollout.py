"""Hard's rollouts: its best few plans each played on, on copies of the battle, by a simple player.

Policy improvement by rollout: for each of the first `Level.rollout_plans` plans (after the
search has ranked them), `Level.rollouts` continuations are played. A continuation is a copy of
the battle (`Battle.clone()`) whose dice are reseeded from the AI's own generator (never the real
dice to come); the plan's actions are applied to it through `apply`, then every figure of every
side is played by the base level (`BASE`) until the end of the next round (`HORIZON`), through
the resolver like any battle. The copy's standing then is scored (`standing`: hit points left, and
half its full hit points for each figure still able, its side's less the other sides'). The plans
share their continuations' seeds (common random numbers: continuation m of every plan rolls from
the same seed), so the differences between plans are paired and a few continuations tell them
apart better than their spread suggests.

Each rolled plan gets a reason: what its continuations gained over those of the plan the search
had put first (in hit points, `standing`'s units), and the rolled plans are put in the order of
their continuations' mean. No rule is copied: every roll is the resolver's, on a copy.

The size is fixed, never a clock: rollouts are played only where few figures stand
(`FIELD`; fewer continuations from `FIELD_HALF`), so a big field keeps the search alone.
"""
from __future__ import annotations

import zlib

from ..core.values.actions import EndTurn
from ..core.values.refusals import ActionRefused
from .context import Context
from .decision import Plan, rank_key

BASE = "naive"          # the level that plays every figure in a continuation
HORIZON = 1             # rounds played after this one (None: to the battle's end, MAX_ROUNDS at most)
MAX_ROUNDS = 30
FIELD = 24              # figures able in the battle at most for rollouts to be played
FIELD_HALF = 12         # ... and above this, half the continuations
TRUST = None            # None: the rolled plans are ordered by their continuations alone;
#                         a number: their score plus TRUST x the continuations' gain
SURE = None             # a number: a plan goes ahead of the first only when its paired gain is more
#                         than SURE standard errors above nothing (else the order stays)
TURN_ACTIONS = 12       # actions a figure may take in one turn of a continuation (play's guard)
TURN_REFUSALS = 4       # ... and refusals before its turn is ended for it


def roll_out(ctx: Context, plans: list[Plan], player) -> int:
    """Play the first plans on (see the module's docstring) and re-rank them by what followed.
    `player(level, seed)` makes the base level's player (an `AI`). Returns how many were rolled."""
    level = ctx.level
    battle = ctx.battle
    able = sum(1 for fid in battle.figures if battle.able(fid))
    runs = level.rollouts if able <= FIELD_HALF else level.rollouts // 2
    if not level.rollout_plans or runs <= 0 or able > FIELD or not ctx.enemies:
        return 0
    top, firsts = [], set()
    for plan in plans:
        if len(top) >= level.rollout_plans:
            break
        if plan.actions[0] not in firsts:       # two plans that start alike are one choice now
            firsts.add(plan.actions[0])
            top.append(plan)
    if len(top) < 2:
        return 0
    seeds = [ctx.rng.getrandbits(48) for _ in range(runs)]    # common to every plan
    side = ctx.me.side
    means, rolls = [], []
    for plan in top:
        got = [_continue(battle, plan, seed, side, player) for seed in seeds]
        rolls.append(got)
        means.append(sum(got) / len(got))
    ref = means[0]
    for plan, mean in zip(top, means):
        gain = mean - ref
        plan.data["rollout"] = (runs, len(top), round(gain, 2))
        plan.data["rollout_words"] = f"played {runs} continuations of each of {len(top)} plans: " \
            f"{gain:+.1f} hit points against the first"
        if TRUST is not None:
            plan.add(f"played on {runs} times ({BASE}): {gain:+.2f} against the first", TRUST * gain)
        else:
            plan.reasons.append((f"played on {runs} times ({BASE}): {gain:+.2f} against the first", 0.0))
    if TRUST is not None:
        order = sorted(range(len(top)), key=lambda i: rank_key(top[i]))
    elif SURE is not None:
        # Only a gain the paired continuations show clearly moves a plan ahead of the first.
        sure = {i for i in range(1, len(top)) if _sure_gain(rolls[i], rolls[0])}
        order = sorted(range(len(top)), key=lambda i: (0, -means[i], i) if i in sure else (1, 0.0, i))
    else:
        order = sorted(range(len(top)), key=lambda i: (-round(means[i], 9), i))
    # The rolled plans take the places they held among the plans, in their new order.
    places = sorted(next(k for k, p in enumerate(plans) if p is plan) for plan in top)
    for place, i in zip(places, order):
        plans[place] = top[i]
    return len(top)


def _sure_gain(got: list[float], first: list[float]) -> bool:
    diffs = [a - b for a, b in zip(got, first)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2 or mean <= 0:
        return False
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > SURE * (var / n) ** 0.5


def _continue(battle, plan: Plan, seed: int, side: str, player) -> float:
    """One continuation: the plan's actions on a reseeded copy, then the base level to the horizon."""
    board = battle.clone()
    board.rng.seed(seed)
    for action in plan.actions:
        if board.check(action) is not None:
            break               # the rest of its turn is the base level's
        board.apply(action)
    start = battle.round
    last = MAX_ROUNDS if HORIZON is None else start + HORIZON
    players = {}
    turn, acts, refusals = None, 0, 0
    for _ in range(max(200, (last - start + 1) * len(board.figures) * (TURN_ACTIONS + 2))):
        if board.is_over or board.round > last:
            break
        fid = board.current
        if fid is None:
            break
        if (board.round, fid) != turn:
            turn, acts, refusals = (board.round, fid), 0, 0
        if not (board.able(fid) or board.state_of(fid).acts_before_falling) \
                or acts >= TURN_ACTIONS or refusals >= TURN_REFUSALS:
            action = EndTurn(figure=fid)
        else:
            owner = board.figures[fid].side
            ai = players.get(owner)
            if ai is None:
                ai = players[owner] = player(BASE, seed ^ zlib.crc32(owner.encode()))
            action = ai.choose(board, fid)
        try:
            board.apply(action)
            acts += 1
        except ActionRefused:
            refusals += 1
            if isinstance(action, EndTurn):
                break
    return standing(board, side)


def standing(board, side: str) -> float:
    """The side's standing on the copy: each able figure's hit points left and half its full hit
    points (a figure felled loses both), the side's less the other sides'."""
    total = 0.0
    for fid, fig in board.figures.items():
        if not board.able(fid):
            continue
        st = board.state_of(fid)
        worth = max(0, st.hp - st.subdual) + 0.5 * max(1, st.max_hp)
        total += worth if fig.side == side else -worth
    return total


__all__ = ["roll_out", "standing"]
