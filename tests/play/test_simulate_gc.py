"""A played battle runs the young garbage collections less often, and leaves the collector as it found it."""
from __future__ import annotations

import gc

from game.play.simulate import BATTLE_GC_THRESHOLD, fewer_collections


def test_fewer_collections_while_a_battle_is_played_then_as_before():
    before = gc.get_threshold()
    with fewer_collections():
        assert gc.get_threshold()[0] == max(before[0], BATTLE_GC_THRESHOLD)
        assert gc.get_threshold()[1:] == before[1:]
    assert gc.get_threshold() == before


def test_the_collector_is_restored_when_the_battle_raises():
    before = gc.get_threshold()
    try:
        with fewer_collections():
            raise RuntimeError("a battle that fails")
    except RuntimeError:
        pass
    assert gc.get_threshold() == before
