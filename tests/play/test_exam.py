"""The tactics exam: positions are data citing their rule, a position is judged by what the
resolver did with the level's turn, and `fivefoot exam` prints a score per level."""
from __future__ import annotations

import json

import pytest

from game.cli import main
from game.core.values.errors import DataFileError
from game.play.exam import load_positions, sit

POSITIONS = load_positions()


def test_at_least_thirty_positions_across_the_five_rulesets_each_citing_its_rule():
    assert len(POSITIONS) >= 30
    assert {p.scenario.ruleset.id for p in POSITIONS} == {"bfrpg", "ch17", "cnc", "odnd", "spelljammer"}
    for p in POSITIONS:
        rid, section = p.rule.split(":", 1)
        assert rid == p.scenario.ruleset.id and section in p.scenario.ruleset.known_sections(), p.id
        assert p.decide in {f.id for f in p.scenario.figures} and p.expect and p.why
    classes = {p.klass for p in POSITIONS}
    for wanted in ("set a spear against a charger", "never charge into a set spear", "withdraw, then shoot",
                   "finish the foe you can fell", "step out of contact before shooting", "take the free flank or rear",
                   "keep a spelljammer move within the attack's budget", "do not run ahead alone",
                   "hold a corridor against many", "trip or push off a ledge when likely", "the careful shot into melee"):
        assert wanted in classes


def _position(pid):
    return next(p for p in POSITIONS if p.id == pid)


def test_a_position_is_passed_or_failed_by_what_the_resolver_did():
    # naive walks up and strikes the nearest foe, normal finishes the one on its last hit point.
    pos = _position("bfrpg-finish-the-wounded")
    assert sit(pos, "normal").passed
    naive = sit(pos, "naive")
    assert not naive.passed and any("hurt" in why for why in naive.failed)
    # a fighting withdrawal, then the shot: the whole turn is played and judged
    got = sit(_position("bfrpg-withdraw-then-shoot"), "normal")
    assert got.passed, got.failed
    assert [a.kind for a in got.actions][:2] == ["move", "attack"] and got.actions[0].mode == "withdraw"


def test_a_bad_position_file_is_one_message(tmp_path):
    (tmp_path / "bad.toml").write_text('[[position]]\nid = "x"\nclass = "c"\nrule = "bfrpg:no-such-rule"\nwhy = "w"\n'
                                       'decide = "a"\nexpect = {attacks = true}\n[position.scenario]\nruleset = "bfrpg"\n'
                                       'figures = [{id = "a", side = "blue", x = 1, y = 1, template = "foot"}]\n'
                                       '[position.scenario.map]\nascii = "...\\n...\\n..."\n')
    with pytest.raises(DataFileError) as err:
        load_positions(tmp_path)
    assert "position[1].rule" in str(err.value)


def test_cli_exam_prints_a_score_per_level(capsys):
    assert main(["exam", "--levels", "naive,normal", "--only", "bfrpg-careful-shot", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scores"]["normal"] == {"passed": 1, "of": 1, "score": 1.0}
    assert data["scores"]["naive"]["passed"] == 0
    assert data["positions"][0]["rule"] == "bfrpg:firing-into-melee-or-at-a-moving-opponent"
    assert main(["exam", "--levels", "genius"]) == 2
