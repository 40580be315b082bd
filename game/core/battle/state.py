"""Everything about a battle that changes, as one value, and what it starts from.

`BattleState` holds all mutable battle state (figures where they stand, their combat state,
the round's turn order and progress, morale, the outcome). `copy()` is an exact, cheap copy
(figures are frozen values; only the containers and the small mutable records are copied), so
a clone for the AI's look-ahead costs little and never shares anything that changes.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..values.battlemap import BattleMap
from ..combat.rounds import Slot
from ..combat.state import FigureState
from ..values.figure import Figure
from ..values.objectives import Objectives
from ..moves.path import Step
from ..ruleset import Ruleset


@dataclass(frozen=True)
class BattleSetup:
    """What a battle starts from: enough to rebuild it exactly (saves, undo, replay)."""

    map: BattleMap
    ruleset: Ruleset
    figures: tuple[Figure, ...]
    seed: int = 1
    title: str = ""
    description: str = ""
    objectives: Objectives = Objectives()    # what each side plays for, and the round limit (battle/objectives.py)


@dataclass
class MoveOrder:
    """A move declared at the start of a d100 round, unfolding across segments 10..1."""

    steps: tuple[Step, ...]
    mode: str
    cost_ft: float
    done: int = 0            # index of the last step already walked
    stall: bool = False      # a winged flyer's declared flight too short to stay aloft: it stalls on arriving
    after_attack: bool = False   # attack then move: it starts on start_segment, once its last attack is made
    start_segment: int = 0       # 0: not yet known (its last attack is still to come); -1: it does not move

    def copy(self) -> "MoveOrder":
        return replace(self)


@dataclass
class BattleState:
    """Everything about a battle that changes as it is played: figures, their states, the round and its order."""

    figures: dict[str, Figure]
    states: dict[str, FigureState]
    round: int = 0
    # the round's turn order: slots of figures acting on one initiative number, and where we are
    slots: list[Slot] = field(default_factory=list)
    slot_index: int = 0
    phase_index: int = 0               # bfrpg's movement/missile/melee turns inside a shared number
    done: set[str] = field(default_factory=set)
    phase: str = "act"                 # "declare" (d100 declaration turns) or "act"
    declare_order: list[str] = field(default_factory=list)
    declare_done: set[str] = field(default_factory=set)
    move_orders: dict[str, MoveOrder] = field(default_factory=dict)
    segment: int = 11
    declarations_open: bool = True     # until the round's first action: declared stances out of turn
    current: str | None = None
    pending_fallen: list[str] = field(default_factory=list)
    # across the battle
    morale: dict[str, dict] = field(default_factory=dict)
    fought: set[tuple[str, str]] = field(default_factory=set)
    over: bool = False
    winner: str | None = None
    riders: dict[str, str] = field(default_factory=dict)    # mount id -> the id of the figure riding it
    goals: dict[str, dict] = field(default_factory=dict)     # objective id -> its state, progress, figures through
    decided_by: str = ""                # what ended the battle: an objective id, "round-limit" or "" (the fight)
    over_text: str = ""                 # how it ended, in words, where an objective or the round limit ended it

    def copy(self) -> "BattleState":
        return BattleState(
            figures=dict(self.figures),
            states={fid: st.copy() for fid, st in self.states.items()},
            round=self.round,
            slots=[replace(s, members=list(s.members)) for s in self.slots],
            slot_index=self.slot_index, phase_index=self.phase_index, done=set(self.done), phase=self.phase,
            declare_order=list(self.declare_order), declare_done=set(self.declare_done),
            move_orders={fid: order.copy() for fid, order in self.move_orders.items()},
            segment=self.segment, declarations_open=self.declarations_open, current=self.current,
            pending_fallen=list(self.pending_fallen),
            morale={side: dict(record) for side, record in self.morale.items()},
            fought=set(self.fought), over=self.over, winner=self.winner, riders=dict(self.riders),
            goals={key: {**rec, "ids": list(rec["ids"])} for key, rec in self.goals.items()},
            decided_by=self.decided_by, over_text=self.over_text,
        )


@dataclass(frozen=True)
class FigureStatus:
    """A figure's combat state, for the UI, the AI and the CLI."""
    id: str
    name: str
    side: str
    hp: int
    max_hp: int
    subdual: int
    conditions: tuple[str, ...]
    able: bool
    attacks_left: int
    movement_left_ft: float
    initiative: tuple[int, ...]
    defense: str
    charging: str
    moved_ft: float = 0.0

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "side": self.side, "hp": self.hp, "max_hp": self.max_hp,
                "subdual": self.subdual, "conditions": list(self.conditions), "able": self.able,
                "attacks_left": self.attacks_left, "movement_left_ft": self.movement_left_ft,
                "initiative": list(self.initiative), "defense": self.defense, "charging": self.charging,
                "moved_ft": self.moved_ft}
