"""Line of sight and cover by corner-to-corner lines (docs/geometry.md)."""
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.moves.los import SightMap, crossed_squares

from helpers import ascii_map, open_map


def test_open_ground_is_visible_without_cover():
    sight = SightMap(open_map()).sight((2, 2), (9, 6))
    assert sight.visible and sight.cover == "none" and sight.concealment == "none"


def test_a_wall_between_hides_the_target_completely():
    bmap = ascii_map("""
.......
...#...
...#...
...#...
.......
""")
    sight = SightMap(bmap).sight((1, 2), (5, 2))
    assert not sight.visible and sight.cover == "full"


def test_a_wall_corner_gives_partial_cover():
    bmap = ascii_map("""
........
........
....#...
........
""")
    # The corner of the wall at 4,2 hides part of a target standing just past it.
    sight = SightMap(bmap).sight((0, 3), (6, 1))
    assert sight.visible and sight.cover in ("1/4", "1/2", "3/4")


def test_low_wall_gives_its_own_degree_and_flyers_see_over_it():
    bmap = ascii_map("""
.......
...=...
.......
""")
    ground = SightMap(bmap).sight((3, 0), (3, 2))
    assert ground.cover == "1/2"
    from_above = SightMap(bmap).sight((3, 0), (3, 2), altitude_a=40)
    assert from_above.cover == "none"


def test_shooting_through_an_ally_is_hard_cover():
    """bfrpg:cover-and-concealment: shooting through an ally counts as hard cover."""
    sight = SightMap(open_map(), "1/2").sight((2, 5), (8, 5), standing={(5, 5): 0})
    assert sight.cover == "1/2" and any(what == "figure" for *_, what in sight.blockers)


def test_fog_conceals_but_does_not_block():
    bmap = ascii_map("""
.......
..%%%..
.......
""")
    sight = SightMap(bmap).sight((0, 1), (6, 1))
    assert sight.visible and sight.cover == "none" and sight.concealment == "1/2"
    inside = SightMap(bmap).sight((0, 0), (3, 1))  # standing in the fog
    assert inside.concealment == "1/2"


def test_high_ground_sees_over_a_ridge_the_valley_cannot():
    bmap = ascii_map("""
.........
....6....
.........
""")
    low = SightMap(bmap).sight((0, 1), (8, 1))
    assert not low.visible
    assert SightMap(bmap).sight((0, 1), (8, 1), altitude_a=60, altitude_b=0).visible


@settings(max_examples=200, deadline=None)
@given(st.integers(-6, 6), st.integers(-6, 6))
def test_crossed_squares_form_a_connected_line(dx, dy):
    squares = [(x, y) for x, y, _ in crossed_squares(10.5, 10.5, 10.5 + dx, 10.5 + dy)]
    assert squares[0] == (10, 10) and squares[-1] == (10 + dx, 10 + dy)
    for (ax, ay), (bx, by) in zip(squares, squares[1:]):
        assert max(abs(ax - bx), abs(ay - by)) == 1


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 9), st.integers(0, 9), st.integers(0, 9), st.integers(0, 9))
def test_sight_on_open_ground_is_always_clear(ax, ay, bx, by):
    sight = SightMap(open_map(10, 10)).sight((ax, ay), (bx, by))
    assert sight.visible and sight.cover == "none"


def test_grazing_a_wall_edge_counts_as_crossing_it():
    # The line along the bottom edge of a wall square touches it for its whole length.
    squares = {(x, y) for x, y, _ in crossed_squares(0, 1, 3, 1)}
    assert {(1, 0), (1, 1)} <= squares
