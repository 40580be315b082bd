"""Why a square cannot be reached: every branch names the rule that really stands in the way."""
from dataclasses import replace

import pytest

from game.core.values.errors import RulesError
from game.core.values.geometry import FACING_INDEX

from helpers import ascii_map, fig, open_map, positioning


def refusal(pos, figure_id, target, **kw) -> str:
    with pytest.raises(RulesError) as err:
        pos.plan(figure_id, target, **kw)
    return str(err.value)


# ----- the three refusals the issue found -----

def test_a_floater_that_cannot_rise_that_far_is_told_the_cost_not_that_it_is_already_there():
    """bfrpg:maneuverability: floaters climb straight up at half their rate (25 ft up costs 50 ft)."""
    pos = positioning(open_map(), "bfrpg", fig("f", "a", 5, 5, flyer="floater", move_ft=40))
    words = refusal(pos, "f", (5, 5), altitude_ft=25)
    assert "already" not in words
    assert "needs 50 ft" in words and "has 40 ft" in words
    aloft = positioning(open_map(), "bfrpg", fig("f", "a", 5, 5, flyer="floater", move_ft=40, altitude_ft=10))
    assert "needs 50 ft" in refusal(aloft, "f", (5, 5), altitude_ft=35)


def test_a_half_turn_at_the_end_is_refused_for_its_angle_not_the_turning_distance():
    """bfrpg:maneuverability: a facing change is a turn of up to 90 degrees; the horse has run its
    20 ft straight, so the distance is not what refuses E to W."""
    pos = positioning(open_map(), "bfrpg", fig("horse", "a", 5, 10, "E", move_ft=60, turning_ft=20))
    words = refusal(pos, "horse", (9, 10), facing=FACING_INDEX["W"])
    assert "at most 90 degrees" in words and "E to W is 180" in words
    assert "straight ahead" not in words


def test_before_any_turn_the_distance_counts_from_the_start_of_the_move():
    """bfrpg:maneuverability: T ft straight after the start of the move (it has not turned yet)."""
    pos = positioning(open_map(), "bfrpg", fig("horse", "a", 5, 10, "E", move_ft=60, turning_ft=20))
    words = refusal(pos, "horse", (6, 10), facing=FACING_INDEX["N"])
    assert "after the start of its move" in words and "it has moved 5 ft" in words
    assert "facing change before" not in words
    words = refusal(pos, "horse", (5, 8))
    assert "after the start of its move" in words and "facing change" not in words.split(";")[0]


# ----- every other branch -----

def test_already_there():
    pos = positioning(open_map(), "bfrpg", fig("w", "a", 5, 5))
    words = pos.explainer(pos.figure("w"), "walk").why((5, 5), None, None)
    assert words == "w is already on 5,5"


def test_off_the_map():
    pos = positioning(open_map(10, 10), "bfrpg", fig("w", "a", 5, 5))
    assert "off the map" in refusal(pos, "w", (12, 5))


def test_a_wall_no_flyer_passes_over():
    bmap = open_map(10, 10)
    bmap.add_wall(7, 5, height_ft=0)
    pos = positioning(bmap, "bfrpg", fig("g", "a", 5, 5, "E", flyer="winged", turning_ft=10, altitude_ft=30))
    assert "no flyer passes over" in refusal(pos, "g", (7, 5))


def test_a_flyer_cannot_stop_inside_an_obstacle():
    bmap = open_map(10, 10)
    bmap.add_wall(7, 5, height_ft=20)
    pos = positioning(bmap, "bfrpg", fig("f", "a", 5, 5, "E", flyer="floater", altitude_ft=30))
    assert "20 ft high" in refusal(pos, "f", (7, 5), altitude_ft=10)
    assert pos.plan("f", (7, 5), altitude_ft=30).path.end.altitude_ft == 30  # above it, it may stop


def test_a_walker_has_no_altitude():
    pos = positioning(open_map(), "bfrpg", fig("w", "a", 5, 5))
    assert "does not fly" in refusal(pos, "w", (6, 5), altitude_ft=10)


def test_too_high_for_the_planner():
    pos = positioning(open_map(), "bfrpg", fig("f", "a", 5, 5, flyer="floater", move_ft=40))
    assert "above the 200 ft" in refusal(pos, "f", (5, 5), altitude_ft=250)


def test_a_winged_flyer_cannot_end_between_its_climbs():
    """bfrpg:maneuverability: a winged flyer climbs 10 ft at a time; 45 ft is never a height it flies at
    here (it starts at 40 and dives 10 ft per 5 ft)."""
    pos = positioning(open_map(), "bfrpg", fig("g", "a", 5, 5, "E", flyer="winged", turning_ft=10, altitude_ft=40,
                                               move_ft=60))
    words = refusal(pos, "g", (8, 5), altitude_ft=45)
    assert "climbs 10 ft" in words and "45 ft" in words


def test_walls_close_every_way():
    bmap = ascii_map("""
.....
.###.
.#.#.
.###.
.....
""")
    pos = positioning(bmap, "bfrpg", fig("w", "a", 0, 0))
    assert "close every way" in refusal(pos, "w", (2, 2))


