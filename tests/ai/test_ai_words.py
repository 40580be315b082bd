"""The AI's reasons in a player's words (what the window shows): what it goes for with the
resolver's odds, and what it risks or keeps clear of; never bare scores."""
from __future__ import annotations

import re

from game.ai import AI
from game.client.describe import ai_lines
from tests.ai.test_ai import first_action, make_battle


def test_a_blow_at_a_wounded_foe_is_told_with_its_odds_to_hit_and_to_fell():
    b = make_battle("bfrpg", [
        {"id": "hero", "side": "blue", "template": "foot", "x": 5, "y": 6, "facing": "E"},
        {"id": "gob", "side": "red", "template": "foot", "x": 6, "y": 6, "facing": "W", "stats": {"hp": 2}},
    ])
    ai = AI("normal")
    first_action(ai, b, "hero")
    best = ai.last_decision.best
    words = best.words(b.figures)
    assert words.startswith("goes for the wounded") or words.startswith("goes for"), words
    p_hit, p_fell = best.data["p_hit"], best.data.get("p_fell", best.data["p_kill"])
    assert f"{p_hit:.0%} to hit" in words and f"{p_fell:.0%} to fell it" in words
    lines = ai_lines(b.figures, ai.last_decision)
    assert lines[0][0].startswith("* goes for") and "attacks" in lines[0][0]        # the words, then the actions
    assert all(text.startswith("  or ") for text, _style in lines[1:])
    assert len({text for text, _style in lines}) == len(lines)
    # no bare scores (+0.76) in the window's lines
    assert not any(re.search(r"[+-]\d+\.\d\d", text) for text, _style in lines), lines


def test_an_archer_shooting_says_so_and_names_the_risk():
    b = make_battle("bfrpg", [
        {"id": "bow", "side": "blue", "template": "archer", "x": 2, "y": 6, "facing": "E"},
        {"id": "gob", "side": "red", "template": "foot", "x": 9, "y": 6, "facing": "W"},
    ])
    ai = AI("normal")
    first_action(ai, b, "bow")
    shots = [p for p in ai.last_decision.plans if p.data.get("ranged") and "p_hit" in p.data]
    assert shots
    words = shots[0].words(b.figures)
    assert words.startswith("shoots at Goblin") or words.startswith("shoots at " + b.figures["gob"].label), words
    assert "; " in words and ("risks" in words or "keeps out of the foes' reach" in words), words
