"""Squares, facings and distances on a grid of 5-ft squares.

Coordinates are (x, y) with y growing southward, as on the screen and in Tiled.
Facings are the 8 compass directions, numbered clockwise from north.
See docs/geometry.md for the rules these functions implement.
"""
from __future__ import annotations

import math

from .errors import RulesError

SQUARE_FT = 5

FACINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
FACING_INDEX = {name: i for i, name in enumerate(FACINGS)}
# Unit step for each facing; diagonal facings are the odd ones.
DIRECTION_DELTAS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
DELTA_TO_DIRECTION = {delta: i for i, delta in enumerate(DIRECTION_DELTAS)}

DIAGONAL_RULES = ("5-10", "5", "euclidean", "none")

# Where an attacker stands relative to a defender's facing, by octant offset 0..7.
ARC_NAMES = ("front", "front-right", "right", "rear-right", "rear", "rear-left", "left", "front-left")


def parse_facing(name: str) -> int:
    key = str(name).strip().upper()
    if key not in FACING_INDEX:
        raise RulesError(f"unknown facing {name!r}: use one of {', '.join(FACINGS)}")
    return FACING_INDEX[key]



def turn_octants(from_facing: int, to_facing: int) -> int:
    """Smallest number of 45-degree turns between two facings (0..4)."""
    diff = (to_facing - from_facing) % 8
    return min(diff, 8 - diff)


# Feet a diagonal step costs on open ground under each diagonal rule: (after an even number of
# diagonals this move, after an odd number). The one place the 5-10 rule's alternation is written.
DIAGONAL_STEP_FT = {"5-10": (SQUARE_FT, 2 * SQUARE_FT), "5": (SQUARE_FT, SQUARE_FT),
                    "euclidean": (SQUARE_FT * math.sqrt(2), SQUARE_FT * math.sqrt(2))}
STRAIGHT_STEP_FT = (SQUARE_FT, SQUARE_FT)


def step_feet(rule: str, diagonal: bool) -> tuple:
    """(feet at even diagonal parity, feet at odd parity) of one step on open ground."""
    if not diagonal:
        return STRAIGHT_STEP_FT
    got = DIAGONAL_STEP_FT.get(rule)
    if got is None:
        raise RulesError(f"diagonal rule {rule!r} allows no diagonal steps")
    return got


def step_cost_ft(rule: str, diagonal: bool, diagonals_so_far: int) -> int:
    """Feet one step costs on open ground, given how many diagonals the move has made so far."""
    return step_feet(rule, diagonal)[diagonals_so_far & 1]


def grid_distance_ft(rule: str, dx: int, dy: int) -> float:
    """Shortest open-ground distance between two squares under a diagonal rule."""
    if dx.__class__ is int and dy.__class__ is int:
        # Whole squares written out (the AI asks this millions of times a battle at 100 a side).
        a = dx if dx >= 0 else -dx
        b = dy if dy >= 0 else -dy
        if rule == "5-10":
            return 5 * a + 5 * (b // 2) if a >= b else 5 * b + 5 * (a // 2)
        if rule == "5":
            return SQUARE_FT * max(a, b)
        if rule == "euclidean":
            return SQUARE_FT * math.hypot(a, b)
    a, b = abs(dx), abs(dy)
    longer, shorter = max(a, b), min(a, b)
    if rule == "5-10":
        return SQUARE_FT * longer + SQUARE_FT * (shorter // 2)
    if rule == "5":
        return SQUARE_FT * longer
    if rule == "euclidean":
        return SQUARE_FT * math.hypot(a, b)
    if rule == "none":
        return SQUARE_FT * (a + b)
    raise RulesError(f"unknown diagonal rule {rule!r}: use one of {', '.join(DIAGONAL_RULES)}")


def combine_vertical_ft(rule: str, horizontal_ft: float, vertical_ft: float) -> float:
    """Fold a height difference into a horizontal distance with the same diagonal rule.

    Height is treated as a third grid axis measured in feet: under 5-10 every second
    5-ft of the shorter leg costs an extra 5 ft, exactly as on the ground.
    """
    h, v = abs(horizontal_ft), abs(vertical_ft)
    longer, shorter = max(h, v), min(h, v)
    if rule == "5-10":
        return longer + SQUARE_FT * math.floor(shorter / (2 * SQUARE_FT))
    if rule == "5":
        return longer
    if rule == "euclidean":
        return math.hypot(h, v)
    if rule == "none":
        return h + v
    raise RulesError(f"unknown diagonal rule {rule!r}: use one of {', '.join(DIAGONAL_RULES)}")


_WRITTEN_OUT = frozenset(("5-10", "5", "euclidean"))


def distance_ft(rule: str, a: tuple[int, int], b: tuple[int, int], height_a_ft: float = 0, height_b_ft: float = 0) -> float:
    """Distance between two figures, counting the difference in their heights.

    Under the euclidean rule it is rounded to the nearest 5 ft (half up), as a table measures
    figures on a grid: diagonal neighbours (7.07 ft) are 5 ft apart, (2,1) is 10 ft, (2,2) 15 ft.
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    if dx.__class__ is int and dy.__class__ is int and rule in _WRITTEN_OUT:
        # grid_distance_ft and combine_vertical_ft written out for whole squares (asked for every
        # pair of figures the AI weighs): the same operations in the same order.
        x = dx if dx >= 0 else -dx
        y = dy if dy >= 0 else -dy
        v = abs(height_b_ft - height_a_ft)
        if rule == "5-10":
            h = 5 * x + 5 * (y // 2) if x >= y else 5 * y + 5 * (x // 2)
            return max(h, v) + SQUARE_FT * math.floor(min(h, v) / (2 * SQUARE_FT))
        if rule == "5":
            return max(SQUARE_FT * max(x, y), v)
        return SQUARE_FT * math.floor(math.hypot(SQUARE_FT * math.hypot(x, y), v) / SQUARE_FT + 0.5)
    horizontal = grid_distance_ft(rule, dx, dy)
    combined = combine_vertical_ft(rule, horizontal, height_b_ft - height_a_ft)
    if rule == "euclidean":
        return SQUARE_FT * math.floor(combined / SQUARE_FT + 0.5)
    return combined


def bearing_octant(origin: tuple[int, int], target: tuple[int, int]) -> int:
    """The compass octant (0=N .. 7=NW) that points from origin toward target."""
    dx, dy = target[0] - origin[0], target[1] - origin[1]
    if dx == 0 and dy == 0:
        return 0
    angle = math.degrees(math.atan2(dx, -dy)) % 360  # 0 = north, clockwise
    return int(math.floor(angle / 45 + 0.5)) % 8


def relative_arc(defender: tuple[int, int], defender_facing: int, attacker: tuple[int, int]) -> int:
    """Octant offset of the attacker from the defender's facing: 0 front, 4 directly behind."""
    return (bearing_octant(defender, attacker) - defender_facing) % 8
