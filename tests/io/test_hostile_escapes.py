"""Issue 29's escapes, each on a file written here: one clear line and exit 2, or it works, and text
from files is shown safely (control, bidi and surrogate characters escaped) wherever it is printed."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.cli import main
from game.core.values.errors import DataFileError
from game.core.values.safetext import printable
from game.io.tiled import load_map
from budget import guarded
from tiled_maps import grid, tile_layer, tmx, write_map, write_world

GROUND = tile_layer("g", grid(4, 3))


def refused(path: Path, message: str) -> str:
    run = guarded(lambda: load_map(path))
    if not isinstance(run.error, DataFileError):
        if run.error is not None:
            raise run.error
        pytest.fail(f"not refused: loaded {run.value!r}")
    text = str(run.error)
    assert message in text, text
    assert text.startswith(str(path)) and "\n" not in text
    return text


def json_map(**fields) -> str:
    return json.dumps({"type": "map", "orientation": "orthogonal", "width": 4, "height": 3, "tilewidth": 32,
                       "tileheight": 32, "infinite": False, "tilesets": [],
                       "layers": [{"type": "tilelayer", "name": "g", "width": 4, "height": 3, "data": [0] * 12}],
                       **fields}, ensure_ascii=True)


# --- printable: the one safe-text function ----------------------------------------------------

@pytest.mark.parametrize("text, shown", [
    ("plain title, é and 漢字", "plain title, é and 漢字"),
    ("\x1b[2Jcleared", "\\x1b[2Jcleared"),
    ("\x1b]0;owned\x07", "\\x1b]0;owned\\x07"),
    ("evil\u202etxt.exe", "evil\\u202etxt.exe"),
    ("A\ud800B", "A\\ud800B"),
    ("caf\udce9.tmx", "caf\\xe9.tmx"),          # a non-UTF-8 file name byte, as os.fsdecode gives it
    ("two\nlines\ttab", "two\nlines\ttab"),
])
def test_printable_escapes_what_could_drive_or_break_a_terminal(text, shown):
    assert printable(text) == shown
    printable(text).encode("utf-8")            # always encodable
    assert printable(printable(text)) == printable(text)


def test_printable_on_one_line_escapes_newlines_too():
    assert printable("a\nb\tc", one_line=True) == "a\\x0ab\\x09c"


# --- tracebacks that were ------------------------------------------------------------------------

def test_a_lone_surrogate_and_escapes_in_a_title_are_printed_escaped(tmp_path, capsys):
    write_world(tmp_path)
    path = write_map(tmp_path, json_map(properties=[
        {"name": "title", "type": "string", "value": "A\ud800B \x1b[2J\x1b]0;pwned\x07 \u202eevil"}]), name="m.tmj")
    assert main(["check-map", str(path)]) == 0
    out = capsys.readouterr().out
    assert "A\\ud800B \\x1b[2J\\x1b]0;pwned\\x07 \\u202eevil" in out
    assert not any(c in out for c in "\x1b\x07\u202e")
    assert main(["check-map", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["title"] == "A\ud800B \x1b[2J\x1b]0;pwned\x07 \u202eevil"


def test_a_lone_surrogate_in_an_image_path_is_refused_in_one_line(tmp_path):
    write_world(tmp_path)
    tileset = {"firstgid": 1, "name": "t", "tilewidth": 32, "tileheight": 32, "tilecount": 12, "columns": 4,
               "image": "ti\ud800les.png", "imagewidth": 128, "imageheight": 96}
    refused(write_map(tmp_path, json_map(tilesets=[tileset]), name="m.tmj"), "holds characters no file name can hold")


def test_a_map_file_named_in_bytes_that_are_not_utf8_is_shown_escaped(tmp_path, capsys):
    write_world(tmp_path)
    path = write_map(tmp_path, tmx(GROUND), name="caf\udce9.tmx")
    assert main(["check-map", str(path)]) == 0
    assert main(["check-map", str(tmp_path / "missing\udcff.tmx")]) == 2
    err = capsys.readouterr().err
    assert "missing\\xff.tmx" in err and err.count("\n") == 1


@pytest.mark.parametrize("encoding", ["Shift_JIS", "EUC-JP", "GB2312", "Big5", "UTF-7"])
def test_a_map_in_an_encoding_expat_cannot_read_is_refused(tmp_path, encoding):
    write_world(tmp_path)
    path = write_map(tmp_path, tmx(GROUND).replace('encoding="UTF-8"', f'encoding="{encoding}"'))
    refused(path, "declares a text encoding fivefoot cannot read")


def _save(tmp_path: Path, change) -> Path:
    from battles import fig, make_battle
    from game.io.saves import save_battle
    battle = make_battle("bfrpg", "......\n......\n......", [fig("a", "red", 0, 0), fig("b", "blue", 5, 2)])
    path = save_battle(battle, tmp_path / "s.json")
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("key", ["ruleset", "figures", "map"])
def test_a_save_without_its_ruleset_figures_or_map_is_refused(tmp_path, capsys, key):
    path = _save(tmp_path, lambda data: data.pop(key))
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{key}: missing required key" in err and err.count("\n") == 1


def test_a_save_longer_than_the_action_cap_is_refused_before_replaying(tmp_path, capsys):
    still = {"action": "move", "figure": "a", "to": [0, 0]}
    path = _save(tmp_path, lambda data: data.__setitem__("actions", [still] * 100_001))
    run = guarded(lambda: main(["check", str(path)]))
    assert run.value == 2 and run.cpu_s < 10
    assert "actions: must be a list of at most 100000 actions" in capsys.readouterr().err


# --- wrongly accepted, and the design questions ---------------------------------------------

@pytest.mark.parametrize("field", ["width", "tilewidth"])
def test_json_true_is_no_size(tmp_path, field):
    refused(write_map(tmp_path, json_map(**{field: True}), name="m.tmj"), "not true/false")


@pytest.mark.parametrize("size", ["\u0663", "\uff14", "1_0", "\u0664"])
def test_sizes_in_other_digits_are_refused(tmp_path, size):
    write_world(tmp_path)
    path = write_map(tmp_path, tmx(GROUND).replace('width="4"', f'width="{size}"', 1))
    refused(path, "is not a whole number (digits 0-9)")


@pytest.mark.parametrize("second", ['firstgid="1"', 'firstgid="7"'])
def test_tilesets_claiming_the_same_tile_numbers_are_refused(tmp_path, second):
    write_world(tmp_path)
    tilesets = ' <tileset firstgid="1" source="t.tsx"/>\n' + f' <tileset {second} source="t.tsx"/>\n'
    refused(write_map(tmp_path, tmx(GROUND, tilesets=tilesets)), "claim the same tile numbers")


def test_adjacent_tilesets_are_fine(tmp_path):
    write_world(tmp_path)
    tilesets = ' <tileset firstgid="1" source="t.tsx"/>\n <tileset firstgid="13" source="t.tsx"/>\n'
    assert load_map(write_map(tmp_path, tmx(tile_layer("g", grid(4, 3, 13)), tilesets=tilesets))).width == 4


def test_a_dtd_with_declarations_is_refused_so_attlist_defaults_never_apply(tmp_path):
    write_world(tmp_path)
    doctype = '<!DOCTYPE map [<!ATTLIST layer name CDATA "Walls">]>\n'
    text = tmx(tile_layer("", grid(4, 3)).replace(' name=""', "")).replace("<map ", doctype + "<map ", 1)
    refused(write_map(tmp_path, text), "a DTD with declarations of its own")


# --- caps on battles, rulesets and saves; a scenario's asset root ------------------------------

def _figures_toml(count: int, weapons: int = 1) -> str:
    carried = ", ".join(['"sword"'] * weapons)
    return "".join(f'[[figures]]\nid = "f{i}"\nside = "{"red" if i % 2 else "blue"}"\ntemplate = "foot"\n'
                   f"x = {i % 40}\ny = {i // 40}\nweapons = [{carried}]\n" for i in range(count))


def test_a_scenario_of_ten_thousand_figures_is_refused_at_once(tmp_path, capsys):
    path = tmp_path / "s.toml"
    rows = "\n".join("." * 100 for _ in range(100))
    path.write_text(f'ruleset = "bfrpg"\n[map]\nascii = """\n{rows}\n"""\n' + _figures_toml(10_000))
    run = guarded(lambda: main(["threats", str(path)]))
    assert run.value == 2 and run.cpu_s < 10
    assert "has 10,001 table headers ([...] lines); a data file holds at most 5,000" in capsys.readouterr().err


def test_a_scenario_of_more_figures_than_a_battle_holds_is_refused(tmp_path, capsys):
    path = tmp_path / "s.toml"
    rows = "\n".join("." * 40 for _ in range(20))
    path.write_text(f'ruleset = "bfrpg"\n[map]\nascii = """\n{rows}\n"""\n' + _figures_toml(401))
    assert main(["check", str(path)]) == 2
    assert "figures: 401 entries; at most 400 are allowed" in capsys.readouterr().err


def test_a_figure_carrying_a_hundred_weapons_is_refused(tmp_path, capsys):
    path = tmp_path / "s.toml"
    path.write_text('ruleset = "bfrpg"\n[map]\nascii = """\n....\n....\n"""\n' + _figures_toml(2, weapons=100))
    assert main(["check", str(path)]) == 2
    assert "weapons: 100 entries; at most 20 are allowed" in capsys.readouterr().err


def test_a_ruleset_of_a_hundred_thousand_weapons_is_refused(tmp_path, capsys):
    path = tmp_path / "r.toml"
    weapons = "".join(f'[weapons.w{i}]\ndamage = "1d6"\n' for i in range(1_001))
    path.write_text('id = "big"\nname = "Big"\nbase = "bfrpg"\n' + weapons)
    assert main(["check", "maps/charge_demo.toml", "--ruleset", str(path)]) == 2
    assert "at most 1,000 are allowed" in capsys.readouterr().err


def test_a_scenario_may_not_open_its_map_to_every_file(tmp_path, capsys):
    write_world(tmp_path)
    write_map(tmp_path, tmx(GROUND))
    scenario = tmp_path / "s.toml"
    scenario.write_text('ruleset = "bfrpg"\n[map]\nfile = "m.tmx"\nasset_root = "/"\n[[figures]]\nid = "a"\n'
                        'side = "blue"\ntemplate = "foot"\nx = 0\ny = 0\n')
    assert main(["check", str(scenario)]) == 2
    err = capsys.readouterr().err
    assert "map.asset_root" in err and "--asset-root DIR on the command line" in err and err.count("\n") == 1
    assert main(["check", str(scenario), "--asset-root", "/"]) == 0  # the user's own choice
