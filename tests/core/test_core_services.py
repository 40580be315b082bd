"""Services the UI and AI build on: GM placement, clones, side-effect-free checks, reusable searches."""
import pytest

from game.core.values.actions import GmPlace, Move, action_from_json
from game.core.battle import Battle
from game.core.values.refusals import ActionRefused
from game.io.saves import load_battle, save_battle
from game.io.scenarios import load_scenario

from helpers import fig, open_map, positioning


@pytest.fixture
def battle():
    return Battle.from_scenario(load_scenario("maps/corridor.toml"))


def test_gm_place_is_logged_undoable_and_out_of_turn(battle):
    turn_before = battle.current
    events = battle.gm_place("gob3", x=13, y=6, facing="S")
    assert events[0].rule == "gm:place" and battle.figures["gob3"].pos == (13, 6)
    assert battle.current == turn_before
    assert battle.actions[-1] == GmPlace("gob3", x=13, y=6, facing="S")
    battle.undo()
    assert battle.figures["gob3"].pos == (11, 4)


def test_gm_place_refuses_walls_and_occupied_squares(battle):
    with pytest.raises(ActionRefused, match="wall"):
        battle.gm_place("gob3", x=0, y=0)
    with pytest.raises(ActionRefused, match="occupied by Hero"):
        battle.gm_place("gob3", x=5, y=6)
    with pytest.raises(ActionRefused, match="only flyers"):
        battle.gm_place("gob3", altitude_ft=20)


def test_gm_place_survives_a_save(battle, tmp_path):
    battle.gm_place("gob3", x=13, y=6, facing="S")
    path = tmp_path / "b.json"
    save_battle(battle, path)
    assert load_battle(path).figures["gob3"].pos == (13, 6)
    assert action_from_json(GmPlace("gob3", x=1, y=2).to_json()) == GmPlace("gob3", x=1, y=2)


def test_clone_is_independent(battle):
    twin = battle.clone()
    twin.gm_place("gob3", x=13, y=6)
    assert battle.figures["gob3"].pos == (11, 4) and twin.figures["gob3"].pos == (13, 6)
    assert battle.rng.getstate() == Battle.from_scenario(load_scenario("maps/corridor.toml")).rng.getstate()


def test_check_leaves_the_battle_and_its_caches_alone(battle):
    pos = battle.positioning()
    state = battle.rng.getstate()
    assert battle.check(Move(battle.current, to=(0, 0))) is not None
    assert battle.positioning() is pos and battle.rng.getstate() == state and battle.actions == []


def test_a_reusable_search_plans_like_a_fresh_one():
    pos = positioning(open_map(), "bfrpg", fig("hero", "blue", 5, 5, "E"), fig("orc", "red", 6, 5, "W"))
    search = pos.search("hero")
    for target in [(2, 5), (5, 9), (9, 9)]:
        reused, fresh = search.plan(target), pos.plan("hero", target)
        assert reused.path.total_ft == fresh.path.total_ft and reused.parting_shots == fresh.parting_shots
    assert set(search.entries()) == set(pos.reach("hero"))
    with pytest.raises(Exception, match="too far"):
        search.plan((29, 29))


def test_zone_squares_match_in_zone():
    pos = positioning(open_map(), "odnd", fig("orc", "red", 5, 5))
    squares = set(pos.engagement.zone_squares(pos.figure("orc")))
    assert (7, 5) in squares and (8, 5) not in squares and (5, 5) not in squares and len(squares) == 24


def test_a_figure_state_copy_equals_it_and_shares_nothing_that_changes():
    """FigureState.copy copies its fields without __init__: every field comes across, and every
    list and dict is a copy (a field added later is covered, whatever its name)."""
    from dataclasses import fields

    from game.core.combat.state import FigureState
    st = FigureState(hp=7, max_hp=9, conditions={"prone": 0}, defended_against=["a"], aim={"target": "b", "round": 2},
                     stuck=[[3, 1]], blindsided_by={"c": 1}, initiative=[4, 2], hit_by=["d"])
    twin = st.copy()
    assert twin == st and type(twin) is FigureState
    for f in fields(FigureState):
        value = getattr(st, f.name)
        if isinstance(value, (list, dict)):
            assert getattr(twin, f.name) is not value, f.name
    twin.stuck[0][1] = 5
    twin.conditions["stunned"] = 2
    assert st.stuck == [[3, 1]] and "stunned" not in st.conditions


def test_a_battle_state_copy_equals_it_and_shares_nothing_that_changes(battle):
    from dataclasses import fields
    battle.apply(battle.legal_actions(battle.current)[0])
    state = battle.state
    twin = state.copy()
    assert twin == state
    for f in fields(state):
        value = getattr(state, f.name)
        if isinstance(value, (list, dict, set)) and value:
            assert getattr(twin, f.name) is not value, f.name
