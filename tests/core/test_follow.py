"""Positioning.follow: a move carries its path, and the route is checked step by step.

Pins follow() (rules.MoveRules.trace) and the search's inlined loop together: every path the
search returns comes back from follow() with identical Steps; random routes are accepted by
follow() exactly when the exhaustive reference search (tests/movement_reference.py) says they
are legal, cost what the reference says, and never less than the search's cheapest way to the
same end; corrupted routes are refused with the step named.
"""
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from game.core.values.battlemap import BattleMap
from game.core.values.errors import RulesError
from game.core.values.figure import Figure
from game.core.values.geometry import FACING_INDEX

from helpers import RULESET_IDS, fig, open_map, positioning
from movement_reference import Reference

SIZE = 9
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def route_of(path):
    return [(s.x, s.y, s.facing, s.altitude_ft) for s in path.steps[1:]]


@st.composite
def scene(draw, flyers=True):
    rid = draw(st.sampled_from(RULESET_IDS))
    bmap = BattleMap.empty(SIZE, SIZE)
    rng = random.Random(draw(st.integers(0, 2 ** 32 - 1)))
    for _ in range(draw(st.integers(0, 14))):
        x, y = rng.randrange(SIZE), rng.randrange(SIZE)
        if (x, y) == (4, 4):
            continue
        kind = rng.choice("##,^t")
        if kind == "#":
            bmap.add_wall(x, y)
        elif kind == "t":
            bmap.add_wall(x, y, height_ft=15)
        elif kind == ",":
            bmap.difficult[y, x] = True
        else:
            bmap.elevation_ft[y, x] = rng.choice([5, 10])
    others = {}
    for fid, side in (("foe", "red"), ("ally", "blue")):
        x, y = rng.randrange(SIZE), rng.randrange(SIZE)
        if draw(st.booleans()) and (x, y) != (4, 4) and (x, y) not in others:
            others[(x, y)] = fig(fid, side, x, y)
    flyer = draw(st.sampled_from(["none", "none", "winged", "floater"] if flyers else ["none"]))
    mode = draw(st.sampled_from(["walk", "run", "withdraw", "sidestep"] + (["jog"] if rid == "cnc" else [])))
    mover = fig("m", "blue", 4, 4, move_ft=draw(st.sampled_from([20, 30])),
                turning_ft=draw(st.sampled_from([0, 5, 10, 20])), flyer=flyer,
                altitude_ft=draw(st.sampled_from([0, 10, 20])) if flyer != "none" else 0)
    mover = mover.moved_to(4, 4, draw(st.integers(0, 7)))
    if draw(st.booleans()):
        mover = replace(mover, has_moved=True, diagonals_moved=draw(st.integers(0, 3)),
                        straight_ft=float(draw(st.sampled_from([0, 5, 10, 20]))))
    if flyer == "winged" and draw(st.integers(0, 5)) == 0:
        mover, mode = replace(mover, must_dive=True), "walk"
    return rid, bmap, mover, others, mode


def _positioning(rid, bmap, mover, others):
    return positioning(bmap, rid, mover, *others.values())


@SETTINGS
@given(scene(), st.integers(0, SIZE - 1), st.integers(0, SIZE - 1), st.sampled_from([None, 0, 2, 5]),
       st.sampled_from([None, 0, 10, 20]))
def test_every_planned_path_is_followed_with_identical_steps(case, tx, ty, facing, altitude):
    rid, bmap, mover, others, mode = case
    pos = _positioning(rid, bmap, mover, others)
    try:
        planned = pos.plan("m", (tx, ty), mode, facing, altitude)
    except RulesError:
        return
    followed = pos.follow("m", route_of(planned.path), mode)
    assert followed.path == planned.path
    assert followed.parting_shots == planned.parting_shots
    # The trace derives the search's own states along the way, at the costs the search settled them.
    search = pos.planner.search(mover, mode, pos.occupants("m"))
    path, states = search.rules.trace(route_of(planned.path))
    for state, step in zip(states, path.steps):
        assert state in search.settled
        assert abs(search.settled[state] - step.total_ft) < 1e-9
    cheapest = search.best_state((tx, ty), facing, altitude)
    assert abs(search.settled[cheapest] - planned.path.total_ft) < 1e-9


