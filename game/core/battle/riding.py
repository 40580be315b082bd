"""Riding, as the resolver keeps it: the rider's move is its mount's, a ridden mount does not move
on its own, and a mount that falls or flees throws its rider (prone, with damage).

Where the rider sits and how it is drawn along are in game/core/mounts.py; Battle.set_figure
puts the rider back on its saddle whenever its mount moves.
"""
from __future__ import annotations

from dataclasses import replace

from ..combat import damage as damage_mod
from ..combat import manoeuvres as rolls
from ..combat.dice import parse_dice
from ..values.events import Event, EventKind
from ..values.figure import Figure
from ..mounts import rider_of
from ..values.refusals import refuse
from .holds import free_square_beside


def require_not_ridden(battle, fig: Figure, what: str) -> None:
    """A ridden mount goes where its rider guides it: its own move, turn, charge or disengagement is refused."""
    rider = rider_of(battle, fig.id)
    if rider:
        rs = battle.ruleset
        refuse("mount.ridden", rule=rs.cite(rs.section("mounts")["rule"]), who=fig.label,
               rider=battle.figures[rider].label, what=what)


def ride_along(battle, rider_id: str, mount_id: str, cost_ft: float, mode: str) -> None:
    """The rider's round after its mount walked cost_ft for it: the same part of its own move is used
    (so a rider that gets down has what is left), and it moved at the mount's pace (running, charging)."""
    st, mount = battle.state_of(rider_id), battle.figures[mount_id]
    rider = battle.figures[rider_id]
    share = cost_ft / mount.move_ft if mount.move_ft else 1.0
    st.moved_ft += share * rider.move_ft
    if mode in ("run", "jog", "charge") or not st.move_mode:
        st.move_mode = mode
    st.moved_squares = battle.state_of(mount_id).moved_squares


def set_riding(battle, rider_id: str, mount_id: str) -> None:
    """Seat the rider on the mount (mount_id) or take it off its mount (mount_id = "")."""
    old = battle.figures[rider_id].mount
    if old:
        battle.state.riders.pop(old, None)
        battle.set_figure(replace(battle.figures[rider_id], mount=""))
    if mount_id:
        battle.state.riders[mount_id] = rider_id
        battle.set_figure(battle.figures[mount_id])      # seats the rider (Battle.set_figure)
    battle.figures_moved()


def landing_square(battle, mount: Figure, rider_id: str, prefer=None) -> tuple[int, int] | None:
    """A free square beside the mount's body for a rider getting (or thrown) off, `prefer` first."""
    taken = set(mount.cells)
    for cell in mount.cells:
        sq = free_square_beside(battle, cell, prefer=prefer, ignore=(rider_id,))
        if sq is not None and sq not in taken:
            return sq
        prefer = None
    return None


def rider_falls(battle, rider_id: str) -> None:
    """A rider out of the fight lets go: its body stays where it was, and the mount is free."""
    if battle.figures[rider_id].mount:
        set_riding(battle, rider_id, "")


def throw_rider(battle, mount_id: str, cause: str) -> list[Event]:
    """The mount fell (cause "fell") or fled ("fled"): its rider is thrown off, prone, and takes the
    ruleset's damage ([mounts] throw_damage, or its falling rule); a fleeing mount's rider may save
    to keep its seat where the document gives a save (bfrpg: it gets down unhurt; choice)."""
    rider_id = rider_of(battle, mount_id)
    if not rider_id:
        return []
    rs = battle.ruleset
    rules = rs.section("mounts")
    rule = rs.cite(rules["fell_rule"] if cause == "fell" else rules["throw_rule"])
    mount = battle.figures[mount_id]
    rider = battle.figures[rider_id]
    if not battle.able(rider_id):
        set_riding(battle, rider_id, "")
        return []
    events: list[Event] = []
    spot = landing_square(battle, mount, rider_id) or rider.pos
    if cause == "fled" and rules["flee_save"]:
        ability = rules["flee_save_ability"]
        bonus = battle.profile(rider_id).get(f"{ability}_mod", 0) if ability != "none" else 0
        save = rolls.save_roll(battle, rider_id, rules["flee_save"], (bonus, ability.upper()) if ability != "none" else (0, ""))
        if save.success:
            set_riding(battle, rider_id, "")
            battle.set_figure(battle.figures[rider_id].moved_to(spot[0], spot[1], rider.facing, 0))
            return [Event(kind=EventKind.THROWN, rule=rule, actor=mount_id, target=rider_id, rolls=tuple(save.rolls),
                          total=save.total, target_number=save.target_number, outcome="kept-seat",
                          text=f"{mount.label} flees: {rider.label} {save.words}; it keeps its seat and gets down "
                               f"at {spot[0]},{spot[1]} as the mount bolts (choice: the battle does not follow it off the field) "
                               f"({rule})", squares=(rider.pos, spot))]
        events_words = save.words + "; "
        save_rolls = tuple(save.rolls)
    else:
        events_words, save_rolls = "", ()
    set_riding(battle, rider_id, "")
    battle.set_figure(battle.figures[rider_id].moved_to(spot[0], spot[1], rider.facing, 0))
    battle.state_of(rider_id).conditions["prone"] = 0
    events.extend(thrown_damage(battle, rider_id, mount, cause, rule, events_words, save_rolls, spot))
    return events


def thrown_damage(battle, rider_id: str, mount: Figure, cause: str, rule: str, words: str, save_rolls, spot) -> list[Event]:
    """The thrown (or unhorsed) rider's damage: [mounts] throw_damage dice, else the ruleset's falling rule."""
    rs = battle.ruleset
    rules = rs.section("mounts")
    rider = battle.figures[rider_id]
    why = {"fell": f"{mount.label} goes down", "fled": f"{mount.label} flees",
           "unhorsed": f"{rider.label} is knocked from {mount.label}"}.get(cause, f"{mount.label} throws it")
    head = f"{why}: {words}{rider.label} is thrown to {spot[0]},{spot[1]} and lands prone"
    squares = (mount.pos, spot)
    if rules["throw_damage"]:
        dice = rules["throw_damage"]
        roll = parse_dice(dice).roll(battle.rng)
        event = Event(kind=EventKind.THROWN, rule=rule, actor=mount.id, target=rider_id, rolls=save_rolls + (roll,),
                      total=roll.total, outcome="thrown", squares=squares,
                      text=f"{head}, taking {dice} = {roll.total} damage{rs.choice_words(rule)} ({rule})",
                      data={"damage": roll.total, "cause": cause, "to": list(spot)})
        return [event] + damage_mod.apply_damage(battle, rider_id, roll.total, False, rule)
    fall_ft = rules["throw_fall_ft"]
    event = Event(kind=EventKind.THROWN, rule=rule, actor=mount.id, target=rider_id, rolls=save_rolls, outcome="thrown",
                  squares=squares, data={"fall_ft": fall_ft, "cause": cause, "to": list(spot)},
                  text=f"{head}: a fall of {fall_ft} ft by the falling rule{rs.choice_words(rule)} ({rule})")
    return [event] + damage_mod.fall(battle, rider_id, fall_ft, battle.rng)
