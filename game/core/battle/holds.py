"""Holds between figures (grapples): taking one, ending one, and where a holder steps back to.
Called by the grapple handlers and by the turn loop when a figure leaves the fight."""
from __future__ import annotations

from ..values.geometry import DIRECTION_DELTAS


def take_hold(battle, holder_id: str, held_id: str) -> None:
    rules = battle.ruleset.section("manoeuvres")
    hst, tst = battle.state_of(holder_id), battle.state_of(held_id)
    hst.holding = held_id
    if holder_id not in tst.held_by:
        tst.held_by.append(holder_id)
    tst.conditions["held"] = 0
    if rules["enters_square"]:
        holder, held = battle.figures[holder_id], battle.figures[held_id]
        hst.hold_from = holder.pos
        battle.set_figure(holder.moved_to(held.x, held.y, holder.facing, held.altitude_ft))


def release(battle, holder_id: str) -> None:
    """End the hold holder_id has (if any): the conditions of the hold go, the holder steps back out."""
    hst = battle.state_of(holder_id)
    held_id = hst.holding
    if not held_id:
        return
    hst.holding = ""
    tst = battle.state_of(held_id)
    if holder_id in tst.held_by:
        tst.held_by.remove(holder_id)
    if not tst.held_by:
        for name in ("held", "pinned", "struggling"):
            tst.conditions.pop(name, None)
    holder = battle.figures[holder_id]
    if hst.hold_from and holder.pos == battle.figures[held_id].pos:
        back = free_square_beside(battle, battle.figures[held_id].pos, prefer=hst.hold_from, ignore=(holder_id,))
        if back is not None:
            battle.set_figure(holder.moved_to(back[0], back[1], holder.facing))
    hst.hold_from = ()
    battle.figures_moved()


def release_all(battle, fid: str) -> None:
    """A figure out of the fight or moved by force: every hold it is part of ends."""
    release(battle, fid)
    for holder_id in list(battle.state_of(fid).held_by):
        release(battle, holder_id)


def free_square_beside(battle, centre, prefer=None, ignore=()) -> tuple[int, int] | None:
    """A square next to `centre` a figure may stand on (on the map, passable, no figure in the fight there)."""
    candidates = ([tuple(prefer)] if prefer else []) + [(centre[0] + dx, centre[1] + dy) for dx, dy in DIRECTION_DELTAS]
    for sq in candidates:
        if max(abs(sq[0] - centre[0]), abs(sq[1] - centre[1])) != 1:
            continue
        if square_free(battle, sq, ignore):
            return sq
    return None


def square_free(battle, sq, ignore=()) -> bool:
    if not battle.map.passable(*sq):
        return False
    return not any(tuple(sq) in f.cells and battle.able(f.id) and f.id not in ignore for f in battle.figures.values())


