"""What a planned move is: its steps and totals, and the per-move parameters the rules give.

A leaf module: the planner, the charge lanes, the engagement rules and the explanations all
read these values, and none of them is needed to build one.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..values.geometry import FACINGS, step_cost_ft
from ..values.numbers import plain_number  # noqa: F401 (written with the path values)
from ..values.modes import MODES  # noqa: F401  (the planner's modes, named with the path values)
from ..values.figure import Figure

# Step directions relative to the facing (in 45-degree turns) for moves that keep the facing.
WITHDRAW_DIRECTIONS = (3, 4, 5)   # the three directions behind
SIDESTEP_DIRECTIONS = (6, 2)      # left, right
_SQ = 5


@dataclass(frozen=True)
class Step:
    """One square of a path, with the facing and altitude there and the feet it cost."""

    x: int
    y: int
    facing: int
    altitude_ft: int
    cost_ft: float          # what this step cost
    total_ft: float         # cost so far
    kind: str               # "start", "step", "turn+step", "climb", "dive", "rise", "descend", "turn"
    rule: str               # the rule that decided the cost or permission, e.g. "bfrpg:5-10-diagonals"
    note: str

    def to_json(self) -> dict:
        return {
            "x": self.x, "y": self.y, "facing": FACINGS[self.facing], "altitude_ft": self.altitude_ft,
            "cost_ft": plain_number(self.cost_ft), "total_ft": plain_number(self.total_ft), "kind": self.kind,
            "rule": self.rule, "note": self.note,
        }


@dataclass(frozen=True)
class Path:
    """A planned move: its steps from the start square, what they cost and the budget."""

    figure_id: str
    mode: str
    steps: tuple[Step, ...]
    total_ft: float
    budget_ft: float
    stall: bool = False

    @property
    def end(self) -> Step:
        return self.steps[-1]

    @property
    def squares(self) -> list[tuple[int, int]]:
        return [(s.x, s.y) for s in self.steps]


@dataclass(slots=True)
class ReachEntry:
    """One square of a reachable set. Its two dicts are read-only: entries may share them."""

    cost_ft: float
    facings: dict[int, float] = field(default_factory=dict)      # end facing -> least cost
    altitudes: dict[int, float] = field(default_factory=dict)    # altitude above floor -> least cost
    can_end: bool = True                                         # False when an ally stands there

    def end_facing(self, preferred: int) -> int:
        """`preferred` if the move may end here facing that way, else the cheapest way it may (a body
        longer than a square fits only some ways on a square)."""
        if not self.facings or preferred in self.facings:
            return preferred
        return min(self.facings, key=lambda f: (self.facings[f], f))


@dataclass
class MoveParams:
    """Everything the search needs to know about one figure's move, derived from the rules."""

    mode: str
    budget_ft: float
    turning_ft: int            # feet straight ahead required between facing changes
    max_turn: int              # octants per facing change
    free_turning: bool         # turns at any point (turning distance 0, incorporeal)
    directions: tuple[int, ...] | None  # fixed step directions relative to facing (withdraw, sidestep)
    keeps_facing: bool
    flyer: str
    max_steps: int | None = None
    must_dive: bool = False    # a stalled winged flyer: this move is a dive at its full rate


def movement_after(figure: Figure, path: "Path", diagonal_rule: str) -> tuple[int, float]:
    """(diagonals moved this round, feet straight ahead since the last facing change) after a path."""
    diagonals = figure.diagonals_moved
    straight = figure.straight_ft
    keeps_facing = path.mode in ("withdraw", "sidestep")
    for prev, step in zip(path.steps, path.steps[1:]):
        if step.kind in ("turn", "climb"):
            straight = 0.0  # a winged climb is a maneuver like a facing change: it starts a new stretch
            continue
        if step.kind not in ("step", "turn+step"):
            continue
        diagonal = prev.x != step.x and prev.y != step.y
        distance = step_cost_ft(diagonal_rule, diagonal, diagonals) if diagonal_rule != "none" else 5
        diagonals += diagonal
        if keeps_facing:
            continue  # backing away or shifting sideways is not moving straight ahead
        straight = (0.0 if step.facing != prev.facing else straight) + distance
    return diagonals, straight
