"""The planner against an exhaustive full-state search (docs/movement.md), under all five rulesets.

The planner prunes states that another settled state dominates; these tests check that the
pruning is exact: every square, end facing and end altitude costs exactly what a search with
no pruning finds, walking and running, with turning distances, walls, ledges, difficult
terrain, foes, allies, moves continued from earlier in the round, and flyers.
"""
import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.values.battlemap import BattleMap
from game.core.moves.planner import Planner
from game.io.rulesets import load_ruleset

from helpers import RULESET_IDS, fig
from movement_reference import Reference

SIZE = 13
CENTRE = (6, 6)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RULESETS = {rid: load_ruleset(rid) for rid in RULESET_IDS}


@st.composite
def ground(draw, flyers=False, size=SIZE):
    bmap = BattleMap.empty(size, size)
    cells = draw(st.lists(st.tuples(st.integers(0, size - 1), st.integers(0, size - 1),
                                    st.sampled_from("##,,^v" + ("tt" if flyers else ""))), max_size=40))
    for x, y, kind in cells:
        if (x, y) == (size // 2, size // 2):
            continue
        if kind == "#":
            bmap.add_wall(x, y, height_ft=0 if not flyers else draw(st.sampled_from([0, 10000])))
        elif kind == "t":
            bmap.add_wall(x, y, height_ft=draw(st.sampled_from([5, 15, 30])))  # rocks a flyer may pass over
        elif kind == ",":
            bmap.difficult[y, x] = True
        elif kind == "^":
            bmap.elevation_ft[y, x] = draw(st.sampled_from([5, 10]))     # a step up, or a ledge
        else:
            bmap.elevation_ft[y, x] = -5
    return bmap


@st.composite
def others(draw, size=SIZE):
    """A foe and an ally somewhere on the map (or not)."""
    out = {}
    for fid, side in (("foe", "red"), ("ally", "blue")):
        if draw(st.booleans()):
            x, y = draw(st.integers(0, size - 1)), draw(st.integers(0, size - 1))
            if (x, y) != (size // 2, size // 2) and (x, y) not in out:
                out[(x, y)] = fig(fid, side, x, y)
    return out


def _compare(bmap, ruleset_id, mover, mode, occupants):
    rs = RULESETS[ruleset_id]
    got = Planner(bmap, rs).search(mover, mode, occupants).entries()
    want = Reference(bmap, rs, mover, mode, occupants).entries()
    assert set(got) == set(want), f"squares differ: only planner {set(got) - set(want)}, only reference {set(want) - set(got)}"
    for sq, (cost, facings, altitudes, can_end) in want.items():
        entry = got[sq]
        assert abs(entry.cost_ft - cost) < 1e-6, (sq, entry.cost_ft, cost)
        assert entry.can_end == can_end
        assert set(entry.facings) == set(facings), (sq, entry.facings, facings)
        for f, c in facings.items():
            assert abs(entry.facings[f] - c) < 1e-6, (sq, f, entry.facings[f], c)
        assert set(entry.altitudes) == set(altitudes), (sq, entry.altitudes, altitudes)
        for a, c in altitudes.items():
            assert abs(entry.altitudes[a] - c) < 1e-6, (sq, a, entry.altitudes[a], c)
    return got


@SETTINGS
@given(ground(), others(), st.sampled_from(RULESET_IDS), st.sampled_from(["walk", "run"]),
       st.sampled_from([0, 5, 10, 15, 20]), st.integers(0, 7), st.sampled_from([20, 30, 50]),
       st.integers(0, 1), st.sampled_from([0, 5, 10]), st.booleans())
def test_walkers_match_the_exhaustive_search(bmap, occupants, ruleset_id, mode, turning, facing, move_ft,
                                             diagonals, straight, has_moved):
    mover = fig("m", "blue", *CENTRE, move_ft=move_ft, turning_ft=turning).moved_to(*CENTRE, facing)
    if has_moved:
        mover = replace(mover, diagonals_moved=diagonals, straight_ft=float(straight), has_moved=True)
    _compare(bmap, ruleset_id, mover, mode, occupants)


@st.composite
def scattered(draw, size=17):
    """A wider field with walls (and some rough ground) scattered at random, the kind of map where
    a long run meets many choices."""
    rng = random.Random(draw(st.integers(0, 2 ** 32 - 1)))
    density = draw(st.sampled_from([0.05, 0.1, 0.2]))
    bmap = BattleMap.empty(size, size)
    for y in range(size):
        for x in range(size):
            if (x, y) != (size // 2, size // 2) and rng.random() < density:
                bmap.add_wall(x, y)
            elif rng.random() < density / 3:
                bmap.difficult[y, x] = True
    return bmap


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scattered(), st.sampled_from(RULESET_IDS), st.sampled_from([0, 5, 15]), st.integers(0, 7),
       st.sampled_from([40, 50]), st.sampled_from([None, (0, 0), (1, 0), (1, 5), (0, 10)]))
def test_long_runs_match_the_exhaustive_search(bmap, ruleset_id, turning, facing, move_ft, carried):
    mover = fig("m", "blue", 8, 8, move_ft=move_ft, turning_ft=turning).moved_to(8, 8, facing)
    if carried is not None:
        mover = replace(mover, diagonals_moved=carried[0], straight_ft=float(carried[1]), has_moved=True)
    _compare(bmap, ruleset_id, mover, "run", {})


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ground(), others(), st.sampled_from(RULESET_IDS), st.sampled_from(["withdraw", "sidestep", "jog"]),
       st.sampled_from([0, 10]), st.integers(0, 7))
def test_other_paces_match_the_exhaustive_search(bmap, occupants, ruleset_id, mode, turning, facing):
    if mode == "jog" and ruleset_id != "cnc":
        ruleset_id = "cnc"  # the only ruleset with a jogging pace
    mover = fig("m", "blue", *CENTRE, move_ft=30, turning_ft=turning).moved_to(*CENTRE, facing)
    _compare(bmap, ruleset_id, mover, mode, occupants)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ground(flyers=True, size=9), others(size=9), st.sampled_from(RULESET_IDS), st.sampled_from(["walk", "run"]),
       st.sampled_from(["winged", "floater", "incorporeal"]), st.sampled_from([0, 5, 10]),
       st.sampled_from([0, 10, 20]), st.integers(0, 7), st.booleans())
