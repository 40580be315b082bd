"""Damaged saves get one clear message and exit 2; saving never loses or widens a file (issue 12)."""
import json
import os
import time

import pytest

from game.cli import main
from game.core.values.actions import EndTurn
from game.core.battle import Battle
from game.core.values.errors import DataFileError
from game.io import saves
from game.io.scenarios import load_scenario


@pytest.fixture(scope="module")
def good():
    b = Battle.from_scenario(load_scenario("maps/corridor.toml"))
    for _ in range(2):
        b.apply(EndTurn(b.current))
    return b.to_save_data()


def damaged(good, change):
    data = json.loads(json.dumps(good))
    change(data)
    return data


def first_figure(key, value):
    return lambda d: d["figures"][0].__setitem__(key, value)


WALL = None  # filled in by the test: a wall square of the map


CASES = {
    "off the map": (first_figure("x", 10 ** 12), "off the map"),
    "off the map below": (first_figure("y", 999), "off the map"),
    "facing 9": (first_figure("facing", 9), "figures[1].facing"),
    "hp is words": (lambda d: d["figures"][0]["stats"].__setitem__("hp", "lots"), "figures[1].stats.hp"),
    "two on one square": (lambda d: d["figures"][1].update(x=d["figures"][0]["x"], y=d["figures"][0]["y"]),
                          "already taken"),
    "a duplicate id": (lambda d: d["figures"][1].__setitem__("id", d["figures"][0]["id"]), "used twice"),
    "unknown weapon": (first_figure("weapons", ["laser"]), "laser"),
    "seed not a number": (lambda d: d.__setitem__("seed", "many"), "seed"),
    "a layer of the wrong size": (lambda d: d["map"]["layers"]["cover"].pop(), "map.layers.cover"),
    "cover out of range": (lambda d: d["map"]["layers"]["cover"][0].__setitem__(0, 9), "map.layers.cover[1][1]"),
    "no figures": (lambda d: d.__setitem__("figures", []), "figures"),
    "an action with a bad square": (lambda d: d["actions"].append({"action": "move", "figure": "hero", "to": [1]}),
                                    "actions[3]"),
    "an action that no longer replays": (lambda d: d["actions"].insert(0, {"action": "end-turn", "figure": "gob3"}),
                                         "no longer replays"),
}


@pytest.mark.parametrize("case", CASES)
def test_a_damaged_save_is_one_clear_message(good, case, tmp_path, capsys):
    change, words = CASES[case]
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(damaged(good, change)))
    with pytest.raises(DataFileError) as err:
        saves.load_battle(path)
    assert words in str(err.value) and str(path) in str(err.value)
    assert main(["check", str(path)]) == 2
    out = capsys.readouterr()
    assert out.err.count("\n") == 1 and words in out.err and "Traceback" not in out.err


def test_a_figure_inside_a_wall_is_refused(good, tmp_path):
    layers = good["map"]["layers"]["blocks_move"]
    wall = next((x, y) for y, row in enumerate(layers) for x, v in enumerate(row) if v)
    data = damaged(good, lambda d: d["figures"][0].update(x=wall[0], y=wall[1]))
    path = tmp_path / "wall.json"
    path.write_text(json.dumps(data))
    with pytest.raises(DataFileError, match="inside a wall"):
        saves.load_battle(path)


@pytest.mark.parametrize("text, words", [
    ('{"format": "fivefoot-battle", "version": 1, "seed": Infinity}', "finite"),
    ('{"y": 1e400}', "finite"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ("{not json", "corrupt"),
])
def test_json_that_is_no_save_is_refused(text, words, tmp_path):
    path = tmp_path / "odd.json"
    path.write_text(text)
    with pytest.raises(DataFileError, match=words):
        saves.load_battle(path)


def test_a_save_keeps_the_files_permissions_and_refuses_a_read_only_one(good, tmp_path):
    b = Battle.from_save_data(good)
    path = tmp_path / "kept.json"
    saves.save_battle(b, path)
    os.chmod(path, 0o640)
    saves.save_battle(b, path)
    assert os.stat(path).st_mode & 0o777 == 0o640
    os.chmod(path, 0o444)
    before = path.read_bytes()
    with pytest.raises(DataFileError, match="read-only"):
        saves.save_battle(b, path)
    assert path.read_bytes() == before


def test_a_killed_writers_temporary_file_is_cleaned_up_by_the_next_save(good, tmp_path):
    b = Battle.from_save_data(good)
    path = tmp_path / "battle.json"
    stale = tmp_path / ".battle.json.abc123.tmp"
    stale.write_text("half a save")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    fresh = tmp_path / ".battle.json.def456.tmp"  # another writer at work right now: left alone
    fresh.write_text("being written")
    saves.save_battle(b, path)
    assert not stale.exists() and fresh.exists() and saves.load_battle(path).round == b.round


def test_a_failed_save_names_the_save_not_the_temporary_file(good, tmp_path):
    b = Battle.from_save_data(good)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where a folder should be")
    with pytest.raises(DataFileError) as err:
        saves.save_battle(b, blocker / "battle.json")
    assert "battle.json" in str(err.value) and ".tmp" not in str(err.value)


def test_check_prints_a_saved_battle(good, tmp_path, capsys):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(good))
    assert main(["check", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["round"] == 1 and data["actions"] == 2 and {f["id"] for f in data["figures"]} >= {"hero", "gob1"}


def test_play_goes_on_with_a_saved_battle(good, tmp_path, capsys):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(good))
    shot = tmp_path / "shot.png"
    assert main(["play", "--load", str(path), "--headless", "--screenshot", str(shot), "--hotseat"]) == 0
    assert shot.exists()
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(damaged(good, first_figure("facing", 9))))
    assert main(["play", "--load", str(broken), "--headless"]) == 2
    assert "figures[1].facing" in capsys.readouterr().err
