"""The one forced-dice fixture: a stand-in for the battle's RNG that gives chosen faces, and the
face-by-face enumeration of everything an action rolls built on it.

    battle.rng = ForcedDice([17, 4])                  # d20 17, then damage 4, then seeded rolls
    battle.rng = ForcedDice([17, 4], then="fail")     # ... and no other die may be drawn
    every_roll(battle, action, classify)              # {classify(...): probability} over every face
    every_outcome(the_roll(battle, breakdown))        # the attack roll's outcomes, face by face

`then` says what happens once the queued faces are used: "seeded" rolls on from a seeded
generator, "lowest" gives the lowest face allowed (and random() 0.0), "fail" stops the test.
Every draw is noted in `draws` as (lo, hi).
"""
from __future__ import annotations

import random

from game.core.combat.attack import parry, roll_attack

THEN = ("seeded", "lowest", "fail")


class TooDeep(Exception):
    """More dice were drawn than the enumeration follows (a chain of fumbles answering fumbles)."""


class ForcedDice(random.Random):
    def __init__(self, faces=(), then: str = "seeded", seed: int = 5, clamp: bool = False, most: int | None = None):
        assert then in THEN, then
        super().__init__(seed)
        self.queue = list(faces)
        self.then = then
        self.clamp = clamp             # a queued face outside the die is moved inside it (else it fails)
        self.most = most               # draw at most this many dice (TooDeep beyond)
        self.draws: list[tuple[int, int]] = []

    def randint(self, lo, hi):
        if self.most is not None and len(self.draws) >= self.most:
            raise TooDeep
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


def every_outcome(run, limit: int = 200_000, most_dice: int = 12) -> dict:
    """{run(rng): probability} over every face of every die `run` draws from the ForcedDice it is
    given: each die not yet fixed is tried at each of its faces (run again from the start each
    time, so `run` must work on a fresh copy of whatever it changes). Draws of more than
    `most_dice` dice are not followed: their share is under the key ("too deep",)."""
    seen: dict = {}
    stack: list[tuple] = [()]
    runs = 0
    while stack:
        runs += 1
        assert runs <= limit, "too many rolls to enumerate"
        prefix = stack.pop()
        rng = ForcedDice(prefix, then="lowest", most=max(most_dice, len(prefix)))
        try:
            key = run(rng)
        except TooDeep:
            if len(prefix) < most_dice:       # the die after the prefix: follow each of its faces
                lo, hi = rng.draws[len(prefix)]
                stack.extend(prefix + (v,) for v in range(lo, hi + 1))
                continue
            key = ("too deep",)
            rng.draws[:] = rng.draws[:len(prefix)]
        else:
            if len(rng.draws) > len(prefix):  # a die not yet fixed: try each of its faces
                lo, hi = rng.draws[len(prefix)]
                stack.extend(prefix + (v,) for v in range(lo, hi + 1))
                continue
        p = 1.0
        for lo, hi in rng.draws:
            p /= hi - lo + 1
        seen[key] = seen.get(key, 0.0) + p
    return seen


def every_roll(battle, action, classify, limit: int = 200_000, most_dice: int = 12) -> dict:
    """{classify(before, after, action, events): probability} over every face of every die `apply`
    draws for the action, each run on a fresh copy of the battle: the exact distribution of what
    `apply` does (criticals, fumbles, parries included)."""
    def run(rng):
        twin = battle.clone()
        twin.rng = rng
        events = twin.apply(action)
        return classify(battle, twin, action, events)
    return every_outcome(run, limit, most_dice)


def the_roll(battle, bd):
    """The roll `resolve` makes for a blow with this breakdown: the die (or two), a critical's or a
    fumble's further dice, the damage, the target's parry (its count of parries put back after each
    run: nothing else is changed by the roll). Keyed as (outcome, damage, critical, fumble)."""
    def run(rng):
        state = battle.state_of(bd.target)
        used = state.parries_used
        try:
            result = roll_attack(battle, bd, rng)
            parried = False
            if result.hit and bd.kind == "melee" and state.defense:
                parried = parry(battle, bd, result.total, result.damage, rng)[0]
        finally:
            state.parries_used = used
        outcome = "parried" if parried else "hit" if result.hit else "miss"
        critical = result.critical not in ("", "regular")
        fumble = bool(result.fumble) and result.fumble != "miss" and result.fumble_failed_check
        return (outcome, 0 if parried or not result.hit else result.damage, critical and result.hit, fumble)
    return run