def test_flyers_match_the_exhaustive_search(bmap, occupants, ruleset_id, mode, flyer, turning, altitude, facing,
                                            stalled):
    mover = fig("m", "blue", 4, 4, move_ft=20, turning_ft=turning, flyer=flyer,
                altitude_ft=altitude).moved_to(4, 4, facing)
    if stalled and flyer == "winged":
        mover = replace(mover, must_dive=True)
        mode = "walk"
    _compare(bmap, ruleset_id, mover, mode, occupants)


def test_a_running_man_keeps_the_odd_diagonal_that_turns_sooner():
    """bfrpg:maneuverability, bfrpg:5-10-diagonals (issue: running under 5-10 lost legal paths).

    Running, his turning distance is 10 ft. Around one wall the cheapest route ends with a
    10-ft diagonal (the sixth) after which he may turn at once; a route reaching the same square
    and facing with an even count, not dearer, needs another square before it may turn. The
    search used to let the even count prune the odd one and answered 95 ft instead of 90.
    """
    bmap = BattleMap.empty(27, 27)
    bmap.add_wall(17, 21)
    runner = fig("m", "blue", 13, 13, "SW", move_ft=50, turning_ft=5)
    path = Planner(bmap, RULESETS["bfrpg"]).search(runner, "run").path_to((18, 21))
    assert path.total_ft == 90
    assert [s.kind for s in path.steps[-2:]] == ["turn+step", "turn+step"]  # the 10-ft diagonal, then a turn
    assert path.steps[-2].cost_ft == 10
    _compare(bmap, "bfrpg", runner, "run", {})
