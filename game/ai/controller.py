"""The AI as a controller for the window (game.ui.controllers): `choose(battle, figure_id)`.

`AIController.last_decision` holds the options the AI weighed for its last choice, each as
(action, score, [(reason, value), ...]), best first; `decision.explain()` prints them.
"""
from __future__ import annotations

from .brain import AI, DIFFICULTIES


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


def factory(difficulty: str = "normal"):
    return lambda: AIController(difficulty)


def register_with_ui() -> bool:
    """Offer the AI to the window as "ai" (normal), "ai-easy", "ai-normal" and "ai-hard".

    game.ui.controllers is a plain registry (no pygame), so loading it from here is safe in
    headless runs; it also imports game.ai itself, so either import order registers the AI.
    """
    import importlib
    import sys
    ctl = sys.modules.get("game.ui.controllers")
    if ctl is None:
        try:  # the registry module itself needs no window (it imports only the actions)
            ctl = importlib.import_module("game.ui.controllers")
        except Exception:
            return False
    register = getattr(ctl, "register", None)
    if register is None:
        return False
    register("ai", factory("normal"))
    for level in DIFFICULTIES:
        register(f"ai-{level}", factory(level))
    return True
