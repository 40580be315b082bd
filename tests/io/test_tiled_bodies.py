"""A Tiled spawn rectangle bigger than a tile gives its figure a body of its width and height in
tiles (maps/README.md, Spawns): a square body anchored at its top-left square, a body one square
wide at its front square; other shapes and facings across a long body are refused."""
import pytest

from game.core.values.errors import DataFileError
from game.io.scenarios import load_scenario

from tiled_maps import grid, load, obj, object_layer, tile_layer, tmx, write_map


def test_rectangles_give_footprints(tmp_path):
    spawns = object_layer(
        "spawns",
        obj("spawn", 0, 0, 64, 64, props={"side": "red", "template": "ogre"}),                  # 2 x 2 at 0,0
        obj("spawn", 96, 64, 64, 32, props={"side": "blue", "facing": "E", "template": "horse"}),  # 1 x 2, head at 4,2
        obj("spawn", 0, 96, 32, 64, props={"side": "blue", "facing": "N"}),                   # 1 x 2, head at 0,3
        obj("spawn", 160, 0, 32, 32, props={"side": "blue"}),                                 # one tile: one square
    )
    battle = load(tmp_path, tile_layer("g", grid(6, 5)), spawns, width=6, height=5)
    assert [((s.x, s.y), s.footprint) for s in battle.spawns] == [((0, 0), (2, 2)), ((4, 2), (1, 2)), ((0, 3), (1, 2)),
                                                                 ((5, 0), (1, 1))]
    scenario = load_scenario(tmp_path / "m.tmx")
    figures = {f.side + str(f.x): f for f in scenario.figures}
    assert figures["red0"].cells == ((0, 0), (1, 0), (0, 1), (1, 1))
    assert figures["blue4"].cells == ((4, 2), (3, 2))
    assert figures["blue0"].cells == ((0, 3), (0, 4))


@pytest.mark.parametrize("w, h, props, message", [
    (64, 32, {"side": "red", "facing": "N"}, "lies east-west: a body one square wide faces along its length, so give it facing E or W"),
    (64, 96, {"side": "red"}, "[2, 3] is not a shape the engine supports"),
    (32, 160, {"side": "red", "facing": "S"}, "[1, 5] is not a shape the engine supports"),
])
def test_bad_rectangles_are_refused_with_the_shapes_allowed(tmp_path, w, h, props, message):
    spawns = object_layer("spawns", obj("spawn", 0, 0, w, h, props=props))
    with pytest.raises(DataFileError) as err:
        load(tmp_path, tile_layer("g", grid(6, 6)), spawns, width=6, height=6)
    assert message in str(err.value)


def test_a_body_on_a_wall_or_on_another_spawn_is_refused(tmp_path):
    rows = grid(6, 5)
    spawns = object_layer("spawns", obj("spawn", 0, 0, 64, 64, props={"side": "red"}),
                          obj("spawn", 32, 32, 32, 32, props={"side": "blue"}))
    with pytest.raises(DataFileError, match=r"shares square \(1, 1\)"):
        load(tmp_path, tile_layer("g", rows), spawns, width=6, height=5)
    path = write_map(tmp_path / "w", tmx(tile_layer("g", rows), object_layer(
        "spawns", obj("spawn", 128, 64, 96, 96, props={"side": "red"})), width=6, height=5))
    with pytest.raises(DataFileError, match="reaches off the map"):
        load_scenario(path)
