"""The speed-ups (sight memoised and cached, walker paths read off integer states, figure states
copied without __init__) change no answer: seeded AI battles give the same events with them and
with the code as it was put back in their place."""
from dataclasses import replace

import pytest

from game.core.combat.state import FigureState
from game.core.moves import engagement, planner, positioning
from game.io.rulesets import load_ruleset
from game.io.scenarios import load_scenario
from game.play.simulate import play_battle, setups_for

import los_reference


class _ReferenceSight(los_reference.SightMap):
    """The code as it was; charge lanes asked sight(...).visible."""

    def visible(self, a, b, altitude_a=0, altitude_b=0):
        return self.sight(a, b, altitude_a, altitude_b).visible


def _views_cost(self, state):
    return self.settled[state]


def _views_tight_parents(self, state):
    first = self.parents.get(state)
    if first is None or first[0] is None:
        return []
    ties = self.ties.get(state)
    if not ties:
        return [first]
    settled = self.settled
    return sorted({first, *(t for t in ties if t[0] in settled)})


def _copy_by_replace(self):
    twin = replace(self)
    twin.conditions = dict(self.conditions)
    for name in ("defended_against", "shield_used_by", "hit_by", "free_attacked_by", "initiative", "held_by"):
        setattr(twin, name, list(getattr(self, name)))
    twin.aim = dict(self.aim)
    twin.blindsided_by = dict(self.blindsided_by)
    twin.stuck = [list(s) for s in self.stuck]
    return twin


def _events(setup, rounds):
    battle, _outcome, _info = play_battle(setup, max_rounds=rounds)
    return [e.to_json() for e in battle.events], battle


@pytest.mark.parametrize("rid", ["bfrpg", "spelljammer"])
def test_seeded_ai_battles_give_the_same_events_as_the_code_before(rid, monkeypatch):
    setup = setups_for(load_scenario("maps/corridor.toml"), [load_ruleset(rid)])[rid]
    setup = replace(setup, seed=7)
    fast, fast_battle = _events(setup, 4)
    with monkeypatch.context() as mp:
        mp.setattr(positioning, "SightMap", _ReferenceSight)
        mp.setattr(engagement, "SightMap", _ReferenceSight)
        mp.setattr(planner.SearchResult, "cost", _views_cost)
        mp.setattr(planner.SearchResult, "tight_parents", _views_tight_parents)
        mp.setattr(FigureState, "copy", _copy_by_replace)
        slow, slow_battle = _events(setup, 4)
    assert len(fast) > 20
    assert fast == slow
    twin = fast_battle.clone()
    assert twin.state == fast_battle.state and twin.events == fast_battle.events
    assert slow_battle.state == fast_battle.state


def test_a_breakdown_built_without_its_init_has_every_field():
    """attack_breakdown fills a Breakdown's fields directly: each must be there, as __init__ sets them."""
    from dataclasses import fields

    from game.core.battle import Battle
    setup = setups_for(load_scenario("maps/corridor.toml"), [load_ruleset("bfrpg")])["bfrpg"]
    battle = Battle(setup)
    ids = list(battle.figures)
    foe = next(f for f in ids if battle.figures[f].side != battle.figures[ids[0]].side)
    bd = battle.explain_attack(ids[0], foe)
    assert set(vars(bd)) == {f.name for f in fields(bd)}
    assert bd == type(bd)(**vars(bd))


@pytest.mark.parametrize("rule", ["5-10", "5", "euclidean", "none"])
def test_distances_written_out_give_the_same_numbers_and_types(rule):
    """grid_distance_ft's and distance_ft's written-out cases against the general code."""
    import math
    import random

    from game.core.values.geometry import SQUARE_FT, combine_vertical_ft, distance_ft, grid_distance_ft
    rng = random.Random(5)
    for _ in range(20000):
        a = (rng.randint(-20, 20), rng.randint(-20, 20))
        b = (rng.randint(-20, 20), rng.randint(-20, 20))
        ha, hb = rng.choice([0, 0.0, 5.0, 10, 2.5, -5.0, 30]), rng.choice([0, 0.0, 5.0, 10, 2.5, 20.0])
        dx, dy = b[0] - a[0], b[1] - a[1]
        p, q = abs(dx), abs(dy)
        flat = {"5-10": SQUARE_FT * max(p, q) + SQUARE_FT * (min(p, q) // 2), "5": SQUARE_FT * max(p, q),
                "euclidean": SQUARE_FT * math.hypot(p, q), "none": SQUARE_FT * (p + q)}[rule]
        assert grid_distance_ft(rule, dx, dy) == flat and type(grid_distance_ft(rule, dx, dy)) is type(flat)
        want = combine_vertical_ft(rule, flat, hb - ha)
        if rule == "euclidean":
            want = SQUARE_FT * math.floor(want / SQUARE_FT + 0.5)
        got = distance_ft(rule, a, b, ha, hb)
        assert got == want and type(got) is type(want)


@pytest.mark.parametrize("rid", ["bfrpg", "odnd", "cnc", "ch17", "spelljammer"])
def test_stretch_parting_shots_are_each_stretch_asked_on_its_own(rid):
    """Engagement.stretch_parting_shots gives what parting_shots gives for each stretch steps[:i],
    and draws_no_parting_shots holds only when every path and stretch draws none."""
    from game.core.values.errors import RulesError
    from helpers import fig, open_map, positioning as make_positioning
    hero = fig("hero", "blue", 5, 5, "N", move_ft=40)
    for others in ([fig("orc1", "red", 5, 4, "S"), fig("orc2", "red", 6, 6, "W")],    # in melee where it starts
                   [fig("orc1", "red", 9, 2, "S"), fig("ally", "blue", 4, 5, "N")],   # not in melee
                   [fig("orc1", "red", 5, 4, "S"), fig("ally", "blue", 4, 4, "E")]):  # the foe busy with a friend
        pos = make_positioning(open_map(12, 12), rid, hero, *others)
        eng = pos.engagement
        for target, mode in (((5, 9), "walk"), ((1, 1), "walk"), ((9, 8), "run"), ((5, 8), "withdraw")):
            try:
                steps = pos.plan("hero", target, mode=mode).path.steps
            except RulesError:
                continue        # no such move (a run from beside a foe)
            by_stretch = eng.stretch_parting_shots(hero, steps, mode, pos.figures)
            assert [list(s) for s in by_stretch] == [eng.parting_shots(hero, steps[:i], mode, pos.figures)
                                                     for i in range(2, len(steps))]
            if eng.draws_no_parting_shots(hero, mode, pos.figures):
                assert not eng.parting_shots(hero, steps, mode, pos.figures) and not any(by_stretch)
