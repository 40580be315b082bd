"""Events: what the resolver reports. The log panel, the CLI and the AI read only these.

Every event names the rule that fired (ruleset id + section, e.g. "bfrpg:parting-shot") and
carries its numbers: the dice rolled, each modifier with its value and source, the target
number and the outcome. `text` is the plain-words line the log shows; it is written by the
resolver from the same numbers, so the two never disagree.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum



class EventKind(StrEnum):
    """Every kind of event the resolver emits. Reports and the window count and filter by
    these, never by text. The values are the JSON `kind` strings (docs/cli.md)."""

    # the battle and its rounds
    HIT_POINTS = "hit-points"
    ROUND = "round"
    SURPRISE = "surprise"
    INITIATIVE = "initiative"
    ORDER = "order"
    DECLARE = "declare"
    DECLARE_MOVE = "declare-move"
    SKIP = "skip"
    SIMULTANEOUS = "simultaneous"
    BATTLE_OVER = "battle-over"
    OBJECTIVE = "objective"
    RULESET = "ruleset"
    # moving
    MOVE = "move"
    TURN = "turn"
    STALL = "stall"
    CHARGE = "charge"
    DISENGAGE = "disengage"
    RETREAT = "retreat"
    FLEE = "flee"
    # stances and turn-taking
    SET = "set"
    AIM = "aim"
    DEFEND = "defend"
    HOLD = "hold"
    STAND = "stand"
    END_TURN = "end-turn"
    GM_PLACE = "gm-place"
    # attacks (each rolls to hit)
    ATTACK = "attack"
    CHARGE_ATTACK = "charge-attack"
    PARTING_SHOT = "parting-shot"
    FREE_ATTACK = "free-attack"
    REACH_ATTACK = "reach-attack-on-a-closing-foe"
    SET_WEAPON_STRIKE = "set-weapon"
    STRIKES_FIRST = "strikes-first"
    FRIENDLY_FIRE = "friendly-fire"
    INTO_MELEE = "into-melee"
    # what attacks and the round do to figures
    CONDITION = "condition"
    STUNNED = "stunned"
    GRIEVOUS = "grievous"
    STUCK = "stuck"
    FUMBLE = "fumble"
    DOWN = "down"
    FALL = "fall"
    BLEED = "bleed"
    MORALE = "morale"
    # manoeuvres and forced movement
    GRAPPLE = "grapple"
    ESCAPE = "escape"
    RELEASE = "release"
    DRAG = "drag"
    TRIP = "trip"
    PUSH = "push"
    OVERBEAR = "overbear"
    # mounts and riders
    MOUNT = "mount"
    DISMOUNT = "dismount"
    THROWN = "thrown"
    UNHORSE = "unhorse"
    HITS_MOUNT = "hits-mount"
    # missiles after a miss
    FLIES_ON = "flies-on"
    SCATTER = "scatter"
    SPLASH = "splash"


# Kinds that are a roll to hit (an attack of some sort).
ATTACK_KINDS = frozenset({EventKind.ATTACK, EventKind.CHARGE_ATTACK, EventKind.PARTING_SHOT, EventKind.FREE_ATTACK,
                          EventKind.REACH_ATTACK, EventKind.SET_WEAPON_STRIKE, EventKind.STRIKES_FIRST})


@dataclass(frozen=True)
class Roll:
    """Dice rolled for an event and their total."""

    dice: str               # "d20", "2d6", "d100"
    results: tuple[int, ...]
    total: int

    def to_json(self) -> dict:
        return {"dice": self.dice, "results": list(self.results), "total": self.total}


@dataclass(frozen=True)
class Modifier:
    """One modifier to a roll, with the rule that grants it."""

    name: str               # "parting shot", "flank (left)", "charge", "1/2 cover": what the player reads
    value: int
    source: str             # rule id that grants it, e.g. "cnc:flank-attack"
    key: str = ""           # which family it is ("flank", "rear", "cover", ...): reports count by this

    def to_json(self) -> dict:
        out = {"name": self.name, "value": self.value, "source": self.source}
        if self.key:
            out["key"] = self.key
        return out


@dataclass(frozen=True)
class Event:
    """One thing the resolver reports, with the rule that fired and its numbers."""

    kind: EventKind
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
        out = {"kind": str(self.kind), "rule": self.rule, "text": self.text}
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
