"""`fivefoot run` and `fivefoot explain` through the CLI entry point."""
import json

from game.cli import main


def test_run_prints_the_demo_events(capsys):
    assert main(["run", "maps/charge_demo.toml"]) == 0
    out = capsys.readouterr().out
    assert "charges Pikeman" in out and "set against the charge" in out and "parting shot" in out
    assert "(bfrpg:charging)" in out


def test_run_json_is_one_object_per_line_with_a_rule(capsys):
    assert main(["run", "maps/charge_demo.toml", "--json", "--seed", "5"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines
    for line in lines:
        data = json.loads(line)
        assert data["rule"].startswith("bfrpg:") and data["text"]


def test_run_under_another_ruleset(capsys):
    assert main(["run", "maps/charge_demo.toml", "--ruleset", "ch17"]) == 0
    assert "(ch17:charge)" in capsys.readouterr().out


def test_bad_scripted_action_names_the_file_and_entry(tmp_path, capsys):
    text = open("maps/charge_demo.toml").read() + '\n[[actions]]\naction = "fly"\nfigure = "gob"\n'
    path = tmp_path / "bad.toml"
    path.write_text(text)
    assert main(["run", str(path)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "actions[4]" in err and "unknown action 'fly'" in err
    assert err.count("\n") == 1


def test_refused_scripted_action_names_the_entry(tmp_path, capsys):
    text = open("maps/charge_demo.toml").read() + '\n[[actions]]\naction = "attack"\nfigure = "hero"\ntarget = "pike"\n'
    path = tmp_path / "refused.toml"
    path.write_text(text)
    assert main(["run", str(path)]) == 2
    err = capsys.readouterr().err
    assert "actions[4]: refused:" in err and "beyond" in err


def test_explain_prints_the_breakdown_without_rolling(capsys):
    assert main(["explain", "maps/charge_demo.toml", "hero", "gob"]) == 0
    out = capsys.readouterr().out
    assert "hits on d20 >=" in out and "AC 15" in out
    assert main(["explain", "maps/charge_demo.toml", "hero", "gob", "--ruleset", "spelljammer", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["resolution"] == "d100" and data["ruleset"] == "spelljammer" and "target_number" in data


def test_explain_unknown_figure_is_one_line(capsys):
    assert main(["explain", "maps/charge_demo.toml", "hero", "nobody"]) == 2
    assert "no figure 'nobody'" in capsys.readouterr().err


# ----- issue 27: scripts under every ruleset -----
import tomllib  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from game.core.script import parse_script, script_needs  # noqa: E402
from game.io.rulesets import bundled_ruleset_ids, load_ruleset  # noqa: E402

SCRIPTED = sorted(p for p in Path("maps").glob("*.toml") if tomllib.loads(p.read_text()).get("actions"))


def test_some_bundled_scenarios_are_scripted():
    assert {p.stem for p in SCRIPTED} >= {"charge_demo", "knights_spears", "wall_walk"}


@pytest.mark.parametrize("path", SCRIPTED, ids=lambda p: p.stem)
@pytest.mark.parametrize("rid", bundled_ruleset_ids())
def test_every_bundled_script_plays_under_every_ruleset_with_its_rules(path, rid, capsys):
    """`fivefoot run` plays the whole script under each ruleset that has every rule it uses (exit 0); under
    the others it plays nothing and says, per action, which rule is missing and where it plays (exit 1)."""
    data = tomllib.loads(path.read_text())
    ids = [f["id"] for f in data["figures"]]
    needs = script_needs(load_ruleset(rid), parse_script(data["actions"], str(path), ids))
    code = main(["run", str(path), "--ruleset", rid])
    out, err = capsys.readouterr()
    if not needs:
        assert code == 0, err
        assert "-- " in out.splitlines()[-1]
        return
    assert code == 1 and out == ""
    assert f"the script cannot be played under {rid}" in err and err.count("\n") == 1
    for i, kind, words in needs:
        assert f"actions[{i}] ({kind}): {words}" in err
    assert "the bundled rulesets with every rule it uses: bfrpg" in err


SCRIPT_HEAD = '''ruleset = "cnc"
seed = 3
[map]
ascii = """
............
............
............
"""
[[figures]]
id = "a"
side = "blue"
template = "foot"
x = 1
y = 1
facing = "E"
[[figures]]
id = "b"
side = "red"
template = "foot"
x = 8
y = 1
facing = "W"
'''


def test_a_cnc_script_moving_first_passes_the_declaration_it_did_not_make(tmp_path, capsys):
    """docs/scenarios.md: the runner passes the figure's own declaration turn when the action comes later.
    Under cnc a move is no declaration (cnc:initiative; choice-declarations): every cnc script whose first
    action was a move stopped at actions[1] ("moves are not part of this ruleset's declarations")."""
    path = tmp_path / "walk.toml"
    path.write_text(SCRIPT_HEAD + '[[actions]]\naction = "move"\nfigure = "a"\nto = [4, 1]\n'
                    '[[actions]]\naction = "move"\nfigure = "b"\nto = [6, 1]\n')
    assert main(["run", str(path)]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "moves (walk) to 4,1" in out and "moves (walk) to 6,1" in out
    assert main(["explain", str(path), "a", "b", "--scripted"]) == 0
    assert "melee attack" in capsys.readouterr().out


def test_a_cnc_script_still_announces_a_charge_in_the_declarations(tmp_path, capsys):
    """cnc:charging: a charge is announced before initiative; the script's charge is that announcement."""
    path = tmp_path / "charge.toml"
    path.write_text(SCRIPT_HEAD.replace('x = 8', 'x = 7') + '[[actions]]\naction = "charge"\nfigure = "a"\ntarget = "b"\n')
    assert main(["run", str(path)]) == 0, capsys.readouterr().err
    assert "announces a charge" in capsys.readouterr().out
