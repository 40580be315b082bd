"""The AI holds off the cyclic collector while it decides and leaves it as it found it."""
from __future__ import annotations

import gc

import pytest

from game.ai import AI
from game.ai.collector import collector_held
from tests.battles import OPEN, fig, make_battle


def test_the_collector_is_held_while_the_ai_decides_and_running_after():
    battle = make_battle("bfrpg", OPEN, [fig("a", "blue", 2, 2), fig("b", "red", 9, 6)])
    seen = []
    ai = AI("normal")
    real = ai.decide

    def deciding(b, fid):
        seen.append(gc.isenabled())
        return real(b, fid)
    ai.decide = deciding
    assert gc.isenabled()
    action = ai.choose(battle, battle.current)
    assert seen == [False]
    assert gc.isenabled()
    assert battle.check(action) is None


def test_nested_holds_release_once_and_a_raise_restores_it():
    assert gc.isenabled()
    with pytest.raises(RuntimeError):
        with collector_held():
            with collector_held():
                assert not gc.isenabled()
            assert not gc.isenabled()       # the outer block still holds it
            raise RuntimeError("a decision that fails")
    assert gc.isenabled()


def test_a_collector_already_off_stays_off():
    gc.disable()
    try:
        with collector_held():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
