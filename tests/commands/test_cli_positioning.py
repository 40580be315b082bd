"""The headless CLI: rulesets, check, reach, path, threats, human and --json output (docs/cli.md)."""
import json

import pytest

from game.cli import main

CORRIDOR = "maps/corridor.toml"
FIELD = "maps/horse_field.toml"


def run_json(capsys, *argv):
    code = main([*argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_rulesets_lists_all_five(capsys):
    code, data = run_json(capsys, "rulesets")
    assert code == 0 and [r["id"] for r in data] == ["bfrpg", "ch17", "cnc", "odnd", "spelljammer"]


def test_check_summarises(capsys):
    code, data = run_json(capsys, "check", CORRIDOR)
    assert code == 0 and data["ruleset"] == "bfrpg" and len(data["figures"]) == 5


def test_check_gives_each_figure_its_body(capsys):
    code, data = run_json(capsys, "check", "maps/ogre_corridor.toml")
    bodies = {f["id"]: f["footprint"] for f in data["figures"]}
    assert code == 0 and bodies["ogre"] == [2, 2] and bodies["horse"] == [1, 2] and bodies["archer"] == [1, 1]
    main(["check", "maps/ogre_corridor.toml"])
    assert "10 x 10 ft body" in capsys.readouterr().out


def test_reach_json_fields(capsys):
    code, data = run_json(capsys, "reach", CORRIDOR, "hero")
    assert code == 0 and data["budget_ft"] == 40
    square = next(s for s in data["squares"] if (s["x"], s["y"]) == (4, 6))
    assert square["cost_ft"] == 5 and "W" in square["facings"]


@pytest.mark.parametrize("ruleset", ["bfrpg", "odnd", "cnc", "ch17", "spelljammer"])
def test_path_under_each_ruleset(capsys, ruleset):
    code, data = run_json(capsys, "path", CORRIDOR, "hero", "3,6", "--ruleset", ruleset)
    assert code == 0 and data["legal"] and data["end"] == {"x": 3, "y": 6, "facing": "W", "altitude_ft": 0}
    assert all({"x", "y", "cost_ft", "total_ft", "rule", "note"} <= set(step) for step in data["steps"])


def test_path_reports_parting_shot(capsys):
    code, data = run_json(capsys, "path", CORRIDOR, "hero", "3,6")
    assert [p["attacker"] for p in data["parting_shots"]] == ["gob1"]
    assert data["parting_shots"][0]["rule"] == "bfrpg:defensive-movement" and data["parting_shots"][0]["bonus"] == 2


def test_illegal_path_exit_1_with_reason(capsys):
    code, data = run_json(capsys, "path", FIELD, "knight", "3,4")
    assert code == 1 and not data["legal"] and "20 ft straight ahead" in data["reason"]
    assert main(["path", FIELD, "knight", "3,4"]) == 1
    assert capsys.readouterr().out.startswith("illegal: ")


def test_bad_square_is_a_user_error(capsys):
    assert main(["path", CORRIDOR, "hero", "three,six"]) == 2
    assert "X,Y" in capsys.readouterr().err


def test_unknown_figure_is_a_user_error(capsys):
    assert main(["reach", CORRIDOR, "nobody"]) == 2
    assert "no figure 'nobody'" in capsys.readouterr().err


def test_threats_lists_engagement_and_lanes(capsys):
    code, data = run_json(capsys, "threats", FIELD)
    legal = {(l["attacker"], l["target"]) for l in data["charge_lanes"] if l["legal"]}
    assert ("knight", "pike1") in legal and ("knight", "pike2") in legal
    code, data = run_json(capsys, "threats", CORRIDOR)
    assert {"a": "hero", "b": "gob1", "distance_ft": 5} in data["engaged"]


def test_human_output_is_readable(capsys):
    assert main(["path", FIELD, "knight", "18,5", "--mode", "charge"]) == 0
    out = capsys.readouterr().out
    assert "charge to 17,5" in out and "bfrpg:charging" in out
    assert main(["reach", CORRIDOR, "hero", "--mode", "run"]) == 0
    assert "squares reachable" in capsys.readouterr().out


def test_ruleset_override_warns_about_weapons_it_lacks(capsys, tmp_path):
    """Under spelljammer the knight template carries a spear and a sword (no lances there); a lance the
    scenario gives itself is kept, with a warning that these rules have no numbers for it."""
    assert main(["check", FIELD, "--ruleset", "spelljammer"]) == 0
    assert "lance" not in capsys.readouterr().err
    own = tmp_path / "lancer.toml"
    own.write_text('ruleset = "bfrpg"\n[map]\nascii = """\n....\n...."""\n[[figures]]\nid = "k"\nname = "Sir Aldric"\n'
                   'side = "blue"\ntemplate = "knight"\nweapons = ["lance"]\nx = 0\ny = 0\n')
    assert main(["check", str(own), "--ruleset", "spelljammer"]) == 0
    err = capsys.readouterr().err
    assert "warning: spelljammer has no lance: Sir Aldric cannot use it" in err
    assert "note: Sir Aldric (k): the scenario sets its own weapons lance" in err
