"""Worked examples for the named rules of the d20 documents that had no test of their own (issue 27: the
rules table in docs/combat.md lists every rule, its section and its test). Each test cites its section
(seeds: 000 bfrpg, 001 odnd, 002 cnc, 003 ch17)."""
from __future__ import annotations

import pytest

from game.core.combat import rounds
from game.core.values.actions import Attack, Defend, EndTurn, Move
from game.core.values.events import EventKind

from battles import OPEN, battle_at_turn, fig, make_battle, next_round, until_phase, until_turn
from dice import ForcedDice


def att(bd) -> dict:
    return {m.key: m.value for m in bd.attack_mods}


def dfn(bd) -> dict:
    return {m.key: m.value for m in bd.defense_mods}


def _surprise(rid, faces, victim_stats=None, foe_stats=None):
    """Roll round 1's surprise again with chosen dice: (events, whether the victim is surprised)."""
    b = make_battle(rid, OPEN, [fig("v", "blue", 1, 1, "E", stats={"unaware": True, **(victim_stats or {})}),
                                fig("f", "red", 8, 8, "W", stats=foe_stats or {})])
    b.state_of("v").conditions.pop("surprised", None)
    events = rounds.roll_surprise(b, ForcedDice(faces, then="fail"))
    return events, b.state_of("v").has("surprised")


# ----- bfrpg (000) -----
def test_bfrpg_order_of_play_surprise_then_initiative_then_turns():
    """bfrpg:order-of-play: surprise is checked, then the unsurprised roll initiative and act in order."""
    b = make_battle("bfrpg", OPEN, [fig("a", "blue", 1, 1, stats={"unaware": True}), fig("b", "red", 8, 8)])
    kinds = [e.kind for e in b.events]
    assert kinds.index("surprise") < kinds.index("initiative") < kinds.index("order")


@pytest.mark.parametrize("faces,stats,foes,surprised", [
    ([2], {}, {}, True), ([3], {}, {}, False),                     # 1-2 on d6
    ([4], {}, {"ambush": True}, True), ([5], {}, {"ambush": True}, False),   # an ambush: 1-4
    ([2], {"surprised_on": 1}, {}, False),                          # less likely (elves): the range less 1
])
def test_bfrpg_surprise_on_1_2_or_1_4_against_an_ambush(faces, stats, foes, surprised):
    """bfrpg:surprise: 1d6 per side, surprised on 1-2; well hidden ambushers surprise on 1-4; creatures less
    likely to be surprised have the range reduced by 1."""
    events, got = _surprise("bfrpg", faces, stats, foes)
    assert got is surprised and events[0].rule == "bfrpg:surprise"


def test_bfrpg_subdued_to_zero_is_unconscious_not_dead():
    """bfrpg:subduing-damage: the flat of the blade is -4 and half damage; reduced to 0 with some subduing
    damage taken, a character falls unconscious rather than dying."""
    b = battle_at_turn("bfrpg", [fig("a", "blue", 3, 3, "E", stats={"attack_bonus": 30}),
                                 fig("b", "red", 4, 3, "W", stats={"hp": 3})])
    bd = b.explain_attack("a", "b", subdue=True)
    assert att(bd)["subdue"] == -4 and bd.flat_of_blade
    b.rng = ForcedDice([15, 8])                   # hits; 1d8 8, halved: 4
    b.apply(Attack("a", target="b", subdue=True))
    assert b.state_of("b").has("unconscious") and not b.state_of("b").has("dead")


def test_bfrpg_movement_once_moved_and_attacked_no_more_movement():
    """bfrpg:movement-and-defense and the-combat: move up to 40 ft, then attack; after attacking no further
    movement until the next turn."""
    b = battle_at_turn("bfrpg", [fig("a", "blue", 1, 3, "E", stats={"hp": 30}), fig("b", "red", 4, 3, "W", stats={"hp": 30})])
    b.apply(Move("a", to=(3, 3)))
    b.apply(Attack("a", target="b"))
    assert b.check(Move("a", to=(2, 3))).key == "move.after-attack"


