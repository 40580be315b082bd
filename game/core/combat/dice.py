"""Dice expressions ("d20", "2d6+1", "1d8-1", "3") and rolling them with a given RNG."""
from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass

from ..values.events import Roll

_DICE = re.compile(r"^\s*(?:(\d*)d(\d+))?\s*([+-]\s*\d+)?\s*$")


@dataclass(frozen=True)
class Dice:
    """A dice expression such as 2d6+1."""

    count: int
    sides: int
    bonus: int = 0

    @property
    def text(self) -> str:
        core = f"{self.count}d{self.sides}" if self.count else ""
        if self.bonus and core:
            return f"{core}{self.bonus:+d}"
        return core or str(self.bonus)

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.bonus

    @property
    def dice_only(self) -> "Dice":
        return Dice(self.count, self.sides, 0)

    def times(self, n: int) -> "Dice":
        return Dice(self.count * n, self.sides, self.bonus * n)

    def totals(self) -> tuple[tuple[int, float], ...]:
        """Every total this expression can roll, with its probability (for questions asked without rolling)."""
        dist = {0: 1.0}
        for _ in range(self.count):
            step: dict[int, float] = {}
            for total, p in dist.items():
                for face in range(1, self.sides + 1):
                    step[total + face] = step.get(total + face, 0.0) + p / self.sides
            dist = step
        return tuple((total + self.bonus, p) for total, p in sorted(dist.items()))

    def roll(self, rng) -> Roll:
        results = tuple(rng.randint(1, self.sides) for _ in range(self.count))
        return Roll(self.text, results, sum(results) + self.bonus)


@lru_cache(maxsize=1024)
def parse_dice(text: str) -> Dice:
    """A dice expression, or ValueError in plain words (kept: the odds and the rolls ask often)."""
    if str(text).strip().lstrip("+-").isdigit():
        return Dice(0, 0, int(str(text).strip()))
    match = _DICE.match(str(text))
    if not match or not (match.group(2) or match.group(3)):
        raise ValueError(f"{text!r} is not a dice expression; write it like 1d8, 2d6+1 or d20")
    count_text, sides_text, bonus_text = match.groups()
    count = int(count_text) if count_text else (1 if sides_text else 0)
    sides = int(sides_text) if sides_text else 0
    if sides_text and (sides < 2 or sides > 1000 or count < 1 or count > 100):
        raise ValueError(f"{text!r}: dice must have 2 to 1000 sides and be 1 to 100 in number")
    bonus = int(bonus_text.replace(" ", "")) if bonus_text else 0
    return Dice(count, sides, bonus)


def roll(rng, text: str) -> Roll:
    return parse_dice(text).roll(rng)


def die(rng, sides: int) -> Roll:
    value = rng.randint(1, sides)
    return Roll(f"d{sides}", (value,), value)
