"""The fivefoot map convention: tile, tileset, layer, group and object properties to squares."""
from __future__ import annotations

import pytest

from game.core.values.cover import COVER_INDEX

from game.core.values.battlemap import UNBOUNDED_HEIGHT_FT
from game.core.values.errors import DataFileError
from tiled_maps import (BRUSH, DOOR, FLOOR, FOG, ODD, ROCK, SMOKE, STAIRS, TOWER, TREE, WALL, WATER,
                                grid, group, load, obj, object_layer, props_xml, tile_layer, tileset_xml, tmx, write_map)
from game.io.tiled import load_tiled_map


def test_map_properties_give_title_description_and_ruleset(tmp_path):
    battle = load(tmp_path, tile_layer("ground", grid(4, 3)),
                  props={"title": "Bridge", "description": "A narrow bridge.", "ruleset": "odnd"})
    assert (battle.title, battle.description, battle.default_ruleset) == ("Bridge", "A narrow bridge.", "odnd")
    assert battle.source.endswith("m.tmx")


def test_unknown_ruleset_is_refused(tmp_path):
    with pytest.raises(DataFileError, match="ruleset 'gurps' is unknown; use one of bfrpg, ch17, cnc, odnd, spelljammer"):
        load(tmp_path, tile_layer("ground", grid(4, 3)), props={"ruleset": "gurps"})


def test_tile_properties_become_square_terrain(tmp_path):
    rows = [[WALL, TREE, FOG, BRUSH], [DOOR, WATER, TOWER, SMOKE], [ROCK, FLOOR, 0, ODD]]
    battle = load(tmp_path, tile_layer("ground", rows))
    # a wall is what BattleMap.add_wall makes
    assert battle.blocks_move[0, 0] and battle.blocks_sight[0, 0]
    assert battle.cover[0, 0] == COVER_INDEX["full"]
    assert battle.obstacle_height_ft[0, 0] == UNBOUNDED_HEIGHT_FT
    assert battle.obstacle_height_ft[1, 2] == 10 and battle.blocks_move[1, 2]  # a wall with a stated height
    assert battle.blocks_move[0, 1] and not battle.blocks_sight[0, 1]
    assert battle.cover[0, 1] == COVER_INDEX["1/2"] and battle.obstacle_height_ft[0, 1] == 30
    assert battle.concealment[0, 2] == COVER_INDEX["1/2"]
    assert battle.concealment[0, 3] == COVER_INDEX["1/4"] and battle.difficult[0, 3]
    assert battle.door[1, 0] and not battle.blocks_move[1, 0]
    assert battle.water[1, 1]
    assert battle.blocks_sight[1, 3] and not battle.blocks_move[1, 3]
    assert battle.cover[2, 0] == COVER_INDEX["3/4"]
    assert not battle.blocks_move[2, 1:].any() and battle.elevation_ft.numpy().max() == 0


def test_layers_combine_flags_or_degrees_max_heights_max(tmp_path):
    battle = load(
        tmp_path,
        tile_layer("ground", [[BRUSH, FOG, TREE, FLOOR]] * 3),
        tile_layer("top", [[FOG, BRUSH, TOWER, 0]] * 3),
    )
    assert battle.concealment[0, 0] == battle.concealment[0, 1] == COVER_INDEX["1/2"]
    assert battle.difficult[0, 0] and battle.difficult[0, 1]      # OR across layers
    assert battle.blocks_move[0, 2] and battle.blocks_sight[0, 2]  # tree under a walled tower
    assert battle.obstacle_height_ft[0, 2] == 30                  # the taller of 30 (tree) and 10 (wall)
    assert battle.cover[0, 2] == COVER_INDEX["full"]


def test_layer_properties_apply_to_its_non_empty_tiles(tmp_path):
    battle = load(
        tmp_path,
        tile_layer("ground", grid(4, 3)),
        tile_layer("mud", [[FLOOR, FLOOR, 0, 0]] * 3, props={"difficult": True, "concealment": "1/4"}),
    )
    assert battle.difficult[:, :2].all() and not battle.difficult[:, 2:].any()
    assert (battle.concealment[:, :2] == COVER_INDEX["1/4"]).all()


def test_elevation_comes_from_the_topmost_layer_that_sets_it(tmp_path):
    battle = load(
        tmp_path,
        tile_layer("ground", grid(4, 3)),
        tile_layer("ledge", [[FLOOR] * 4] * 2 + [[0] * 4], props={"elevation": 10}),
        tile_layer("tower", [[FLOOR, 0, 0, 0]] * 3, props={"elevation": 20}),
        tile_layer("decor", grid(4, 3, BRUSH)),  # sets no elevation: changes nothing
    )
    assert battle.elevation_ft.tolist() == [[20, 10, 10, 10], [20, 10, 10, 10], [20, 0, 0, 0]]


