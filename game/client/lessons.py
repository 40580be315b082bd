"""Playing a lesson to a step, under its own ruleset or another, and recording one: no pygame.

`position(lesson, i, ruleset)` is the battle as it stands after step i, the events step i made and
what the rules refused. Under the lesson's own ruleset every step is played through `battle.apply`
from the scenario's start. Under another ruleset the position before step i is the lesson's own (the
same figures where they stand, their hit points and whose turn it is) re-judged by the other rules
(`Battle.rejudged`, as the window's live switch does), then step i is played under them: an action
they refuse is left out and said, in the resolver's words, so the table sees where the documents differ.

`LessonRecorder` is what the window feeds while a game master shows something: the actions taken and
the captions typed, step by step; `lesson()` makes the Lesson that game/io/lessons.py saves.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

from ..core.battle import Battle
from ..core.values.actions import Action, GmPlace
from ..core.values.errors import RulesError
from ..core.values.geometry import FACINGS
from ..core.values.lessons import Lesson, Step, play_action
from ..core.values.refusals import ActionRefused


@dataclass(frozen=True)
class StepRefusal:
    """An action of the step that the rules in force refused, and why (the resolver's words)."""

    action: Action
    key: str
    words: str
    ruleset: str
    who: str = ""          # the figure's name as the battle says it (its id when unknown)

    @property
    def text(self) -> str:
        return f"{self.ruleset} refuses {self.action.kind} by {self.who or self.action.figure}: {self.words}"

    def to_json(self) -> dict:
        return {"action": self.action.to_json(), "key": self.key, "words": self.words, "ruleset": self.ruleset,
                "who": self.who or self.action.figure}


class LessonPosition(NamedTuple):
    battle: Battle
    events: list
    refusals: list


class LessonPlayer:
    """A lesson's positions, the ones under its own ruleset kept as they are reached (going back and
    forth through a lesson replays nothing twice)."""

    def __init__(self, lesson: Lesson):
        self.lesson = lesson
        self._own: list[tuple[Battle, list, list]] = []     # after step i: (battle, its events, its refusals)

    def start(self) -> Battle:
        """The battle before the first step, under the lesson's ruleset."""
        return Battle.from_scenario(self.lesson.scenario)

    def _after(self, index: int) -> tuple[Battle, list, list]:
        while len(self._own) <= index:
            before = self._own[-1][0] if self._own else self.start()
            battle = before.clone()
            events, refusals = play_step(battle, self.lesson.steps[len(self._own)])
            self._own.append((battle, events, refusals))
        return self._own[index]

    def position(self, index: int, ruleset=None) -> LessonPosition:
        steps = len(self.lesson.steps)
        if not 0 <= index < steps:
            raise RulesError(f"step {index + 1}: the lesson {self.lesson.title!r} has steps 1 to {steps}")
        rules = _ruleset(ruleset)
        if rules is None or rules.id == self.lesson.ruleset.id:
            battle, events, refusals = self._after(index)
            return LessonPosition(battle.clone(), list(events), list(refusals))
        before = self._after(index - 1)[0] if index else self.start()
        battle = before.rejudged(rules)
        events, refusals = play_step(battle, self.lesson.steps[index])
        return LessonPosition(battle, events, refusals)


def position(lesson: Lesson, step_index: int, ruleset=None) -> LessonPosition:
    """(battle, events of that step, refusals) after steps 0..step_index (counted from 0), under `ruleset`
    (a Ruleset or a ruleset id; default the lesson's)."""
    return LessonPlayer(lesson).position(step_index, ruleset)


def play_step(battle: Battle, step: Step) -> tuple[list, list]:
    """Play a step's actions in order on `battle`; (its events, StepRefusal for each action refused)."""
    events: list = []
    refusals: list = []
    for action, wait in step.waiting():
        try:
            events.extend(play_action(battle, action, wait))
        except ActionRefused as refused:
            events.extend(getattr(refused, "passed", []))
            fig = battle.figures.get(action.figure)
            refusals.append(StepRefusal(action, refused.refusal.key, refused.reason, battle.ruleset.id,
                                        fig.label if fig is not None else ""))
    return events, refusals


def _ruleset(value):
    if value is None or not isinstance(value, str):
        return value
    from ..io.rulesets import load_ruleset
    return load_ruleset(value)


# ----- recording -----
DEFAULT_CAPTION = "Step {n}."


class LessonRecorder:
    """The window's recording of a lesson: every action applied (`record`), the caption typed for the step
    (`caption`), a new step (`next_step`); `lesson()` makes the Lesson to save.

    It starts from the battle on screen: the actions played before it started make the lesson's first
    steps' set-up (the same seed replays them exactly); a battle whose ruleset was switched live starts
    instead from game-master placements of every figure where it stands (hit points are not carried)."""

    def __init__(self, scenario, battle: Battle | None = None, title: str = "", rule: str = "", summary: str = ""):
        battle = battle if battle is not None else Battle.from_scenario(scenario)
        self.scenario = scenario
        self.ruleset = battle.ruleset
        self.seed = battle.setup.seed
        self.title = title or f"{battle.setup.title or scenario.title} (recorded)"
        self.rule = rule
        self.summary = summary
        self.steps: list[dict] = [{"caption": "", "actions": _setup_actions(battle)}]

    @property
    def current(self) -> dict:
        return self.steps[-1]

    def record(self, action: Action) -> None:
        self.current["actions"].append(action)

    def caption(self, text: str) -> None:
        self.current["caption"] = text.strip()

    def next_step(self, caption: str = "") -> None:
        """Close the step being recorded; the next actions (and `caption`) go to a new one. A step with
        neither a caption nor an action is not kept."""
        if not self.current["caption"] and not self.current["actions"]:
            self.current["caption"] = caption.strip()
            return
        self.steps.append({"caption": caption.strip(), "actions": []})

    def undo(self) -> Action | None:
        """Forget the last action recorded (the window undid it); a step it leaves empty is dropped."""
        for step in reversed(self.steps):
            if step["actions"]:
                action = step["actions"].pop()
                while len(self.steps) > 1 and not self.steps[-1]["actions"] and not self.steps[-1]["caption"]:
                    self.steps.pop()
                return action
        return None

    def lesson(self, title: str | None = None, rule: str | None = None, summary: str | None = None) -> Lesson:
        """The recording as a Lesson (empty steps left out; a step with no caption gets "Step N.")."""
        kept = [s for s in self.steps if s["caption"] or s["actions"]]
        if not kept:
            raise RulesError("nothing recorded yet: play an action or type a caption first")
        steps = tuple(Step(s["caption"] or DEFAULT_CAPTION.format(n=n), tuple(s["actions"]))
                      for n, s in enumerate(kept, start=1))
        source = self.scenario.source or ""
        if not source:
            raise RulesError("this battle has no scenario file to name; play it from a scenario or a map to record a lesson")
        scenario = replace(self.scenario, seed=self.seed, ruleset=self.ruleset)
        return Lesson(title=title or self.title, rule=rule or self.rule or f"{self.ruleset.id}:movement",
                      summary=self.summary if summary is None else summary, ruleset=self.ruleset, scenario=scenario,
                      steps=steps, ruleset_spec=self.ruleset.id, scenario_file=source, seed=self.seed)


def _setup_actions(battle: Battle) -> list[Action]:
    """What brings a fresh battle to this position: its actions so far, or for a battle re-judged under
    another ruleset (whose early actions that ruleset might refuse) a placement of each figure that moved."""
    if battle.origin is None:
        return list(battle.actions)
    fresh = Battle(battle.setup)
    todo = []
    for fid, fig in battle.figures.items():
        start = fresh.figures[fid]
        if fig.mount or (fig.x, fig.y, fig.facing, fig.altitude_ft) == (start.x, start.y, start.facing, start.altitude_ft):
            continue
        todo.append(GmPlace(fid, x=fig.x, y=fig.y, facing=FACINGS[fig.facing],
                            altitude_ft=fig.altitude_ft if fig.flyer != "none" else None))
    placed = []
    while todo:     # in an order that frees each square before another figure is put on it
        ready = [a for a in todo if fresh.check(a) is None]
        if not ready:
            raise RulesError("cannot set this position up by placing figures one by one (two figures swapped "
                             "squares); move one aside and start recording again")
        for action in ready:
            fresh.apply(action)
            placed.append(action)
            todo.remove(action)
    return placed
