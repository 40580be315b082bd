"""Tile objects and image layers are drawn where Tiled puts them, in document order (pixels checked).

Each test world holds solid-colour images made here; a map chunk is built headless and its
pixels read back, so every assertion is about what the player would see.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
import pygame  # noqa: E402

from game.core.values.errors import DataFileError  # noqa: E402
from game.io.tiled import load_map, load_tiled_map, tile_image_sources  # noqa: E402
from game.ui import tileart  # noqa: E402
from game.ui.maplayer import MapLayer  # noqa: E402
from tiled_maps import grid, obj, object_layer, png_bytes, tile_layer, tmx, write_world  # noqa: E402

RED, BLUE, GREEN, YELLOW = (220, 30, 30), (30, 60, 220), (30, 200, 60), (240, 220, 20)
CELL = 32  # draw at the map's own scale: one map pixel, one screen pixel
SHOTS = Path("/tmp/fivefoot-shots")
CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "tiled-corpus" / "tiled-examples"


def solid_png(path: Path, width: int, height: int, colour, right_colour=None) -> None:
    """A PNG of one colour (or two: the right half in `right_colour`, to see flips)."""
    pygame.init()
    surface = pygame.Surface((width, height), pygame.SRCALPHA)
    surface.fill(colour)
    if right_colour is not None:
        surface.fill(right_colour, pygame.Rect(width // 2, 0, width - width // 2, height))
    pygame.image.save(surface, str(path))


def world(folder: Path) -> Path:
    """tiles.png/t.tsx as usual, plus a collection tileset of coloured pictures (firstgid 100)."""
    write_world(folder)
    solid_png(folder / "red.png", 128, 96, RED)
    solid_png(folder / "blue.png", 64, 32, BLUE)
    solid_png(folder / "green.png", 32, 32, GREEN)
    solid_png(folder / "halves.png", 64, 32, BLUE, YELLOW)  # blue left, yellow right
    (folder / "pics.tsx").write_text(
        '<tileset name="pics" tilewidth="64" tileheight="32" tilecount="3" columns="0">\n'
        ' <tile id="0"><image source="blue.png" width="64" height="32"/></tile>\n'
        ' <tile id="1"><image source="green.png" width="32" height="32"/></tile>\n'
        ' <tile id="2"><image source="halves.png" width="64" height="32"/></tile>\n'
        "</tileset>\n")
    return folder


PICS = ' <tileset firstgid="1" source="t.tsx"/>\n <tileset firstgid="100" source="pics.tsx"/>\n'
BLUE_GID, GREEN_GID, HALVES_GID = 100, 101, 102
RED_LAYER = ' <imagelayer name="red"><image source="red.png" width="128" height="96"/></imagelayer>\n'


def green_at(x: int, y: int) -> str:
    rows = grid(4, 3, 0)
    rows[y][x] = GREEN_GID
    return tile_layer("green", rows)


def draw(folder: Path, *layers: str, name: str = "m.tmx") -> pygame.Surface:
    """The whole 4 x 3 map drawn as one chunk, grid off."""
    path = folder / name
    path.write_text(tmx(*layers, tilesets=PICS))
    layer = MapLayer(load_tiled_map(path), tile_image_sources(path))
    layer.show_grid = False
    return layer._build_chunk(CELL, 0, 0, layer.chunk_squares(CELL))


def colour_at(surface, square, offset=(16, 16)) -> tuple[int, int, int]:
    return tuple(surface.get_at((square[0] * CELL + offset[0], square[1] * CELL + offset[1])))[:3]


def test_an_image_layer_is_drawn_at_its_offset(tmp_path):
    folder = world(tmp_path)
    layer = ' <imagelayer name="strip" offsetx="32" offsety="32"><image source="blue.png"/></imagelayer>\n'
    chunk = draw(folder, layer)
    assert colour_at(chunk, (1, 1)) == BLUE and colour_at(chunk, (2, 1)) == BLUE
    for square in ((0, 1), (3, 1), (1, 0), (1, 2)):
        assert colour_at(chunk, square) != BLUE, square


def test_tile_objects_and_layers_are_drawn_in_document_order(tmp_path):
    folder = world(tmp_path)
    blue_object = object_layer("things", obj("", 32, 96, 64, 32, attrs=f' gid="{BLUE_GID}"'))  # squares (1,2), (2,2)
    chunk = draw(folder, RED_LAYER, blue_object, green_at(2, 2))
    SHOTS.mkdir(parents=True, exist_ok=True)
    pygame.image.save(chunk, str(SHOTS / "tiled-document-order.png"))
    assert colour_at(chunk, (0, 0)) == RED and colour_at(chunk, (3, 2)) == RED  # the image layer at the bottom
    assert colour_at(chunk, (1, 2)) == BLUE                                       # the tile object above it
    assert colour_at(chunk, (2, 2)) == GREEN                                      # the tile layer above both
    swapped = draw(folder, RED_LAYER, green_at(2, 2), blue_object, name="n.tmx")
    assert colour_at(swapped, (2, 2)) == BLUE  # the object layer now comes last, so it covers the tile


def test_objects_are_drawn_top_down_unless_the_layer_says_index(tmp_path):
    folder = world(tmp_path)
    lower = obj("", 32, 64, 64, 32, attrs=f' gid="{BLUE_GID}"', name="lower")   # squares (1,1), (2,1)
    upper = obj("", 64, 64, 32, 32, attrs=f' gid="{GREEN_GID}"', name="upper")  # square (2,1), listed first
    # Same y: top-down keeps the listed order, so the later (lower) object covers the earlier one.
    assert colour_at(draw(folder, object_layer("things", upper, lower)), (2, 1)) == BLUE
    by_index = object_layer("things", lower, upper, attrs=' draworder="index"')
    assert colour_at(draw(folder, by_index, name="b.tmx"), (2, 1)) == GREEN
    lower_down = obj("", 32, 96, 64, 32, attrs=f' gid="{BLUE_GID}"', name="down")  # squares (1,2), (2,2)
    above = obj("", 64, 96 - 8, 32, 32, attrs=f' gid="{GREEN_GID}"', name="above")  # listed last, y smaller
    chunk = draw(folder, object_layer("things", lower_down, above), name="c.tmx")
    assert colour_at(chunk, (2, 2), (16, 8)) == BLUE  # where both are: the one lower on the map is on top


def test_hidden_layers_and_objects_are_not_drawn(tmp_path):
    folder = world(tmp_path)
    hidden_object = obj("", 32, 96, 64, 32, attrs=f' gid="{BLUE_GID}" visible="0"')
    hidden_layer = RED_LAYER.replace('name="red"', 'name="red" visible="0"')
    chunk = draw(folder, hidden_layer, object_layer("things", hidden_object))
    assert RED not in {colour_at(chunk, (x, y)) for x in range(4) for y in range(3)}
    assert colour_at(chunk, (1, 2)) != BLUE


def test_flips_rotation_and_alignment(tmp_path):
    folder = world(tmp_path)
    flipped = obj("", 0, 32, 64, 32, attrs=f' gid="{HALVES_GID | 0x80000000}"')  # yellow left, blue right
    turned = obj("", 96, 32, 64, 32, attrs=f' gid="{BLUE_GID}" rotation="90"')   # turns about (96, 32)
    chunk = draw(folder, object_layer("things", flipped, turned))
    SHOTS.mkdir(parents=True, exist_ok=True)
    pygame.image.save(chunk, str(SHOTS / "tiled-flips-and-rotation.png"))
    assert colour_at(chunk, (0, 0)) == YELLOW and colour_at(chunk, (1, 0)) == BLUE
    # Turned a quarter clockwise about its bottom-left corner (96, 32): it now hangs down from there.
    assert colour_at(chunk, (3, 1)) == BLUE and colour_at(chunk, (3, 2)) == BLUE
    assert colour_at(chunk, (3, 0)) != BLUE and colour_at(chunk, (2, 1)) != BLUE
    centred = (folder / "pics.tsx").read_text().replace('columns="0"', 'columns="0" objectalignment="center"')
    (folder / "pics.tsx").write_text(centred)
    chunk = draw(folder, object_layer("things", obj("", 64, 48, 64, 32, attrs=f' gid="{BLUE_GID}"')), name="c.tmx")
    assert colour_at(chunk, (1, 1)) == BLUE and colour_at(chunk, (2, 1)) == BLUE
    assert colour_at(chunk, (1, 0)) != BLUE and colour_at(chunk, (1, 2)) != BLUE


def test_a_centred_terrain_tile_object_covers_the_squares_it_is_drawn_on(tmp_path):
    folder = world(tmp_path)
    centred = (folder / "pics.tsx").read_text().replace('columns="0"', 'columns="0" objectalignment="center"')
    (folder / "pics.tsx").write_text(centred)
    path = folder / "m.tmx"
    path.write_text(tmx(object_layer("things", obj("terrain", 64, 48, 64, 32, attrs=f' gid="{BLUE_GID}"',
                                                   props={"water": True})), tilesets=PICS))
    assert {(int(x), int(y)) for y, x in zip(*load_tiled_map(path).water.numpy().nonzero())} == {(1, 1), (2, 1)}


def test_a_repeated_image_layer_fills_its_row(tmp_path):
    folder = world(tmp_path)
    layer = ' <imagelayer name="row" offsety="64" repeatx="1"><image source="green.png"/></imagelayer>\n'
    chunk = draw(folder, layer)
    assert [colour_at(chunk, (x, 2)) for x in range(4)] == [GREEN] * 4
    assert GREEN not in {colour_at(chunk, (x, 1)) for x in range(4)}
    solid_png(folder / "dot.png", 2, 2, YELLOW)  # a tiny picture is tiled into blocks first
    line = ' <imagelayer name="line" offsetx="5" offsety="65" repeatx="1"><image source="dot.png"/></imagelayer>\n'
    chunk = draw(folder, line, name="n.tmx")
    assert {colour_at(chunk, (x, 2), (dx, 1)) for x in range(4) for dx in range(0, 32, 3)} == {YELLOW}
    assert YELLOW not in {colour_at(chunk, (x, 2), (16, 3)) for x in range(4)}


def test_a_big_picture_is_cut_to_the_chunk_and_looks_the_same(tmp_path, monkeypatch):
    folder = world(tmp_path)
    flipped = object_layer("things", obj("", 0, 32, 64, 32, attrs=f' gid="{HALVES_GID | 0x80000000}"'))
    whole = draw(folder, RED_LAYER, flipped)
    monkeypatch.setattr(tileart, "WHOLE_SPRITE_PIXELS", 1)  # every picture is now cut, not scaled whole
    cut = draw(folder, RED_LAYER, flipped, name="n.tmx")
    assert pygame.image.tobytes(whole, "RGB") == pygame.image.tobytes(cut, "RGB")


@pytest.mark.parametrize("flags", [0x20000000, 0x20000000 | 0x40000000, 0x20000000 | 0x80000000])
def test_a_cut_picture_keeps_diagonal_and_other_flips(tmp_path, monkeypatch, flags):
    folder = world(tmp_path)
    # blue | yellow halves, transposed (x and y swapped): blue on top, yellow below; a vertical flip after that
    # puts yellow on top, a horizontal one changes nothing here
    turned = object_layer("things", obj("", 32, 96, 64, 64, attrs=f' gid="{HALVES_GID | flags}"'))
    whole = draw(folder, turned)
    monkeypatch.setattr(tileart, "WHOLE_SPRITE_PIXELS", 1)
    cut = draw(folder, turned, name="n.tmx")
    samples = [(1, 1, 8, 8), (2, 1, 24, 8), (1, 2, 8, 24), (2, 2, 24, 24)]
    colours = [colour_at(whole, (x, y), (dx, dy)) for x, y, dx, dy in samples]
    assert colours == [colour_at(cut, (x, y), (dx, dy)) for x, y, dx, dy in samples]
    top, bottom = (YELLOW, BLUE) if flags & 0x40000000 else (BLUE, YELLOW)
    assert colours == [top, top, bottom, bottom]


def test_a_picture_that_cannot_be_decoded_is_skipped(tmp_path):
    folder = world(tmp_path)
    (folder / "red.png").write_bytes(png_bytes(128, 96, body=False))  # a valid header and nothing else
    chunk = draw(folder, RED_LAYER, green_at(1, 1))
    assert colour_at(chunk, (1, 1)) == GREEN and colour_at(chunk, (0, 0)) != RED


def test_image_layer_images_are_checked_at_load(tmp_path):
    folder = world(tmp_path)
    (folder / "m.tmx").write_text(tmx(' <imagelayer name="sky"><image source="gone.png"/></imagelayer>\n',
                                      tilesets=PICS))
    with pytest.raises(DataFileError, match=r"image layer 'sky': the image 'gone.png' does not exist"):
        load_tiled_map(folder / "m.tmx")
    (folder / "n.tmx").write_text(tmx(' <imagelayer name="empty"/>\n', tilesets=PICS))  # Tiled allows no image
    assert load_tiled_map(folder / "n.tmx").warnings == ()


def test_pictures_covering_the_map_too_many_times_are_refused(tmp_path):
    folder = world(tmp_path)
    many = object_layer("things", *(obj("", 0, 96, 128, 96, attrs=f' gid="{BLUE_GID}"', name=str(i))
                                    for i in range(70)))
    (folder / "m.tmx").write_text(tmx(many, tilesets=PICS))
    with pytest.raises(DataFileError, match=r"tile objects and image layers cover it more than 64 times over"):
        load_tiled_map(folder / "m.tmx")


def test_the_window_draws_them_where_the_squares_are(tmp_path):
    """Through the real window: the image layer and tile object show on their squares."""
    from game.io.scenarios import load_scenario
    from game.ui.app import App
    folder = world(tmp_path)
    spawns = object_layer("s", obj("spawn", 16, 16, props={"side": "blue"}), obj("spawn", 112, 16, props={"side": "red"}))
    blue_object = object_layer("things", obj("", 32, 96, 64, 32, attrs=f' gid="{BLUE_GID}"'))
    (folder / "m.tmx").write_text(tmx(RED_LAYER, blue_object, green_at(2, 2), spawns, tilesets=PICS))
    app = App(load_scenario(folder / "m.tmx"), sides={"blue": "human", "red": "human"}, background=False)
    app.camera.set_cell(64)
    for name in list(app.ui.overlays):
        app.set_overlay(name, False)
    app.map_layer.show_grid = False
    app.settle()
    app.screenshot(str(SHOTS / "tiled-objects-and-image-layer.png"))

    def at(square, dx=0, dy=0):
        sx, sy = app.screen_pos(square)
        return tuple(app.screen.get_at((int(sx) + dx, int(sy) + dy)))[:3]

    assert at((1, 1)) == RED and at((3, 1)) == RED
    assert at((1, 2)) == BLUE and at((2, 2)) == GREEN


# --- real maps ---------------------------------------------------------------------------

@pytest.mark.skipif(not CORPUS.is_dir(), reason="Tiled example corpus not found")
def test_the_sticker_knight_scene_is_made_of_tile_objects():
    art = tile_image_sources(CORPUS / "sticker-knight" / "map" / "sandbox.tmx")
    sprites = [sprite for layer in art.layers for sprite in layer.sprites]
    assert len(sprites) > 90 and not art.images  # the whole scene: no tile layer at all
    assert any(sprite.rotation for sprite in sprites)
    names = [layer.name for layer in art.layers]
    assert names.index("background") < names.index("ground")  # document order


# --- Tiled JSON properties ----------------------------------------------------------------------

def _json_map(properties) -> str:
    return json.dumps({"type": "map", "orientation": "orthogonal", "width": 4, "height": 3, "tilewidth": 32,
                       "tileheight": 32, "layers": [], "properties": properties})


def test_nested_class_properties_in_json_load_like_tmx(tmp_path):
    nested = [{"name": "physics", "type": "class", "propertytype": "Body",
               "value": {"mass": 3, "shape": {"kind": "box", "size": {"w": 1, "h": 2}}, "tags": ["a", "b"]}},
              {"name": "title", "type": "string", "value": "Nested"}]
    battle = load_map(_write(tmp_path, "m.tmj", _json_map(nested)))
    assert battle.title == "Nested"
    assert any("unknown property 'physics'" in w for w in battle.warnings)


def test_a_json_value_fivefoot_cannot_read_fails_only_when_used(tmp_path):
    path = _write(tmp_path, "m.tmj", _json_map([{"name": "ruleset", "type": "string", "value": None}]))
    with pytest.raises(DataFileError, match=r"ruleset '\(empty\)' is unknown"):
        load_map(path)


def test_pre_1_2_json_properties_say_to_resave_in_a_current_tiled(tmp_path):
    old = json.loads(_json_map([]))
    old["properties"], old["propertytypes"] = {"title": "Old"}, {"title": "string"}
    with pytest.raises(DataFileError, match=r"map, properties: is a JSON object, as Tiled wrote it before version "
                                            r"1\.2; open the file in a current Tiled and save it again"):
        load_map(_write(tmp_path, "m.tmj", json.dumps(old)))


def _write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text)
    return folder / name


MAGENTA = (255, 0, 255)


@pytest.mark.parametrize("json_tileset", [False, True])
def test_a_tilesets_transparent_colour_is_see_through(tmp_path, json_tileset):
    """Tiled's `trans` colour (JSON: transparentcolor): those pixels show what lies beneath, as in Tiled."""
    folder = world(tmp_path)
    solid_png(folder / "keyed.png", 32, 32, MAGENTA)
    if json_tileset:
        (folder / "keyed.tsj").write_text(json.dumps({
            "type": "tileset", "name": "keyed", "tilewidth": 32, "tileheight": 32, "tilecount": 1, "columns": 1,
            "image": "keyed.png", "imagewidth": 32, "imageheight": 32, "transparentcolor": "#ff00ff"}))
    else:
        (folder / "keyed.tsx").write_text(
            '<tileset name="keyed" tilewidth="32" tileheight="32" tilecount="1" columns="1">\n'
            ' <image source="keyed.png" trans="ff00ff" width="32" height="32"/>\n</tileset>\n')
    rows = grid(4, 3, 0)
    rows[1][1] = 200
    keyed = ' <tileset firstgid="200" source="keyed.%s"/>\n' % ("tsj" if json_tileset else "tsx")
    path = folder / "m.tmx"
    path.write_text(tmx(RED_LAYER, tile_layer("keyed", rows), tilesets=PICS + keyed))
    art = tile_image_sources(path)
    assert set(art.transparent.values()) == {MAGENTA}
    layer = MapLayer(load_tiled_map(path), art)
    layer.show_grid = False
    chunk = layer._build_chunk(CELL, 0, 0, layer.chunk_squares(CELL))
    assert colour_at(chunk, (1, 1)) == RED            # the red image layer shows through the keyed tile


def test_a_transparent_colour_tiled_cannot_have_written_is_said_and_ignored(tmp_path, capsys):
    from game.cli import main
    folder = world(tmp_path)
    (folder / "t.tsx").write_text((folder / "t.tsx").read_text().replace('<image ', '<image trans="pink" ', 1))
    path = folder / "m.tmx"
    path.write_text(tmx(tile_layer("ground", grid(4, 3)), tilesets=PICS))
    assert tile_image_sources(path).transparent == {}
    assert main(["check-map", str(path)]) == 0
    assert "transparent colour 'pink' is not rrggbb; the image is drawn whole" in capsys.readouterr().out