def test_ledges_too_high():
    """Engine convention (climb_step_ft = 5): a plateau 20 ft up with no stair is out of a walker's reach."""
    def plateau(stair=False):
        bmap = open_map(10, 10)
        bmap.elevation_ft[4:7, 6:9] = 20
        if stair:
            bmap.elevation_ft[5, 3:6] = (5, 10, 15)   # a stair of 5-ft steps up to it
        return positioning(bmap, "bfrpg", fig("w", "a", 1, 5))
    assert "ledges or drops too high to step (more than 5 ft)" in refusal(plateau(), "w", (7, 5))
    stair = plateau(stair=True)
    assert stair.plan("w", (7, 5)).path.total_ft == 30


def test_too_far():
    pos = positioning(open_map(), "bfrpg", fig("w", "a", 0, 0, "E", move_ft=40))
    assert "too far: 9,0 needs 45 ft, w has 40 ft (walk)" in refusal(pos, "w", (9, 0))


def test_turning_distance_after_an_earlier_move_this_round():
    """bfrpg:maneuverability: a move split over actions is one move; the count runs from the last change."""
    horse = replace(fig("horse", "a", 7, 10, "E", move_ft=60, turning_ft=20), has_moved=True, straight_ft=10.0)
    pos = positioning(open_map(), "bfrpg", horse)
    words = refusal(pos, "horse", (7, 8))
    assert "must move 20 ft straight ahead (E) before turning again; it has moved 10 ft" in words


def test_cannot_turn_sharply_enough_in_a_corridor():
    """bfrpg:maneuverability: at most 90 degrees per change: no turning round in a corridor one square wide."""
    bmap = ascii_map("\n".join(["#.#"] * 9))
    pos = positioning(bmap, "bfrpg", fig("w", "a", 1, 4, "N", move_ft=40, turning_ft=5))
    words = refusal(pos, "w", (1, 6))
    assert "cannot turn sharply enough" in words and "at most 90 degrees" in words
    assert "no path to 1,6 keeps to its turning rules" in words


def test_running_names_both_limits():
    """bfrpg:maneuverability: running: 45 degrees per change after 10 ft straight."""
    pos = positioning(open_map(), "bfrpg", fig("man", "a", 10, 10, "N", move_ft=40))
    words = refusal(pos, "man", (12, 10), mode="run")
    assert "45 degrees" in words and "10 ft straight" in words and "needs 85 ft and it has 80 ft" in words


def test_sidestep_branches():
    """bfrpg:maneuverability: one square to the side, keeping facing, at walking pace."""
    bmap = ascii_map("""
.......
..#.2..
.......
""")
    pos = positioning(bmap, "bfrpg", fig("w", "a", 3, 1, "N"))
    assert "may sidestep to 2,1 or 4,1" in refusal(pos, "w", (3, 2), mode="sidestep")
    assert "a wall or obstacle" in refusal(pos, "w", (2, 1), mode="sidestep")
    assert "a step climbs or drops at most 5 ft" in refusal(pos, "w", (4, 1), mode="sidestep")
    assert "keeps the facing" in refusal(open_positioning_man(), "man", (11, 10), mode="sidestep",
                                         facing=FACING_INDEX["E"])


def open_positioning_man():
    return positioning(open_map(), "bfrpg", fig("man", "a", 10, 10, "N"))


def test_sidestep_past_a_wall_corner():
    """Engine convention (corner_cutting = false): a diagonal sidestep may not cut a wall corner."""
    bmap = ascii_map("""
.....
.....
..#..
.....
""")
    pos = positioning(bmap, "bfrpg", fig("w", "a", 1, 2, "NE"))   # sidesteps go NW to 0,1 or SE to 2,3
    assert "cut the corner of the wall at 2,2" in refusal(pos, "w", (2, 3), mode="sidestep")
    assert pos.plan("w", (0, 1), mode="sidestep").path.total_ft == 5


def test_withdrawal_branches():
    """bfrpg:defensive-movement: back away at up to half the move, keeping the facing."""
    pos = open_positioning_man()
    assert "is not behind man" in refusal(pos, "man", (10, 8), mode="withdraw")
    assert "too far for a fighting withdrawal" in refusal(pos, "man", (10, 15), mode="withdraw")
    assert "keeps the facing" in refusal(pos, "man", (10, 12), mode="withdraw", facing=FACING_INDEX["S"])
    bmap = ascii_map("""
.......
.......
.......
..###..
.......
""")
    walled = positioning(bmap, "bfrpg", fig("man", "a", 3, 2, "N"))
    assert "close every way back" in refusal(walled, "man", (3, 4), mode="withdraw")


def test_far_beyond_the_explanations_bound():
    """The relaxed searches look three times the budget far (at least budget + 60 ft)."""
    pos = positioning(open_map(60, 5), "bfrpg", fig("w", "a", 0, 2, "E", move_ft=10))
    assert "too far: 25,2 is more than 70 ft away by any way there, w has 10 ft (walk)" in refusal(pos, "w", (25, 2))
    assert "needs 60 ft" in refusal(pos, "w", (12, 2))
    walled = open_map(60, 5)
    walled.blocks_move[:, 30] = True
    pos = positioning(walled, "bfrpg", fig("w", "a", 0, 2, "E", move_ft=10))
    assert "close every way there" in refusal(pos, "w", (45, 2))
