"""A flyer's paths from a MoveSearch (the AI's: Battle.search, its reachable set from the vectorised
sweep) come from searches aimed at each end asked for, not from the whole search over every height:
the same paths and costs as the whole search gives, on random maps under all five rulesets, for
winged flyers and floaters at any altitude, within the AI's ceiling or the ruleset's, with foes to
pass over and allies' squares not ended on, asked with and without an end facing and altitude,
the same square asked again at other facings (one aimed search answers them), before or after the
reachable set."""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.values.battlemap import BattleMap
from game.core.moves.planner import capped_planner
from game.core.moves.positioning import Positioning
from game.io.rulesets import load_ruleset

from helpers import RULESET_IDS, fig

RULESETS = {rid: load_ruleset(rid) for rid in RULESET_IDS}
SIZE = 12


def random_map(rng: random.Random, density: float) -> BattleMap:
    bmap = BattleMap.empty(SIZE, SIZE)
    for y in range(SIZE):
        for x in range(SIZE):
            if max(abs(x - 5), abs(y - 5)) <= 1:
                continue
            roll = rng.random()
            if roll < density:
                bmap.add_wall(x, y, height_ft=rng.choice([0, 0, 5, 10]))    # some a flyer passes over
            elif roll < density + 0.1:
                bmap.elevation_ft[y, x] = rng.choice([5, 10, 20])
            elif roll < density + 0.12:
                bmap.difficult[y, x] = True
    return bmap


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32 - 1), st.sampled_from([0.0, 0.1, 0.25]), st.sampled_from(RULESET_IDS),
       st.sampled_from(["winged", "floater"]), st.sampled_from([0, 5, 10, 20, 30]), st.sampled_from([0, 5, 10, 20]),
       st.sampled_from([None, 40]), st.booleans(), st.booleans())
def test_a_flyers_paths_after_its_sweep_are_the_whole_searchs(seed, density, rid, flyer, altitude, turning,
                                                              ceiling, entries_first, others):
    rng = random.Random(seed)
    bmap = random_map(rng, density)
    mover = fig("m", "blue", 5, 5, flyer=flyer, move_ft=rng.choice([20, 30, 40]), turning_ft=turning,
                altitude_ft=altitude).moved_to(5, 5, rng.randrange(8))
    figures = [mover]
    if others:
        free = [(x, y) for y in range(SIZE) for x in range(SIZE)
                if not bmap.blocks_move[y, x] and max(abs(x - 5), abs(y - 5)) >= 1]
        for i, side in enumerate(("red", "red", "blue")):
            x, y = free.pop(rng.randrange(len(free)))
            figures.append(fig(f"o{i}", side, x, y, altitude_ft=rng.choice([0, 0, 10]) if i == 1 else 0))
    pos = Positioning(bmap, RULESETS[rid], figures)
    planner = pos.planner if ceiling is None else capped_planner(pos.planner, ceiling)
    occupants = pos.occupants("m")
    budget = rng.choice([None, 15.0, 25.0])
    asked = planner.search(mover, "walk", occupants, budget_ft=budget)     # as Battle.search gives it
    whole = planner.search(mover, "walk", occupants, budget_ft=budget)
    whole.run()
    if entries_first:
        assert asked.entries() == whole.entries()
    top = (ceiling or 200) + 10
    for _ in range(30):
        x, y = rng.randrange(SIZE), rng.randrange(SIZE)
        facings = [rng.choice([None, rng.randrange(8)]) for _ in range(rng.choice([1, 3]))]
        alt = rng.choice([None, None, 0, 10, rng.randrange(0, top, 5)])
        for facing in facings:
            got = asked.path_to((x, y), facing, alt)
            assert got == whole.path_to((x, y), facing, alt), (x, y, facing, alt)
    assert asked.entries() == whole.entries()


def test_a_capped_planner_is_kept_with_its_planner_and_keeps_no_map_alive():
    """The AI's capped flights reuse one planner per ceiling for a moment of the battle, and the
    capped planners die with it: a process-wide cache used to keep finished battles' maps alive and
    free them all at once inside a later decision."""
    import gc
    import weakref
    rs = RULESETS["bfrpg"]
    bmap = BattleMap.empty(SIZE, SIZE)
    pos = Positioning(bmap, rs, [fig("m", "blue", 5, 5, flyer="winged", move_ft=30)])
    capped = capped_planner(pos.planner, 40)
    assert capped is not pos.planner and capped_planner(pos.planner, 40) is capped
    assert capped.ruleset.section("altitude")["max_altitude_ft"] == 40
    # the capped ruleset is one per ruleset and ceiling, so what is cached on it stays warm
    other = Positioning(bmap, rs, pos.figures)
    assert capped_planner(other.planner, 40).ruleset is capped.ruleset
    gone = weakref.ref(bmap)
    del bmap, pos, capped, other
    gc.collect()
    assert gone() is None
