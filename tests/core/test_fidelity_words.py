"""Issue 27: the words a player reads name each figure once and spell the manoeuvres right."""
from __future__ import annotations

from game.core.values.actions import Attack, Push

from battles import OPEN, fig, make_battle, until_turn


def test_figures_sharing_a_name_are_numbered():
    """Two Foot soldiers: the refusal said "it is not Foot soldier's turn; it is Foot soldier's"."""
    b = make_battle("bfrpg", OPEN, [fig("red1", "red", 1, 1, "E"), fig("blue1", "blue", 2, 1, "W"),
                                    fig("hero", "blue", 4, 4, name="Hero")])
    assert {f.id: f.label for f in b.figures.values()} == {
        "red1": "Foot soldier 1", "blue1": "Foot soldier 2", "hero": "Hero"}
    waiting = next(fid for fid in ("red1", "blue1") if fid != b.current)
    words = b.check(Attack(waiting, target=b.current)).words
    assert words == f"it is not {b.figures[waiting].label}'s turn; it is {b.figures[b.current].label}'s"
    assert b.setup.figures[0].name == "Foot soldier 1"       # saves keep the names told apart


def test_a_number_another_figure_is_called_by_is_passed_over():
    b = make_battle("bfrpg", OPEN, [fig("a", "red", 1, 1, name="Goblin"), fig("b", "red", 2, 1, name="Goblin 1"),
                                    fig("c", "blue", 4, 4, name="Goblin")])
    assert [b.figures[i].label for i in "abc"] == ["Goblin 2", "Goblin 1", "Goblin 3"]


def test_figures_with_names_of_their_own_keep_them():
    b = make_battle("bfrpg", OPEN, [fig("a", "red", 1, 1, name="Ann"), fig("b", "blue", 2, 1, name="Bob")])
    assert [f.label for f in b.figures.values()] == ["Ann", "Bob"]


def test_a_push_in_the_declarations_says_pushes():
    """The refusal read "pushs come on their initiative numbers"."""
    b = make_battle("spelljammer", OPEN, [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W")])
    until_turn(b, "a", declare=True)
    words = b.check(Push("a", target="b", to=(5, 3))).words
    assert words.startswith("pushes come on their initiative numbers")
