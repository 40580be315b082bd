"""Inline ASCII maps for scenarios, tests and quick demos. The legend is in docs/scenarios.md."""
from __future__ import annotations

from .battlemap import BattleMap
from .cover import COVER_INDEX
from .errors import RulesError

# char: what the square is. Digits 1-9 are floor elevation in steps of 5 ft.
HEIGHT_DIGITS = "123456789"
LEGEND = {
    ".": "open floor",
    "#": "wall (blocks movement and sight, full hard cover)",
    "T": "tree trunk or pillar (blocks movement, 1/2 hard cover, does not block sight)",
    "=": "low wall (1/2 hard cover, 4 ft tall, difficult to cross)",
    '"': "brush (1/4 concealment, difficult terrain)",
    "%": "fog (1/2 concealment)",
    ",": "rubble (difficult terrain)",
    "~": "water (difficult terrain)",
    "+": "open doorway",
    "1-9": "raised floor at 5 ft per step (1 = 5 ft ... 9 = 45 ft)",
}


def parse_ascii_map(text: str, **meta) -> BattleMap:
    # Split on newlines only (CRLF too): splitlines() would also break rows at form feeds and
    # Unicode separators, and the row numbers in messages would no longer match the file.
    rows = [line.rstrip() for line in text.strip("\r\n").split("\n")]
    if not rows or not any(rows):
        raise RulesError("the ASCII map is empty")
    width = max(len(r) for r in rows)
    bmap = BattleMap.empty(width, len(rows), **meta)
    for y, row in enumerate(rows):
        for x, ch in enumerate(row.ljust(width, ".")):
            _apply(bmap, x, y, ch)
    return bmap


def _apply(bmap: BattleMap, x: int, y: int, ch: str) -> None:
    if ch in ". ":
        return
    if ch == "#":
        bmap.add_wall(x, y)
    elif ch == "T":
        bmap.blocks_move[y, x] = True
        bmap.cover[y, x] = COVER_INDEX["1/2"]
        bmap.obstacle_height_ft[y, x] = 30
    elif ch == "=":
        bmap.cover[y, x] = COVER_INDEX["1/2"]
        bmap.difficult[y, x] = True
        bmap.obstacle_height_ft[y, x] = 4
    elif ch == '"':
        bmap.concealment[y, x] = COVER_INDEX["1/4"]
        bmap.difficult[y, x] = True
    elif ch == "%":
        bmap.concealment[y, x] = COVER_INDEX["1/2"]
    elif ch == ",":
        bmap.difficult[y, x] = True
    elif ch == "~":
        bmap.water[y, x] = True
        bmap.difficult[y, x] = True
    elif ch == "+":
        bmap.door[y, x] = True
    elif ch in HEIGHT_DIGITS:  # ASCII only: str.isdigit() also takes '²' and '٣'
        bmap.elevation_ft[y, x] = 5 * int(ch)
    else:
        known = " ".join(k for k in LEGEND)
        raise RulesError(f"ASCII map row {y + 1}, column {x + 1}: unknown character {ch!r}; the legend is: {known} "
                         "(heights are the ASCII digits 1-9 only)")
