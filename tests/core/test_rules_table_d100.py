"""Worked examples for the named rules of the d100 document (seed 004, spelljammer) that had no test of
their own (issue 27: the rules table in docs/combat.md lists every rule, its section and its test)."""
from __future__ import annotations

import pytest

from game.core.battle import Battle, BattleSetup
from game.core.combat import rounds
from game.core.combat.damage import stun_threshold
from game.core.scenario import build_figures, validate_scenario_data
from game.core.values.actions import Aim, Attack, Defend, EndTurn
from game.core.values.ascii_map import parse_ascii_map
from game.core.values.cover import COVER_INDEX
from game.io.rulesets import load_ruleset

from battles import OPEN, fig, make_battle, until_turn
from dice import ForcedDice

RS = load_ruleset("spelljammer")


def att(bd) -> dict:
    return {m.key: m.value for m in bd.attack_mods}


def _to_act(figures, who="a", seed=1):
    b = make_battle("spelljammer", OPEN, figures, seed=seed)
    until_turn(b, who)
    return b


def test_in_a_nutshell_each_attack_rolls_its_own_initiative_and_a_tie_goes_a_segment_later():
    """spelljammer:in-a-nutshell and initiative: a roll per attack, 1d10 + DEX for the first, 1d8 for the
    second; the same number for both means the second goes 1 segment later."""
    b = make_battle("spelljammer", OPEN, [fig("v", "blue", 1, 1, template="hero", stats={"dex_mod": 2}),
                                          fig("f", "red", 8, 8)])
    b.state.phase = "act"
    slots, events = rounds.roll_attack_initiative(b, ForcedDice([6, 6, 5], then="fail"))
    mine = [e for e in events if e.actor == "v"]
    assert [e.total for e in mine] == [8, 7]                   # 6 + 2; 6 + 2 = 8 again: one segment later
    assert "1d10 6" in mine[0].text and "1d8 6" in mine[1].text and "one segment later" in mine[1].text


@pytest.mark.parametrize("face,order_ft,lost", [(1, 0, False), (1, 20, False), (1, 40, True)])
def test_initiative_at_minus_6_or_later_the_attack_is_lost(face, order_ft, lost):
    """spelljammer:initiative and the-initiative-round: an attack whose initiative comes to -6 or later is
    lost; spelljammer:move-and-attack: -5 to every roll after moving (under half the TMR), run-and-attack
    -7 (1 - 7 = -6: lost)."""
    b = make_battle("spelljammer", OPEN, [fig("v", "blue", 1, 1), fig("f", "red", 8, 8)])
    if order_ft:
        from game.core.battle.state import MoveOrder
        b.state.move_orders["v"] = MoveOrder((), "run" if order_ft == 40 else "walk", float(order_ft))
    b.state.phase = "act"
    _slots, events = rounds.roll_attack_initiative(b, ForcedDice([face], then="lowest"))
    mine = [e for e in events if e.actor == "v"]
    assert (mine[0].outcome == "lost") is lost, mine[0].text


def test_move_and_attack_halves_the_attacks_run_and_attack_keeps_half_rounded_up():
    """spelljammer:move-and-attack: up to half the TMR and still attack, losing half the attacks rounded
    down (2 or 3 lose one, 4 or 5 lose 2), -5 initiative; a 5 ft free move keeps them all. run-and-attack:
    up to the TMR at a run, -7 initiative, keep half rounded up (1-3: 1; 4-5: 2)."""
    assert [rounds.attacks_after_moving(RS, n, 40, 20)[0] for n in (1, 2, 3, 4, 5)] == [1, 1, 2, 2, 3]
    assert rounds.attacks_after_moving(RS, 2, 40, 20)[1].value == -5
    assert rounds.attacks_after_moving(RS, 3, 40, 5) == (3, None)
    assert rounds.attacks_after_moving(RS, 2, 40, 25)[0] == 0                  # more than half: no attack
    assert [rounds.attacks_after_moving(RS, n, 40, 40, "run")[0] for n in (1, 2, 3, 4, 5)] == [1, 1, 1, 2, 2]
    assert rounds.attacks_after_moving(RS, 2, 40, 40, "run")[1].value == -7
    assert rounds.attacks_after_moving(RS, 2, 40, 45, "run")[0] == 0


