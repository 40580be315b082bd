"""Actions: what a player, the AI, the CLI or a test asks the resolver to do.

Actions are plain data. Only the resolver validates and applies them; building one changes
nothing. Each has a JSON form (`to_json` / `action_from_json`) used by saves, scripts and logs.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import ClassVar

from .errors import RulesError
from .geometry import FACINGS, parse_facing

_BOOL_KEYS = ("exit", "subdue", "careful", "unhorse")
_INT_KEYS = ("amount", "altitude_ft", "x", "y")
MAX_PATH_STEPS = 1000


@dataclass(frozen=True)
class Action:
    kind: ClassVar[str] = ""
    figure: str

    def to_json(self) -> dict:
        data = {"action": self.kind}
        for key, value in asdict(self).items():
            if value is None:
                continue
            data[key] = list(value) if isinstance(value, tuple) else value
        return data


@dataclass(frozen=True)
class Move(Action):
    """Move to `to` (walk, jog, run, withdraw, sidestep): along `path` when given (the exact steps
    the player saw, each (x, y, facing index, altitude_ft) after the start square; the resolver
    checks every step and refuses naming the first illegal one), else along the planner's
    cheapest legal path."""
    kind: ClassVar[str] = "move"
    to: tuple[int, int] = (0, 0)
    mode: str = "walk"
    facing: str | None = None         # end facing; default: the way it moved
    altitude_ft: int | None = None    # end altitude for flyers
    exit: bool = False                # leave the battle over the map edge at the end of the move
    path: tuple[tuple[int, int, int, int], ...] | None = None

    def to_json(self) -> dict:
        data = super().to_json()
        if self.path is not None:
            data["path"] = [[x, y, FACINGS[f], alt] for x, y, f, alt in self.path]
        return data


@dataclass(frozen=True)
class Turn(Action):
    kind: ClassVar[str] = "turn"
    facing: str = "N"


@dataclass(frozen=True)
class Charge(Action):
    kind: ClassVar[str] = "charge"
    target: str = ""


@dataclass(frozen=True)
class SetAgainstCharge(Action):
    kind: ClassVar[str] = "set"


@dataclass(frozen=True)
class Attack(Action):
    kind: ClassVar[str] = "attack"
    target: str = ""
    weapon: str | None = None         # default: the ready weapon
    subdue: bool = False              # strike to subdue (flat of the blade)
    careful: bool = False             # into a melee: take the penalty so as never to hit a friend
    unhorse: bool = False             # a polearm's try to pull a rider off its mount ([mounts] polearm_dismount)

    def to_json(self) -> dict:
        data = super().to_json()
        if not self.unhorse:
            data.pop("unhorse")       # only written when asked for, so older logs read the same
        return data


@dataclass(frozen=True)
class Aim(Action):
    """Aim (bfrpg +4 next round) or careful aim (spelljammer +15) with a ranged weapon."""
    kind: ClassVar[str] = "aim"
    target: str | None = None


@dataclass(frozen=True)
class Defend(Action):
    """Take up a defensive stance from the ruleset's [[defenses]] (parry, dodge, full-defense, ...)."""
    kind: ClassVar[str] = "defend"
    style: str = "parry"
    amount: int = 0                   # "defending" (d100): SC traded for DEF, 2 for 1


@dataclass(frozen=True)
class Disengage(Action):
    """Leave melee the ruleset's way: odnd retreat, cnc hasty/fighting, spelljammer withdraw."""
    kind: ClassVar[str] = "disengage"
    to: tuple[int, int] = (0, 0)
    style: str = "retreat"
    mode: str | None = None           # retreat: walk or run


@dataclass(frozen=True)
class Hold(Action):
    """Hold or delay the action until a later initiative number (or another figure's)."""
    kind: ClassVar[str] = "hold"
    until: str | None = None


@dataclass(frozen=True)
class Stand(Action):
    """Get up from prone, at the cost the ruleset's [prone].stand gives (the whole turn, half the move)."""
    kind: ClassVar[str] = "stand"


@dataclass(frozen=True)
class Grapple(Action):
    """Grab and hold a foe, the ruleset's way ([manoeuvres].grapple); refused where its document has none."""
    kind: ClassVar[str] = "grapple"
    target: str = ""


@dataclass(frozen=True)
class Trip(Action):
    """Trip a foe: it falls prone, moved to `to` (a square up to [manoeuvres].trip_ft away; default: where it stands)."""
    kind: ClassVar[str] = "trip"
    target: str = ""
    to: tuple[int, int] | None = None


