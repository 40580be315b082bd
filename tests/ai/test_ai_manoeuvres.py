"""The AI grapples, trips, pushes, overbears, escapes and lets go where it helps, from the resolver's
own menu (`legal_actions`) and odds (`Battle.explain_manoeuvre`), and never where its ruleset has no
such manoeuvre or a plain blow is clearly better.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.ai import AI
from game.core.values.actions import Escape, Grapple, Release, Trip

from battles import OPEN, fig
from battles import LEDGE, battle_at_turn, desperate_defender_on_a_cliff, next_round, until_phase
from dice import ForcedDice

RULESETS = ("bfrpg", "odnd", "cnc", "ch17", "spelljammer")
MANOEUVRES = ("grapple", "trip", "push", "overbear", "escape", "release")
MECHANISM_KEY = {"grapple": "grapple", "trip": "trip", "push": "push", "overbear": "overbear", "escape": "escape",
                 "release": "grapple"}


def decide(b, who, difficulty="normal"):
    ai = AI(difficulty)
    action = ai.choose(b, who)
    return action, ai.last_decision


def falls(b, action) -> int:
    return b.explain_manoeuvre(action).fall_ft


# ----- the menu -----
def test_the_menu_offers_the_manoeuvres_the_ruleset_has_and_trips_to_the_squares_that_matter():
    b = battle_at_turn("bfrpg", [fig("a", "blue", 2, 2, "E"), fig("b", "red", 3, 2, "W"), fig("c", "blue", 2, 4, "E")],
                       bmap=LEDGE)
    menu = b.legal_actions("a")
    assert Grapple("a", target="b") in menu and Trip("a", target="b") in menu
    trips = [a for a in menu if a.kind == "trip" and a.to is not None]
    assert {a.to for a in trips if falls(b, a)} == {(4, 1), (4, 2), (4, 3)}    # every square off the ledge
    assert all(b.check(a) is None for a in menu if a.kind in MANOEUVRES)
    assert not any(a.kind in ("push", "overbear", "escape", "release") for a in menu)    # bfrpg has no push, overbear


@pytest.mark.parametrize("rid", RULESETS)
def test_the_menu_never_holds_a_manoeuvre_the_ruleset_refuses(rid):
    b = battle_at_turn(rid, [fig("a", "blue", 2, 2, "E"), fig("b", "red", 3, 2, "W")], bmap=LEDGE)
    rules = b.ruleset.section("manoeuvres")
    for action in b.legal_actions("a"):
        if action.kind in MANOEUVRES:
            assert rules[MECHANISM_KEY[action.kind]] != "none", action
            assert b.check(action) is None


def test_the_menu_offers_a_held_figure_its_escape_and_its_holder_the_release():
    b = battle_at_turn("cnc", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W")])
    b.rng = ForcedDice([15])
    b.apply(Grapple("a", target="b"))
    assert Release("a") in b.legal_actions("a")
    until_phase(b, "b", ("all", "movement"))
    assert Escape("b") in b.legal_actions("b")


# ----- off the ledge -----
def test_bfrpg_ai_trips_a_foe_standing_at_the_ledge_off_it():
    """000 tripping: prone up to 5 ft away in the direction the attacker chooses, off a 20 ft wall-walk."""
    b = battle_at_turn("bfrpg", [fig("a", "blue", 2, 2, "E"), fig("b", "red", 3, 2, "W")], bmap=LEDGE)
    action, decision = decide(b, "a")
    assert action.kind == "trip" and falls(b, action) == 20, decision.explain()
    label = decision.best.label
    assert "off the ledge" in label and "%" in label and "2d6 falling" in label
    assert any("20 ft fall, 2d6" in name for name, _v in decision.best.reasons)


SLOPE_TOP = "\n".join(["............"] + ["..122......."] * 6 + ["............"])   # a hill: 5 ft steps round its ends
WALL_TOP = "\n".join(["..122......."] * 8)                                       # the same drop, no way back up


def _trip_off_the_edge(bmap):
    b = battle_at_turn("bfrpg", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W")], bmap=bmap)
    _action, decision = decide(b, "a")
    trips = [p for p in decision.plans if p.kind == "manoeuvre" and "off the ledge" in p.label]
    assert trips, decision.explain()
    return trips[0], decision


def test_a_foe_tripped_down_a_slope_it_can_walk_back_up_is_not_counted_out_of_the_fight():
    """bfrpg:choice-trip: the fall is 10 ft either way; only the wall keeps the foe from coming back
    within its move (the planner's search from where it lands), so only there is it worth rounds."""
    on_wall, _ = _trip_off_the_edge(WALL_TOP)
    assert any("from the fight" in name for name, _v in on_wall.reasons), on_wall.reasons
    on_hill, decision = _trip_off_the_edge(SLOPE_TOP)
    assert not any("from the fight" in name for name, _v in on_hill.reasons), on_hill.reasons
    assert on_hill.score < on_wall.score
    assert decision.best.kind != "manoeuvre", decision.explain()      # a plain blow beats a trip it walks back from


def test_spelljammer_ai_pushes_a_desperate_defender_off_the_cliff():
    """004 desperate-defense: the opponent may force the defender up to 10 ft, even off a cliff."""
    b = desperate_defender_on_a_cliff()
    action, decision = decide(b, "a")
    assert action.kind == "push" and falls(b, action) == 25, decision.explain()


# ----- holds -----
def test_cnc_ai_grapples_an_archer_beside_it_that_would_otherwise_shoot():
    """002 grappling: a held figure can do nothing but try to break free, and is struck at +10."""
    b = battle_at_turn("cnc", [fig("a", "blue", 3, 3, "E", stats={"str_mod": 2}),
                               fig("ally", "blue", 4, 4, "N"),
                               fig("archer", "red", 4, 3, "W", template="archer", stats={"hp": 12}),
                               fig("far", "blue", 12, 3, "W", template="archer")])
    action, decision = decide(b, "a")
    assert action.kind == "grapple" and action.target == "archer", decision.explain()
    assert "hold" in decision.best.label


def test_cnc_ai_escapes_a_hold():
    b = battle_at_turn("cnc", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W")])
    b.rng = ForcedDice([15])
    b.apply(Grapple("a", target="b"))
    until_phase(b, "b", ("all", "movement"))
    action, decision = decide(b, "b")
    assert action == Escape("b"), decision.explain()


def test_odnd_ai_pinned_tries_to_throw_off_its_grappler():
    b = battle_at_turn("odnd", [fig("a", "red", 3, 3, "E"), fig("b", "blue", 4, 3, "W")])
    b.rng = ForcedDice([20, 5, 2])              # hit; 1d6 5 vs 1d6 2: pinned
    b.apply(Grapple("a", target="b"))
    until_phase(b, "b", ("all", "movement"))
    action, decision = decide(b, "b")
    assert action == Escape("b"), decision.explain()


def test_bfrpg_holder_lets_go_to_strike_a_wounded_foe_with_its_sword():
    """000 wrestling: a holder strikes only unarmed; letting go frees its weapon for a foe it can fell."""
    b = battle_at_turn("bfrpg", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W", stats={"hp": 30}),
                                 fig("c", "red", 3, 4, "N", stats={"hp": 2})])
    b.rng = ForcedDice([18])
    b.apply(Grapple("a", target="b"))
    next_round(b)
    until_phase(b, "a")
    action, decision = decide(b, "a")
    assert action == Release("a"), decision.explain()
    assert decision.best.actions[1].target == "c", decision.explain()


# ----- not where a blow is better -----
@pytest.mark.parametrize("rid", RULESETS)
def test_ai_strikes_a_foe_it_can_fell_rather_than_wrestle_or_trip_it(rid):
    """A foe on its last hit point, easy to hit: the blow is clearly worth more than any hold or trip."""
    b = battle_at_turn(rid, [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W", stats={"hp": 1, "ac": 10})])
    action, decision = decide(b, "a")
    assert any(a.kind == "attack" for a in decision.best.actions), decision.explain()
    assert any(p.actions[0].kind in MANOEUVRES for p in decision.plans) or rid in ("spelljammer",)


@pytest.mark.parametrize("rid", RULESETS)
def test_ai_on_open_ground_does_not_trip_a_foe_in_place_rather_than_strike(rid):
    b = battle_at_turn(rid, [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W")], bmap=OPEN)
    action, decision = decide(b, "a")
    assert action.kind not in ("trip", "push"), decision.explain()


@pytest.mark.parametrize("rid", RULESETS)
def test_every_manoeuvre_the_ai_weighs_is_one_its_ruleset_allows(rid):
    b = battle_at_turn(rid, [fig("a", "blue", 2, 2, "E"), fig("b", "red", 3, 2, "W"),
                             fig("c", "red", 2, 3, "N", template="archer")], bmap=LEDGE)
    rules = b.ruleset.section("manoeuvres")
    _action, decision = decide(b, "a")
    for plan in decision.plans:
        first = plan.actions[0]
        if first.kind in MANOEUVRES:
            assert rules[MECHANISM_KEY[first.kind]] != "none", plan.label
            assert b.check(first) is None, plan.label


# ----- the menu's squares, on any ground -----
@settings(max_examples=25, deadline=None)
@given(cells=st.lists(st.sampled_from(".....1234#"), min_size=48, max_size=48))
def test_the_menu_trips_a_foe_to_every_allowed_square_below_it_and_only_allowed_ones(cells):
    rows = ["".join(cells[i * 8:(i + 1) * 8]) for i in range(6)]
    rows[3] = rows[3][:3] + "44" + rows[3][5:]          # both stand on the same 20 ft floor
    b = battle_at_turn("bfrpg", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W")], bmap="\n".join(rows))
    trips = [a for a in b.legal_actions("a") if a.kind == "trip"]
    assert all(b.check(a) is None for a in trips)
    floor = b.map.elevation_ft
    below = {(4 + dx, 3 + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
             if (dx or dy) and b.map.in_bounds(4 + dx, 3 + dy) and floor[3, 4] - floor[3 + dy, 4 + dx] >= 5
             and b.check(Trip("a", target="b", to=(4 + dx, 3 + dy))) is None}
    offered = {a.to for a in trips if a.to is not None and b.explain_manoeuvre(a).fall_ft}
    assert offered == below
    for a in trips:
        odds = b.explain_manoeuvre(a)
        to = a.to or (4, 3)
        drop = int(floor[3, 4] - floor[to[1], to[0]])
        assert odds.fall_ft == (drop if drop >= 5 else 0)