def test_a_layer_elevation_overrides_its_tiles_own(tmp_path):
    battle = load(
        tmp_path,
        tile_layer("ground", [[STAIRS, FLOOR, FLOOR, FLOOR]] * 3),
        tile_layer("upper stairs", [[0, STAIRS, 0, 0]] * 3, props={"elevation": 15}),
    )
    assert battle.elevation_ft[0].tolist() == [5, 15, 0, 0]


def test_tileset_properties_apply_to_every_tile_of_the_tileset(tmp_path):
    tsx = tileset_xml(props={"difficult": True})
    path = write_map(tmp_path, tmx(tile_layer("ground", [[FLOOR, 0, WALL, FLOOR]] * 3)), tsx=tsx)
    battle = load_tiled_map(path)
    assert battle.difficult[:, 0].all() and not battle.difficult[:, 1].any()


def test_group_properties_reach_nested_layers_and_document_order_is_kept(tmp_path):
    battle = load(
        tmp_path,
        tile_layer("ground", grid(4, 3)),
        group("walls", group("inner", tile_layer("walk", [[FLOOR, FLOOR, 0, 0]] * 3)), props={"elevation": 20}),
        tile_layer("patch", [[0, FLOOR, 0, 0]] * 3, props={"elevation": 5}),
    )
    assert battle.elevation_ft[0].tolist() == [20, 5, 0, 0]


def test_object_layers_stay_in_document_order(tmp_path):
    # pytmx 3.32 moves object layers after tile layers (its issue #106); the order decides elevation here
    terrain = object_layer("hill", obj("terrain", 0, 0, 128, 96, props={"elevation": 30}))
    floor = tile_layer("floor", [[FLOOR, 0, 0, 0]] * 3, props={"elevation": 5})
    below = load(tmp_path / "a", terrain, floor)
    above = load(tmp_path / "b", floor, terrain)
    assert below.elevation_ft[0].tolist() == [5, 30, 30, 30]
    assert above.elevation_ft[0].tolist() == [30, 30, 30, 30]


# --- terrain objects ---------------------------------------------------------------

def test_terrain_rectangle_covers_squares_whose_centres_it_covers(tmp_path):
    battle = load(tmp_path, tile_layer("g", grid(4, 3)),
                  object_layer("o", obj("terrain", 20, 10, 50, 40, props={"difficult": True})))
    # spans x 20..70 and y 10..50: of the square centres 16, 48, 80 only 48 across, 16 and 48 down
    assert battle.difficult.tolist() == [[False, True, False, False], [False, True, False, False],
                                         [False, False, False, False]]


def test_terrain_polygon_ellipse_point_and_polyline(tmp_path):
    triangle = obj("terrain", 0, 0, shape='   <polygon points="0,0 128,0 0,96"/>\n', props={"water": True})
    ellipse = obj("terrain", 0, 0, 128, 96, shape="   <ellipse/>\n", props={"concealment": "1/2"})
    point = obj("terrain", 100, 70, shape="   <point/>\n", props={"door": True})
    line = obj("terrain", 16, 80, shape='   <polyline points="0,0 96,0"/>\n', props={"difficult": True})
    battle = load(tmp_path, tile_layer("g", grid(4, 3)), object_layer("o", triangle, ellipse, point, line))
    assert battle.water.numpy().astype(int).tolist() == [[1, 1, 1, 0], [1, 1, 0, 0], [1, 0, 0, 0]]
    assert (battle.concealment.numpy() > 0).astype(int).tolist() == [[0, 1, 1, 0], [1, 1, 1, 1], [0, 1, 1, 0]]
    assert battle.door.numpy().astype(int).tolist() == [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]]
    assert battle.difficult[2].tolist() == [True, True, True, True]


def test_rotated_terrain_rectangle(tmp_path):
    # a 32x96 strip at (0, 32) rotated 90° clockwise about its top-left corner lies along row 1, to the left
    strip = obj("terrain", 128, 32, 32, 96, attrs=' rotation="90"', props={"water": True})
    battle = load(tmp_path, tile_layer("g", grid(4, 3)), object_layer("o", strip))
    assert battle.water.numpy().astype(int).tolist() == [[0, 0, 0, 0], [0, 1, 1, 1], [0, 0, 0, 0]]


