"""The battle map as the rules see it: one cell per 5-ft square, terrain as numpy arrays.

Every map source (Tiled files, inline ASCII maps in scenarios) produces a `BattleMap`;
nothing in the rules layer knows where a map came from. Arrays are indexed `[y, x]`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .cover import COVER_INDEX
from .errors import RulesError

# A wall with no stated height stops every line, whatever the altitudes involved.
UNBOUNDED_HEIGHT_FT = 10_000

MAX_MAP_SIDE = 1000


@dataclass(frozen=True)
class Spawn:
    """A figure's starting point declared by a map (Tiled object or scenario)."""

    x: int
    y: int
    side: str
    template: str = ""
    name: str = ""
    facing: str = "N"
    altitude_ft: int = 0
    properties: dict = field(default_factory=dict)
    footprint: tuple[int, int] = (1, 1)     # squares [across, along] the facing (a Tiled rectangle's tiles)
    mount: str = ""                         # the name of the spawn it rides (a rider that starts mounted)


@dataclass(eq=False)
class BattleMap:
    width: int
    height: int
    blocks_move: np.ndarray        # bool: walls, trunks, closed doors
    blocks_sight: np.ndarray       # bool: walls, closed doors, thick smoke
    cover: np.ndarray              # uint8 COVER_INDEX of hard cover (stops missiles) a line crossing it gets
    concealment: np.ndarray        # uint8 COVER_INDEX of soft cover (only hides: fog, brush, darkness)
    difficult: np.ndarray          # bool: each step into the square costs double
    water: np.ndarray              # bool
    door: np.ndarray               # bool: a doorway (open unless it also blocks movement)
    elevation_ft: np.ndarray       # int32 floor height of the square
    obstacle_height_ft: np.ndarray  # int32 height above the floor of what stands in the square
    title: str = ""
    description: str = ""
    default_ruleset: str = ""
    spawns: tuple[Spawn, ...] = ()
    warnings: tuple[str, ...] = ()
    source: str = ""

    @classmethod
    def empty(cls, width: int, height: int, **meta) -> "BattleMap":
        if not (1 <= width <= MAX_MAP_SIDE and 1 <= height <= MAX_MAP_SIDE):
            raise RulesError(
                f"map size {width}x{height} is out of range: each side must be 1 to {MAX_MAP_SIDE} squares"
            )
        shape = (height, width)
        return cls(
            width=width,
            height=height,
            blocks_move=np.zeros(shape, bool),
            blocks_sight=np.zeros(shape, bool),
            cover=np.zeros(shape, np.uint8),
            concealment=np.zeros(shape, np.uint8),
            difficult=np.zeros(shape, bool),
            water=np.zeros(shape, bool),
            door=np.zeros(shape, bool),
            elevation_ft=np.zeros(shape, np.int32),
            obstacle_height_ft=np.zeros(shape, np.int32),
            **meta,
        )

    def in_bounds(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def passable(self, x: int, y: int) -> bool:
        return self.in_bounds(x, y) and not self.blocks_move[y, x]

    def add_wall(self, x: int, y: int, height_ft: int = UNBOUNDED_HEIGHT_FT) -> None:
        """Mark a square as a full wall: blocks movement and sight, full hard cover."""
        self.blocks_move[y, x] = True
        self.blocks_sight[y, x] = True
        self.cover[y, x] = COVER_INDEX["full"]
        self.obstacle_height_ft[y, x] = height_ft

    def summary(self) -> dict:
        """Counts of what the engine understood, for `check-map` and `check`."""
        elevated = self.elevation_ft != 0
        return {
            "title": self.title,
            "width": self.width,
            "height": self.height,
            "blocking": int(self.blocks_move.sum()),
            "sight_blocking": int(self.blocks_sight.sum()),
            "cover": int(((self.cover > 0) & ~self.blocks_move).sum()),
            "concealment": int((self.concealment > 0).sum()),
            "difficult": int(self.difficult.sum()),
            "water": int(self.water.sum()),
            "doors": int(self.door.sum()),
            "elevated": int(elevated.sum()),
            "spawns": _count_by_side(self.spawns),
            "warnings": list(self.warnings),
        }


def _count_by_side(spawns) -> dict[str, int]:
    counts: dict[str, int] = {}
    for spawn in spawns:
        counts[spawn.side] = counts.get(spawn.side, 0) + 1
    return counts
