"""A move split over several actions in one round obeys the rules as one move (bfrpg:maneuverability)."""
import pytest

from game.core.values.actions import EndTurn, Move, Turn
from game.core.battle import Battle, BattleSetup
from game.core.values.refusals import ActionRefused
from game.io.rulesets import load_ruleset

from helpers import fig, open_map


def battle(*figures, ruleset="bfrpg"):
    return Battle(BattleSetup(open_map(30, 20), load_ruleset(ruleset), figures, seed=4))


def first_actor(b, fid):
    """Pass turns until `fid` acts (initiative order is rolled)."""
    for _ in range(50):
        if b.current == fid:
            return
        b.apply(EndTurn(b.current))
    raise AssertionError(f"{fid} never got a turn")


def test_the_diagonal_count_carries_into_the_next_move():
    """bfrpg:5-10-diagonals: the second diagonal of the round costs 10 ft, even in a second move."""
    b = battle(fig("w", "blue", 5, 5, "SE", move_ft=40), fig("far", "red", 25, 15))
    first_actor(b, "w")
    first = b.apply(Move("w", to=(6, 6)))[0]
    assert first.data["cost_ft"] == 5
    second = b.apply(Move("w", to=(7, 7)))[0]
    assert second.data["cost_ft"] == 10
    assert b.figures["w"].diagonals_moved == 2


def test_a_horse_turns_on_the_spot_only_after_its_turning_distance():
    """bfrpg:maneuverability: 20 ft straight between facing changes, each at most 90 degrees."""
    b = battle(fig("horse", "blue", 5, 10, "E", move_ft=60, turning_ft=20), fig("far", "red", 25, 2))
    first_actor(b, "horse")
    b.apply(Move("horse", to=(7, 10)))
    with pytest.raises(ActionRefused, match="must move 20 ft straight ahead before turning again; it has moved 10 ft"):
        b.apply(Turn("horse", facing="N"))
    with pytest.raises(ActionRefused, match="must move 20 ft straight ahead \\(E\\) before turning again"):
        b.apply(Move("horse", to=(7, 8)))
    b.apply(Move("horse", to=(9, 10)))
    with pytest.raises(ActionRefused, match="at most 90 degrees"):
        b.apply(Turn("horse", facing="SW"))
    b.apply(Turn("horse", facing="N"))
    assert b.figures["horse"].straight_ft == 0
    with pytest.raises(ActionRefused, match="before turning again; it has moved 0 ft"):
        b.apply(Turn("horse", facing="E"))


def test_a_new_round_starts_the_count_again():
    b = battle(fig("horse", "blue", 5, 10, "E", move_ft=60, turning_ft=20), fig("far", "red", 25, 2))
    first_actor(b, "horse")
    b.apply(Move("horse", to=(7, 10)))
    round_now = b.round
    for _ in range(50):
        if b.round > round_now:
            break
        b.apply(EndTurn(b.current))
    horse = b.figures["horse"]
    assert (horse.has_moved, horse.straight_ft, horse.diagonals_moved) == (False, 0, 0)
    first_actor(b, "horse")
    b.apply(Turn("horse", facing="S"))  # stationary again: turns freely
