"""Worked examples from the source documents, each citing its rule."""
from dataclasses import replace

from game.core.values.actions import Attack, EndTurn
from game.core.battle.budgets import attack_limit
from game.core.combat.attack import roll_attack
from game.core.combat.odds import d100_ranges, die_rules
from game.core.combat.damage import falling_dice
from game.core.combat.modifiers import AttackContext, attack_breakdown
from game.io.rulesets import load_ruleset

from battles import OPEN, fig, make_battle
from dice import ForcedDice


def test_cnc_charging_una_may_charge_an_orc_30_to_60_ft_away():
    """cnc:charging: move 30 ft, jog 60 ft: the orc must be 30 to 60 ft away."""
    for gap, legal in ((5, False), (25, False), (30, True), (45, True), (60, True), (65, False)):
        squares = gap // 5
        b = make_battle("cnc", "\n".join(["." * 20] * 3), [
            fig("una", "blue", 0, 1, "E", stats={"hp": 10}), fig("orc", "red", squares, 1, "W", stats={"hp": 10})])
        b.set_figure(replace(b.figures["una"], move_ft=30))
        lane = b.positioning().charge_lane("una", "orc")
        assert lane.legal is legal, (gap, lane.reason)
        assert lane.rule == "cnc:charging"


def test_spelljammer_hitting_sc_112_against_def_40():
    """spelljammer:hitting and critical-and-grievous-hits: SC 112 vs DEF 40 hits on <= 72, critical <= 11, grievous <= 4."""
    rs = load_ruleset("spelljammer")
    assert d100_ranges(die_rules(rs), 72) == (4, 11)
    b = make_battle("spelljammer", OPEN, [
        fig("vet", "blue", 2, 2, "E", template="hero", stats={"sc": 112}),
        fig("foe", "red", 3, 2, "W", template="foot", stats={"def": 40})])
    bd = attack_breakdown(b, "vet", "foe", AttackContext())
    assert bd.attack_total == 112 and bd.defense_total == 40 and bd.target_number == 72
    outcomes = {}
    for roll in (72, 73, 11, 12, 4, 5, 96, 3, 2, 1):
        res = roll_attack(b, bd, ForcedDice([roll, 5], then="fail"), b.profile("foe"), b.state_of("foe"))
        outcomes[roll] = (res.hit, res.critical)
    assert outcomes[72] == (True, "") and outcomes[73] == (False, "")
    assert outcomes[11] == (True, "critical") and outcomes[12] == (True, "")
    assert outcomes[4] == (True, "grievous") and outcomes[5] == (True, "critical")
    assert outcomes[96] == (False, "")          # 96-100 always miss
    assert outcomes[2] == (True, "grievous")    # within this SC's grievous range anyway
    assert outcomes[1] == (True, "grievous")


def test_spelljammer_automatic_results_at_low_strike_chance():
    """spelljammer:automatic-hits-and-misses: 03 hits, 02 crits, 01 grievous even when SC - DEF is below them."""
    b = make_battle("spelljammer", OPEN, [
        fig("a", "blue", 2, 2, "E", template="normal_man", stats={"sc": 10}),
        fig("t", "red", 3, 2, "W", template="foot", stats={"def": 60})])
    bd = attack_breakdown(b, "a", "t", AttackContext())
    assert bd.target_number < 0
    assert roll_attack(b, bd, ForcedDice([3, 4], then="fail"), b.profile("t"), b.state_of("t")).hit
    assert roll_attack(b, bd, ForcedDice([2, 4], then="fail"), b.profile("t"), b.state_of("t")).critical == "critical"
    assert roll_attack(b, bd, ForcedDice([1, 4], then="fail"), b.profile("t"), b.state_of("t")).critical == "grievous"
    assert not roll_attack(b, bd, ForcedDice([4], then="fail"), b.profile("t"), b.state_of("t")).hit


def test_cnc_falling_damage_18_ft_is_3d6_and_45_ft_is_10d6():
    """cnc:falling-damage: 1d6 for the first 10 ft, 2d6 for the next 10 ft, ... cumulative."""
    rs = load_ruleset("cnc")
    assert falling_dice(rs, 18)[0].text == "3d6"
    assert falling_dice(rs, 45)[0].text == "10d6"
    dice, dex_check, _ = falling_dice(rs, 8)
    assert dice.text == "1d6" and dex_check          # 6 to 10 ft: a dexterity check avoids it
    assert falling_dice(rs, 4)[0] is None


def test_odnd_8th_level_fighter_gets_8_attacks_against_normal_men():
    """odnd:misc-combat-rules: a fighter attacks normal men as many times a round as its level."""
    b = make_battle("odnd", OPEN, [
        fig("hero", "blue", 5, 5, "E", template="hero", stats={"hp": 60, "dex_mod": 5}),
        fig("m1", "red", 6, 5, "W", template="normal_man", stats={"hp": 200, "morale": 0}),
        fig("m2", "red", 6, 4, "W", template="normal_man", stats={"hp": 200, "morale": 0, "dex_mod": -5})], seed=3)
    while b.current != "hero":
        b.apply(EndTurn(b.current))
    for i in range(8):
        b.apply(Attack("hero", target="m1" if i % 2 else "m2"))
    assert b.state_of("hero").attacks_made == 8
    assert "no attacks left" in b.check(Attack("hero", target="m1")).words


