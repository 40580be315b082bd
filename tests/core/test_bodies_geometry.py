"""Figures bigger than a square: the cells of a body, distances between bodies, and a big body's
reachable squares against a plain exhaustive search (tests/body_reference.py), in every ruleset."""
from dataclasses import replace

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from game.core.values.battlemap import BattleMap
from game.core.values.geometry import DIRECTION_DELTAS, distance_ft, grid_distance_ft
from game.core.values.bodies import cells, footprint_problem, nearest_cells
from game.core.moves.engagement import Engagement
from game.core.moves.planner import Planner
from game.io.rulesets import load_ruleset

from body_reference import BodyReference
from helpers import RULESET_IDS, fig

RULESETS = {rid: load_ruleset(rid) for rid in RULESET_IDS}
SHAPES = [(1, 1), (2, 2), (3, 3), (1, 2), (1, 3)]
SIZE = 12


# ----- cells -----
@given(st.integers(-20, 20), st.integers(-20, 20), st.integers(0, 7), st.sampled_from(SHAPES))
def test_cells_cover_the_footprint_from_the_anchor(x, y, facing, footprint):
    body = cells(x, y, facing, footprint)
    assert body[0] == (x, y)
    assert len(set(body)) == footprint[0] * footprint[1]
    if footprint[0] == footprint[1]:
        n = footprint[0]
        assert set(body) == {(x + i, y + j) for i in range(n) for j in range(n)}
        assert all(set(cells(x, y, f, footprint)) == set(body) for f in range(8))   # turns about its centre
    else:
        dx, dy = DIRECTION_DELTAS[facing]
        assert all(b == (a[0] - dx, a[1] - dy) for a, b in zip(body, body[1:]))      # runs back from the head


@given(st.lists(st.integers(-2, 6), min_size=0, max_size=3))
def test_only_square_and_one_wide_shapes_are_allowed(value):
    problem = footprint_problem(value)
    ok = (len(value) == 2 and 1 <= value[0] <= 4 and 1 <= value[1] <= 4 and value[0] in (1, value[1]))
    assert (problem is None) == ok
    if problem:
        assert "[n, n]" in problem and "[1, n]" in problem


# ----- distance between bodies -----
@st.composite
def placed(draw, fid, side):
    shape = draw(st.sampled_from(SHAPES))
    return fig(fid, side, draw(st.integers(0, 8)), draw(st.integers(0, 8)), footprint=shape,
               altitude_ft=0).moved_to(draw(st.integers(0, 8)), draw(st.integers(0, 8)), draw(st.integers(0, 7)))


@settings(max_examples=80, deadline=None)
@given(placed("a", "blue"), placed("b", "red"), st.sampled_from(RULESET_IDS), st.data())
def test_distance_between_bodies_is_the_least_over_cell_pairs(a, b, ruleset_id, data):
    bmap = BattleMap.empty(SIZE, SIZE)
    for x, y in data.draw(st.lists(st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1)), max_size=6)):
        bmap.elevation_ft[y, x] = 5
    rs = RULESETS[ruleset_id]
    eng = Engagement(bmap, rs)
    brute = min(distance_ft(rs.diagonal, p, q, float(bmap.elevation_ft[p[1], p[0]]), float(bmap.elevation_ft[q[1], q[0]]))
                for p in a.cells for q in b.cells)
    assert eng.gap_ft(a, None, None, b) == brute
    assert eng.gap_ft(b, None, None, a) == brute
    p, q = nearest_cells(rs.diagonal, a.cells, b.cells)
    assert grid_distance_ft(rs.diagonal, q[0] - p[0], q[1] - p[1]) == min(
        grid_distance_ft(rs.diagonal, t[0] - s[0], t[1] - s[1]) for s in a.cells for t in b.cells)


# ----- a big body's reachable squares -----
@st.composite
def ground(draw):
    bmap = BattleMap.empty(SIZE, SIZE)
    for x, y, kind in draw(st.lists(st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1),
                                              st.sampled_from("###,^")), max_size=30)):
        if abs(x - 5) <= 1 and abs(y - 5) <= 2:
            continue    # the mover's body starts on open, level ground
        if kind == "#":
            bmap.add_wall(x, y)
        elif kind == ",":
            bmap.difficult[y, x] = True
        else:
            bmap.elevation_ft[y, x] = draw(st.sampled_from([5, 10]))
    return bmap


@st.composite
def others(draw):
    out = {}
    for fid, side in (("foe", "red"), ("ally", "blue")):
        if draw(st.booleans()):
            x, y = draw(st.integers(0, SIZE - 1)), draw(st.integers(0, SIZE - 1))
            if abs(x - 5) > 1 or abs(y - 5) > 2:
                out[(x, y)] = fig(fid, side, x, y)
    return out


def _compare(bmap, ruleset_id, mover, mode, occupants):
    rs = RULESETS[ruleset_id]
    got = Planner(bmap, rs).search(mover, mode, occupants).entries()
    want = BodyReference(bmap, rs, mover, mode, occupants).entries()
    assert set(got) == set(want), f"only planner {set(got) - set(want)}, only reference {set(want) - set(got)}"
    for sq, (cost, facings, _altitudes, can_end) in want.items():
        entry = got[sq]
        assert abs(entry.cost_ft - cost) < 1e-6, (sq, entry.cost_ft, cost)
        assert entry.can_end == can_end, sq
        assert set(entry.facings) == set(facings), (sq, entry.facings, facings)
        for f, c in facings.items():
            assert abs(entry.facings[f] - c) < 1e-6, (sq, f, entry.facings[f], c)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ground(), others(), st.sampled_from(RULESET_IDS), st.sampled_from(["walk", "run", "withdraw", "sidestep"]),
       st.sampled_from(SHAPES[1:]), st.sampled_from([0, 5, 10, 20]), st.integers(0, 7), st.sampled_from([20, 30]))
def test_a_big_body_reaches_what_the_exhaustive_search_reaches(bmap, occupants, ruleset_id, mode, footprint, turning,
                                                               facing, move_ft):
    rs = RULESETS[ruleset_id]
    if mode == "sidestep" and not rs.section("movement")["sidestep"]:
        mode = "walk"
    mover = replace(fig("m", "blue", 5, 5, move_ft=move_ft, turning_ft=turning, footprint=footprint), facing=facing)
    # a battle never starts with a figure inside the mover's body (a 3 x 3 body reaches beyond the cleared squares)
    assume(not set(mover.cells) & set(occupants))
    _compare(bmap, ruleset_id, mover, mode, occupants)


def test_a_one_square_figure_is_its_own_square():
    f = fig("a", "blue", 3, 4)
    assert f.cells == ((3, 4),) and not f.big


def test_a_body_that_cannot_stand_with_its_corner_on_a_square_says_so_and_why_it_cannot_cover_it():
    """An ogre (2 x 2) pointed at 9,6 of ogre_corridor: walls, foes or drops do not close every way
    there (an open corridor leads to it); its body does not fit with its corner there, and covering
    the square from a corner where it fits is too far this turn."""
    from game.core.battle import Battle
    from game.io.paths import MAPS_DIR
    from game.io.scenarios import load_scenario
    from game.core.values.actions import Move
    b = Battle.from_scenario(load_scenario(MAPS_DIR / "ogre_corridor.toml"))
    why = b.check(Move("ogre", to=(9, 6)))
    assert why is not None and "close every way" not in why.words
    assert why.words.startswith("Ogre's 10 x 10 ft body does not fit with its corner square on 9,6: "
                                "9,7 and 10,7 are walls or off the map; covering it from 8,5: too far: 8,5 needs 55 ft")
