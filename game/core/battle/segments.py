"""d100 rules: declared moves unfold across segments 10..1, a tenth of the move each segment,
with the attack slots on their initiative numbers in between."""
from __future__ import annotations

from ..combat.dice import die
from ..values.events import Event, EventKind
from ..values.numbers import feet
from ..values.bodies import cells, occupancy
from ..moves.path import Path
from .state import MoveOrder
from .strikes import free_attack, may_free_attack
from .walking import carry_movement


def run_segments_to(battle, number: int) -> list[Event]:
    """Advance declared movement through every segment down to `number` (movement happens on 10..1)."""
    seg = battle.ruleset.section("round")["segments"]
    if not seg:
        return []
    first, last = seg
    s = battle.state
    events: list[Event] = []
    if number > first:
        return []
    target_segment = max(last, number)
    while s.segment > target_segment:
        s.segment = min(s.segment - 1, first) if s.segment > first else s.segment - 1
        fraction = (first + 1 - s.segment) / (first + 1 - last)
        for fid, order in list(s.move_orders.items()):
            share = after_attack_fraction(battle, fid, order, s.segment, first, last) if order.after_attack else fraction
            events.extend(_advance_mover(battle, fid, order, share))
    return events


def after_attack_fraction(battle, fid: str, order: MoveOrder, segment: int, first: int, last: int) -> float:
    """Attack then move: from its start segment, 1/20 of its move each segment (half its move over 10)."""
    start = order.start_segment
    if start <= 0 or segment > start or order.cost_ft <= 0:
        return 0.0
    per_segment = battle.figures[fid].move_ft / (2 * (first + 1 - last))
    return min(1.0, (start - segment + 1) * per_segment / order.cost_ft)


def start_after_attack(battle, fid: str, number: int, rng) -> list[Event]:
    """Its last attack came on `number`: before the segments (above the first) it moves from the first;
    within them a DEX roll says how many segments later it starts (5x or worse: not at all)."""
    order = battle.state.move_orders.get(fid)
    if order is None or not order.after_attack or order.start_segment != 0:
        return []
    rs = battle.ruleset
    first, last = rs.section("round")["segments"]
    rule = rs.cite(rs.section("round")["attack_then_move_rule"])
    fig = battle.figures[fid]
    if number > first:
        order.start_segment = first
        return [Event(kind=EventKind.DECLARE_MOVE, rule=rule, actor=fid, outcome=f"segment {first}",
                      text=f"{fig.label}'s last attack came on {number}, before the movement segments: it moves from "
                           f"segment {first}, 1/20 of its move a segment ({rule})", data={"start_segment": first})]
    dex = battle.profile(fid)["dex"]
    roll = die(rng, 100)
    times = next((n for n in (1, 2, 3, 4) if roll.total <= n * dex), 5)
    start = number - times if times < 5 else -1
    if start < last:
        start = -1
    order.start_segment = start
    how = f"{times}x DEX" if times < 5 else "5x DEX or worse"
    words = (f"it starts {times} segment(s) later, on segment {start}, 1/20 of its move a segment" if start > 0
             else "no move this round" + (" (there is no movement after the last segment)" if times < 5 else ""))
    return [Event(kind=EventKind.DECLARE_MOVE, rule=rule, actor=fid, rolls=(roll,), total=roll.total,
                  target_number=dex, outcome="moves" if start > 0 else "no-move",
                  text=f"{fig.label}'s last attack came on {number}: DEX roll d100 {roll.total:02d} against DEX {dex} = "
                       f"{how}: {words}{rs.choice_words(rule)} ({rule})", data={"start_segment": start})]


def in_the_way(occupied: dict, fig, step) -> bool:
    """A declared move walking across the segments stops before a square someone stands on (its body's
    squares, for a body bigger than a square), friend or foe."""
    if fig.big:
        return not occupied.keys().isdisjoint(cells(step.x, step.y, step.facing, fig.footprint))
    return (step.x, step.y) in occupied and (step.x, step.y) != fig.pos


def stops_short(battle, fig, steps) -> bool:
    """Whether a move declared along these steps would stop before its end at a square someone
    stands on now (d100 segments), as `_advance_mover` walks it."""
    occupied = battle.positioning().occupied_except(fig.id)
    return any(in_the_way(occupied, fig, step) for step in steps[1:])


def _advance_mover(battle, fid: str, order: MoveOrder, fraction: float) -> list[Event]:
    if not battle.able(fid):
        return []
    steps = order.steps
    total = order.cost_ft
    goal = 0
    for i, step in enumerate(steps):
        if step.total_ft <= total * fraction + 1e-9:
            goal = i
    if goal <= order.done:
        return []
    fig = battle.figures[fid]
    occupied = occupancy(battle.positioning().figures, fid)
    start_index = order.done
    reached = start_index
    for i in range(start_index + 1, goal + 1):
        if in_the_way(occupied, fig, steps[i]):
            break
        reached = i
    if reached == start_index:
        return []
    sub = steps[start_index: reached + 1]
    positioning = battle.positioning()
    shots = positioning.engagement.parting_shots(fig, sub, order.mode, positioning.figures)
    order.done = reached
    end = steps[reached]
    arrives = reached == len(steps) - 1
    path = Path(fid, order.mode, tuple(sub), sub[-1].total_ft - sub[0].total_ft, total, stall=order.stall and arrives)
    st = battle.states[fid]
    st.moved_ft += path.total_ft
    if order.mode == "run":
        st.move_mode = "run"
    elif not st.move_mode:
        st.move_mode = order.mode
    events = [Event(kind=EventKind.MOVE, rule=battle.ruleset.cite("segments"), actor=fid,
                    text=f"segment {battle.state.segment}: {fig.label} moves to {end.x},{end.y} "
                         f"({feet(end.total_ft)} of {feet(total)} ft)",
                    squares=tuple((step.x, step.y) for step in sub), data={"segment": battle.state.segment})]
    for shot in sorted(shots, key=lambda s: s.step_index):
        if not may_free_attack(battle, shot.attacker_id, fid):
            continue
        events.extend(free_attack(battle, shot.attacker_id, fid, shot.rule, shot.reason, parting=True))
        if not battle.able(fid):
            break
    if battle.able(fid):
        battle.set_figure(carry_movement(battle, battle.figures[fid].moved_to(end.x, end.y, end.facing, end.altitude_ft),
                                         path, order.mode))
        if path.stall:
            events.append(Event(kind=EventKind.STALL, rule=battle.ruleset.cite("flyer-altitude"), actor=fid,
                                text=f"{fig.label} flew too little to stay aloft and stalls: it must dive next round"))
    else:
        here = sub[max(0, shots[0].step_index if shots else 0)]
        battle.set_figure(battle.figures[fid].moved_to(here.x, here.y, here.facing, here.altitude_ft))
        order.done = len(steps)
    return events
