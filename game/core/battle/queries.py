"""Questions about what a figure may do, answered with the handlers' own checks (so the answer is
exactly what `apply` would do): each kind of action allowed or why not, what one action would
do, and the list of actions the AI chooses from. Nothing here changes the battle."""
from __future__ import annotations

from dataclasses import replace

from ..values.actions import Action, Aim, Attack, Charge, Defend, Disengage, Dismount, EndTurn, Escape, Grapple, Hold, Mount, Move, Overbear, Push, Release, SetAgainstCharge, Stand, Trip
from ..combat.reach import fighting, gap_ft, weapon_data
from ..values.errors import RulesError
from ..values.modes import MOVE_MODES
from ..values.refusals import ActionRefused, Refusal, refuse
from .budgets import move_allowed_after_attack, require_turn
from .handlers.attacking import AttackPlan, require_attack_phase, require_can_attack
from .handlers.charging import ChargePlan
from .handlers.disengaging import require_can_disengage
from .limits import move_limit, movement_left
from .foresight import foresee
from .preview import Preview
from .manoeuvre_menu import manoeuvre_actions
from .manoeuvre_odds import explain_plan
from .riding import require_not_ridden

# The kinds of action a figure takes on its turn, in the order the window and the CLI list them.
ACTION_KINDS = ("move", "turn", "attack", "charge", "set", "aim", "defend", "disengage", "hold", "stand", "grapple",
                "trip", "push", "overbear", "escape", "release", "mount", "dismount", "end-turn")


def preview(battle, action: Action) -> Preview:
    try:
        plan = battle._plan(action)
    except ActionRefused as refused:
        return Preview(action, refused.refusal)
    planned = getattr(plan, "planned", None)
    breakdown = None
    if isinstance(plan, AttackPlan):
        breakdown = plan.breakdown
    elif isinstance(plan, ChargePlan) and plan.planned is not None:   # an announced charge has no path yet
        end = plan.planned.path.end
        breakdown = battle.explain_attack(plan.figure.id, plan.target.id, at=(end.x, end.y), facing=end.facing,
                                          charge=True, surprise_round=battle.round == 1)
    manoeuvre = explain_plan(battle, plan, action)
    return Preview(action, None, planned, breakdown, manoeuvre, foresee(battle, action, plan, manoeuvre))


# ----- each kind of action: allowed, or why not -----
def options(battle, figure_id: str) -> dict[str, Refusal | None]:
    fig = battle.figure(figure_id)
    out: dict[str, Refusal | None] = {}
    for kind in ACTION_KINDS:
        try:
            out[kind] = _PROBES[kind](battle, fig)
        except ActionRefused as refused:
            out[kind] = refused.refusal
    return out


def _foes_nearest_first(battle, fig) -> list:
    foes = [f for f in battle.figures.values() if f.side != fig.side and battle.able(f.id)]
    return sorted(foes, key=lambda f: (gap_ft(battle, fig, f), f.id))


def _first_allowed(battle, actions: list[Action], if_none: Refusal) -> Refusal | None:
    """None when any of the actions is allowed; else the first one's refusal (the nearest foe's),
    or `if_none` when there is no action to try."""
    first = None
    for action in actions:
        refusal = battle.check(action)
        if refusal is None:
            return None
        first = first or refusal
    return first or if_none


def _probe_move(battle, fig) -> Refusal | None:
    """A walk: allowed when `check` would take some walk now (the limits' answer)."""
    require_turn(battle, fig.id)
    limit = move_limit(battle, fig.id, "walk")
    if limit.refusal is not None:
        return limit.refusal
    if limit.left_ft <= 0:
        refuse("move.none-left", who=fig.label, moved_ft=limit.moved_ft)
    return None


def _probe_turn(battle, fig) -> Refusal | None:
    require_turn(battle, fig.id)
    require_not_ridden(battle, fig, "turn")
    if battle.ruleset.d100 and battle.state.phase != "declare":
        refuse("turn.declared-with-move")
    return None


def _probe_attack(battle, fig) -> Refusal | None:
    require_turn(battle, fig.id)
    require_can_attack(battle, fig)
    require_attack_phase(battle)
    foes = _foes_nearest_first(battle, fig)
    return _first_allowed(battle, [Attack(fig.id, target=f.id, weapon=w) for f in foes
                                   for w in dict.fromkeys(fig.weapons)], Refusal.of("attack.no-foe", who=fig.label))


def _probe_charge(battle, fig) -> Refusal | None:
    foes = _foes_nearest_first(battle, fig)
    if not foes:
        require_turn(battle, fig.id)
    return _first_allowed(battle, [Charge(fig.id, target=f.id) for f in foes], Refusal.of("attack.no-foe", who=fig.label))


def _probe_set(battle, fig) -> Refusal | None:
    return battle.check(SetAgainstCharge(fig.id))


def _probe_aim(battle, fig) -> Refusal | None:
    foes = _foes_nearest_first(battle, fig)
    return _first_allowed(battle, [Aim(fig.id, target=f.id) for f in foes] or [Aim(fig.id)],
                          Refusal.of("attack.no-foe", who=fig.label))


def _probe_defend(battle, fig) -> Refusal | None:
    return _first_allowed(battle, _defend_actions(battle, fig.id), Refusal.of("defend.none", ruleset=battle.ruleset.name))


def _probe_disengage(battle, fig) -> Refusal | None:
    require_turn(battle, fig.id)
    styles = battle.ruleset.section("disengage")["styles"]
    if not styles:
        refuse("disengage.none", ruleset=battle.ruleset.name)
    require_can_disengage(battle, fig, styles[0])
    return None


