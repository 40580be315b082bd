"""Bad rulesets and scenarios get one clear message (file, key, what is allowed) and exit code 2."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from game.cli import main
from game.core.values.errors import DataFileError
from game.io.rulesets import load_ruleset_file
from game.io.scenarios import load_scenario

ROOT = Path(__file__).resolve().parents[2]
BFRPG = (ROOT / "rulesets" / "bfrpg.toml").read_text()


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("edit, key, words", [
    (lambda t: t.replace('diagonal = "5-10"', 'diagonal = "5-15"'), "grid.diagonal", "one of '5-10', '5', 'euclidean', 'none'"),
    (lambda t: t.replace("zone_ft = 5 ", "zone_ft = 500 "), "engagement.zone_ft", "from 5 to 30"),
    (lambda t: t.replace("run_multiplier = 2 ", 'run_multiplier = "fast" '), "movement.run_multiplier", "a number"),
    (lambda t: t.replace("[grid]", "[grid]\nhex = true"), "grid.hex", "allowed keys here"),
    (lambda t: t.replace('withdraw_fraction = "1/2"', 'withdraw_fraction = "half"'), "movement.withdraw_fraction", "not a fraction"),
    (lambda t: t + '[templates.spearman]\nweapons = ["laser"]\n', "templates.spearman.weapons", "unknown weapon"),
    (lambda t: t.replace('trigger = "leave-reach"', ""), "parting_shots.trigger", "missing required key"),
])
def test_bad_ruleset_names_file_key_and_what_is_allowed(tmp_path, edit, key, words):
    path = write(tmp_path, "bfrpg.toml", edit(BFRPG))
    with pytest.raises(DataFileError) as err:
        load_ruleset_file(path)
    message = str(err.value)
    assert str(path) in message and key in message and words in message


def test_ruleset_id_must_match_file_name(tmp_path):
    path = write(tmp_path, "mine.toml", BFRPG)
    with pytest.raises(DataFileError, match="must match the file name"):
        load_ruleset_file(path)


def test_broken_toml_reports_the_line(tmp_path):
    path = write(tmp_path, "bfrpg.toml", BFRPG.replace("[grid]", "[grid"))
    with pytest.raises(DataFileError, match=r"not valid TOML.*line"):
        load_ruleset_file(path)


SCENARIO = '''
title = "t"
ruleset = "bfrpg"
[map]
ascii = """
.....
.#...
.....
"""
[[figures]]
id = "a"
side = "blue"
x = 0
y = 0
'''


@pytest.mark.parametrize("edit, words", [
    (lambda t: t.replace('ascii = """', 'file = "x.tmx"\nascii = """'), "exactly one of map.file"),
    (lambda t: t.replace("x = 0", "x = 1\ny2 = 3").replace("y = 0", "y = 1"), "figures[1].y2"),
    (lambda t: t.replace("x = 0", "x = 1").replace("y = 0", "y = 1"), "inside a wall"),
    (lambda t: t.replace("x = 0", "x = 9"), "off the map"),
    (lambda t: t + '[[figures]]\nid = "a"\nside = "red"\nx = 2\ny = 2\n', "already used"),
    (lambda t: t + '[[figures]]\nid = "b"\nside = "red"\nx = 0\ny = 0\n', "already taken by a"),
    (lambda t: t.replace('side = "blue"', 'side = "blue"\ntemplate = "dragon"'), "unknown template 'dragon'"),
    (lambda t: t.replace('side = "blue"', 'side = "blue"\nfacing = "UP"'), "'UP' is not allowed"),
    (lambda t: t.replace('ruleset = "bfrpg"', 'ruleset = "gurps"'), "unknown ruleset 'gurps'"),
    (lambda t: t.replace('.#...', '.#.X.'), "unknown character 'X'"),
    (lambda t: t.replace('side = "blue"', 'side = "blue"\naltitude_ft = 30'), "only flyers have an altitude"),
    # Only ASCII digits are heights: '²' and '٣' are digits to str.isdigit() but not here.
    (lambda t: t.replace('.#...', '.#²..'), "map.ascii: ASCII map row 2, column 3: unknown character '²'"),
    (lambda t: t.replace('.#...', '.#٣..'), "unknown character '٣'"),
    # A flyer over a blocking square must be above it, as the planner lets flyers pass.
    (lambda t: t.replace("x = 0", "x = 1").replace("y = 0", "y = 1").replace('side = "blue"', 'side = "blue"\ntemplate = "floater"'),
     "figures[1]: position 1,1 is inside a wall: no figure can be there, flying or not"),
    (lambda t: t.replace('.#...', '.T...').replace("x = 0", "x = 1").replace("y = 0", "y = 1")
     .replace('side = "blue"', 'side = "blue"\ntemplate = "floater"\naltitude_ft = 10'),
     "figures[1].altitude_ft: 10 ft puts the floater flyer inside the 30 ft obstacle at 1,1"),
    # Ids and sides are names: not empty, one line.
    (lambda t: t.replace('id = "a"', 'id = ""'), "figures[1].id: must not be empty"),
    (lambda t: t.replace('id = "a"', 'id = "a\\nb"'), "figures[1].id: 'a\\nb' holds a line break"),
    (lambda t: t.replace('side = "blue"', 'side = "  "'), "figures[1].side: must not be empty"),
    (lambda t: t.replace('side = "blue"', 'side = "blue"\nname = "x\\ty"'), "figures[1].name: 'x\\ty' holds a line break"),
    (lambda t: t[:t.index("[[figures]]")], "figures: no figures; a scenario needs at least one [[figures]] entry"),
    # Scripted actions are checked when the scenario loads, not first by `run`.
    (lambda t: t + '[[actions]]\naction = "move"\nfigure = "zed"\nto = [1, 0]\n', "actions[1].figure: no figure 'zed'"),
    (lambda t: t + '[[actions]]\naction = "fly"\nfigure = "a"\n', "actions[1]: unknown action 'fly'"),
    (lambda t: t + '[[actions]]\naction = "move"\nfigure = "a"\nto = [1]\n', "actions[1].to: 1 entries ([1]); expected a list of 2"),
    (lambda t: t + '[[actions]]\naction = "attack"\nfigure = "a"\ntarget = "nobody"\n', "actions[1].target: no figure 'nobody'"),
    (lambda t: t + '[[actions]]\naction = "move"\nfigure = "a"\nto = [1, 0]\nspeed = 3\n', "actions[1].speed: unknown key"),
    # Numbers that are not numbers, and nesting beyond reason.
    (lambda t: t + '[figures.stats]\nhp = nan\n', "figures[1].stats.hp: nan is not a number that can be played"),
    (lambda t: t.replace("[map]", "junk = " + "[" * 50 + "]" * 50 + "\n[map]"), "junk: tables or lists nested too deeply"),
    (lambda t: t.replace("[map]", "junk = " + "[" * 5000 + "]" * 5000 + "\n[map]"), "nested too deeply"),
    (lambda t: t.replace('ruleset = "bfrpg"', 'ruleset = "bf\\nrpg"'), "ruleset: unknown ruleset 'bf\\nrpg'"),
])
def test_bad_scenario_is_refused_with_a_clear_message(tmp_path, capsys, edit, words):
    path = write(tmp_path, "s.toml", edit(SCENARIO))
    with pytest.raises(DataFileError) as err:
        load_scenario(path)
    assert words in str(err.value) and str(path) in str(err.value) and "\n" not in str(err.value)
    assert main(["check", str(path)]) == 2
    err_text = capsys.readouterr().err
    assert err_text.count("\n") == 1 and words in err_text


def test_cli_bad_file_is_one_line_and_exit_2(tmp_path, capsys):
    path = write(tmp_path, "s.toml", SCENARIO.replace('ruleset = "bfrpg"', 'ruleset = 3'))
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ruleset" in err and "Traceback" not in err


def test_cli_missing_file_exit_2(capsys):
    assert main(["check", "/nonexistent/scenario.toml"]) == 2
    assert "file not found" in capsys.readouterr().err


def test_cli_process_never_prints_a_traceback(tmp_path):
    path = write(tmp_path, "s.toml", "this is [not toml")
    proc = subprocess.run([sys.executable, "-m", "game", "reach", str(path), "a"], capture_output=True, text=True,
                          cwd=ROOT)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and re.search(r"s\.toml: .*not valid TOML", proc.stderr)


def test_a_byte_order_mark_is_not_an_error(tmp_path):
    path = tmp_path / "s.toml"
    path.write_bytes(b"\xef\xbb\xbf" + SCENARIO.encode())
    assert load_scenario(path).figures[0].id == "a"


def test_a_pipe_is_refused_without_waiting_for_it(tmp_path, capsys):
    fifo = tmp_path / "s.toml"
    os.mkfifo(fifo)  # opening it for reading would block until a writer comes
    assert main(["check", str(fifo)]) == 2
    assert "is not a regular file" in capsys.readouterr().err


@pytest.mark.parametrize("spec, key, words", [
    ('file = "."', "map.file", "is a folder"),
    ('file = "nowhere.tmx"', "map.file", "no such map file"),
    ('file = "s.toml"', "map.file", "is not a Tiled map; expected a .tmx, .tmj, .json file"),
    ('file = "../maps/forest.tmx"\nasset_root = "nowhere"', "map.asset_root", "is not a folder"),
])
def test_map_file_problems_name_the_scenario_and_key(tmp_path, spec, key, words):
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "forest.tmx").write_text("<map/>")
    path = write(tmp_path / "maps", "s.toml", f'ruleset = "bfrpg"\n[map]\n{spec}\n[[figures]]\nid = "a"\nside = "b"\nx = 0\ny = 0\n')
    with pytest.raises(DataFileError) as err:
        load_scenario(path)
    assert str(err.value).startswith(f"{path}: {key}: ") and words in str(err.value)


def test_ruleset_path_is_relative_to_the_scenario_folder(tmp_path, monkeypatch):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "house.toml").write_text('id = "house"\nname = "House"\nbase = "bfrpg"\n[engagement]\nzone_ft = 10\n')
    scenarios = tmp_path / "a" / "b"
    scenarios.mkdir(parents=True)
    path = write(scenarios, "s.toml", SCENARIO.replace('ruleset = "bfrpg"', 'ruleset = "../../rules/house"'))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    with pytest.raises(DataFileError) as err:   # no .toml: a path, but no such file
        load_scenario(path)
    assert str(err.value).startswith(f"{path}: ruleset: '../../rules/house': no such file ({scenarios / '../../rules/house'})")
    path.write_text(SCENARIO.replace('ruleset = "bfrpg"', 'ruleset = "../../rules/house.toml"'))
    scenario = load_scenario(path)
    assert scenario.ruleset.id == "house" and scenario.ruleset.section("engagement")["zone_ft"] == 10


def test_run_explain_and_reach_refuse_a_scenario_without_figures(tmp_path, capsys):
    path = write(tmp_path, "s.toml", SCENARIO[:SCENARIO.index("[[figures]]")])
    for argv in (["run", str(path)], ["explain", str(path), "a", "b"], ["reach", str(path), "a"]):
        assert main(argv) == 2
        assert "no figures" in capsys.readouterr().err
