"""How long a frame may spend building cached chunks (the map's, the overlays'), shared by both."""
from __future__ import annotations

import time


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
