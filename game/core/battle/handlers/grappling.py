"""Grapple, Escape and Release: holds, by the mechanism the ruleset's [manoeuvres] section names
(bfrpg wrestling, odnd's hit-dice contest, cnc's special AC, ch17's touch attack and grapple checks).
A ruleset without one refuses the action and says so.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...values.actions import Escape, Grapple, Release
from ...combat import manoeuvres as rolls
from ...combat.reach import gap_ft
from ...values.events import Event, EventKind
from ...values.figure import Figure
from ...mounts import partner_of
from ...values.refusals import refuse
from ..budgets import require_turn
from ..holds import free_square_beside, release, square_free, take_hold
from ..rules_present import require_rule
from .attacking import require_attack_phase, require_can_attack

ADJACENT_FT = 5


@dataclass(frozen=True)
class GrapplePlan:
    figure: Figure
    target: Figure


@dataclass(frozen=True)
class EscapePlan:
    figure: Figure
    holder: Figure
    to: tuple[int, int] | None     # where it steps if it breaks free (None: it stays where it is)


@dataclass(frozen=True)
class ReleasePlan:
    figure: Figure
    held: Figure


def manoeuvre_rules(battle) -> dict:
    return battle.ruleset.section("manoeuvres")


def require_mechanism(battle, action) -> str:
    """The mechanism the ruleset uses for this manoeuvre, or a refusal saying its document has none."""
    require_rule(battle.ruleset, action)
    return manoeuvre_rules(battle)[action.kind]


def require_foe_beside(battle, action, what: str) -> tuple[Figure, Figure]:
    """The acting figure and its target: its turn, a foe still in the fight, within 5 ft, an attack left."""
    fig = require_turn(battle, action.figure)
    target = battle.figure(action.target)
    if battle.state.phase == "declare":
        refuse("declare.only-declarations", what=plural(what))
    if target.side == fig.side:
        refuse("attack.own-side", who=fig.label, target=target.label)
    if not battle.able(target.id):
        refuse("attack.target-down", target=target.label)
    require_can_attack(battle, fig, target.id)
    require_attack_phase(battle, "melee")
    if any(partner_of(battle, f.id) for f in (fig, target)):     # no document has manoeuvres by or on riders
        refuse("mount.pair", what=what.capitalize() + " by or against")
    gap = gap_ft(battle, fig, target)
    if gap > ADJACENT_FT:
        refuse("manoeuvre.not-beside", who=fig.label, target=target.label, what=what, gap_ft=gap)
    return fig, target


def plural(word: str) -> str:
    """grapple -> grapples, push -> pushes (the manoeuvres' names in a refusal's words)."""
    return word + ("es" if word.endswith(("sh", "ch", "s", "x")) else "s")


def spend_attack(battle, fid: str, target_id: str) -> None:
    """A manoeuvre takes one of the figure's attacks, and opens a fight between the two."""
    st = battle.state_of(fid)
    st.attacks_made += 1
    st.attacked = True
    battle.state.fought.add(tuple(sorted((fid, target_id))))
    if battle.ruleset.d100:
        battle.state.done.add(fid)


# ----- grapple -----
def check_grapple(battle, action: Grapple) -> GrapplePlan:
    require_mechanism(battle, action)
    fig, target = require_foe_beside(battle, action, "grapple")
    st = battle.state_of(fig.id)
    if st.holding:
        refuse("grapple.already-holding", who=fig.label, held=battle.figures[st.holding].label)
    if fig.id in battle.state_of(target.id).held_by:
        refuse("grapple.already-holding", who=fig.label, held=target.label)
    most = manoeuvre_rules(battle)["max_holders"]
    if most:
        weight = sum(holder_weight(battle, h, target.id) for h in battle.state_of(target.id).held_by)
        if weight + holder_weight(battle, fig.id, target.id) > most:
            refuse("grapple.too-many", target=target.label, most=most, weight=weight,
                   rule=battle.ruleset.cite(manoeuvre_rules(battle)["grapple_rule"]))
    return GrapplePlan(fig, target)


def holder_weight(battle, holder_id: str, held_id: str) -> float:
    """How much of the limit a holder takes: a smaller one half, a larger one double (bfrpg multiple-opponents)."""
    gap = rolls.size_gap(battle, held_id, holder_id)
    return 0.5 if gap < 0 else 2.0 if gap > 0 else 1.0


def apply_grapple(battle, plan: GrapplePlan) -> list[Event]:
    rules = manoeuvre_rules(battle)
    rs = battle.ruleset
    how = rules["grapple"]
    rule = rs.cite(rules["grapple_rule"])
    fig, target = plan.figure, plan.target
    spend_attack(battle, fig.id, target.id)
    first = rolls.grapple_target(battle, how, fig.id, target.id).roll(battle.rng, "grapple")
    words = [first.words]
    all_rolls = list(first.rolls)
    outcome = "miss"
    extra: list[Event] = []
    if first.success:
        outcome = "held"
        if how == "touch-opposed":
            kept = rolls.opposed_checks(battle, fig.id, target.id)
            all_rolls += kept.rolls
            words.append(kept.words)
            if not kept.success:
                outcome = "broken"
        if outcome == "held":
            take_hold(battle, fig.id, target.id)
            if how == "hd-contest":
                contest = rolls.hd_contest(battle, battle.state_of(target.id).held_by, target.id)
                all_rolls += contest.rolls
                words.append(contest.words)
                outcome = contest.outcome
                extra = settle_contest(battle, target.id, contest, rule)
            else:
                words.append(f"{target.label} is held" + (f"; {fig.label} moves into its square" if rules["enters_square"] else ""))
    text = f"{fig.label} tries to grapple {target.label}: " + "; ".join(words) + f"{rs.choice_words(rule)} ({rule})"
    event = Event(kind=EventKind.GRAPPLE, rule=rule, actor=fig.id, target=target.id, rolls=tuple(all_rolls),
                  total=first.total, target_number=first.target_number, outcome=outcome, text=text,
                  squares=(fig.pos, target.pos), data={"mechanism": how})
    return [event] + extra


