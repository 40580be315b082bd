"""The result's highlights always hold the blows and falls that decided the battle (issue 26)."""
from __future__ import annotations

from game.play.report import deciding, highlights, rounds_words


def _ev(kind, text, **kw):
    return {"kind": kind, "text": text, "modifiers": [], **kw}


def test_every_fall_and_the_blow_that_felled_it_are_kept_however_many_moments_came_first():
    events = [_ev("charge", f"charge {i}", target="x") for i in range(12)]   # notable, early, many
    events += [_ev("attack", "A hits B", actor="a", target="b", outcome="hit"),
               _ev("attack", "C misses B", actor="c", target="b", outcome="miss"),
               _ev("down", "B is dead", actor="b"),
               _ev("attack", "D hits E", actor="d", target="e", outcome="hit"),
               _ev("down", "E is dead", actor="e")]
    assert [events[i]["text"] for i in deciding(events)] == ["A hits B", "B is dead", "D hits E", "E is dead"]
    got = highlights(events, most=8)
    assert got[-4:] == ["A hits B", "B is dead", "D hits E", "E is dead"]
    assert len(got) == 8 and got[:4] == ["charge 0", "charge 1", "charge 2", "charge 3"]
    assert highlights(events, most=2)[-4:] == got[-4:]        # never dropped, even over the limit


def test_rounds_are_counted_in_words():
    assert rounds_words(1) == "1 round" and rounds_words(4) == "4 rounds"
