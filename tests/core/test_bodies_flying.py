"""Flying figures bigger than a square: the planner's reachable set (cost, end facings, altitudes,
whether the move may end there) against a plain exhaustive search written from the rules
(tests/body_reference.FlyingBodyReference), winged, floater and incorporeal, in every ruleset and
every pace a flyer has."""
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.values.battlemap import BattleMap
from game.core.values.bodies import cells
from game.core.moves.planner import Planner
from game.io.rulesets import load_ruleset

from body_reference import FlyingBodyReference
from helpers import RULESET_IDS, fig

RULESETS = {rid: load_ruleset(rid) for rid in RULESET_IDS}
SIZE = 9
START = (3, 3)
FOOTPRINTS = [(2, 2), (1, 2), (1, 3)]


@st.composite
def flight(draw):
    """(map, occupants, mover, mode, ruleset id): a flying body over walls (with and without a
    stated height), rocks, hills, hollows, rough ground, a foe and an ally."""
    rid = draw(st.sampled_from(RULESET_IDS))
    mv = RULESETS[rid].section("movement")
    modes = ["walk", "run", "withdraw"] + (["jog"] if mv["jog_multiplier"] else []) + (
        ["sidestep"] if mv["sidestep"] else [])
    mode = draw(st.sampled_from(modes))
    footprint = draw(st.sampled_from(FOOTPRINTS))
    facing = draw(st.integers(0, 7))
    flyer = draw(st.sampled_from(["winged", "winged", "floater", "incorporeal"]))
    mover = fig("m", "blue", *START, move_ft=draw(st.sampled_from([15, 20])),
                turning_ft=draw(st.sampled_from([0, 5, 10])), flyer=flyer, altitude_ft=draw(st.sampled_from([0, 10, 20])), footprint=footprint)
    mover = replace(mover, facing=facing)
    if flyer == "winged" and mover.altitude_ft and draw(st.integers(0, 5)) == 0:
        mover, mode = replace(mover, must_dive=True), "walk"     # stalled: it must dive this move
    start_body = set(cells(*START, facing, footprint))
    bmap = BattleMap.empty(SIZE, SIZE)
    for x, y, kind in draw(st.lists(st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1),
                                              st.sampled_from("#tt,^^v")), max_size=24)):
        if (x, y) in start_body:
            continue    # the body starts over open, level ground
        if kind == "#":
            bmap.add_wall(x, y, height_ft=0)                                   # no flyer passes over it
        elif kind == "t":
            bmap.add_wall(x, y, height_ft=draw(st.sampled_from([5, 10, 15])))  # a flyer high enough passes over
        elif kind == ",":
            bmap.difficult[y, x] = True
        elif kind == "^":
            bmap.elevation_ft[y, x] = draw(st.sampled_from([5, 10]))
        else:
            bmap.elevation_ft[y, x] = -5
    occupants = {}
    for fid, side in (("foe", "red"), ("ally", "blue")):
        if draw(st.booleans()):
            x, y = draw(st.integers(0, SIZE - 1)), draw(st.integers(0, SIZE - 1))
            if (x, y) not in start_body and (x, y) not in occupants:
                occupants[(x, y)] = fig(fid, side, x, y)
    return bmap, occupants, mover, mode, rid


def _compare(bmap, ruleset_id, mover, mode, occupants):
    rs = RULESETS[ruleset_id]
    got = Planner(bmap, rs).search(mover, mode, occupants).entries()
    want = FlyingBodyReference(bmap, rs, mover, mode, occupants).entries()
    assert set(got) == set(want), f"only planner {set(got) - set(want)}, only reference {set(want) - set(got)}"
    for sq, (cost, facings, altitudes, can_end) in want.items():
        entry = got[sq]
        assert abs(entry.cost_ft - cost) < 1e-6, (sq, entry.cost_ft, cost)
        assert entry.can_end == can_end, (sq, entry.can_end, can_end)
        assert set(entry.facings) == set(facings), (sq, entry.facings, facings)
        for f, c in facings.items():
            assert abs(entry.facings[f] - c) < 1e-6, (sq, f, entry.facings[f], c)
        assert set(entry.altitudes) == set(altitudes), (sq, entry.altitudes, altitudes)
        for a, c in altitudes.items():
            assert abs(entry.altitudes[a] - c) < 1e-6, (sq, a, entry.altitudes[a], c)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(flight())
