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
