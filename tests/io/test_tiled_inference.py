"""Walls and water read from the conventions maps made for other games use (tiled/inference),
on small files made as those games' maps are: a plain tileset with no fivefoot property."""
from __future__ import annotations

import json

import pytest

from game.cli import main
from game.core.values.errors import DataFileError
from game.io.tiled import load_tiled_map
from tiled_maps import grid, obj, object_layer, props_xml, tile_layer, tileset_xml, tmx, write_map

PLAIN = tileset_xml(tile_props={})          # a game's own tileset: pictures, no fivefoot property
ROWS = [[1, 2, 0, 1], [1, 1, 2, 1], [0, 1, 1, 1]]   # GID 2 is the tile a convention may mark


def plain(tmp_path, *body, tsx=PLAIN):
    return load_tiled_map(write_map(tmp_path, tmx(*body), tsx=tsx))


def marked(props: dict) -> str:
    return tileset_xml(tile_props={2: props})


@pytest.mark.parametrize("name", ["Collision", "walls", "Obstacles", "solid", "WallLayer", "collision_layer",
                                  "Walls level 2"])
def test_a_tile_layer_named_for_walls_makes_its_tiles_walls(tmp_path, name):
    battle = plain(tmp_path, tile_layer("ground", grid(4, 3)), tile_layer(name, ROWS))
    assert [(i.kind, i.source, i.squares) for i in battle.inferred] == [("walls", f"the layer '{name}'", 10)]
    assert battle.blocks_move.count_nonzero() == battle.blocks_sight.count_nonzero() == 10


@pytest.mark.parametrize("name", ["Grass and Water", "Walls and floor", "Background", "Tile Layer 1"])
def test_names_that_say_more_than_walls_or_water_say_nothing(tmp_path, name):
    battle = plain(tmp_path, tile_layer(name, ROWS))
    assert battle.inferred == () and battle.blocks_move.count_nonzero() == battle.water.count_nonzero() == 0


def test_a_layer_named_water_is_difficult_water(tmp_path):
    battle = plain(tmp_path, tile_layer("Sea", ROWS))
    assert battle.inferred[0].text == "water (difficult ground) taken from the layer 'Sea': 10 squares"
    assert battle.water.count_nonzero() == battle.difficult.count_nonzero() == 10
    assert battle.blocks_move.count_nonzero() == 0


@pytest.mark.parametrize("props, source", [
    ({"collides": True}, "the tile property 'collides'"),
    ({"Solid": ("string", "yes")}, "the tile property 'Solid'"),
    ({"block": ("string", "1")}, "the tile property 'block'"),
    ({"walkable": False}, "the tile property 'walkable'"),
])
def test_tile_properties_games_use_make_walls(tmp_path, props, source):
    battle = plain(tmp_path, tile_layer("ground", ROWS), tsx=marked(props))
    assert [(i.kind, i.source, i.squares) for i in battle.inferred] == [("walls", source, 2)]
    assert battle.blocks_move[0, 1] and battle.blocks_move[1, 2] and not battle.blocks_move[0, 0]
    assert not any("unknown property" in w for w in battle.warnings)  # the property was understood


def test_false_properties_and_other_classes_mark_nothing(tmp_path):
    battle = plain(tmp_path, tile_layer("ground", ROWS), tsx=marked({"collides": False, "walkable": True}))
    assert battle.inferred == () and battle.blocks_move.count_nonzero() == 0


def test_a_tile_property_saying_water(tmp_path):
    battle = plain(tmp_path, tile_layer("ground", ROWS), tsx=marked({"swim": True}))
    assert battle.inferred[0].source == "the tile property 'swim'" and battle.water.count_nonzero() == 2


def collision_tileset(width: float, height: float, shape: str = "") -> str:
    extra = (f' <tile id="1">\n  <objectgroup draworder="index">\n   <object id="1" x="0" y="0" width="{width}" '
             f'height="{height}">{shape}</object>\n  </objectgroup>\n </tile>\n')
    return tileset_xml(tile_props={}, extra=extra)


@pytest.mark.parametrize("width, height, shape, walls", [
    (32, 32, "", 2), (32, 16, "", 2), (32, 8, "", 0), (32, 32, "<ellipse/>", 2), (4, 4, "", 0),
])
def test_collision_shapes_covering_half_a_tile_make_it_a_wall(tmp_path, width, height, shape, walls):
    battle = plain(tmp_path, tile_layer("ground", ROWS), tsx=collision_tileset(width, height, shape))
    assert battle.blocks_move.count_nonzero() == walls
    if walls:
        assert battle.inferred[0].source == "the tiles' collision shapes (Tiled's collision editor)"