def test_run_and_attack_minus_25_strike_chance():
    """spelljammer:run-and-attack: -25 to the strike chance after running."""
    b = _to_act([fig("a", "blue", 3, 3, "E"), fig("t", "red", 4, 3, "W")])
    b.state_of("a").move_mode = "run"
    assert att(b.explain_attack("a", "t"))["ran"] == -25


def test_wound_modifiers_and_the_starting_hit_points_exception():
    """spelljammer:wound-modifiers: -10 at 20 hp or less, -20 at 10 or less, -30 at 5 or less; a figure that
    starts at one of these levels has no modifier until it reaches the next (18 hp: none until 10)."""
    b = _to_act([fig("a", "blue", 3, 3, "E", stats={"hp": 45}), fig("s", "blue", 3, 4, "E", stats={"hp": 18}),
                 fig("t", "red", 4, 3, "W", stats={"hp": 99})])
    for hp, want in ((21, None), (20, -10), (10, -20), (5, -30)):
        b.state_of("a").hp = hp
        assert att(b.explain_attack("a", "t")).get("wounds") == want, hp
    for hp, want in ((18, None), (15, None), (10, -20)):
        b.state_of("s").hp = hp
        assert att(b.explain_attack("s", "t")).get("wounds") == want, hp


def test_a_grievous_hit_costs_the_armour_1_prot():
    """spelljammer:critical-and-grievous-hits: a grievous hit does double damage, no PROT, and reduces the
    target's armour PROT by 1 until repaired."""
    b = _to_act([fig("a", "blue", 3, 3, "E"), fig("t", "red", 4, 3, "W", stats={"hp": 99, "prot": 3})])
    assert b.explain_attack("a", "t").soak == 3
    b.rng = ForcedDice([1, 4])                     # 01: always a potential grievous hit; 1d8 4, doubled
    events = b.apply(Attack("a", target="t"))
    assert events[0].data["critical"] == "grievous" and events[0].data["damage"] == 8
    assert any(e.kind == "grievous" for e in events)
    assert b.state_of("t").prot_lost == 1 and b.explain_attack("a", "t").soak == 2


def test_taking_damage_stun_levels_above_human_maximum():
    """spelljammer:taking-damage: stunned when one hit does more than CON; above CON 25 the table (26 -> 27,
    30 -> 35, 35 -> 45); +2 CON for large, +4 giant, +1 per 10 hp (or part) above 100."""
    prof = {"con": 14}
    assert stun_threshold(RS, prof, "medium", 30) == 14
    assert stun_threshold(RS, {"con": 26}, "medium", 30) == 27
    assert stun_threshold(RS, {"con": 30}, "medium", 30) == 35
    assert stun_threshold(RS, {"con": 35}, "medium", 30) == 45
    assert stun_threshold(RS, {"con": 20}, "large", 30) == 22 and stun_threshold(RS, {"con": 20}, "giant", 30) == 24
    assert stun_threshold(RS, {"con": 20}, "medium", 115) == 22


def test_target_stunned_plus_10():
    """spelljammer:target-stunned: +10 SC to hit a stunned target."""
    b = _to_act([fig("a", "blue", 3, 3, "E"), fig("t", "red", 4, 3, "W")])
    b.state_of("t").conditions["stunned"] = 0
    assert {m.key: m.value for m in b.explain_attack("a", "t").defense_mods}["target-condition"] == -10


