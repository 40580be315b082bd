"""Mount and Dismount: getting on a mount (from then on the rider's move is the mount's) and off it.

No document gives a cost for either: the ruleset's [mounts] mount_cost and dismount_cost say it
(half the round's movement, or the whole turn: an engine choice). In the d100 rules, where moves
are declared, getting on or off is declared in the figure's declaration turn.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...values.actions import Dismount, Mount
from ...combat.reach import gap_ft
from ...values.events import Event, EventKind
from ...values.figure import Figure
from ...mounts import rider_of, too_small_words
from ...values.numbers import feet
from ...values.refusals import refuse
from ..budgets import attack_limit, current_phase, require_can_move, require_turn
from ..holds import square_free
from ..riding import landing_square, set_riding

HALF = Fraction(1, 2)
BESIDE_FT = 5


@dataclass(frozen=True)
class MountPlan:
    figure: Figure
    mount: Figure
    cost: str
    rider_ft: float        # the rider's movement it spends
    declared: bool = False


@dataclass(frozen=True)
class DismountPlan:
    figure: Figure
    mount: Figure
    to: tuple[int, int]
    cost: str
    rider_ft: float
    declared: bool = False


def _rules(battle) -> dict:
    return battle.ruleset.section("mounts")


def _require_time(battle, fig: Figure, way: str, cost: str) -> tuple[float, bool]:
    """(the rider's movement the cost takes, declared now) or a refusal: the turn, the phase, the budget."""
    rs = battle.ruleset
    rule = rs.cite(_rules(battle)["cost_rule"])
    st = battle.state_of(fig.id)
    if battle.state.phase == "declare":
        if not rs.d100:
            refuse("declare.only-declarations", what=f"getting {way} a mount")
        return 0.0, True
    if rs.d100:
        refuse("mount.declare", rule=rule, who=fig.label, way=way)
    if current_phase(battle) not in ("all", "movement"):
        refuse("move.wrong-phase", phase=current_phase(battle))
    if cost == "turn":
        if st.moved_ft > 0 or st.attacked:
            refuse("mount.whole-turn", rule=rule, who=fig.label, way=way)
        return float(fig.move_ft), False
    need = float(fig.move_ft * HALF)
    left = max(0.0, fig.move_ft - st.moved_ft)
    if left + 1e-9 < need:
        refuse("mount.no-movement", rule=rule, way=way, whose=f"{fig.label}'s", need_ft=need, left_ft=left)
    return need, False


def _spend(battle, fig: Figure, cost: str, rider_ft: float) -> str:
    """Take the cost off the rider's round; the words the event says about it."""
    st = battle.state_of(fig.id)
    if cost == "turn":
        st.moved_ft = float(fig.move_ft)
        st.attacked = True
        st.attacks_made = max(st.attacks_made, attack_limit(battle, fig.id))
        battle.state.done.add(fig.id)
        return "it takes its whole turn"
    st.moved_ft += rider_ft
    return f"it costs half its move ({feet(rider_ft)} ft)"


# ----- mount -----
def check_mount(battle, action: Mount) -> MountPlan:
    fig = require_turn(battle, action.figure)
    rs = battle.ruleset
    rule = rs.cite(_rules(battle)["rule"])
    mount = battle.figure(action.mount)
    why = ""
    if mount.id == fig.id:
        why = "a figure cannot ride itself"
    elif fig.mount:
        why = f"it already rides {battle.figures[fig.mount].label}"
    elif rider_of(battle, fig.id):
        why = f"{battle.figures[rider_of(battle, fig.id)].label} is riding it"
    elif mount.side != fig.side:
        why = f"{mount.label} is a foe's mount (side {mount.side})"
    elif not battle.able(mount.id):
        why = f"{mount.label} is out of the fight"
    elif rider_of(battle, mount.id):
        why = f"{mount.label} already carries {battle.figures[rider_of(battle, mount.id)].label}"
    elif mount.mount:
        why = f"{mount.label} is riding {battle.figures[mount.mount].label} itself"
    else:
        why = too_small_words(fig, mount)
    if why:
        refuse("mount.cannot", rule=rule, who=fig.label, mount=mount.label, why=why)
    if battle.state.phase != "declare":
        require_can_move(battle, fig)
    gap = gap_ft(battle, fig, mount)
    if gap > BESIDE_FT:
        refuse("mount.not-beside", rule=rule, who=fig.label, mount=mount.label, gap_ft=gap)
    cost = _rules(battle)["mount_cost"]
    rider_ft, declared = _require_time(battle, fig, "on", cost)
    return MountPlan(fig, mount, cost, rider_ft, declared)


def apply_mount(battle, plan: MountPlan) -> list[Event]:
    rs = battle.ruleset
    rules = _rules(battle)
    rule, cost_rule = rs.cite(rules["rule"]), rs.cite(rules["cost_rule"])
    fig, mount = plan.figure, plan.mount
    start = fig.pos
    if plan.declared:
        battle.state.declare_done.add(fig.id)
        words = "declared for the round"
    else:
        words = _spend(battle, fig, plan.cost, plan.rider_ft)
        if plan.cost == "half-move":     # the mount spends the same part of its round standing for it
            mst = battle.state_of(mount.id)
            mst.moved_ft = max(mst.moved_ft, float(mount.move_ft * HALF))
    set_riding(battle, fig.id, mount.id)
    seat = battle.figures[fig.id].pos
    text = (f"{fig.label} gets on {mount.label}, sitting on {seat[0]},{seat[1]}: {words}{rs.choice_words(cost_rule)}; "
            f"from now on it moves at {mount.label}'s move ({mount.move_ft} ft) ({rule}; {cost_rule})")
    return [Event(kind=EventKind.MOUNT, rule=cost_rule, actor=fig.id, target=mount.id, outcome="mounted", text=text,
                  squares=(start, seat), data={"cost": plan.cost, "move_ft": plan.rider_ft})]


# ----- dismount -----
def check_dismount(battle, action: Dismount) -> DismountPlan:
    fig = require_turn(battle, action.figure)
    if not fig.mount:
        refuse("dismount.not-riding", who=fig.label)
    mount = battle.figures[fig.mount]
    if battle.state.phase != "declare":
        require_can_move(battle, fig)
    if action.to is None:
        to = landing_square(battle, mount, fig.id)
        if to is None:
            refuse("dismount.square", who=fig.label, x=fig.x, y=fig.y, why=f"no free square beside {mount.label}")
    else:
        to = tuple(action.to)
        why = dismount_problem(battle, fig, mount, to)
        if why:
            refuse("dismount.square", who=fig.label, x=to[0], y=to[1], why=why)
    cost = _rules(battle)["dismount_cost"]
    rider_ft, declared = _require_time(battle, fig, "off", cost)
    return DismountPlan(fig, mount, to, cost, rider_ft, declared)


def dismount_problem(battle, fig: Figure, mount: Figure, to) -> str:
    """Why the rider may not get down on `to` ("" when it may): a free square beside the mount's body."""
    if not battle.map.in_bounds(*to):
        return "it is off the map"
    if to in mount.cells:
        return f"{mount.label} stands there"
    if not any(max(abs(to[0] - cx), abs(to[1] - cy)) == 1 for cx, cy in mount.cells):
        return f"it is not beside {mount.label}"
    if not square_free(battle, to, (fig.id,)):
        return "a wall or another figure is there"
    return ""


def apply_dismount(battle, plan: DismountPlan) -> list[Event]:
    rs = battle.ruleset
    rules = _rules(battle)
    rule, cost_rule = rs.cite(rules["rule"]), rs.cite(rules["cost_rule"])
    fig, mount, to = plan.figure, plan.mount, plan.to
    start = fig.pos
    if plan.declared:
        battle.state.declare_done.add(fig.id)
        words = "declared for the round"
    else:
        words = _spend(battle, battle.figures[fig.id], plan.cost, plan.rider_ft)
    set_riding(battle, fig.id, "")
    battle.set_figure(battle.figures[fig.id].moved_to(to[0], to[1], fig.facing, 0))
    battle.figures_moved()
    text = f"{fig.label} gets down from {mount.label} onto {to[0]},{to[1]}: {words}{rs.choice_words(cost_rule)} ({rule}; {cost_rule})"
    return [Event(kind=EventKind.DISMOUNT, rule=cost_rule, actor=fig.id, target=mount.id, outcome="dismounted",
                  text=text, squares=(start, to), data={"cost": plan.cost, "move_ft": plan.rider_ft})]
