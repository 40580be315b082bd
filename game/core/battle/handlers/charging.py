"""Charge, and setting a weapon against one."""
from __future__ import annotations

from dataclasses import dataclass, replace

from ...values.actions import Charge, SetAgainstCharge
from ...combat.breakdown import AttackContext
from ...combat.modifiers import attack_breakdown
from ...combat.reach import in_melee_reach, weapon_data
from ...values.events import Event, EventKind
from ...values.figure import Figure
from ...moves.positioning import PlannedMove
from ...values.refusals import refuse
from ..budgets import attacks_left, current_phase, require_can_move, require_not_fatigued, require_turn
from ..strikes import resolve
from ..walking import may_strike_closing_foe, strike_closing_foe, strike_first, strikes_first_why, walk
from ...mounts import body_of, fights_mounted
from ..mount_strikes import one_of_the_pair_charges
from ..riding import ride_along, require_not_ridden
from ..rules_present import require_rule
from .moving import plan_route


@dataclass(frozen=True)
class ChargePlan:
    figure: Figure
    target: Figure
    planned: PlannedMove | None
    announce: bool = False        # announced in the declaration step, run on its initiative number


@dataclass(frozen=True)
class SetPlan:
    figure: Figure
    out_of_turn: bool


def check_charge(battle, action: Charge) -> ChargePlan:
    fig = require_turn(battle, action.figure)
    require_not_ridden(battle, fig, "charge")
    target = battle.figure(action.target)
    rs = battle.ruleset
    st = battle.state_of(fig.id)
    ch = rs.section("charge")
    declared = "charge" in rs.section("round")["declared"] and rs.section("round")["declarations"]
    if battle.state.phase == "declare" and not declared:
        refuse("charge.declare-run", ruleset=rs.name)
    require_rule(rs, action)
    if target.side == fig.side or not battle.able(target.id):
        refuse("charge.not-a-foe", target=target.label)
    if battle.state.phase == "declare":
        return _check_announcement(battle, fig, target)
    if declared and st.announced_charge != target.id:
        rule = rs.cite(rs.section("round")["declare_rule"])
        if st.announced_charge:
            refuse("charge.other-target", rule=rule, who=fig.label,
                   announced=battle.figures[st.announced_charge].label, target=target.label)
        refuse("charge.not-announced", rule=rule, who=fig.label)
    if st.moved_ft > 0 or battle.state_of(body_of(battle, fig.id).id).moved_ft > 0:
        refuse("charge.already-moved", who=fig.label)
    if st.attacked or attacks_left(battle, fig.id) <= 0:
        refuse("charge.no-attack", who=fig.label)
    limit = ch["max_per_battle"]
    if limit and st.charges_made >= limit:
        refuse("charge.limit", rule=rs.cite(ch["rule"]), who=fig.label, limit=limit)
    require_can_move(battle, fig)
    require_not_fatigued(battle, fig, "charge")
    if current_phase(battle) not in ("all", "movement"):
        refuse("charge.wrong-phase")
    lane = battle.positioning().charge_lane(fig.id, target.id)
    if not lane.legal:
        refuse("charge.lane", rule=lane.rule, why=lane.reason)
    return ChargePlan(fig, target, plan_route(battle, fig, target.pos, "charge"))


def _check_announcement(battle, fig: Figure, target: Figure) -> ChargePlan:
    """A charge announced in the declaration step: its lane must be open now; it runs on its number."""
    rs = battle.ruleset
    st = battle.state_of(fig.id)
    limit = rs.section("charge")["max_per_battle"]
    if limit and st.charges_made >= limit:
        refuse("charge.limit", rule=rs.cite(rs.section("charge")["rule"]), who=fig.label, limit=limit)
    if st.announced_charge:
        refuse("charge.already-announced", who=fig.label, target=battle.figures[st.announced_charge].label)
    if st.has("prone"):
        prone = rs.section("prone")
        refuse("prone", rule=rs.cite(prone["rule"]), who=fig.label, stand=prone["stand"])
    lane = battle.positioning().charge_lane(fig.id, target.id)
    if not lane.legal:
        refuse("charge.lane", rule=lane.rule, why=lane.reason)
    return ChargePlan(fig, target, None, announce=True)


def _announce(battle, plan: ChargePlan) -> list[Event]:
    fig, target = plan.figure, plan.target
    rs = battle.ruleset
    st = battle.state_of(fig.id)
    st.announced_charge = target.id
    battle.state.declare_done.add(fig.id)
    rule = rs.cite(rs.section("charge")["rule"])
    defense = rs.section("modifiers")["charge_defense"]
    words = f"{fig.label} announces a charge at {target.label}; it runs on its initiative number"
    if defense:
        words += f" and is at {defense:+d} AC for the whole round"
    return [Event(kind=EventKind.DECLARE, rule=rule, actor=fig.id, target=target.id, text=f"{words} ({rule})",
                  data={"declared": "charge"})]


