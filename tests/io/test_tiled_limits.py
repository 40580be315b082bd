"""Map files that used to crash, stall or exhaust memory: each now gets one clear message.

Symbolic link loops, megabyte-long attributes and names, floods of terrain objects, giant
images and tileset paths outside the asset root. Large files are generated here, never
committed. The speed figures are printed by bench/bench_hostile_maps.py.
"""
from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.cli import main
from game.io.tiled import shapes as tiled_shapes
from game.io.tiled import load_map, load_tiled_map
from game.io.tiled.shapes import Grid, covered
from game.io.tiled.objects import MapObject
from budget import cpu_budget
from test_tiled_hostile import refused
from tiled_maps import (grid, object_layer, png_bytes, props_xml, tile_layer, tileset_xml, tmx,
                                write_map, write_world)

GROUND = tile_layer("g", grid(4, 3))


def cli_refuses(capsys, path, message: str, command: str = "check-map", extra=()) -> str:
    """The CLI gives exit code 2 and one line naming the problem, no traceback."""
    args = [command, str(path), *extra] + (["--headless", "--frames", "1"] if command == "play" else [])
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("fivefoot: error: ") and message in err, err
    return err


# --- 1. symbolic link loops ---------------------------------------------------------------

@pytest.mark.parametrize("command", ["check-map", "play"])
def test_a_map_that_is_a_link_loop(tmp_path, capsys, command):
    (tmp_path / "a.tmx").symlink_to("b.tmx")
    (tmp_path / "b.tmx").symlink_to("a.tmx")
    cli_refuses(capsys, tmp_path / "a.tmx", "a.tmx: the map file is a symbolic link loop", command)


@pytest.mark.parametrize("command", ["check", "play"])
def test_a_scenario_whose_map_is_a_link_loop(tmp_path, capsys, command):
    (tmp_path / "loop.tmx").symlink_to("loop.tmx")
    scenario = tmp_path / "s.toml"
    scenario.write_text('ruleset = "bfrpg"\n[map]\nfile = "loop.tmx"\n[[figures]]\nid = "a"\nside = "blue"\n'
                        'template = "foot"\nx = 0\ny = 0\n')
    cli_refuses(capsys, scenario, "s.toml: map.file: the map file is a symbolic link loop", command)


def test_a_map_linking_to_itself(tmp_path):
    (tmp_path / "self.tmx").symlink_to("self.tmx")
    refused(tmp_path / "self.tmx", "the map file is a symbolic link loop", loader=load_map)


@pytest.mark.parametrize("command", ["check-map", "play"])
def test_a_tileset_that_is_a_link_loop(tmp_path, capsys, command):
    path = write_map(tmp_path, tmx(GROUND, tilesets=' <tileset firstgid="1" source="loop.tsx"/>\n'))
    (tmp_path / "loop.tsx").symlink_to("loop.tsx")
    cli_refuses(capsys, path, "m.tmx: tileset: the tileset 'loop.tsx' is a symbolic link loop", command)


def test_an_image_that_is_a_link_loop(tmp_path):
    path = write_map(tmp_path, tmx(GROUND), tsx=tileset_xml(image="loop.png"))
    (tmp_path / "loop.png").symlink_to("loop.png")
    refused(path, "tileset 't': the image 'loop.png' is a symbolic link loop")


def test_a_template_that_is_a_link_loop(tmp_path):
    write_world(tmp_path)
    (tmp_path / "loop.tx").symlink_to("loop.tx")
    layer = object_layer("o", '  <object id="1" template="loop.tx" x="0" y="0"/>\n')
    refused(write_map(tmp_path, tmx(GROUND, layer)), "the object template 'loop.tx' is a symbolic link loop")


def test_an_asset_root_that_is_a_link_loop(tmp_path):
    path = write_map(tmp_path / "m", tmx(GROUND))
    (tmp_path / "root").symlink_to("root")
    refused(path, "asset root: the asset root", asset_root=tmp_path / "root")


# --- 2. huge attributes and text ------------------------------------------------------------

def test_a_30_mb_title_is_refused_before_parsing(tmp_path, capsys):
    path = write_map(tmp_path, tmx(GROUND, props={"title": "x" * 30_000_000}))  # generated: never committed
    refused(path, "line 4: the <property> element holds an attribute value (a name, title or property value) "
                  "over 1 MiB long; fivefoot allows at most 1 MiB", trace_memory=False)
    cli_refuses(capsys, path, "over 1 MiB long")


def test_a_huge_multi_line_property_is_refused(tmp_path):
    text = tmx(GROUND).replace("<tileset", '<properties><property name="description">'
                                          + "y\n" * 600_000 + "</property></properties>\n <tileset", 1)
    refused(write_map(tmp_path, text), "the <property> element holds text (a multi-line property value, say) over 1 MiB")


