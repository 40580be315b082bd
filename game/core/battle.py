"""The battle and its resolver: the only door through which battle state changes.

`Battle.apply(action)` validates an action against the ruleset and the map, applies it and
returns the events it caused; a refused action raises ActionRefused and changes nothing.
Every random number comes from the battle's seeded RNG, so the same seed and the same
actions give the same events. Undo replays the action log from the start.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace

from .actions import Action, EndTurn, Move, Turn
from .battlemap import BattleMap
from .errors import RulesError
from .events import ActionRefused, Event
from .figure import Figure
from .geometry import FACINGS, parse_facing
from .positioning import Positioning
from .ruleset import Ruleset


@dataclass(frozen=True)
class BattleSetup:
    """What a battle starts from: enough to rebuild it exactly (saves, undo, replay)."""

    map: BattleMap
    ruleset: Ruleset
    figures: tuple[Figure, ...]
    seed: int = 1
    title: str = ""
    description: str = ""


class Battle:
    def __init__(self, setup: BattleSetup):
        self.setup = setup
        self.map = setup.map
        self.ruleset = setup.ruleset
        self.rng = random.Random(setup.seed)
        self.figures: dict[str, Figure] = {f.id: f for f in setup.figures}
        self.round = 1
        self.order: list[str] = [f.id for f in setup.figures]
        self.turn_index = 0
        self.moved_ft: dict[str, float] = {}
        self.actions: list[Action] = []
        self.events: list[Event] = []
        self._redo: list[Action] = []
        self._positioning: Positioning | None = None

    @classmethod
    def from_scenario(cls, scenario) -> "Battle":
        return cls(BattleSetup(scenario.map, scenario.ruleset, tuple(scenario.figures), scenario.seed,
                               scenario.title, scenario.description))

    # ----- reading the state -----
    @property
    def current(self) -> str | None:
        return self.order[self.turn_index] if self.order else None

    def figure(self, figure_id: str) -> Figure:
        try:
            return self.figures[figure_id]
        except KeyError:
            raise ActionRefused(f"there is no figure {figure_id!r} in this battle") from None

    def positioning(self) -> Positioning:
        if self._positioning is None:
            self._positioning = Positioning(self.map, self.ruleset, list(self.figures.values()))
        return self._positioning

    # ----- the door -----
    def apply(self, action: Action) -> list[Event]:
        handler = getattr(self, "_do_" + action.kind.replace("-", "_"), None)
        if handler is None:
            raise ActionRefused(f"{action.kind} is not available yet in this battle")
        events = handler(action)  # handlers raise before changing anything
        self.actions.append(action)
        self.events.extend(events)
        self._redo.clear()
        return events

    def check(self, action: Action) -> str | None:
        """Why the action would be refused, or None if it is legal. Changes nothing."""
        probe = Battle(self.setup)
        try:
            probe._replay(self.actions)
            probe.apply(action)
        except ActionRefused as refusal:
            return refusal.reason
        return None

    def undo(self) -> Action | None:
        if not self.actions:
            return None
        last = self.actions[-1]
        redo = self._redo + [last]
        self._rebuild(self.actions[:-1])
        self._redo = redo
        return last

    def redo(self) -> list[Event]:
        if not self._redo:
            return []
        action = self._redo[-1]
        remaining = self._redo[:-1]
        events = self.apply(action)
        self._redo = remaining
        return events

    def _rebuild(self, actions: list[Action]) -> None:
        fresh = Battle(self.setup)
        fresh._replay(actions)
        self.__dict__.update(fresh.__dict__)

    def _replay(self, actions: list[Action]) -> None:
        for action in actions:
            self.apply(action)

    # ----- handlers -----
    def _require_turn(self, figure_id: str) -> Figure:
        fig = self.figure(figure_id)
        if self.current != figure_id:
            raise ActionRefused(f"it is not {fig.label}'s turn; it is {self.figure(self.current).label}'s")
        return fig

    def _set_figure(self, fig: Figure) -> None:
        self.figures[fig.id] = fig
        self._positioning = None

    def _do_move(self, action: Move) -> list[Event]:
        fig = self._require_turn(action.figure)
        try:
            facing = None if action.facing is None else parse_facing(action.facing)
            planned = self.positioning().plan(fig.id, tuple(action.to), action.mode, facing, action.altitude_ft)
        except RulesError as err:
            raise ActionRefused(str(err)) from None
        already = self.moved_ft.get(fig.id, 0.0)
        if already + planned.path.total_ft > planned.path.budget_ft + 1e-9:
            raise ActionRefused(f"{fig.label} has {planned.path.budget_ft - already:g} ft of movement left this round; "
                                f"this move needs {planned.path.total_ft:g} ft")
        end = planned.path.end
        events = [Event(
            kind="move", rule=planned.path.steps[-1].rule or self.ruleset.cite("movement"), actor=fig.id,
            text=f"{fig.label} moves ({action.mode}) to {end.x},{end.y} facing {FACINGS[end.facing]}, "
                 f"{planned.path.total_ft:g} ft",
            squares=tuple((s.x, s.y) for s in planned.path.steps),
            data={"mode": action.mode, "cost_ft": planned.path.total_ft, "steps": [s.to_json() for s in planned.path.steps]},
        )]
        for shot in planned.parting_shots:
            events.append(Event(kind="parting-shot-provoked", rule=shot.rule, actor=shot.attacker_id, target=fig.id,
                                text=f"{shot.attacker} gets a parting shot at {fig.label} ({shot.bonus:+d}): {shot.reason}",
                                data={"bonus": shot.bonus, "step": shot.step_index}))
        self.moved_ft[fig.id] = already + planned.path.total_ft
        self._set_figure(fig.moved_to(end.x, end.y, end.facing, end.altitude_ft))
        return events

    def _do_turn(self, action: Turn) -> list[Event]:
        fig = self._require_turn(action.figure)
        try:
            facing = parse_facing(action.facing)
        except RulesError as err:
            raise ActionRefused(str(err)) from None
        if self.moved_ft.get(fig.id, 0) > 0 and fig.turning_ft > 0:
            raise ActionRefused(f"{fig.label} has moved this round and turns only while moving "
                                f"(turning distance {fig.turning_ft} ft)")
        self._set_figure(replace(fig, facing=facing))
        return [Event(kind="turn", rule=self.ruleset.cite("maneuverability"), actor=fig.id,
                      text=f"{fig.label} turns to face {FACINGS[facing]} without leaving its square",
                      squares=(fig.pos,))]

    def _do_end_turn(self, action: EndTurn) -> list[Event]:
        fig = self._require_turn(action.figure)
        events = [Event(kind="end-turn", rule=self.ruleset.cite("turn-order"), actor=fig.id,
                        text=f"{fig.label} ends its turn")]
        self.turn_index += 1
        if self.turn_index >= len(self.order):
            self.turn_index = 0
            self.round += 1
            self.moved_ft.clear()
            events.append(Event(kind="round", rule=self.ruleset.cite("combat-round"),
                                text=f"round {self.round} begins", data={"round": self.round}))
        return events