@dataclass(frozen=True)
class Push(Action):
    """Force a foe to move to `to` (up to [manoeuvres].push_ft), off a ledge if that is where `to` is."""
    kind: ClassVar[str] = "push"
    target: str = ""
    to: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class Overbear(Action):
    """Knock a foe down by weight ([manoeuvres].overbear)."""
    kind: ClassVar[str] = "overbear"
    target: str = ""


@dataclass(frozen=True)
class Escape(Action):
    """A held figure tries to break free; `to`: where it steps when it does (default: a free square beside the holder)."""
    kind: ClassVar[str] = "escape"
    to: tuple[int, int] | None = None


@dataclass(frozen=True)
class Release(Action):
    """Let go of the figure it holds."""
    kind: ClassVar[str] = "release"


@dataclass(frozen=True)
class Mount(Action):
    """Get on a mount (`mount`: its id): from then on the figure rides it ([mounts] mount_cost)."""
    kind: ClassVar[str] = "mount"
    mount: str = ""


@dataclass(frozen=True)
class Dismount(Action):
    """Get off the mount onto `to`, a free square beside its body (default: the first free one)."""
    kind: ClassVar[str] = "dismount"
    to: tuple[int, int] | None = None


@dataclass(frozen=True)
class EndTurn(Action):
    kind: ClassVar[str] = "end-turn"


@dataclass(frozen=True)
class GmPlace(Action):
    """A game master's edit: put any figure on any free square, facing and altitude, out of turn.

    Logged like every action, so undo, redo, saves and replays include it.
    """
    kind: ClassVar[str] = "gm-place"
    x: int | None = None
    y: int | None = None
    facing: str | None = None
    altitude_ft: int | None = None


ACTION_TYPES: dict[str, type[Action]] = {cls.kind: cls for cls in
                                         (Move, Turn, Charge, SetAgainstCharge, Attack, Aim, Defend, Disengage, Hold,
                                          Stand, Grapple, Trip, Push, Overbear, Escape, Release, Mount, Dismount, EndTurn,
                                          GmPlace)}


def action_from_json(data: dict) -> Action:
    """Build an action from its JSON form, or RulesError saying what is wrong."""
    if not isinstance(data, dict) or "action" not in data:
        raise RulesError(f"an action needs an 'action' key, one of: {', '.join(ACTION_TYPES)}")
    kind = data["action"]
    cls = ACTION_TYPES.get(kind)
    if cls is None:
        raise RulesError(f"unknown action {kind!r}; actions are: {', '.join(ACTION_TYPES)}")
    allowed = {f.name for f in fields(cls)}
    extra = sorted(set(data) - allowed - {"action"})
    if extra:
        raise RulesError(f"action {kind!r} has no key {extra[0]!r}; its keys are: {', '.join(sorted(allowed))}")
    if "figure" not in data:
        raise RulesError(f"action {kind!r} needs 'figure' (the id of the figure acting)")
    values = dict(data)
    values.pop("action")
    if "path" in values:
        values["path"] = _path_from_json(kind, values["path"])
    for key in ("to",):
        if key in values and values[key] is not None:
            value = values[key]
            if (not isinstance(value, (list, tuple)) or len(value) != 2
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
                raise RulesError(f"action {kind!r}: '{key}' must be [x, y] with whole numbers")
            values[key] = (value[0], value[1])
    for key, value in values.items():
        if key in _BOOL_KEYS and not isinstance(value, bool):
            raise RulesError(f"action {kind!r}: '{key}' must be true or false")
        if key in _INT_KEYS and value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise RulesError(f"action {kind!r}: '{key}' must be a whole number")
        if key not in ("to", "path") + _BOOL_KEYS + _INT_KEYS and value is not None and not isinstance(value, str):
            raise RulesError(f"action {kind!r}: '{key}' must be text")
    return cls(**values)


def _path_from_json(kind: str, value) -> tuple:
    """[[x, y, facing, altitude_ft], ...] (facing as "NE" or 0..7) -> the Move's path tuple."""
    shape = f"action {kind!r}: 'path' must be a list of [x, y, facing, altitude_ft] steps (facing one of {', '.join(FACINGS)})"
    if not isinstance(value, (list, tuple)) or len(value) > MAX_PATH_STEPS:
        raise RulesError(shape + f", at most {MAX_PATH_STEPS} steps")
    steps = []
    for step in value:
        if not isinstance(step, (list, tuple)) or len(step) != 4:
            raise RulesError(shape)
        x, y, facing, alt = step
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (x, y, alt)):
            raise RulesError(shape)
        if isinstance(facing, str):
            facing = parse_facing(facing)
        elif not (isinstance(facing, int) and not isinstance(facing, bool) and 0 <= facing < 8):
            raise RulesError(shape)
        steps.append((x, y, facing, alt))
    return tuple(steps)
