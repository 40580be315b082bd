"""A scenario played under another ruleset: each figure takes that ruleset's numbers for its template
(movement, turning, weapons), except what the scenario sets itself, which is kept and said (issue 10,
item 15). The CLI's --ruleset, simulate's setups and the live switch (Battle.rejudged) all use it."""
from __future__ import annotations

import argparse
from dataclasses import replace

from game.commands.common import load
from game.core.battle import Battle
from game.core.scenario import figure_under
from game.io.rulesets import load_ruleset
from game.play.simulate import setups_for

SCENARIO = '''
title = "Foot and horse"
ruleset = "cnc"
[map]
ascii = """
..........
..........
"""
[[figures]]
id = "foot"
side = "blue"
template = "foot"
x = 1
y = 0
[[figures]]
id = "slow"
side = "blue"
template = "foot"
move_ft = 20
x = 2
y = 0
[[figures]]
id = "rider"
side = "red"
template = "knight"
x = 8
y = 1
'''


def _scenario(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO)
    return path


def test_cli_ruleset_gives_each_figure_that_rulesets_template(tmp_path, capsys):
    """cnc's foot soldier moves 30 ft; under odnd the same template moves 60 (its Turn movement)."""
    path = _scenario(tmp_path)
    assert {f.id: f.move_ft for f in load(argparse.Namespace(scenario=str(path), ruleset=None)).figures} == \
        {"foot": 30, "slow": 20, "rider": 50}
    sc = load(argparse.Namespace(scenario=str(path), ruleset="odnd"))
    assert {f.id: f.move_ft for f in sc.figures} == {"foot": 60, "slow": 20, "rider": 90}
    err = capsys.readouterr().err
    assert "Foot soldier (slow): the scenario sets its own move 20 ft (the odnd foot has move 60 ft): kept under odnd" in err


def test_simulate_setups_take_each_rulesets_numbers(tmp_path):
    from game.io.scenarios import load_scenario
    sc = load_scenario(_scenario(tmp_path))
    notes: list = []
    setups = setups_for(sc, [load_ruleset(r) for r in ("bfrpg", "spelljammer")], notes)
    assert {f.id: f.move_ft for f in setups["bfrpg"].figures} == {"foot": 40, "slow": 20, "rider": 60}
    assert [f.weapons for f in setups["spelljammer"].figures if f.id == "rider"] == [("spear", "sword")]
    assert any("slow" in n for n in notes)


def test_the_live_switch_takes_the_new_numbers_and_says_what_was_kept(tmp_path):
    from game.io.scenarios import load_scenario
    b = Battle.from_scenario(load_scenario(_scenario(tmp_path)))
    twin = b.rejudged(load_ruleset("odnd"))
    assert twin.figures["foot"].move_ft == 60 and twin.figures["slow"].move_ft == 20
    assert twin.figures["foot"].pos == b.figures["foot"].pos
    switch = [e for e in twin.events if e.kind == "ruleset"]
    assert len(switch) == 1 and "slow" in switch[0].text and switch[0].data["ruleset"] == "odnd"
    again = Battle.from_save_data(twin.to_save_data())
    assert [e.to_json() for e in again.events] == [e.to_json() for e in twin.events]
    assert again.figures["foot"].move_ft == 60


def test_a_template_the_ruleset_lacks_keeps_its_numbers(tmp_path):
    from game.io.scenarios import load_scenario
    fig = next(f for f in load_scenario(_scenario(tmp_path)).figures if f.id == "foot")
    odd = replace(fig, stats={"template": "crossbowman"})     # (the fields; __dict__ holds derived values too)
    same, notes = figure_under(odd, load_ruleset("bfrpg"))
    assert same == odd and "bfrpg has no template 'crossbowman'" in notes[0]
