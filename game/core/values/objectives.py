"""A battle's objectives as values: what each side plays for besides felling the other, and the
round limit. The scenario (or a Tiled map) sets them; the resolver decides them
(game/core/battle/objectives.py) and reports each step as an `objective` event.

| kind | what the side must do | keys |
| --- | --- | --- |
| `hold` | have a figure on the squares, and no foe, at the end of `rounds` rounds in a row | squares, rounds |
| `reach` | get figures onto the squares (an exit, an edge): each one that does leaves the battle | squares, figure or count |
| `protect` | keep `figure` (one of its own) in the fight | figure |
| `fell` | put `figure` (a foe) down | figure |
| `survive` | still have a figure in the fight when round `rounds` ends | rounds |
| `break` | break the foes' morale (the ruleset's morale rule; where it checks none, `count` foes out of the fight) | count |

An objective with `points = 0` decides the battle: achieving it wins, and failing a `protect`
loses. One with points adds them to its side's victory points; at the round limit the side with
more points wins (equal points: a draw).
"""
from __future__ import annotations

from dataclasses import dataclass

KINDS = ("hold", "reach", "protect", "fell", "survive", "break")
MAX_OBJECTIVES = 32
MAX_OBJECTIVE_ROUNDS = 1000
EDGES = ("N", "E", "S", "W")


@dataclass(frozen=True)
class Objective:
    id: str
    side: str
    kind: str
    label: str = ""
    squares: tuple[tuple[int, int], ...] = ()
    rounds: int = 0
    figure: str = ""
    count: int = 0               # reach: figures to get through; break: foes out of the fight (0: half)
    points: int = 0

    @property
    def decisive(self) -> bool:
        return self.points == 0

    @property
    def title(self) -> str:
        """The objective in a player's words: its label, or what its kind asks."""
        if self.label:
            return self.label
        return {
            "hold": f"hold the ground for {self.rounds} round{'s' if self.rounds != 1 else ''}",
            "reach": f"get {self.figure or (str(self.count) + ' figure' + ('s' if self.count != 1 else ''))} to the exit",
            "protect": f"keep {self.figure} in the fight",
            "fell": f"fell {self.figure}",
            "survive": f"still stand when round {self.rounds} ends",
            "break": "break the foes' morale",
        }[self.kind]

    def to_json(self) -> dict:
        return {"id": self.id, "side": self.side, "kind": self.kind, "label": self.label,
                "squares": [list(sq) for sq in self.squares], "rounds": self.rounds, "figure": self.figure,
                "count": self.count, "points": self.points}


@dataclass(frozen=True)
class Objectives:
    """Every objective of a battle and its round limit (0: none)."""

    items: tuple[Objective, ...] = ()
    round_limit: int = 0

    def __bool__(self) -> bool:
        return bool(self.items) or self.round_limit > 0

    def of_side(self, side: str) -> tuple[Objective, ...]:
        return tuple(o for o in self.items if o.side == side)

    def to_json(self) -> dict:
        return {"round_limit": self.round_limit, "objectives": [o.to_json() for o in self.items]}


@dataclass(frozen=True)
class ObjectiveProgress:
    """Where an objective stands: `state` is open, achieved or failed; `progress` of `needed`."""

    objective: Objective
    state: str
    progress: int
    needed: int
    words: str

    def to_json(self) -> dict:
        return {**self.objective.to_json(), "state": self.state, "progress": self.progress, "needed": self.needed,
                "words": self.words}
