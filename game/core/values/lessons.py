"""Lessons: a position and the steps that show one rule of position, each with a caption.

A lesson is a value: its title, the rule it teaches (`ruleset:section`), the scenario it starts
from (already under the lesson's ruleset), and its steps, each a caption and the actions it plays
(docs/lessons.md). The file side is game/io/lessons.py; playing a lesson to a step, under its own
ruleset or another, is game/client/lessons.py. `play_action` is the one way a scripted action is
applied (a lesson's step, a scenario's [[actions]]): the turns of whoever acts first are passed.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .actions import Action, EndTurn
from .refusals import ActionRefused

MAX_PASSES = 200
# Refusals that only mean "not yet, later in this round": its declaration turn (the action comes on its
# initiative number, where its action is not one the ruleset declares) or an earlier phase of its number (bfrpg:
# movement, then missiles, then melee).
# Waiting passes those turns of the figure's own too.
LATER_PHASE = ("declare.only-declarations", "declare.not-declared", "attack.movement-phase", "attack.missile-phase")


@dataclass(frozen=True)
class Step:
    """One step of a lesson: what the table is told, and the actions played (none: a caption only).
    `waits[i]`: pass the turns of those acting before actions[i]'s figure first (the default).
    `expect`: event kinds or rule ids (`ruleset:section`) the step's events show under the lesson's own
    ruleset: where the rule the lesson teaches fires."""

    caption: str
    actions: tuple[Action, ...] = ()
    waits: tuple[bool, ...] = ()
    expect: tuple[str, ...] = ()

    def waiting(self) -> list[tuple[Action, bool]]:
        """(action, wait) pairs; an action without a word of its own waits."""
        return [(a, self.waits[i] if i < len(self.waits) else True) for i, a in enumerate(self.actions)]


@dataclass(frozen=True, eq=False)
class Lesson:
    """A lesson as loaded (game/io/lessons.py) or recorded (game/client/lessons.py LessonRecorder)."""

    title: str
    rule: str                      # the rule it teaches, as written: ruleset:section
    summary: str
    ruleset: object                # the Ruleset it is played under by default
    scenario: object               # the Scenario it starts from, its figures under `ruleset`
    steps: tuple[Step, ...]
    ruleset_spec: str = ""         # `ruleset` as the file says it: a bundled id, or a path from the lesson's folder
    scenario_file: str = ""        # the bundled scenario or map it starts from ("" when inline)
    scenario_table: dict | None = field(default=None)   # the inline [scenario] table as written
    source: str = ""               # the file it was read from
    seed: int | None = None        # the dice seed the file gives, over the scenario's (None: the scenario's)

    @property
    def ruleset_id(self) -> str:
        return self.ruleset.id


def play_action(battle, action: Action, wait: bool = True) -> list:
    """Apply `action` through the resolver; with `wait`, first end the turns of whoever acts before its
    figure (its own earlier phases too) while the resolver says "not yet". Every pass is a real
    end-turn action, its events among those returned. ActionRefused when the action cannot be played:
    its figure's own refusal, or the battle over, or no turn of its figure to be reached."""
    events: list = []
    passes = 0
    while True:
        try:
            return events + battle.apply(action)
        except ActionRefused as refused:
            current = battle.current
            own_phase = current == action.figure and refused.refusal.key in LATER_PHASE
            if not wait or current is None or (current == action.figure and not own_phase) or passes >= MAX_PASSES:
                refused.passed = events
                raise
            events.extend(battle.apply(EndTurn(current)))
            passes += 1