def _probe_manoeuvre(kind: str):
    """grapple, trip (where it stands), push (to a square beside the foe), overbear: against any foe."""
    def probe(battle, fig) -> Refusal | None:
        foes = _foes_nearest_first(battle, fig)
        if kind == "push":
            actions = [Push(fig.id, target=f.id, to=(f.x + dx, f.y + dy)) for f in foes[:4]
                       for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
        else:
            cls = {"grapple": Grapple, "trip": Trip, "overbear": Overbear}[kind]
            actions = [cls(fig.id, target=f.id) for f in foes]
        return _first_allowed(battle, actions, Refusal.of("attack.no-foe", who=fig.label))
    return probe


_PROBES = {
    "move": _probe_move, "turn": _probe_turn, "attack": _probe_attack, "charge": _probe_charge, "set": _probe_set,
    "aim": _probe_aim, "defend": _probe_defend, "disengage": _probe_disengage,
    "hold": lambda battle, fig: battle.check(Hold(fig.id)),
    "stand": lambda battle, fig: battle.check(Stand(fig.id)),
    "end-turn": lambda battle, fig: battle.check(EndTurn(fig.id)),
    "grapple": _probe_manoeuvre("grapple"), "trip": _probe_manoeuvre("trip"), "push": _probe_manoeuvre("push"),
    "overbear": _probe_manoeuvre("overbear"),
    "escape": lambda battle, fig: battle.check(Escape(fig.id)),
    "release": lambda battle, fig: battle.check(Release(fig.id)),
    "mount": lambda battle, fig: _probe_mount(battle, fig),
    "dismount": lambda battle, fig: battle.check(Dismount(fig.id)),
}


def _probe_mount(battle, fig) -> Refusal | None:
    """Any figure of its side it could ride, nearest first."""
    mounts = sorted((f for f in battle.figures.values() if f.side == fig.side and f.id != fig.id and battle.able(f.id)),
                    key=lambda f: (gap_ft(battle, fig, f), f.id))
    return _first_allowed(battle, [Mount(fig.id, mount=f.id) for f in mounts[:4]],
                          Refusal.of("mount.cannot", who=fig.label, mount="anything", why="no figure of its side to ride"))


def _defend_actions(battle, figure_id: str) -> list[Action]:
    out: list[Action] = []
    for d in battle.ruleset.data["defenses"]:
        if d["formula"] == "trade":
            rank = battle.profile(figure_id)["weapon_rank"]
            if rank:
                out.append(Defend(figure_id, style=d["style"], amount=rank * 5))
        else:
            out.append(Defend(figure_id, style=d["style"]))
    return out


# ----- the AI's menu -----
def legal_actions(battle, figure_id: str) -> list[Action]:
    """A reasonable list of what the figure may do now; every entry passes check() (moves are the
    squares `reachable` gives in each mode)."""
    if battle.current != figure_id:
        return []
    fig = battle.figures[figure_id]
    rs = battle.ruleset
    s = battle.state
    candidates: list[Action] = []
    foes = [f for f in battle.figures.values() if f.side != fig.side and battle.able(f.id)]
    positioning = battle.positioning()
    if s.phase == "act":
        for foe in foes:
            for weapon in dict.fromkeys(fig.weapons):
                candidates.append(Attack(figure_id, target=foe.id, weapon=weapon))
        if rs.section("charge")["allowed"]:
            for foe in foes:
                if positioning.charge_lane(figure_id, foe.id).legal:
                    candidates.append(Charge(figure_id, target=foe.id))
        if weapon_data(battle, fig.ready_weapon)["set"]:
            candidates.append(SetAgainstCharge(figure_id))
        if rs.section("modifiers")["aim_bonus"] and weapon_data(battle, fig.ready_weapon)["ranged"]:
            for foe in foes:
                candidates.append(Aim(figure_id, target=foe.id))
        if fighting(battle, fig):
            for style in rs.section("disengage")["styles"]:
                mode = "withdraw" if style == "fighting" else "run" if style == "hasty" else "walk"
                try:
                    reach = positioning.reach(figure_id, mode)
                except RulesError:
                    reach = {}
                far = sorted((sq for sq, e in reach.items() if e.can_end and sq != fig.pos),
                             key=lambda sq: -min(gap_ft(battle, _ended(fig, sq, reach[sq]), f) for f in foes))[:3]
                for sq in far:
                    candidates.append(Disengage(figure_id, to=sq, style=style))
        candidates.extend(manoeuvre_actions(battle, fig, foes))
    candidates.extend(_defend_actions(battle, figure_id))
    candidates.append(Stand(figure_id))
    candidates.extend((Escape(figure_id), Release(figure_id)))
    out = [a for a in candidates if battle.check(a) is None]
    if s.phase == "declare" or movement_left(battle, figure_id) > 0:
        if _may_move(battle, figure_id):
            for mode in MOVE_MODES:
                reach = battle.reachable(figure_id, mode)
                out.extend(Move(figure_id, to=sq, mode=mode) for sq in sorted(reach.ends) if sq != fig.pos)
    if s.phase == "act" and not rs.d100 and battle.check(Hold(figure_id)) is None:
        out.append(Hold(figure_id))
    out.append(EndTurn(figure_id))
    return out


def _ended(fig, sq, entry):
    """fig where a move to sq ends, facing a way its body fits there."""
    return replace(fig, x=sq[0], y=sq[1], facing=entry.end_facing(fig.facing))


def _may_move(battle, figure_id: str) -> bool:
    if figure_id in battle.state.riders:       # a ridden mount moves only as its rider guides it
        return False
    s = battle.state
    if s.phase == "declare":
        return figure_id not in s.move_orders
    return move_allowed_after_attack(battle, figure_id)


__all__ = ["ACTION_KINDS", "Preview", "preview", "options", "legal_actions", "manoeuvre_actions"]
