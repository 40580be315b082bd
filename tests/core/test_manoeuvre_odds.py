"""The resolver's odds of a manoeuvre (`Battle.explain_manoeuvre`) are what its roll does, face by face.

For each manoeuvre under each ruleset that has it, every sequence of dice the handler can draw is
played through `Battle.apply` on a copy of the battle (each face of each die in turn), and the
frequency of each outcome (held, pinned, thrown off and for how long, prone, the fall's damage, the
subdual damage) must equal the chance the query gives it, without rolling.
"""
from __future__ import annotations

import pytest

from game.core.values.actions import EndTurn, Escape, Grapple, Overbear, Push, Release, Trip
from game.core.values.events import EventKind

from battles import fig
from battles import LEDGE, battle_at_turn, desperate_defender_on_a_cliff, until_phase
from dice import ForcedDice

MANOEUVRE_EVENTS = (EventKind.GRAPPLE, EventKind.ESCAPE, EventKind.RELEASE, EventKind.TRIP, EventKind.PUSH,
                    EventKind.OVERBEAR)




def every_roll(b, action) -> dict:
    """{(outcome, damage, stunned rounds): frequency} over every face of every die the action draws."""
    seen: dict = {}
    stack = [()]
    while stack:
        prefix = stack.pop()
        twin = b.clone()
        twin.rng = ForcedDice(prefix, then="lowest")
        events = twin.apply(action)
        draws = twin.rng.draws
        if len(draws) > len(prefix):          # a die not yet fixed: try each of its faces
            lo, hi = draws[len(prefix)]
            stack.extend(prefix + (v,) for v in range(lo, hi + 1))
            continue
        p = 1.0
        for lo, hi in draws:
            p /= hi - lo + 1
        key = _classify(b, twin, action, events)
        seen[key] = seen.get(key, 0.0) + p
    return seen


def _classify(before, after, action, events):
    main = next(e for e in events if e.kind in MANOEUVRE_EVENTS)
    outcome = main.outcome
    if main.kind == EventKind.ESCAPE and outcome == "held":
        st = after.state_of(action.figure)
        outcome = "pinned" if st.has("pinned") else "struggling" if st.has("struggling") else "held"
    if main.kind == EventKind.PUSH:
        outcome = "moved"
    damage = None
    falls = [e for e in events if e.kind == EventKind.FALL]
    if falls:
        damage = falls[0].data.get("damage", 0)
    if main.kind == EventKind.OVERBEAR and outcome == "prone":
        damage = after.state_of(action.target).subdual - before.state_of(action.target).subdual
    stunned = [e.data["rounds"] for e in events if e.kind == EventKind.STUNNED]
    return outcome, damage, stunned[0] if stunned else None


def expected(odds) -> dict:
    """The query's answer in the same shape as every_roll's."""
    out: dict = {}
    for o in odds.outcomes:
        if o.name in ("prone", "moved") and odds.damage:
            parts = [(d, q) for d, q in odds.damage]
        else:
            parts = [(None, 1.0)]
        for damage, q in parts:
            if o.name == "thrown-off" or (o.name == "free" and odds.stunned):
                total = sum(p for _r, p in odds.stunned)
                for rounds, p in odds.stunned:
                    key = (o.name, damage, rounds)
                    out[key] = out.get(key, 0.0) + o.chance * q * p / total
                continue
            key = (o.name, damage, None)
            out[key] = out.get(key, 0.0) + o.chance * q
    return out


def assert_odds_are_the_rolls(b, action):
    odds = b.explain_manoeuvre(action)
    assert odds.allowed, odds.refusal
    rolled = every_roll(b, action)
    answer = expected(odds)
    assert set(rolled) == set(answer), (sorted(rolled), sorted(answer))
    for key, p in rolled.items():
        assert answer[key] == pytest.approx(p), key
    assert sum(answer.values()) == pytest.approx(1.0)
    return odds


def _held(rid, figures, seed_faces, who="b"):
    """`a` holds `b` (the scripted faces make the grapple succeed); then it is `who`'s turn."""
    b = battle_at_turn(rid, figures)
    b.rng = ForcedDice(seed_faces)
    b.apply(Grapple("a", target="b"))
    assert b.state_of("b").held_by == ["a"]
    until_phase(b, who, ("all", "movement"))
    return b


