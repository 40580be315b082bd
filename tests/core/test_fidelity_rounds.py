"""Issue 27 (rules fidelity, third pass): the round. Ties on the initiative die, a battle where
nobody is left standing, surprise on both sides. Each test cites the section of its document
(seeds: 000 bfrpg, 001 odnd, 002 cnc, 003 ch17, 004 spelljammer) that fails without the fix.
"""
from __future__ import annotations

from game.core.values.actions import Attack, EndTurn

from battles import OPEN, fig, make_battle, until_turn
from dice import ForcedDice


def _cnc_tie(a_dex: int, b_dex: int):
    """cnc: a and b beside each other, both rolling 5 on the d10; a (who hits on anything) is to act."""
    b = make_battle("cnc", OPEN, [fig("a", "blue", 2, 2, "E", stats={"hp": 30, "dex_mod": a_dex, "attack_bonus": 30}),
                                  fig("b", "red", 3, 2, "W", stats={"hp": 1, "dex_mod": b_dex, "attack_bonus": 30})])
    assert b.state.phase == "declare"
    b.rng = ForcedDice([5, 5])              # the two initiative dice, rolled once the declarations are done
    until_turn(b, "a")
    return b


def test_cnc_a_tie_on_the_die_goes_to_the_higher_dex_and_the_one_felled_does_not_strike_back():
    """cnc:initiative: on a tied d10 the higher DEX acts first; only equal DEX is simultaneous. b, felled
    by the quicker a on the same die, gets no blow (fallen_act_on_ties was applied to the die, not DEX)."""
    b = _cnc_tie(2, 0)
    assert [(fid, n) for fid, n, _done in b.turn_order()] == [("a", 5), ("b", 5)]
    assert [s.members for s in b.state.slots] == [["a"], ["b"]]
    events = b.apply(Attack("a", target="b"))
    assert not b.able("b")
    assert not [e for e in events if e.kind == "simultaneous"]
    assert b.is_over and b.winner == "blue"


def test_cnc_equal_die_and_equal_dex_is_simultaneous():
    """cnc:initiative: equal DEX on a tied die acts at once: the felled b still strikes."""
    b = _cnc_tie(1, 1)
    assert [s.members for s in b.state.slots] == [["a", "b"]]
    events = b.apply(Attack("a", target="b"))
    assert not b.able("b") and [e for e in events if e.kind == "simultaneous"]
    b.apply(EndTurn("a"))
    assert b.current == "b" and b.check(Attack("b", target="a")) is None


def test_two_sides_felled_on_the_same_number_is_a_draw():
    """ch17:determine-initiative-order (equal numbers act simultaneously): a fells b, b's blow on the same
    number fells a; nobody is left standing, so nobody wins (it reported 'side red wins')."""
    b = make_battle("ch17", OPEN, [fig("a", "blue", 4, 4, "E", stats={"hp": 1, "attack_bonus": 30}),
                                   fig("b", "red", 5, 4, "W", stats={"hp": 1, "attack_bonus": 30})], seed=2)
    assert [s.members for s in b.state.slots] == [["a", "b"]]
    until_turn(b, "a")
    b.apply(Attack("a", target="b"))
    b.apply(EndTurn("a"))
    events = b.apply(Attack("b", target="a"))
    assert not b.able("a") and not b.able("b")
    over = [e for e in events if e.kind == "battle-over"]
    assert b.is_over and b.winner is None
    assert over and over[0].outcome == "draw" and "draw" in over[0].text and "wins" not in over[0].text


def test_odnd_both_sides_surprised_cancel_out_and_round_1_is_fought():
    """odnd:encounter-order (3, SURPRISE): if both sides are surprised, it cancels out and the encounter
    proceeds normally. Both sides here are surprised on any d6 (1-6); the engine skipped round 1 for both."""
    unaware = {"hp": 20, "unaware": True, "surprised_on": 6}
    b = make_battle("odnd", OPEN, [fig("a", "blue", 4, 4, "E", stats=unaware), fig("b", "red", 5, 4, "W", stats=unaware)])
    checks = [e for e in b.events if e.kind == "surprise"]
    assert [e.outcome for e in checks] == ["surprised", "surprised", "cancelled"]
    assert checks[-1].rule == "odnd:surprise" and "cancel" in checks[-1].text
    assert not b.state_of("a").has("surprised") and not b.state_of("b").has("surprised")
    assert b.round == 1 and b.current in ("a", "b")
    assert b.check(Attack(b.current, target="b" if b.current == "a" else "a")) is None
    assert not [e for e in b.events if e.kind == "skip"]


def test_odnd_one_side_surprised_still_loses_round_1():
    """odnd:encounter-order: only one side surprised: it cannot respond that round (no cancelling)."""
    b = make_battle("odnd", OPEN, [fig("a", "blue", 4, 4, "E", stats={"hp": 20}),
                                   fig("b", "red", 5, 4, "W", stats={"hp": 20, "unaware": True, "surprised_on": 6})])
    assert [e.outcome for e in b.events if e.kind == "surprise"] == ["surprised"]
    assert b.state_of("b").has("surprised")
