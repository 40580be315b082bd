"""The AI opponent: `choose(battle, figure_id) -> Action`, one action at a time.

It plans a figure's whole turn (game.ai.plans), scores every plan with the resolver's answers
(game.ai.context, game.ai.threat), hard searches the best few through the resolver
(game.ai.lookahead), and hands over the best plan's first action the resolver accepts
(`Battle.check`). The rest of the plan follows on the next calls without thinking again, as long
as the battle went the way the plan expected. Nothing here changes the battle.
"""
from __future__ import annotations

import hashlib
import random
import time

from ..core.values.actions import Action, Attack, EndTurn
from .collector import collector_held
from .context import Context, this_turn
from .decision import Decision, Plan, rank_key
from .levels import DIFFICULTIES, LEVELS, level as level_named
from .lookahead import focus_fire, search_ahead
from .naive import naive_decision
from .objectives import weigh_objectives
from .plans import generate, rescore_exactly
from .threat import Threats

ATTACK_CHECKS = 6        # nearest foes asked whether an attack is still to make before a turn ends
MAX_CHECKS = 16          # plans offered to Battle.check before settling for ending the turn


def stable_seed(*parts) -> int:
    text = "\x1f".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def _last(battle):
    return battle.actions[-1] if battle.actions else None


class AI:
    """Plays figures of any side. `choose(battle, figure_id) -> Action`; `last_decision` explains."""

    def __init__(self, difficulty: str = "normal", seed: int | None = None):
        self.level = level_named(difficulty)
        self.difficulty = difficulty
        self.seed = seed
        self.last_decision: Decision | None = None
        self.decisions: dict[str, Decision] = {}
        self._pending: dict | None = None       # the rest of the plan being played
        self._memo: dict = {}                   # answers kept across decisions of one battle
        self._memo_key = None

    # ----- the controller door -----
    @collector_held()
    def choose(self, battle, figure_id: str) -> Action:
        """The next action for this figure. Works on the live battle or on a private copy of it:
        the plan in progress is recognised by the battle's seed and action log, not its identity."""
        n = len(battle.actions)
        pend = self._pending
        if pend and pend["figure"] == figure_id and pend["seed"] == battle.setup.seed:
            if pend["at"] == n and pend.get("given") is not None and _last(battle) == pend["last"]:
                # The action we gave was refused (nothing changed): take the next plan.
                return self._next_after_refusal(battle, figure_id)
            if pend["at"] + 1 == n and _last(battle) == pend.get("given") and pend["rest"]:
                nxt = pend["rest"][0]
                if self._still_good(battle, figure_id, nxt):
                    pend.update(at=n, given=nxt, rest=pend["rest"][1:], last=_last(battle))
                    return nxt
        decision = self.decide(battle, figure_id)
        return self._give(battle, figure_id, decision, 0)

    def _give(self, battle, figure_id, decision: Decision, index: int) -> Action:
        """The first plan from `index` on whose first action the resolver accepts (Battle.check)."""
        tried = 0
        done = this_turn(battle, figure_id)
        for i in range(index, len(decision.plans)):
            plan = decision.plans[i]
            action = plan.actions[0]
            announced = action.kind == "charge" and battle.state_of(figure_id).announced_charge == action.target
            if action.kind in ("move", "turn", "set", "defend", "disengage", "aim", "charge") and action in done \
                    and not (announced and battle.current_phase != "declare"):
                plan.data["refused"] = "already done this turn"
                continue
            if action.kind != "end-turn":
                if tried >= MAX_CHECKS:
                    continue
                tried += 1
                refusal = battle.check(action)
                if refusal is not None:
                    plan.data["refused"] = refusal.words
                    if action.kind == "attack" and battle.current_phase in ("movement", "missile") and i == index:
                        # The strike it moved in for comes in a later phase of this number: wait for it.
                        wait = Plan((EndTurn(figure=figure_id),), f"wait for the attack phase ({refusal.words})",
                                    kind="wait", score=plan.score, reasons=list(plan.reasons))
                        decision.plans.insert(i + 1, wait)
                        decision.chosen = i + 1
                        self._pending = None
                        return wait.actions[0]
                    continue
            decision.chosen = i
            if action.kind == "hold":
                self._memo[("held", figure_id, battle.round)] = True
            self._pending = {"figure": figure_id, "seed": battle.setup.seed, "at": len(battle.actions),
                             "last": _last(battle), "given": action, "rest": list(plan.actions[1:]),
                             "decision": decision}
            return action
        self._pending = None
        end = next((k for k, p in enumerate(decision.plans) if p.actions[0].kind == "end-turn"), None)
        if end is not None:
            decision.chosen = end
        return EndTurn(figure=figure_id)

    def _next_after_refusal(self, battle, figure_id) -> Action:
        pend = self._pending
        decision: Decision = pend["decision"]
        refused = pend["given"]
        decision.plans[decision.chosen].data["refused"] = "refused when applied"
        nxt = decision.chosen + 1
        while nxt < len(decision.plans) and decision.plans[nxt].actions[0] == refused:
            nxt += 1
        if nxt >= len(decision.plans):
            self._pending = None
            return EndTurn(figure=figure_id)
        return self._give(battle, figure_id, decision, nxt)

    def _still_good(self, battle, figure_id, action: Action) -> bool:
        if action.kind == "end-turn":
            # An attack still to make (several attacks a round, or a foe in reach after the move):
            # think again rather than stop with a blow in hand.
            return not (battle.status(figure_id).attacks_left and
                        (self._pending["given"].kind == "attack" or _attack_allowed(battle, figure_id)))
        if action.kind == "attack":
            return battle.able(action.target) and battle.check(action) is None
        return False

    # ----- deciding -----
    def rng_for(self, battle, figure_id: str) -> random.Random:
        seed = self.seed if self.seed is not None else battle.setup.seed
        return random.Random(stable_seed(seed, figure_id, len(battle.actions), self.difficulty))

    def decide(self, battle, figure_id: str) -> Decision:
        t0 = time.perf_counter()
        key = (battle.setup.seed, id(battle.setup))
        if key != self._memo_key:
            self._memo, self._memo_key = {}, key
        rng = self.rng_for(battle, figure_id)
        searched = 0
        if self.level.naive:
            plans = naive_decision(battle, figure_id)
        else:
            ctx = Context(self.level, battle, figure_id, rng, self._memo)
            threats = Threats(ctx)
            plans = generate(ctx, threats)
            plans += weigh_objectives(ctx, threats, plans)
            plans.sort(key=rank_key)
            level = ctx.level                     # the level's own, or what it weighs on a big field
            for _ in range(2 if level.exact_plans else 0):
                # The best few get exact exposure; a plan that rises into them gets it too.
                fresh = [p for p in plans[: level.exact_plans] if not p.data.get("exact")]
                if not fresh:
                    break
                rescore_exactly(ctx, threats, fresh, level.sight_squares)
                if level.focus_fire:
                    for plan in fresh:
                        focus_fire(ctx, plan)
                plans.sort(key=rank_key)
            if level.search_plans:
                searched = search_ahead(ctx, threats, plans)
        decision = Decision(figure_id, battle.round, self.difficulty, plans, (time.perf_counter() - t0) * 1000,
                            searched=searched, moves=ctx.cache.get("search moves", 0) if searched else 0)
        self.last_decision = decision
        self.decisions[figure_id] = decision
        return decision


def _attack_allowed(battle, figure_id: str) -> bool:
    """The resolver would take an attack of this figure's (its ready weapon) on one of the nearest
    foes within the weapon's reach or range now. Only the few nearest are asked: a check is a
    question of its own, and on a field of hundreds a turn's end must not ask them all."""
    me = battle.figures[figure_id]
    far = battle.farthest_strike_ft(me)
    near = sorted((max(abs(f.x - me.x), abs(f.y - me.y)) * 5 - 5 * (max(f.footprint) + max(me.footprint) - 2), f.id)
                  for f in battle.figures.values() if f.side != me.side and battle.able(f.id))
    return any(battle.check(Attack(figure=figure_id, target=fid)) is None
               for gap, fid in near[:ATTACK_CHECKS] if gap <= far + 5)


__all__ = ["AI", "DIFFICULTIES", "LEVELS", "Decision", "Plan", "stable_seed"]
