"""Stub controllers for the turn-loop tests (headless and in the window): each misbehaves in one way."""
from __future__ import annotations

from game.core.values.actions import Attack, EndTurn, Turn

from battles import OPEN, fig, make_battle


def duel(ruleset="bfrpg"):
    """Two figures far apart: nobody can strike anybody."""
    return make_battle(ruleset, OPEN, [fig("a", "blue", 2, 2), fig("b", "red", 12, 7)])


class Refuser:
    """Always strikes at a foe far out of reach: every answer is refused."""
    name, is_human = "refuser", False

    def choose(self, battle, figure_id):
        return Attack(figure_id, target="b" if figure_id == "a" else "a")


class Fidget:
    """Turns about for ever and never ends its turn."""
    name, is_human = "fidget", False

    def choose(self, battle, figure_id):
        return Turn(figure_id, facing="S" if battle.figures[figure_id].facing_name == "N" else "N")


class WrongEnd:
    """Ends the other figure's turn: a refused EndTurn."""
    name, is_human = "wrong", False

    def choose(self, battle, figure_id):
        return EndTurn("b" if figure_id == "a" else "a")
