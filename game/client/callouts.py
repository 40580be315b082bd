"""On-map callouts: when a rule decides something nobody clicked for (a set spear meeting a
charge, a reach weapon striking a closing foe, a parting shot, a fall, a shot into a melee that
strikes a friend, a near miss hitting the mount, a morale check), the window says so where it
happened, with the rule and its numbers, long enough to read.

Pure: the callouts are made from the events (their kind, rule, text and squares), never from the
rules; the window (game/ui/hud.py) draws them.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.values.events import EventKind

# The events that are a rule deciding on its own, and what the callout calls them.
CALLOUT_KINDS = {
    EventKind.SET_WEAPON_STRIKE: "Set weapon meets the charge",
    EventKind.REACH_ATTACK: "Reach strikes a closing foe",
    EventKind.STRIKES_FIRST: "Longer reach strikes first",
    EventKind.PARTING_SHOT: "Parting shot",
    EventKind.FREE_ATTACK: "Free attack",
    EventKind.FALL: "Fall",
    EventKind.INTO_MELEE: "Shot into a melee",
    EventKind.FRIENDLY_FIRE: "A friend is struck",
    EventKind.HITS_MOUNT: "The mount is struck",
    EventKind.MORALE: "Morale",
    EventKind.FLEE: "Flight",
    EventKind.SIMULTANEOUS: "Simultaneous blows",
    EventKind.THROWN: "Thrown from the saddle",
    EventKind.UNHORSE: "Unhorsed",
    EventKind.STUNNED: "Stunned",
}
HOLD_S = 6.0          # on screen this long after it appears (and after the animation, when one plays)
MOST = 3              # at most this many at once: the newest


@dataclass(frozen=True)
class Callout:
    title: str             # what decided, e.g. "Set weapon meets the charge"
    rule: str              # ruleset:section
    text: str              # the event's own words (the numbers)
    squares: tuple         # where it happened (the anchor is the last)
    figures: tuple         # who it concerns (actor, target)
    event_index: int
    until: float

    @property
    def anchor(self):
        return self.squares[-1] if self.squares else None


class Callouts:
    def __init__(self):
        self.items: list[Callout] = []

    def add(self, events, first_index: int, figures: dict, now: float, delay: float = 0.0) -> None:
        """Callouts for the rule-deciding events among `events` (the battle's events from `first_index`)."""
        for i, ev in enumerate(events):
            title = CALLOUT_KINDS.get(ev.kind)
            if title is None:
                continue
            who = tuple(f for f in (ev.actor, ev.target) if f and f in figures)
            squares = tuple(ev.squares) or tuple(figures[f].pos for f in reversed(who))
            self.items.append(Callout(title, ev.rule, ev.text, squares, who, first_index + i, now + delay + HOLD_S))
        self.items = self.items[-MOST:]

    def active(self, now: float) -> list[Callout]:
        self.items = [c for c in self.items if c.until > now]
        return list(self.items)

    def clear(self) -> None:
        self.items = []
