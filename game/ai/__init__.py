"""The AI opponent: it reads the battle, asks the resolver, and chooses an action (never applying it).

    from game.ai import AI
    ai = AI("hard")                                # naive, easy, normal (default) or hard
    action = ai.choose(battle, battle.current)     # never changes the battle; apply it yourself
    print(ai.last_decision.explain())              # the options it weighed, with named reasons

Results and simulation are game.play's; see docs/ai.md and docs/simulate.md.
"""
from .brain import AI, DIFFICULTIES, Decision, Plan
from .controller import AIController

__all__ = ["AI", "AIController", "DIFFICULTIES", "Decision", "Plan"]
