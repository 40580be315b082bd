"""Mount and rider as two figures: where a rider sits, and which figures fight mounted.

A rider (`Figure.mount` names its mount) stands on its mount's saddle square, covers no square of
its own (values/bodies.occupancy leaves it out) and faces as its mount. Where the saddle is, and
that a mount must be at least a size larger than its rider, are not in any document: engine
choices (docs/combat.md, Mounts and riders). Nothing here changes a battle; the resolver's
handlers (battle/handlers/mounting.py, battle/riding.py) do.
"""
from __future__ import annotations

from dataclasses import replace

from .values.geometry import DIRECTION_DELTAS

SIZE_ORDER = {"tiny": 0, "small": 1, "medium": 2, "large": 3, "giant": 4}


def saddle_square(mount) -> tuple[int, int]:
    """The square its rider sits on: the front square of a body one square wide (its anchor), the
    front-most square of a square body (the first such in the body's order), the square itself for
    a one-square mount."""
    body = mount.cells
    if len(body) == 1 or mount.footprint[0] == 1:
        return body[0]
    dx, dy = DIRECTION_DELTAS[mount.facing]
    return max(body, key=lambda c: (c[0] * dx + c[1] * dy, -body.index(c)))


def seated(rider, mount):
    """The rider as it sits on this mount: on the saddle square, at its altitude, facing as it
    faces and sharing its movement this round (turning, running)."""
    x, y = saddle_square(mount)
    return replace(rider, x=x, y=y, facing=mount.facing, altitude_ft=mount.altitude_ft, mount=mount.id,
                   has_moved=mount.has_moved, straight_ft=mount.straight_ft, diagonals_moved=mount.diagonals_moved,
                   running=mount.running)


def too_small_words(rider, mount) -> str:
    """Why this mount cannot carry this rider ("" when it can): it must be bigger (engine choice)."""
    if SIZE_ORDER.get(mount.size, 2) <= SIZE_ORDER.get(rider.size, 2):
        return (f"{mount.label} is {mount.size} and {rider.label} is {rider.size}: a mount must be at least one "
                f"size larger than its rider")
    return ""


def riders_of(figures) -> dict[str, str]:
    """mount id -> rider id for the figures given (each mount carries one rider)."""
    return {f.mount: f.id for f in figures if f.mount}


# ----- questions a battle (or a hypothetical view of one) answers -----
def rider_of(battle, mount_id: str) -> str:
    """The id of the figure riding this one ("" when none)."""
    return battle.state.riders.get(mount_id, "")


def mount_of(battle, figure_id: str) -> str:
    """The id of the figure this one rides ("" on foot)."""
    return battle.figures[figure_id].mount


def partner_of(battle, figure_id: str) -> str:
    """The other figure of a mounted pair ("" for a figure that is neither rider nor ridden)."""
    return mount_of(battle, figure_id) or rider_of(battle, figure_id)


def fights_mounted(battle, figure_id: str) -> bool:
    """Attacks from the saddle: a rider on its mount, or a one-figure mounted template (`knight`)."""
    return bool(battle.figures[figure_id].mount) or bool(battle.profile(figure_id)["mounted"])


def counts_mounted(battle, figure_id: str) -> bool:
    """Counts as mounted when attacked: a rider, a one-figure mounted template, and a ridden mount
    where the ruleset says so ([mounts] ridden_mount_counts_mounted)."""
    if fights_mounted(battle, figure_id):
        return True
    return bool(rider_of(battle, figure_id)) and battle.ruleset.section("mounts")["ridden_mount_counts_mounted"]


def body_of(battle, figure_id: str):
    """The figure whose body moves when this one moves: its mount for a rider, else itself."""
    fig = battle.figures[figure_id]
    return battle.figures[fig.mount] if fig.mount else fig


# ----- initiative: the rider's roll serves both -----
def rides_on_riders_number(battle, mount_id: str) -> bool:
    """A ridden mount rolls no initiative of its own: it acts on its rider's number ([mounts]
    shared_initiative; not with per-attack initiative, where each attack has its own roll)."""
    rider = rider_of(battle, mount_id)
    rs = battle.ruleset
    return (bool(rider) and battle.able(rider) and rs.section("mounts")["shared_initiative"]
            and rs.section("round")["initiative"] != "attack")


def seat_mounts_in_slots(battle, slots) -> list:
    """Put each ridden mount in its rider's slot, right after its rider; the events say so."""
    from .values.events import Event, EventKind
    rs = battle.ruleset
    rule = rs.cite(rs.section("mounts")["initiative_rule"])
    events = []
    for slot in slots:
        for rider_id in list(slot.members):
            mount_id = battle.figures[rider_id].mount
            if not mount_id or not rides_on_riders_number(battle, mount_id) or mount_id in slot.members:
                continue
            slot.members.insert(slot.members.index(rider_id) + 1, mount_id)
            battle.state_of(mount_id).initiative = [slot.number]
            mount, rider = battle.figures[mount_id], battle.figures[rider_id]
            events.append(Event(kind=EventKind.INITIATIVE, rule=rule, actor=mount_id, total=slot.number,
                                text=f"{mount.label} rolls no initiative: it acts on its rider {rider.label}'s number "
                                     f"{slot.number}{rs.choice_words(rule)} ({rule})",
                                data={"number": slot.number, "rider": rider_id}))
    return events


def jousting(battle, attacker_id: str, target_id: str, weapon: str) -> bool:
    """A mounted charge with a jousting weapon at a rider who bears one too (bfrpg Jousting)."""
    rules = battle.ruleset.section("mounts")
    target = battle.figures[target_id]
    return (bool(rules["jousting"]) and bool(target.mount) and fights_mounted(battle, attacker_id)
            and weapon in rules["joust_weapons"] and target.ready_weapon in rules["joust_weapons"])
