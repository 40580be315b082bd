"""Bad rulesets and scenarios get one clear message (file, key, what is allowed) and exit code 2."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

from game.cli import main
from game.core.errors import DataFileError
from game.io.rulesets import load_ruleset_file
from game.io.scenarios import load_scenario

ROOT = Path(__file__).resolve().parents[1]
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
])
def test_bad_scenario_is_refused_with_a_clear_message(tmp_path, edit, words):
    path = write(tmp_path, "s.toml", edit(SCENARIO))
    with pytest.raises(DataFileError) as err:
        load_scenario(path)
    assert words in str(err.value) and str(path) in str(err.value)


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
