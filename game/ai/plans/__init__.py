"""Every plan a figure might follow this turn, each scored: `generate(ctx, threats)`.

| plan | when |
| --- | --- |
| attack from here (each weapon) | a foe is in reach or range |
| move, then attack | squares within the move-and-attack allowance from which it strikes a foe |
| charge | the resolver previews a legal charge |
| set weapon against a charge | its weapon can be set and a foe has a charge lane onto it |
| hold its action until a foe has acted (hard) | a foe still to act this round may come into its reach |
| defend (each style of the ruleset) | it is engaged |
| fighting withdrawal / disengage | it is engaged |
| approach or reposition | it can move |
| turn to face, or turn first and then move | it may still turn freely |
| stand up | it is prone and the ruleset lets it get up now |
| announce a charge, a disengagement or a defence | a declaration step of announcements (cnc) |
| flee | morale has broken |
| end the turn | always |
"""
from __future__ import annotations

from ...core.values.actions import EndTurn, Turn
from ...core.values.geometry import FACINGS, SQUARE_FT, bearing_octant
from ..context import Context
from ..decision import Plan
from ..threat import Threats, add_exposure
from .attack import attack_here_plans, charge_plans, move_attack_plans
from .manoeuvre import manoeuvre_plans
from .movement import approach_plans, flee_plans, withdraw_plans
from .stance import defend_plans, hold_for_plans, hold_plan, set_plans, stand_plans, turn_plans

ISOLATION = 1.0           # a round more of the foes' blows on a figure no friend can join in time


def generate(ctx: Context, threats: Threats) -> list[Plan]:
    me = ctx.me
    hold = hold_plan(ctx, threats)
    out = [hold]
    if not ctx.enemies:
        return out
    if ctx.routed:
        return out + flee_plans(ctx, threats)
    out += stand_plans(ctx, threats, hold)
    if ctx.announcing:
        return out + announcement_plans(ctx, threats, hold)
    out += manoeuvre_plans(ctx, threats)
    if ctx.can_attack or ctx.declaring:
        out += attack_here_plans(ctx, threats)
        if not ctx.acted and not ctx.declaring and ctx.phase != "missile":
            out += charge_plans(ctx, threats)
    if not ctx.acted:
        out += set_plans(ctx, threats, hold)
        out += defend_plans(ctx, threats, hold)
        out += hold_for_plans(ctx, threats, hold)
    if ctx.can_move:
        if ctx.can_attack or ctx.declaring:
            out += move_attack_plans(ctx, threats)
        out += withdraw_plans(ctx, threats)
        out += approach_plans(ctx, threats)
    if not ctx.declaring and (ctx.moved == 0 or me.turning_ft == 0):
        out += turn_plans(ctx, threats)
    if ctx.can_move and me.turning_ft > 0 and ctx.moved == 0 and not ctx.acted and me.flyer == "none" \
            and ctx.rs.section("facing")["stationary_turns_free"]:
        out += turn_then_plans(ctx, threats)
    if ctx.level.foresight:
        for plan in out:
            isolation(ctx, plan)
    return out


def announcement_plans(ctx: Context, threats: Threats, hold: Plan) -> list[Plan]:
    """A declaration step of announcements only (cnc): charge, disengage or defend now, or nothing.
    What it gives up by announcing is its turn to come: announcing nothing, or a defence that still
    allows an attack, keeps the best blow it could strike on its number (asked of a context where
    it starts its turn), which a dodge, an evasion or a disengagement gives up."""
    hold.label = "announce nothing"
    out: list[Plan] = []
    if "charge" in ctx.declares:
        out += charge_plans(ctx, threats, announce=True)
    defences = defend_plans(ctx, threats, hold) if "defend" in ctx.declares else []
    out += defences
    if "disengage" in ctx.declares and ctx.can_move:
        out += withdraw_plans(ctx, threats)
    blow = later_blow(ctx)
    if blow is not None:
        gain, label = blow
        for plan in [hold] + [d for d in defences if EndTurn(figure=ctx.me.id) not in d.actions]:
            plan.add(f"free to strike on its number ({label})", gain)
    return out


