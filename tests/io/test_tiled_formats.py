"""What Tiled can save, read the same way: layer encodings, tileset kinds, JSON, asset roots, art."""
from __future__ import annotations

import base64
import gzip
import json
import zlib
from pathlib import Path

import numpy as np
import pytest

from game.core.values.errors import DataFileError
from game.io.tiled import default_asset_root, load_map, load_tiled_map, tile_image_sources
from tiled_maps import (FLOOR, TREE, WALL, WATER, csv_rows, grid, obj, object_layer, png_bytes, tile_layer,
                                tileset_xml, tmx, write_map, write_world)

ROWS = [[FLOOR, WALL, TREE, 0], [WATER, FLOOR, 0, WALL], [0, 0, TREE, FLOOR]]


def encoded(rows, compression: str | None) -> str:
    raw = np.array(rows, dtype="<u4").tobytes()
    packed = {None: raw, "zlib": zlib.compress(raw), "gzip": gzip.compress(raw)}[compression]
    attr = f' compression="{compression}"' if compression else ""
    return f'<data encoding="base64"{attr}>\n   {base64.b64encode(packed).decode()}\n  </data>'


@pytest.mark.parametrize("compression", [None, "zlib", "gzip"])
def test_base64_layers_read_like_csv(tmp_path, compression):
    reference = load_tiled_map(write_map(tmp_path / "csv", tmx(tile_layer("g", ROWS))))
    battle = load_tiled_map(write_map(tmp_path / "b64", tmx(tile_layer("g", ROWS, data=encoded(ROWS, compression)))))
    assert np.array_equal(battle.blocks_move, reference.blocks_move)
    assert np.array_equal(battle.water, reference.water)
    assert battle.blocks_move.count_nonzero() == 4