def test_bfrpg_initiative_phases_movement_then_missiles_then_melee():
    """bfrpg:initiative: within one number movement comes first, then missile fire, then hand-to-hand."""
    b = make_battle("bfrpg", OPEN, [fig("a", "blue", 1, 3, "E", template="archer", stats={"dex_mod": 0}),
                                    fig("b", "red", 9, 3, "W")])
    b.rng = ForcedDice([3, 3])
    next_round(b)
    assert [s.members for s in b.state.slots] == [["a", "b"]]
    seen = []
    while b.round == 2:
        seen.append((b.current, b.current_phase))
        if b.current == "a" and b.current_phase == "movement":
            assert b.check(Attack("a", target="b")).key == "attack.movement-phase"
        b.apply(EndTurn(b.current))
    assert [p for _w, p in seen] == ["movement", "movement", "missile"]      # b has no missile, no foe in reach


def test_bfrpg_a_helpless_foe_is_hit_automatically_for_double_the_maximum():
    """bfrpg:prone-and-helpless-opponents: melee strikes on a helpless opponent hit automatically for double
    the maximum damage: the document's 1d8+1 does 18."""
    b = battle_at_turn("bfrpg", [fig("a", "blue", 3, 3, "E", stats={"str_mod": 1, "attack_bonus": -10}),
                                 fig("b", "red", 4, 3, "W", stats={"hp": 30, "conditions": ["helpless"]})])
    bd = b.explain_attack("a", "b")
    assert bd.auto_hit == "helpless" and bd.odds().p_hit == pytest.approx(1.0)
    assert bd.odds().damage == ((18, 1.0),)


@pytest.mark.parametrize("face,careful,struck", [(10, False, "friend"), (9, False, None), (12, True, None)])
def test_bfrpg_firing_into_melee_a_near_miss_hits_the_friend(face, careful, struck):
    """bfrpg:firing-into-melee-or-at-a-moving-opponent: a shot at a foe in melee that misses by less than 4
    hits the friend it fights, unless the shooter takes -4 to be careful. AB +1, DEX +1, AC 15: a 10 totals
    12, missing by 3; a 9 misses by 4; careful, a 12 totals 10 and hits nobody."""
    b = battle_at_turn("bfrpg", [fig("a", "blue", 1, 3, "E", template="archer"), fig("t", "red", 7, 3, "W"),
                                 fig("f", "blue", 7, 4, "N", stats={"hp": 30})])
    bd = b.explain_attack("a", "t", careful=careful)
    assert ("into-melee" in att(bd)) is careful
    b.rng = ForcedDice([face, 4], then="seeded")
    events = b.apply(Attack("a", target="t", careful=careful))
    hit_friend = [e for e in events if e.kind == "friendly-fire"]
    assert bool(hit_friend) is (struck == "friend")
    if hit_friend:
        assert hit_friend[0].target == "f" and b.state_of("f").hp == 26


def test_bfrpg_shooting_at_a_target_that_ran_is_minus_2():
    """bfrpg:firing-into-melee-or-at-a-moving-opponent: a target that spent its last action running: -2."""
    b = battle_at_turn("bfrpg", [fig("a", "blue", 1, 3, "E", template="archer"), fig("t", "red", 9, 3, "W")])
    b.state_of("t").ran_last_action = True
    assert att(b.explain_attack("a", "t"))["target-running"] == -2


# ----- odnd (001) -----
@pytest.mark.parametrize("own,theirs,chance", [
    (2, 5, 5),      # 1) A surprises on 1-5, B normally surprised on 1-2: 1-5 (3: A surprises B on 1-5)
    (1, 5, 4),      # 2) A on 1-5, B extra alert (surprised only on 1): 1-4 (4: A surprises B only on 1-4)
    (2, 4, 4),      # 3) and 4) B surprises on 1-4, A normally surprised on 1-2: B surprises A on 1-4
])
def test_odnd_surprise_examples(own, theirs, chance):
    """odnd:surprise-examples: the sneakier party's number, shifted down by how much more alert than normal
    (1-2) the victims are; the four examples' six statements are these three cases."""
    surprised_on = [s for s in range(1, 7) if _surprise("odnd", [s], {"surprised_on": own},
                                                          {"surprises_on": theirs})[1]]
    assert surprised_on == list(range(1, chance + 1))