def later_blow(ctx: Context) -> tuple[float, str] | None:
    """(what its best blow on its own turn this round adds over standing still, that blow), or None."""
    key = ("later blow", ctx.me.id)
    if key not in ctx.cache:
        later = Context(ctx.level, ctx.battle, ctx.me.id, ctx.rng, ctx.memo, fresh_turn=True)
        sub = Threats(later)
        still = hold_plan(later, sub)
        blows = attack_here_plans(later, sub) + move_attack_plans(later, sub)
        best = max(blows, key=lambda p: (p.score, p.label), default=None)
        ctx.cache[key] = (best.score - still.score, best.label) if best and best.score > still.score else None
    return ctx.cache[key]


def turn_then_plans(ctx: Context, threats: Threats) -> list[Plan]:
    """A figure with a turning distance turns freely before it moves: plans that start with a turn."""
    me = ctx.me
    wanted: list[int] = []
    for e in ctx.ranked_targets()[:2]:
        b = bearing_octant(me.pos, e.pos)
        for f in (b, (b + 1) % 8, (b + 7) % 8):
            if f != me.facing and f not in wanted:
                wanted.append(f)
    out = []
    for f in wanted[: ctx.level.turn_facings]:
        turned = ctx.with_facing(f)
        turn = Turn(figure=me.id, facing=FACINGS[f])
        sub = Threats(turned)
        for plan in move_attack_plans(turned, sub) + charge_plans(turned, sub) + approach_plans(turned, sub):
            plan.actions = (turn,) + tuple(plan.actions)
            plan.label = f"turn {FACINGS[f]}, then {plan.label}"
            plan.kind = "turn-" + plan.kind
            out.append(plan)
    return out


def isolation(ctx: Context, plan: Plan) -> None:
    """Alone where two or more foes reach it, with no friend able to come beside it before they
    strike again: the foes' blows fall on it a round more (exposure counts only the round to come)."""
    if plan.end is None or plan.data.get("isolation_weighed"):
        return
    plan.data["isolation_weighed"] = True
    parts = [p for p in plan.data.get("exposure_parts", ()) if p[1] > 0.05]
    if len(parts) < 2:
        return
    sq = plan.end[:2]
    for a in ctx.allies:
        if ctx.flat(a.pos, sq) <= ctx.strike_budget(a) + 2 * SQUARE_FT:
            return                       # a friend can stand beside it by the time the foes strike again
    v = sum(p[1] for p in parts) * ISOLATION
    plan.add(f"alone against {len(parts)} foes: no friend near to share the blows", -v)


def rescore_exactly(ctx: Context, threats: Threats, plans: list[Plan], sight_squares: int = 3) -> None:
    """Replace the quick exposure of these plans with the exact one (every blow and shot the foes
    could make at the square the plan ends on, the resolver's odds from where they would make it).
    Archers' sight lines are drawn to the first `sight_squares` squares only."""
    squares = ctx.cache.setdefault("sight squares", [])
    for plan in plans:
        plan.data["exact"] = True
        if plan.end is None or plan.kind in ("defend",) or "exposure" not in plan.data:
            continue
        if plan.end[:2] not in squares and len(squares) < sight_squares:
            squares.append(plan.end[:2])
        exclude = {plan.data["target"]: plan.data.get("p_kill", 0.0)} if "target" in plan.data else None
        v, parts = threats.exposure(plan.end, exact=True, exclude=exclude, set_spear=plan.kind == "set",
                                    sight_lines=plan.end[:2] in squares)
        delta = plan.data["exposure"] - v
        if abs(delta) > 0.005:
            plan.add("foes' blows where it ends, exactly", delta)
        plan.data["exposure"] = v
        plan.data["exposure_parts"] = parts


__all__ = ["generate", "rescore_exactly", "add_exposure"]
