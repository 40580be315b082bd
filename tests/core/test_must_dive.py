"""A stalled winged flyer must dive at its full rate on its next move (bfrpg:maneuverability).

The resolver sets Figure.must_dive after a stall and clears it after the next move; the
planner and Positioning.follow honour it: the move is a dive straight down, as far as the
move allows (twice the move in feet) or to the ground, and nothing else.
"""
from dataclasses import replace

import pytest

from game.core.values.errors import RulesError

from helpers import fig, open_map, positioning


def stalled(altitude_ft=60, move_ft=60):
    griffon = fig("g", "red", 5, 5, "E", move_ft=move_ft, turning_ft=10, flyer="winged", altitude_ft=altitude_ft)
    return positioning(open_map(), "bfrpg", replace(griffon, must_dive=True))


def test_the_only_move_is_the_full_dive():
    pos = stalled(altitude_ft=200, move_ft=60)
    reach = pos.reach("g")
    assert list(reach) == [(5, 5)]
    assert reach[(5, 5)].altitudes == {80: 60}       # 120 ft down (twice the 60-ft move) costs all 60 ft
    path = pos.plan("g", (5, 5)).path
    assert [s.kind for s in path.steps[1:]] == ["dive"] * 12
    assert path.end.altitude_ft == 80 and path.total_ft == 60
    assert not path.stall  # the forced dive is the stall's consequence, not a new stall
    assert "stalled, it must dive" in path.steps[1].note


def test_a_dive_to_the_ground_ends_it():
    pos = stalled(altitude_ft=30, move_ft=60)
    path = pos.plan("g", (5, 5)).path
    assert path.end.altitude_ft == 0 and path.total_ft == 15


def test_flying_across_or_stopping_short_is_refused():
    pos = stalled(altitude_ft=60)
    with pytest.raises(RulesError, match="stalled and must dive"):
        pos.plan("g", (7, 5))
    with pytest.raises(RulesError, match="stalled and must dive"):
        pos.plan("g", (5, 5), altitude_ft=40)
    with pytest.raises(RulesError, match="dive is a walk-pace move"):
        pos.plan("g", (5, 5), mode="run")


def test_follow_holds_the_flyer_to_the_dive():
    pos = stalled(altitude_ft=40, move_ft=60)
    with pytest.raises(RulesError, match="step 1, to 6,5: .*stalled and must dive"):
        pos.follow("g", [(6, 5, 2, 40)])
    with pytest.raises(RulesError, match="step 2, to 5,5: .*must go all the way"):
        pos.follow("g", [(5, 5, 2, 30), (5, 5, 2, 20)])
    full = pos.follow("g", [(5, 5, 2, a) for a in (30, 20, 10, 0)])
    assert full.path == pos.plan("g", (5, 5)).path


def test_on_the_ground_there_is_nothing_to_dive():
    griffon = replace(fig("g", "red", 5, 5, "E", move_ft=60, turning_ft=10, flyer="winged"), must_dive=True)
    pos = positioning(open_map(), "bfrpg", griffon)
    assert pos.plan("g", (8, 5)).path.total_ft == 15
