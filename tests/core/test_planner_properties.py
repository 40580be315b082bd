"""Property tests for the movement planner (docs/movement.md)."""
import heapq

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.values.battlemap import BattleMap
from game.core.values.geometry import DIRECTION_DELTAS, grid_distance_ft, turn_octants
from game.core.moves.planner import Planner
from game.io.rulesets import load_ruleset

from helpers import fig

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def terrain(draw, size=12):
    bmap = BattleMap.empty(size, size)
    cells = draw(st.lists(st.tuples(st.integers(0, size - 1), st.integers(0, size - 1), st.sampled_from("#,")),
                          max_size=size * size // 4))
    for x, y, kind in cells:
        if (x, y) == (size // 2, size // 2):
            continue
        if kind == "#":
            bmap.add_wall(x, y)
        else:
            bmap.difficult[y, x] = True
    return bmap


def reference_costs(bmap, start, budget):
    """Plain Dijkstra over (square, diagonal parity) for a free-turning walker under 5-10."""
    best = {}
    heap = [(0, start, 0)]
    while heap:
        g, (x, y), par = heapq.heappop(heap)
        if ((x, y), par) in best:
            continue
        best[((x, y), par)] = g
        for dx, dy in DIRECTION_DELTAS:
            nx, ny = x + dx, y + dy
            if not bmap.in_bounds(nx, ny) or bmap.blocks_move[ny, nx]:
                continue
            diagonal = dx and dy
            if diagonal and (bmap.blocks_move[y, nx] or bmap.blocks_move[ny, x]):
                continue
            cost = (5 if par == 0 else 10) if diagonal else 5
            if bmap.difficult[ny, nx]:
                cost *= 2
            if g + cost <= budget:
                heapq.heappush(heap, (g + cost, (nx, ny), par ^ 1 if diagonal else par))
    out = {}
    for (sq, _), g in best.items():
        out[sq] = min(g, out.get(sq, g))
    return out


@SETTINGS
@given(terrain(), st.sampled_from([20, 30, 40]))
def test_walker_costs_match_a_reference_search(bmap, budget):
    planner = Planner(bmap, load_ruleset("bfrpg"))
    walker = fig("w", "a", 6, 6, move_ft=budget)
    got = {sq: e.cost_ft for sq, e in planner.reachable(walker).items()}
    assert got == reference_costs(bmap, (6, 6), budget)


@SETTINGS
@given(st.integers(-8, 8), st.integers(-8, 8))
def test_open_ground_cost_is_the_grid_distance(dx, dy):
    bmap = BattleMap.empty(20, 20)
    planner = Planner(bmap, load_ruleset("bfrpg"))
    walker = fig("w", "a", 10, 10, move_ft=60)
    entries = planner.reachable(walker)
    expected = grid_distance_ft("5-10", dx, dy)
    if expected <= 60:
        assert entries[(10 + dx, 10 + dy)].cost_ft == expected
    else:
        assert (10 + dx, 10 + dy) not in entries


def _check_path(bmap, planner, path, budget, turning_ft, max_turn_octants):
    steps = path.steps
    assert path.total_ft <= budget + 1e-9
    diagonals = 0
    straight_ft = 0
    changes = 0
    facing = steps[0].facing
    for a, b in zip(steps, steps[1:]):
        if b.kind not in ("step", "turn+step"):
            continue
        dx, dy = b.x - a.x, b.y - a.y
        assert max(abs(dx), abs(dy)) == 1, "steps go to neighbouring squares"
        assert not bmap.blocks_move[b.y, b.x]
        diagonal = dx != 0 and dy != 0
        if diagonal:
            assert not bmap.blocks_move[a.y, b.x] and not bmap.blocks_move[b.y, a.x], "no cutting wall corners"
        base = (5 if diagonals % 2 == 0 else 10) if diagonal else 5
        diagonals += diagonal
        expected = base * (2 if bmap.difficult[b.y, b.x] else 1)
        assert b.cost_ft == expected
        if b.facing != facing:
            assert turn_octants(facing, b.facing) <= max_turn_octants
            assert straight_ft >= turning_ft, "moved its turning distance straight before turning"
            changes += 1
            straight_ft = 0
        straight_ft += base
        facing = b.facing
    return changes


@SETTINGS
@given(terrain(), st.sampled_from([5, 10, 20]), st.integers(0, 7), st.integers(0, 11), st.integers(0, 11))
def test_paths_respect_turning_distance_walking(bmap, turning, facing, tx, ty):
    planner = Planner(bmap, load_ruleset("bfrpg"))
    horse = fig("h", "a", 6, 6, move_ft=60, turning_ft=turning)
    horse = horse.moved_to(6, 6, facing)
    result = planner.search(horse, "walk")
    path = result.path_to((tx, ty))
    if path is not None:
        _check_path(bmap, planner, path, 60, turning, 2)


@SETTINGS
@given(terrain(), st.integers(0, 7), st.integers(0, 11), st.integers(0, 11))
def test_running_turns_at_most_45_degrees_after_10_ft(bmap, facing, tx, ty):
    rs = load_ruleset("bfrpg")
    planner = Planner(bmap, rs)
    man = fig("m", "a", 6, 6, move_ft=30).moved_to(6, 6, facing)
    path = planner.search(man, "run").path_to((tx, ty))
    if path is not None:
        _check_path(bmap, planner, path, 60, rs.running_turning_ft(0), 1)


@SETTINGS
@given(terrain(), st.sampled_from([10, 20, 30]))
def test_more_movement_never_loses_a_square(bmap, budget):
    planner = Planner(bmap, load_ruleset("bfrpg"))
    small = set(planner.reachable(fig("w", "a", 6, 6, move_ft=budget)))
    large = set(planner.reachable(fig("w", "a", 6, 6, move_ft=budget + 10)))
    assert small <= large


@SETTINGS
@given(terrain())
def test_reachable_cost_equals_its_path_cost(bmap):
    planner = Planner(bmap, load_ruleset("bfrpg"))
    walker = fig("w", "a", 6, 6, move_ft=30, turning_ft=10, facing="E")
    result = planner.search(walker, "walk")
    for sq, entry in result.entries().items():
        if sq == (6, 6):
            continue
        path = result.path_to(sq)
        assert path is not None and path.total_ft == entry.cost_ft


@SETTINGS
@given(terrain(), st.integers(0, 11), st.integers(0, 11), st.sampled_from([None, 0, 2, 4]),
       st.sampled_from(["walk", "run"]))
def test_stopping_at_the_goal_finds_the_same_cost_as_a_full_search(bmap, tx, ty, facing, mode):
    planner = Planner(bmap, load_ruleset("bfrpg"))
    horse = fig("h", "a", 6, 6, "E", move_ft=40, turning_ft=10)
    full = planner.search(horse, mode).path_to((tx, ty), facing)
    early, _search = planner.path_to(horse, (tx, ty), mode, facing=facing)
    assert (full is None) == (early is None)
    if full is not None:
        assert early.total_ft == full.total_ft


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 19), st.integers(0, 9), st.sampled_from([None, 0, 20, 60]))
def test_flyer_goal_search_matches_full_search(tx, ty, altitude):
    bmap = BattleMap.empty(20, 10)
    bmap.elevation_ft[:2, :] = 30  # a cliff along the north edge
    planner = Planner(bmap, load_ruleset("bfrpg"))
    griffon = fig("g", "a", 3, 5, "E", move_ft=40, turning_ft=10, flyer="winged", altitude_ft=20)
    full = planner.search(griffon, "walk").path_to((tx, ty), None, altitude)
    early, _search = planner.path_to(griffon, (tx, ty), "walk", altitude_ft=altitude)
    assert (full is None) == (early is None)
    if full is not None:
        assert early.total_ft == full.total_ft and early.end.altitude_ft == full.end.altitude_ft
