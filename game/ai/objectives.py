"""The AI plays for the scenario's objectives: `weigh_objectives(ctx, threats, plans)` adds to each
plan what it does for its side's objectives and against the foes' (named reasons, in the plans'
scale of hit points gained), and offers moves toward the squares that matter: the exit to run for,
the ground to hold or to contest.

It reads where each objective stands from the resolver (`battle.objectives()`: state, progress,
the squares), where the figure may go from the resolver's search (the same `ctx.search` the other
plans use) and how exposed a square is from the threats the other plans weigh; it works no rule
out itself.
"""
from __future__ import annotations

from math import ceil

from ..core.values.actions import EndTurn, Move
from ..core.values.geometry import FACINGS
from .context import Context
from .decision import Plan
from .threat import Threats, add_exposure

WIN = 8.0             # a decisive objective achieved: about the worth of the battle
POINT = 1.5           # one victory point
PULL = 0.3            # per square closer to the squares it plays for
CAUTION = 0.6         # share of its exposure a figure whose life is an objective weighs again
OBJECTIVE_PLANS = 2   # moves toward objective squares offered per mode


def _worth(o) -> float:
    return WIN if o.decisive else POINT * o.points


def weigh_objectives(ctx: Context, threats: Threats, plans: list[Plan]) -> list[Plan]:
    """Score `plans` for the open objectives and return the objective moves to add to them."""
    if not ctx.battle.setup.objectives.items or ctx.routed:
        return []
    open_goals = [p for p in ctx.battle.objectives() if p.state == "open"]
    if not open_goals:
        return []
    me = ctx.me
    extra = _objective_moves(ctx, threats, open_goals)
    for plan in plans + extra:
        for prog in open_goals:
            o = prog.objective
            mine = o.side == me.side
            if o.kind in ("hold", "reach") and plan.end is not None:
                _ground(ctx, plan, prog, mine)
            elif o.kind in ("fell", "protect"):
                _figure(ctx, plan, prog, mine)
            elif o.kind == "survive" and mine:
                _careful(plan, CAUTION * 0.5, "its side must see the rounds out")
    return extra


def _squares(prog) -> list:
    return list(prog.objective.squares)


def _nearest(ctx: Context, pos, squares) -> tuple[float, tuple]:
    return min(((ctx.flat(pos, sq), sq) for sq in squares), default=(0.0, pos))


def _rounds_away(ctx: Context, ft: float) -> int:
    per_round = max(ctx.me.move_ft, ctx.mode_budget("run") if ctx.mode_ok("run") else 0, 5)
    return max(1, ceil(ft / per_round))


def _foe_first(ctx: Context, sq) -> bool:
    """Can a foe strike at that square before it gets there (its move and reach)?"""
    return any(ctx.flat(e.pos, sq) <= ctx.strike_budget(e) + ctx.reach_ft(e) for e in ctx.enemies)


def _ground(ctx: Context, plan: Plan, prog, mine: bool) -> None:
    o = prog.objective
    squares = _squares(prog)
    me = ctx.me
    end = plan.end[:2]
    now_ft, _ = _nearest(ctx, me.pos, squares)
    end_ft, goal = _nearest(ctx, end, squares)
    worth = _worth(o)
    if o.kind == "reach":
        if not mine:
            _block(ctx, plan, prog, worth)
            return
        if o.figure and o.figure != me.id:
            return
        share = worth / max(1, prog.needed - prog.progress)
        if end in o.squares:
            plan.add(f"reaches {_name(o)}: {prog.progress + 1} of {prog.needed} through", share)
        elif end_ft < now_ft:
            first = "a foe can strike there first" if _foe_first(ctx, goal) else "no foe can reach it first"
            plan.add(f"runs for {_name(o)}: {_rounds_away(ctx, end_ft)} round(s) away, {first}",
                     min(share * 0.5, PULL * (now_ft - end_ft) / 5))
        return
    # hold: be on the ground (ours) or contest it (theirs)
    on = end in o.squares
    holders = [f for f in (ctx.allies if mine else ctx.enemies) if f.pos in o.squares]
    if mine:
        per_round = worth / max(1, o.rounds - prog.progress)
        if on:
            plan.add(f"holds {_name(o)}: {prog.progress} of {o.rounds} rounds so far", min(worth, per_round))
        elif not holders and end_ft < now_ft:
            plan.add(f"heads for {_name(o)}: {_rounds_away(ctx, end_ft)} round(s) away", PULL * (now_ft - end_ft) / 5)
        elif me.pos in o.squares:
            plan.add(f"leaves {_name(o)}", -min(worth, per_round) * 0.5)
        return
    urgency = worth * (0.4 + 0.6 * prog.progress / max(1, o.rounds))
    if on:
        plan.add(f"contests the foes' hold on {_name(o)} ({prog.progress} of {o.rounds} rounds)", urgency * 0.6)
    elif holders and end_ft < now_ft:
        plan.add(f"closes on {_name(o)}, which the foes hold", PULL * (now_ft - end_ft) / 5)
    target = plan.data.get("target")
    if target and any(f.id == target for f in holders):
        plan.add("strikes a foe holding the ground", urgency * 0.4 * plan.data.get("p_hit", 0.5))


