"""Attack: a melee blow or a missile at a foe, on the figure's turn."""
from __future__ import annotations

from dataclasses import dataclass

from ...values.actions import Attack
from ...combat.breakdown import AttackContext, Breakdown
from ...combat.modifiers import attack_breakdown
from ...combat.reach import weapon_data
from ...values.events import Event, EventKind
from ...values.figure import Figure
from ...values.refusals import ActionRefused, refuse
from ..budgets import attack_limit, attack_move_allowance_ft, attacks_left, current_phase, require_turn
from ..segments import start_after_attack
from ..strikes import resolve
from ..mount_strikes import polearm_unhorse
from ..rules_present import require_rule
from ..walking import strike_first


@dataclass(frozen=True)
class AttackPlan:
    figure: Figure
    target: Figure
    context: AttackContext
    breakdown: Breakdown
    unhorse: bool = False      # a polearm's try to pull the rider off instead of a blow (odnd)


def require_can_attack(battle, fig: Figure, target_id: str | None = None) -> None:
    """Refuse when the figure may make no attack now, whoever the target (turn, round, budget)."""
    st = battle.state_of(fig.id)
    if battle.state.phase == "declare":
        refuse("declare.only-declarations", what="attacks")
    if st.no_attack_round == battle.round:
        refuse("attack.fumbled", who=fig.label)
    if st.standing_up:
        refuse("stand.getting-up", who=fig.label)
    require_not_held_fast(battle, fig)
    if attacks_left(battle, fig.id, target_id) <= 0:
        style = battle.ruleset.defense(st.defense) if st.defense else None
        if style and not style["can_attack"]:
            refuse("attack.stance", who=fig.label, stance=style["style"])
        if st.hasty:
            refuse("attack.disengaging", who=fig.label)
        refuse("attack.none-left", who=fig.label, made=st.attacks_made, limit=attack_limit(battle, fig.id, target_id))


def require_not_held_fast(battle, fig: Figure) -> None:
    """A held figure whose rules let it only try to break free (cnc; odnd's pinned) does nothing else."""
    st = battle.state_of(fig.id)
    if not st.held_by:
        return
    rules = battle.ruleset.section("manoeuvres")
    if rules["held_acts"] == "escape" or st.has("pinned"):
        refuse("grapple.held", who=fig.label, holder=battle.figures[st.held_by[0]].label,
               rule=battle.ruleset.cite(rules["grapple_rule"]))


def require_attack_phase(battle, kind: str | None = None) -> None:
    """bfrpg inside a shared number: movement first, then missiles, then melee."""
    phase = current_phase(battle)
    if phase == "movement":
        refuse("attack.movement-phase")
    if phase == "missile" and kind == "melee":
        refuse("attack.missile-phase")
    if phase == "melee" and kind == "ranged":
        refuse("attack.melee-phase")


def check_attack(battle, action: Attack) -> AttackPlan:
    fig = require_turn(battle, action.figure)
    target = battle.figure(action.target)
    st = battle.state_of(fig.id)
    if battle.state.phase == "declare":
        refuse("declare.only-declarations", what="attacks")
    if target.side == fig.side:
        refuse("attack.own-side", who=fig.label, target=target.label)
    if not battle.able(target.id):
        refuse("attack.target-down", target=target.label)
    weapon = action.weapon or fig.ready_weapon
    if weapon not in fig.weapons and weapon != "fist":
        refuse("attack.no-such-weapon", who=fig.label, weapon=weapon, has=", ".join(fig.weapons))
    if st.has("disarmed") and weapon == fig.ready_weapon:
        refuse("attack.disarmed", who=fig.label, weapon=weapon)
    require_can_attack(battle, fig, target.id)
    if st.blindsided_by.get(target.id) == battle.round:
        refuse("attack.blindsided", rule=battle.ruleset.cite("blindsided"), who=fig.label, target=target.label)
    ctx = AttackContext(weapon=weapon, subdue=action.subdue, careful=action.careful, surprise_round=battle.round == 1)
    bd = attack_breakdown(battle, fig.id, target.id, ctx)
    if not bd.allowed:
        refuse_breakdown(bd)
    require_attack_phase(battle, bd.kind)
    require_may_attack_after_moving(battle, fig)
    if bd.kind == "ranged" and st.reload_until_round >= battle.round:
        refuse("attack.reloading", who=fig.label, weapon=weapon, ready_round=st.reload_until_round + 1)
    if action.unhorse:
        require_rule(battle.ruleset, action)
        require_may_unhorse(battle, fig, target, weapon)
    return AttackPlan(fig, target, ctx, bd, action.unhorse)


def require_may_unhorse(battle, fig: Figure, target: Figure, weapon: str) -> None:
    """odnd: only a polearm may try to pull a rider off, and only a rider can be pulled off."""
    rules = battle.ruleset.section("mounts")
    rule = battle.ruleset.cite(rules["polearm_rule"])
    if weapon not in rules["polearm_weapons"]:
        refuse("unhorse.weapon", rule=rule, who=fig.label, weapon=weapon, fit=", ".join(rules["polearm_weapons"]))
    if not target.mount:
        refuse("unhorse.not-riding", target=target.label)


def refuse_breakdown(bd: Breakdown):
    """Refuse an attack its breakdown says cannot be made (out of reach, out of range, unseen)."""
    if len(bd.refusals) == 1:
        raise ActionRefused(bd.refusals[0])
    refuse("attack.several", why=bd.reason, keys=tuple(r.key for r in bd.refusals))


def require_may_attack_after_moving(battle, fig: Figure) -> None:
    rs = battle.ruleset
    st = battle.state_of(fig.id)
    if rs.d100 or st.charging:
        return
    if st.move_mode in ("run", "jog") and rs.section("round")["run_attack_hit"] == 0:
        refuse("attack.ran", who=fig.label)
    allowed = attack_move_allowance_ft(battle, fig)
    if st.moved_ft > allowed + 1e-9:
        refuse("attack.moved-too-far", rule=rs.cite("movement"), who=fig.label, moved_ft=st.moved_ft,
               allowed_ft=float(allowed))
    if st.withdrawing is False and st.move_mode == "withdraw-disengage":
        refuse("attack.disengaging", who=fig.label)


def apply_attack(battle, plan: AttackPlan) -> list[Event]:
    fig, target, bd = plan.figure, plan.target, plan.breakdown
    rs = battle.ruleset
    st = battle.state_of(fig.id)
    if plan.unhorse:
        return polearm_unhorse(battle, fig.id, bd)
    events: list[Event] = []
    if bd.kind == "melee" and not rs.d100:
        events.extend(strike_first(battle, fig.id, target.id))
        if not battle.able(fig.id) and not st.acts_before_falling:
            return events
        bd = attack_breakdown(battle, fig.id, target.id, plan.context)
    events.extend(resolve(battle, bd, EventKind.ATTACK, rule=bd.rule, reason=""))
    if bd.kind == "ranged":
        reload_rounds = weapon_data(battle, bd.weapon)["reload_rounds"]
        if reload_rounds:
            st.reload_until_round = battle.round + reload_rounds
    if rs.d100:
        battle.state.done.add(fig.id)
        if attacks_left(battle, fig.id) <= 0 and battle.state.slot_index < len(battle.state.slots):
            events.extend(start_after_attack(battle, fig.id, battle.state.slots[battle.state.slot_index].number,
                                             battle.rng))
    return events
