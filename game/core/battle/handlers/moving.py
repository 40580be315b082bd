"""Move and Turn: the figure's own movement (walk, jog, run, withdraw, sidestep; facing changes).

Each handler is a pair: `check_*` works out the plan or refuses, changing nothing; `apply_*`
carries the plan out and returns the events.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ...values.actions import Move, Turn
from ...values.errors import RulesError
from ...values.events import Event, EventKind
from ...values.figure import Figure
from ...values.geometry import FACINGS, parse_facing, turn_octants
from ...values.bodies import occupancy
from ...moves.positioning import PlannedMove, Positioning
from ...values.numbers import feet
from ...values.refusals import refuse
from ..budgets import require_turn
from ..limits import AFTER_ATTACK, DECLARABLE_MODES, MoveLimit, _move_limit, require_declared
from ..state import MoveOrder
from ..riding import ride_along, require_not_ridden
from ..rules_present import require_rule
from ..turns import flee
from ...mounts import body_of
from ..walking import arrive, on_edge, walk



@dataclass(frozen=True)
class MovePlan:
    figure: Figure
    planned: PlannedMove
    mode: str
    exit: bool = False
    declared: bool = False        # d100: declared now, walked across the segments
    drags: str = ""               # the held figure it drags along (grapple)
    rider: str = ""               # the rider whose move this is: `figure` is its mount, which walks


@dataclass(frozen=True)
class TurnPlan:
    figure: Figure
    facing: int


def plan_route(battle, fig: Figure, to, mode: str, facing=None, altitude_ft=None, positioning=None) -> PlannedMove:
    """The planner's path for this move, or a refusal with its reason."""
    positioning = positioning or battle.positioning()
    try:
        face = None if facing is None else parse_facing(facing)
        return positioning.plan(fig.id, tuple(to), mode, face, altitude_ft)
    except RulesError as err:
        refuse("move.no-path", why=str(err))


def carried_route(battle, fig: Figure, action: Move, mode: str) -> PlannedMove:
    """The move along the steps the player saw (action.path), each checked with the rules of the
    move; the refusal names the first step that breaks one."""
    steps = tuple(action.path)
    end = (steps[-1][0], steps[-1][1]) if steps else fig.pos
    if end != tuple(action.to):
        refuse("move.path", why=f"the path given for {fig.label} ends on {end[0]},{end[1]}, not on "
                                f"{action.to[0]},{action.to[1]}")
    try:
        return battle.positioning().follow(fig.id, steps, mode)
    except RulesError as err:
        refuse("move.path", why=str(err))


def check_move(battle, action: Move) -> MovePlan:
    fig = require_turn(battle, action.figure)
    limit, positioning = _move_limit(battle, fig.id, action.mode)
    body = body_of(battle, fig.id)
    rs = battle.ruleset
    if battle.state.phase == "declare":
        mode = action.mode if action.mode in DECLARABLE_MODES else "walk"
        if mode == AFTER_ATTACK:
            return check_after_attack(battle, fig, action)
        planned = (carried_route(battle, fig, action, mode) if action.path is not None
                   else plan_route(battle, fig, action.to, mode, action.facing, action.altitude_ft))
        return MovePlan(body, planned, mode, declared=True, rider=fig.id if fig.mount else "")
    st = battle.state_of(fig.id)
    if st.holding:
        return check_drag(battle, fig, action, limit, positioning)
    planned = (carried_route(battle, fig, action, action.mode) if action.path is not None
               else plan_route(battle, fig, action.to, action.mode, action.facing, action.altitude_ft))
    path = planned.path
    if path.total_ft > limit.left_ft + 1e-9:
        if limit.bound == "stance":
            style = rs.defense(st.defense)
            refuse("move.stance-limit", who=fig.label, stance=style["style"], max_ft=style["max_move_ft"])
        refuse("move.too-far", who=body.label if body is not fig else fig.label, left_ft=limit.left_ft,
               needed_ft=path.total_ft)
    if action.exit and not on_edge(battle, path.end):
        refuse("move.exit-not-on-edge", who=fig.label)
    return MovePlan(body, planned, action.mode, exit=action.exit, rider=fig.id if fig.mount else "")


def check_after_attack(battle, fig: Figure, action: Move) -> MovePlan:
    """spelljammer Attack and Move: a walk of up to half its move, declared now, walked after its last attack."""
    rs = battle.ruleset
    rule = rs.cite(rs.section("round")["attack_then_move_rule"])
    require_rule(rs, action)
    planned = (carried_route(battle, fig, action, "walk") if action.path is not None
               else plan_route(battle, fig, action.to, "walk", action.facing, action.altitude_ft))
    most = fig.move_ft / 2
    if planned.path.total_ft > most + 1e-9:
        refuse("move.after-attack-too-far", rule=rule, who=fig.label, most_ft=most, needed_ft=planned.path.total_ft)
    return MovePlan(fig, planned, AFTER_ATTACK, declared=True)