def test_object_layer_properties_apply_to_its_terrain_objects_and_class_attribute_works(tmp_path):
    tiled19 = '  <object id="1" class="terrain" x="0" y="0" width="32" height="32"/>\n'
    battle = load(tmp_path, tile_layer("g", grid(4, 3)),
                  object_layer("marsh", tiled19, obj("terrain", 32, 0, 32, 32), props={"difficult": True}))
    assert battle.difficult[0].tolist() == [True, True, False, False]


def test_tile_object_of_class_terrain_uses_its_tile_and_hangs_from_bottom_left(tmp_path):
    tree = obj("terrain", 32, 64, 32, 32, attrs=f' gid="{TREE}"')
    battle = load(tmp_path, tile_layer("g", grid(4, 3)), object_layer("o", tree))
    assert battle.blocks_move.numpy().astype(int).tolist() == [[0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0]]
    assert battle.cover[1, 1] == COVER_INDEX["1/2"]


# --- spawns ------------------------------------------------------------------------

def test_spawns_from_points_tiles_and_rectangles(tmp_path):
    spawns = object_layer(
        "spawns",
        obj("spawn", 40, 40, shape="   <point/>\n", name="Aldo",
            props={"side": "red", "template": "knight", "facing": "se", "altitude": 15}),
        obj("spawn", 64, 96, 32, 32, attrs=f' gid="{FLOOR}"', props={"side": "blue"}),  # tile object: square (2, 2)
        obj("spawn", 96, 0, 32, 32, props={"side": "blue", "name": "Bea"}),
    )
    battle = load(tmp_path, tile_layer("g", grid(4, 3)), spawns)
    first, second, third = battle.spawns
    assert (first.x, first.y, first.side, first.template, first.name, first.facing, first.altitude_ft) == (
        1, 1, "red", "knight", "Aldo", "SE", 15)
    assert (second.x, second.y, second.facing, second.template) == (2, 2, "N", "")
    assert (third.x, third.y, third.name) == (3, 0, "Bea")
    assert battle.summary()["spawns"] == {"red": 1, "blue": 2}


def test_spawn_layer_properties_are_defaults_for_its_spawns(tmp_path):
    spawns = object_layer("red army", obj("spawn", 10, 10), obj("spawn", 42, 10, props={"template": "archer"}),
                          props={"side": "red", "template": "foot", "facing": "S"})
    battle = load(tmp_path, tile_layer("g", grid(4, 3)), spawns)
    assert [(s.side, s.template, s.facing) for s in battle.spawns] == [("red", "foot", "S"), ("red", "archer", "S")]


def test_extra_spawn_properties_are_kept_and_reported(tmp_path):
    spawn = obj("spawn", 10, 10, props={"side": "red", "hp": 7})
    battle = load(tmp_path, tile_layer("g", grid(4, 3)), object_layer("s", spawn))
    assert battle.spawns[0].properties == {"hp": 7}
    assert any("spawn property 'hp' is not part of the convention" in w for w in battle.warnings)


@pytest.mark.parametrize("props, x, y, message", [
    ({}, 10, 10, "spawn has no 'side' property"),
    ({"side": "red", "facing": "up"}, 10, 10, "spawn facing 'UP' is unknown; use one of N, NE, E, SE, S, SW, W, NW"),
    ({"side": "red", "altitude": "high"}, 10, 10, "property 'altitude' is 'high'; it must be a whole number ft from 0"),
    ({"side": "red"}, 500, 10, "spawn lies outside the map"),
    ({"side": "red"}, 10, 42, r"stands on square \(0, 1\), which blocks movement"),
])
def test_bad_spawns_are_refused(tmp_path, props, x, y, message):
    with pytest.raises(DataFileError, match=message):
        load(tmp_path, tile_layer("g", [[FLOOR] * 4, [WALL] * 4, [FLOOR] * 4]),
             object_layer("s", obj("spawn", x, y, props=props)))


def test_two_spawns_on_one_square_are_refused(tmp_path):
    layer = object_layer("s", obj("spawn", 1, 1, props={"side": "red"}, name="A"),
                         obj("spawn", 2, 2, props={"side": "blue"}, name="B"))
    with pytest.raises(DataFileError, match=r"spawn 'B' shares square \(0, 0\) with spawn 'A'"):
        load(tmp_path, tile_layer("g", grid(4, 3)), layer)


# --- templates ---------------------------------------------------------------------

