"""The one forced-dice fixture: a stand-in for the battle's RNG that gives chosen faces, and the
face-by-face enumeration of everything an action rolls built on it.

    battle.rng = ForcedDice([17, 4])                  # d20 17, then damage 4, then seeded rolls
    battle.rng = ForcedDice([17, 4], then="fail")     # ... and no other die may be drawn
    every_roll(battle, action, classify)              # {classify(...): probability} over every face

`then` says what happens once the queued faces are used: "seeded" rolls on from a seeded
generator, "lowest" gives the lowest face allowed (and random() 0.0), "fail" stops the test.
Every draw is noted in `draws` as (lo, hi).
"""
from __future__ import annotations

import random

THEN = ("seeded", "lowest", "fail")


class ForcedDice(random.Random):
    def __init__(self, faces=(), then: str = "seeded", seed: int = 5, clamp: bool = False):
        assert then in THEN, then
        super().__init__(seed)
        self.queue = list(faces)
        self.then = then
        self.clamp = clamp             # a queued face outside the die is moved inside it (else it fails)
        self.draws: list[tuple[int, int]] = []

    def randint(self, lo, hi):
        self.draws.append((lo, hi))
        if self.queue:
            face = self.queue.pop(0)
            if self.clamp:
                return min(max(face, lo), hi)
            assert lo <= face <= hi, (face, lo, hi)
            return face
        if self.then == "lowest":
            return lo
        if self.then == "fail":
            raise AssertionError(f"an unforced die was drawn: d{hi - lo + 1} (faces {lo}-{hi})")
        return super().randint(lo, hi)

    def random(self):
        if self.then == "lowest":
            return 0.0
        return super().random()


def every_roll(battle, action, classify, limit: int = 200_000) -> dict:
    """{classify(before, after, action, events): probability} over every face of every die the action
    draws: each die not yet fixed is tried at each of its faces on a fresh copy of the battle, so the
    result is the exact distribution of what `apply` does (criticals, fumbles, parries included)."""
    seen: dict = {}
    stack: list[tuple] = [()]
    runs = 0
    while stack:
        runs += 1
        assert runs <= limit, "too many rolls to enumerate"
        prefix = stack.pop()
        twin = battle.clone()
        twin.rng = ForcedDice(prefix, then="lowest")
        events = twin.apply(action)
        draws = twin.rng.draws
        if len(draws) > len(prefix):          # a die not yet fixed: try each of its faces
            lo, hi = draws[len(prefix)]
            stack.extend(prefix + (v,) for v in range(lo, hi + 1))
            continue
        p = 1.0
        for lo, hi in draws:
            p /= hi - lo + 1
        key = classify(battle, twin, action, events)
        seen[key] = seen.get(key, 0.0) + p
    return seen