def test_defending_trades_strike_chance_for_defense_two_for_one():
    """spelljammer:defending: give up SC for DEF 2 for 1, at most weapon rank x 5 of SC, fractions down: the
    document's 25 SC gives 12 DEF (rank 5); it may still attack at the reduced SC."""
    b = make_battle("spelljammer", OPEN, [fig("a", "blue", 3, 3, "E"), fig("d", "red", 4, 3, "W",
                                                                         stats={"weapon_rank": 5})])
    until_turn(b, "d", declare=True)
    assert b.check(Defend("d", style="defending", amount=26)).key == "defend.trade-range"     # rank 5: 25 at most
    b.apply(Defend("d", style="defending", amount=25))
    assert {m.key: m.value for m in b.explain_attack("a", "d").defense_mods}["stance"] == 12
    assert att(b.explain_attack("d", "a"))["stance"] == -25


def test_careful_aim_plus_15_and_the_aimer_is_a_stationary_target():
    """spelljammer:careful-aim: standing still to aim gives +15 SC to the shot (an attack's worth of time);
    anyone attacking the aimer gets the +10 target-stationary bonus."""
    b = _to_act([fig("a", "blue", 1, 3, "E", template="archer", stats={"attacks": 2}),
                 fig("t", "red", 9, 3, "W"), fig("c", "red", 2, 3, "W")], who="a")
    b.apply(Aim("a", target="t"))
    assert att(b.explain_attack("a", "t"))["aimed"] == 15
    assert att(b.explain_attack("c", "a"))["target-aiming"] == 10


def _sj_map(rows, layer, degree, squares, figures):
    bmap = parse_ascii_map("\n".join(rows))
    for x, y in squares:
        getattr(bmap, layer)[y, x] = COVER_INDEX[degree]
    data = validate_scenario_data({"ruleset": "spelljammer", "seed": 1, "map": {"ascii": "\n".join(rows)},
                                   "figures": figures}, "test")
    return Battle(BattleSetup(bmap, RS, tuple(build_figures(data, RS, bmap, "test")), 1))


@pytest.mark.parametrize("layer,degree,key,value", [("cover", "3/4", "cover", -20), ("concealment", "3/4",
                                                                                       "concealment", -10),
                                                     ("cover", "1/2", "cover", None)])
def test_cover_modifiers_soft_minus_10_hard_minus_20_when_more_than_half_hidden(layer, degree, key, value):
    """spelljammer:cover-modifiers: cover counts when more than half the body is hidden: hard -20, soft -10."""
    rows = ["." * 12] * 3
    b = _sj_map(rows, layer, degree, [(6, 1)], [fig("a", "blue", 1, 1, "E", template="archer"),
                                                 fig("t", "red", 7, 1, "W")])
    assert att(b.explain_attack("a", "t")).get(key) == value


@pytest.mark.parametrize("weapon,penalty", [("bow", -30), ("crossbow", -20)])
def test_using_a_ranged_weapon_in_melee(weapon, penalty):
    """spelljammer:using-a-ranged-weapon-in-melee: bows -30 SC, light or heavy crossbows -20."""
    b = _to_act([fig("a", "blue", 3, 3, "E", template="archer", weapons=[weapon]), fig("m", "red", 3, 4, "N"),
                 fig("t", "red", 9, 3, "W")])
    assert att(b.explain_attack("a", "t"))["missile-in-melee"] == penalty


@pytest.mark.parametrize("face,dex", [(2, -2), (1, -3)])
def test_a_critical_arrow_sticks_and_bleeds(face, dex):
    """spelljammer:critical-or-grievous-hits (ranged): a penetrating missile's critical sticks: an arrow -2
    DEX and 1 bleeding a round until removed; a grievous hit -1 DEX more."""
    b = _to_act([fig("a", "blue", 1, 3, "E", template="archer"),
                 fig("t", "red", 9, 3, "W", stats={"hp": 99, "def": 70})])
    assert b.explain_attack("a", "t").target_number == 25      # modified SC 25: grievous 01, critical 01-04
    b.rng = ForcedDice([face, 3])
    events = b.apply(Attack("a", target="t"))
    stuck = [e for e in events if e.kind == "stuck"]
    assert stuck and b.state_of("t").stuck == [[dex, 1]]
    while b.round == 1:
        b.apply(EndTurn(b.current))
    assert any(e.kind == "bleed" and e.actor == "t" for e in b.events)
