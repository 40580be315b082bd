"""A big body's anchor grid worked out over whole numpy arrays (big maps) is the one worked out a
row at a time (small maps): the same lists, value for value and type for type (heights stay whole
feet as ints, NEVER where no flyer passes), on random maps of walls with and without a height,
ledges and difficult ground, for every body shape and facing."""
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.values.battlemap import BattleMap
from game.core.values.bodies import offsets
from game.core.moves.body_grid import BodyGrid
from game.core.moves.grid import FlatGrid


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.integers(1, 9), st.integers(1, 9),
       st.sampled_from([(2, 2), (3, 3), (1, 2), (1, 3), (2, 1)]), st.integers(0, 7), st.sampled_from([5, 10]))
def test_whole_arrays_give_the_rows_lists(seed, width, height, footprint, facing, climb_step):
    rng = random.Random(seed)
    bmap = BattleMap.empty(width, height)
    for y in range(height):
        for x in range(width):
            roll = rng.random()
            if roll < 0.2:
                bmap.add_wall(x, y, height_ft=rng.choice([0, 10]))
            elif roll < 0.3:
                bmap.elevation_ft[y, x] = rng.choice([5, 10, 20])
            elif roll < 0.35:
                bmap.difficult[y, x] = True
    base = FlatGrid(bmap)
    rel = offsets(facing, footprint)
    rows, arrays = BodyGrid(base, rel, climb_step, whole_arrays=False), BodyGrid(base, rel, climb_step, whole_arrays=True)
    for name in ("passable", "wall", "difficult", "elevation", "top", "lowest"):
        got, want = getattr(arrays, name), getattr(rows, name)
        assert got == want and [type(v) for v in got] == [type(v) for v in want], name
    assert arrays.any_difficult == rows.any_difficult
