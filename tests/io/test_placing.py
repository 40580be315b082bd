"""Figures of a map with no spawns (io/placing): on open squares of the largest area, the sides at
its two ends facing each other."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.values.battlemap import BattleMap
from game.io.placing import DROP_FT, default_positions, open_squares


def made(width, height, walls=(), water=(), floors=None) -> BattleMap:
    bmap = BattleMap.empty(width, height)
    for x, y in walls:
        bmap.add_wall(x, y)
    for x, y in water:
        bmap.water[y, x] = True
    for (x, y), feet in (floors or {}).items():
        bmap.elevation_ft[y, x] = feet
    return bmap


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 14), st.integers(3, 14), st.data())
def test_figures_stand_only_on_open_squares_the_sides_apart(width, height, data):
    squares = st.tuples(st.integers(0, width - 1), st.integers(0, height - 1))
    walls = data.draw(st.lists(squares, max_size=width * height // 2))
    water = data.draw(st.lists(squares, max_size=width * height // 3))
    bmap = made(width, height, walls, water)
    placed = default_positions(bmap)
    fine = open_squares(bmap)
    assert len({(x, y) for _, x, y, _ in placed}) == len(placed)
    for side, x, y, facing in placed:
        assert fine[y, x] and not bmap.water[y, x] and not bmap.blocks_move[y, x]
    if fine.sum() >= 8:
        assert placed
    if len(placed) == 4:
        assert [side for side, *_ in placed] == ["blue", "blue", "red", "red"]
        along = 1 if width >= height else 2
        blue = [p[along] for p in placed if p[0] == "blue"]
        red = [p[along] for p in placed if p[0] == "red"]
        assert not red or max(blue) <= min(red)


def test_the_sides_face_each_other_across_the_longer_side():
    east_west = default_positions(made(20, 8))
    assert {(side, facing) for side, _, _, facing in east_west} == {("blue", "E"), ("red", "W")}
    assert all(x <= 3 for side, x, _, _ in east_west if side == "blue")
    assert all(x >= 16 for side, x, _, _ in east_west if side == "red")
    north_south = default_positions(made(8, 20))
    assert {(side, facing) for side, _, _, facing in north_south} == {("blue", "S"), ("red", "N")}


def test_never_beside_a_drop_nor_cut_off_from_the_other_side():
    # a ledge 20 ft up on the left, a small pocket walled off on the right
    floors = {(x, y): 20 for x in range(0, 4) for y in range(6)}
    walls = [(12, y) for y in range(6)]
    bmap = made(16, 6, walls=walls, floors=floors)
    placed = default_positions(bmap)
    assert all(x < 12 for _, x, _, _ in placed)        # the larger area, left of the wall
    assert not any(x == 3 for _, x, _, _ in placed)    # the ledge's edge: a drop of 20 ft >= DROP_FT
    assert DROP_FT <= 20


def test_nowhere_open_places_nobody_and_a_tiny_map_fewer():
    assert default_positions(made(2, 1, walls=[(0, 0), (1, 0)])) == []
    assert default_positions(made(1, 1)) == [("blue", 0, 0, "E")]
    assert [side for side, *_ in default_positions(made(3, 1))] == ["blue", "red"]
