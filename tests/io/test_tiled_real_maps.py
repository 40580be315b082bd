"""Real maps nobody here wrote (../shared/tiled-corpus, read in place, never copied): every encoding
Tiled writes, infinite maps, layouts whose tilesets sit beside the maps' folder, walls and water
read from the maps' own conventions, and figures placed where a map has no spawns.

Without the corpus these tests skip; the same formats and conventions are tested on small files
made in the same layout in test_tiled_formats, test_tiled_inference and test_tiled_roots.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from game.io.scenarios import load_scenario
from game.io.tiled import load_map
from game.io.tiled.document import TileLayer, read_document
from game.io.tiled.layerdata import decode_tiles

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "tiled-corpus"
RS = CORPUS / "rs-tiled" / "assets"
EXAMPLES = CORPUS / "tiled-examples"
pytestmark = pytest.mark.skipif(not RS.is_dir() or not EXAMPLES.is_dir(), reason=f"no Tiled corpus at {CORPUS}")


def tile_layers(path: Path) -> dict:
    return {layer.name: layer.gids for layer in read_document(path).layers if isinstance(layer, TileLayer)}


@pytest.mark.parametrize("name", ["tiled_base64.tmx", "tiled_base64_gzip.tmx", "tiled_base64_zlib.tmx",
                                  "tiled_base64_zstandard.tmx", "tiled_base64_external.tmx"])
def test_each_base64_encoding_reads_the_tiles_of_the_csv_map(name):
    want = tile_layers(RS / "tiled_csv.tmx")
    got = tile_layers(RS / name)
    assert got.keys() == want.keys() and all(got[k].tolist() == want[k].tolist() for k in want)
    assert sum(g != 0 for g in want["Tile Layer 1"].cells) == 161


def test_the_xml_tile_format_reads_one_tile_element_a_square():
    # pytmx no longer reads this format; the file's own <tile gid> list, in order, is the answer
    from defusedxml.ElementTree import parse
    root = parse(RS / "tiled_xml.tmx").getroot()
    ours = tile_layers(RS / "tiled_xml.tmx")
    for layer in root.iter("layer"):
        want = [int(tile.get("gid", 0)) for tile in layer.find("data").findall("tile")]
        assert list(ours[layer.get("name")].cells) == want and sum(map(bool, want)) == 70


def test_an_infinite_map_is_played_on_its_chunks_box():
    path = RS / "tiled_base64_zlib_infinite.tmx"
    doc = read_document(path)
    battle = load_map(path)
    assert (battle.width, battle.height) == (doc.width, doc.height) == (64, 64)
    assert any("infinite map, played on the 64 x 64 squares" in note for note in battle.notes)
    # every tile of every chunk lands on the square its chunk's place says, the box's corner at (0, 0)
    from defusedxml.ElementTree import parse
    root = parse(path).getroot()
    chunks = [(chunk, layer) for layer in root.iter("layer") for chunk in layer.find("data").findall("chunk")]
    left = min(int(c.get("x")) for c, _ in chunks if c.text.strip())
    top = min(int(c.get("y")) for c, _ in chunks if c.text.strip())
    layers = {layer.name: layer.gids for layer in doc.layers if isinstance(layer, TileLayer)}
    for chunk, layer in chunks:
        w, h = int(chunk.get("width")), int(chunk.get("height"))
        gids = decode_tiles(layer.find("data"), chunk, w, h, "m", "l").numpy()
        if gids.any():
            x, y = int(chunk.get("x")) - left, int(chunk.get("y")) - top
            assert np.array_equal(layers[layer.get("name")].numpy()[y:y + h, x:x + w], gids)


@pytest.mark.parametrize("name", ["folder/tiled_relative_paths.tmx", "templates/example.tmx"])
def test_maps_whose_files_sit_beside_their_folder_open_with_no_flag(name):
    battle = load_map(RS / name)
    assert battle.asset_root == str(RS.resolve())  # the nearest folder holding everything they use
    assert all(Path(f).resolve().is_relative_to(RS.resolve()) for f in battle.files)


def test_the_tiled_project_folder_is_the_asset_root():
    battle = load_map(EXAMPLES / "sewer_automap" / "rule_003.tmx")
    assert battle.asset_root == str(EXAMPLES.resolve())  # examples.tiled-project sits there


def test_walls_from_a_layer_named_walls_in_a_pygame_tutorial_map():
    battle = load_map(CORPUS / "pyscroll" / "apps" / "tutorial" / "data" / "grasslands.tmx")
    assert [(i.kind, i.source) for i in battle.inferred] == [("walls", "the layer 'walls'")]
    assert battle.inferred[0].squares == battle.blocks_move.count_nonzero() == 474


def test_walls_from_the_collision_editor_shapes_of_tiles():
    battle = load_map(CORPUS / "pytmx" / "apps" / "data" / "acid0.tmx")
    assert battle.inferred[0].source == "the tiles' collision shapes (Tiled's collision editor)"
    assert battle.blocks_move.count_nonzero() == battle.inferred[0].squares > 0


def test_walls_from_wall_layers_keep_their_doors_open():
    battle = load_map(EXAMPLES / "perspective_walls.tmx")
    assert {i.source for i in battle.inferred} >= {"the layer 'Walls'"}
    assert battle.door.count_nonzero() > 0
    assert not (battle.door.numpy() & battle.blocks_move.numpy()).any()


def test_water_from_terrain_set_colours_and_from_animated_ground():
    outside = load_map(EXAMPLES / "orthogonal-outside.tmx")
    assert [i.source for i in outside.inferred] == ["the terrain 'Water' of tileset 'outdoor'"]
    island = load_map(EXAMPLES / "rpg" / "island.tmx")
    assert island.inferred[0].kind == "water (difficult ground)" and island.inferred[0].squares > 1000
    assert island.water.count_nonzero() == island.difficult.count_nonzero() == island.inferred[0].squares


def test_a_map_with_nothing_to_read_says_so():
    battle = load_map(EXAMPLES / "desert.tmx")
    assert battle.inferred == () and battle.notes == (
        "no walls, cover or heights found: every square is open ground; see maps/README.md",)


def test_figures_on_an_island_stand_on_land_facing_each_other():
    scenario = load_scenario(EXAMPLES / "rpg" / "island.tmx")
    bmap = scenario.map
    by_side = {}
    for f in scenario.figures:
        assert not bmap.water[f.y, f.x] and not bmap.blocks_move[f.y, f.x]
        by_side.setdefault(f.side, []).append(f)
    blue, red = by_side["blue"], by_side["red"]
    assert len(blue) == len(red) == 2
    assert max(f.x for f in blue) < min(f.x for f in red)   # the map is wider than tall: west against east
    assert {f.facing for f in blue} == {2} and {f.facing for f in red} == {6}  # E and W
