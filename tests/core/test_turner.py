"""The turning ground figure's integer search (moves/turner.py) against the general search it
replaced for them (dijkstra.advance_general, which still searches flyers and long bodies): on
random small maps under all five rulesets, the same settled states at the same costs in the same
order, the same reachable set (its squares, facings and their order), the same equally cheap ways
into every state, and the same planned paths, whole or aimed at one square."""
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.values.battlemap import BattleMap
from game.core.moves import turner
from game.core.moves.planner import Planner
from game.io.rulesets import load_ruleset

from helpers import RULESET_IDS, fig

RULESETS = {rid: load_ruleset(rid) for rid in RULESET_IDS}
SIZE = 11


def _map(seed: int, density: float) -> BattleMap:
    rng = random.Random(seed)
    bmap = BattleMap.empty(SIZE, SIZE)
    for y in range(SIZE):
        for x in range(SIZE):
            if (x, y) == (5, 5):
                continue
            roll = rng.random()
            if roll < density:
                bmap.add_wall(x, y)
            elif roll < density * 1.4:
                bmap.difficult[y, x] = True
            elif roll < density * 1.7:
                bmap.elevation_ft[y, x] = rng.choice([5, 10])
    return bmap


def _both(bmap, rid, mover, mode, occupants, goal=None):
    planner = Planner(bmap, RULESETS[rid])
    new = planner.search(mover, mode, occupants, goal=goal)
    old = Planner(bmap, RULESETS[rid])
    mp = pytest.MonkeyPatch()
    mp.setattr(turner, "turner_width", lambda rules: None)
    try:
        ref = old.search(mover, mode, occupants, goal=goal)
    finally:
        mp.undo()
    return new, ref


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32 - 1), st.sampled_from([0.0, 0.1, 0.25]), st.sampled_from(RULESET_IDS),
       st.sampled_from(["walk", "run", "jog"]), st.sampled_from([5, 10, 20]), st.integers(0, 7),
       st.sampled_from([15, 20, 30]), st.sampled_from([None, (0, 0), (1, 5), (1, 10)]), st.booleans())
def test_the_integer_search_settles_what_the_general_search_settles(seed, density, rid, mode, turning, facing,
                                                                     move_ft, carried, foes):
    if mode == "jog":
        rid = "cnc"      # the only ruleset with a jogging pace
    bmap = _map(seed, density)
    mover = fig("m", "blue", 5, 5, move_ft=move_ft, turning_ft=turning).moved_to(5, 5, facing)
    if carried is not None:
        mover = replace(mover, diagonals_moved=carried[0], straight_ft=float(carried[1]), has_moved=True)
    occupants = {}
    if foes:
        rng = random.Random(seed + 1)
        for fid, side in (("foe", "red"), ("ally", "blue")):
            x, y = rng.randrange(SIZE), rng.randrange(SIZE)
            if (x, y) != (5, 5) and not bmap.blocks_move[y, x]:
                occupants[(x, y)] = fig(fid, side, x, y)
    new, ref = _both(bmap, rid, mover, mode, occupants)
    assert ref.n_width is None
    if new.n_width is None:
        return      # costs not in whole 5-ft steps (spelljammer's diagonals): the general search searches
    got = new.entries()
    want = ref.entries()
    assert list(got) == list(want)
    for sq, entry in want.items():
        assert (got[sq].cost_ft, list(got[sq].facings.items()), got[sq].altitudes, got[sq].can_end) == \
               (entry.cost_ft, list(entry.facings.items()), entry.altitudes, entry.can_end), sq
    # Paths from the integer states alone, before any tuple view is made.
    for sq in list(want)[::3]:
        for facing_asked in (None, (facing + 4) % 8):
            assert new.path_to(sq, facing_asked) == ref.path_to(sq, facing_asked), (sq, facing_asked)
    assert list(new.settled.items()) == list(ref.settled.items())
    for state in ref.settled:
        assert new.tight_parents(state) == ref.tight_parents(state), state
        assert new.cost(state) == ref.cost(state)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32 - 1), st.sampled_from([0.0, 0.15]), st.sampled_from(RULESET_IDS),
       st.sampled_from([10, 20]), st.integers(0, 7), st.integers(0, SIZE - 1), st.integers(0, SIZE - 1),
       st.sampled_from([None, 0, 3]))
def test_a_search_aimed_at_one_square_finds_the_same_path(seed, density, rid, turning, facing, x, y, end_facing):
    bmap = _map(seed, density)
    mover = fig("m", "blue", 5, 5, move_ft=30, turning_ft=turning).moved_to(5, 5, facing)
    new, ref = _both(bmap, rid, mover, "run", {}, goal=((x, y), end_facing, None))
    assert new.path_to((x, y), end_facing) == ref.path_to((x, y), end_facing)