def test_object_templates_are_applied_and_instances_override(tmp_path):
    (tmp_path / "tpl").mkdir(parents=True)
    (tmp_path / "tpl" / "knight.tx").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<template>\n'
        ' <object name="Template Knight" type="spawn">\n'
        '  <properties><property name="side" value="red"/><property name="template" value="knight"/>'
        '<property name="facing" value="E"/></properties>\n  <point/>\n </object>\n</template>\n')
    (tmp_path / "tpl" / "tree.tx").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<template>\n <tileset firstgid="1" source="../t.tsx"/>\n'
        f' <object type="terrain" gid="{TREE}" width="32" height="32"/>\n</template>\n')
    objects = object_layer(
        "o",
        '  <object id="1" template="tpl/knight.tx" x="10" y="10"/>\n',
        '  <object id="2" template="tpl/knight.tx" name="Sir Two" x="42" y="10">'
        '<properties><property name="facing" value="W"/></properties></object>\n',
        '  <object id="3" template="tpl/tree.tx" x="96" y="96"/>\n',
    )
    battle = load(tmp_path, tile_layer("g", grid(4, 3)), objects)
    assert [(s.name, s.side, s.template, s.facing) for s in battle.spawns] == [
        ("Template Knight", "red", "knight", "E"), ("Sir Two", "red", "knight", "W")]
    assert battle.blocks_move[2, 3] and battle.blocks_move.count_nonzero() == 1


# --- warnings and bad values --------------------------------------------------------

def test_unknown_properties_are_warned_with_their_place(tmp_path):
    tsx = tileset_xml(tile_props={FLOOR: {"colour": "teal"}, WALL: {"wall": True, "colour": "grey"}})
    text = tmx(
        tile_layer("ground", grid(4, 3), props={"Elevation": 5}),
        object_layer("o", obj("", 0, 0, 32, 32, props={"wall": True}, name="Crate")),
        props={"author": "me"},
    )
    battle = load_tiled_map(write_map(tmp_path, text, tsx=tsx))
    warnings = "\n".join(battle.warnings)
    assert "map properties: unknown property 'author', ignored" in warnings
    assert "tile layer 'ground': unknown property 'Elevation', ignored (did you mean 'elevation'?)" in warnings
    assert "tileset 't': tiles 0, 1 have unknown property 'colour'" in warnings
    assert "'Crate': has fivefoot properties (wall) but its class is ''" in warnings


@pytest.mark.parametrize("props, message", [
    ({"elevation": ("string", "high")}, "property 'elevation' is 'high'; it must be a whole number ft from -10000 to 10000"),
    ({"wall": ("string", "maybe")}, "property 'wall' is 'maybe'; it must be true or false"),
    ({"cover": "lots"}, "property 'cover' is 'lots'; it must be one of \"none\", \"1/4\", \"1/2\", \"3/4\", \"full\""),
    ({"height": -3}, "property 'height' is -3; it must be from 0 to 10000 ft"),
    ({"elevation": 2.5}, "property 'elevation' is '2.5'; it must be a whole number"),
])
def test_bad_property_values_are_refused_with_what_is_allowed(tmp_path, props, message):
    with pytest.raises(DataFileError, match=message.replace("(", r"\(").replace(")", r"\)")) as caught:
        load(tmp_path, tile_layer("ground", grid(4, 3), props=props))
    assert "tile layer 'ground'" in str(caught.value)


def test_bad_tile_property_in_tileset_names_the_tileset_file(tmp_path):
    tsx = tileset_xml(tile_props={WALL: {"wall": ("string", "maybe")}})
    with pytest.raises(DataFileError, match=r"t\.tsx: tileset 't', tile 1: property 'wall' is 'maybe'"):
        load_tiled_map(write_map(tmp_path, tmx(tile_layer("g", grid(4, 3))), tsx=tsx))


def test_layer_offset_and_square_properties_on_image_layers_are_reported(tmp_path):
    battle = load(tmp_path, tile_layer("g", grid(4, 3), attrs=' offsetx="8"'),
                  ' <imagelayer name="sky">\n' + props_xml({"water": True}) + '<image source="tiles.png"/></imagelayer>\n')
    assert any("tile layer 'g': its pixel offset is ignored" in w for w in battle.warnings)
    assert any("image layer 'sky': image layers are only drawn; their square properties are ignored" in w
               for w in battle.warnings)
    assert not battle.water.count_nonzero()


def test_a_tile_object_takes_its_tiles_class(tmp_path):
    tsx = tileset_xml(tile_props={}).replace("</tileset>", f' <tile id="{TREE - 1}" type="terrain">\n'
                                             '  <properties><property name="blocks_move" type="bool" value="true"/>'
                                             '</properties>\n </tile>\n</tileset>')
    text = tmx(tile_layer("g", grid(4, 3)), object_layer("o", obj("", 64, 96, 32, 32, attrs=f' gid="{TREE}"')))
    battle = load_tiled_map(write_map(tmp_path, text, tsx=tsx))
    assert battle.blocks_move.numpy().astype(int).tolist() == [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 1, 0]]
    assert battle.warnings == ()
