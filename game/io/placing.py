"""Where figures stand on a map that has no spawns: two a side (fewer on a map with fewer than
four open squares, blue first), facing each other across it.

Only open squares are used: not blocking movement, not water, not the edge of a drop (a
square beside one at least DROP_FT lower), and all in the largest area of such squares that
connect to each other, so both sides can reach one another. The sides stand at the two ends
of that area along the map's longer side (blue west or north, red east or south), each near
the middle of its end, facing the other; EDGE_GAP squares in from the map's edges when the
area reaches beyond them.
"""
from __future__ import annotations

from collections import deque

import numpy as np

DROP_FT = 10
PER_SIDE = 2
EDGE_GAP = 2              # squares kept free along the map's edges when the open area allows


def open_squares(bmap) -> np.ndarray:
    """(h, w) bool: squares a figure may be put on."""
    fine = ~bmap.blocks_move.numpy().astype(bool) & ~bmap.water.numpy().astype(bool)
    floor = bmap.elevation_ft.numpy().astype(np.int64)
    if floor.any():
        padded = np.pad(floor, 1, mode="edge")
        h, w = floor.shape
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                neighbour = padded[1 + dy:1 + dy + h, 1 + dx:1 + dx + w]
                fine &= ~(floor - neighbour >= DROP_FT)
    return fine


def largest_area(fine: np.ndarray) -> np.ndarray:
    """The largest set of open squares joined side to side (the first found, of equal ones)."""
    h, w = fine.shape
    flat = fine.ravel()
    label = np.zeros(h * w, np.int32)
    best, best_size, current = 0, 0, 0
    for start in np.flatnonzero(flat):
        if label[start]:
            continue
        current += 1
        label[start] = current
        queue, size = deque([int(start)]), 0
        while queue:
            at = queue.popleft()
            size += 1
            y, x = divmod(at, w)
            for nxt, ok in ((at - w, y > 0), (at + w, y < h - 1), (at - 1, x > 0), (at + 1, x < w - 1)):
                if ok and flat[nxt] and not label[nxt]:
                    label[nxt] = current
                    queue.append(nxt)
        if size > best_size:
            best, best_size = current, size
    return (label == best).reshape(h, w) if best else np.zeros_like(fine)


def default_positions(bmap) -> list[tuple[str, int, int, str]]:
    """(side, x, y, facing) for the figures of a map with no spawns; empty when nowhere is open."""
    area = largest_area(open_squares(bmap))
    inner = area.copy()       # away from the edges where there is room: tokens and names show whole
    inner[:EDGE_GAP], inner[-EDGE_GAP:], inner[:, :EDGE_GAP], inner[:, -EDGE_GAP:] = False, False, False, False
    ys, xs = np.nonzero(inner if inner.sum() >= 4 * PER_SIDE else area)
    if not len(xs):
        return []
    per_side = min(PER_SIDE, max(1, len(xs) // 2))   # a tiny map: fewer figures, blue first
    across = bmap.width >= bmap.height                  # the sides face each other east-west
    along, other = (xs, ys) if across else (ys, xs)
    middle = (other.min() + other.max()) / 2
    sides = (("blue", "E" if across else "S", along), ("red", "W" if across else "N", -along))
    placed, taken = [], set()
    for side, facing, key in sides:
        order = np.lexsort((np.abs(other - middle), key))   # nearest its end, then the middle
        mine: list[tuple[int, int]] = []
        roomy = along.max() - along.min() >= 8
        for spaced in (True, False) if roomy else (False,):  # a square apart: names under tokens cover none
            for i in order:
                square = (int(xs[i]), int(ys[i]))
                if len(mine) == per_side or square in taken or (spaced and any(
                        max(abs(square[0] - x), abs(square[1] - y)) <= 1 for x, y in mine)):
                    continue
                taken.add(square)
                mine.append(square)
                placed.append((side, *square, facing))
    return placed
