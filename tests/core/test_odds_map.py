"""The odds map (Battle.odds_map, game/core/battle/odds_map.py): every square it shades holds what
moving there and attacking would give, under all five rulesets (the square's refusal or its
breakdown and odds, the same as `apply` then `preview`); what a waiting figure's turn would offer
is what it finds once its turn comes; a worked example from the documents.
"""
from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from game.core.values.actions import Attack, EndTurn, Move
from game.core.values.geometry import FACINGS
from game.core.values.lessons import LATER_PHASE

from battles import battle_at_turn, fig, until_turn
from test_questions import fields

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                          HealthCheck.filter_too_much])
SAMPLED = 6        # squares of each map walked to for real


def _same_attack(square, preview) -> None:
    """An odds-map square against the preview of the attack made there for real."""
    assert (preview.refusal is None) == square.allowed, (square.square, square.how, preview.refusal, square.refusal)
    if square.allowed:
        assert preview.breakdown.odds() == square.breakdown.odds()
        assert preview.breakdown.attack_mods == square.breakdown.attack_mods
        assert preview.breakdown.defense_mods == square.breakdown.defense_mods
    else:
        assert preview.refusal.key == square.refusal.key


@SETTINGS
@given(fields(), st.integers(0, 10**6))
def test_each_square_is_what_moving_there_and_attacking_gives(b, seed):
    until_turn(b, "a")
    odds = b.odds_map("a", "t")
    assert odds.its_turn
    stay = odds.at(b.figures["a"].pos)[0]
    now = b.preview(Attack("a", target="t"))
    if stay.when:       # its turn, but this ruleset's blows come in a later phase: the map says when
        assert now.refusal is not None and now.refusal.key in LATER_PHASE and now.refusal.words == stay.when
    else:
        _same_attack(stay, now)
    # Squares whose walk sets nothing off: the move applied for real leaves the battle as the map assumed.
    quiet = [s for s in odds.squares if s.how in ("walk", "run") and not s.warnings]
    for square in random.Random(seed).sample(quiet, min(SAMPLED, len(quiet))):
        trial = b.clone()
        trial.apply(Move("a", to=square.square, mode=square.how, facing=FACINGS[square.facing]))
        if trial.state.phase == "declare":
            continue                      # a declared move is walked across the segments: not checked here
        assert trial.figures["a"].pos == square.square
        if square.when:
            # The blow comes later this round: pass the others' turns (nobody moves) until it may come.
            for _ in range(60):
                if trial.current == "a" and trial.check(Attack("a", target="t")) is None or trial.round > b.round:
                    break
                if trial.current == "a" and trial.preview(Attack("a", target="t")).refusal.key not in (
                        "attack.movement-phase", "attack.missile-phase"):
                    break
                trial.apply(EndTurn(trial.current))
            assume(trial.round == b.round and trial.current == "a")
        _same_attack(square, trial.preview(Attack("a", target="t")))


@SETTINGS
@given(fields())
def test_a_waiting_figure_finds_on_its_turn_what_the_map_offered(b):
    assume(b.current != "a")
    before = b.odds_map("a", "t")
    assert not before.its_turn
    trial = b.clone()
    for _ in range(60):                 # the others pass; nobody moves
        if trial.current == "a" or trial.round > b.round:
            break
        trial.apply(EndTurn(trial.current))
    assume(trial.current == "a" and trial.round == b.round and trial.state.phase != "declare")
    assume(trial.check(Attack("a", target="t")) is None or trial.preview(Attack("a", target="t")).refusal.key
           not in ("attack.movement-phase", "attack.missile-phase"))
    now = trial.odds_map("a", "t")
    offered = {s.square: s for s in before.squares if s.how == "walk"}
    found = {s.square: s for s in now.squares if s.how == "walk"}
    for square in set(offered) & set(found):
        assert offered[square].allowed == found[square].allowed, square
        if found[square].allowed:
            assert offered[square].chance == found[square].chance, square


def test_the_rear_squares_are_the_best_in_the_corridor():
    """bfrpg: an attack from behind gets +2 (Encounter and Combat: "attacking from behind"); the
    spearman's best squares against a goblin facing west are the ones behind it."""
    b = battle_at_turn("bfrpg", [fig("a", "blue", 2, 4, "E", template="foot"),
                                 fig("t", "red", 6, 4, "W", template="foot")])
    odds = b.odds_map("a", "t")
    best = odds.best()
    assert best and all(s.square[0] == 7 for s in best), [s.square for s in best]
    rear = best[0]
    assert any(m.key == "rear" and m.value == 2 for m in rear.breakdown.attack_mods)
    front = odds.at((5, 4))[0]
    assert front.allowed and front.chance < rear.chance
    assert "from behind" in " ".join(rear.reasons) or "rear" in " ".join(rear.reasons)


def test_a_charge_lane_end_is_a_square_of_its_own_with_the_charge_bonus():
    b = battle_at_turn("bfrpg", [fig("a", "blue", 0, 4, "E", template="knight"),
                                 fig("t", "red", 15, 4, "W", template="foot")])
    odds = b.odds_map("a", "t")
    charges = [s for s in odds.squares if s.how == "charge"]
    assert len(charges) == 1 and charges[0].allowed
    assert any(m.key == "charge" for m in charges[0].breakdown.attack_mods)
    assert charges[0] in odds.best(), "a walk of 60 ft and a lance's 10 ft reach fall short of a foe 75 ft away"
    assert all(not s.allowed for s in odds.squares if s.how != "charge")
