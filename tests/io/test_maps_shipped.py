"""The five shipped maps load cleanly and hold the features each was built to show."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from game.core.values.battlemap import LAYER_KINDS
from game.core.values.cover import COVER_INDEX
from game.io.tiled import load_map, tile_image_sources

REPO = Path(__file__).resolve().parents[2]
SHIPPED = ("dungeon", "forest", "field", "castle", "canyon")
TEMPLATES = {"foot", "archer", "spearman", "knight", "flyer", "floater", "monster", "normal_man"}
RULESETS = {"bfrpg", "odnd", "cnc", "ch17", "spelljammer"}


def numpy_layers(battle) -> SimpleNamespace:
    """The map with each terrain layer as its numpy view: these tests do whole-layer numpy work."""
    return SimpleNamespace(**vars(battle) | {name: getattr(battle, name).numpy() for name in LAYER_KINDS})


@pytest.fixture(scope="module")
def maps():
    return {name: load_map(REPO / "maps" / f"{name}.tmx") for name in SHIPPED}


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_map_loads_cleanly_with_two_sides(maps, name):
    battle = maps[name]
    assert battle.warnings == ()
    assert battle.title and len(battle.description) > 80 and battle.default_ruleset in RULESETS
    sides = battle.summary()["spawns"]
    assert set(sides) == {"red", "blue"} and min(sides.values()) >= 4
    for spawn in battle.spawns:
        assert spawn.template in TEMPLATES and spawn.name
        assert not battle.blocks_move[spawn.y, spawn.x]


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_map_art_covers_every_square(name):
    art = tile_image_sources(REPO / "maps" / f"{name}.tmx")
    covered = {(x, y) for x, y, _ in art.images}
    battle_size = load_map(REPO / "maps" / f"{name}.tmx")
    assert len(covered) == battle_size.width * battle_size.height
    assert {image.source.name for image in art.images.values()} == {"fivefoot_tiles.png"}


def test_dungeon_has_corridors_and_doorways(maps):
    battle = numpy_layers(maps["dungeon"])
    assert (battle.width, battle.height) == (24, 18)
    assert battle.door.sum() >= 6 and (battle.door & battle.blocks_move).sum() == 1  # one barred door
    open_ = ~battle.blocks_move
    padded = np.pad(open_, 1)
    north, south, west, east = padded[:-2, 1:-1], padded[2:, 1:-1], padded[1:-1, :-2], padded[1:-1, 2:]
    corridor = open_ & ((north & south & ~west & ~east) | (west & east & ~north & ~south))
    assert corridor.sum() >= 15


def test_forest_has_trees_brush_and_fog(maps):
    battle = numpy_layers(maps["forest"])
    assert (battle.width, battle.height) == (30, 24)
    trees = battle.blocks_move & (battle.cover == COVER_INDEX["1/2"])
    brush = battle.difficult & (battle.concealment == COVER_INDEX["1/4"])
    fog = battle.concealment == COVER_INDEX["1/2"]
    assert trees.sum() > 40 and brush.sum() > 40 and fog.sum() > 40
    assert not battle.blocks_move[8:16, 10:21].all()  # the clearing is open
    archers = [s for s in battle.spawns if s.template == "archer"]
    assert {s.side for s in archers} == {"red", "blue"}


def test_field_is_open_ground_with_a_hedge(maps):
    battle = numpy_layers(maps["field"])
    assert (battle.width, battle.height) == (40, 30)
    clear = ~battle.blocks_move & ~battle.difficult & (battle.cover == 0) & ~battle.blocks_sight
    assert clear.mean() > 0.85
    hedge = battle.blocks_sight & battle.difficult
    assert hedge.sum() >= 12
    templates = [(s.side, s.template) for s in battle.spawns]
    assert templates.count(("blue", "knight")) >= 3 and templates.count(("red", "spearman")) >= 3


def test_castle_has_wall_walks_stairs_and_a_gate(maps):
    battle = numpy_layers(maps["castle"])
    assert (battle.width, battle.height) == (32, 24)
    levels = set(np.unique(battle.elevation_ft).tolist())
    assert {0, 5, 10, 15, 20} <= levels
    assert (battle.elevation_ft == 20).sum() >= 20 and (battle.elevation_ft == 15).sum() >= 20
    # every stair step touches a square 5 ft lower or higher: no jump on the way up
    for y, x in zip(*np.nonzero(battle.elevation_ft == 5)):
        neighbours = battle.elevation_ft[max(0, y - 1):y + 2, max(0, x - 1):x + 2]
        assert (neighbours == 0).any() and (neighbours == 10).any()
    gate = battle.door & ~battle.blocks_move
    assert gate.sum() >= 6
    parapets = (battle.cover > 0) & (battle.elevation_ft >= 15)
    assert parapets.sum() >= 20
    assert sum(battle.elevation_ft[s.y, s.x] >= 15 for s in battle.spawns if s.side == "red") >= 4


def test_canyon_has_floor_rims_mesa_and_flyers(maps):
    battle = numpy_layers(maps["canyon"])
    assert (battle.width, battle.height) == (40, 30)
    levels = set(np.unique(battle.elevation_ft).tolist())
    assert {0, 10, 20, 30, 40} <= levels
    assert (battle.elevation_ft == 0).sum() > 200 and (battle.elevation_ft == 30).sum() > 400
    assert (battle.elevation_ft == 40).sum() >= 12
    flyers = [s for s in battle.spawns if s.altitude_ft > 0]
    assert {s.side for s in flyers} == {"red", "blue"}
    assert not battle.blocks_sight.any()  # open sky


def _load_script(name: str):
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, REPO / "assets" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while it runs
    spec.loader.exec_module(module)
    return module


def test_shipped_files_are_what_the_scripts_make(tmp_path):
    tileset = _load_script("make_tileset")
    assert (REPO / "assets" / "fivefoot.tsx").read_text() == tileset.tsx_text("fivefoot_tiles.png", 256, 96)
    maker = _load_script("make_maps")
    maker.main(["--out", str(tmp_path)])
    for name in SHIPPED:
        assert (tmp_path / f"{name}.tmx").read_text() == (REPO / "maps" / f"{name}.tmx").read_text(), name


def test_the_tiled_project_offers_fivefoots_properties_as_they_are_read():
    """maps/fivefoot.tiled-project: the classes and enums Tiled offers hold exactly the names and values
    the convention reads (game/io/tiled/convention.py), so a map maker picks instead of typing."""
    import json

    from game.core.values.cover import COVER_DEGREES
    from game.core.values.geometry import FACINGS
    from game.io.paths import MAPS_DIR, bundled_ruleset_ids
    from game.io.tiled.convention import MAP_KEYS, SPAWN_KEYS, SQUARE_KEYS, SPAWN, TERRAIN

    project = json.loads((MAPS_DIR / "fivefoot.tiled-project").read_text())
    types = {t["name"]: t for t in project["propertyTypes"]}
    assert types["Degree"]["values"] == list(COVER_DEGREES) and types["Facing"]["values"] == list(FACINGS)
    assert types["Ruleset"]["values"] == bundled_ruleset_ids()
    for name, keys in ((TERRAIN, SQUARE_KEYS), (SPAWN, SPAWN_KEYS), ("battle", MAP_KEYS)):
        members = types[name]["members"]
        assert sorted(m["name"] for m in members) == sorted(keys), name
        assert all(m.get("propertyType") in (None, *types) for m in members)
    assert len({t["id"] for t in project["propertyTypes"]}) == len(types)


def test_enum_properties_as_tiled_writes_them_are_read(tmp_path):
    """Tiled writes an enum member as a string property naming its type (propertytype)."""
    from game.io.tiled import load_tiled_map
    from tiled_maps import grid, obj, object_layer, tile_layer, tmx, write_map
    terrain = obj("terrain", 0, 0, 64, 32).replace(
        "  </object>", '   <properties>\n    <property name="cover" propertytype="Degree" value="1/2"/>\n'
                       '    <property name="wall" type="bool" value="false"/>\n   </properties>\n  </object>')
    battle = load_tiled_map(write_map(tmp_path, tmx(tile_layer("g", grid(4, 3)), object_layer("t", terrain))))
    assert battle.cover.tolist()[0] == [2, 2, 0, 0]
