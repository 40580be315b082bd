"""A routed figure's flight: each of its turns it runs away from its foes toward the nearest map
edge, drawing the parting shots its path draws, and leaves the battle over the edge when it gets
there (it does not vanish the moment its morale breaks).

Which way, and at what pace, is the engine's (no document says where a routed figure runs): the
reachable square nearest an edge, farthest from its foes among those; at a run where the rules
have one.
"""
from __future__ import annotations

from ..values.errors import RulesError
from ..values.events import Event, EventKind
from ..values.geometry import distance_ft
from .holds import release
from ..mounts import body_of
from .riding import ride_along, throw_rider
from .walking import on_edge, walk

ROUTED = "routed"


def rout(battle, fid: str, rule: str) -> list[Event]:
    """Its morale broke: from its next turn it runs for the map edge."""
    st = battle.states[fid]
    if st.has(ROUTED) or st.out_of_fight:
        return []
    st.conditions[ROUTED] = 0
    fig = battle.figures[fid]
    release(battle, fid)
    thrown = throw_rider(battle, fid, "fled")       # a mount that bolts throws its rider (bfrpg Mounted Combat)
    return thrown + [Event(kind=EventKind.FLEE, rule=rule, actor=fid, outcome="routed", squares=(fig.pos,),
                  text=f"{fig.label} is routed: on each of its turns it runs for the nearest map edge and leaves "
                       f"the battle over it{battle.ruleset.choice_words(battle.ruleset.cite('leaving-the-map'))} "
                       f"({rule})", data={"cause": "rout"})]


def edge_gap(battle, sq) -> int:
    """Squares from sq to the nearest map edge square."""
    return min(sq[0], sq[1], battle.map.width - 1 - sq[0], battle.map.height - 1 - sq[1])


def flight(battle, fid: str, flee) -> list[Event]:
    """Its turn, taken for it: run toward the nearest edge (parting shots as it goes), leave over it
    (`flee`: the turn loop's way of taking a figure off the battle)."""
    fig = battle.figures[fid]
    rs = battle.ruleset
    leave_rule = rs.cite("leaving-the-map")
    if battle.states[fid].held_by:
        holder = battle.figures[battle.states[fid].held_by[0]].label
        return [Event(kind=EventKind.FLEE, rule=leave_rule, actor=fid, outcome="held", squares=(fig.pos,),
                      text=f"{fig.label} is routed but held by {holder}: it cannot run this turn ({leave_rule})")]
    if on_edge(battle, fig):
        return flee(battle, fid, leave_rule, "rout")
    mode = "run" if rs.section("movement")["run_multiplier"] > 1 else "walk"
    positioning = battle.positioning()
    foes = [f for f in battle.figures.values() if f.side != fig.side and battle.able(f.id)]

    def foe_gap(sq) -> float:
        return min((distance_ft(rs.diagonal, sq, f.pos) for f in foes), default=0.0)

    try:
        reach = positioning.reach(fid, mode)
    except RulesError:
        reach = {}
    ends = [sq for sq, entry in reach.items() if entry.can_end and sq != fig.pos]
    here = edge_gap(battle, fig.pos)
    best = min(ends, key=lambda sq: (edge_gap(battle, sq), -foe_gap(sq), sq), default=None)
    if best is None or edge_gap(battle, best) >= here:
        return [Event(kind=EventKind.FLEE, rule=leave_rule, actor=fid, outcome="cornered", squares=(fig.pos,),
                      text=f"{fig.label} is routed but finds no way nearer the map edge this turn ({leave_rule})")]
    try:
        planned = positioning.plan(fid, best, mode)
    except RulesError:
        return []
    events = [Event(kind=EventKind.FLEE, rule=leave_rule, actor=fid, outcome="runs", squares=(fig.pos, best),
                    text=f"{fig.label} is routed and runs for the map edge, to {best[0]},{best[1]} ({leave_rule})",
                    data={"cause": "rout", "to": list(best)})]
    body = body_of(battle, fid)         # a routed rider runs on its mount
    events.extend(walk(battle, body, planned, mode))
    if body.id != fid:
        ride_along(battle, fid, body.id, planned.path.total_ft, mode)
    moved = battle.figures[fid]
    if battle.able(fid) and on_edge(battle, moved):
        events.extend(flee(battle, fid, leave_rule, "rout"))
        if body.id != fid and battle.able(body.id):
            events.extend(flee(battle, body.id, leave_rule, "rout"))
    return events
