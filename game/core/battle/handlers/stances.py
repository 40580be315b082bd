"""Aim, Defend and Hold: spending the turn (or declaring the round) on a stance instead of a blow."""
from __future__ import annotations

from dataclasses import dataclass

from ...values.actions import Aim, Defend, Hold
from ...combat import rounds
from ...combat.defender_modifiers import defense_bonus
from ...combat.reach import weapon_data
from ...values.events import Event, EventKind
from ...values.figure import Figure
from ...values.refusals import refuse
from ..budgets import has_acted, require_turn
from ..rules_present import require_rule


@dataclass(frozen=True)
class AimPlan:
    figure: Figure
    target: str


@dataclass(frozen=True)
class DefendPlan:
    figure: Figure
    style: dict
    amount: int


@dataclass(frozen=True)
class HoldPlan:
    figure: Figure
    until: str | None
    slot_index: int         # the slot it will act in


# ----- aiming -----
def check_aim(battle, action: Aim) -> AimPlan:
    fig = require_turn(battle, action.figure)
    rs = battle.ruleset
    st = battle.state_of(fig.id)
    require_rule(rs, action)
    if not weapon_data(battle, fig.ready_weapon)["ranged"]:
        refuse("aim.no-missile", who=fig.label, weapon=fig.ready_weapon)
    if action.target is None or action.target not in battle.figures:
        refuse("aim.no-target")
    if battle.state.phase == "declare":
        refuse("aim.on-initiative")
    if st.moved_ft > 0 or (rs.d100 and battle.state.move_orders.get(fig.id)):
        refuse("aim.moved", who=fig.label)
    if not rs.d100 and st.attacked:
        refuse("aim.attacked", who=fig.label)
    return AimPlan(fig, action.target)


def apply_aim(battle, plan: AimPlan) -> list[Event]:
    fig = plan.figure
    mods = battle.ruleset.section("modifiers")
    battle.state_of(fig.id).aim = {"target": plan.target, "round": battle.round}
    rule = battle.ruleset.cite(mods["aim_rule"])
    battle.state.done.add(fig.id)
    when = "next round" if mods["aim_next_round"] else "on its next attack this round"
    return [Event(kind=EventKind.AIM, rule=rule, actor=fig.id, target=plan.target,
                  text=f"{fig.label} takes aim at {battle.figures[plan.target].label}: +{mods['aim_bonus']} {when} ({rule})")]


# ----- defending -----
def check_defend(battle, action: Defend) -> DefendPlan:
    fig = battle.figure(action.figure)
    rs = battle.ruleset
    require_rule(rs, action)
    style = rs.defense(action.style)
    st = battle.state_of(fig.id)
    round_rules = rs.section("round")
    step = round_rules["declarations"] and "defend" in round_rules["declared"]
    if battle.state.phase != "declare" and (rs.d100 or (step and style["declared"])):
        refuse("defend.declare-first", style=style["style"])
    if battle.current != fig.id:
        early = (style["declared"] and battle.state.declarations_open and battle.able(fig.id)
                 and (battle.state.phase == "declare" or not has_acted(battle, fig.id)))
        if not early:
            require_turn(battle, fig.id)
    if not style["can_attack"] and st.attacked:
        refuse("defend.after-attack", who=fig.label, style=style["style"])
    amount = 0
    if style["formula"] == "trade":
        most = battle.profile(fig.id)["weapon_rank"] * 5
        amount = action.amount
        if amount <= 0 or amount > most:
            refuse("defend.trade-range", who=fig.label, most=most)
    return DefendPlan(fig, style, amount)


def apply_defend(battle, plan: DefendPlan) -> list[Event]:
    fig, style = plan.figure, plan.style
    rs = battle.ruleset
    st = battle.state_of(fig.id)
    st.defense = style["style"]
    st.defense_amount = plan.amount
    value = defense_bonus(style, battle.profile(fig.id), plan.amount)
    rule = rs.cite(style["rule"])
    words = f"{fig.label} takes up {style['style']}: {value:+d} " + ("DEF" if rs.d100 else "AC")
    if plan.amount:
        words += f" for -{plan.amount} SC"
    if not style["can_attack"]:
        words += ", no attacks this round"
    if style["initiative"]:
        words += f", {style['initiative']:+d} initiative"
    return [Event(kind=EventKind.DEFEND, rule=rule, actor=fig.id, text=words + f" ({rule})",
                  data={"style": style["style"], "bonus": value})]


# ----- holding the action -----
def check_hold(battle, action: Hold) -> HoldPlan:
    fig = require_turn(battle, action.figure)
    s = battle.state
    st = battle.state_of(fig.id)
    if battle.ruleset.d100 or s.phase != "act":
        refuse("hold.declare-instead")
    if st.attacked or st.moved_ft > 0:
        refuse("hold.already-acted", who=fig.label)
    if action.until is None:
        return HoldPlan(fig, None, s.slot_index + 1)
    other = battle.figure(action.until)
    index = next((i for i, slot in enumerate(s.slots) if other.id in slot.members), None)
    if index is None or index <= s.slot_index:
        refuse("hold.not-later", who=fig.label, other=other.label)
    return HoldPlan(fig, other.id, index)


def apply_hold(battle, plan: HoldPlan) -> list[Event]:
    fig = plan.figure
    s = battle.state
    rs = battle.ruleset
    rule = rs.cite(rs.section("round")["hold_rule"])
    slot = s.slots[s.slot_index]
    if plan.until is not None:
        later = s.slots[plan.slot_index]
        words = (f"{fig.label} waits for {battle.figures[plan.until].label} and will act with it on {later.number} "
                 f"(simultaneously)")
    else:
        if plan.slot_index < len(s.slots):
            later = s.slots[plan.slot_index]
        else:
            later = rounds.Slot(slot.number - 1, [])
            s.slots.append(later)
        words = f"{fig.label} holds the action until initiative {later.number}"
    slot.members.remove(fig.id)
    later.members.append(fig.id)
    battle.state_of(fig.id).initiative = [later.number]
    s.done.discard(fig.id)
    s.current = None
    return [Event(kind=EventKind.HOLD, rule=rule, actor=fig.id, text=words + f"{rs.choice_words(rule)} ({rule})")]
