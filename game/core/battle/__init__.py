"""The battle and its resolver: the only door through which battle state changes, and the one
place that answers questions about the rules (what a figure may do now and how far it may still
move, what an action would do, the odds of an attack from any square). See docs/resolver.md.

This package's face is what the AI, the window and the command line import: the battle, the
values its questions return, and the values an attack is described with. Its modules are the
resolver's own."""
from ..combat.breakdown import AttackContext, Breakdown
from ..combat.odds import AttackOdds
from .facade import Battle, BattleSetup, FigureStatus
from .foresight import Foresight
from .limits import Limits, MoveLimit, Reachable
from .odds_map import ODDS_MEASURES, OddsMap, OddsSquare, square_words
from .preview import Preview
from .strikes import IntoMeleeRisk
from .view import BattleView

__all__ = ["AttackContext", "AttackOdds", "Battle", "BattleSetup", "BattleView", "Breakdown", "FigureStatus",
           "Foresight", "IntoMeleeRisk", "Limits", "MoveLimit", "ODDS_MEASURES", "OddsMap", "OddsSquare", "Preview",
           "Reachable", "square_words"]