def check_drag(battle, fig: Figure, action: Move, limit: MoveLimit, positioning: Positioning) -> MovePlan:
    """A holder's move drags the held figure along, at the part of its move the rules give (bfrpg, ch17)."""
    rs = battle.ruleset
    rules = rs.section("manoeuvres")
    held = battle.figures[battle.state_of(fig.id).holding]
    planned = plan_route(battle, fig, action.to, "walk", action.facing, None, positioning)
    if planned.path.total_ft > limit.left_ft + 1e-9:
        refuse("grapple.drag-too-far", who=fig.label, held=held.label, fraction=str(rules["drag_fraction"]),
               left_ft=limit.left_ft, needed_ft=planned.path.total_ft, rule=rs.cite(rules["grapple_rule"]))
    return MovePlan(fig, planned, "walk", drags=held.id)


def apply_drag(battle, plan: MovePlan) -> list[Event]:
    from ...combat.manoeuvres import melee_roll
    rs = battle.ruleset
    rules = rs.section("manoeuvres")
    rule = rs.cite(rules["grapple_rule"])
    fig, held = plan.figure, battle.figures[plan.drags]
    st = battle.state_of(fig.id)
    path = plan.planned.path
    if rules["drag_roll"]:
        roll = melee_roll(battle, fig.id, held.id, "drag")
        if not roll.success:
            st.moved_ft = float(fig.move_ft)
            return [Event(kind=EventKind.DRAG, rule=rule, actor=fig.id, target=held.id, rolls=tuple(roll.rolls),
                          total=roll.total, target_number=roll.target_number, outcome="fails",
                          text=f"{fig.label} tries to drag {held.label}: {roll.words}; it does not move this round ({rule})")]
        words = roll.words + "; "
        rolled = (tuple(roll.rolls), roll.total, roll.target_number)
    else:
        words, rolled = "", ((), None, None)
    events = walk(battle, fig, plan.planned, "walk")
    mover = battle.figures[fig.id]
    if battle.state_of(held.id).held_by and st.holding == held.id:
        steps = path.steps
        if rules["enters_square"] or len(steps) < 2:
            spot = (mover.x, mover.y) if rules["enters_square"] else (steps[0].x, steps[0].y)
        else:
            spot = (steps[-2].x, steps[-2].y)
        battle.set_figure(held.moved_to(spot[0], spot[1], held.facing))
        battle.figures_moved()
        events.append(Event(kind=EventKind.DRAG, rule=rule, actor=fig.id, target=held.id, rolls=rolled[0],
                            total=rolled[1], target_number=rolled[2], outcome="dragged",
                            text=f"{fig.label} drags {held.label} to {spot[0]},{spot[1]}: {words}at "
                                 f"{rules['drag_fraction']} its move ({feet(path.total_ft)} ft) ({rule})",
                            squares=(held.pos, spot)))
    return events


def apply_move(battle, plan: MovePlan) -> list[Event]:
    fig = plan.figure
    if plan.declared:
        return _declare(battle, plan)
    if plan.drags:
        return apply_drag(battle, plan)
    events = walk(battle, fig, plan.planned, plan.mode)
    if plan.rider:
        ride_along(battle, plan.rider, fig.id, plan.planned.path.total_ft, plan.mode)
    if plan.exit and plan.rider and battle.able(plan.rider) and battle.able(fig.id):
        events.extend(flee(battle, plan.rider, battle.ruleset.cite("leaving-the-map"), "exit"))
    if plan.exit and battle.able(fig.id):
        events.extend(flee(battle, fig.id, battle.ruleset.cite("leaving-the-map"), "exit"))
    return events


def arrive_as_planned(battle, plan: MovePlan) -> None:
    """The battle as this move would leave it had nothing struck on the way (no parting shot, no
    reach weapon, no leaving the map): the odds map's "what could it strike from there". A declared
    move (d100) is placed where it would end, its feet spent as the segments would spend them."""
    path = plan.planned.path
    arrive(battle, plan.figure, path, plan.mode)
    if plan.rider and not plan.declared:
        ride_along(battle, plan.rider, plan.figure.id, path.total_ft, plan.mode)


