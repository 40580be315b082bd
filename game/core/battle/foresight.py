"""What rules an action would set off, said before it is taken: the warnings a preview carries.

`foresee(battle, action, plan)` reads the plan the handler's own check made and names each rule
that would fire on its own when the action is applied, with its odds: the parting shots along a
path (the mover where it leaves each reach), reach weapons striking a figure that closes in, the
charged figure's answer (a set weapon, a reach weapon, the longer weapon striking first), a foe
that strikes an attacker first, a shot into a melee that may strike a friend, a near miss on a
rider that hits its mount, a trip or push over a drop and its fall, the morale check a felled foe
forces. Each uses the functions the resolver acts by (the same breakdowns, the same predicates),
so what is warned of is what happens. Nothing here changes the battle.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..combat.breakdown import AttackContext, Breakdown
from ..combat.dice import parse_dice
from ..combat.modifiers import attack_breakdown
from ..combat.morale import rout_chance
from ..combat.odds import d20_face, kept_faces
from ..mounts import rider_of
from ..values.numbers import percent
from .retreat import free_attack_chance


@dataclass(frozen=True)
class Foresight:
    """One rule an action would set off: who acts on whom, the chance it happens, in words."""
    kind: str                      # parting-shot, reach-attack, set-weapon, strikes-first, friendly-fire,
    #                                hits-mount, fall, morale
    rule: str                      # ruleset:section
    actor: str
    target: str
    chance: float                  # a blow: that it hits; a fall: that the manoeuvre succeeds; morale: a rout
    words: str
    square: tuple[int, int] | None = None
    breakdown: Breakdown | None = None
    first: bool = False            # it comes before the action's own blow

    def to_json(self) -> dict:
        out = {"kind": self.kind, "rule": self.rule, "actor": self.actor, "target": self.target,
               "chance": round(self.chance, 4), "words": self.words, "first": self.first}
        if self.square is not None:
            out["square"] = list(self.square)
        if self.breakdown is not None:
            odds = self.breakdown.odds()
            out["mean_damage"] = round(odds.mean_damage, 3)
        return out


def foresee(battle, action, plan, manoeuvre=None) -> tuple[Foresight, ...]:
    """The rules the checked `plan` of `action` would set off (its handler's plan; `manoeuvre`: the
    manoeuvre's odds, for a trip's or push's fall)."""
    from .handlers.attacking import AttackPlan
    from .handlers.charging import ChargePlan
    from .handlers.disengaging import DisengagePlan
    from .handlers.moving import MovePlan
    out: list[Foresight] = []
    if isinstance(plan, MovePlan) and not plan.declared and not plan.drags:
        out += _parting_shots(battle, plan.figure, plan.planned, None)
        out += _closing_reach(battle, plan.figure, plan.planned)
    elif isinstance(plan, DisengagePlan):
        allowed = set() if plan.style == "fighting" else None
        out += _parting_shots(battle, plan.figure, plan.planned, allowed)
    elif isinstance(plan, ChargePlan) and plan.planned is not None:
        out += _parting_shots(battle, battle.figures[plan.figure.id], plan.planned, None)
        out += _charge_answer(battle, plan)
    elif isinstance(plan, AttackPlan):
        out += _attack_warnings(battle, plan)
    if manoeuvre is not None and manoeuvre.allowed and manoeuvre.fall_ft:
        out.append(_fall(battle, action, manoeuvre))
    return tuple(out)


# ----- moving -----
def path_warnings(battle, mover, planned) -> tuple[Foresight, ...]:
    """Parting shots and closing reach strikes along a planned path, whoever's turn it is."""
    return tuple(_parting_shots(battle, mover, planned, None) + _closing_reach(battle, mover, planned))


def _parting_shots(battle, mover, planned, allowed: set | None) -> list[Foresight]:
    """Each parting shot the path draws (`allowed`: only these foes' shots are taken), the mover where it leaves."""
    from .strikes import free_attack_breakdown, may_free_attack
    path = planned.path
    aimed_at = rider_of(battle, mover.id) or mover.id
    out = []
    for shot in sorted(planned.parting_shots, key=lambda s: s.step_index):
        if allowed is not None and shot.attacker_id not in allowed:
            continue
        if not may_free_attack(battle, shot.attacker_id, aimed_at):
            continue
        step = path.steps[shot.step_index]
        nxt = path.steps[min(shot.step_index + 1, len(path.steps) - 1)]
        placed = battle.figures[mover.id].moved_to(step.x, step.y, nxt.facing, step.altitude_ft)
        view = battle.hypothetical(placed)
        bd = free_attack_breakdown(view, shot.attacker_id, aimed_at, parting=True)
        who, whom = battle.figures[shot.attacker_id].label, battle.figures[aimed_at].label
        comes = free_attack_chance(battle, mover.id, shot.attacker_id)     # odnd: the retreat roll decides
        when = "" if comes >= 1 else f" if its retreat roll reaches {whom}'s ({percent(comes)})"
        out.append(Foresight("parting-shot", shot.rule, shot.attacker_id, aimed_at, bd.chance() * comes,
                             f"{who} takes a parting shot as {whom} leaves {step.x},{step.y}{when}: {_blow(bd)}",
                             (step.x, step.y), bd, first=True))
    return out


def _closing_reach(battle, mover, planned) -> list[Foresight]:
    """bfrpg/ch17: reach weapons whose turn is to come strike the mover where it ends inside their reach."""
    from .walking import may_strike_closing_foe
    if not battle.ruleset.section("round")["reach_attacks_closing_foe"]:
        return []
    end = planned.path.end
    target_id = rider_of(battle, mover.id) or mover.id
    target = battle.figures[target_id]
    there = target.moved_to(end.x, end.y, end.facing, end.altitude_ft)
    view = battle.hypothetical(there)
    out = []
    rule = battle.ruleset.cite(battle.ruleset.section("round")["rule"])
    for foe in battle.figures.values():
        if foe.side == target.side or not may_strike_closing_foe(view, foe, there, target):
            continue
        bd = attack_breakdown(view, foe.id, target_id, AttackContext())
        out.append(Foresight("reach-attack", rule, foe.id, target_id, bd.chance(),
                             f"{foe.label}'s {foe.ready_weapon} reaches {there.label} as it closes to {end.x},{end.y} "
                             f"and strikes on its number: {_blow(bd)}", (end.x, end.y), bd, first=True))
    return out


# ----- charging -----
def _charge_answer(battle, plan) -> list[Foresight]:
    """The charged figure's answer at the lane's end: a set weapon, a reach weapon, the longer weapon first."""
    from .handlers.charging import charge_answer
    from .walking import strikes_first_why
    fig, target = plan.figure, plan.target
    end = plan.planned.path.end
    there = battle.figures[fig.id].moved_to(end.x, end.y, end.facing, end.altitude_ft)
    view = battle.hypothetical(there)
    kind, first = charge_answer(view, fig.id, target.id, battle.figures[fig.id])
    rs = battle.ruleset
    mods = rs.section("modifiers")
    if kind == "set":
        bd = attack_breakdown(view, target.id, fig.id, AttackContext(set_vs_charge=True, free_attack=True))
        when = "strikes first" if first else "strikes at the same moment"
        return [Foresight("set-weapon", rs.cite(mods["set_rule"]), target.id, fig.id, bd.chance(),
                          f"{target.label}'s set {target.ready_weapon} meets the charge and {when}: {_blow(bd)}"
                          + (f"; a hit that fells {fig.label} stops its charge attack" if first else ""),
                          (end.x, end.y), bd, first=first)]
    if kind == "reach":
        bd = attack_breakdown(view, target.id, fig.id, AttackContext())
        return [Foresight("reach-attack", rs.cite(rs.section("round")["rule"]), target.id, fig.id, bd.chance(),
                          f"{target.label}'s {target.ready_weapon} reaches the charging {fig.label} first: {_blow(bd)}",
                          (end.x, end.y), bd, first=True)]
    if kind == "first":
        bd = attack_breakdown(view, target.id, fig.id, AttackContext(surprise_round=battle.round == 1))
        why = strikes_first_why(view, fig.id, target.id)
        return [Foresight("strikes-first", rs.cite(rs.section("round")["rule"]), target.id, fig.id, bd.chance(),
                          f"first round of this melee: {why}, so it strikes first: {_blow(bd)}", (end.x, end.y), bd,
                          first=True)]
    return []


# ----- attacking -----
def _attack_warnings(battle, plan) -> list[Foresight]:
    from .strikes import IntoMeleeRisk, into_melee_risk
    from .walking import strikes_first_why
    fig, target, bd = plan.figure, plan.target, plan.breakdown
    rs = battle.ruleset
    out: list[Foresight] = []
    if bd.kind == "melee" and not rs.d100:
        why = strikes_first_why(battle, fig.id, target.id)
        if why:
            back = attack_breakdown(battle, target.id, fig.id, AttackContext(surprise_round=battle.round == 1))
            out.append(Foresight("strikes-first", rs.cite(rs.section("round")["rule"]), target.id, fig.id,
                                 back.chance(), f"first round of this melee: {why}, so it strikes first: {_blow(back)}",
                                 target.pos, back, first=True))
    if bd.kind == "ranged":
        risk: IntoMeleeRisk = into_melee_risk(battle, bd)
        for friend, p, _damage in risk.struck:
            if p > 0:
                out.append(Foresight("friendly-fire", risk.rule, fig.id, friend, p,
                                     f"the shot may strike {battle.figures[friend].label} in the melee instead: "
                                     f"{percent(p)}", battle.figures[friend].pos))
    out += _hits_mount(battle, bd)
    felled = bd.odds().p_hit * sum(q for v, q in bd.odds().damage if v >= _hp(battle, target.id))
    rout = rout_chance(battle, target.id) if felled else 0.0
    if rout:
        rule = rs.cite(rs.section("morale")["rule"])
        out.append(Foresight("morale", rule, target.id, target.side, felled * rout,
                             f"{percent(felled)} to fell {target.label}; then {target.side} checks morale: "
                             f"{percent(rout)} to break and flee", target.pos))
    return out


def _hp(battle, fid: str) -> int:
    st = battle.state_of(fid)
    return max(1, st.hp - st.subdual)


def _hits_mount(battle, bd: Breakdown) -> list[Foresight]:
    """bfrpg Mounted Combat: a miss on a rider by at most the margin whose total beats the mount's defence."""
    most = battle.ruleset.section("mounts")["miss_hits_mount"]
    rider = battle.figures[bd.target]
    if not most or not rider.mount or bd.resolution != "d20" or not battle.able(rider.mount):
        return []
    keys = {m.key for m in bd.attack_mods}
    mount = battle.figures[rider.mount]
    mbd = attack_breakdown(battle, bd.attacker, mount.id, AttackContext(
        weapon=bd.weapon, free_attack=True, charge="charge" in keys, set_vs_charge="set-vs-charge" in keys))
    p = sum(q for f, q in kept_faces(bd.advantage)
            if not d20_face(bd, f).hit and not d20_face(bd, f).natural
            and 0 < bd.defense_total - (f + bd.attack_total) <= most and f + bd.attack_total >= mbd.defense_total)
    if not p:
        return []
    rule = battle.ruleset.cite(battle.ruleset.section("mounts")["rule"])
    return [Foresight("hits-mount", rule, bd.attacker, mount.id, p,
                      f"a miss on {rider.label} by {most} or less that beats {mount.label}'s {mbd.defense_name} "
                      f"{mbd.defense_total} hits {mount.label} instead: {percent(p)}", mount.pos, mbd)]


# ----- falling -----
def _fall(battle, action, odds) -> Foresight:
    target = battle.figures[action.target]
    rule = battle.ruleset.cite(battle.ruleset.section("damage")["falling_rule"])
    dice = odds.fall_dice
    words = (f"if it works ({percent(odds.chance)}), {target.label} lands on {odds.to[0]},{odds.to[1]} and falls "
             f"{odds.fall_ft} ft: " + (f"{dice} damage" + (f", {percent(odds.fall_check)} a DEX check spares it"
                                                          if odds.fall_check else "") if dice else "no damage"))
    if dice:
        words += f" (about {sum(v * q for v, q in parse_dice(dice).totals()):.0f} on average)"
    return Foresight("fall", rule, action.figure, target.id, odds.chance, words, odds.to)


def _blow(bd: Breakdown) -> str:
    """A blow's odds in words: its chance and the damage of a hit."""
    if not bd.allowed:
        return f"no blow ({bd.reason})"
    odds = bd.odds()
    return f"{percent(odds.p_hit)} to hit, {odds.mean_damage:.1f} damage a hit ({bd.damage}) [{bd.rule}]"
