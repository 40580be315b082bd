"""The one turn loop (game/play/turns.py): the guard's rules, headless."""
from __future__ import annotations

import pytest

from controllers import Fidget, Refuser, WrongEnd, duel
from game.core.values.actions import EndTurn
from game.play.controllers import Human, Passer
from game.play.turns import MAX_ACTIONS_PER_TURN, MAX_REFUSALS_PER_TURN, TurnLoop, applying, play_out


def test_refused_answers_are_counted_and_the_turn_is_ended_for_the_figure():
    b = duel()
    loop, submit = TurnLoop({"blue": Refuser(), "red": Refuser()}), applying(b)
    first = b.current
    for _ in range(MAX_REFUSALS_PER_TURN):
        step = loop.next(b)
        assert step.forced is None and step.figure_id == first
        assert not loop.submit(step.controller.choose(b, first), submit)
    step = loop.next(b)
    assert step.forced == EndTurn(first)
    assert loop.submit(step.forced, submit)
    assert b.current != first
    assert loop.stats == {"refusals": MAX_REFUSALS_PER_TURN, "forced_end_turns": 1, "stalled": False}


def test_a_controller_that_never_ends_its_turn_has_it_ended_after_the_most_actions():
    b = duel()
    stats = play_out(b, {"blue": Fidget(), "red": Passer()}, max_rounds=2)
    turns = [a for a in b.actions if a.kind == "turn"]
    assert len(turns) == 2 * MAX_ACTIONS_PER_TURN
    assert stats == {"refusals": 0, "forced_end_turns": 2, "stalled": False}


def test_a_refused_end_turn_stalls_play():
    b = duel()
    stats = play_out(b, {"blue": WrongEnd(), "red": WrongEnd()}, max_rounds=3)
    assert stats == {"refusals": 1, "forced_end_turns": 0, "stalled": True}
    assert not b.actions


def test_a_persons_turn_is_neither_asked_nor_ended_and_headless_play_says_so():
    b = duel()
    loop = TurnLoop({"blue": Human(), "red": Human()})
    assert loop.person_plays(b) and loop.next(b) is None and not loop.stalled
    with pytest.raises(RuntimeError, match="a person's"):
        play_out(b, {"blue": Human(), "red": Passer()}, max_rounds=1)


def test_restart_forgets_the_counts_and_the_stall():
    b = duel()
    loop = TurnLoop({"blue": WrongEnd(), "red": WrongEnd()})
    step = loop.next(b)
    loop.submit(step.controller.choose(b, step.figure_id), applying(b))
    assert loop.stalled and loop.next(b) is None
    loop.restart()
    assert not loop.stalled and loop.stats["refusals"] == 0 and loop.next(b) is not None


def test_a_failed_controllers_end_turn_counts_as_forced():
    loop = TurnLoop({})
    assert loop.end_turn_for("a") == EndTurn("a")
    assert loop.stats["forced_end_turns"] == 1
