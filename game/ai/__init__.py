"""The AI opponent, battle outcomes, result summaries and headless simulation.

    from game.ai import AI, outcome, summarize_battle
    ai = AI("hard")
    action = ai.choose(battle, battle.current)     # never changes the battle; apply it yourself
    print(ai.last_decision.explain())              # the options it weighed, with named reasons
    summary = summarize_battle(battle)             # for the result screen

See docs/ai.md and docs/simulate.md.
"""
from .brain import AI, DIFFICULTIES, Decision, Plan
from .controller import AIController, register_with_ui
from .outcome import Outcome, outcome
from .report import format_summary, summarize, summarize_battle

__all__ = ["AI", "AIController", "DIFFICULTIES", "Decision", "Plan", "Outcome", "outcome", "summarize",
           "summarize_battle", "format_summary", "register_with_ui"]

register_with_ui()