def _block(ctx: Context, plan: Plan, prog, worth: float) -> None:
    """Against a foe running for an exit: strike the runners nearest it, stand in their way."""
    o = prog.objective
    squares = _squares(prog)
    runners = [e for e in ctx.enemies if not o.figure or e.id == o.figure]
    if not runners:
        return
    target = plan.data.get("target")
    far = max(ctx.battle.map.width, ctx.battle.map.height) * 5
    if target:
        runner = next((e for e in runners if e.id == target), None)
        if runner is not None:
            left_ft, _ = _nearest(ctx, runner.pos, squares)
            close = max(0.0, 1 - left_ft / far)
            plan.add(f"stops {runner.label} short of {_name(o)}", worth * 0.25 * close * plan.data.get("p_kill", 0.3)
                     + worth * 0.1 * close * plan.data.get("p_hit", 0.0))
    lead = min((_nearest(ctx, e.pos, squares)[0] for e in runners), default=far)
    end_ft, _ = _nearest(ctx, plan.end[:2], squares)
    if end_ft < lead and lead < far / 2:
        plan.add(f"stands between the foes and {_name(o)}", worth * 0.05)


def _figure(ctx: Context, plan: Plan, prog, mine: bool) -> None:
    o = prog.objective
    target = plan.data.get("target")
    worth = _worth(o)
    if o.kind == "fell" and mine or o.kind == "protect" and not mine:
        if target == o.figure:
            plan.add(f"strikes at {_label(ctx, o.figure)}, the objective", worth * 0.5 * plan.data.get("p_kill", 0.0)
                     + worth * 0.05 * plan.data.get("p_hit", 0.0))
        return
    if ctx.me.id == o.figure:      # its own life is the objective (theirs to take, ours to keep)
        _careful(plan, CAUTION, "its life is an objective")


def _careful(plan: Plan, share: float, why: str) -> None:
    exposure = plan.data.get("exposure", 0.0)
    if exposure:
        plan.add(f"careful: {why}", -share * exposure)


def _name(o) -> str:
    return o.label or {"reach": "the exit", "hold": "the ground"}.get(o.kind, o.kind)


def _label(ctx: Context, fid: str) -> str:
    fig = ctx.battle.figures.get(fid)
    return fig.label if fig is not None else fid


def _objective_moves(ctx: Context, threats: Threats, open_goals) -> list[Plan]:
    """Moves to the reachable squares nearest the squares its side plays for (an exit, ground to
    hold) or must contest (ground the foes hold), each priced for the blows it walks into."""
    if not ctx.can_move or ctx.announcing:
        return []
    me = ctx.me
    wanted = []
    for prog in open_goals:
        o = prog.objective
        if o.kind == "reach" and o.side == me.side and (not o.figure or o.figure == me.id):
            wanted.append(prog)
        elif o.kind == "hold" and (o.side == me.side or prog.progress or any(e.pos in o.squares for e in ctx.enemies)):
            wanted.append(prog)
    if not wanted:
        return []
    out: list[Plan] = []
    modes = ["walk"] + (["run"] if ctx.mode_ok("run") and not ctx.walk_only else [])
    for mode in modes:
        budget = ctx.mode_budget(mode)
        reach = ctx.search(mode, budget=budget) if budget >= 5 else None     # the resolver's search
        stops = list(reach.stops(budget, leave=me.pos)) if reach is not None else []
        for prog in wanted:
            squares = _squares(prog)
            ranked = sorted(stops, key=lambda it: (_nearest(ctx, it[0], squares)[0], it[1].cost_ft, it[0]))
            for sq, _entry in ranked[:OBJECTIVE_PLANS]:
                path = reach.path_to(sq)
                if path is None:
                    continue
                end = (sq[0], sq[1], path.end.facing, path.end.altitude_ft)
                move = Move(figure=me.id, to=sq, mode=mode, facing=FACINGS[end[2]])
                plan = Plan((move, EndTurn(figure=me.id)), f"{'run' if mode == 'run' else 'move'} to {sq[0]},{sq[1]} "
                            f"for {_name(prog.objective)}", kind="objective", end=end, data={"path": path})
                threats.parting_cost(path.steps, mode, plan)
                v, parts = threats.exposure(end)
                add_exposure(plan, v, parts)
                out.append(plan)
    return out
