"""One handler per action type, found through a table (not by name), so a reader can follow
`Battle.apply` to the code that handles each action.

A handler is a pair of functions: `check(battle, action) -> plan` works out what the action
would do, or refuses it (ActionRefused), and changes nothing; `apply(battle, plan) -> events`
carries the plan out. `Battle.check` runs only the first; `Battle.apply` runs both.
"""
from __future__ import annotations

from typing import Callable, NamedTuple

from ...values.actions import Action, Aim, Attack, Charge, Defend, Disengage, Dismount, EndTurn, Escape, GmPlace, Grapple, Hold, Mount, Move, Overbear, Push, Release, SetAgainstCharge, Stand, Trip, Turn
from . import attacking, charging, disengaging, grappling, mounting, moving, shoving, stances, standing, turn_taking


class Handler(NamedTuple):
    check: Callable
    apply: Callable
    closes_declarations: bool = True   # False: may come out of turn while the round's declarations are open


HANDLERS: dict[type[Action], Handler] = {
    Move: Handler(moving.check_move, moving.apply_move),
    Turn: Handler(moving.check_turn, moving.apply_turn),
    Attack: Handler(attacking.check_attack, attacking.apply_attack),
    Charge: Handler(charging.check_charge, charging.apply_charge),
    SetAgainstCharge: Handler(charging.check_set, charging.apply_set, closes_declarations=False),
    Aim: Handler(stances.check_aim, stances.apply_aim),
    Defend: Handler(stances.check_defend, stances.apply_defend, closes_declarations=False),
    Hold: Handler(stances.check_hold, stances.apply_hold),
    Stand: Handler(standing.check_stand, standing.apply_stand),
    Disengage: Handler(disengaging.check_disengage, disengaging.apply_disengage),
    Grapple: Handler(grappling.check_grapple, grappling.apply_grapple),
    Escape: Handler(grappling.check_escape, grappling.apply_escape),
    Release: Handler(grappling.check_release, grappling.apply_release),
    Trip: Handler(shoving.check_trip, shoving.apply_trip),
    Push: Handler(shoving.check_push, shoving.apply_push),
    Overbear: Handler(shoving.check_overbear, shoving.apply_overbear),
    Mount: Handler(mounting.check_mount, mounting.apply_mount),
    Dismount: Handler(mounting.check_dismount, mounting.apply_dismount),
    EndTurn: Handler(turn_taking.check_end_turn, turn_taking.apply_end_turn),
    GmPlace: Handler(turn_taking.check_gm_place, turn_taking.apply_gm_place, closes_declarations=False),
}