def test_odnd_monster_attacks_normal_men_once_per_hit_die():
    """odnd:misc-combat-rules: a 6 HD troll attacks normal men 6 times a round."""
    b = make_battle("odnd", OPEN, [
        fig("troll", "red", 5, 5, "E", template="monster", stats={"hp": 60}),
        fig("man", "blue", 6, 5, "W", template="normal_man", stats={"hp": 300, "morale": 0})])
    assert attack_limit(b, "troll", "man") == 6


def test_ch17_critical_sub_table():
    """ch17:critical-hit: natural 20, then d20 + modifier: 1-10 regular, 11-15 maximum, 16-19 critical, 20 + condition."""
    b = make_battle("ch17", OPEN, [
        fig("a", "blue", 2, 2, "E", stats={"str_mod": 2}),
        fig("t", "red", 3, 2, "W", stats={"hp": 100})])
    bd = attack_breakdown(b, "a", "t", AttackContext())
    assert bd.damage == "1d8"
    # regular: d20 5 + 2 = 7 -> regular; damage die 3 + 2 STR
    res = roll_attack(b, bd, ForcedDice([20, 5, 3], then="fail"), b.profile("t"), b.state_of("t"))
    assert res.critical == "regular" and res.damage == 5
    # maximum: 10 + 2 = 12 -> 8 + 2
    res = roll_attack(b, bd, ForcedDice([20, 10, 1], then="fail"), b.profile("t"), b.state_of("t"))
    assert res.critical == "maximum" and res.damage == 10
    # critical: 15 + 2 = 17 -> roll 3 + max 8 + 2
    res = roll_attack(b, bd, ForcedDice([20, 15, 3], then="fail"), b.profile("t"), b.state_of("t"))
    assert res.critical == "critical" and res.damage == 13
    # 20: critical damage and a d4 condition: 3 is prone
    res = roll_attack(b, bd, ForcedDice([20, 18, 3, 4], then="fail"), b.profile("t"), b.state_of("t"))
    assert res.critical == "critical-condition" and res.condition == "prone" and res.damage == 14


def test_ch17_fumble_sub_table():
    """ch17:critical-miss: natural 1, then d20: 1-2 weapon breaks, ..., 16-20 just a miss."""
    b = make_battle("ch17", OPEN, [fig("a", "blue", 2, 2, "E"), fig("t", "red", 3, 2, "W", stats={"hp": 100})])
    bd = attack_breakdown(b, "a", "t", AttackContext())
    assert roll_attack(b, bd, ForcedDice([1, 2], then="fail"), b.profile("t"), b.state_of("t")).fumble == "weapon-breaks"
    assert roll_attack(b, bd, ForcedDice([1, 12], then="fail"), b.profile("t"), b.state_of("t")).fumble == "drop-weapon"
    res = roll_attack(b, bd, ForcedDice([1, 7, 19], then="fail"), b.profile("t"), b.state_of("t"))
    assert res.fumble == "sloppy" and not res.fumble_failed_check      # DEX check 19 >= DC 15
    assert roll_attack(b, bd, ForcedDice([1, 18], then="fail"), b.profile("t"), b.state_of("t")).fumble == "miss"


def test_bfrpg_critical_needs_a_confirming_hit():
    """bfrpg:critical-hits: a natural 20 threatens; a second roll that hits adds the maximum die and another roll."""
    b = make_battle("bfrpg", OPEN, [fig("a", "blue", 2, 2, "E"), fig("t", "red", 3, 2, "W", stats={"hp": 100})])
    bd = attack_breakdown(b, "a", "t", AttackContext())
    res = roll_attack(b, bd, ForcedDice([20, 18, 4, 5], then="fail"), b.profile("t"), b.state_of("t"))
    assert res.critical == "confirmed" and res.damage == 4 + 8 + 5
    res = roll_attack(b, bd, ForcedDice([20, 2, 4], then="fail"), b.profile("t"), b.state_of("t"))
    assert res.critical == "" and res.damage == 4


def test_odnd_natural_20_over_needed_reduces_damage():
    """odnd:misc-combat-rules: needing 22 and rolling a natural 20 hits, 2 points off the damage."""
    b = make_battle("odnd", OPEN, [fig("a", "blue", 2, 2, "E", template="normal_man"),
                                   fig("t", "red", 3, 2, "W", stats={"hp": 100, "ac": 22})])
    bd = attack_breakdown(b, "a", "t", AttackContext())
    assert bd.needed_on_die == 22
    res = roll_attack(b, bd, ForcedDice([20, 6], then="fail"), b.profile("t"), b.state_of("t"))
    assert res.hit and res.critical == "" and res.damage == 7 - 2


def test_cnc_hit_point_thresholds():
    """cnc:hit-points: 0 unconscious, -1..-6 grievously wounded, -7..-9 dying, -10 dead."""
    from game.core.combat.damage import hp_condition
    rs = load_ruleset("cnc")
    assert hp_condition(rs, 0, False, 0) == "unconscious"
    assert hp_condition(rs, -3, False, -3) == "grievously-wounded"
    assert hp_condition(rs, -8, False, -8) == "dying"
    assert hp_condition(rs, -10, False, -10) == "dead"
    assert hp_condition(rs, 1, False, 1) == ""