def reference_walk(ref: Reference, route):
    """(legal, total cost) of a route by the reference's rules."""
    state = ref.start()
    total = 0.0
    for n, (x, y, facing, altitude) in enumerate(route):
        sx, sy, f, par, s, h, moved = state
        if (x, y) == (sx, sy) and altitude == h - ref.floor(x, y):
            if facing == f or n != len(route) - 1 or facing not in ref.end_facings(state):
                return False, total
            continue
        found = None
        for cost, nxt in ref.moves(state):
            nx, ny, nf, *_rest = nxt
            if (nx, ny) == (x, y) and nxt[5] - ref.floor(x, y) == altitude and nf == facing:
                found = (cost, nxt)
        if found is None or total + found[0] > ref.budget + 1e-9:
            return False, total
        total += found[0]
        state = found[1]
    if route:
        if (state[0], state[1]) in ref.occupants or not ref.may_end(state):
            return False, total
    return True, total


def random_route(ref: Reference, rng: random.Random, length: int):
    """A random walk by the reference's legal moves, sometimes with a last turn."""
    state = ref.start()
    route = []
    total = 0.0
    for _ in range(length):
        options = [(c, n) for c, n in ref.moves(state) if total + c <= ref.budget + 1e-9]
        if not options:
            break
        cost, state = rng.choice(options)
        total += cost
        route.append((state[0], state[1], state[2], state[5] - ref.floor(state[0], state[1])))
    if rng.random() < 0.3:
        x, y, f, par, s, h, moved = state
        route.append((x, y, rng.choice(list(ref.end_facings(state))), h - ref.floor(x, y)))
    return route


def sloppy_route(ref: Reference, mover, rng: random.Random, length: int):
    """A random walk that ignores most rules (turns, walls, budget): mostly illegal, sometimes not."""
    x, y, face = mover.x, mover.y, mover.facing
    h = ref.floor(x, y) + mover.altitude_ft
    route = []
    for _ in range(length):
        if ref.flying and rng.random() < 0.2:
            h += rng.choice([-10, -5, 5, 10])
        else:
            d = rng.choice([face, face, (face + 1) % 8, (face + 7) % 8, rng.randrange(8)])
            dx, dy = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))[d]
            if not (0 <= x + dx < SIZE and 0 <= y + dy < SIZE):
                continue
            x, y = x + dx, y + dy
            if ref.keeps is None:
                face = d
            if not ref.flying:
                h = ref.floor(x, y)
        route.append((x, y, face, h - ref.floor(x, y)))
    return route


def corrupt(route, rng: random.Random):
    route = list(route)
    i = rng.randrange(len(route))
    x, y, f, a = route[i]
    how = rng.randrange(6)
    if how == 0:
        route[i] = (x + rng.choice([-2, 2]), y, f, a)          # not a neighbour
    elif how == 1:
        route[i] = (x, y, (f + rng.randrange(1, 8)) % 8, a)     # another facing
    elif how == 2:
        route[i] = (x, y, f, a + rng.choice([-10, -5, 5, 10]))  # another altitude
    elif how == 3:
        del route[i]                                           # a step left out
    elif how == 4:
        route.insert(i, route[i])                              # a step repeated
    else:
        route[i] = (x + rng.choice([-1, 0, 1]), y + rng.choice([-1, 1]), f, a)   # somewhere else
    return route


@SETTINGS
@given(scene(), st.integers(0, 2 ** 32 - 1), st.booleans())
@example(("bfrpg", BattleMap.empty(9, 9), Figure("m", "blue", 4, 4, name="m", altitude_ft=10, move_ft=20, flyer="winged",
                                                   must_dive=True), {}, "walk"), 3732, True)   # the route comes out empty
# Up 5 ft, down again, then a turn on the spot: back in its starting state, but it has moved.
@example(("bfrpg", BattleMap.empty(9, 9), Figure("m", "blue", 4, 4, name="m", move_ft=20, turning_ft=5, flyer="floater",
                                                   weapons=("sword",)), {}, "walk"), 357, True)
def test_follow_accepts_exactly_the_legal_routes(case, seed, corrupted):
    rid, bmap, mover, others, mode = case
    pos = _positioning(rid, bmap, mover, others)
    ref = Reference(bmap, pos.ruleset, mover, mode, others)
    rng = random.Random(seed)
    route = random_route(ref, rng, rng.randrange(1, 8))
    if corrupted and route:
        route = corrupt(route, rng) if rng.random() < 0.5 else sloppy_route(ref, mover, rng, rng.randrange(1, 8))
    legal, cost = reference_walk(ref, route)
    try:
        followed = pos.follow("m", route, mode)
    except RulesError as err:
        assert not legal, f"follow refused a legal route {route}: {err}"
        assert str(err).startswith("step "), str(err)
        return
    assert legal, f"follow accepted an illegal route {route}"
    assert abs(followed.path.total_ft - cost) < 1e-6
    end = followed.path.end
    if len(followed.path.steps) == 1:
        # No step at all is no move: a stalled flyer that must dive when it moves may still stay
        # (the planner, asked for moves, offers its start to no one who must dive).
        assert (end.x, end.y, end.altitude_ft) == (mover.x, mover.y, mover.altitude_ft)
        return
    cheapest = pos.planner.search(mover, mode, pos.occupants("m")).path_to((end.x, end.y), end.facing, end.altitude_ft)
    assert cheapest is not None and cheapest.total_ft <= followed.path.total_ft + 1e-9


