"""The battle and its resolver: the only door through which battle state changes, and the one
place that answers questions about the rules (what a figure may do now, what an action would do,
the odds of an attack from any square). See docs/resolver.md."""
from .facade import Battle, BattleSetup, FigureStatus

__all__ = ["Battle", "BattleSetup", "FigureStatus"]
