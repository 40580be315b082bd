"""Disengage: leaving melee the ruleset's way (odnd retreat, cnc hasty or fighting)."""
from __future__ import annotations

from dataclasses import dataclass, replace

from ...values.actions import Disengage
from ...combat.reach import fighting
from ...values.events import Event, EventKind
from ...values.figure import Figure
from ...values.geometry import bearing_octant
from ...moves.positioning import PlannedMove, Positioning
from ...values.refusals import refuse
from ..budgets import require_can_move, require_not_fatigued, require_turn
from ..riding import require_not_ridden
from ..walking import walk
from ..retreat import retreat_rolls
from ..rules_present import require_rule
from .moving import plan_route

# The move mode each style of disengagement walks in.
STYLE_MODES = {"retreat": "walk", "hasty": "run", "fighting": "withdraw"}


@dataclass(frozen=True)
class DisengagePlan:
    figure: Figure              # as it leaves: turned to flee where the rules let it turn first
    style: str
    mode: str
    planned: PlannedMove
    foes: tuple[str, ...]       # the foes it is fighting


def require_can_disengage(battle, fig: Figure, style: str) -> list[Figure]:
    """Refuse when the figure may not leave melee in this style now; else the foes it is fighting."""
    rs = battle.ruleset
    st = battle.state_of(fig.id)
    require_not_ridden(battle, fig, "disengage")
    if fig.mount:
        refuse("disengage.rider", who=fig.label, mount=battle.figures[fig.mount].label)
    require_rule(rs, Disengage(fig.id, to=fig.pos, style=style))
    round_rules = rs.section("round")
    declared = round_rules["declarations"] and "disengage" in round_rules["declared"]
    if battle.state.phase == "declare" and not declared:
        refuse("disengage.on-turn")
    if battle.state.phase != "declare" and declared:
        refuse("disengage.announce", rule=rs.cite(round_rules["declare_rule"]), who=fig.label)
    foes = fighting(battle, fig)
    if not foes:
        refuse("disengage.not-in-melee", who=fig.label)
    if st.attacked or st.moved_ft > 0:
        refuse("disengage.already-acted", who=fig.label)
    require_can_move(battle, fig)
    return foes


def check_disengage(battle, action: Disengage) -> DisengagePlan:
    fig = require_turn(battle, action.figure)
    rs = battle.ruleset
    rules = rs.section("disengage")
    foes = require_can_disengage(battle, fig, action.style)
    positioning = battle.positioning()
    if action.style in ("retreat", "hasty") and rs.section("facing")["stationary_turns_free"]:
        # Turning to flee: a figure that has not left its square turns freely first.
        fig = replace(fig, facing=bearing_octant(fig.pos, tuple(action.to)))
        positioning = Positioning(battle.map, rs, [fig if f.id == fig.id else f for f in positioning.figures],
                                  positioning.mounted, positioning.engagement.attacking)
    mode = (action.mode or "walk") if action.style == "retreat" else STYLE_MODES[action.style]
    require_not_fatigued(battle, fig, mode)
    planned = plan_route(battle, fig, action.to, mode, positioning=positioning)
    if action.style == "hasty":
        budget = fig.move_ft * rules["hasty_multiplier"]
        if planned.path.total_ft > budget + 1e-9:
            refuse("disengage.hasty-too-far", budget_ft=budget, needed_ft=planned.path.total_ft)
    return DisengagePlan(fig, action.style, mode, planned, tuple(f.id for f in foes))


def apply_disengage(battle, plan: DisengagePlan) -> list[Event]:
    fig = plan.figure
    rs = battle.ruleset
    rules = rs.section("disengage")
    rule = rs.cite(rules["rule"])
    st = battle.state_of(fig.id)
    battle.set_figure(fig)
    events: list[Event] = []
    if plan.style == "retreat":
        events.append(Event(kind=EventKind.DISENGAGE, rule=rule, actor=fig.id, data={"style": plan.style},
                            text=f"{fig.label} turns to retreat: {rules['retreat_die']} + DEX against each foe whose "
                                 f"free attack it would draw ({rule})"))
        foes = list(dict.fromkeys(list(plan.foes) + [s.attacker_id for s in plan.planned.parting_shots]))
        rolled, winners = retreat_rolls(battle, fig, foes, rule)
        events.extend(rolled)
        events.extend(walk(battle, fig, plan.planned, plan.mode, allowed_shots=winners))
    elif plan.style == "hasty":
        st.hasty = True
        events.append(Event(kind=EventKind.DISENGAGE, rule=rule, actor=fig.id, data={"style": plan.style},
                            text=f"{fig.label} disengages hastily: {rs.section('modifiers')['hasty_defense']:+d} AC for "
                                 f"the round, and each foe it leaves gets a free attack ({rule})"))
        events.extend(walk(battle, fig, plan.planned, plan.mode, allowed_shots=set(plan.foes)))
    else:  # fighting
        st.hasty = False
        events.append(Event(kind=EventKind.DISENGAGE, rule=rule, actor=fig.id, data={"style": plan.style},
                            text=f"{fig.label} makes a fighting disengagement: half its move, no free attacks, "
                                 f"no other action this round ({rule})"))
        events.extend(walk(battle, fig, plan.planned, plan.mode, allowed_shots=set()))
        st.withdrawing = False
        st.move_mode = "withdraw-disengage"
    if battle.state.phase == "declare":
        st.disengaged = True           # carried out when announced; it rolls no initiative this round
        battle.state.declare_done.add(fig.id)
    else:
        battle.state.done.add(fig.id)
    return events
