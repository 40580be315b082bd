"""The stdlib map loader writes every layer of every map exactly as the numpy rasteriser it
replaced did (tests/tiled_reference.py): the shipped maps, Tiled's own examples and generated
maps with every kind of terrain object, compared square by square."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.values.battlemap import LAYER_KINDS
from game.core.values.errors import DataFileError
from game.io.tiled.convention import battlemap_from_document
from game.io.tiled.document import read_document
from game.io.tiled.shapes import Grid, covered
from game.io.tiled.objects import MapObject
from tiled_maps import (BRUSH, DOOR, FLOOR, FOG, ROCK, SMOKE, STAIRS, TOWER, TREE, WALL, WATER, group, obj,
                                object_layer, png_bytes, tile_layer, tmx, write_map)
from tiled_reference import covered as reference_covered
from tiled_reference import reference_battlemap

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "tiled-corpus" / "tiled-examples"
SHIPPED = sorted(REPO.glob("maps/*.tmx"))
EXAMPLES = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".tmx", ".tmj", ".json")) if CORPUS.is_dir() else []


def assert_same_as_reference(path: Path) -> None:
    """fivefoot's own convention (what a map made for another game would add is tiled/inference's,
    tested in test_tiled_inference) against the reference."""
    try:
        ours = battlemap_from_document(read_document(path), infer=False)
    except DataFileError as err:
        with pytest.raises(DataFileError) as theirs:
            reference_battlemap(read_document(path))
        assert str(theirs.value) == str(err)
        return
    reference = reference_battlemap(read_document(path))
    for name in LAYER_KINDS:
        mine, want = getattr(ours, name), getattr(reference, name)
        assert mine.tolist() == want.tolist(), name
        assert np.array_equal(mine.numpy(), want.numpy()) and mine.numpy().dtype == want.numpy().dtype, name
    assert (ours.spawns, ours.warnings, ours.title) == (reference.spawns, reference.warnings, reference.title)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_maps_load_as_the_numpy_rasteriser_did(path):
    assert_same_as_reference(path)


@pytest.mark.skipif(not EXAMPLES, reason=f"Tiled example corpus not found at {CORPUS}")
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_tiled_examples_load_as_the_numpy_rasteriser_did(path):
    assert_same_as_reference(path)


def _every_kind_of_terrain() -> str:
    rows = [[(WALL, TREE, FOG, BRUSH, DOOR, WATER, TOWER, SMOKE, ROCK, FLOOR, STAIRS, 0)[(x * 5 + y * 3) % 12]
             for x in range(40)] for y in range(30)]
    over = [[STAIRS if (x // 4 + y // 3) % 3 == 0 else 0 for x in range(40)] for y in range(30)]
    objects = [
        obj("terrain", 40.5, 30.2, 200, 100, props={"difficult": True}),
        obj("terrain", 300, 200, 150, 90, props={"cover": "3/4", "elevation": 15}, attrs=' rotation="33"'),
        obj("terrain", 500, 100, shape='<polygon points="0,0 300,40 120,260 -60,190 40,90"/>',
            props={"water": True, "elevation": -5}),
        obj("terrain", 700, 500, shape='<polygon points="0,0 200,0 0,200 200,200"/>', props={"concealment": "1/2"},
            attrs=' rotation="-20"'),
        obj("terrain", 100, 600, 400, 250, shape="<ellipse/>", props={"blocks_sight": True, "height": 12}),
        obj("terrain", 900, 300, 170, 333, shape="<ellipse/>", props={"cover": "1/4"}, attrs=' rotation="61"'),
        obj("terrain", 20, 900, shape='<polyline points="0,0 600,-300 1100,20 1250,-700"/>',
            props={"blocks_move": True, "height": 3}),
        obj("terrain", 1000, 900, shape="<point/>", props={"door": True}),
        obj("terrain", 1200, 50, 64, 64, props={"wall": True}),
        obj("terrain", -100, -100, 300, 300, props={"elevation": 25}, attrs=' rotation="45"'),
    ]
    return tmx(tile_layer("ground", rows), group("raised", tile_layer("steps", over), props={"elevation": 10}),
               object_layer("terrain", *objects), tile_layer("top", over, props={"cover": "1/2"}),
               width=40, height=30)


def test_every_kind_of_terrain_object_lands_as_the_numpy_rasteriser_put_it(tmp_path):
    assert_same_as_reference(write_map(tmp_path, _every_kind_of_terrain()))


coordinate = st.floats(-400, 1200, allow_nan=False).map(lambda v: round(v, 2))
size = st.floats(0.5, 900, allow_nan=False).map(lambda v: round(v, 2))


@settings(max_examples=300, deadline=None)
@given(shape=st.sampled_from(["rectangle", "ellipse", "polygon", "polyline", "point"]), x=coordinate, y=coordinate,
       w=size, h=size, rotation=st.sampled_from([0.0, 90.0, 30.0, -45.0, 180.0, 12.5]),
       points=st.lists(st.tuples(coordinate, coordinate), min_size=3, max_size=9, unique=True),
       tile=st.sampled_from([(32, 32), (32, 24), (16, 40)]))
def test_objects_cover_the_squares_the_numpy_rasteriser_gave(shape, x, y, w, h, rotation, points, tile):
    grid = Grid(30, 25, *tile, "m.tmx")
    kept = tuple(points) if shape in ("polygon", "polyline") else ()
    thing = MapObject(id=1, name="", cls="terrain", shape=shape, x=x, y=y, width=w, height=h, rotation=rotation,
                      points=kept, where="o")
    mine = covered(thing, (3.5, -7.25), grid).full(25, 30)
    reference_grid = Grid(30, 25, *tile, "m.tmx")
    want = reference_covered(thing, (3.5, -7.25), reference_grid).full(25, 30)
    assert mine == want.tolist()
    # Hostile maps are charged at least the work the reference charged: a polygon's edge-by-row steps and a
    # polyline's samples now cost grid.STEP_COST each (issue 29: the budget at about a second of CPU)
    assert grid.work >= reference_grid.work


def test_a_layer_of_over_256_kinds_of_square_lands_as_the_numpy_rasteriser_put_it(tmp_path):
    # 300 tiles, each its own height and elevation: more kinds of square than one byte numbers
    tiles = "".join(f' <tile id="{i}"><properties><property name="height" type="int" value="{i + 1}"/>'
                    f'<property name="elevation" type="int" value="{-i}"/></properties></tile>\n'
                    for i in range(300))
    tsx = ('<?xml version="1.0" encoding="UTF-8"?>\n<tileset version="1.10" name="t" tilewidth="32" '
           f'tileheight="32" tilecount="400" columns="20">\n <image source="tiles.png" width="640" '
           f'height="640"/>\n{tiles}</tileset>\n')
    rows = [[1 + (x * 7 + y * 31) % 320 for x in range(30)] for y in range(20)]
    path = write_map(tmp_path, tmx(tile_layer("g", rows), tile_layer("h", rows[::-1]), width=30, height=20), tsx=tsx)
    (tmp_path / "tiles.png").write_bytes(png_bytes(640, 640))
    assert_same_as_reference(path)
    assert len({gid for row in rows for gid in row if gid <= 300}) > 256  # so the layer needs wide codes
