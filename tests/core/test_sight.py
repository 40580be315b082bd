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


# ----- a corner sealed by two walls (docs/geometry.md) -----

POCKET = """
.......
.@#....
.#.....
.......
.......
"""


def _pocket_figures(ruleset_id, foe_at, weapons=("sword",)):
    from helpers import fig, positioning
    return positioning(ascii_map(POCKET.replace("@", ".")), ruleset_id,
                       fig("pocketed", "blue", 1, 1, "SE"), fig("foe", "red", *foe_at, "NW", weapons=weapons))


def test_a_sealed_corner_breaks_the_odnd_melee_zone_on_a_longer_line():
    """odnd:misc-combat-rules: in melee within 10 ft unless separated by an obstacle.

    The figure stands in a pocket: walls east and south of it meet at its south-east corner.
    A foe two squares away on the diagonal is 10 ft off (odnd counts a diagonal as 5 ft), and
    the line between their centres passes exactly through that sealed corner point.
    """
    pos = _pocket_figures("odnd", (3, 3))
    assert pos.engagement.gap_ft(pos.figure("pocketed"), b=pos.figure("foe")) == 10
    assert pos.engagement.engaged_pairs(pos.figures) == []
    open_ = _pocket_figures("odnd", (3, 3))
    open_.map.blocks_move[2, 1] = open_.map.blocks_sight[2, 1] = False   # one wall gone: the corner is open
    assert len(_engaged(open_)) == 1


def _engaged(pos):
    return pos.engagement.engaged_pairs(pos.figures)


def test_a_sealed_corner_stops_a_spear_on_a_longer_line():
    """cnc:melee-combat (a spear reaches 10 ft): no reach through the corner where two walls meet."""
    pos = _pocket_figures("cnc", (3, 3), weapons=("spear",))
    assert (1, 1) not in set(pos.engagement.threatened_squares(pos.figure("foe")))
    assert not pos.engagement.threatens(pos.figure("foe"), (1, 1))
    assert pos.engagement.threatens(pos.figure("foe"), (3, 1))  # the spear still reaches 10 ft in the open


def test_diagonal_neighbours_across_a_sealed_corner_are_not_engaged():
    """bfrpg:the-combat: within 5 ft they are engaged, but not through two walls meeting at a corner."""
    pos = _pocket_figures("bfrpg", (2, 2))
    assert _engaged(pos) == []


def test_a_sealed_corner_blocks_sight_lines_through_it():
    """docs/geometry.md: a line passing through the point where two walls meet is blocked there."""
    bmap = ascii_map(POCKET.replace("@", "."))
    sight = SightMap(bmap)
    assert not sight.clear_line((1, 1), (3, 3))
    # From inside the pocket the two walls hide everything to the south-east.
    assert not sight.sight((1, 1), (3, 3)).visible
    assert sight.sight((1, 1), (1, 0)).visible
    open_ = ascii_map(POCKET.replace("@", ".").replace(".#.....", "......."))
    assert SightMap(open_).clear_line((1, 1), (3, 3)) and SightMap(open_).sight((1, 1), (3, 3)).visible


def test_a_line_through_a_sealed_corner_at_its_midpoint():
    """Lines whose legs are both odd (3 across, 1 down) pass a grid point at their middle: sealed there too."""
    bmap = ascii_map("""
........
....#...
...#....
........
""")
    # From 2,1 to 5,2 the centre line passes the grid point 4,2, where walls 4,1 and 3,2 meet.
    assert not SightMap(bmap).clear_line((2, 1), (5, 2))
    assert SightMap(open_map(8, 4)).clear_line((2, 1), (5, 2))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 9), st.integers(0, 9), st.integers(0, 9), st.integers(0, 9))
def test_clear_line_is_symmetric(ax, ay, bx, by):
    bmap = ascii_map("\n".join(["..........", "...#......", "....#.....", ".....#....", "..........",
                                 "...##.....", "...#......", "..........", "......#...", ".......#.."]))
    sight = SightMap(bmap)
    assert sight.clear_line((ax, ay), (bx, by)) == sight.clear_line((bx, by), (ax, ay))
