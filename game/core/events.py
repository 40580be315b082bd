"""Events: what the resolver reports. The log panel, the CLI and the AI read only these.

Every event names the rule that fired (ruleset id + section, e.g. "bfrpg:parting-shot") and
carries its numbers: the dice rolled, each modifier with its value and source, the target
number and the outcome. `text` is the plain-words line the log shows; it is written by the
resolver from the same numbers, so the two never disagree.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Roll:
    dice: str               # "d20", "2d6", "d100"
    results: tuple[int, ...]
    total: int

    def to_json(self) -> dict:
        return {"dice": self.dice, "results": list(self.results), "total": self.total}


@dataclass(frozen=True)
class Modifier:
    name: str               # "parting shot", "flank", "charge", "1/2 cover"
    value: int
    source: str             # rule id that grants it, e.g. "cnc:flank-attack"

    def to_json(self) -> dict:
        return {"name": self.name, "value": self.value, "source": self.source}


@dataclass(frozen=True)
class Event:
    kind: str                               # "move", "attack", "damage", "parting-shot", "initiative", "refused", ...
    rule: str                               # the rule that fired
    text: str                               # plain words, with the numbers
    actor: str | None = None                # figure id
    target: str | None = None               # figure id
    rolls: tuple[Roll, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    total: int | None = None                # roll + modifiers
    target_number: int | None = None        # AC, or SC - DEF for d100
    outcome: str | None = None              # "hit", "miss", "critical", "stunned", ...
    squares: tuple[tuple[int, int], ...] = ()   # squares involved, for highlighting
    data: dict = field(default_factory=dict)    # anything else, JSON-safe

    def to_json(self) -> dict:
        out = {"kind": self.kind, "rule": self.rule, "text": self.text}
        if self.actor is not None:
            out["actor"] = self.actor
        if self.target is not None:
            out["target"] = self.target
        if self.rolls:
            out["rolls"] = [r.to_json() for r in self.rolls]
        if self.modifiers:
            out["modifiers"] = [m.to_json() for m in self.modifiers]
        for key in ("total", "target_number", "outcome"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.squares:
            out["squares"] = [list(s) for s in self.squares]
        if self.data:
            out["data"] = self.data
        return out


class ActionRefused(Exception):
    """The resolver refused an action. Nothing changed. `reason` is in a player's words."""

    def __init__(self, reason: str, rule: str = ""):
        super().__init__(reason)
        self.reason = reason
        self.rule = rule
