"""A lesson in the window, and a lesson being recorded there: no pygame.

`LessonShow` is where the window stands in a lesson: the step shown (counted from 0), the ruleset it
is judged by (the lesson's own, or another to show where the documents differ) and what that step made
happen and refused, all from game/client/lessons.py's LessonPlayer. `Recording` follows the battle on
screen while a game master shows something: the actions the battle holds beyond those already in the
recording are the step's (an undo takes them back out), and a caption closes the step.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..core.values.errors import RulesError
from .lessons import LessonPlayer, LessonRecorder


class LessonShow:
    """The lesson on screen: which step, under which ruleset, what it made happen and refused."""

    def __init__(self, lesson, ruleset_id: str | None = None):
        self.lesson = lesson
        self.player = LessonPlayer(lesson)
        self.index = 0
        self.ruleset_id = ruleset_id or lesson.ruleset.id
        self.events: list = []
        self.refusals: list = []
        self.actions_shown = 0      # the battle's action count when the step was put on screen

    @property
    def steps(self) -> int:
        return len(self.lesson.steps)

    @property
    def own_rules(self) -> bool:
        return self.ruleset_id == self.lesson.ruleset.id

    def show(self, index: int, ruleset_id: str | None = None):
        """The battle after step `index` (clamped to the lesson) under `ruleset_id` (default: the one
        in force); the step's events and refusals are kept to be shown."""
        self.index = max(0, min(index, self.steps - 1))
        if ruleset_id is not None:
            self.ruleset_id = ruleset_id
        battle, self.events, self.refusals = self.player.position(self.index, self.ruleset_id)
        self.actions_shown = len(battle.actions)
        return battle

    def played_on(self, battle) -> bool:
        """Whether the table has played on from the step shown (the lesson resumes on the next step key)."""
        return len(battle.actions) != self.actions_shown

    def heading(self) -> str:
        under = "" if self.own_rules else f", judged by {self.ruleset_id} (the lesson's: {self.lesson.ruleset.id})"
        return f"Lesson: {self.lesson.title} ({self.lesson.rule}) · step {self.index + 1} of {self.steps}{under}"

    def caption(self) -> str:
        return self.lesson.steps[self.index].caption

    def refusal_lines(self) -> list[str]:
        return [r.text for r in self.refusals]


class Recording:
    """A lesson being recorded from the battle on screen (game/client/lessons.py's LessonRecorder)."""

    def __init__(self, scenario, battle):
        self.recorder = LessonRecorder(scenario, battle)
        self.ruleset_id = battle.ruleset.id
        self.set_up = len(self.recorded())      # the actions before recording began: the first step's set-up

    @property
    def empty(self) -> bool:
        return len(self.recorded()) == self.set_up and not any(s["caption"] for s in self.recorder.steps)

    @property
    def step_number(self) -> int:
        return len(self.recorder.steps)

    def recorded(self) -> list:
        return [a for step in self.recorder.steps for a in step["actions"]]

    def follow(self, battle) -> None:
        """Bring the recording level with the battle's actions: what was undone leaves it, what was
        played since goes into the step being recorded."""
        actions = list(battle.actions)
        recorded = self.recorded()
        same = 0
        while same < min(len(actions), len(recorded)) and actions[same] == recorded[same]:
            same += 1
        for _ in range(len(recorded) - same):
            self.recorder.undo()
        for action in actions[same:]:
            self.recorder.record(action)

    def close_step(self, caption: str) -> None:
        """The caption typed for the step being recorded; the next actions go to a new step."""
        self.recorder.caption(caption)
        self.recorder.next_step()

    def save(self, folder: Path) -> Path:
        """Write the lesson to `folder` under a file name made from its title, never over another file."""
        from ..io.lessons import save_lesson
        if self.empty:
            raise RulesError("nothing recorded yet: play an action or type a caption (T) first")
        lesson = self.recorder.lesson()
        folder.mkdir(parents=True, exist_ok=True)
        stem = re.sub(r"[^a-z0-9]+", "-", lesson.title.lower()).strip("-")[:48] or "lesson"
        n = 1
        path = folder / f"{stem}.toml"
        while path.exists():
            n += 1
            path = folder / f"{stem}-{n}.toml"
        return save_lesson(lesson, path)
