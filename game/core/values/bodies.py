"""Figures bigger than a square: the squares a body covers, and distances between bodies.

A footprint is (across the facing, along the facing) in squares. Two shapes are supported:
square bodies (n x n), whose anchor is the top-left cell whatever the facing (they turn about
their centre and keep their squares), and bodies one square wide (1 x n), whose anchor is the
front (head) square with the body running back from it against the facing (a diagonal facing
gives a diagonal chain). None of this is in the source documents: it is the engine's choice
(docs/combat.md, Figures bigger than a square). A one-square figure covers its own square only,
so everything measured between bodies is what it was between squares.
"""
from __future__ import annotations

from . import geometry
from .geometry import DIRECTION_DELTAS

ONE_SQUARE = (1, 1)
MAX_SIDE = 4        # the largest body side the engine takes (a 20 ft creature)
SHAPES_WORDS = (f"[n, n] (a square body, n from 1 to {MAX_SIDE}) or [1, n] (one square wide, n squares long, "
                f"n up to {MAX_SIDE})")


def footprint_problem(value) -> str | None:
    """Why a footprint [across, along] is not one the engine supports, or None."""
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        return f"a footprint is two whole numbers [across, along]: {SHAPES_WORDS}"
    across, along = value
    if not (1 <= across <= MAX_SIDE and 1 <= along <= MAX_SIDE) or (across != along and across != 1):
        return f"{list(value)} is not a shape the engine supports: use {SHAPES_WORDS}"
    return None


def is_square_body(footprint: tuple[int, int]) -> bool:
    return footprint[0] == footprint[1]


def cells(x: int, y: int, facing: int, footprint: tuple[int, int] = ONE_SQUARE) -> tuple[tuple[int, int], ...]:
    """The squares a body anchored at (x, y) with this facing covers, the anchor first."""
    across, along = footprint
    if across == along:
        if across == 1:
            return ((x, y),)
        return tuple((x + i, y + j) for j in range(across) for i in range(across))
    dx, dy = DIRECTION_DELTAS[facing]
    return tuple((x - k * dx, y - k * dy) for k in range(along))


def offsets(facing: int, footprint: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """The cells relative to the anchor (cells at 0, 0)."""
    return cells(0, 0, facing, footprint)


def bounds(body) -> tuple[int, int, int, int]:
    """(least x, least y, greatest x, greatest y) of some cells."""
    xs = [c[0] for c in body]
    ys = [c[1] for c in body]
    return min(xs), min(ys), max(xs), max(ys)


def nearest_cells(rule: str, body_a, body_b) -> tuple[tuple[int, int], tuple[int, int]]:
    """The pair of cells (one of each body) nearest on the ground, the first such in order."""
    if len(body_a) == 1 and len(body_b) == 1:
        return body_a[0], body_b[0]
    best = None
    for a in body_a:
        for b in body_b:
            d = geometry.grid_distance_ft(rule, b[0] - a[0], b[1] - a[1])
            if best is None or d < best[0]:
                best = (d, a, b)
    return best[1], best[2]



def occupancy(figures, excluding: str | None = None) -> dict:
    """Every square covered by a figure's body -> that figure (all but `excluding`). A rider covers
    no square of its own: its mount's body holds the squares (game/core/mounts.py)."""
    out = {}
    for f in figures:
        if f.id != excluding and not f.mount:
            for cell in f.cells:
                out[cell] = f
    return out
