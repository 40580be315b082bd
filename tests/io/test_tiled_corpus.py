"""Every map in Tiled's own examples (../shared/tiled-corpus) loads or is refused for a stated reason.

The corpus sits beside the repository and is never copied into it; without it these tests skip.
Where pytmx can load a map too, the tile GIDs read here must equal pytmx's.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from game.core.values.errors import DataFileError
from game.io.tiled import load_map, tile_image_sources
from game.io.tiled.document import TileLayer, read_document

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "tiled-corpus" / "tiled-examples"
pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"Tiled example corpus not found at {CORPUS}")

LOADS = "loads"
EXPECTED = {
    "desert.tmx": LOADS,
    "forest/forest.tmx": LOADS,
    "hexagonal-mini.tmx": "is a hexagonal map; fivefoot plays on square grids only",
    "isometric_grass_and_water.tmx": "is an isometric map; fivefoot plays on square grids only",
    "isometric_staggered_grass_and_water.tmx": "is a staggered map; fivefoot plays on square grids only",
    "orthogonal-outside.tmx": LOADS,
    "perspective_walls.tmx": LOADS,
    "rpg/island.tmx": LOADS,
    **{f"sewer_automap/rule_00{i}.tmx": LOADS for i in range(1, 10)},
    "sewer_automap/sewers.tmx": LOADS,
    "sewers.tmx": LOADS,
    "sticker-knight/map/sandbox.tmx": LOADS,
    "sticker-knight/map/sandbox2.tmx": LOADS,
    "sticker-knight/ui/title.json": LOADS,
    "test_hexagonal_tile_60x60x30.tmx": "is a hexagonal map; fivefoot plays on square grids only",
}
PYTMX_READABLE = ["desert.tmx", "sewers.tmx", "rpg/island.tmx", "orthogonal-outside.tmx", "forest/forest.tmx",
                  "sticker-knight/map/sandbox.tmx"]


def corpus_maps() -> list[str]:
    if not CORPUS.is_dir():
        return []
    found = [p for p in CORPUS.rglob("*") if p.suffix in (".tmx", ".tmj")]
    found += [p for p in CORPUS.rglob("*.json") if _is_json_map(p)]
    return sorted(str(p.relative_to(CORPUS)) for p in found)


def _is_json_map(path: Path) -> bool:
    try:
        return json.loads(path.read_text()).get("type") == "map"
    except (ValueError, AttributeError):
        return False


def test_every_corpus_map_has_an_expected_outcome():
    assert corpus_maps() == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_map(name):
    # the automapping rules refer to ../sewer_tileset.png, so the corpus folder is the asset root
    path = CORPUS / name
    if EXPECTED[name] == LOADS:
        battle = load_map(path, asset_root=CORPUS)
        assert battle.width >= 1 and battle.height >= 1
        assert all(isinstance(w, str) and w for w in battle.warnings)
    else:
        with pytest.raises(DataFileError, match=EXPECTED[name]):
            load_map(path, asset_root=CORPUS)


def test_the_automapping_rules_read_their_parent_folder_as_tiled_does():
    # the examples' project file (examples.tiled-project) makes their folder the asset root
    battle = load_map(CORPUS / "sewer_automap" / "rule_002.tmx")
    assert battle.asset_root == str(CORPUS.resolve())
    assert str((CORPUS / "sewer_tileset.png").resolve()) in battle.files


def test_a_named_asset_root_is_never_widened():
    folder = CORPUS / "sewer_automap"
    with pytest.raises(DataFileError, match=r"the image '\.\./sewer_tileset\.png' lies outside the asset root"):
        load_map(folder / "rule_002.tmx", asset_root=folder)


def test_templates_in_the_sticker_knight_example_are_applied():
    battle = load_map(CORPUS / "sticker-knight" / "map" / "sandbox.tmx")
    ignored = " ".join(battle.warnings)
    assert "of class 'hero'" in ignored and "of class 'coin'" in ignored  # classes that only the templates give


def test_unknown_properties_in_the_corpus_are_reported():
    battle = load_map(CORPUS / "orthogonal-outside.tmx")
    assert "map properties: unknown property 'enemyTint', ignored" in battle.warnings


@pytest.mark.parametrize("name", PYTMX_READABLE)
def test_tile_gids_match_pytmx(name):
    pytmx = pytest.importorskip("pytmx")
    ours = {layer.name: layer.gids for layer in read_document(CORPUS / name).layers if isinstance(layer, TileLayer)}
    theirs = pytmx.TiledMap(str(CORPUS / name))  # its default image loader decodes nothing
    compared = 0
    for layer in theirs.layers:
        if isinstance(layer, pytmx.TiledTileLayer):
            gids = np.array([[theirs.tiledgidmap.get(g, 0) for g in row] for row in layer.data])
            assert np.array_equal(gids, ours[layer.name].numpy() & 0x1FFFFFFF), layer.name  # pytmx drops 3 flag bits
            compared += 1
    assert compared == len(ours)


def test_art_for_an_image_collection_uses_each_tiles_own_rectangle():
    art = tile_image_sources(CORPUS / "forest" / "forest.tmx")
    assert art.layer_names == ("platforms",) and len(art.images) == 22
    assert {(image.source.name, image.rect) for image in art.images.values()} == {("squirrel.png", (1, 1, 16, 16))}
