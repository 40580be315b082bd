"""Carrying out a planned move: the mover walks its path, foes it leaves take their parting shots
as it goes, a felled mover stops where it fell, and reach weapons strike a foe that closes."""
from __future__ import annotations

from dataclasses import replace

from ..combat.breakdown import AttackContext
from ..combat.modifiers import attack_breakdown
from ..combat.reach import SIZE_ORDER, in_melee_reach, melee_reach_ft, weapon_data
from ..values.events import Event, EventKind
from ..values.numbers import feet
from ..values.figure import Figure
from ..values.geometry import FACINGS
from ..moves.path import movement_after
from ..moves.positioning import PlannedMove
from ..mounts import rider_of
from .budgets import attacks_left, turn_still_to_come
from .retreat import moves_retreat, retreat_by_moving
from .strikes import free_attack, may_free_attack, resolve


def carry_movement(battle, fig: Figure, path, mode: str) -> Figure:
    """The figure after a move, remembering what the rest of its round's movement must obey."""
    diagonals, straight = movement_after(battle.figures[fig.id], path, battle.ruleset.diagonal)
    return replace(fig, diagonals_moved=diagonals, straight_ft=straight, has_moved=True,
                   running=fig.running or mode in ("run", "jog", "charge"), must_dive=path.stall)


def spend_movement(battle, fig: Figure, path, mode: str, record_mode: str | None = None) -> None:
    """What walking this path spends of the mover's round (feet, squares, the mode it counts as)."""
    st = battle.states[fig.id]
    st.moved_ft += path.total_ft
    st.moved_squares += len(path.steps) - 1
    if mode in ("run", "jog", "charge") or not st.move_mode:
        st.move_mode = record_mode or mode
    if mode == "withdraw":
        st.withdrawing = True


def arrive(battle, fig: Figure, path, mode: str) -> None:
    """The mover at its path's end as walking it leaves the mover, what it would set off on the way
    set aside (an odds map's question: the blow it could strike from each square it can reach)."""
    spend_movement(battle, fig, path, mode)
    end = path.end
    battle.set_figure(carry_movement(battle, fig.moved_to(end.x, end.y, end.facing, end.altitude_ft), path, mode))


def on_edge(battle, step) -> bool:
    return step.x in (0, battle.map.width - 1) or step.y in (0, battle.map.height - 1)


def _going(fig: Figure, mode: str, end_altitude_ft: int) -> str:
    """'moves (walk)'; a flyer in the air 'flies' (its walk and run are its paces)."""
    if fig.flyer != "none" and (fig.altitude_ft or end_altitude_ft) and mode in ("walk", "run", "jog"):
        return "flies" if mode == "walk" else f"flies ({mode})"
    return f"moves ({mode})"


def _altitude_words(start_ft: int, end_ft: int) -> str:
    if end_ft > start_ft:
        return f", climbing from {start_ft} to {end_ft} ft"
    if end_ft < start_ft:
        return f", coming down from {start_ft} to {end_ft} ft"
    return f", at {end_ft} ft up" if end_ft else ""


def walk(battle, fig: Figure, planned: PlannedMove, mode: str, allowed_shots=None,
         record_mode: str | None = None) -> list[Event]:
    """Walk a planned move: parting shots as the mover leaves, closing reach attacks at the end."""
    path = planned.path
    end = path.end
    start_pos = fig.pos
    events = [Event(
        kind=EventKind.MOVE, rule=path.steps[-1].rule or battle.ruleset.cite("movement"), actor=fig.id,
        text=f"{fig.label} {_going(fig, mode, end.altitude_ft)} to {end.x},{end.y} facing {FACINGS[end.facing]}, "
             f"{feet(path.total_ft)} ft{_altitude_words(fig.altitude_ft, end.altitude_ft)}",
        squares=tuple((s.x, s.y) for s in path.steps),
        data={"mode": mode, "cost_ft": path.total_ft, "steps": [s.to_json() for s in path.steps]},
    )]
    spend_movement(battle, fig, path, mode, record_mode)
    events.extend(_hasty_by_walking(battle, fig, planned, mode, allowed_shots))
    if allowed_shots is None and mode not in ("withdraw", "charge") and planned.parting_shots \
            and moves_retreat(battle.ruleset):
        rolled, allowed_shots = retreat_by_moving(battle, fig, planned)
        events.extend(rolled)
    stop_at = None
    for shot in sorted(planned.parting_shots, key=lambda s: s.step_index):
        if allowed_shots is not None and shot.attacker_id not in allowed_shots:
            continue
        # A blow at a ridden mount goes at its rider (bfrpg Mounted Combat: attacks go at the rider).
        aimed_at = rider_of(battle, fig.id) or fig.id
        if not may_free_attack(battle, shot.attacker_id, aimed_at):
            continue
        i = shot.step_index
        step = path.steps[i]
        nxt = path.steps[min(i + 1, len(path.steps) - 1)]
        battle.set_figure(battle.figures[fig.id].moved_to(step.x, step.y, nxt.facing, step.altitude_ft))
        events.extend(free_attack(battle, shot.attacker_id, aimed_at, shot.rule, shot.reason, parting=True))
        if not battle.able(fig.id):
            stop_at = step
            break
    final = stop_at or end
    battle.set_figure(carry_movement(battle, battle.figures[fig.id].moved_to(
        final.x, final.y, final.facing, final.altitude_ft), path, mode))
    if stop_at is not None:
        events.append(Event(kind=EventKind.MOVE, rule=battle.ruleset.cite("movement"), actor=fig.id,
                            text=f"{fig.label} falls at {final.x},{final.y} and moves no further",
                            squares=((final.x, final.y),)))
        return events
    if path.stall:
        events.append(Event(kind=EventKind.STALL, rule=battle.ruleset.cite("flyer-altitude"), actor=fig.id,
                            text=f"{fig.label} flew too little to stay aloft and stalls: it must dive next round"))
    if mode != "charge":
        events.extend(closing_reach_attacks(battle, fig.id, start_pos))
    return events


