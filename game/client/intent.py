"""What a left click on a square would do now: one answer for the click, the tooltip and the cursor.

`click_intent` turns the window's state (selection, mode, planned facing and altitude) and the
square under the pointer into an Intent: an action for the resolver, a figure to select, or a
hint. The pointer handler sends exactly this action, and the tooltip and cursor describe it
with the resolver's answer (`RulesView.preview`/`check`), so what is offered is what is done.
Pure: no pygame, no rules worked out here.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..core.values.actions import Action, Aim, Attack, Charge, Disengage, Grapple, Move, Overbear, Push, Trip
from ..core.values.geometry import FACINGS
from ..core.values.modes import MOVE_MODES

TARGETED_MODES = ("attack", "aim", "charge", "grapple", "overbear")
# Click a foe, then the square it is to go to (trip: the foe again trips it where it stands).
SQUARE_MODES = ("trip", "push")
TARGETED = {"attack": Attack, "aim": Aim, "charge": Charge, "grapple": Grapple, "overbear": Overbear}


@dataclass(frozen=True)
class Intent:
    kind: str                       # "act", "select", "mark" (trip/push: the foe to move), "hint" or "nothing"
    action: Action | None = None    # for "act"
    figure_id: str | None = None    # for "select"
    hint: str = ""                  # for "hint"


def on_square(figures, square, able) -> list:
    """Everyone on a square, the living first (drawn on top, picked by a click), then the fallen; a rider
    before its mount (a click on the saddle square picks the rider, on the mount's other squares the mount)."""
    here = [f for f in figures if square in f.cells]    # any square of a big body picks it
    return sorted(here, key=lambda f: (not able(f.id), -f.altitude_ft, not f.mount))


def move_mode_for(ui, rules, figure_id: str, square) -> str:
    if ui.mode in MOVE_MODES:
        return ui.mode
    return rules.auto_mode(figure_id, square)


def move_target(ui, rules, me, body, square, facing: int | None) -> tuple[str, tuple[int, int], int | None]:
    """(mode, square to move to, end facing) of a move pointed at `square`. A figure bigger than a
    square moves so that its body covers the pointed square: the end the resolver's reach offers
    for it (ReachInfo.end_covering: the anchor itself where it can end there, else the cheapest end
    whose body covers it), walking before running in auto mode as the overlay's shades show. While
    the reach is still being searched, or where no end covers the square, the square is the anchor's.
    `body` is the figure that moves (a rider's mount: rules.body), else `me`."""
    if tuple(body.footprint) != (1, 1):
        explicit = ui.mode in MOVE_MODES
        for mode in ((ui.mode,) if explicit else ("walk", "run")):
            info = rules.reach(me.id, mode)
            end = info.end_covering(square, ui.planned_altitude, facing) if info is not None else None
            if end is not None:
                anchor, end_facing = end
                if facing is None and not (anchor == body.pos and end_facing == body.facing):   # where it is: no move
                    facing = end_facing
                return mode, anchor, facing
    return move_mode_for(ui, rules, me.id, square), square, facing


def click_intent(ui, rules, me, square, here: list, able, facing: int | None = None) -> Intent:
    """What a left click on `square` does, given `here` (on_square) and the selected figure `me`.
    `facing` overrides the planned end facing (a right-drag from the square)."""
    if square is None:
        return Intent("nothing")
    top = here[0] if here else None
    living = top if top is not None and able(top.id) else None
    foe = living if living is not None and me is not None and living.side != me.side else None
    if me is not None and foe is not None and ui.mode in TARGETED_MODES:
        return Intent("act", TARGETED[ui.mode](figure=me.id, target=foe.id))
    if me is not None and ui.mode in SQUARE_MODES:
        marked = ui.manoeuvre_target
        if marked is None:
            if foe is not None:
                return Intent("mark", figure_id=foe.id)
            return Intent("hint", hint=f"{ui.mode}: click the foe first, then the square it goes to (Esc leaves)")
        if ui.mode == "trip":
            return Intent("act", Trip(figure=me.id, target=marked, to=square))
        return Intent("act", Push(figure=me.id, target=marked, to=square))
    if me is None:
        return Intent("select", figure_id=top.id) if top is not None else Intent("nothing")
    if foe is not None and rules.check(Attack(figure=me.id, target=foe.id)) is None:
        return Intent("act", Attack(figure=me.id, target=foe.id))  # as in most tactics games: click a foe to strike it
    if living is not None and living.id != me.id:
        return Intent("select", figure_id=living.id)
    if ui.mode in TARGETED_MODES:
        return Intent("hint", hint=f"{ui.mode}: click a foe (Esc leaves this mode)")
    if ui.mode == "disengage":
        return Intent("act", Disengage(figure=me.id, to=square, style=ui.disengage_style))
    facing = ui.planned_facing if facing is None else facing
    body = rules.body(me.id) or me       # a rider moves its mount
    mode, to, facing = move_target(ui, rules, me, body, square, facing)
    if to == body.pos and ui.planned_altitude is None and facing is None:
        return Intent("nothing")
    return Intent("act", Move(figure=me.id, to=to, mode=mode,
                              facing=None if facing is None else FACINGS[facing], altitude_ft=ui.planned_altitude))


def with_path(action: Action, preview) -> Action:
    """The move carrying the exact steps its preview showed, so the path applied is the path seen
    (the resolver checks each step). Other actions, and a move not previewed yet, go as they are."""
    if not isinstance(action, Move) or preview is None or preview.planned is None or preview.action != action:
        return action
    steps = preview.planned.path.steps[1:]
    return replace(action, path=tuple((s.x, s.y, s.facing, s.altitude_ft) for s in steps))
