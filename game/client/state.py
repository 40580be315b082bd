"""What the window remembers that is not the battle: selection, mode, hover, switches.

Input handlers change this freely; the battle changes only through battle.apply (and the
other Battle methods the App calls on a handler's request).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core.values.modes import MOVE_MODES

# Switchable overlays: key -> (label, default on)
OVERLAYS = {
    "reach": ("reachable squares (walk / run)", True),
    "path": ("hovered path with step costs", True),
    "zones": ("engagement zones", False),
    "threat": ("threatened squares (foes' reach)", True),
    "lanes": ("charge lanes", True),
    "sight": ("line of sight and cover", True),
    "parting": ("parting shots", True),
    "markers": ("terrain markers (cover, elevation)", True),
    "grid": ("5-ft grid", True),
}
OVERLAY_KEYS = ("reach", "path", "zones", "threat", "lanes", "sight", "parting", "markers", "grid")

# Mode keys and what they mean; "auto" walks where walking reaches and runs beyond.
MODE_NAMES = {
    "auto": "move (walk, or run beyond)",
    "walk": "walk",
    "jog": "jog",
    "run": "run",
    "withdraw": "fighting withdrawal",
    "sidestep": "sidestep",
    "charge": "charge",
    "attack": "attack",
    "aim": "aim",
    "disengage": "disengage",
    "grapple": "grapple",
    "trip": "trip",
    "push": "push",
    "overbear": "overbear",
}
# Manoeuvres, cycled by N (Shift+N the other way); each only where the ruleset has it.
MANOEUVRE_MODES = ("grapple", "trip", "push", "overbear")
# What a click moves with: the resolver's move modes, or "auto" (walk where walking reaches, run beyond).
POINTER_MODES = ("auto",) + MOVE_MODES


@dataclass
class Toast:
    text: str
    until: float
    error: bool = True


@dataclass
class Request:
    """Something a handler asks the App to do that is not a battle action."""

    kind: str       # a key of game.client.requests.REQUESTS (undo, redo, save, load, gm, ruleset, ...)
    arg: object = None


@dataclass
class UIState:
    selected: str | None = None
    mode: str = "auto"
    hover_square: tuple[int, int] | None = None
    mouse: tuple[int, int] = (0, 0)
    planned_facing: int | None = None     # end facing for the next move (right-drag)
    planned_altitude: int | None = None   # end altitude for the next move (flyers, PgUp/PgDn)
    overlays: dict = field(default_factory=lambda: {k: v[1] for k, v in OVERLAYS.items()})
    help_open: bool = False
    help_page: str = "guide"              # F1 shows the guide (game/client/guide.py); F1 again: every key
    legend_open: bool = False             # the legend of the map's colours and marks (L)
    gm: bool = False
    log_scroll: int = 0                   # events scrolled up from the newest
    picked_event: int | None = None       # index into battle.events highlighted on the map
    right_drag: tuple | None = None       # (start square, start pixel) while the right button is held
    gm_drag: str | None = None            # figure id dragged in demonstration mode
    toasts: list = field(default_factory=list)
    defend_style: str = "parry"
    disengage_style: str = ""
    manoeuvre_target: str | None = None   # trip/push: the foe clicked first; the next click picks its square
    collapsed: set = field(default_factory=set)   # panel sections folded to their heading
    # (moment, lines): the most lines the hover section has shown at this moment (the selection,
    # the mode, the battle as it stands): it keeps that room, so the log below does not jump.
    hover_room: tuple = ((), 0)
    turn_scroll: int = 0                  # rows of the turn order scrolled past
    compare: bool = False                 # the rulesets side by side, for the selection and the hover
