"""The asset root a map's files are read from (tiled/roots): the Tiled project's folder, else the
nearest folder holding every file the map uses, within MAX_CLIMB folders and never home or /."""
from __future__ import annotations

from pathlib import Path

import pytest

from game.core.values.errors import DataFileError
from game.io.tiled import default_asset_root, load_tiled_map
from game.io.tiled.roots import MAX_CLIMB, climbable
from tiled_maps import grid, tile_layer, tmx, write_world

OUTSIDE = ' <tileset firstgid="1" source="{}"/>\n'


def game_folder(tmp_path: Path, depth: int = 1) -> Path:
    """tilesets/ beside a maps/ folder `depth` deep: game/maps/.../m.tmx refers to ../(..)/tilesets/t.tsx."""
    write_world(tmp_path / "game" / "tilesets")
    folder = tmp_path / "game" / "maps"
    for level in range(depth - 1):
        folder = folder / f"level{level}"
    folder.mkdir(parents=True)
    path = folder / "m.tmx"
    path.write_text(tmx(tile_layer("g", grid(4, 3)), tilesets=OUTSIDE.format("../" * depth + "tilesets/t.tsx")))
    return path


def test_a_project_file_makes_its_folder_the_root(tmp_path):
    path = game_folder(tmp_path, depth=2)
    (tmp_path / "game" / "game.tiled-project").write_text("{}")
    assert default_asset_root(path) == (tmp_path / "game").resolve()
    assert load_tiled_map(path).asset_root == str((tmp_path / "game").resolve())


def test_a_world_file_marks_a_project_folder_too(tmp_path):
    path = game_folder(tmp_path)
    (tmp_path / "game" / "maps" / "all.world").write_text("{}")
    assert default_asset_root(path) == (tmp_path / "game" / "maps").resolve()
    assert load_tiled_map(path).asset_root == str((tmp_path / "game").resolve())  # widened to take the tileset in


def test_without_a_project_the_root_widens_only_as_far_as_needed(tmp_path):
    path = game_folder(tmp_path, depth=3)
    assert default_asset_root(path) == path.parent.resolve()
    battle = load_tiled_map(path)
    assert battle.asset_root == str((tmp_path / "game").resolve()) and battle.width == 4


def test_the_climb_is_bounded(tmp_path):
    path = game_folder(tmp_path, depth=MAX_CLIMB + 1)
    with pytest.raises(DataFileError, match=r"lies outside the asset root .* name that folder"):
        load_tiled_map(path)


def test_the_climb_never_reaches_home_or_the_filesystem_root(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    folder = (tmp_path / "home" / "maps").resolve()
    assert climbable(folder) == [folder]
    assert climbable(Path("/a")) == [Path("/a")]
    assert Path("/") not in climbable(Path("/a/b/c/d/e/f"))


def test_a_link_out_of_the_reach_is_still_refused(tmp_path):
    write_world(tmp_path / "deep" / "a" / "b" / "c" / "d" / "e")
    folder = tmp_path / "deep" / "a" / "b" / "c" / "d" / "e"
    (folder / "evil.tsx").symlink_to("/etc/passwd")
    (folder / "m.tmx").write_text(tmx(tile_layer("g", grid(4, 3)), tilesets=OUTSIDE.format("evil.tsx")))
    with pytest.raises(DataFileError, match="the tileset 'evil.tsx' lies outside the asset root"):
        load_tiled_map(folder / "m.tmx")


def test_only_the_file_kinds_a_map_may_use_are_read(tmp_path):
    write_world(tmp_path)
    (tmp_path / "notes.txt").write_text("<tileset/>")
    (tmp_path / "m.tmx").write_text(tmx(tile_layer("g", grid(4, 3)), tilesets=OUTSIDE.format("notes.txt")))
    with pytest.raises(DataFileError, match=r"the tileset 'notes.txt' is not a file a Tiled map may use as a tileset "
                                            r"\(its name must end in .tsx, .tsj, .json, .xml\)"):
        load_tiled_map(tmp_path / "m.tmx")


def test_a_missing_file_above_the_map_is_named_as_missing(tmp_path):
    (tmp_path / "maps").mkdir()
    write_world(tmp_path / "maps")
    path = tmp_path / "maps" / "m.tmx"
    path.write_text(tmx(tile_layer("g", grid(4, 3)), tilesets=OUTSIDE.format("../tilesets/gone.tsx")))
    with pytest.raises(DataFileError, match=r"nor is there such a file: looked for .*tilesets/gone.tsx"):
        load_tiled_map(path)
