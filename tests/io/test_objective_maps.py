"""Objectives from a Tiled map: objects of class `objective` and the map's round_limit, checked with
the scenario's rules (game/io/tiled/objectives.py, game/io/objectives.py), and the Tiled project
offering them."""
from __future__ import annotations

import json

import pytest

from game.core.battle import Battle
from game.core.values.errors import DataFileError
from game.io.scenarios import load_scenario
from tiled_maps import grid, obj, object_layer, tile_layer, tmx, write_map


def _map(tmp_path, *objects, props=None):
    spawns = [obj("spawn", 16, 16, props={"side": "blue"}), obj("spawn", 208, 80, props={"side": "red"})]
    return write_map(tmp_path, tmx(tile_layer("g", grid(8, 4)), object_layer("o", *spawns, *objects),
                                   width=8, height=4, props=props))


def test_a_rectangle_objective_covers_its_squares_and_the_battle_is_decided_by_it(tmp_path):
    path = _map(tmp_path, obj("objective", 64, 32, 64, 64, name="ford", props={"kind": "hold", "side": "blue", "rounds": 1}),
                props={"round_limit": 5})
    scenario = load_scenario(path)
    (ford,) = scenario.objectives.items
    assert ford.id == "ford" and ford.squares == ((2, 1), (3, 1), (2, 2), (3, 2)) and scenario.objectives.round_limit == 5
    b = Battle.from_scenario(scenario)
    b.gm_place("blue1", x=2, y=2)
    from game.core.values.actions import EndTurn
    while not b.is_over:
        b.apply(EndTurn(b.current))
    assert b.decided_by == "ford" and b.winner == "blue"


def test_an_edge_objective_needs_no_shape(tmp_path):
    path = _map(tmp_path, obj("objective", 0, 0, props={"kind": "reach", "side": "red", "edge": "W"}))
    (exit_,) = load_scenario(path).objectives.items
    assert exit_.squares == tuple((0, y) for y in range(4)) and exit_.id == "objective-1"


@pytest.mark.parametrize("props, words", [
    ({"kind": "hold", "side": "blue", "rounds": 1, "colour": "red"}, "objective property 'colour' is unknown"),
    ({"kind": "hold", "side": "green", "rounds": 1}, "no figure is on side 'green'"),
    ({"kind": "conquer", "side": "blue"}, "kind"),
    ({"kind": "fell", "side": "blue", "figure": "blue1"}, "fell a foe"),
])
def test_a_bad_objective_object_is_one_line_and_exit_2(tmp_path, capsys, props, words):
    path = _map(tmp_path, obj("objective", 64, 32, 32, 32, props=props))
    with pytest.raises(DataFileError) as err:
        load_scenario(path)
    assert words in str(err.value) and "\n" not in str(err.value)
    from game.cli import main
    assert main(["check", str(path)]) == 2
    err_text = capsys.readouterr().err
    assert words in err_text and err_text.count("\n") == 1


def test_the_tiled_project_offers_the_objective_class():
    from game.io.paths import MAPS_DIR
    from game.io.tiled.objectives import OBJECTIVE, OBJECTIVE_KEYS
    from game.core.values.objectives import KINDS
    types = {t["name"]: t for t in json.loads((MAPS_DIR / "fivefoot.tiled-project").read_text())["propertyTypes"]}
    assert sorted(m["name"] for m in types[OBJECTIVE]["members"]) == sorted(OBJECTIVE_KEYS)
    assert types["ObjectiveKind"]["values"] == list(KINDS)
