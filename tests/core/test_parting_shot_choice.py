"""Among equally cheap paths the planner takes one drawing the fewest parting shots, and says so.

Checked against every equally cheap path to the same end, enumerated from the exhaustive
reference search (tests/movement_reference.py), with the shots counted by the resolver's own
Engagement.parting_shots, under all five rulesets (odnd's free attacks for passing within
10 ft are the hardest case).
"""
from collections import namedtuple

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from game.core.values.battlemap import BattleMap
from game.core.values.errors import RulesError

from helpers import RULESET_IDS, fig, open_map, positioning
from movement_reference import Reference

At = namedtuple("At", "x y altitude_ft")
SIZE = 9
MAX_PATHS = 4000


def equally_cheap_paths(ref: Reference, cost: float, end_square, end_facing, end_altitude):
    """Every path (as a list of At) from the start to an end as given, costing exactly `cost`."""
    best = ref.search()
    start = ref.start()
    out = []

    def ends_here(state):
        x, y, f, par, s, h, moved = state
        return ((x, y) == end_square and h - ref.floor(x, y) == end_altitude and ref.may_end(state)
                and end_facing in ref.end_facings(state))

    stack = [(start, [start])]
    while stack:
        state, trail = stack.pop()
        g = best[state]
        if abs(g - cost) < 1e-6 and ends_here(state):
            out.append([At(s[0], s[1], s[5] - ref.floor(s[0], s[1])) for s in trail])
            if len(out) > MAX_PATHS:
                return None
        for step_cost, nxt in ref.moves(state):
            if nxt in best and abs(g + step_cost - best[nxt]) < 1e-6 and best[nxt] <= cost + 1e-6:
                stack.append((nxt, trail + [nxt]))
    return out


@st.composite
def melee(draw):
    # odnd twice as often: its free attacks for foes passed within 10 ft give the most choices
    rid = draw(st.sampled_from(RULESET_IDS + ("odnd",)))
    bmap = BattleMap.empty(SIZE, SIZE)
    for x, y in draw(st.lists(st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1)), max_size=6)):
        if (x, y) != (4, 4):
            bmap.add_wall(x, y)
    figures = {}
    for i in range(draw(st.integers(1, 3))):
        x, y = draw(st.integers(1, 7)), draw(st.integers(1, 7))
        weapons = draw(st.sampled_from([("sword",), ("spear",)]))
        if (x, y) != (4, 4) and not bmap.blocks_move[y, x]:
            figures[(x, y)] = fig(f"foe{i}", "red", x, y, draw(st.sampled_from(["N", "E", "S", "W"])), weapons=weapons)
    if draw(st.booleans()):
        x, y = draw(st.integers(0, SIZE - 1)), draw(st.integers(0, SIZE - 1))
        if (x, y) != (4, 4) and (x, y) not in figures and not bmap.blocks_move[y, x]:
            figures[(x, y)] = fig("ally", "blue", x, y)
    mover = fig("m", "blue", 4, 4, draw(st.sampled_from(["N", "NE", "E", "S"])), move_ft=draw(st.sampled_from([20, 30])),
                turning_ft=draw(st.sampled_from([0, 0, 5])))
    # a target a few squares off, so that several equally cheap ways lead there
    target = draw(st.sampled_from([(x, y) for x in range(SIZE) for y in range(SIZE) if max(abs(x - 4), abs(y - 4)) >= 3]))
    return rid, bmap, mover, figures, target


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(melee(), st.sampled_from(["walk", "run", "walk"]))
def test_no_equally_cheap_path_draws_fewer_parting_shots(case, mode):
    rid, bmap, mover, others, target = case
    pos = positioning(bmap, rid, mover, *others.values())
    try:
        planned = pos.plan("m", target, mode=mode)
    except RulesError:
        assume(False)
    end = planned.path.end
    ref = Reference(bmap, pos.ruleset, mover, mode, {p: f for p, f in others.items()})
    paths = equally_cheap_paths(ref, planned.path.total_ft, (end.x, end.y), end.facing, end.altitude_ft)
    assume(paths is not None)
    fewest = min(len(pos.engagement.parting_shots(mover, p, mode, pos.figures)) for p in paths)
    assert len(planned.parting_shots) == fewest
    if planned.choice:
        assert f"drawing {len(planned.parting_shots)} parting shot" in planned.choice


def test_odnd_walks_around_the_foes_it_would_pass_within_10_ft():
    """odnd:retreat: passing within 10 ft of a foe without engaging it draws a free attack; among
    paths of the same 50 ft the planner takes the one that passes no foe, and says why."""
    pos = positioning(open_map(12, 12), "odnd", fig("hero", "blue", 2, 10, "N", move_ft=50),
                      fig("orc1", "red", 0, 5, "E"), fig("orc2", "red", 0, 7, "E"))
    planned = pos.plan("hero", (2, 0))
    assert planned.path.total_ft == 50
    assert planned.parting_shots == ()
    assert "chose a path drawing 0 parting shots over an equally cheap one (50 ft) drawing 2" == planned.choice
    assert all(x >= 3 for x, y in planned.path.squares if 3 <= y <= 9)   # more than 10 ft from both orcs
    assert planned.to_json()["choice"] == planned.choice
    # The preview the window shows is the same choice.
    assert pos.search("hero").planned((2, 0)) == planned
