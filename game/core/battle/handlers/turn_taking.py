"""EndTurn, and the game master's GmPlace (an edit out of turn, logged like any action)."""
from __future__ import annotations

from dataclasses import dataclass

from ...values.actions import EndTurn, GmPlace
from ...values.errors import RulesError
from ...values.events import Event, EventKind
from ...values.figure import Figure
from ...mounts import body_of
from ...values.geometry import FACINGS, parse_facing
from ...values.refusals import refuse
from ...moves.positioning import PlannedMove
from ..budgets import require_turn
from ..state import MoveOrder
from ..walking import walk


@dataclass(frozen=True)
class EndTurnPlan:
    figure: Figure
    forced_dive: PlannedMove | None = None   # a stalled flyer that did not move dives as it ends its turn


@dataclass(frozen=True)
class PlacePlan:
    figure: Figure
    placed: Figure


def check_end_turn(battle, action: EndTurn) -> EndTurnPlan:
    fig = require_turn(battle, action.figure)
    dive = None
    # In a declaration step that declares moves (d100), the dive is declared; elsewhere it comes on its turn.
    moves_now = battle.state.phase != "declare" or "move" in battle.ruleset.section("round")["declared"]
    if moves_now and must_dive_now(battle, fig):
        try:
            dive = battle.positioning().plan(fig.id, fig.pos, "walk")
        except RulesError:
            dive = None
    return EndTurnPlan(fig, dive)


def must_dive_now(battle, fig: Figure) -> bool:
    """A winged flyer that stalled on its last move and has not moved this round: its round's
    movement is the dive (bfrpg Maneuverability), taken as it ends its turn if it did not move."""
    return (fig.must_dive and fig.flyer == "winged" and fig.altitude_ft > 0 and not fig.has_moved
            and fig.id not in battle.state.move_orders and battle.able(fig.id))


def apply_end_turn(battle, plan: EndTurnPlan) -> list[Event]:
    fig = plan.figure
    s = battle.state
    events: list[Event] = []
    if plan.forced_dive is not None:
        rule = battle.ruleset.cite("flyer-altitude")
        events.append(Event(kind=EventKind.STALL, rule=rule, actor=fig.id, data={"forced_dive": True},
                            text=f"{fig.label} stalled on its last move and must dive at its full rate ({rule})"))
        if s.phase == "declare":
            path = plan.forced_dive.path
            s.move_orders[fig.id] = MoveOrder(tuple(path.steps), "walk", path.total_ft)
        else:
            events.extend(walk(battle, fig, plan.forced_dive, "walk"))
    if s.phase == "declare":
        s.declare_done.add(fig.id)
        return events + [Event(kind=EventKind.END_TURN, rule=battle.ruleset.cite(battle.ruleset.section("round")["declare_rule"]),
                               actor=fig.id, text=f"{fig.label} has declared")]
    s.done.add(fig.id)
    return events + [Event(kind=EventKind.END_TURN, rule=battle.ruleset.cite("turn-order"), actor=fig.id,
                           text=f"{fig.label} ends the turn")]


def check_gm_place(battle, action: GmPlace) -> PlacePlan:
    battle.figure(action.figure)
    fig = body_of(battle, action.figure)     # placing a rider places its mount: the pair goes together
    x = fig.x if action.x is None else action.x
    y = fig.y if action.y is None else action.y
    try:
        facing = fig.facing if action.facing is None else parse_facing(action.facing)
    except RulesError as err:
        refuse("battle.bad-value", why=str(err))
    altitude = fig.altitude_ft if action.altitude_ft is None else action.altitude_ft
    bmap = battle.map
    if not bmap.in_bounds(x, y):
        refuse("place.off-map", x=x, y=y, width=bmap.width, height=bmap.height)
    if altitude < 0:
        refuse("place.below-floor")
    if altitude and fig.flyer == "none":
        refuse("place.not-a-flyer", who=fig.label)
    if bmap.blocks_move[y, x] and not (fig.flyer != "none" and altitude > 0):
        refuse("place.wall", x=x, y=y)
    placed = fig.moved_to(x, y, facing, altitude)
    for cx, cy in placed.cells:     # a body bigger than a square needs every one of its squares
        if not bmap.in_bounds(cx, cy):
            refuse("place.off-map", x=cx, y=cy, width=bmap.width, height=bmap.height)
        if bmap.blocks_move[cy, cx] and not (fig.flyer != "none" and altitude > 0):
            refuse("place.wall", x=cx, y=cy)
    for other in battle.figures.values():
        if (other.id != fig.id and not other.mount and not set(other.cells).isdisjoint(placed.cells)
                and battle.able(other.id)):
            taken = next(c for c in placed.cells if c in other.cells)
            refuse("place.occupied", x=taken[0], y=taken[1], other=other.label)
    return PlacePlan(fig, placed)


def apply_gm_place(battle, plan: PlacePlan) -> list[Event]:
    fig, placed = plan.figure, plan.placed
    battle.set_figure(placed)
    where = f"{placed.x},{placed.y} facing {FACINGS[placed.facing]}" + (
        f" at {placed.altitude_ft} ft" if fig.flyer != "none" else "")
    return [Event(kind=EventKind.GM_PLACE, rule="gm:place", actor=fig.id,
                  text=f"the game master places {fig.label} on {where}",
                  squares=((fig.x, fig.y), (placed.x, placed.y)),
                  data={"x": placed.x, "y": placed.y, "facing": FACINGS[placed.facing], "altitude_ft": placed.altitude_ft})]
