"""Sight and cover between bodies bigger than a square (a leaf over los.SightMap).

A big target is seen when any of its cells is seen, and its cover is the least of its cells'
(the viewer picks the best of its own cells too): not in the documents, an engine choice
(docs/combat.md, Figures bigger than a square). One-square figures get exactly los.SightMap.sight.
"""
from __future__ import annotations

from ..values.cover import COVER_INDEX
from .los import Sight, SightMap


def body_sight(sight_map: SightMap, body_a, body_b, altitude_a: float = 0, altitude_b: float = 0,
               standing: dict | None = None) -> Sight:
    """The best sight from any cell of body_a to any cell of body_b (`standing`: other figures'
    cells -> their altitude, as SightMap.sight takes them)."""
    if len(body_a) == 1 and len(body_b) == 1:
        return sight_map.sight(body_a[0], body_b[0], altitude_a, altitude_b, standing)
    best = None
    for a in body_a:
        for b in body_b:
            seen = sight_map.sight(a, b, altitude_a, altitude_b, standing)
            key = (not seen.visible, COVER_INDEX[seen.cover], COVER_INDEX[seen.concealment])
            if best is None or key < best[0]:
                best = (key, seen)
            if key == (False, 0, 0):
                return seen
    return best[1]


def centre(body) -> tuple[float, float]:
    """The middle of a body, in map units (a square's centre is x + 0.5)."""
    return (sum(c[0] for c in body) / len(body) + 0.5, sum(c[1] for c in body) / len(body) + 0.5)
