"""Sight with lines memoised by offset and answers cached (game/core/moves/los.py) against the
code as it was (tests/los_reference.py): the same Sight, blockers in the same order, and the same
clear_line and visible answers, on random ground with walls of every height, cover, fog, ridges and hollows,
figures standing in the way at any altitude; asked again after the figures or the map change."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.values.battlemap import BattleMap
from game.core.values.cover import COVER_INDEX
from game.core.moves.los import SightMap

import los_reference

SIZE = 10
squares = st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1))


@st.composite
def ground(draw):
    bmap = BattleMap.empty(SIZE, SIZE)
    for x, y, kind in draw(st.lists(st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1),
                                              st.sampled_from("#tcf^v")), max_size=30)):
        if kind == "#":
            bmap.add_wall(x, y, height_ft=draw(st.sampled_from([0, 5, 15, 10000])))
        elif kind == "t":
            bmap.cover[y, x] = COVER_INDEX[draw(st.sampled_from(["1/4", "1/2", "3/4"]))]
            bmap.obstacle_height_ft[y, x] = draw(st.sampled_from([0, 4, 30]))
        elif kind == "c":
            bmap.concealment[y, x] = COVER_INDEX[draw(st.sampled_from(["1/4", "1/2"]))]
        elif kind == "f":
            bmap.blocks_move[y, x] = True
            bmap.obstacle_height_ft[y, x] = 5
        elif kind == "^":
            bmap.elevation_ft[y, x] = draw(st.sampled_from([5, 10, 30]))
        else:
            bmap.elevation_ft[y, x] = draw(st.sampled_from([-5, -10]))
    return bmap


altitudes = st.sampled_from([0, 0, 5, 10, 40])
standing_figures = st.dictionaries(squares, altitudes, max_size=12)


def _same(mine: SightMap, old, a, b, alt_a, alt_b, standing):
    got, want = mine.sight(a, b, alt_a, alt_b, standing), old.sight(a, b, alt_a, alt_b, standing)
    assert (got.visible, got.cover, got.concealment, got.corner, got.blockers) == \
        (want.visible, want.cover, want.concealment, want.corner, want.blockers)
    assert mine.visible(a, b, alt_a, alt_b) == want.visible
    got = mine.clear_line(a, b, alt_a, alt_b)
    assert got == old.clear_line(a, b, alt_a, alt_b)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ground(), st.lists(st.tuples(squares, squares, altitudes, altitudes), min_size=1, max_size=6),
       standing_figures, st.sampled_from(["1/4", "1/2", "3/4"]))
def test_memoised_sight_is_the_reference_sight(bmap, pairs, standing, degree):
    mine, old = SightMap(bmap, degree), los_reference.SightMap(bmap, degree)
    for a, b, alt_a, alt_b in pairs:
        _same(mine, old, a, b, alt_a, alt_b, standing)
        _same(mine, old, a, b, alt_a, alt_b, standing)      # now from the cache
        _same(mine, old, b, a, alt_b, alt_a, None)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ground(), squares, squares, standing_figures, squares, altitudes)
def test_a_cached_answer_follows_the_figures_and_the_map(bmap, a, b, standing, moved_to, altitude):
    """A figure stepping onto a line, rising or leaving it, and a wall built on the map, change the answer as they should."""
    mine = SightMap(bmap)
    _same(mine, los_reference.SightMap(bmap), a, b, 0, 0, standing)
    standing = dict(standing)
    standing[moved_to] = altitude
    _same(mine, los_reference.SightMap(bmap), a, b, 0, 0, standing)
    standing.pop(moved_to)
    _same(mine, los_reference.SightMap(bmap), a, b, 0, 0, standing)
    bmap.add_wall(*moved_to)
    _same(SightMap(bmap), los_reference.SightMap(bmap), a, b, 0, 10, standing)


def test_slanted_segments_cross_the_same_squares_as_crossed_squares():
    """los._grid_segment walks a segment's crossings in order; crossed_squares sorts them: the
    same squares at the same parameters, for every slanted segment up to 30 squares each way and
    some long ones."""
    from game.core.moves import los
    deltas = [(ex, ey) for ex in range(-30, 31) for ey in range(-30, 31) if ex and ey]
    deltas += [(ex, ey) for ex in (-97, 61, 100) for ey in (-89, -3, 1, 45, 99)]
    for ex, ey in deltas:
        assert los._grid_segment(ex, ey) == los.crossed_squares(0, 0, ex, ey), (ex, ey)


def test_sealed_corners_of_grid_point_segments_are_the_reference_ones():
    """sealed_corner_candidates looks only at the columns where a grid-point-to-grid-point segment
    can pass a grid point: the same candidates as the reference, whichever squares start and end it."""
    from game.core.moves import los
    for ex in range(-16, 17):
        for ey in range(-16, 17):
            for i, j in ((0, 0), (1, 0), (0, 1), (1, 1)):
                for start, end in (((0, 0), (ex, ey)), (None, None), ((-1, -1), (ex - 1, ey))):
                    assert los.sealed_corner_candidates(i, j, i + ex, j + ey, start, end) == \
                        los_reference.sealed_corner_candidates(i, j, i + ex, j + ey, start, end)
