"""The naive level, the floor of the ladder: advance on the nearest foe and attack it.

It asks the resolver only the plainest questions: may I attack this foe now (`Battle.check`),
and where can I walk (`Battle.search`). No flanks, no charges, no caution.
"""
from __future__ import annotations

from ..core.values.actions import Attack, EndTurn, Move
from ..core.values.errors import RulesError
from ..core.values.geometry import FACINGS, bearing_octant, grid_distance_ft
from .context import FLYER_CEILING_FT, WINGED_SEARCH_FT
from .decision import Plan


def naive_decision(battle, figure_id: str) -> list[Plan]:
    me = battle.figures[figure_id]
    end = Plan((EndTurn(figure=figure_id),), "end the turn", kind="hold")
    diag = battle.ruleset.diagonal
    foes = sorted((f for f in battle.figures.values() if f.side != me.side and battle.able(f.id)),
                  key=lambda f: (grid_distance_ft(diag, f.x - me.x, f.y - me.y), f.id))
    if not foes:
        return [end]
    status = battle.status(figure_id)
    declaring = battle.current_phase == "declare"
    if not declaring and status.attacks_left > 0:
        for foe in foes[:3]:
            gap = grid_distance_ft(diag, foe.x - me.x, foe.y - me.y)
            for weapon in dict.fromkeys(me.weapons):
                if gap > battle.farthest_strike_ft(me, weapon) + 5 and not (me.big or foe.big):
                    continue            # out of its reach and range (a square to spare for the diagonals)
                attack = Attack(figure=figure_id, target=foe.id, weapon=None if weapon == me.ready_weapon else weapon)
                if battle.check(attack) is None:
                    return [Plan((attack, EndTurn(figure=figure_id)), f"attack the nearest foe, {foe.label}",
                                 kind="attack", data={"target": foe.id}), end]
    left = me.move_ft if declaring else status.movement_left_ft
    if left < 5 or battle.state_of(figure_id).set_vs_charge:
        return [end]
    target = foes[0]
    step = _step_toward(battle, me, target, left)
    if step is None:
        return [end]
    sq, facing = step
    move = Move(figure=figure_id, to=sq, mode="walk", facing=FACINGS[facing])
    then = () if declaring else (Attack(figure=figure_id, target=target.id),)
    return [Plan((move,) + then + (EndTurn(figure=figure_id),), f"advance on {target.label} to {sq[0]},{sq[1]}",
                 kind="approach", end=(sq[0], sq[1], facing, me.altitude_ft), data={"target": target.id}), end]


def _step_toward(battle, me, target, left: float):
    """The reachable square nearest the target (cheapest among equals), facing it."""
    # Searched only as far as it may walk now (a whole-map search of a flyer's heights is costly).
    budget = min(left, max(WINGED_SEARCH_FT, me.move_ft / 3 + 5)) if me.flyer == "winged" else left
    ceiling = max(FLYER_CEILING_FT, me.altitude_ft + 10) if me.flyer != "none" else None
    try:
        search = battle.search(me, "walk", budget_ft=budget, ceiling_ft=ceiling)
    except RulesError:
        return None
    diag = battle.ruleset.diagonal
    best = None
    for sq, entry in search.entries().items():
        if not entry.can_end or entry.cost_ft > left + 1e-9 or sq == target.pos:
            continue
        key = (grid_distance_ft(diag, sq[0] - target.x, sq[1] - target.y), entry.cost_ft, sq)
        if best is None or key < best[0]:
            best = (key, sq)
    if best is None or best[1] == me.pos:
        return None
    sq = best[1]
    return sq, bearing_octant(sq, target.pos)
