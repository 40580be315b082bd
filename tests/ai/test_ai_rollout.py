"""Hard's rollouts (game/ai/rollout.py): its first plans are played on, on reseeded copies of the
battle, by a simple player; what followed re-ranks them. Nothing of it touches the battle or its
dice, the same battle gives the same choice, and a big field keeps the search alone."""
from __future__ import annotations

import random
from dataclasses import replace

from game.ai import AI
from game.ai import rollout
from game.ai.context import Context
from game.ai.decision import Plan
from game.ai.levels import LEVELS
from game.core.values.actions import Attack, EndTurn

from tests.ai.test_ai import make_battle, play_until_turn_of


def _duel(hp_foe=1):
    """Me beside a foe on its last hit point, a friend and another foe further off."""
    return make_battle("bfrpg", [
        {"id": "me", "side": "blue", "template": "foot", "x": 5, "y": 6, "facing": "E"},
        {"id": "pal", "side": "blue", "template": "foot", "x": 3, "y": 8, "facing": "E"},
        {"id": "foe", "side": "red", "template": "foot", "x": 6, "y": 6, "facing": "W", "stats": {"hp": hp_foe}},
        {"id": "foe2", "side": "red", "template": "foot", "x": 10, "y": 8, "facing": "W"},
    ])


def _player(level, seed):
    return AI(level, seed=seed)


def test_the_rollouts_put_first_the_plan_whose_continuations_went_better():
    """Ending the turn beside a foe on 1 hit point, scored (wrongly) above striking it: played on,
    the blow fells the foe whenever it hits, and the plan that strikes goes first."""
    b = _duel(hp_foe=1)
    play_until_turn_of(b, "me")
    level = replace(LEVELS["hard"], rollout_plans=2, rollouts=8)
    ctx = Context(level, b, "me", random.Random(3), {})
    idle = Plan((EndTurn(figure="me"),), "end the turn here", score=5.0, kind="hold", end=(5, 6, 2, 0))
    strike = Plan((Attack(figure="me", target="foe"), EndTurn(figure="me")), "attack foe", score=0.0,
                  kind="attack", end=(5, 6, 2, 0))
    plans = [idle, strike]
    assert rollout.roll_out(ctx, plans, _player) == 2
    assert plans[0] is strike
    runs, rolled, gain = strike.data["rollout"]
    assert (runs, rolled) == (8, 2) and gain > 0
    assert idle.data["rollout"][2] == 0                 # the gain is counted against the plan first before
    assert "played 8 continuations of each of 2 plans" in strike.data["rollout_words"]


def test_hard_plays_on_copies_and_never_the_real_dice():
    """The choice is the same whatever the battle's dice to come (its generator's state): the
    continuations roll from the AI's own generator; the battle is left as it was."""
    got = []
    for dice in (1, 99):
        b = _duel(hp_foe=6)
        play_until_turn_of(b, "me")
        b.rng.seed(dice)
        before = (list(b.actions), len(b.events), b.rng.getstate(),
                  {f: (s.hp, s.conditions) for f, s in b.states.items()})
        ai = AI("hard", seed=4)
        ai.choose(b, "me")
        after = (list(b.actions), len(b.events), b.rng.getstate(),
                 {f: (s.hp, s.conditions) for f, s in b.states.items()})
        assert before == after
        d = ai.last_decision
        assert d.rolled >= 2 and d.rollouts == LEVELS["hard"].rollouts
        got.append([(p.label, round(p.score, 9), p.data.get("rollout")) for p in d.plans])
    assert got[0] == got[1]
    assert any(r is not None for _l, _s, r in got[0])


def test_the_window_names_what_was_played_on():
    b = _duel(hp_foe=6)
    play_until_turn_of(b, "me")
    ai = AI("hard")
    ai.choose(b, "me")
    d = ai.last_decision
    assert f"played {d.rollouts} continuations of each of {d.rolled} plans" in d.explain()
    assert "continuations of each of" in d.best.words(b.figures)
    assert d.to_json()["rolled"] == d.rolled


def test_the_standing_counts_hit_points_and_figures_able():
    b = _duel(hp_foe=6)
    mine = sum(max(0, b.state_of(f).hp) + 0.5 * b.state_of(f).max_hp for f in ("me", "pal"))
    theirs = sum(max(0, b.state_of(f).hp) + 0.5 * b.state_of(f).max_hp for f in ("foe", "foe2"))
    assert rollout.standing(b, "blue") == mine - theirs
    assert rollout.standing(b, "red") == theirs - mine


def test_a_big_field_keeps_the_search_alone():
    figures = [{"id": f"b{i}", "side": "blue", "template": "foot", "x": 1 + i % 14, "y": 1 + i // 14, "facing": "S"}
               for i in range(14)]
    figures += [{"id": f"r{i}", "side": "red", "template": "foot", "x": 1 + i % 14, "y": 3 + i // 14, "facing": "N"}
                for i in range(14)]
    b = make_battle("bfrpg", figures)
    play_until_turn_of(b, "b0")
    assert len([f for f in b.figures if b.able(f)]) > rollout.FIELD
    ai = AI("hard")
    ai.choose(b, "b0")
    assert ai.last_decision.rolled == 0
    assert "continuations" not in ai.last_decision.explain()
