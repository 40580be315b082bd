"""Warned before it fires (game/core/battle/foresight.py): what a preview's warnings name is what
`apply` then does, with the same odds, under all five rulesets; worked examples of the set spear
against a charge, a reach weapon striking a closing foe, and a trip over a drop.
"""
from __future__ import annotations

import random

import pytest

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from game.core.values.actions import Charge, Move, SetAgainstCharge, Trip
from game.core.values.events import EventKind

from battles import LEDGE, battle_at_turn, fig, make_battle, until_turn
from test_questions import fields

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                          HealthCheck.filter_too_much])
# The blows a walk may set off, by the warning's kind and the event's.
STRUCK = {"parting-shot": EventKind.PARTING_SHOT, "reach-attack": EventKind.REACH_ATTACK}


@SETTINGS
@given(fields(), st.integers(0, 10**6))
def test_the_blows_a_move_is_warned_of_are_the_blows_it_draws(b, seed):
    until_turn(b, "a")
    reach = b.reachable("a", "walk")
    ends = sorted(reach.ends - {b.figures["a"].pos})
    assume(ends)
    to = random.Random(seed).choice(ends)
    move = Move("a", to=to)
    preview = b.preview(move)
    assume(preview.allowed)
    warned = [(w.kind, w.actor) for w in preview.warnings if w.kind in STRUCK]
    # odnd: a move out of melee is a retreat, and the foe's roll decides whether its free attack comes
    certain = [(w.kind, w.actor) for w in preview.warnings
               if w.kind in STRUCK and (w.kind != "parting-shot" or b.free_attack_chance("a", w.actor) >= 1)]
    chances = {w.actor: b.free_attack_chance("a", w.actor) for w in preview.warnings if w.kind == "parting-shot"}
    events = b.apply(move)
    struck = [(kind, e.actor) for e in events for kind, ek in STRUCK.items() if e.kind == ek]
    for blow in struck:
        assert blow in warned, (blow, warned, [e.text for e in events])
    if b.able("a") and all(e.outcome != "hit" for e in events if e.kind in STRUCK.values()):
        assert set(certain) <= set(struck), (struck, certain)      # nothing cut the walk short
    for w in preview.warnings:
        if w.kind in STRUCK and w.breakdown is not None:
            comes = chances.get(w.actor, 1.0) if w.kind == "parting-shot" else 1.0
            assert w.chance == pytest.approx(w.breakdown.chance() * comes)
            assert (comes < 1) == ("retreat roll" in w.words)


def _knight_and_spear(rid: str = "bfrpg"):
    b = make_battle(rid, "\n".join(["." * 17] * 5), [
        fig("knight", "blue", 2, 2, "E", template="knight"),
        fig("pike", "red", 12, 2, "W", template="spearman")], seed=2)
    return b


def test_a_charge_into_a_set_spear_is_warned_with_the_spears_odds():
    """bfrpg Set Weapon Against Charge: the set spear strikes the charger as it arrives."""
    b = _knight_and_spear()
    assert (b.round, b.current) == (1, "pike")      # seed 2: the spearman acts first, the knight later
    b.apply(SetAgainstCharge("pike"))               # the set spear lasts the round it was set in
    assert (b.round, b.current) == (1, "knight")
    preview = b.preview(Charge("knight", target="pike"))
    assert preview.allowed
    spear = [w for w in preview.warnings if w.kind == "set-weapon"]
    assert len(spear) == 1 and spear[0].actor == "pike"
    assert ("strikes first" if spear[0].first else "at the same moment") in spear[0].words
    assert spear[0].rule.startswith("bfrpg:")
    assert 0 < spear[0].chance < 1 and "%" in spear[0].words
    events = b.apply(Charge("knight", target="pike"))
    fired = [e for e in events if e.kind == EventKind.SET_WEAPON_STRIKE]
    assert len(fired) == 1 and fired[0].actor == "pike"


def test_a_reach_weapon_is_warned_of_before_a_foe_closes_on_it():
    """bfrpg: a spear's 10 ft reach strikes a foe that closes on it, on the foe's number."""
    b = battle_at_turn("bfrpg", [fig("a", "blue", 2, 4, "E", template="foot"),
                                 fig("t", "red", 8, 4, "W", template="spearman")])
    assert b.current == "a"
    preview = b.preview(Move("a", to=(6, 4)))
    reach = [w for w in preview.warnings if w.kind == "reach-attack"]
    assert [w.actor for w in reach] == ["t"] and reach[0].square == (6, 4)
    far = b.preview(Move("a", to=(5, 4)))
    assert not [w for w in far.warnings if w.kind == "reach-attack"]   # 15 ft away: out of the spear's reach


def test_a_trip_off_a_ledge_is_warned_with_its_fall_and_the_fall_happens_when_it_works():
    """bfrpg: a figure tripped off the 20 ft wall-walk lands below and takes falling damage (2d6)."""
    b = battle_at_turn("bfrpg", [fig("a", "blue", 2, 4, "E"), fig("t", "red", 3, 4, "W")], bmap=LEDGE)
    trip = Trip("a", target="t", to=(4, 4))
    preview = b.preview(trip)
    assert preview.allowed and preview.manoeuvre.fall_ft == 20
    fall = [w for w in preview.warnings if w.kind == "fall"]
    assert len(fall) == 1 and fall[0].chance == preview.manoeuvre.chance and fall[0].square == (4, 4)
    assert "2d6" in fall[0].words and fall[0].rule.startswith("bfrpg:")
    for seed in range(40):                       # until a trip works: then it falls as warned
        trial = b.clone()
        trial.rng.seed(seed)
        events = trial.apply(trip)
        if trial.figures["t"].pos == (4, 4):
            assert any(e.kind == EventKind.FALL for e in events), [e.text for e in events]
            return
    raise AssertionError("no trip worked in 40 seeds at a 35% chance")