def apply_charge(battle, plan: ChargePlan) -> list[Event]:
    if plan.announce:
        return _announce(battle, plan)
    fig, target, planned = plan.figure, plan.target, plan.planned
    rs = battle.ruleset
    st = battle.state_of(fig.id)
    ch_rule = rs.cite(rs.section("charge")["rule"])
    st.charging = target.id
    st.charges_made += 1
    events = [Event(kind=EventKind.CHARGE, rule=ch_rule, actor=fig.id, target=target.id,
                    text=f"{fig.label} charges {target.label}: {planned.path.steps[-1].note} ({ch_rule})",
                    squares=tuple((s.x, s.y) for s in planned.path.steps))]
    start = fig.pos
    body = body_of(battle, fig.id)      # a rider charges on its mount: the mount runs the lane
    events.extend(walk(battle, body, planned, "charge"))
    if body.id != fig.id:
        ride_along(battle, fig.id, body.id, planned.path.total_ft, "charge")
        events.extend(one_of_the_pair_charges(battle, fig.id, body.id))
    if not battle.able(fig.id):
        return events
    # the charged figure's answer: a set weapon, or a reach weapon striking the closing charger
    tst = battle.state_of(target.id)
    mods = rs.section("modifiers")
    charger = battle.figures[fig.id]
    before = replace(charger, x=start[0], y=start[1])
    charger_attacks = True
    answer, first = charge_answer(battle, fig.id, target.id, before)
    if answer == "set":
        bd = attack_breakdown(battle, target.id, fig.id, AttackContext(set_vs_charge=True, free_attack=True))
        words = "strikes first" if first else "strikes at the same moment (simultaneous)"
        if not mods["set_needs_initiative"]:
            words += ", whatever the initiative"
        tst.set_vs_charge = False
        events.extend(resolve(battle, bd, EventKind.SET_WEAPON_STRIKE, rule=rs.cite(mods["set_rule"]),
                              reason=f"{target.label} has the {target.ready_weapon} set against the charge and {words}",
                              consume=False))
        if first and not battle.able(fig.id):
            charger_attacks = False
    elif answer == "reach":
        events.extend(strike_closing_foe(battle, target, charger,
                                         f"{target.label}'s {target.ready_weapon} reaches the charging {fig.label}; "
                                         f"it strikes on {fig.label}'s number"))
    else:
        # odnd Melee Weapon Reach, cnc Initiative: the longer weapon (or larger size) strikes the charger first.
        events.extend(strike_first(battle, fig.id, target.id))
        if not battle.able(fig.id):
            charger_attacks = False
    if charger_attacks and battle.able(target.id):
        if not battle.able(fig.id):
            events.append(Event(kind=EventKind.SIMULTANEOUS, rule=rs.cite(mods["set_rule"]), actor=fig.id,
                                text=f"{fig.label} falls, but the blows are simultaneous: its charge attack still lands"))
        bd = attack_breakdown(battle, fig.id, target.id, AttackContext(charge=True, surprise_round=battle.round == 1))
        if not bd.allowed:
            events.append(Event(kind=EventKind.CHARGE, rule=ch_rule, actor=fig.id,
                                text=f"{fig.label}'s charge ends out of reach: {bd.reason}"))
        else:
            events.extend(resolve(battle, bd, EventKind.CHARGE_ATTACK, rule=ch_rule, reason=""))
    return events


def charge_answer(battle, charger_id: str, target_id: str, before: Figure) -> tuple[str, bool]:
    """How the charged figure answers a charger standing at its lane's end (the battle, or a view, has it
    there; `before`: where it started): ("set", strikes first) a set weapon that reaches it (and, where
    the ruleset asks, has the initiative); ("reach", True) a reach weapon striking the closing charger
    (bfrpg, ch17); ("first", True) the longer weapon or larger size striking first (odnd, cnc); ("", False)."""
    mods = battle.ruleset.section("modifiers")
    target, charger = battle.figures[target_id], battle.figures[charger_id]
    if (battle.state_of(target_id).set_vs_charge and battle.able(target_id) and in_melee_reach(battle, target, charger)
            and (not mods["set_needs_initiative"] or _initiative_at_least(battle, target_id, charger_id))):
        return "set", bool(mods["set_strikes_first"] and _set_outreaches(battle, target, charger))
    if may_strike_closing_foe(battle, target, charger, before):
        return "reach", True
    if strikes_first_why(battle, charger_id, target_id):
        return "first", True
    return "", False


def _set_outreaches(battle, setter: Figure, charger: Figure) -> bool:
    """odnd CHARGING ATTACKS: a set spear strikes first against unmounted chargers; against a mounted
    one (a lance) the longer weapon strikes first, equal reach strikes together."""
    if not fights_mounted(battle, charger.id):      # a rider on its mount charges mounted too
        return True
    return weapon_data(battle, setter.ready_weapon)["reach_ft"] > weapon_data(battle, charger.ready_weapon)["reach_ft"]


def _initiative_at_least(battle, a: str, b: str) -> bool:
    ia, ib = battle.state_of(a).initiative, battle.state_of(b).initiative
    if not ia or not ib:
        return True
    return max(ia) >= max(ib)


# ----- setting a weapon against a charge -----
def check_set(battle, action: SetAgainstCharge) -> SetPlan:
    fig = battle.figure(action.figure)
    rs = battle.ruleset
    st = battle.state_of(fig.id)
    out_of_turn = battle.current != fig.id
    if out_of_turn and not (battle.state.declarations_open and not rs.d100 and battle.able(fig.id)):
        require_turn(battle, fig.id)
    require_rule(rs, action)
    if not weapon_data(battle, fig.ready_weapon)["set"]:
        fit = ", ".join(sorted(n for n, w in rs.section("weapons").items() if w["set"]))
        refuse("set.wrong-weapon", who=fig.label, weapon=fig.ready_weapon, fit=fit)
    if st.moved_ft > 0 or st.attacked:
        refuse("set.already-acted", who=fig.label)
    return SetPlan(fig, out_of_turn)


def apply_set(battle, plan: SetPlan) -> list[Event]:
    fig = plan.figure
    battle.state_of(fig.id).set_vs_charge = True
    rule = battle.ruleset.cite(battle.ruleset.section("modifiers")["set_rule"])
    if not plan.out_of_turn:
        battle.state.done.add(fig.id)
    return [Event(kind=EventKind.SET, rule=rule, actor=fig.id,
                  text=f"{fig.label} sets the {fig.ready_weapon} against a charge and holds the action ({rule})")]
