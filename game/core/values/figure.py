"""Figures on the battle map: where they stand, what they face, how they move."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

from .geometry import FACINGS
from .bodies import ONE_SQUARE, cells


@dataclass(frozen=True)
class Figure:
    """A figure on the map: where it stands and faces, how it moves and what it carries."""

    id: str
    side: str
    x: int
    y: int
    facing: int = 0                 # index into geometry.FACINGS
    name: str = ""
    altitude_ft: int = 0            # height above the floor of its square (flyers)
    move_ft: int = 40               # walking move per round
    turning_ft: int = 0             # turning distance; 0 turns freely
    flyer: str = "none"             # none, winged, floater, incorporeal
    size: str = "medium"
    # Squares (across the facing, along it) its body covers; values/bodies.py says where they lie.
    footprint: tuple[int, int] = ONE_SQUARE
    weapons: tuple[str, ...] = ("sword",)
    running: bool = False           # has run this round: no sidestep
    # Movement so far this round, so a move split into several actions obeys the rules as one:
    # the 5-10 diagonal count, feet straight ahead since the last facing change, and whether
    # it has left its square (a figure that has not may turn freely). The resolver keeps them.
    diagonals_moved: int = 0
    straight_ft: float = 0.0
    has_moved: bool = False
    # A winged flyer that stalled last round (flew under a third of its speed across) must spend
    # its next move diving at its full rate. The resolver sets it after a stall, clears it after.
    must_dive: bool = False
    # The id of the figure it rides ("" on foot): a rider stands on its mount's saddle square, covers
    # no square of its own and faces as its mount (game/core/mounts.py). The resolver keeps it.
    mount: str = ""
    stats: dict = field(default_factory=dict, compare=False, hash=False)

    # `pos`, `big`, `label` and `ready_weapon` are worked out from the fields when the figure is made
    # (__post_init__, and moved_to for `pos`), not asked of a property each time: the AI and the
    # resolver read them millions of times a battle. They are not fields: equality, hashing, repr,
    # replace and save data see the fields only, as before. pos: (x, y); big: a body bigger than a
    # square; label: its name, else its id; ready_weapon: its first weapon, else "unarmed"; cells:
    # the squares its body covers (a bigger body's when first asked).

    def __post_init__(self):
        derived = self.__dict__
        derived["pos"] = (self.x, self.y)
        derived["big"] = self.footprint != ONE_SQUARE
        derived["label"] = self.name or self.id
        derived["ready_weapon"] = self.weapons[0] if self.weapons else "unarmed"
        if not derived["big"]:
            derived["cells"] = (derived["pos"],)

    @cached_property
    def cells(self) -> tuple[tuple[int, int], ...]:
        """The squares its body covers (a one-square figure's, `(pos,)`, are set when it is made)."""
        return cells(self.x, self.y, self.facing, self.footprint)

    @property
    def facing_name(self) -> str:
        return FACINGS[self.facing]

    def fresh_round(self) -> "Figure":
        """The same figure at the start of a round: no movement made yet."""
        return replace(self, running=False, diagonals_moved=0, straight_ft=0.0, has_moved=False)

    def moved_to(self, x: int, y: int, facing: int, altitude_ft: int | None = None) -> "Figure":
        # Copied field by field rather than by dataclasses.replace, which runs __init__ over every
        # field (8x slower): the AI and the resolver place figures hypothetically thousands of
        # times a turn. Nothing is checked in __init__, so the two give equal figures.
        moved = object.__new__(Figure)
        fields = moved.__dict__
        fields.update(self.__dict__)
        fields["x"], fields["y"], fields["facing"] = x, y, facing
        fields["pos"] = (x, y)
        if fields["big"]:
            fields.pop("cells", None)        # worked out again where it now stands, when asked
        else:
            fields["cells"] = (fields["pos"],)
        if altitude_ft is not None:
            fields["altitude_ft"] = altitude_ft
        return moved


def named_apart(figures) -> tuple:
    """The figures with every name two or more of them share numbered in their order ("Goblin 1",
    "Goblin 2"), so that words naming a figure ("it is not Goblin 1's turn") never name two; a number
    another figure's own name already has is passed over. Figures named apart already come back as
    they are. The id stays the figure's handle on the command line (the token card shows it)."""
    figures = tuple(figures)
    counts: dict = {}
    for f in figures:
        counts[f.label] = counts.get(f.label, 0) + 1
    if all(n == 1 for n in counts.values()):
        return figures
    taken = set(counts)
    numbered: dict = {}
    out = []
    for f in figures:
        if counts[f.label] > 1:
            n = numbered.get(f.label, 0) + 1
            while f"{f.label} {n}" in taken:
                n += 1
            numbered[f.label] = n
            taken.add(f"{f.label} {n}")
            f = replace(f, name=f"{f.label} {n}")
        out.append(f)
    return tuple(out)