def _declare(battle, plan: MovePlan) -> list[Event]:
    from ...combat import rounds
    fig = plan.figure
    path = plan.planned.path
    if plan.mode == AFTER_ATTACK:
        battle.state.move_orders[fig.id] = MoveOrder(tuple(path.steps), "walk", path.total_ft, after_attack=True)
        rule = battle.ruleset.cite(battle.ruleset.section("round")["attack_then_move_rule"])
        end = path.end
        return [Event(kind=EventKind.DECLARE_MOVE, rule=rule, actor=fig.id,
                      text=f"{fig.label} declares it will attack, then move to {end.x},{end.y} ({feet(path.total_ft)} "
                           f"ft): when its move starts depends on when its last attack comes ({rule})",
                      squares=tuple((s.x, s.y) for s in path.steps), data={"cost_ft": path.total_ft, "after_attack": True})]
    battle.state.move_orders[fig.id] = MoveOrder(tuple(path.steps), plan.mode, path.total_ft, stall=path.stall)
    kept, _change, why = rounds.attacks_this_round(battle, fig.id)
    words = "; ".join(m.name + (f" {m.value:+d} initiative" if m.value else "") for m in why) or "no effect on its attacks"
    end = path.end
    return [Event(kind=EventKind.DECLARE_MOVE, rule=battle.ruleset.cite("segments"), actor=fig.id,
                  text=f"{fig.label} declares a {plan.mode} to {end.x},{end.y} ({feet(path.total_ft)} ft), spread over "
                       f"segments 10 to 1: {words}; {kept} attack(s) this round",
                  squares=tuple((s.x, s.y) for s in path.steps), data={"cost_ft": path.total_ft})]


# ----- turning on the spot -----
def check_turn(battle, action: Turn) -> TurnPlan:
    fig = require_turn(battle, action.figure)
    require_not_ridden(battle, fig, "turn")
    fig = body_of(battle, fig.id)       # a rider turns its mount
    if battle.state.phase == "declare":
        require_declared(battle, "turn", "facing changes")
    elif battle.ruleset.d100:
        refuse("turn.declared-with-move")
    try:
        facing = parse_facing(action.facing)
    except RulesError as err:
        refuse("battle.bad-value", why=str(err))
    require_may_turn(battle, fig, facing)
    return TurnPlan(fig, facing)


def require_may_turn(battle, fig: Figure, facing: int) -> None:
    """Refuse a facing change on the spot that the maneuverability rules forbid now."""
    rs = battle.ruleset
    fc = rs.section("facing")
    require_room_to_turn(battle, fig, facing)
    if not fig.has_moved and fc["stationary_turns_free"]:
        return
    if fig.flyer == "incorporeal" and fc["incorporeal_flyers_turn_free"]:
        return
    running = fig.running
    turning = rs.running_turning_ft(fig.turning_ft) if running else fig.turning_ft
    if turning == 0:
        return
    rule = rs.cite("maneuverability")
    limit = fc["run_turn_max_deg"] if running else fc["walk_turn_max_deg"]
    turn_deg = turn_octants(fig.facing, facing) * 45
    if turn_deg > limit:
        refuse("turn.too-sharp", rule=rule, who=fig.label, limit_deg=limit, running=running,
               turn_deg=turn_deg, **{"from": FACINGS[fig.facing], "to": FACINGS[facing]})
    if fig.straight_ft + 1e-9 < turning:
        refuse("turn.too-soon", rule=rule, who=fig.label, turning_ft=turning, straight_ft=fig.straight_ft,
               running=running)


def require_room_to_turn(battle, fig: Figure, facing: int) -> None:
    """A body one square wide pivots about its front square: the squares it swings onto must be free
    (a square body turns about its centre and keeps its squares). Not in the documents: engine choice."""
    if not fig.big or fig.footprint[0] == fig.footprint[1]:
        return
    turned = replace(fig, facing=facing)
    others = occupancy(battle.positioning().figures, fig.id)
    bmap = battle.map
    for x, y in turned.cells:
        what = ""
        if not bmap.in_bounds(x, y):
            what = "off the map"
        elif bmap.blocks_move[y, x] and fig.flyer == "none":
            what = "a wall or obstacle"
        elif (x, y) in others:
            what = others[(x, y)].label
        if what:
            refuse("turn.no-room", who=fig.label, to=FACINGS[facing], x=x, y=y, what=what,
                   footprint=" x ".join(str(v) for v in fig.footprint))


def apply_turn(battle, plan: TurnPlan) -> list[Event]:
    fig = plan.figure
    where = "without leaving its square" if not fig.has_moved else f"after {fig.straight_ft:g} ft straight ahead"
    battle.set_figure(replace(fig, facing=plan.facing, straight_ft=0.0))
    return [Event(kind=EventKind.TURN, rule=battle.ruleset.cite("maneuverability"), actor=fig.id,
                  text=f"{fig.label} turns to face {FACINGS[plan.facing]} {where}",
                  squares=(fig.pos,), data={"from": FACINGS[fig.facing], "to": FACINGS[plan.facing]})]