# ----- words -----

def test_the_refusal_names_the_step_and_the_rule():
    """bfrpg:maneuverability: the horse must move 20 ft straight ahead between facing changes."""
    horse = replace(fig("horse", "a", 5, 10, "E", move_ft=60, turning_ft=20), has_moved=True)
    pos = positioning(open_map(), "bfrpg", horse)
    E, N = FACING_INDEX["E"], FACING_INDEX["N"]
    with pytest.raises(RulesError) as err:
        pos.follow("horse", [(6, 10, E, 0), (7, 10, E, 0), (7, 9, N, 0)])
    assert str(err.value) == ("step 3, to 7,9: horse must move 20 ft straight ahead (E) before turning again; "
                              "it has moved 10 ft")
    fresh = positioning(open_map(), "bfrpg", fig("horse", "a", 5, 10, "E", move_ft=60, turning_ft=20))
    with pytest.raises(RulesError, match="step 1, to 5,9: .*after the start of its move"):
        fresh.follow("horse", [(5, 9, N, 0)])


@pytest.mark.parametrize("route, words", [
    ([(7, 10, 2, 0)], "step 1, to 7,10: a step goes to one of the 8 squares next to"),
    ([(6, 10, 0, 0)], "step 1, to 6,10: stepping E w faces E, not N"),
    ([(6, 10, 2, 10)], "step 1, to 6,10: w does not fly"),
    ([(6, 10, 2, 0), (6, 10, 2, 0)], "step 2, to 6,10: w is already at 6,10 facing E"),
    ([(6, 10, 2, 0), (6, 10, 0, 0), (7, 10, 2, 0)], "step 2, to 6,10: a figure changes facing by stepping"),
    ([(6, 11, 3, 0), (7, 11, 2, 0)], "step 2, to 7,11: 7,11 is blocked: a wall"),
    ([(6, 9, 1, 0), (6, 8, 0, 0)], "step 2, to 6,8: 6,8 is held by foe: foes block movement"),
    ([(6, 9, 1, 0), (7, 9, 2, 0)], "step 2, to 7,9: a move may not end on another figure's square (ally is there)"),
    ([(4, 10, 6, 0)] * 1 + [(3, 10, 6, 0), (2, 10, 6, 0), (1, 10, 6, 0), (0, 10, 6, 0), (-1, 10, 6, 0)],
     "step 6, to -1,10: -1,10 is off the map"),
    ([(6, 11, 3, 0), (7, 12, 3, 0)], "step 2, to 7,12: stepping diagonally from 6,11 to 7,12 would cut the corner "
                                     "of the wall at 7,11"),
    ([(x, 10, 2, 0) for x in range(6, 15)], "step 9, to 14,10: that brings the move to 45 ft; w has 40 ft (walk)"),
])
def test_refusals(route, words):
    bmap = open_map()
    bmap.add_wall(7, 11)
    pos = positioning(bmap, "bfrpg", fig("w", "a", 5, 10, "E", move_ft=40), fig("foe", "red", 6, 8),
                      fig("ally", "a", 7, 9))
    with pytest.raises(RulesError) as err:
        pos.follow("w", route)
    assert str(err.value).startswith(words), str(err.value)


def test_a_charge_is_not_followed():
    pos = positioning(open_map(), "bfrpg", fig("w", "a", 5, 10, "E"))
    with pytest.raises(RulesError, match="charge action"):
        pos.follow("w", [(6, 10, 2, 0)], "charge")


def test_an_empty_route_stays_put_and_a_last_turn_on_the_spot_is_free():
    pos = positioning(open_map(), "bfrpg", fig("horse", "a", 5, 10, "E", move_ft=60, turning_ft=20))
    assert pos.follow("horse", []).path == pos.plan("horse", (5, 10)).path
    turned = pos.follow("horse", [(5, 10, FACING_INDEX["W"], 0)])
    assert turned.path == pos.plan("horse", (5, 10), facing=FACING_INDEX["W"]).path
    assert turned.path.steps[-1].note == "turns freely: it has not left its square"