def settle_contest(battle, victim_id: str, contest, rule: str) -> list[Event]:
    """odnd: pinned, struggling, or the grapplers thrown off and stunned for the margin in rounds."""
    st = battle.state_of(victim_id)
    st.conditions.pop("pinned", None)
    st.conditions.pop("struggling", None)
    if contest.outcome in ("pinned", "struggling"):
        st.conditions[contest.outcome] = 0
        return []
    events: list[Event] = []
    until = battle.round + contest.margin
    for gid in list(st.held_by):
        release(battle, gid)
        gst = battle.state_of(gid)
        gst.thrown_off_until = until
        gst.conditions["stunned"] = until
        events.append(Event(kind=EventKind.STUNNED, rule=rule, actor=victim_id, target=gid, outcome="stunned",
                            text=f"{battle.figures[gid].label} is thrown off and stunned for {contest.margin} round(s): "
                                 f"no action until round {until + 1} ({rule})",
                            data={"rounds": contest.margin, "until_round": until}))
    return events


# ----- escape -----
def check_escape(battle, action: Escape) -> EscapePlan:
    how = require_mechanism(battle, action)
    fig = require_turn(battle, action.figure)
    st = battle.state_of(fig.id)
    if not st.held_by:
        refuse("grapple.not-held", who=fig.label)
    if battle.state.phase == "declare":
        refuse("declare.only-declarations", what="escapes")
    if st.attacked:
        refuse("grapple.escape-after-attack", who=fig.label)
    holder = battle.figures[st.held_by[0]]
    to = None
    if how == "save" or manoeuvre_rules(battle)["enters_square"]:
        if action.to is not None:
            to = tuple(action.to)
            if max(abs(to[0] - holder.x), abs(to[1] - holder.y)) != 1 or not square_free(battle, to, (fig.id,)):
                refuse("grapple.escape-square", who=fig.label, holder=holder.label, x=to[0], y=to[1])
        else:
            to = free_square_beside(battle, holder.pos, ignore=(fig.id,))
    return EscapePlan(fig, holder, to)


def apply_escape(battle, plan: EscapePlan) -> list[Event]:
    rules = manoeuvre_rules(battle)
    rs = battle.ruleset
    how = rules["escape"]
    rule = rs.cite(rules["escape_rule"])
    fig, holder = plan.figure, plan.holder
    st = battle.state_of(fig.id)
    st.attacks_made += 1
    st.attacked = True
    extra: list[Event] = []
    one_roll = rolls.escape_target(battle, how, fig.id, holder.id)
    if one_roll is not None:
        contest = one_roll.roll(battle.rng, "save vs death ray" if how == "save" else "its own grapple")
        free = contest.success
    elif how == "grapple-check":
        kept = rolls.opposed_checks(battle, holder.id, fig.id)
        contest, free = kept, not kept.success
    else:  # contest: the hit-dice contest again
        contest = rolls.hd_contest(battle, list(st.held_by), fig.id)
        free = contest.outcome == "thrown-off"
        extra = settle_contest(battle, fig.id, contest, rule)
    words = contest.words
    if free and how != "contest":
        release(battle, holder.id)
        if plan.to is not None:
            battle.set_figure(battle.figures[fig.id].moved_to(plan.to[0], plan.to[1], battle.figures[fig.id].facing))
            battle.figures_moved()
            words += f"; it breaks free and steps to {plan.to[0]},{plan.to[1]}"
        else:
            words += "; it breaks free"
    elif not free:
        words += f"; {holder.label} keeps its hold"
    if rs.d100:
        battle.state.done.add(fig.id)
    text = f"{fig.label} tries to escape {holder.label}'s hold: {words}{rs.choice_words(rule)} ({rule})"
    event = Event(kind=EventKind.ESCAPE, rule=rule, actor=fig.id, target=holder.id, rolls=tuple(contest.rolls),
                  total=contest.total, target_number=contest.target_number, outcome="free" if free else "held",
                  text=text, squares=(battle.figures[fig.id].pos, holder.pos), data={"mechanism": how})
    return [event] + extra


# ----- release -----
def check_release(battle, action: Release) -> ReleasePlan:
    fig = require_turn(battle, action.figure)
    st = battle.state_of(fig.id)
    if not st.holding:
        refuse("grapple.not-holding", who=fig.label)
    return ReleasePlan(fig, battle.figures[st.holding])


def apply_release(battle, plan: ReleasePlan) -> list[Event]:
    rules = manoeuvre_rules(battle)
    rule = battle.ruleset.cite(rules["grapple_rule"])
    release(battle, plan.figure.id)
    return [Event(kind=EventKind.RELEASE, rule=rule, actor=plan.figure.id, target=plan.held.id, outcome="released",
                  text=f"{plan.figure.label} lets go of {plan.held.label} ({rule})",
                  squares=(battle.figures[plan.figure.id].pos, plan.held.pos))]
