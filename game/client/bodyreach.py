"""Where a figure bigger than a square can be after a move: the area its body can cover, and which
end of the move a pointed square means.

Worked from the resolver's reach entries (per anchor square: the least cost per end facing and
altitude, and whether the move may end there) and the body's squares (core.values.bodies.cells):
the window decides nothing about the rules here, only which of the resolver's ends to offer. A
square body covers the same squares whatever its facing; a body one square wide covers
different ones per end facing, so each of its reachable end facings is an end of its own.
"""
from __future__ import annotations

from ..core.values.bodies import cells

ONE_SQUARE = (1, 1)


def body_ends(entries: dict, footprint: tuple, left_ft: float, altitude_ft: int | None = None) -> list:
    """(cost, anchor, end facing or None, body squares) of every end the move can reach with `left_ft`
    (at `altitude_ft`, when given). Square bodies: one end per anchor (facing None)."""
    left = left_ft + 1e-9
    square_body = footprint[0] == footprint[1]
    out = []
    for anchor, entry in entries.items():
        if not entry.can_end:
            continue
        base = entry.cost_ft if altitude_ft is None else entry.altitudes.get(altitude_ft, 1e18)
        if base > left:
            continue
        if square_body:
            out.append((base, anchor, None, cells(anchor[0], anchor[1], 0, footprint)))
            continue
        for facing, cost in sorted(entry.facings.items()):
            cost = max(cost, base)   # at a planned altitude: no cheaper than reaching that altitude
            if cost <= left:
                out.append((cost, anchor, facing, cells(anchor[0], anchor[1], facing, footprint)))
    return out


def cover_index(ends: list) -> dict:
    """Square -> the ends whose body covers it, as (cost, distance from the body's centre squared,
    anchor, facing), best first: cheapest, then the body centred nearest the square."""
    index: dict = {}
    for cost, anchor, facing, body in ends:
        cx = sum(x for x, _ in body) / len(body)
        cy = sum(y for _, y in body) / len(body)
        for sq in body:
            d2 = (sq[0] - cx) ** 2 + (sq[1] - cy) ** 2
            order = (round(cost, 6), d2, (anchor[1], anchor[0]), -1 if facing is None else facing)
            index.setdefault(sq, []).append((*order, anchor, facing))
    for got in index.values():
        got.sort(key=lambda c: c[:4])
    return index


def pick_end(index: dict, anchors: frozenset, square, facing: int | None = None):
    """(anchor, end facing or None) of the move a pointer on `square` means, or None when no reachable
    end covers it. A square the anchor itself can end on means that anchor (a one-square figure's
    move is unchanged); else the cheapest end whose body covers the square (with `facing`, one
    ending that way), ties to the body centred nearest it."""
    if square in anchors:
        return square, None
    for *_key, anchor, end_facing in index.get(square, ()):
        if facing is None or end_facing is None or end_facing == facing:
            return anchor, end_facing
    return None