def test_odnd_melee_and_missile_abilities():
    """odnd:melee-attack and melee-damage: fighters add STR to hit and to damage; ranged-attack and
    ranged-damage: DEX to hit with bows and thrown weapons, DEX to bow damage, STR to thrown damage."""
    b = make_battle("odnd", "\n".join(["." * 12] * 3), [
        fig("f", "blue", 1, 1, "E", stats={"str_mod": 2, "dex_mod": 1}, weapons=["sword", "bow", "spear"]),
        fig("t", "red", 2, 1, "W"), fig("far", "red", 7, 1, "W")])
    sword = b.explain_attack("f", "t")
    assert att(sword)["ability"] == 2 and {m.key: m.value for m in sword.damage_mods}["ability"] == 2
    bow = b.explain_attack("f", "far", weapon="bow")
    assert att(bow)["ability"] == 1 and {m.key: m.value for m in bow.damage_mods}["ability"] == 1
    thrown = b.explain_attack("f", "far", weapon="spear")
    assert att(thrown)["ability"] == 1 and {m.key: m.value for m in thrown.damage_mods}["ability"] == 2


def test_odnd_high_ground_plus_1_and_minus_1_from_below():
    """odnd:high-ground: +1 to hit from the higher place, -1 from lower ground."""
    ledge = "\n".join(["........", "...1....", "........"])
    b = make_battle("odnd", ledge, [fig("up", "blue", 3, 1, "E"), fig("down", "red", 4, 1, "W")])
    assert att(b.explain_attack("up", "down"))["high-ground"] == 1
    assert att(b.explain_attack("down", "up"))["low-ground"] == -1


@pytest.mark.parametrize("terrain,degree,penalty", [("=", "1/2", -4), ('"', "1/4", -2)])
def test_odnd_cover_penalty_to_hit(terrain, degree, penalty):
    """odnd:cover-penalty-to-hit: 25% cover -2, 50% -4, 75% -6 (concealment counted the same)."""
    row = "." * 5 + terrain + "." * 6
    b = make_battle("odnd", "\n".join(["." * 12, row, "." * 12]), [
        fig("a", "blue", 1, 1, "E", template="archer"), fig("t", "red", 6, 1, "W")])
    mods = att(b.explain_attack("a", "t"))
    assert penalty in (mods.get("cover"), mods.get("concealment")), mods


def test_odnd_half_move_and_attack():
    """odnd:misc-combat-rules: not yet engaged, a figure may move half its Turn movement and attack, or move
    it all and not attack."""
    b = battle_at_turn("odnd", [fig("a", "blue", 1, 3, "E", stats={"hp": 30}), fig("b", "red", 9, 3, "W", stats={"hp": 30})])
    b.apply(Move("a", to=(7, 3)))                                   # 30 ft of 60
    assert b.check(Attack("a", target="b")) is None
    c = battle_at_turn("odnd", [fig("a", "blue", 0, 3, "E", stats={"hp": 30}), fig("b", "red", 9, 3, "W", stats={"hp": 30})])
    c.apply(Move("a", to=(8, 3)))                                   # 40 ft: more than half
    assert c.check(Attack("a", target="b")).key == "attack.moved-too-far"


