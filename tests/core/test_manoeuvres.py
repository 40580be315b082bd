"""Manoeuvres through the resolver: grapple, escape, release, drag, trip, push and overbear, each
the way its document has it, and refused (naming the ruleset) where a document has none.

Worked examples cite the document (seeds file id) and section: 000 bfrpg, 001 odnd, 002 cnc,
003 ch17, 004 spelljammer.
"""

import pytest

from game.core.values.actions import Attack, EndTurn, Escape, Grapple, Move, Overbear, Push, Release, Trip, action_from_json
from game.core.combat.manoeuvres import contest_outcome, special_ac
from game.core.values.events import EventKind

from battles import (LEDGE, OPEN, battle_at_turn, desperate_defender_on_a_cliff, fig, make_battle, next_round,
                     until_phase, until_turn)
from dice import ForcedDice

RULESETS = ("bfrpg", "odnd", "cnc", "ch17", "spelljammer")


def of_kind(events, kind):
    return [e for e in events if e.kind == kind]


# ----- refusals where a document has no such manoeuvre -----
@pytest.mark.parametrize("rid,action,what", [
    ("spelljammer", Grapple("a", target="b"), "grapple"),
    ("odnd", Trip("a", target="b"), "trip"),
    ("cnc", Trip("a", target="b"), "trip"),
    ("ch17", Trip("a", target="b"), "trip"),
    ("spelljammer", Trip("a", target="b"), "trip"),
    ("bfrpg", Push("a", target="b", to=(5, 3)), "push"),
    ("odnd", Push("a", target="b", to=(5, 3)), "push"),
    ("cnc", Push("a", target="b", to=(5, 3)), "push"),
    ("ch17", Push("a", target="b", to=(5, 3)), "push"),
    ("bfrpg", Overbear("a", target="b"), "overbear"),
    ("odnd", Overbear("a", target="b"), "overbear"),
    ("ch17", Overbear("a", target="b"), "overbear"),
    ("spelljammer", Overbear("a", target="b"), "overbear"),
])
def test_a_ruleset_without_the_manoeuvre_refuses_it_and_says_which(rid, action, what):
    b = make_battle(rid, OPEN, [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W")])
    refusal = b.check(action)
    assert refusal is not None and refusal.key == "manoeuvre.none"
    assert refusal.words.startswith(f"{rid} has no {what}")


@pytest.mark.parametrize("data", [
    {"action": "grapple", "figure": "a", "target": "b"},
    {"action": "trip", "figure": "a", "target": "b", "to": [4, 4]},
    {"action": "push", "figure": "a", "target": "b", "to": [5, 3]},
    {"action": "overbear", "figure": "a", "target": "b"},
    {"action": "escape", "figure": "a"},
    {"action": "release", "figure": "a"},
])
def test_manoeuvre_actions_round_trip_through_json(data):
    assert action_from_json(data).to_json() == data


# ----- bfrpg (000) Wrestling -----
def test_bfrpg_wrestling_hold_enters_the_square_and_held_is_minus_4_against_others_only():
    """000 wrestling: a melee attack roll; the attacker moves into the defender's space; the held figure
    has -4 AC against everyone but the holder (actions-allowed-to-the-defender)."""
    b = battle_at_turn("bfrpg", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W"), fig("c", "blue", 5, 3, "W")])
    b.rng = ForcedDice([15])                    # d20 15 + 1 AB = 16 vs AC 15
    events = b.apply(Grapple("a", target="b"))
    grab = of_kind(events, EventKind.GRAPPLE)[0]
    assert grab.outcome == "held" and grab.total == 16 and grab.target_number == 15
    assert grab.rule == "bfrpg:wrestling"
    assert b.figures["a"].pos == (4, 3) == b.figures["b"].pos
    assert b.state_of("b").held_by == ["a"] and b.state_of("a").holding == "b"
    other = b.explain_attack("c", "b")
    assert any(m.name == "target held" and m.value == -4 for m in other.defense_mods)
    holder = b.explain_attack("a", "b", weapon="fist")
    assert not any(m.name == "target held" for m in holder.defense_mods)


def test_bfrpg_held_figure_cannot_move_and_escapes_with_a_save_vs_death_ray():
    """000 actions-allowed-to-the-defender: immobile; at its next action a save vs Death Ray with the better of
    STR or DEX frees it, and it ends beside the holder."""
    b = battle_at_turn("bfrpg", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W", stats={"dex_mod": 2})])
    b.rng = ForcedDice([18])
    b.apply(Grapple("a", target="b"))
    until_phase(b, "b", ("all", "movement"))
    assert b.check(Move("b", to=(6, 3))).key == "grapple.held-no-move"
    b.rng = ForcedDice([10])                    # d20 10 + 2 DEX = 12 vs save 12: saves
    events = b.apply(Escape("b"))
    escape = of_kind(events, EventKind.ESCAPE)[0]
    assert escape.outcome == "free" and escape.total == 12 and escape.target_number == 12
    assert not b.state_of("b").held_by and "held" not in b.state_of("b").conditions
    holder, freed = b.figures["a"].pos, b.figures["b"].pos
    assert holder != freed and max(abs(holder[0] - freed[0]), abs(holder[1] - freed[1])) == 1


def test_bfrpg_holder_strikes_only_unarmed_and_drags_at_half_speed_with_an_attack_roll():
    """000 wrestling: a holder can't use a weapon; moving-the-opponent: half speed with another attack roll."""
    b = battle_at_turn("bfrpg", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W")])
    b.rng = ForcedDice([18])
    b.apply(Grapple("a", target="b"))
    next_round(b)
    until_phase(b, "a", ("all", "movement"))
    assert b.check(Move("a", to=(9, 3))).key == "grapple.drag-too-far"     # 25 ft > half of 40
    b.rng = ForcedDice([17])
    events = b.apply(Move("a", to=(7, 3)))
    drag = of_kind(events, EventKind.DRAG)[0]
    assert drag.outcome == "dragged"
    assert b.figures["a"].pos == (7, 3) == b.figures["b"].pos
    assert not of_kind(events, EventKind.PARTING_SHOT)
    until_phase(b, "a")
    assert b.check(Attack("a", target="b")).key == "grapple.unarmed-only"
    assert b.check(Attack("a", target="b", weapon="fist")) is None


def test_release_lets_go_and_the_holder_steps_back_out():
    b = battle_at_turn("bfrpg", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W")])
    b.rng = ForcedDice([18])
    b.apply(Grapple("a", target="b"))
    events = b.apply(Release("a"))
    assert of_kind(events, EventKind.RELEASE)
    assert b.figures["a"].pos == (3, 3) and not b.state_of("b").held_by
    assert b.check(Release("a")).key == "grapple.not-holding"


def test_bfrpg_trip_off_the_wall_walk_falls_prone_with_falling_damage():
    """000 tripping: prone up to 5 ft away where the attacker chooses, even off a ledge; the fall's damage is
    the ruleset's falling rule (bfrpg:choice-falling, 1d6 per 10 ft: 20 ft = 2d6)."""
    b = battle_at_turn("bfrpg", [fig("a", "blue", 2, 2, "E"), fig("b", "red", 3, 2, "W", stats={"hp": 30})],
                       bmap=LEDGE)
    assert b.check(Trip("a", target="b", to=(5, 2))).key == "trip.square"      # 10 ft: too far
    b.rng = ForcedDice([16, 3, 4])              # trip roll 16+1 = 17 vs 15; the fall 2d6 = 3 + 4
    events = b.apply(Trip("a", target="b", to=(4, 2)))
    trip = of_kind(events, EventKind.TRIP)[0]
    assert trip.outcome == "prone" and trip.rule == "bfrpg:choice-trip"
    assert b.figures["b"].pos == (4, 2) and b.state_of("b").has("prone")
    fall = of_kind(events, EventKind.FALL)[0]
    assert fall.data == {"fall_ft": 20, "damage": 7} and fall.rule == "bfrpg:choice-falling"
    assert b.state_of("b").hp == 23


# ----- odnd (001) Grappling Attacks -----
def test_odnd_grappling_worked_example_two_orcs_7_against_11_are_stunned_4_rounds():
    """001 grappling-attacks: 2 orcs that hit roll 2 and 5 (7); the level-3 hero rolls 3d6 = 11: both
    orcs are thrown off and stunned for 11 - 7 = 4 rounds."""
    b = battle_at_turn("odnd", [fig("orc1", "red", 3, 3, "E"), fig("orc2", "red", 5, 3, "W"),
                                fig("hero", "blue", 4, 3, "N", stats={"level": 3})], who="orc1")
    outcome = contest_outcome(b, ["orc1", "orc2"], "hero", 2 + 5, 11, [], "orcs 7 vs hero 11")
    assert outcome.outcome == "thrown-off" and outcome.margin == 4
    # Through the resolver: orc1 already holds the hero; orc2 hits, and the contest rolls for both.
    b.rng = ForcedDice([20, 2, 4, 4, 3])        # orc1 hits (nat 20); 1d6 2 vs hero 3d6 4+4+3 = 11: thrown off by 9
    b.apply(Grapple("orc1", target="hero"))
    assert b.state_of("orc1").thrown_off_until == b.round + 9


def test_odnd_grapple_pins_or_leaves_the_victim_struggling():
    """001 grappling-attacks: lower than the grapplers: pinned; equal: struggling, no weapon."""
    b = battle_at_turn("odnd", [fig("a", "red", 3, 3, "E"), fig("b", "blue", 4, 3, "W")])
    b.rng = ForcedDice([20, 4, 4])              # hit; 1d6 4 vs 1d6 4: struggling
    events = b.apply(Grapple("a", target="b"))
    assert of_kind(events, EventKind.GRAPPLE)[0].outcome == "struggling"
    assert b.state_of("b").has("struggling")
    until_phase(b, "b")
    assert b.check(Attack("b", target="a")).key == "grapple.unarmed-only"
    assert b.check(Attack("b", target="a", weapon="fist")) is None


# ----- cnc (002) Grappling, Overbearing -----
def test_cnc_grappling_special_ac_12_or_18_and_the_held_figure_is_prone_and_defenseless():
    """002 grappling: d20 + STR + BtH vs AC 12 (18 with strength as a prime), armour ignored; the held
    defender can only try to break free and counts as prone and defenseless (situational-modifiers +10)."""
    b = battle_at_turn("cnc", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W"),
                               fig("p", "red", 4, 5, "N", stats={"str_prime": True}), fig("c", "blue", 5, 3, "W")])
    assert special_ac(b, "a", "b")[0] == 12 and special_ac(b, "a", "p")[0] == 18
    b.rng = ForcedDice([11])                    # d20 11 + 0 STR + 1 BtH = 12 vs 12
    events = b.apply(Grapple("a", target="b"))
    assert of_kind(events, EventKind.GRAPPLE)[0].outcome == "held"
    assert b.figures["a"].pos == (3, 3)       # silent on squares: the holder stays
    assert any(m.name == "target held" and m.value == -10 for m in b.explain_attack("c", "b").defense_mods)
    until_phase(b, "b")
    assert b.check(Attack("b", target="a")).key == "grapple.held"
    assert b.check(Escape("b")) is None


def test_cnc_overbearing_prone_subdual_and_the_overbearer_exposed_but_not_two_sizes_up():
    """002 overbearing: the grappling AC plus the defender's BtH; prone for the round and 1-2 subdual; the
    attacker -2 AC for the round; a defender two sizes larger cannot be knocked over."""
    b = battle_at_turn("cnc", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W"),
                               fig("g", "red", 2, 3, "E", size="giant")])
    assert b.check(Overbear("a", target="g")).key == "overbear.too-large"
    b.rng = ForcedDice([13, 2])                 # 13 + 1 = 14 vs 12 + 1 BtH = 13; 1d2 = 2
    events = b.apply(Overbear("a", target="b"))
    over = of_kind(events, EventKind.OVERBEAR)[0]
    assert over.outcome == "prone" and over.target_number == 13
    assert b.state_of("b").has("prone") and b.state_of("b").subdual == 2
    assert any(m.name == "target overbearing" and m.value == -2 for m in b.explain_attack("g", "a").defense_mods)


# ----- ch17 (003) Grappling / Wrestling -----
def test_ch17_touch_attack_then_grapple_checks_with_size_modifiers():
    """003 grappling-wrestling: touch attack, then both roll d20 + STR or DEX + size (large +4); highest keeps."""
    b = battle_at_turn("ch17", [fig("a", "blue", 3, 3, "E", size="large"), fig("b", "red", 4, 3, "W")])
    b.rng = ForcedDice([12, 10, 13])            # touch 12+1 = 13 vs 10; checks 10+4 = 14 vs 13: kept
    events = b.apply(Grapple("a", target="b"))
    grab = of_kind(events, EventKind.GRAPPLE)[0]
    assert grab.outcome == "held" and "+4 size = 14" in grab.text
    assert b.figures["a"].pos == b.figures["b"].pos


# ----- spelljammer (004) Desperate Defense -----
def test_spelljammer_desperate_defender_is_pushed_off_the_cliff():
    """004 desperate-defense: the opponent may force the defender up to 10 ft in any direction, even off a
    cliff; the fall is the engine's falling damage (the document gives none)."""
    b = desperate_defender_on_a_cliff({"hp": 40})
    assert b.check(Push("a", target="b", to=(6, 3))).key == "push.square"   # 15 ft
    events = b.apply(Push("a", target="b", to=(5, 3)))
    push = of_kind(events, EventKind.PUSH)[0]
    assert push.rule == "spelljammer:desperate-defense" and push.data["drop_ft"] == 25
    assert b.figures["b"].pos == (5, 3)
    assert of_kind(events, EventKind.FALL)[0].data["fall_ft"] == 25


def test_spelljammer_push_needs_a_desperate_defender():
    b = make_battle("spelljammer", OPEN, [fig("a", "blue", 2, 3, "E"), fig("b", "red", 3, 3, "W")])
    for _ in range(20):
        if b.current == "a" and b.state.phase != "declare":
            break
        b.apply(EndTurn(b.current))
    assert b.check(Push("a", target="b", to=(4, 3))).key == "push.not-desperate"



# ----- forced movement: a routed figure's flight -----
def test_a_routed_figure_runs_for_the_nearest_edge_on_its_turn_and_leaves_over_it():
    """001 encounter-order: morale 2d6 after the first death; a side that fails is routed: it does not vanish,
    it runs (leaving-the-map choice) toward the nearest edge on its own turns and leaves over it."""
    b = make_battle("odnd", OPEN, [fig("h", "blue", 8, 4, "E", template="hero", stats={"hp": 500}),
                                   fig("m1", "red", 9, 4, "W", template="normal_man", stats={"hp": 1, "morale": 7}),
                                   fig("m2", "red", 9, 7, "W", template="normal_man", stats={"hp": 20, "morale": 7})])
    until_phase(b, "h")
    b.rng = ForcedDice([15, 6, 6, 6])          # hit, damage 6 fells m1; morale 2d6 12 > 7: the side breaks
    events = b.apply(Attack("h", target="m1"))
    assert "flees" in [e.outcome for e in events if e.kind == EventKind.MORALE]
    assert b.state_of("m2").has("routed") and b.able("m2")
    assert b.is_over                          # no red figure stands its ground
    assert b.figures["m2"].pos == (9, 7)      # it has not vanished: it runs on its turns


def test_a_routed_figure_flight_is_taken_on_its_turn():
    b = make_battle("odnd", OPEN, [fig("h", "blue", 3, 4, "E", template="hero", stats={"hp": 500}),
                                   fig("m2", "red", 12, 6, "W", template="normal_man", stats={"hp": 20}),
                                   fig("m3", "red", 2, 2, "W", template="normal_man", stats={"hp": 20})])
    from game.core.battle.rout import flight
    from game.core.battle.turns import flee
    b.state_of("m2").conditions["routed"] = 0
    events = flight(b, "m2", flee)
    assert events[0].kind == EventKind.FLEE and events[0].outcome == "runs"
    moves = [e for e in events if e.kind == EventKind.MOVE]
    pace = "run" if b.ruleset.section("movement")["run_multiplier"] > 1 else "walk"
    assert moves and moves[0].data["mode"] == pace
    assert b.figures["m2"].x > 12 or b.figures["m2"].y > 6     # away toward the nearest edge (east or south)
    if b.figures["m2"].x == 15 or b.figures["m2"].y == 9:
        assert b.state_of("m2").has("fled")


def test_the_bundled_wall_walk_script_trips_a_raider_into_the_bailey():
    """maps/wall_walk.toml's [[actions]]: 000 tripping off a ledge, 20 ft down (bfrpg:choice-falling)."""
    from pathlib import Path

    from game.core.battle import Battle
    from game.core.script import parse_script, run_script
    from game.io.scenarios import load_scenario
    path = Path(__file__).resolve().parents[2] / "maps" / "wall_walk.toml"
    scenario = load_scenario(path)
    b = Battle.from_scenario(scenario)
    events = run_script(b, parse_script(scenario.actions, str(path), list(b.figures)), str(path))
    trip = of_kind(events, EventKind.TRIP)[0]
    assert trip.outcome == "prone" and trip.data["to"] == [9, 3]
    assert of_kind(events, EventKind.FALL)[0].data["fall_ft"] == 20
    assert b.figures["raider2"].pos == (9, 3) and b.state_of("raider2").has("prone")


# ----- forced and reactive movement: spelljammer Attack and Move -----
def test_spelljammer_attack_then_move_worked_example_last_attack_on_3_with_a_4x_dex_roll_does_not_move():
    """004 attack-and-move: last attack on segment 3 and a 4x DEX roll: 3 - 4 = -1, no move (the document's
    own example); before initiative 10 it moves from 10; a 2x roll on 7 starts on 5."""
    from game.core.battle.segments import start_after_attack
    from game.core.battle.state import MoveOrder
    b = make_battle("spelljammer", OPEN, [fig("a", "blue", 3, 3, "E", stats={"dex": 10}), fig("b", "red", 8, 3, "W")])
    cases = [(3, [35], -1), (12, [], 10), (7, [15], 5), (5, [60], -1)]   # 35 = 4x DEX 10; 15 = 2x; 60 = 5x or worse
    for number, rolls, start in cases:
        b.state.move_orders["a"] = MoveOrder((), "walk", 10.0, after_attack=True)
        events = start_after_attack(b, "a", number, ForcedDice(rolls))
        assert b.state.move_orders["a"].start_segment == start, (number, rolls)
        assert events[0].rule == "spelljammer:choice-dex-roll"


def test_spelljammer_attack_then_move_through_the_resolver_walks_after_the_last_attack():
    """004 attack-and-move: declared at the start of the round, up to half the TMR; the last attack before
    initiative 10 starts the move on segment 10, 1/20 of the TMR a segment."""
    b = make_battle("spelljammer", OPEN, [fig("a", "blue", 3, 3, "E", stats={"dex_mod": 3}), fig("b", "red", 4, 3, "W")])
    until_turn(b, "a", declare=True)
    half = b.figures["a"].move_ft / 2
    assert b.check(Move("a", to=(3, 8), mode="after-attack")).key == "move.after-attack-too-far"
    b.apply(Move("a", to=(1, 3), mode="after-attack"))
    b.rng = ForcedDice([10, 1])                # initiative: a 10 + 3 DEX = 13 (before the segments), b 1
    for _ in range(10):
        if b.current == "a" and b.state.phase == "act":
            break
        b.apply(EndTurn(b.current))
    assert b.figures["a"].pos == (3, 3)
    events = b.apply(Attack("a", target="b"))
    start = [e for e in events if e.kind == EventKind.DECLARE_MOVE]
    assert start and start[0].data["start_segment"] == 10
    start_round = b.round
    while b.round == start_round:
        b.apply(EndTurn(b.current))
    assert b.figures["a"].pos == (1, 3) and half >= 10


def test_bfrpg_at_most_four_wrestle_one_figure_larger_ones_counting_double():
    """000 wrestling (Multiple Opponents): up to four on one figure; smaller count half, larger double."""
    figures = [fig("t", "red", 5, 5, "N", stats={"ac": 1})] + [
        fig(f"w{i}", "blue", x, y, "N", size=size) for i, (x, y, size) in
        enumerate([(4, 4, "large"), (5, 4, "medium"), (6, 4, "medium"), (4, 5, "small"), (6, 5, "medium")])]
    b = make_battle("bfrpg", OPEN, figures)
    holders = []
    for wid in ("w0", "w1", "w2", "w3", "w4"):
        until_phase(b, wid)
        refusal = b.check(Grapple(wid, target="t"))
        if refusal is not None:
            assert refusal.key == "grapple.too-many" and wid == "w3"        # large 2 + 1 + 1 = 4: even a small one is too many
            break
        b.rng = ForcedDice([19])
        b.apply(Grapple(wid, target="t"))
        holders.append(wid)
    assert holders == ["w0", "w1", "w2"]
    assert b.state_of("t").held_by == holders


def test_a_hold_survives_a_save_and_undo_takes_it_back():
    b = battle_at_turn("bfrpg", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W")], seed=1)
    b.apply(Grapple("a", target="b"))          # seed 1: the wrestling roll succeeds (the save replays the same dice)
    assert b.state_of("b").held_by == ["a"]
    from game.core.battle import Battle
    again = Battle.from_save_data(b.to_save_data())
    assert again.state_of("b").held_by == b.state_of("b").held_by
    assert again.figures["a"].pos == b.figures["a"].pos
    b.undo()
    assert not b.state_of("b").held_by and b.figures["a"].pos == (3, 3)


def test_cnc_a_held_figure_breaks_free_with_its_own_grappling_attack():
    """002 grappling: the defender breaks the hold by making its own successful grappling attack."""
    b = battle_at_turn("cnc", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W")])
    b.rng = ForcedDice([15])
    b.apply(Grapple("a", target="b"))
    until_phase(b, "b", ("all", "movement"))
    b.rng = ForcedDice([11])                    # 11 + 0 STR + 1 BtH = 12 vs a's special AC 12
    escape = of_kind(b.apply(Escape("b")), EventKind.ESCAPE)[0]
    assert escape.outcome == "free" and escape.rule == "cnc:grappling" and escape.target_number == 12
    assert not b.state_of("b").held_by and not b.state_of("a").holding


def test_ch17_escape_is_the_grapple_check_again_ties_to_the_held_figure():
    """003 grappling-wrestling has no escape (choice-grapple-sizes): the grapple checks again; a tie breaks it."""
    b = battle_at_turn("ch17", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W")])
    b.rng = ForcedDice([15, 15, 3])              # touch hits; checks 15 vs 3: kept
    b.apply(Grapple("a", target="b"))
    assert b.state_of("b").held_by == ["a"]
    until_phase(b, "b", ("all", "movement"))
    b.rng = ForcedDice([9, 9])                  # holder 9 vs held 9: a tie goes to the defender
    escape = of_kind(b.apply(Escape("b")), EventKind.ESCAPE)[0]
    assert escape.outcome == "free" and escape.rule == "ch17:choice-grapple-sizes"
    assert b.figures["a"].pos != b.figures["b"].pos


def test_odnd_escape_rolls_the_contest_again_and_a_higher_roll_throws_the_grappler_off():
    b = battle_at_turn("odnd", [fig("a", "red", 3, 3, "E"), fig("b", "blue", 4, 3, "W")])
    b.rng = ForcedDice([20, 5, 2])              # hit; 1d6 5 vs 1d6 2: pinned
    b.apply(Grapple("a", target="b"))
    assert b.state_of("b").has("pinned")
    until_phase(b, "b", ("all", "movement"))
    assert b.check(Attack("b", target="a")).key == "grapple.held"
    b.rng = ForcedDice([1, 6])                  # 1 vs 6: thrown off, stunned 5 rounds
    events = b.apply(Escape("b"))
    assert of_kind(events, EventKind.ESCAPE)[0].outcome == "free"
    assert of_kind(events, EventKind.STUNNED)[0].data["rounds"] == 5
    assert not b.state_of("b").held_by and not b.state_of("b").has("pinned")


def test_a_routed_figure_held_in_a_grapple_cannot_run():
    from game.core.battle.rout import flight
    from game.core.battle.turns import flee
    b = battle_at_turn("bfrpg", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W")], seed=1)
    b.apply(Grapple("a", target="b"))          # seed 1: held (see the save test)
    b.state_of("b").conditions["routed"] = 0
    events = flight(b, "b", flee)
    assert [e.outcome for e in events] == ["held"] and b.figures["b"].pos == (4, 3)
