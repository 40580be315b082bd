"""The AI's odds are the resolver's: one rules engine.

The AI scores an attack from a square it is not on with the Breakdown the resolver would roll
from there (`explain_attack(at=...)`, hypothetical positions), and turns it into a hit chance and
a damage distribution that match what `roll_attack` does face by face.
"""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.ai.context import Context
from game.ai.levels import LEVELS
from game.ai.odds import Odds
from game.core.values.actions import EndTurn, GmPlace
from game.core.combat.attack import roll_attack
from game.core.values.geometry import FACINGS
from battles import fig, make_battle
from dice import ForcedDice, every_outcome, the_roll

RULESETS = ("bfrpg", "odnd", "cnc", "ch17", "spelljammer")
TEMPLATES = ("foot", "spearman", "archer", "knight", "monster")
FIELD = "\n".join([
    "............",
    "....=.......",
    "....=..11...",
    "......122...",
    "..%%...11...",
    "..%%......T.",
    "............",
    "............",
])




def _battle(rid, a_template, t_template, a_pos, t_pos, t_facing, ally=None, seed=3):
    t_stats = {}
    if t_template == "fortress":        # a target only the die's automatic results can hit
        t_template, t_stats = "foot", {"ac": 30, "def": 150}
    figures = [fig("a", "blue", *a_pos, "N", template=a_template),
               fig("t", "red", *t_pos, FACINGS[t_facing], template=t_template, stats=t_stats)]
    if ally:
        figures.append(fig("ally", "blue", *ally, "N", template="foot"))
    return make_battle(rid, FIELD, figures, seed=seed)


def _free(b, pos):
    return (b.map.in_bounds(*pos) and not b.map.blocks_move[pos[1], pos[0]]
            and all(f.pos != pos for f in b.figures.values()))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(rid=st.sampled_from(RULESETS), a_t=st.sampled_from(TEMPLATES), t_t=st.sampled_from(TEMPLATES),
       t_pos=st.tuples(st.integers(3, 8), st.integers(2, 5)), t_facing=st.integers(0, 7),
       offset=st.sampled_from([(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1), (4, 2), (-5, 0)]),
       facing=st.integers(0, 7), ally=st.booleans())
def test_the_ais_odds_from_any_square_are_explains(rid, a_t, t_t, t_pos, t_facing, offset, facing, ally):
    at = (t_pos[0] + offset[0], t_pos[1] + offset[1])
    ally_pos = (t_pos[0] - offset[0], t_pos[1] - offset[1]) if ally else None
    rows = FIELD.split("\n")
    b = _battle(rid, a_t, t_t, (0, 7), t_pos, t_facing, ally_pos if ally_pos and 0 <= ally_pos[0] < 12
                and 0 <= ally_pos[1] < 8 and rows[ally_pos[1]][ally_pos[0]] in ".12" else None)
    if not _free(b, at):
        return
    ctx = Context(LEVELS["normal"], b, "a", random.Random(1), {})
    me_there = ctx.placed((at[0], at[1], facing, 0))
    for weapon in (None, *b.figures["a"].weapons[1:]):
        ai = ctx.odds(me_there, b.figures["t"], weapon, placed=(me_there,))
        bd = b.explain_attack("a", "t", weapon, at=at, facing=facing, surprise_round=b.round == 1)
        assert ai.breakdown == bd
        assert ai.p_hit == Odds.of(b, bd, ai.attacks).p_hit
        # ... and the same as the Breakdown the resolver reads once the figure really stands there.
        moved = b.clone()
        moved.apply(GmPlace("a", x=at[0], y=at[1], facing=FACINGS[facing]))
        assert moved.explain_attack("a", "t", weapon, surprise_round=b.round == 1).to_json() == bd.to_json()


def _hit_chance_by_rolling(b, bd) -> float:
    sides = 100 if bd.resolution == "d100" else 20
    hits = 0
    for face in range(1, sides + 1):
        result = roll_attack(b, bd, ForcedDice([face], then="lowest", clamp=True), b.profile(bd.target), b.state_of(bd.target))
        hits += result.hit
    return hits / sides


def _rolled(b, bd) -> tuple[float, dict]:
    """(chance to hit, damage of a hit) over every face of every die the roll draws."""
    rolled = every_outcome(the_roll(b, bd))
    p_hit = sum(p for key, p in rolled.items() if key[0] in ("hit", "parried"))
    damage: dict = {}
    for key, p in rolled.items():
        if key[0] in ("hit", "parried"):
            damage[key[1]] = damage.get(key[1], 0.0) + p / p_hit
    return p_hit, damage


