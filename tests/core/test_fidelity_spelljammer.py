"""Issue 27 (rules fidelity, third pass): spelljammer (seed 004), each test citing the section that
fails without its fix: a rider on a moving mount, withdrawing from a two-on-one, an ambush's damage."""
from __future__ import annotations

from dataclasses import replace

from game.core.combat.breakdown import AttackContext
from game.core.combat.modifiers import attack_breakdown
from game.core.values.actions import Attack, EndTurn, Move

from battles import OPEN, fig, make_battle, pair, until_turn


def _mods(bd) -> dict:
    return {m.key: m.value for m in bd.attack_mods}


# ----- 1: Ranged Modifiers, Movement Modifiers -----
def test_a_rider_carried_by_its_moving_mount_is_a_target_on_a_moving_mount_not_a_stationary_one():
    """spelljammer:movement-modifiers: a rider its mount carries 20 ft this round is 'on a moving mount'
    (-10); it was also 'stationary' (+10), the two cancelling."""
    b = make_battle("spelljammer", OPEN, pair(x=10, y=5, facing="W", side="red")
                    + [fig("archer", "blue", 1, 5, "E", template="archer")])
    still = _mods(attack_breakdown(b, "archer", "knight", AttackContext()))
    assert still.get("target-stationary") == 10 and "target-moving-mount" not in still
    until_turn(b, "knight", declare=True)
    b.apply(Move("knight", to=(6, 5)))               # the rider's declared move: its horse walks 20 ft
    assert b.state.move_orders["horse"].cost_ft == 20
    mods = _mods(attack_breakdown(b, "archer", "knight", AttackContext()))
    assert mods.get("target-moving-mount") == -10
    assert "target-stationary" not in mods and "target-running" not in mods


# ----- 8: Withdrawing From Melee, two on one -----
def _two_on_one(foe_strikes: str):
    """w and its ally against foe; in round 1 foe strikes `foe_strikes` (and nothing else happens); in
    round 2 w declares a walk out of the melee."""
    b = make_battle("spelljammer", OPEN, [
        fig("w", "blue", 4, 4, "E", stats={"hp": 200, "def": 0}), fig("ally", "blue", 5, 5, "N", stats={"hp": 200}),
        fig("foe", "red", 5, 4, "W", stats={"hp": 200, "sc": 10})])
    until_turn(b, "foe")
    b.apply(Attack("foe", target=foe_strikes))
    while b.round == 1:
        b.apply(EndTurn(b.current))
    until_turn(b, "w", declare=True)
    b.apply(Move("w", to=(1, 4)))
    while b.round == 2:
        b.apply(EndTurn(b.current))
    return [e for e in b.events if e.kind == "parting-shot" and e.target == "w"]


def test_a_foe_that_struck_the_withdrawer_gets_its_free_attack_though_an_ally_is_beside_it():
    """spelljammer:withdrawing-from-melee: in a two on one the withdrawer escapes the free attack only
    when the foe is concentrating solely on attacking the ally. This foe struck the withdrawer: it
    strikes as it withdraws (any ally in the foe's reach used to cancel it)."""
    shots = _two_on_one("w")
    assert len(shots) == 1 and shots[0].actor == "foe" and shots[0].rule == "spelljammer:withdrawing-from-melee"


def test_a_foe_attacking_only_the_ally_gets_no_free_attack():
    """spelljammer:withdrawing-from-melee: the foe struck only the ally: the withdrawer leaves freely."""
    assert _two_on_one("ally") == []


# ----- 10: Ambush, completely surprised -----
def test_a_completely_surprised_target_gives_plus_30_and_plus_2_damage():
    """spelljammer:ambush: 5x PER or worse is completely surprised: +30 SC and +2 damage on the surprise
    round (the +2 was missing). PER 1 makes any d100 of 5 or more a 5x result."""
    figures = [fig("a", "blue", 4, 4, "E", stats={"ambush": True}),
               fig("t", "red", 5, 4, "W", stats={"unaware": True, "per": 1, "prot": 0})]
    b = make_battle("spelljammer", OPEN, figures, seed=3)
    roll = next(e for e in b.events if e.kind == "surprise")
    assert roll.data["multiple"] == 5 and "+30 SC and +2 damage" in roll.text
    bd = attack_breakdown(b, "a", "t", AttackContext())
    assert _mods(bd)["ambush"] == 30
    assert [(m.key, m.value) for m in bd.damage_mods] == [("ambush", 2)]
    odds, without = bd.odds(), replace(bd, damage_mods=()).odds()
    crit = odds.p_critical / odds.p_hit                  # a critical or grievous hit doubles the +2 too
    assert abs(odds.mean_damage - without.mean_damage - (2 + 2 * crit)) < 1e-9
