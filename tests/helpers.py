"""Small builders shared by the tests."""
from __future__ import annotations

from game.core.values.ascii_map import parse_ascii_map
from game.core.values.battlemap import BattleMap
from game.core.values.figure import Figure
from game.core.values.geometry import FACING_INDEX
from game.core.moves.positioning import Positioning
from game.io.rulesets import load_ruleset

RULESET_IDS = ("bfrpg", "odnd", "cnc", "ch17", "spelljammer")


def fig(fid: str, side: str, x: int, y: int, facing: str = "N", **kw) -> Figure:
    return Figure(id=fid, side=side, x=x, y=y, facing=FACING_INDEX[facing], name=kw.pop("name", fid), **kw)


def open_map(width: int = 30, height: int = 30) -> BattleMap:
    return BattleMap.empty(width, height)


def ascii_map(text: str) -> BattleMap:
    return parse_ascii_map(text)


def positioning(bmap: BattleMap, ruleset_id: str, *figures: Figure) -> Positioning:
    return Positioning(bmap, load_ruleset(ruleset_id), list(figures))