# ----- grapple -----
@pytest.mark.parametrize("rid,stats", [
    ("bfrpg", {}), ("bfrpg", {"ac": 12}),
    ("odnd", {}), ("odnd", {"level": 2}),
    ("cnc", {}), ("cnc", {"str_prime": True, "str_mod": 1}),
    ("ch17", {"dex_mod": 2}),
])
def test_grapple_odds_are_the_rolls_face_by_face(rid, stats):
    b = battle_at_turn(rid, [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W", stats=stats)])
    odds = assert_odds_are_the_rolls(b, Grapple("a", target="b"))
    assert 0 < odds.chance < 1 and odds.escape_chance is not None


def test_grapple_odds_with_a_second_holder_count_both_in_the_hit_dice_contest():
    b = battle_at_turn("odnd", [fig("a", "red", 3, 3, "E"), fig("c", "red", 5, 3, "W"),
                                fig("b", "blue", 4, 3, "N")])
    b.rng = ForcedDice([20, 6, 1])             # a hits; 6 vs 1: pinned
    b.apply(Grapple("a", target="b"))
    until_phase(b, "c")
    odds = assert_odds_are_the_rolls(b, Grapple("c", target="b"))
    assert odds.stunned                      # two grapplers may still be thrown off


# ----- escape -----
@pytest.mark.parametrize("rid,faces", [("bfrpg", [18]), ("cnc", [15]), ("ch17", [15, 15, 3]), ("odnd", [20, 4, 4])])
def test_escape_odds_are_the_rolls_face_by_face(rid, faces):
    b = _held(rid, [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W", stats={"dex_mod": 1})], faces)
    odds = assert_odds_are_the_rolls(b, Escape("b"))
    assert 0 < odds.chance_of("free") < 1


def test_release_is_certain():
    b = battle_at_turn("bfrpg", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W")])
    b.rng = ForcedDice([18])
    b.apply(Grapple("a", target="b"))
    odds = assert_odds_are_the_rolls(b, Release("a"))
    assert odds.chance == 1.0 and odds.kind == "release"


# ----- trip, push, overbear -----
@pytest.mark.parametrize("to", [None, (4, 2)])
def test_bfrpg_trip_odds_in_place_and_off_the_wall_walk_with_the_fall(to):
    b = battle_at_turn("bfrpg", [fig("a", "blue", 2, 2, "E"), fig("b", "red", 3, 2, "W", stats={"hp": 30})],
                       bmap=LEDGE)
    odds = assert_odds_are_the_rolls(b, Trip("a", target="b", to=to))
    assert odds.prone
    if to is None:
        assert odds.fall_ft == 0 and not odds.damage
    else:
        assert odds.to == (4, 2) and odds.fall_ft == 20 and odds.fall_dice == "2d6"
        assert odds.to_json()["fall_dice"] == "2d6"


def test_spelljammer_push_of_a_desperate_defender_over_the_cliff_is_certain_and_falls():
    b = desperate_defender_on_a_cliff({"hp": 40})
    odds = assert_odds_are_the_rolls(b, Push("a", target="b", to=(5, 3)))
    assert odds.chance == 1.0 and odds.fall_ft == 25 and odds.fall_dice == "2d6"
    assert "falls 25 ft: 2d6" in odds.words


def test_cnc_overbear_odds_and_its_subdual_damage():
    b = battle_at_turn("cnc", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W", stats={"attack_bonus": 2})])
    odds = assert_odds_are_the_rolls(b, Overbear("a", target="b"))
    assert odds.subdual and dict(odds.damage) == pytest.approx({1: 0.5, 2: 0.5})


# ----- refusals and the preview -----
@pytest.mark.parametrize("rid", ["odnd", "cnc", "ch17", "spelljammer"])
def test_a_refused_manoeuvre_has_no_odds_and_says_why(rid):
    b = battle_at_turn(rid, [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W")])
    odds = b.explain_manoeuvre(Trip("a", target="b"))
    assert not odds.allowed and odds.refusal.key == "manoeuvre.none" and odds.chance == 0
    assert odds.to_json() == {"action": Trip("a", target="b").to_json(), "allowed": False,
                              "refusal": odds.refusal.to_json()}


def test_the_preview_of_a_manoeuvre_carries_its_odds():
    b = battle_at_turn("bfrpg", [fig("a", "blue", 2, 2, "E"), fig("b", "red", 3, 2, "W")], bmap=LEDGE)
    preview = b.preview(Trip("a", target="b", to=(4, 2)))
    assert preview.allowed and preview.manoeuvre == b.explain_manoeuvre(Trip("a", target="b", to=(4, 2)))
    assert preview.to_json()["manoeuvre"]["fall_ft"] == 20
    assert b.preview(EndTurn("a")).manoeuvre is None
