"""`fivefoot check-map`: through game.cli.main for output, and as a real process for exit codes."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from game.cli import main
from tiled_maps import FLOOR, TREE, WALL, grid, obj, object_layer, tile_layer, tmx, write_map

REPO = Path(__file__).resolve().parents[2]


def sample_map(folder: Path) -> Path:
    rows = [[WALL, FLOOR, TREE, FLOOR]] + [[FLOOR] * 4] * 2
    spawns = object_layer("s", obj("spawn", 40, 40, props={"side": "red", "template": "knight"}, name="Kay"),
                          obj("spawn", 104, 72, props={"side": "blue", "altitude": 20}))
    return write_map(folder, tmx(tile_layer("g", rows, props={"elevation": 5}), spawns,
                                 props={"title": "Test Yard", "ruleset": "cnc", "colour": "red"}))


def test_check_map_prints_what_the_engine_understood(tmp_path, capsys):
    assert main(["check-map", str(sample_map(tmp_path))]) == 0
    out = capsys.readouterr().out
    for expected in ("title:        Test Yard", "ruleset:      cnc", "size:         4 x 3 squares (20 x 15 ft)",
                     "blocking:     2 squares (1 block sight)", "elevated:     12 squares (floor heights: 5 ft)",
                     "spawns:       blue 1, red 1", "red: Kay [knight] at (1, 1) facing N",
                     "blue: ? at (3, 2) facing N, 20 ft up",
                     "warnings:     1", "- map properties: unknown property 'colour', ignored"):
        assert expected in out, expected


def test_check_map_json(tmp_path, capsys):
    assert main(["check-map", "--json", str(sample_map(tmp_path))]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["title"] == "Test Yard" and report["ruleset"] == "cnc"
    assert (report["width"], report["height"], report["blocking"]) == (4, 3, 2)
    assert report["spawns"] == {"red": 1, "blue": 1}
    assert report["elevation_range_ft"] == [5, 5]
    assert report["spawn_list"][0]["template"] == "knight"


def test_check_map_error_is_one_line_and_exit_2(tmp_path, capsys):
    path = write_map(tmp_path, tmx(tile_layer("g", grid(4, 3)), props={"ruleset": "gurps"}))
    assert main(["check-map", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("fivefoot: error: ") and "ruleset 'gurps' is unknown" in err


def test_check_map_asset_root_option(tmp_path, capsys):
    write_map(tmp_path / "tilesets", tmx(tile_layer("g", grid(4, 3))))
    (tmp_path / "maps").mkdir()
    path = tmp_path / "maps" / "m.tmx"
    path.write_text(tmx(tile_layer("g", grid(4, 3)), tilesets=' <tileset firstgid="1" source="../tilesets/t.tsx"/>\n'))
    assert main(["check-map", str(path)]) == 0  # the nearest folder holding every file it uses
    assert f"files from:   {tmp_path.resolve()}" in capsys.readouterr().out
    assert main(["check-map", str(path), "--asset-root", str(tmp_path / "maps")]) == 2
    assert "--asset-root" in capsys.readouterr().err
    assert main(["check-map", str(path), "--asset-root", str(tmp_path)]) == 0


def run_cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "game", *args], capture_output=True, text=True, env=env,
                          cwd=REPO, timeout=60)


def test_check_map_as_a_process(tmp_path):
    good = run_cli("check-map", "maps/castle.tmx")
    assert good.returncode == 0, good.stderr
    assert "Storming Harrowgate" in good.stdout
    bad = run_cli("check-map", str(tmp_path / "nothing.tmx"))
    assert bad.returncode == 2
    assert "the map file does not exist" in bad.stderr and bad.stdout == ""
    usage = run_cli("check-map")
    assert usage.returncode == 2
