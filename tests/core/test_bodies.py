"""A fallen figure is a body on the ground (docs/movement.md, Figures in the way): it neither blocks
nor engages, and a living figure may pass over it or stand on its square."""
from game.core.values.actions import EndTurn, Move
from game.core.combat.state import OUT_OF_FIGHT

from battles import OPEN, fig, make_battle


def test_a_living_figure_may_stand_on_a_fallen_ones_square():
    b = make_battle("bfrpg", OPEN, [fig("a", "blue", 2, 2, "E", stats={"hp": 20}), fig("b", "red", 4, 2, "W", stats={"hp": 20}),
                                    fig("c", "red", 3, 2, "W", stats={"hp": 20})])
    b.states["c"].conditions["dead"] = 0
    b.figures_moved()
    assert "dead" in OUT_OF_FIGHT
    assert [f.id for f in b.positioning().figures] == ["a", "b"]
    while b.current != "a":
        b.apply(EndTurn(b.current))
    assert b.check(Move("a", to=(3, 2))) is None
    b.apply(Move("a", to=(3, 2)))
    assert b.figures["a"].pos == b.figures["c"].pos == (3, 2)


def test_an_unconscious_figure_does_not_block_or_engage_either():
    b = make_battle("cnc", OPEN, [fig("a", "blue", 2, 2, "E", stats={"hp": 20}), fig("b", "red", 3, 2, "W", stats={"hp": 20})])
    b.states["b"].conditions["unconscious"] = 0
    b.figures_moved()
    eng = b.positioning().threats()["engaged"]
    assert eng == []


def test_a_figure_felled_mid_action_still_strikes_where_it_fell():
    """bfrpg:set-weapon-against-charge: the blows are simultaneous, so a charger felled by the set spear
    still strikes; its body is out of the way of everyone else, yet its own attack is judged from
    where it fell (found by the one-engine property test)."""
    b = make_battle("bfrpg", OPEN, [fig("a", "blue", 2, 2, "E", stats={"hp": 20}), fig("b", "red", 3, 2, "W", stats={"hp": 20})])
    b.states["a"].conditions["dead"] = 0
    b.figures_moved()
    assert "a" not in [f.id for f in b.positioning().figures]
    bd = b.explain_attack("a", "b")
    assert bd.allowed and bd.kind == "melee"