def test_a_flying_body_reaches_what_the_exhaustive_search_reaches(case):
    bmap, occupants, mover, mode, rid = case
    _compare(bmap, rid, mover, mode, occupants)


# ----- worked examples (each was wrong before the search knew a flying body's squares) -----
def _reach(bmap, mover, occupants=None, ruleset_id="bfrpg", mode="walk"):
    entries = Planner(bmap, RULESETS[ruleset_id]).search(mover, mode, occupants or {}).entries()
    _compare(bmap, ruleset_id, mover, mode, occupants or {})
    return entries


def test_a_flying_ogre_does_not_hang_off_the_map():
    ogre = fig("o", "blue", 4, 4, move_ft=20, turning_ft=0, flyer="incorporeal", altitude_ft=10, footprint=(2, 2))
    reach = _reach(BattleMap.empty(9, 9), ogre)
    assert (7, 4) in reach and (4, 7) in reach
    assert not any(x == 8 or y == 8 for x, y in reach)     # its right or lower half would be off the map


def test_a_flying_horse_turns_its_tail_onto_no_wall_and_off_no_edge():
    bmap = BattleMap.empty(9, 9)
    bmap.add_wall(0, 3, height_ft=0)                      # a wall no flyer passes over
    horse = replace(fig("h", "blue", 1, 3, move_ft=20, turning_ft=0, flyer="incorporeal", altitude_ft=10,
                        footprint=(1, 2)), facing=0)
    reach = _reach(bmap, horse)
    assert 6 in reach[(1, 3)].facings and 2 not in reach[(1, 3)].facings   # facing east its tail is in the wall
    assert 2 not in reach[(0, 4)].facings                                   # ... or off the map's edge


def test_a_winged_horse_dives_onto_the_rock_under_its_tail_not_into_it():
    bmap = BattleMap.empty(9, 9)
    bmap.add_wall(3, 4, height_ft=10)                     # a rock 10 ft high under the tail
    horse = replace(fig("h", "blue", 3, 3, move_ft=20, turning_ft=0, flyer="winged", altitude_ft=20,
                        footprint=(1, 2)), facing=0)
    _reach(bmap, horse)
    planner = Planner(bmap, RULESETS["bfrpg"])
    onto, _ = planner.path_to(horse, (3, 3), facing=0, altitude_ft=10)
    assert [s.kind for s in onto.steps[1:]] == ["dive"]    # 10 ft down onto the rock's top
    into, _ = planner.path_to(horse, (3, 3), facing=0, altitude_ft=0)
    assert into is None                                    # not into it


def test_a_flying_ogre_passes_a_foe_on_a_hill_only_10_ft_above_the_hill():
    bmap = BattleMap.empty(9, 9)
    bmap.elevation_ft[:, 5] = 5                           # a low ridge (one climb step) down column 5
    foe = {(5, 1): fig("f", "red", 5, 1)}
    ogre = fig("o", "blue", 3, 3, move_ft=15, turning_ft=0, flyer="incorporeal", altitude_ft=10, footprint=(2, 2))
    reach = _reach(bmap, ogre, foe)
    assert (3, 1) in reach and (4, 1) not in reach        # at 10 ft it is only 5 ft above the foe on the ridge
    high = replace(ogre, altitude_ft=15)
    assert _reach(bmap, high, foe)[(4, 1)].cost_ft == 10  # 10 ft above the ridge it flies over (it may not stop)
