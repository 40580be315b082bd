"""Hard's search (game/ai/search.py): its blow branches on the resolver's odds, the figures that act
before its next turn play their best plans on copies of the battle, the search has a fixed size,
and nothing of it touches the battle or peeks at its dice."""
from __future__ import annotations

import random

import pytest

from game.ai import AI
from game.ai import search
from game.ai.context import Context
from game.ai.decision import Plan
from game.ai.levels import LEVELS
from game.core.values.actions import EndTurn

from tests.ai.test_ai import make_battle, play_until_turn_of


def _line(hp_foe=12):
    """Two a side on open ground: me beside a foe, a friend behind me, another foe behind it."""
    return make_battle("bfrpg", [
        {"id": "me", "side": "blue", "template": "foot", "x": 5, "y": 6, "facing": "E"},
        {"id": "pal", "side": "blue", "template": "foot", "x": 4, "y": 7, "facing": "E"},
        {"id": "foe", "side": "red", "template": "foot", "x": 6, "y": 6, "facing": "W", "stats": {"hp": hp_foe}},
        {"id": "foe2", "side": "red", "template": "foot", "x": 8, "y": 7, "facing": "W"},
    ])


def _attack_plan(ctx, target):
    odds = ctx.odds(ctx.me, ctx.active[target])
    return Plan((EndTurn(figure=ctx.me.id),), "attack", kind="attack", end=(*ctx.me.pos, ctx.me.facing, 0),
                data={"target": target, "odds": odds})


@pytest.mark.parametrize("hp_foe", [2, 12])
def test_the_blow_branches_on_the_resolvers_odds(hp_foe):
    b = _line(hp_foe)
    play_until_turn_of(b, "me")
    ctx = Context(LEVELS["hard"], b, "me", random.Random(1), {})
    plan = _attack_plan(ctx, "foe")
    odds = plan.data["odds"]
    assert odds.p_hit == pytest.approx(odds.breakdown.odds().p_hit)      # the roll's own table
    got = search.outcomes(ctx, plan)
    assert sum(p for p, _b, _n in got) == pytest.approx(1.0)
    chance = {name: p for p, _b, name in got}
    hp = ctx.hp(ctx.active["foe"])
    p_fell = odds.p_kill(hp)
    p_hit = 1 - (1 - odds.p_hit) ** odds.attacks
    if p_fell >= search.LEAST_BRANCH:
        assert chance["fells"] == pytest.approx(p_fell)
        assert next(br for _p, br, n in got if n == "fells").gone == {"foe"}
    if p_hit - p_fell >= search.LEAST_BRANCH:
        assert chance["hits"] == pytest.approx(p_hit - p_fell)
        wounded = next(br for _p, br, n in got if n == "hits").hp["foe"]
        assert 0 < wounded < hp
    assert "misses" in chance


def test_a_plan_without_a_blow_has_one_branch():
    b = _line()
    play_until_turn_of(b, "me")
    ctx = Context(LEVELS["hard"], b, "me", random.Random(1), {})
    plan = Plan((EndTurn(figure="me"),), "end the turn here", kind="hold", end=(5, 6, 2, 0))
    assert [(p, n) for p, _b, n in search.outcomes(ctx, plan)] == [(1.0, "")]


def test_hard_searches_the_moves_to_come_and_says_so():
    b = _line(hp_foe=3)
    play_until_turn_of(b, "me")
    before = (list(b.actions), len(b.events), b.rng.getstate(), {f: (s.hp, s.conditions) for f, s in b.states.items()})
    ai = AI("hard")
    ai.choose(b, "me")
    d = ai.last_decision
    after = (list(b.actions), len(b.events), b.rng.getstate(), {f: (s.hp, s.conditions) for f, s in b.states.items()})
    assert before == after                    # searched on copies: the battle and its dice untouched
    assert d.searched >= 1 and 0 < d.moves <= search.NODES
    searched = [p for p in d.plans[: d.searched]]
    assert all(p.data.get("search") for p in searched)
    assert "searched" in d.explain() and "moves of friends and foes" in d.explain()
    best = d.best
    assert "moves after" in best.words(b.figures)
    # The plans searched lead, best first.
    scores = [p.score for p in searched]
    assert scores == sorted(scores, reverse=True)