def test_a_polygon_collision_shape(tmp_path):
    triangle = collision_tileset(0, 0, '<polygon points="0,0 32,0 32,32 0,32"/>')
    assert plain(tmp_path, tile_layer("ground", ROWS), tsx=triangle).blocks_move.count_nonzero() == 2


def test_collision_shapes_have_a_work_budget(tmp_path, monkeypatch):
    monkeypatch.setattr("game.io.tiled.inference.SHAPE_WORK_BUDGET", 10)
    with pytest.raises(DataFileError, match="collision shapes are too many or too detailed"):
        plain(tmp_path, tile_layer("ground", ROWS), tsx=collision_tileset(32, 32))


def test_an_object_layer_named_collision_walls_what_its_objects_cover(tmp_path):
    layer = object_layer("Collision", obj("", 32, 0, 64, 32), obj("", 0, 64, 4, 4))  # the small one: its square
    battle = plain(tmp_path, tile_layer("ground", grid(4, 3)), layer)
    assert battle.inferred[0].text == "walls taken from the layer 'Collision': 3 squares"
    assert battle.blocks_move.tolist() == [[False, True, True, False], [False] * 4, [True, False, False, False]]
    assert not any("ignored objects" in w for w in battle.warnings)


def test_objects_of_a_wall_class_in_any_layer(tmp_path):
    battle = plain(tmp_path, tile_layer("ground", grid(4, 3)), object_layer("Objects", obj("wall", 0, 0, 32, 32)))
    assert battle.inferred[0].source == "the objects of class 'wall'" and battle.blocks_move[0, 0]


def test_a_map_in_fivefoots_terms_is_read_only_so(tmp_path):
    tsx = tileset_xml(tile_props={2: {"collides": True}, 3: {"cover": "1/2"}})
    battle = plain(tmp_path, tile_layer("Collision", ROWS), tsx=tsx)
    assert battle.inferred == () and battle.notes == () and battle.blocks_move.count_nonzero() == 0
    assert any("unknown property 'collides'" in w for w in battle.warnings)


def test_doors_alone_do_not_make_a_map_fivefoots(tmp_path):
    battle = plain(tmp_path, tile_layer("Walls", ROWS), tsx=marked({"door": True}))
    assert battle.inferred[0].squares == 8 and battle.door.count_nonzero() == 2  # doors in a wall layer stay open
    assert not (battle.door.numpy() & battle.blocks_move.numpy()).any()


def test_a_map_with_nothing_to_infer_from_says_so_in_check_map(tmp_path, capsys):
    path = write_map(tmp_path, tmx(tile_layer("ground", ROWS)), tsx=PLAIN)
    assert main(["check-map", str(path)]) == 0
    out = capsys.readouterr().out
    assert "  notes:\n    - no walls, cover or heights found: every square is open ground; see maps/README.md" in out
    assert main(["check-map", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["inferred"] == [] and report["notes"] == [
        "no walls, cover or heights found: every square is open ground; see maps/README.md"]
    assert report["asset_root"] == str(tmp_path.resolve())


def test_check_map_lists_each_inference_with_its_source_and_count(tmp_path, capsys):
    path = write_map(tmp_path, tmx(tile_layer("ground", ROWS), tile_layer("Collision", ROWS)), tsx=marked({"swim": True}))
    assert main(["check-map", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["inferred"] == [
        {"kind": "water (difficult ground)", "source": "the tile property 'swim'", "squares": 2,
         "text": "water (difficult ground) taken from the tile property 'swim': 2 squares"},
        {"kind": "walls", "source": "the layer 'Collision'", "squares": 10,
         "text": "walls taken from the layer 'Collision': 10 squares"}]
    assert report["blocking"] == 10 and report["water"] == 2 and report["warnings"] == []
    assert main(["check-map", str(path)]) == 0
    assert ("read from the map's own conventions:\n"
            "    - water (difficult ground) taken from the tile property 'swim': 2 squares\n"
            "    - walls taken from the layer 'Collision': 10 squares\n") in capsys.readouterr().out


def test_props_xml_keeps_string_tuples():  # the builder the tests above lean on
    assert 'type="string" value="yes"' in props_xml({"Solid": ("string", "yes")})
