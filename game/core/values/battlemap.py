"""The battle map as the rules see it: one cell per 5-ft square, terrain as layers.

Every map source (Tiled files, inline ASCII maps in scenarios) produces a `BattleMap`;
nothing in the rules layer knows where a map came from. Each terrain layer is a `Layer`
(game/core/values/layer.py: a flat stdlib array read and written `[y, x]` without numpy; its
`numpy()` is a writable numpy view for whole-layer work).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .cover import COVER_INDEX
from .errors import RulesError
from .layer import BoolLayer, Int32Layer, Layer, count_both

# A wall with no stated height stops every line, whatever the altitudes involved.
UNBOUNDED_HEIGHT_FT = 10_000

MAX_MAP_SIDE = 1000

# The terrain layers, in the order saves list them, and what each holds.
LAYER_KINDS: dict[str, type[Layer]] = {
    "blocks_move": BoolLayer, "blocks_sight": BoolLayer, "cover": Layer, "concealment": Layer,
    "difficult": BoolLayer, "water": BoolLayer, "door": BoolLayer,
    "elevation_ft": Int32Layer, "obstacle_height_ft": Int32Layer,
}


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


@dataclass(frozen=True)
class Inference:
    """Terrain a map file gave by a convention of its own (a layer named 'Collision', a tile
    property 'solid', collision shapes), read when it states no fivefoot properties."""

    kind: str       # what the squares became: "walls", "water (difficult ground)"
    source: str     # where it was read: "the layer 'Collision'", "the tile property 'solid'"
    squares: int

    @property
    def text(self) -> str:
        return f"{self.kind} taken from {self.source}: {self.squares} square{'s' if self.squares != 1 else ''}"


OPEN_GROUND_NOTE = "no walls, cover or heights found: every square is open ground; see maps/README.md"


@dataclass(eq=False)
class BattleMap:
    """The battlefield: its size and one terrain layer per property, read `layer[y, x]`."""

    width: int
    height: int
    blocks_move: BoolLayer         # walls, trunks, closed doors
    blocks_sight: BoolLayer        # walls, closed doors, thick smoke
    cover: Layer                   # uint8 COVER_INDEX of hard cover (stops missiles) a line crossing it gets
    concealment: Layer             # uint8 COVER_INDEX of soft cover (only hides: fog, brush, darkness)
    difficult: BoolLayer           # each step into the square costs double
    water: BoolLayer
    door: BoolLayer                # a doorway (open unless it also blocks movement)
    elevation_ft: Int32Layer       # floor height of the square
    obstacle_height_ft: Int32Layer  # height above the floor of what stands in the square
    title: str = ""
    description: str = ""
    default_ruleset: str = ""
    spawns: tuple[Spawn, ...] = ()
    warnings: tuple[str, ...] = ()
    source: str = ""
    inferred: tuple[Inference, ...] = ()   # terrain read from the map's own conventions
    notes: tuple[str, ...] = ()            # how the file was read, where a map maker may wonder
    asset_root: str = ""                   # the folder its tilesets and images were read from
    files: tuple[str, ...] = ()            # every file read for it (the map first), to notice changes
    objectives: tuple[dict, ...] = ()      # a Tiled map's objective objects, as objective tables (io/objectives.py)
    round_limit: int = 0                   # a Tiled map's round_limit property

    def reading_notes(self) -> list[str]:
        """What a map maker is told once about how the map was read: inferences, then notes."""
        return [inference.text for inference in self.inferred] + list(self.notes)

    @classmethod
    def empty(cls, width: int, height: int, **meta) -> "BattleMap":
        if not (1 <= width <= MAX_MAP_SIDE and 1 <= height <= MAX_MAP_SIDE):
            raise RulesError(
                f"map size {width}x{height} is out of range: each side must be 1 to {MAX_MAP_SIDE} squares"
            )
        layers = {name: kind(width, height) for name, kind in LAYER_KINDS.items()}
        return cls(width=width, height=height, **layers, **meta)

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
        return {
            "title": self.title,
            "width": self.width,
            "height": self.height,
            "blocking": self.blocks_move.count_nonzero(),
            "sight_blocking": self.blocks_sight.count_nonzero(),
            "cover": self.cover.count_nonzero() - count_both(self.cover, self.blocks_move),
            "concealment": self.concealment.count_nonzero(),
            "difficult": self.difficult.count_nonzero(),
            "water": self.water.count_nonzero(),
            "doors": self.door.count_nonzero(),
            "elevated": self.elevation_ft.count_nonzero(),
            "spawns": _count_by_side(self.spawns),
            "warnings": list(self.warnings),
        }


def _count_by_side(spawns) -> dict[str, int]:
    counts: dict[str, int] = {}
    for spawn in spawns:
        counts[spawn.side] = counts.get(spawn.side, 0) + 1
    return counts
