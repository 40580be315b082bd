"""The AI as a controller (game.play.controllers): `choose(battle, figure_id)`.

`AIController.last_decision` holds the options the AI weighed for its last choice, each as
(action, score, [(reason, value), ...]), best first; `decision.explain()` prints them.
"""
from __future__ import annotations

from .brain import AI


class AIController:
    is_human = False

    def __init__(self, difficulty: str = "normal", seed: int | None = None):
        self.ai = AI(difficulty, seed)
        self.difficulty = difficulty
        self.name = f"AI ({difficulty})"

    def choose(self, battle, figure_id: str):
        return self.ai.choose(battle, figure_id)

    @property
    def last_decision(self):
        return self.ai.last_decision

    @property
    def decisions(self):
        return self.ai.decisions
