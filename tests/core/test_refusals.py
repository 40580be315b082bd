"""Refusals are values with one table of words (game/core/values/refusals.py)."""
import re
from pathlib import Path

import pytest

from game.core.values.refusals import WORDS, Refusal

GAME = Path(__file__).resolve().parents[2] / "game"
USE = re.compile(r'(?:refuse|Refusal\.of)\(\s*"([a-z0-9.-]+)"')


def keys_used_in_code() -> set[str]:
    found = set()
    for path in GAME.rglob("*.py"):
        found |= set(USE.findall(path.read_text()))
    return found


def test_every_refusal_the_code_raises_has_words_and_every_word_is_used():
    used = keys_used_in_code()
    assert used - set(WORDS) == set(), "refusals without words"
    assert set(WORDS) - used == set(), "words no refusal uses"


def test_words_are_made_from_the_numbers():
    r = Refusal.of("turn.too-soon", rule="bfrpg:maneuverability", who="the horse", turning_ft=20, straight_ft=10,
                   running=False)
    assert r.words == "the horse must move 20 ft straight ahead before turning again; it has moved 10 ft"
    assert r.to_json() == {"key": "turn.too-soon", "rule": "bfrpg:maneuverability", "words": r.words,
                           "params": {"who": "the horse", "turning_ft": 20, "straight_ft": 10, "running": False}}
    assert str(r) == r.words and r.get("turning_ft") == 20


def test_an_unknown_key_is_a_programming_error():
    with pytest.raises(KeyError):
        Refusal.of("no.such-refusal")
