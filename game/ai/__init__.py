"""The AI opponent, battle outcomes, result summaries and headless simulation.

    from game.ai import AI, AIController, outcome, summarize
    ai = AI("hard"); action = ai.choose(battle, battle.current); ai.last_decision.explain()

See docs/ai.md and docs/simulate.md.
"""
from .brain import AI, DIFFICULTIES, Decision, Plan
from .controller import AIController, register_with_ui
from .outcome import Outcome, outcome

__all__ = ["AI", "AIController", "DIFFICULTIES", "Decision", "Plan", "Outcome", "outcome"]

register_with_ui()
