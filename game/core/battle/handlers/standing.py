"""Stand: getting up from prone, at the cost the ruleset gives ([prone].stand).

`turn`: the whole turn (bfrpg Prone and Helpless Opponents: a full round, no other action); in the
d100 rules it is declared and takes the round. `half-move`: half the walking move, after which the
figure may still move the rest and act. `round-end`: there is no getting up early; prone ends with
the round (cnc Overbearing).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...values.actions import Stand
from ...values.events import Event, EventKind
from ...values.figure import Figure
from ...values.refusals import refuse
from ..budgets import current_phase, move_unspent_ft, require_turn

HALF = Fraction(1, 2)


@dataclass(frozen=True)
class StandPlan:
    figure: Figure
    cost: str
    move_ft: float        # movement it spends


def check_stand(battle, action: Stand) -> StandPlan:
    fig = require_turn(battle, action.figure)
    rs = battle.ruleset
    st = battle.state_of(fig.id)
    cost = rs.section("prone")["stand"]
    rule = rs.cite(rs.section("prone")["rule"])
    if not st.has("prone"):
        refuse("stand.not-prone", who=fig.label)
    if cost == "round-end":
        refuse("stand.round-end", rule=rule, who=fig.label)
    phase = battle.state.phase
    if rs.d100 or phase == "declare":
        if phase != "declare" or "stand" not in rs.section("round")["declared"]:
            refuse("stand.declare", rule=rule, who=fig.label)
        return StandPlan(fig, cost, 0.0)
    if current_phase(battle) not in ("all", "movement"):
        refuse("stand.wrong-phase")
    if cost == "turn":
        if st.moved_ft > 0 or st.attacked:
            refuse("stand.whole-turn", rule=rule, who=fig.label)
        return StandPlan(fig, cost, 0.0)
    need = float(fig.move_ft * HALF)
    if move_unspent_ft(battle, fig.id) + 1e-9 < need:
        refuse("stand.no-movement", rule=rule, who=fig.label, need_ft=need, left_ft=move_unspent_ft(battle, fig.id))
    return StandPlan(fig, cost, need)


def apply_stand(battle, plan: StandPlan) -> list[Event]:
    fig = plan.figure
    rs = battle.ruleset
    st = battle.state_of(fig.id)
    rule = rs.cite(rs.section("prone")["rule"])
    st.conditions.pop("prone", None)
    if plan.cost == "turn":
        st.standing_up = True
        if battle.state.phase != "declare":
            battle.state.done.add(fig.id)
        words = "getting up takes its whole turn: no move and no attack this round"
    else:
        st.moved_ft += plan.move_ft
        words = f"getting up costs half its move ({plan.move_ft:g} ft); it may still move the rest and act"
    text = f"{fig.label} stands up: {words}{rs.choice_words(rule)} ({rule})"
    return [Event(kind=EventKind.STAND, rule=rule, actor=fig.id, text=text, squares=(fig.pos,),
                  data={"cost": plan.cost, "move_ft": plan.move_ft})]
