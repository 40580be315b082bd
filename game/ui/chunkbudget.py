"""How long a frame may spend building cached chunks (the map's, the overlays'), shared by both."""
from __future__ import annotations

import time

FRAME_SLOT_S = 1 / 60      # the window draws at 60 frames a second
IDLE_MARGIN_S = 0.002      # what work between frames leaves of the slot (the clock's wake-up, the flip)


class FrameBudget:
    """The time one frame may spend building chunks (map and overlays together). A build starts only
    while the layer's estimate of one more still ends before the deadline, so the frame does not run
    over by a whole chunk; the first `least` builds of the frame start regardless (progress)."""

    def __init__(self, seconds: float | None, least: int = 1):
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.least = least
        self.built = 0

    @staticmethod
    def of(budget) -> "FrameBudget":
        """`budget` as it is, or a budget of that many seconds (None: no limit)."""
        return budget if isinstance(budget, FrameBudget) else FrameBudget(budget)

    def allows(self, estimate_s: float) -> bool:
        return self.deadline is None or self.built < self.least or time.perf_counter() + estimate_s <= self.deadline


def chunks_near(camera, n: int, ring: int) -> list[tuple[int, int]]:
    """The chunks (`n` squares a side) the view shows and those `ring` chunks around it, on the
    camera's map, nearest the view's centre first: the order they are built in ahead of need."""
    x0, y0, x1, y1 = camera.visible_squares()
    if x1 <= x0 or y1 <= y0:
        return []
    cx0, cy0, cx1, cy1 = x0 // n - ring, y0 // n - ring, (x1 - 1) // n + ring, (y1 - 1) // n + ring
    last_cx, last_cy = (camera.map_w - 1) // n, (camera.map_h - 1) // n
    mid = ((cx0 + cx1) / 2, (cy0 + cy1) / 2)
    near = [(cx, cy) for cy in range(max(0, cy0), min(last_cy, cy1) + 1)
            for cx in range(max(0, cx0), min(last_cx, cx1) + 1)]
    return sorted(near, key=lambda c: (c[0] - mid[0]) ** 2 + (c[1] - mid[1]) ** 2)


class BuildClock:
    """How long a chunk takes to build, on average (what `FrameBudget.allows` is asked with)."""

    def __init__(self, first_s: float = 0.0005):
        self.estimate_s = first_s

    def timed(self, budget: FrameBudget, build):
        start = time.perf_counter()
        out = build()
        self.estimate_s = 0.8 * self.estimate_s + 0.2 * (time.perf_counter() - start)
        budget.built += 1
        return out