def test_odnd_parry_plus_2_and_no_attacks():
    """odnd:misc-combat-rules: melee combatants may parry: +2 to defense that round, no attacks."""
    b = battle_at_turn("odnd", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W")], who="b")
    b.apply(Defend("b", style="parry"))
    assert dfn(b.explain_attack("a", "b"))["stance"] == 2
    assert b.check(Attack("b", target="a")).key == "attack.stance"


def test_odnd_crossbows_fire_every_other_round():
    """odnd:misc-combat-rules: crossbows fire every other round."""
    b = battle_at_turn("odnd", [fig("a", "blue", 1, 1, "E", template="archer", weapons=["crossbow"]),
                                fig("b", "red", 8, 1, "W", stats={"hp": 50})])
    b.apply(Attack("a", target="b"))
    next_round(b)
    until_phase(b, "a")
    assert b.check(Attack("a", target="b")).key == "attack.reloading"


def test_odnd_polearm_cancels_the_mounted_modifiers():
    """odnd:misc-combat-rules: mounted +1 against foes on foot, on foot -1 against mounted; both cancel when
    the one on foot holds a polearm or long spear."""
    b = make_battle("odnd", OPEN, [fig("k", "blue", 3, 3, "E", template="knight"), fig("s", "red", 4, 3, "W"),
                                   fig("p", "red", 3, 4, "N", weapons=["pike"])])
    assert att(b.explain_attack("k", "s"))["mounted"] == 1 and att(b.explain_attack("s", "k"))["mounted"] == -1
    assert "mounted" not in att(b.explain_attack("k", "p")) and "mounted" not in att(b.explain_attack("p", "k"))


@pytest.mark.parametrize("check,fumbled", [(4, True), (3, False)])
def test_odnd_a_natural_1_fumbles_when_a_d20_beats_the_level(check, fumbled):
    """odnd:misc-combat-rules: a natural 1 always misses; a d20 rolled after it, greater than the level of
    the one who missed, makes it a critical fumble (the table is not in the document: no attack next round)."""
    b = battle_at_turn("odnd", [fig("a", "blue", 3, 3, "E", stats={"level": 3}), fig("b", "red", 4, 3, "W")])
    b.rng = ForcedDice([1, check], then="fail")
    events = b.apply(Attack("a", target="b"))
    assert events[0].outcome == "miss"
    assert any(e.kind == "fumble" for e in events) is fumbled


def test_odnd_a_shield_only_against_two_attackers_and_flanking():
    """odnd:misc-combat-rules: a shield may only be used against 2 attackers; flanking attackers get +1 and
    the defender neither its shield nor its DEX against them."""
    b = make_battle("odnd", OPEN, [fig("t", "red", 4, 4, "N", stats={"dex_mod": 1, "shield_bonus": 1}),
                                   fig("a", "blue", 4, 3, "S"), fig("c", "blue", 3, 3, "S"), fig("f", "blue", 5, 4, "W")])
    b.state_of("t").shield_used_by = ["a", "c"]
    assert dfn(b.explain_attack("a", "t")).get("no-shield") is None            # one of the two it covers
    flank = b.explain_attack("f", "t")                                          # its right side
    assert att(flank)["flank"] == 1 and dfn(flank)["no-shield"] == -1 and dfn(flank)["no-dex"] == -1
    b.set_figure(b.figures["f"].moved_to(4, 2, 4))                             # a third in front: no shield left
    b.state_of("t").shield_used_by = ["a", "c"]
    assert dfn(b.explain_attack("f", "t"))["no-shield"] == -1


def test_odnd_fighting_withdrawal_plus_2_defense_minus_2_attack():
    """odnd:fighting-withdrawal: half speed, +2 to defense, attacks at -2."""
    b = battle_at_turn("odnd", [fig("a", "blue", 3, 3, "E", stats={"hp": 30}), fig("b", "red", 4, 3, "W", stats={"hp": 30})])
    b.apply(Move("a", to=(2, 3), mode="withdraw"))
    assert dfn(b.explain_attack("b", "a"))["withdrawal"] == 2
    assert att(b.explain_attack("a", "b"))["withdrawal"] == -2
    assert b.limits("a").move("withdraw").budget_ft == 30


def test_odnd_initiative_one_d6_per_side_and_ties_simultaneous():
    """odnd:encounter-order (6): each side (or group of foes) rolls one d6, highest first; the same roll acts
    simultaneously."""
    b = make_battle("odnd", OPEN, [fig("a1", "blue", 1, 1), fig("a2", "blue", 2, 1), fig("r1", "red", 8, 8),
                                   fig("r2", "red", 9, 8)])
    rolls = [e for e in b.events if e.kind == "initiative"]
    assert sorted(e.data["group"] for e in rolls) == ["blue", "red"]
    numbers = {f: n for f, n, _d in b.turn_order()}
    assert numbers["a1"] == numbers["a2"] and numbers["r1"] == numbers["r2"]


# ----- cnc (002) -----
@pytest.mark.parametrize("face,stats,ambush,surprised", [
    (15, {"level": 3}, False, False),        # 15 + 3 = 18: not surprised (base 18)
    (14, {"level": 3}, False, True),         # 17 < 18
    (9, {"level": 3, "wis_prime": True}, False, False),   # a prime attribute: base 12
    (13, {"level": 3, "wis_prime": True}, True, True),    # an ambush: -5 (16 - 5 = 11 < 12)
])
def test_cnc_surprise_is_a_wisdom_check(face, stats, ambush, surprised):
    """cnc:surprise: a wisdom check (d20 + level + WIS against 18, 12 for a prime attribute); the keeper may
    penalise it, up to -5, for a well hidden ambush."""
    events, got = _surprise("cnc", [face], stats, {"ambush": ambush})
    assert got is surprised and events[0].rule == "cnc:surprise"


def test_cnc_pummeling_1_2_subdual_modified_by_strength():
    """cnc:pummeling: d20 + STR + BtH to hit; 1-2 subdual damage, modified by strength; cnc:subdual-damage:
    one point in five is real."""
    b = battle_at_turn("cnc", [fig("a", "blue", 3, 3, "E", stats={"str_mod": 1}), fig("b", "red", 4, 3, "W")])
    bd = b.explain_attack("a", "b", weapon="fist")
    assert bd.damage == "1d2" and [v for v, _p in bd.odds().damage] == [2, 3] and bd.real_every == 5
    assert att(bd)["ability"] == 1


def test_cnc_shields_cover_one_two_or_three_attackers():
    """cnc:shields: a shield's +1 counts against one attacker (small), two (medium) or three (large)."""
    b = make_battle("cnc", OPEN, [fig("t", "red", 4, 4, "N", stats={"hp": 99, "shield": "small", "shield_bonus": 1}),
                                  fig("a", "blue", 4, 3, "S"), fig("c", "blue", 3, 4, "E")])
    b.state_of("t").shield_used_by = ["a"]
    assert dfn(b.explain_attack("c", "t"))["no-shield"] == -1
    b.profile("t")["shield"] = "medium"
    assert "no-shield" not in dfn(b.explain_attack("c", "t"))


def test_cnc_dexterity_lost_from_the_rear_and_the_flank_and_rear_bonuses():
    """cnc:dexterity (no DEX bonus against an attack from the rear, nor when surprised: the surprised kept
    it), cnc:rear-attack +2, cnc:flank-attack +1 (the left or right rear)."""
    b = make_battle("cnc", OPEN, [fig("t", "red", 4, 4, "N", stats={"dex_mod": 2}), fig("r", "blue", 4, 5, "N"),
                                  fig("f", "blue", 5, 5, "N")])
    rear = b.explain_attack("r", "t")
    assert att(rear)["rear"] == 2 and dfn(rear)["no-dex"] == -2
    flank = b.explain_attack("f", "t")
    assert att(flank)["flank"] == 1 and "no-dex" not in dfn(flank)
    b.state_of("t").conditions["surprised"] = 1                  # and none when surprised, from any side
    assert dfn(b.explain_attack("f", "t"))["no-dex"] == -2


def test_cnc_evade_plus_4_against_one_faced_opponent():
    """cnc:evade: announced before the round; +4 AC against one opponent it faces; no other action."""
    b = make_battle("cnc", OPEN, [fig("t", "red", 4, 4, "N"), fig("a", "blue", 4, 3, "S"), fig("c", "blue", 5, 3, "S")])
    until_turn(b, "t", declare=True)
    b.apply(Defend("t", style="evade"))
    assert dfn(b.explain_attack("a", "t"))["stance"] == 4
    b.state_of("t").defended_against = ["a"]
    assert "stance" not in dfn(b.explain_attack("c", "t"))


@pytest.mark.parametrize("rid,thrown,far_x,rule", [("cnc", "spear", 6, "cnc:weapon-damage"),
                                                  ("ch17", "dagger", 4, "ch17:damage")])
def test_strength_to_melee_and_thrown_damage_not_to_bows(rid, thrown, far_x, rule):
    """cnc:weapon-damage and ranged-combat: STR adjusts melee and thrown damage, not propelled missiles';
    ch17:damage: melee and thrown weapons add the STR bonus, bows and crossbows do not."""
    b = make_battle(rid, "\n".join(["." * 12] * 3), [
        fig("f", "blue", 1, 1, "E", stats={"str_mod": 2}, weapons=["sword", "bow", thrown]),
        fig("t", "red", 2, 1, "W"), fig("far", "red", far_x, 1, "W")])
    sword = b.explain_attack("f", "t")
    assert {m.key: m.value for m in sword.damage_mods}["ability"] == 2
    assert {m.key: m.value for m in b.explain_attack("f", "far", weapon=thrown).damage_mods}["ability"] == 2
    assert "ability" not in {m.key for m in b.explain_attack("f", "far", weapon="bow").damage_mods}


def test_cnc_subdual_with_a_weapon_is_full_damage_one_in_five_real():
    """cnc:subdual-damage: weapons used to subdue deal normal amounts, mostly temporary: one point in five real."""
    b = battle_at_turn("cnc", [fig("a", "blue", 3, 3, "E", stats={"attack_bonus": 30}), fig("b", "red", 4, 3, "W",
                                                                                          stats={"hp": 30})])
    bd = b.explain_attack("a", "b", subdue=True)
    assert max(v for v, _p in bd.odds().damage) == 8 and bd.real_every == 5
    b.rng = ForcedDice([10, 7])
    b.apply(Attack("a", target="b", subdue=True))
    assert (b.state_of("b").hp, b.state_of("b").subdual) == (29, 6)


def test_cnc_no_natural_20_a_foe_out_of_reach_of_the_die_is_never_hit():
    """cnc:melee-combat: d20 + BtH + STR at least the AC hits; the chapter has no natural 20 rule."""
    b = battle_at_turn("cnc", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W", stats={"ac": 40})])
    assert b.explain_attack("a", "b").chance() == 0.0


def test_cnc_situational_a_shot_at_a_fighting_foe_and_concealment():
    """cnc:situational-modifiers: a ranged attack against an opponent fighting in melee range -4; defender
    1/4 concealed -2 (light fog), 1/2 -4."""
    b = battle_at_turn("cnc", [fig("a", "blue", 1, 1, "E", template="archer"), fig("t", "red", 6, 1, "W"),
                               fig("f", "blue", 6, 2, "N")], bmap="\n".join(["." * 12, '.....".....', "." * 12]))
    mods = att(b.explain_attack("a", "t"))
    assert mods["into-melee"] == -4 and mods["concealment"] == -2


def test_cnc_a_charge_hit_first_is_negated():
    """cnc:charging: +2 damage and -4 AC for the round; if the defender hits the charger first the charge is
    negated: its attack still comes, without the extra damage."""
    b = make_battle("cnc", OPEN, [fig("c", "blue", 1, 3, "E"), fig("t", "red", 8, 3, "W")])
    bd = b.explain_attack("c", "t", charge=True)
    assert {m.key: m.value for m in bd.damage_mods}["charge"] == 2
    b.state_of("c").hit_by = ["t"]
    bd = b.explain_attack("c", "t", charge=True)
    assert "charge" not in {m.key for m in bd.damage_mods} and any("negated" in n for n in bd.notes)


# ----- ch17 (003) -----
@pytest.mark.parametrize("face,stats,ambush,surprised", [
    (13, {}, False, True), (12, {}, False, False),       # DC 13
    (10, {}, True, True),                                  # an ambush: +3 (13)
    (14, {"surprise_dc": 15}, False, False),               # elves: DC 15
    (15, {"surprise_dc": 15}, False, True),
])
def test_ch17_surprise_dc_13_elves_15_ambush_plus_3(face, stats, ambush, surprised):
    """ch17:determine-surprise: a DC roll per side, surprised on DC 13 (elves 15); an ambush gets +3."""
    events, got = _surprise("ch17", [face], stats, {"ambush": ambush})
    assert got is surprised and events[0].rule == "ch17:determine-surprise"


def test_ch17_parry_or_dodge_plus_2_ac_instead_of_an_attack():
    """ch17:parry-and-dodge: a defensive action instead of an attack: +2 AC."""
    b = battle_at_turn("ch17", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W")], who="b")
    b.apply(Defend("b", style="dodge"))
    assert dfn(b.explain_attack("a", "b"))["stance"] == 2


def test_ch17_flanked_by_an_ally_on_the_opposite_side():
    """ch17:flanking: a creature and an ally within 5 ft of the same enemy on opposite sides: +1 in melee."""
    b = make_battle("ch17", OPEN, [fig("t", "red", 4, 4, "N"), fig("a", "blue", 3, 4, "E"), fig("c", "blue", 5, 4, "W")])
    assert att(b.explain_attack("a", "t"))["flank"] == 1
    b2 = make_battle("ch17", OPEN, [fig("t", "red", 4, 4, "N"), fig("a", "blue", 3, 4, "E"), fig("c", "blue", 4, 3, "S")])
    assert "flank" not in att(b2.explain_attack("a", "t"))


@pytest.mark.parametrize("terrain,penalty", [('"', -1), ("%", -2)])
def test_ch17_cover_and_concealment_minus_1_to_minus_4(terrain, penalty):
    """ch17:cover-and-concealment: 25% concealed -1, 50% -2, 75% -3, 90% -4."""
    row = "." * 5 + terrain + "." * 6
    b = make_battle("ch17", "\n".join(["." * 12, row, "." * 12]), [
        fig("a", "blue", 1, 1, "E", template="archer"), fig("t", "red", 6, 1, "W")])
    assert att(b.explain_attack("a", "t")).get("concealment") == penalty


def test_ch17_a_missile_missing_into_a_melee_is_rolled_against_each_ally():
    """ch17:missiles-that-miss: a missile fired into a melee with allies that misses is rolled against each
    ally in turn (the shooter's normal bonus) until one is hit or none is left."""
    b = battle_at_turn("ch17", [fig("a", "blue", 1, 3, "E", template="archer"), fig("t", "red", 6, 3, "W"),
                                fig("ally", "blue", 5, 3, "E", stats={"hp": 30})])
    b.rng = ForcedDice([2, 19, 4])                  # misses t; against the ally 19: hit, 4 damage
    events = b.apply(Attack("a", target="t"))
    friendly = [e for e in events if e.kind == "friendly-fire"]
    assert friendly and friendly[0].target == "ally" and friendly[0].rule == "ch17:missiles-that-miss"


def test_ch17_hold_action_a_reach_weapon_strikes_a_closing_foe():
    """ch17:hold-action: a long-reach weapon may attack a closing opponent on that opponent's number."""
    b = battle_at_turn("ch17", [fig("s", "blue", 3, 3, "E", template="spearman", stats={"hp": 30}),
                                fig("m", "red", 8, 3, "W", stats={"hp": 30})], who="m")
    assert b.turn_still_to_come("s")                 # m acts first on this seed: s's number is still to come
    events = b.apply(Move("m", to=(5, 3)))
    assert any(e.kind == EventKind.REACH_ATTACK and e.actor == "s" for e in events)


def test_ch17_move_split_around_the_action():
    """ch17:move (17.0.1.1): a creature with a movement of 30 ft can move 10 ft, take an action, then move
    the other 20 ft."""
    b = battle_at_turn("ch17", [fig("a", "blue", 1, 3, "E", stats={"hp": 30}), fig("b", "red", 4, 3, "W", stats={"hp": 30})])
    assert b.figures["a"].move_ft == 30
    b.apply(Move("a", to=(3, 3)))                   # 10 ft
    b.apply(Attack("a", target="b"))
    assert b.check(Move("a", to=(3, 7))) is None     # the other 20 ft
    assert b.check(Move("a", to=(3, 8))).key == "move.too-far"


@pytest.mark.parametrize("charger_first,answers", [(False, True), (True, False)])
def test_ch17_set_weapon_against_charge_needs_equal_or_better_initiative(charger_first, answers):
    """ch17:set-weapon-against-charge (17.0.1.9): a spear braced against a charge deals double damage, if
    the one charged has equal or better initiative (both then act on the charger's number)."""
    b = make_battle("ch17", "\n".join(["." * 14] * 5), [
        fig("c", "blue", 1, 2, "E", template="spearman", stats={"hp": 40, "dex_mod": 0}),
        fig("s", "red", 7, 2, "W", template="spearman", stats={"hp": 40, "dex_mod": 0})])
    b.rng = ForcedDice([5, 3] if charger_first else [3, 3])
    next_round(b)
    from game.core.values.actions import Charge, SetAgainstCharge
    b.apply(SetAgainstCharge("s"))
    until_turn(b, "c")
    events = b.apply(Charge("c", target="s"))
    sets = [e for e in events if e.kind == EventKind.SET_WEAPON_STRIKE]
    assert bool(sets) is answers
    if sets:
        assert sets[0].rule == "ch17:set-weapon-against-charge"
        assert [m["value"] for m in sets[0].data["breakdown"]["damage_multipliers"]] == [2]


def test_ch17_charge_plus_2_to_hit_minus_2_ac_double_damage():
    """ch17:charge (17.0.1.8): +2 on the attack roll, -2 AC for the rest of the round, double damage on a hit."""
    b = make_battle("ch17", OPEN, [fig("c", "blue", 1, 3, "E", template="spearman"), fig("t", "red", 8, 3, "W")])
    bd = b.explain_attack("c", "t", charge=True)
    assert att(bd)["charge"] == 2 and [m.value for m in bd.damage_multipliers] == [2]
    b.state_of("c").charging = "t"
    assert dfn(b.explain_attack("t", "c"))["charged"] == -2