@pytest.mark.parametrize("data, message", [
    ('<data encoding="base64" compression="zstd">KLUv/QBYAQAA</data>', "holds 0 tiles (0 bytes), expected 4 x 3 = 12"),
    ('<data encoding="base64" compression="zstd">AAAAAAAA</data>', "zstd data is damaged"),
    ('<data><tile gid="1"/></data>', "has 1 <tile> elements, expected 4 x 3 = 12"),
    ('<data>1,2</data>', "layer data has no encoding; in Tiled choose Map > Map Properties > Tile Layer Format"),
    ('<data encoding="hex">00</data>', "uses unknown encoding 'hex'"),
    ('<data encoding="base64" compression="lz4">AAAA</data>', "uses unknown compression 'lz4'"),
])
def test_unreadable_layer_formats_are_refused_with_the_tiled_setting(tmp_path, data, message):
    with pytest.raises(DataFileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_tiled_map(write_map(tmp_path, tmx(tile_layer("g", ROWS, data=data))))


def test_flipped_tiles_keep_their_properties_and_flags_reach_the_art(tmp_path):
    flipped = [[WALL | 1 << 31, TREE | 1 << 30 | 1 << 29, FLOOR, FLOOR]] + [[FLOOR] * 4] * 2
    path = write_map(tmp_path, tmx(tile_layer("g", flipped)))
    battle = load_tiled_map(path)
    assert battle.blocks_move[0].tolist() == [True, True, False, False]
    art = tile_image_sources(path).images
    assert art[(0, 0, 0)].flip_x and not art[(0, 0, 0)].flip_y
    assert art[(1, 0, 0)].flip_y and art[(1, 0, 0)].flip_diagonal and not art[(1, 0, 0)].flip_x


def test_embedded_tileset_with_margin_and_spacing(tmp_path):
    write_world(tmp_path)
    (tmp_path / "sheet.png").write_bytes(png_bytes(67, 34))  # margin 1, spacing 1: two 32-px tiles across
    embedded = (
        ' <tileset firstgid="5" name="inline" tilewidth="32" tileheight="32" spacing="1" margin="1">\n'
        '  <image source="sheet.png" width="67" height="34"/>\n'
        '  <tile id="1"><properties><property name="water" type="bool" value="true"/></properties></tile>\n'
        ' </tileset>\n'
    )
    path = write_map(tmp_path, tmx(tile_layer("g", [[5, 6, 5, 6]] * 3), tilesets=embedded))
    assert load_tiled_map(path).water[:, 1].all()
    images = tile_image_sources(path).images
    assert images[(0, 0, 0)].rect == (1, 1, 32, 32) and images[(1, 0, 0)].rect == (34, 1, 32, 32)
    assert images[(0, 0, 0)].source == (tmp_path / "sheet.png").resolve()


def test_external_tileset_in_a_subfolder_finds_its_image_there(tmp_path):
    (tmp_path / "sets").mkdir(parents=True)
    (tmp_path / "sets" / "tiles.png").write_bytes(png_bytes(128, 96))
    (tmp_path / "sets" / "t.tsx").write_text(tileset_xml())
    path = tmp_path / "m.tmx"
    path.write_text(tmx(tile_layer("g", ROWS), tilesets=' <tileset firstgid="1" source="sets/t.tsx"/>\n'))
    assert load_tiled_map(path).blocks_move.count_nonzero() == 4
    assert tile_image_sources(path).images[(0, 0, 0)].source == (tmp_path / "sets" / "tiles.png").resolve()


def test_image_collection_tileset(tmp_path):
    write_world(tmp_path)
    (tmp_path / "ogre.png").write_bytes(png_bytes(64, 96))
    (tmp_path / "atlas.png").write_bytes(png_bytes(100, 100))
    collection = (
        ' <tileset firstgid="20" name="things" tilewidth="64" tileheight="96" tilecount="2" columns="0">\n'
        '  <tile id="0"><properties><property name="blocks_move" type="bool" value="true"/></properties>\n'
        '   <image source="ogre.png" width="64" height="96"/></tile>\n'
        '  <tile id="7" x="10" y="20" width="30" height="40"><image source="atlas.png" width="100" height="100"/></tile>\n'
        ' </tileset>\n'
    )
    path = write_map(tmp_path, tmx(tile_layer("g", [[20, 27, 0, 0]] * 3), tilesets=collection))
    assert load_tiled_map(path).blocks_move[:, 0].all()
    images = tile_image_sources(path).images
    assert images[(0, 0, 0)].rect == (0, 0, 64, 96)
    assert images[(1, 0, 0)].rect == (10, 20, 30, 40)
    with pytest.raises(DataFileError, match=r"square \(0, 0\)\: uses tile number 21, which is in no tileset"):
        load_tiled_map(write_map(tmp_path, tmx(tile_layer("g", [[21, 0, 0, 0]] * 3), tilesets=collection)))


def test_tile_art_lists_visible_layers_in_draw_order(tmp_path):
    path = write_map(tmp_path, tmx(
        tile_layer("ground", grid(4, 3)),
        tile_layer("hidden", grid(4, 3, WALL), attrs=' visible="0"'),
        tile_layer("trees", [[0, TREE, 0, 0]] * 3, attrs=' opacity="0.5"'),
    ))
    art = tile_image_sources(path)
    assert art.layer_names == ("ground", "hidden", "trees")
    assert (art.tile_width, art.tile_height) == (32, 32)
    assert len(art.images) == 12 + 3
    assert art.images[(1, 0, 2)].rect == (64, 0, 32, 32) and art.images[(1, 0, 2)].opacity == 0.5
    assert not any(layer == 1 for _, _, layer in art.images)
    assert load_tiled_map(path).blocks_move.numpy().all()  # hidden layers still count for the rules


# --- JSON ----------------------------------------------------------------------------

def json_map(tmp_path: Path, **changes) -> Path:
    write_world(tmp_path)
    document = {
        "type": "map", "orientation": "orthogonal", "width": 4, "height": 3, "tilewidth": 32, "tileheight": 32,
        "infinite": False,
        "properties": [{"name": "title", "type": "string", "value": "Jay Son"}],
        "tilesets": [{"firstgid": 1, "source": "t.tsx"}],
        "layers": [
            {"type": "tilelayer", "name": "g", "width": 4, "height": 3, "data": sum(ROWS, [])},
            {"type": "group", "name": "grp", "properties": [{"name": "elevation", "type": "int", "value": 10}],
             "layers": [{"type": "tilelayer", "name": "up", "width": 4, "height": 3,
                         "encoding": "base64", "compression": "zlib",
                         "data": base64.b64encode(zlib.compress(np.array([[FLOOR, 0, 0, 0]] * 3, "<u4").tobytes())).decode()}]},
            {"type": "objectgroup", "name": "s", "objects": [
                {"id": 1, "name": "Pip", "type": "spawn", "x": 40, "y": 40, "point": True,
                 "properties": [{"name": "side", "type": "string", "value": "blue"}]},
                {"id": 2, "type": "terrain", "x": 96, "y": 64, "width": 32, "height": 32,
                 "properties": [{"name": "difficult", "type": "bool", "value": True}]},
                {"id": 3, "type": "terrain", "x": 0, "y": 0, "polygon": [{"x": 64, "y": 0}, {"x": 128, "y": 0}, {"x": 128, "y": 32}],
                 "properties": [{"name": "door", "type": "bool", "value": True}]},
            ]},
        ],
    }
    document.update(changes)
    path = tmp_path / "m.tmj"
    path.write_text(json.dumps(document))
    return path


def test_tiled_json_maps_load_like_tmx(tmp_path):
    battle = load_map(json_map(tmp_path))
    assert battle.title == "Jay Son"
    assert battle.blocks_move.count_nonzero() == 4 and battle.water[1, 0]
    assert battle.elevation_ft[:, 0].tolist() == [10, 10, 10]
    assert [(s.name, s.side, s.x, s.y) for s in battle.spawns] == [("Pip", "blue", 1, 1)]
    assert battle.difficult[2, 3] and battle.door[0, 3] and battle.door.count_nonzero() == 1


def test_json_tileset_and_bad_json(tmp_path):
    tsj = {"type": "tileset", "name": "j", "tilewidth": 32, "tileheight": 32, "image": "tiles.png",
           "imagewidth": 128, "imageheight": 96,
           "tiles": [{"id": WATER - 1, "properties": [{"name": "wall", "type": "bool", "value": True}]}]}
    path = json_map(tmp_path, tilesets=[{"firstgid": 1, "source": "j.tsj"}])
    (tmp_path / "j.tsj").write_text(json.dumps(tsj))
    assert load_map(path).blocks_move.tolist()[1] == [True, False, False, False]  # only j.tsj's wall blocks
    path.write_text('{"type": "map", "width": 4,')
    with pytest.raises(DataFileError, match="is not valid JSON .* the file may be truncated"):
        load_map(path)
    path.write_text(json.dumps({"type": "map", "width": "four", "height": 3, "tilewidth": 32, "tileheight": 32}))
    with pytest.raises(DataFileError, match="width='four' is not a whole number"):
        load_map(path)


# --- dispatch, orientation, asset root -----------------------------------------------

def test_load_map_dispatches_by_extension(tmp_path):
    with pytest.raises(DataFileError, match=r"cannot read '\.txt' map files; draw the map in Tiled and save it as \.tmx"):
        load_map(tmp_path / "m.txt")
    with pytest.raises(DataFileError, match="is a Tiled tileset or template, not a map"):
        load_map(tmp_path / "t.tsx")
    with pytest.raises(DataFileError, match="the map file does not exist"):
        load_map(tmp_path / "missing.tmx")


@pytest.mark.parametrize("attrs, message", [
    ('orientation="isometric"', "is an isometric map; fivefoot plays on square grids only"),
    ('orientation="hexagonal" hexsidelength="8"', "is a hexagonal map"),
    ('orientation="staggered"', "is a staggered map"),
])
def test_non_square_maps_are_refused(tmp_path, attrs, message):
    text = tmx(tile_layer("g", ROWS)).replace('orientation="orthogonal"', attrs)
    with pytest.raises(DataFileError, match=message):
        load_tiled_map(write_map(tmp_path, text))


def test_an_infinite_map_without_chunks_is_its_stated_size(tmp_path):
    text = tmx(tile_layer("g", ROWS, data="<data encoding=\"csv\"></data>")).replace('infinite="0"', 'infinite="1"')
    battle = load_tiled_map(write_map(tmp_path, text))
    assert (battle.width, battle.height, battle.blocks_move.count_nonzero()) == (4, 3, 0)


def test_asset_root_allows_a_sibling_tileset_folder(tmp_path):
    write_world(tmp_path / "game" / "tilesets")
    (tmp_path / "game" / "maps").mkdir()
    path = tmp_path / "game" / "maps" / "m.tmx"
    path.write_text(tmx(tile_layer("g", ROWS), tilesets=' <tileset firstgid="1" source="../tilesets/t.tsx"/>\n'))
    battle = load_tiled_map(path)  # the nearest folder holding every file the map uses
    assert battle.blocks_move.count_nonzero() == 4 and battle.asset_root == str((tmp_path / "game").resolve())
    with pytest.raises(DataFileError, match=r"lies outside the asset root .*name that folder \(.*game\) as the asset "
                                            r"root: `--asset-root DIR` on `play`, `check-map`"):
        load_tiled_map(path, asset_root=tmp_path / "game" / "maps")
    assert load_tiled_map(path, asset_root=tmp_path / "game").blocks_move.count_nonzero() == 4


def test_shipped_maps_use_the_fivefoot_folder_as_asset_root(tmp_path):
    repo = Path(__file__).resolve().parents[2]
    assert default_asset_root(repo / "maps" / "dungeon.tmx") == repo
    assert default_asset_root(tmp_path / "m.tmx") == tmp_path.resolve()


def test_warnings_name_other_files_but_not_the_map(tmp_path):
    tsx = tileset_xml(tile_props={FLOOR: {"colour": "teal"}})
    battle = load_tiled_map(write_map(tmp_path, tmx(tile_layer("g", grid(4, 3)), props={"author": "x"}), tsx=tsx))
    assert battle.warnings[0] == "map properties: unknown property 'author', ignored"
    assert battle.warnings[1].startswith(str(tmp_path / "t.tsx") + ": tileset 't': tile 0 has unknown property")


def test_csv_layer_data_may_end_rows_with_commas(tmp_path):
    data = f'<data encoding="csv">\n{csv_rows(ROWS)},\n</data>'
    assert load_tiled_map(write_map(tmp_path, tmx(tile_layer("g", ROWS, data=data)))).blocks_move.count_nonzero() == 4


def test_objects_in_layers_with_offsets_move_with_the_layer(tmp_path):
    layer = object_layer("o", obj("terrain", 0, 0, 32, 32, props={"water": True}), attrs=' offsetx="64" offsety="32"')
    battle = load_tiled_map(write_map(tmp_path, tmx(tile_layer("g", grid(4, 3)), layer)))
    assert battle.water.numpy().astype(int).tolist() == [[0, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0]]


# --- every square-grid encoding Tiled writes, on files made in its layout -------------------------

def _base64(rows, compress) -> str:
    return base64.b64encode(compress(np.array(rows, "<u4").tobytes())).decode()


@pytest.mark.parametrize("data", [
    f'<data encoding="base64" compression="zstd">{_base64(ROWS, lambda b: __import__("zstandard").ZstdCompressor().compress(b))}</data>',
    f'<data encoding="base64" compression="gzip">{_base64(ROWS, gzip.compress)}</data>',
    f'<data encoding="base64" compression="zlib">{_base64(ROWS, zlib.compress)}</data>',
    f'<data encoding="base64">{_base64(ROWS, bytes)}</data>',
    "<data>" + "".join(f'<tile gid="{g}"/>' if g else "<tile/>" for row in ROWS for g in row) + "</data>",
], ids=["zstd", "gzip", "zlib", "base64", "xml"])
def test_each_layer_encoding_reads_the_same_squares(tmp_path, data):
    battle = load_tiled_map(write_map(tmp_path, tmx(tile_layer("g", ROWS, data=data))))
    reference = load_tiled_map(write_map(tmp_path / "csv", tmx(tile_layer("g", ROWS))))
    assert battle.blocks_move.tolist() == reference.blocks_move.tolist() and battle.water[1, 0]


def test_a_zstd_bomb_is_refused_without_unpacking_it(tmp_path):
    zstandard = pytest.importorskip("zstandard")
    bomb = base64.b64encode(zstandard.ZstdCompressor().compress(b"\0" * 50_000_000)).decode()
    data = f'<data encoding="base64" compression="zstd">{bomb}</data>'
    with pytest.raises(DataFileError, match="zstd data unpacks to more than the 12 tiles"):
        load_tiled_map(write_map(tmp_path, tmx(tile_layer("g", ROWS, data=data))))


def _chunk(x: int, y: int, rows) -> str:
    return f'<chunk x="{x}" y="{y}" width="{len(rows[0])}" height="{len(rows)}">{csv_rows(rows)}</chunk>'


def test_an_infinite_map_plays_on_the_box_of_its_non_empty_chunks(tmp_path):
    chunks = (_chunk(-4, -2, [[WALL, 0], [0, 0]]) + _chunk(2, 0, [[0, WATER], [0, 0]])
              + _chunk(40, 40, [[0, 0], [0, 0]]))          # an empty chunk far away is nothing
    spawn = obj("spawn", -3 * 32 + 16, -2 * 32 + 16, props={"side": "blue"})  # Tiled's square (-3, -2)
    text = tmx(tile_layer("g", [[0]], data=f'<data encoding="csv">{chunks}</data>'), object_layer("s", spawn),
               attrs="").replace('infinite="0"', 'infinite="1"')
    battle = load_tiled_map(write_map(tmp_path, text))
    assert (battle.width, battle.height) == (8, 4)                   # tiles -4..3, -2..1
    assert battle.blocks_move[0, 0] and battle.water[2, 7] and battle.blocks_move.count_nonzero() == 1
    assert [(s.x, s.y) for s in battle.spawns] == [(1, 0)]
    assert battle.notes[0].startswith("an infinite map, played on the 8 x 4 squares its tiles span")


def test_an_infinite_map_spread_too_far_is_refused_with_the_fix(tmp_path):
    chunks = _chunk(0, 0, [[WALL]]) + _chunk(5000, 0, [[WALL]])
    text = tmx(tile_layer("g", [[0]], data=f'<data encoding="csv">{chunks}</data>')).replace('infinite="0"', 'infinite="1"')
    with pytest.raises(DataFileError, match=r"spread over 5001 x 1 squares .* Erase the far-off tiles"):
        load_tiled_map(write_map(tmp_path, text))


def test_a_json_infinite_map_reads_its_chunks(tmp_path):
    path = json_map(tmp_path)
    document = json.loads(path.read_text())
    document["infinite"] = True
    document["layers"] = [{"type": "tilelayer", "name": "g", "chunks": [
        {"x": 16, "y": 0, "width": 2, "height": 1, "data": [WALL, FLOOR]},
        {"x": 0, "y": 1, "width": 2, "height": 1, "data": [0, WATER]}]}]
    path.write_text(json.dumps(document))
    battle = load_map(path)
    assert (battle.width, battle.height) == (18, 2) and battle.blocks_move[0, 16] and battle.water[1, 1]
