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
from .preview import Preview
from .strikes import IntoMeleeRisk
from .view import BattleView

# The odds map's values load when first asked for: most commands (reach, path, check) never need them.
_ODDS_MAP_NAMES = ("ODDS_MEASURES", "OddsMap", "OddsSquare", "square_words")


def __getattr__(name: str):
    if name in _ODDS_MAP_NAMES:
        from . import odds_map
        return getattr(odds_map, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["AttackContext", "AttackOdds", "Battle", "BattleSetup", "BattleView", "Breakdown", "FigureStatus",
           "Foresight", "IntoMeleeRisk", "Limits", "MoveLimit", "ODDS_MEASURES", "OddsMap", "OddsSquare", "Preview",
           "Reachable", "square_words"]