def test_the_friends_and_foes_searched_are_the_ones_to_come_in_turn_order():
    b = _line()
    play_until_turn_of(b, "me")
    ctx = Context(LEVELS["hard"], b, "me", random.Random(1), {})
    order = search.actors(ctx)
    ids = [fid for fid, _w in order]
    assert "me" not in ids and set(ids) <= {"pal", "foe", "foe2"}
    turn = [fid for fid, _n, _acted in b.turn_order()]
    now = [fid for fid, w in order if w == 1.0]
    assert now == sorted(now, key=turn.index)          # in the order the resolver calls them
    for fid, w in order:
        assert w == 1.0 if b.turn_still_to_come(fid) else w == search.LATER_NEXT_ROUND
        if b.figures[fid].side == "blue":
            assert b.turn_still_to_come(fid)           # a friend that has acted waits for next round


def _big_field():
    """Fourteen foot soldiers a side in two lines: more than search.BIG_FIELD figures."""
    figures = [{"id": f"b{i}", "side": "blue", "template": "foot", "x": 1 + i % 14, "y": 1 + i // 14, "facing": "S"}
               for i in range(14)]
    figures += [{"id": f"r{i}", "side": "red", "template": "foot", "x": 1 + i % 14, "y": 3 + i // 14, "facing": "N"}
                for i in range(14)]
    return make_battle("bfrpg", figures)


def test_the_search_has_a_fixed_size_smaller_on_a_big_field():
    b = _big_field()
    play_until_turn_of(b, "b0")
    ai = AI("hard")
    ai.choose(b, "b0")
    assert len([f for f in b.figures if b.able(f)]) > search.BIG_FIELD
    assert ai.last_decision.moves <= search.NODES_BIG


def test_the_same_battle_gives_the_same_search():
    def decide():
        b = _line(hp_foe=5)
        play_until_turn_of(b, "me")
        ai = AI("hard")
        ai.choose(b, "me")
        d = ai.last_decision
        return [(p.label, round(p.score, 9), p.data.get("search")) for p in d.plans], d.moves
    assert decide() == decide()


def test_a_turn_of_several_choices_shares_one_budget():
    b = _line()
    play_until_turn_of(b, "me")
    memo: dict = {}
    ctx = Context(LEVELS["hard"], b, "me", random.Random(1), memo)
    assert search.nodes_for(ctx) == search.NODES
    search.spend(ctx, search.Budget(0, spent=search.TURN_NODES - 5))
    assert search.nodes_for(ctx) == 5                  # what the turn has left
    search.spend(ctx, search.Budget(0, spent=10))
    assert search.nodes_for(ctx) == 0


def test_on_a_big_field_a_sides_round_shares_one_budget():
    """However many figures fight, the side's search in a round has ROUND_NODES_BIG figures'
    decisions, so a round's cost does not grow with the figures it has."""
    b = _big_field()
    play_until_turn_of(b, "b0")
    memo: dict = {}
    ctx = Context(LEVELS["hard"], b, "b0", random.Random(1), memo)
    assert len(ctx.active) > search.BIG_FIELD
    assert ctx.level is LEVELS["hard"].big_field         # normal's breadth there, fewer plans searched
    assert search.nodes_for(ctx) == search.NODES_BIG
    search.spend(ctx, search.Budget(0, spent=search.ROUND_NODES_BIG - 3))
    other = Context(LEVELS["hard"], b, "b1", random.Random(1), memo)
    assert search.nodes_for(other) == 3                  # what the side's round has left
    foe = Context(LEVELS["hard"], b, "r0", random.Random(1), memo)
    assert search.nodes_for(foe) == search.NODES_BIG     # the other side's round is its own
    ais, spent, seen = {"blue": AI("hard"), "red": AI("hard")}, 0, []
    for _ in range(80):                                  # the first round, hard on both sides
        fid = b.current
        if b.round > 1 or fid is None:
            break
        side = b.figures[fid].side
        action = ais[side].choose(b, fid)
        decision = ais[side].last_decision
        if side == "blue" and decision is not None and not any(d is decision for d in seen):
            seen.append(decision)                        # (a plan's later steps decide nothing anew)
            spent += decision.moves
        b.apply(action)
    assert 0 < spent <= search.ROUND_NODES_BIG
