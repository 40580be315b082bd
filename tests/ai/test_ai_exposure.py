"""What the AI expects the foes to do to a figure where a plan ends: a charger stands at the defence
its charge leaves it (the resolver's hypothetical view), and a prone foe's easier blows are weighed
by when they come."""
from __future__ import annotations

import random
from dataclasses import replace

from game.ai import AI
from game.ai.context import Context
from game.ai.levels import LEVELS
from game.ai.plans.manoeuvre import PRONE_STILL, _opened
from game.ai.threat import Threats
from game.core.values.actions import Charge
from test_ai import make_battle, play_until_turn_of


def context_for(battle, figure_id: str, level: str = "normal") -> Context:
    play_until_turn_of(battle, figure_id)
    return Context(LEVELS[level], battle, figure_id, random.Random(1), {})


def test_a_hypothetical_charger_stands_at_the_charge_defence_and_nothing_changes():
    # bfrpg Charging: the charger's AC is lowered for the round; the view says so without a roll.
    b = make_battle("bfrpg", [
        {"id": "pike", "side": "blue", "template": "spearman", "x": 2, "y": 6, "facing": "E"},
        {"id": "foe", "side": "red", "template": "foot", "x": 8, "y": 6, "facing": "W"},
    ])
    events_before = len(b.events)
    plain = b.explain_attack("foe", "pike")
    charging = b.hypothetical(charging={"pike": "foe"}).explain_attack("foe", "pike")
    assert [m.name for m in charging.defense_mods if m.name == "charged this round"]
    assert charging.target_number == plain.target_number + b.ruleset.section("modifiers")["charge_defense"]
    assert not b.state_of("pike").charging and len(b.events) == events_before


def test_a_charge_plan_is_exposed_at_the_chargers_lowered_defence():
    # A lone spearman could charge an archer standing among three foot soldiers.
    b = make_battle("bfrpg", [
        {"id": "pike", "side": "blue", "template": "spearman", "x": 1, "y": 6, "facing": "E", "stats": {"hp": 12}},
        {"id": "archer", "side": "red", "template": "archer", "x": 10, "y": 6, "facing": "W"},
        {"id": "f1", "side": "red", "template": "foot", "x": 11, "y": 5, "facing": "W"},
        {"id": "f2", "side": "red", "template": "foot", "x": 11, "y": 7, "facing": "W"},
        {"id": "f3", "side": "red", "template": "foot", "x": 12, "y": 6, "facing": "W"},
    ])
    ctx = context_for(b, "pike")
    threats = Threats(ctx)
    preview = b.preview(Charge(figure="pike", target="archer"))
    end = preview.planned.path.end
    spot = (end.x, end.y, end.facing, end.altitude_ft)
    standing, _parts = threats.exposure(spot, exact=True)
    charged, _parts = threats.exposure(
        spot, exact=True, battle=b.hypothetical(ctx.placed(spot), charging={"pike": "archer"}))
    assert charged > standing                      # every blow comes easier at the lowered AC
    ai = AI("normal")
    ai.choose(b, "pike")
    plan = next(p for p in ai.last_decision.plans if p.label == "charge Archer")
    # The plan weighs its own target's answer by the chance the charge leaves it standing.
    as_planned, _parts = threats.exposure(spot, exact=True, exclude={"archer": plan.data["p_kill"]},
                                          battle=b.hypothetical(ctx.placed(spot), charging={"pike": "archer"}))
    assert plan.end == spot and abs(plan.data["exposure"] - as_planned) < 1e-9


def test_my_own_blow_on_a_prone_foe_counts_half():
    # The foe gets up on its turn: my next blow finds it down only if it comes first.
    b = make_battle("bfrpg", [
        {"id": "me", "side": "blue", "template": "foot", "x": 5, "y": 6, "facing": "E"},
        {"id": "foe", "side": "red", "template": "foot", "x": 6, "y": 6, "facing": "W"},
    ])
    ctx = context_for(b, "me")
    foe = b.figures["foe"]
    opened, n = _opened(ctx, foe, foe.pos, "prone")
    assert n == 1 and opened > 0
    prone = b.ruleset.condition("prone")["defense"]
    blow = ctx.odds(ctx.me, ctx.placed((6, 6, foe.facing, 0), foe), placed=(ctx.placed((6, 6, foe.facing, 0), foe),))
    easier = replace(blow, p_hit=min(1.0, blow.p_hit - prone / 20))
    full = ctx.damage_value(foe, easier) - ctx.damage_value(foe, blow)
    assert abs(opened - PRONE_STILL * full) < 1e-9


def test_a_figure_by_a_wall_is_still_struck_from_its_open_sides():
    """A foot soldier coming from the west finds the square west of the plan's end walled: it strikes
    from the nearest open side instead (bfrpg:the-combat), across the wall's corner (1/4 cover), not
    as a foe that cannot reach (it counted nothing before)."""
    walled = "\n".join(["................"] * 4 + ["......#........."] + ["................"] * 7)
    spec = [{"id": "me", "side": "blue", "template": "foot", "x": 12, "y": 4, "facing": "W"},
            {"id": "foe", "side": "red", "template": "foot", "x": 3, "y": 4, "facing": "E"}]
    losses = {}
    for name, bmap in (("open", "\n".join(["." * 16] * 12)), ("walled", walled)):
        ctx = context_for(make_battle("bfrpg", spec, bmap), "me")
        v, parts = Threats(ctx).exposure((7, 4, 6, 0), exact=True)
        losses[name] = dict(parts)["Foot soldier 2"]      # two foot soldiers: numbered (the foe is the second)
    assert losses["open"] > losses["walled"] > 0.6 * losses["open"], losses


def test_an_archer_behind_a_wall_steps_out_to_shoot_in_the_exact_exposure():
    """bfrpg:the-combat lets a figure move, then shoot: an archer whose line is walled now is still a
    threat where it can walk to a clear line; walled in for good, it is none."""
    wall = "\n".join(["................"] * 3 + ["....#..........."] * 3 + ["................"] * 6)
    shut = "\n".join(["....#..........."] * 12)
    spec = [{"id": "me", "side": "blue", "template": "foot", "x": 10, "y": 4, "facing": "W"},
            {"id": "bow", "side": "red", "template": "archer", "x": 2, "y": 4, "facing": "E"}]
    shots = {}
    for name, bmap in (("a wall to step round", wall), ("walled in", shut)):
        ctx = context_for(make_battle("bfrpg", spec, bmap), "me")
        assert not ctx.odds(ctx.battle.figures["bow"], ctx.me).allowed      # no line from where it stands
        _v, parts = Threats(ctx).exposure((10, 4, 6, 0), exact=True)
        shots[name] = dict(parts).get("Archer", 0.0)
    assert shots["a wall to step round"] > 0 and shots["walled in"] == 0, shots