def _hasty_by_walking(battle, fig: Figure, planned: PlannedMove, mode: str, allowed_shots) -> list[Event]:
    """cnc: a plain move out of melee is a hasty disengagement, -2 AC for the round and no other
    action, whether announced or not (Disengaging from Combat)."""
    rs = battle.ruleset
    st = battle.states[fig.id]
    if (allowed_shots is not None or mode in ("withdraw", "charge") or st.hasty or not planned.parting_shots
            or rs.section("parting_shots")["trigger"] != "hasty-disengage"):
        return []
    st.hasty = True
    rule = rs.cite(rs.section("disengage")["rule"])
    return [Event(kind=EventKind.DISENGAGE, rule=rule, actor=fig.id, data={"style": "hasty", "announced": False},
                  text=f"{fig.label} leaves melee: a hasty disengagement, {rs.section('modifiers')['hasty_defense']:+d} "
                       f"AC for the round and no other action; each foe it leaves gets a free attack ({rule})")]


def may_strike_closing_foe(battle, foe: Figure, mover: Figure, before: Figure, next_round: bool = False) -> bool:
    """bfrpg/ch17: a foe with a reach weapon whose turn is still to come may strike a figure that
    just closed into its reach (it was not in reach before the move). `next_round`: asked of a
    move to come next round, when the foe's turn is to come and its attacks are whole again."""
    rs = battle.ruleset
    if not rs.section("round")["reach_attacks_closing_foe"] or rs.d100:
        return False
    if not battle.able(foe.id) or not battle.able(mover.id):
        return False
    if melee_reach_ft(battle, foe) <= rs.section("engagement")["zone_ft"]:
        return False
    if not next_round and (not turn_still_to_come(battle, foe.id) or attacks_left(battle, foe.id) <= 0
                           or battle.state_of(foe.id).attacked):
        return False
    return in_melee_reach(battle, foe, mover) and not in_melee_reach(battle, foe, before)


def strike_closing_foe(battle, foe: Figure, mover: Figure, reason: str) -> list[Event]:
    rs = battle.ruleset
    bd = attack_breakdown(battle, foe.id, mover.id, AttackContext())
    return resolve(battle, bd, EventKind.REACH_ATTACK, rule=rs.cite(rs.section("round")["rule"]), reason=reason)


def closing_reach_attacks(battle, mover_id: str, start_pos) -> list[Event]:
    events = []
    if rider_of(battle, mover_id):      # the pair closes: the reach weapon strikes the rider (it sat on start_pos)
        mover_id = rider_of(battle, mover_id)
    mover = battle.figures[mover_id]
    before = replace(mover, x=start_pos[0], y=start_pos[1])
    for foe in list(battle.figures.values()):
        if foe.side == mover.side or not may_strike_closing_foe(battle, foe, battle.figures[mover_id], before):
            continue
        events.extend(strike_closing_foe(battle, foe, battle.figures[mover_id],
                                         f"{foe.label}'s {foe.ready_weapon} reaches {mover.label} as it closes; "
                                         f"it strikes on {mover.label}'s number"))
    return events


def strikes_first_why(battle, attacker_id: str, target_id: str) -> str:
    """odnd/cnc: why the target strikes the attacker first in the first round of their melee (its
    longer reach, or cnc its larger size), or "" when it does not. Reads the attacker where the
    battle (or view) has it standing."""
    rules = battle.ruleset.section("round")
    pair = tuple(sorted((attacker_id, target_id)))
    if pair in battle.state.fought or not (rules["reach_first_first_round"] or rules["size_first_first_round"]):
        return ""
    attacker, target = battle.figures[attacker_id], battle.figures[target_id]
    tst = battle.state_of(target_id)
    if tst.attacked or attacks_left(battle, target_id) <= 0 or tst.has("surprised") or not battle.able(target_id):
        return ""
    if tst.blindsided_by.get(attacker_id) == battle.round:
        return ""
    if not in_melee_reach(battle, target, attacker):
        return ""
    their, mine = weapon_data(battle, target.ready_weapon), weapon_data(battle, attacker.ready_weapon)
    longer = (rules["reach_first_first_round"] and their["reach_ft"] >= rules["reach_first_long_ft"]
              and not their["ranged"] and mine["reach_ft"] <= rules["reach_first_short_ft"])
    bigger = (rules["size_first_first_round"] and SIZE_ORDER.get(target.size, 2) >= 3
              and SIZE_ORDER.get(attacker.size, 2) <= 2)
    if longer:
        return f"{target.label}'s {target.ready_weapon} outreaches {attacker.label}'s {attacker.ready_weapon}"
    if bigger:
        return f"{target.label} is {target.size} and {attacker.label} is {attacker.size}"
    return ""


def strike_first(battle, attacker_id: str, target_id: str) -> list[Event]:
    """odnd/cnc: in the first round of a melee (an attack, or a charge closing in), the target with the longer
    reach (or, cnc, the larger size) strikes the attacker first; it uses its action."""
    rs = battle.ruleset
    rules = rs.section("round")
    why = strikes_first_why(battle, attacker_id, target_id)
    if not why:
        return []
    bd = attack_breakdown(battle, target_id, attacker_id, AttackContext(surprise_round=battle.round == 1))
    return resolve(battle, bd, EventKind.STRIKES_FIRST, rule=rs.cite(rules["rule"]),
                   reason=f"first round of this melee: {why}, so it strikes first")
