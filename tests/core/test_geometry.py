"""Geometry: distances under each diagonal rule, facings, arcs (docs/geometry.md)."""
import math

from hypothesis import given
from hypothesis import strategies as st

from game.core.values.geometry import combine_vertical_ft, distance_ft, grid_distance_ft, relative_arc, step_cost_ft, turn_octants

deltas = st.integers(min_value=-40, max_value=40)


def test_5_10_worked_numbers_from_the_issue():
    """bfrpg:5-10-diagonals: (3,3) = 20 ft, (4,4) = 30 ft, (3,1) = 15 ft on open ground."""
    assert grid_distance_ft("5-10", 3, 3) == 20
    assert grid_distance_ft("5-10", 4, 4) == 30
    assert grid_distance_ft("5-10", 3, 1) == 15


@given(deltas, deltas)
def test_5_10_closed_form(dx, dy):
    a, b = abs(dx), abs(dy)
    assert grid_distance_ft("5-10", dx, dy) == 5 * max(a, b) + 5 * (min(a, b) // 2)


@given(deltas, deltas)
def test_5_10_equals_summing_alternating_diagonals(dx, dy):
    diagonals = min(abs(dx), abs(dy))
    straight = max(abs(dx), abs(dy)) - diagonals
    walked = sum(step_cost_ft("5-10", True, i) for i in range(diagonals)) + 5 * straight
    assert walked == grid_distance_ft("5-10", dx, dy)


@given(deltas, deltas)
def test_rules_are_ordered_and_symmetric(dx, dy):
    five = grid_distance_ft("5", dx, dy)
    five_ten = grid_distance_ft("5-10", dx, dy)
    manhattan = grid_distance_ft("none", dx, dy)
    assert five <= five_ten <= manhattan
    assert five <= grid_distance_ft("euclidean", dx, dy) + 1e-9 <= manhattan + 1e-9
    for rule in ("5", "5-10", "euclidean", "none"):
        assert grid_distance_ft(rule, dx, dy) == grid_distance_ft(rule, -dx, -dy)


@given(st.sampled_from(["5", "5-10", "euclidean", "none"]), deltas, deltas, st.integers(0, 200))
def test_height_never_shortens_a_distance(rule, dx, dy, dz):
    flat = distance_ft(rule, (0, 0), (dx, dy))
    assert distance_ft(rule, (0, 0), (dx, dy), 0, dz) >= flat
    assert distance_ft(rule, (0, 0), (dx, dy), 0, dz) >= dz - 2.5


def test_euclidean_figure_distances_are_rounded_to_5_ft():
    """spelljammer measures true distance; diagonal neighbours still stand 5 ft apart."""
    assert distance_ft("euclidean", (0, 0), (1, 1)) == 5
    assert distance_ft("euclidean", (0, 0), (2, 1)) == 10
    assert distance_ft("euclidean", (0, 0), (2, 2)) == 15


def test_vertical_distance_uses_the_diagonal_rule():
    # A flyer 10 ft up directly above an adjacent square: 5 ft across, 10 ft up -> 10 ft under 5-10.
    assert combine_vertical_ft("5-10", 5, 10) == 10
    # 10 ft across, 10 ft up: the shorter leg is two 5-ft units, so +5 under 5-10.
    assert combine_vertical_ft("5-10", 10, 10) == 15
    assert combine_vertical_ft("5", 10, 10) == 10
    assert math.isclose(combine_vertical_ft("euclidean", 30, 40), 50)


@given(st.integers(0, 7), st.integers(0, 7))
def test_turn_octants_is_the_short_way_round(a, b):
    t = turn_octants(a, b)
    assert 0 <= t <= 4
    assert t == turn_octants(b, a)
    assert (a + t) % 8 == b or (a - t) % 8 == b


def test_arcs_from_facing():
    # Defender at 5,5 facing north: an attacker due south is directly behind, east is to its right.
    assert relative_arc((5, 5), 0, (5, 8)) == 4
    assert relative_arc((5, 5), 0, (8, 5)) == 2
    assert relative_arc((5, 5), 0, (5, 2)) == 0
    assert relative_arc((5, 5), 2, (4, 6)) == 3  # facing east, attacker south-west: rear-right... of an east-facer