@pytest.mark.parametrize("rid", RULESETS)
@pytest.mark.parametrize("a_t,t_t", [("foot", "foot"), ("knight", "archer"), ("monster", "spearman"),
                                     ("archer", "knight"), ("foot", "fortress")])
def test_the_ais_hit_chance_and_damage_are_the_rolls_criticals_included(rid, a_t, t_t):
    """The AI weighs a blow by the roll's own distribution: every face of the attack die, the
    critical and fumble dice, every roll of the damage dice (the AI kept a dice model of its own
    without criticals or bfrpg's over-20 reduction: 12% low under bfrpg)."""
    b = _battle(rid, a_t, t_t, (2, 6), (3, 6), 6)
    for weapon in dict.fromkeys(b.figures["a"].weapons):
        for charge in (False, True):
            bd = b.explain_attack("a", "t", weapon, charge=charge)
            odds = Odds.of(b, bd)
            if not bd.allowed:
                assert odds.p_hit == 0 and odds.expected(99) == 0, bd.lines()   # refused: no odds at all
                continue
            p_hit, damage = _rolled(b, bd)
            assert odds.p_hit == pytest.approx(p_hit), bd.lines()
            assert sorted(damage) == [v for v, _p in odds.damage], bd.lines()
            assert [pytest.approx(damage[v]) for v, _p in odds.damage] == [p for _v, p in odds.damage]
            mean = sum(v * p for v, p in damage.items())
            assert odds.expected(10_000) == pytest.approx(p_hit * mean * odds.attacks)


def test_the_chosen_attacks_odds_are_explains_from_where_it_strikes():
    b = _battle("bfrpg", "foot", "foot", (2, 6), (6, 6), 0)
    from game.ai import AI
    while b.current != "a":
        b.apply(EndTurn(b.current))
    ai = AI("normal")
    ai.choose(b, "a")
    plan = ai.last_decision.best
    assert plan.kind == "move-attack", ai.last_decision.explain()
    x, y, facing, _alt = plan.end
    bd = b.explain_attack("a", "t", at=(x, y), facing=facing, surprise_round=b.round == 1)
    assert plan.data["p_hit"] == Odds.of(b, bd).p_hit


@pytest.mark.parametrize("rid", ["odnd", "bfrpg", "ch17"])
@pytest.mark.parametrize("advantage", [1, -1])
def test_advantage_hit_chance_and_miss_margins_match_the_roll(rid, advantage):
    """d20 advantage (odnd: a fight opened from behind) keeps the better or worse of two dice: the
    AI's hit chance, and the resolver's chance of missing by less than a margin (a shot into a melee
    that strikes a friend), are the roll over every pair of faces."""
    from dataclasses import replace

    from game.core.combat.odds import near_miss_chance
    b = _battle(rid, "foot", "foot", (2, 6), (3, 6), 6)
    bd = replace(b.explain_attack("a", "t"), advantage=advantage)
    odds = Odds.of(b, bd)
    hits = near = 0
    for f1, f2 in itertools.product(range(1, 21), repeat=2):
        result = roll_attack(b, bd, ForcedDice([f1, f2, 1, 1, 1, 1], then="lowest", clamp=True))
        hits += result.hit
        near += (not result.hit) and 0 < result.margin < 4
    assert odds.p_hit == pytest.approx(hits / 400)
    assert near_miss_chance(bd, 4) == pytest.approx(near / 400)


@pytest.mark.parametrize("style,used", [("partial-defense", 0), ("total-defense", 0), ("total-defense", 2),
                                        ("partial-defense", 1)])
@pytest.mark.parametrize("t_t", ["foot", "knight"])
def test_a_parrying_targets_damage_is_the_parry_rolls_face_by_face(style, used, t_t):
    """bfrpg Parrying and Defensive Combat: a figure in a defensive stance parries a melee hit
    (d20 + AB, +2 with a shield, +4 in total defence, less for later parries) and, if the parry
    beats the attack roll, blocks (d4, d8 with a shield, + STR and a fighter's level): damage
    the block beats is absorbed. The AI's damage distribution is the roll's, parry included, over
    every attack face, damage roll, parry face and block face."""
    b = _battle("bfrpg", "foot", t_t, (2, 6), (3, 6), 6)
    state = b.state_of("t")
    state.defense, state.parries_used = style, used
    bd = b.explain_attack("a", "t")
    odds = Odds.of(b, bd)
    p_hit, damage = _rolled(b, bd)
    assert odds.p_hit == pytest.approx(p_hit)
    assert sorted((v, pytest.approx(p)) for v, p in damage.items()) == [(v, pytest.approx(p)) for v, p in odds.damage]
    if style == "partial-defense" and used:
        # One parry a round for a figure that is no fighter: the second hit is not parried.
        assert 0 not in dict(odds.damage) or b.profile("t")["fighter"]