def test_a_huge_title_in_tiled_json_is_refused(tmp_path):
    document = {"type": "map", "orientation": "orthogonal", "width": 4, "height": 3, "tilewidth": 32,
                "tileheight": 32, "layers": [], "properties": [{"name": "title", "value": "x" * 2_000_000}]}
    refused(write_map(tmp_path, json.dumps(document), name="m.tmj"),
            "map, property 'title': is text over 1 MiB long", loader=load_map)


def test_big_tile_layer_data_is_not_capped_as_text(tmp_path):
    rows = grid(1000, 1000)  # 2 MB of CSV in one <data> element: allowed, its size is checked against the map's
    battle = load_tiled_map(write_map(tmp_path, tmx(tile_layer("g", rows), width=1000, height=1000)))
    assert (battle.width, battle.height) == (1000, 1000)


def test_a_title_just_under_the_cap_loads_and_check_map_shows_it_cut(tmp_path, capsys):
    title, description = "T" * 1_000_000, "D" * 500_000
    path = write_map(tmp_path, tmx(GROUND, props={"title": title, "description": description}))
    assert load_tiled_map(path).title == title
    assert main(["check-map", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"title:        {'T' * 200}... (1,000,000 characters in all)" in out
    assert f"description:  {'D' * 2000}... (500,000 characters in all)" in out
    assert len(out) < 5000
    assert main(["check-map", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["title"] == title  # the JSON report keeps every field whole


# --- 3. "did you mean" on a huge unknown name ---------------------------------------------------

def test_a_megabyte_property_name_gets_a_short_warning_and_no_slow_hint(tmp_path):
    path = write_map(tmp_path, tmx(GROUND, props={"w" * 1_000_000: True, "titel": "x"}))
    battle = load_tiled_map(path)
    long_one, typo = battle.warnings
    assert long_one.startswith("map properties: unknown property 'www") and long_one.endswith("...', ignored")
    assert len(long_one) < 200
    assert typo == "map properties: unknown property 'titel', ignored (did you mean 'title'?)"


def test_a_25_mb_property_name_is_refused_fast(tmp_path):
    refused(write_map(tmp_path, tmx(GROUND, props={"n" * 25_000_000: 1})), "over 1 MiB long", trace_memory=False)


# --- 4. terrain objects ----------------------------------------------------------------------

def _rectangles(count: int, side: int = 1000) -> str:
    objects = "".join(f'<object id="{i}" type="terrain" x="{(i * 37) % (side * 32)}" y="{(i * 91) % (side * 32)}" '
                      'width="64" height="64"/>' for i in range(count))
    layer_props = props_xml({"water": True})
    return f' <objectgroup name="o">\n{layer_props}{objects}</objectgroup>\n'


def test_many_small_terrain_rectangles_on_a_big_map_load_quickly(tmp_path):
    # Each object used to get a mask over the whole map: 40,000 of them took about 18 s; 10,000 (the
    # cap, game/io/tiled/assets.MAX_OBJECTS) now take well under 1 s of CPU, so a budget of ten times
    # that fails only if the work grows with the map again.
    path = write_map(tmp_path, tmx(_rectangles(10_000), width=1000, height=1000))
    with cpu_budget(10.0, "placing 10,000 small rectangles"):
        battle = load_tiled_map(path)
    assert battle.water.count_nonzero() > 10_000 and battle.water[0, 0] and not battle.water[-1, -1]


def test_a_flood_of_whole_map_terrain_objects_is_refused_by_the_work_budget(tmp_path):
    objects = "".join(f'<object id="{i}" type="terrain" x="0" y="0" width="32000" height="32000" rotation="{i % 7}"/>'
                      for i in range(200))
    layer = f' <objectgroup name="o">\n{props_xml({"water": True})}{objects}</objectgroup>\n'
    refused(write_map(tmp_path, tmx(layer, width=1000, height=1000)),
            "terrain objects are too detailed or too many to place on the map within fivefoot's work budget",
            trace_memory=False)  # tracing makes it ten times slower


def test_upright_whole_map_rectangles_stay_cheap(tmp_path):
    objects = "".join(f'<object id="{i}" type="terrain" x="0" y="0" width="32000" height="32000"/>' for i in range(40))
    layer = f' <objectgroup name="o">\n{props_xml({"difficult": True})}{objects}</objectgroup>\n'
    assert load_tiled_map(write_map(tmp_path, tmx(layer, width=1000, height=1000))).difficult.numpy().all()


def _centre_inside(shape: str, obj: MapObject, cx: float, cy: float) -> bool:
    """Brute force: is the square centre (cx, cy) inside the object, by the object's own frame."""
    import math
    angle = math.radians(obj.rotation)
    dx, dy = cx - obj.x, cy - obj.y
    lx = dx * math.cos(angle) + dy * math.sin(angle)
    ly = -dx * math.sin(angle) + dy * math.cos(angle)
    if shape == "ellipse":
        rx, ry = obj.width / 2, obj.height / 2
        return ((lx - rx) / rx) ** 2 + ((ly - ry) / ry) ** 2 <= 1.0
    if shape == "rectangle":
        return 0 <= lx < obj.width and 0 <= ly < obj.height
    inside = False  # even-odd rule for polygons
    points = obj.points
    for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1]):
        if (ay <= ly) != (by <= ly) and lx < ax + (ly - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


# Square centres lie on whole pixels: offsets that keep every edge (x + w, x - w when turned half round,
# x +- a polygon point) off whole numbers, so no edge runs exactly through a centre. x and y take
# different fractions so that, turned 45 degrees, the edges through the object's origin (where a
# centre lies when dx = +-dy) miss every centre too.
coordinate = st.integers(-80, 460).map(lambda v: v + 0.3)
coordinate_y = st.integers(-80, 460).map(lambda v: v + 0.2)
size = st.integers(1, 300).map(lambda v: v + 0.4)


@settings(max_examples=150, deadline=None)
@given(shape=st.sampled_from(["rectangle", "ellipse", "polygon"]), x=coordinate, y=coordinate_y, w=size, h=size,
       rotation=st.sampled_from([0.0, 0.0, 90.0, 30.0, -45.0, 180.0]),
       points=st.lists(st.tuples(st.integers(-150, 150), st.integers(-150, 150)), min_size=3, max_size=7,
                       unique=True))
def test_coverage_in_the_bounding_box_matches_a_brute_force_test_of_every_square(shape, x, y, w, h, rotation,
                                                                                 points):
    """Coverage kept to the object's box must equal testing every square centre of the map."""
    grid_ = Grid(12, 10, 32, 32, "m.tmx")
    local = tuple((px + 0.45, py + 0.45) for px, py in points)
    obj_ = MapObject(id=1, name="", cls="terrain", shape=shape, x=x, y=y, width=w, height=h, rotation=rotation,
                     points=local if shape == "polygon" else (), where="o")
    mask = covered(obj_, (0.0, 0.0), grid_).full(10, 12)
    expected = np.array([[_centre_inside(shape, obj_, (cx + 0.5) * 32, (cy + 0.5) * 32) for cx in range(12)]
                         for cy in range(10)])
    assert np.array_equal(mask, expected)


def test_the_work_budget_counts_each_object(monkeypatch, tmp_path):
    monkeypatch.setattr(tiled_shapes.Grid, "WORK_BUDGET", 64 * 50)
    refused(write_map(tmp_path, tmx(_rectangles(100, side=4))), "terrain objects are too detailed or too many")


# --- 5. giant images ------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["check-map", "play"])
def test_a_valid_16384_pixel_square_tileset_is_refused_with_the_budget(tmp_path, capsys, command):
    # Only the header is written: the loader never decodes, and the renderer is never reached.
    path = write_map(tmp_path, tmx(GROUND), tsx=tileset_xml(width=16384, height=16384))
    (tmp_path / "tiles.png").write_bytes(png_bytes(16384, 16384, body=False))
    cli_refuses(capsys, path, "t.tsx: tileset 't': the image 'tiles.png' is 16384x16384 pixels, more than fivefoot "
                              "draws for one map (67,108,864 pixels in all", command)


def test_the_image_budget_counts_every_image_of_the_map(tmp_path):
    write_world(tmp_path)
    for name in ("a.png", "b.png"):
        (tmp_path / name).write_bytes(png_bytes(8000, 5000, body=False))
    layers = "".join(f' <imagelayer name="{n}"><image source="{n}.png"/></imagelayer>\n' for n in "ab")
    refused(write_map(tmp_path, tmx(GROUND, layers)),
            "image layer 'b': the image 'b.png' is 8000x5000 pixels, which with the map's other images is more than")


# --- 7. the asset root hint names options that exist -------------------------------------------

def test_the_asset_root_hint_names_real_options(tmp_path, capsys):
    write_world(tmp_path / "tilesets")
    (tmp_path / "maps").mkdir()
    path = tmp_path / "maps" / "m.tmx"
    path.write_text(tmx(GROUND, tilesets=' <tileset firstgid="1" source="../tilesets/t.tsx"/>\n'))
    assert main(["play", str(path), "--headless", "--frames", "1"]) == 0  # the folder holding both, found
    capsys.readouterr()
    err = cli_refuses(capsys, path, "lies outside the asset root", "play", ["--asset-root", str(tmp_path / "maps")])
    assert "`--asset-root DIR` on `play`, `check-map`" in err and "asset_root in a scenario's [map] table" in err
    assert main(["check-map", str(path), "--asset-root", str(tmp_path)]) == 0
    scenario = tmp_path / "maps" / "s.toml"
    scenario.write_text('ruleset = "bfrpg"\n[map]\nfile = "m.tmx"\nasset_root = ".."\n[[figures]]\nid = "a"\n'
                        'side = "blue"\ntemplate = "foot"\nx = 0\ny = 0\n')
    assert main(["check", str(scenario)]) == 0
