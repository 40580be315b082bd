"""Every rule an event names is a real section of its ruleset's document, or a documented choice
(issue: citations). The sections are each ruleset's `document.sections` (the document's headings
as slugs); choices are its `[[choices]]`, cited as ruleset:choice-... ."""
from __future__ import annotations

import ast
import glob
from pathlib import Path

import pytest

from game.core.values.errors import DataFileError
from game.core.ruleset import CITATIONS
from game.io.rulesets import load_ruleset, load_ruleset_file
from game.io.scenarios import load_scenario
from game.play.simulate import play_battle, setups_for

from helpers import RULESET_IDS

ROOT = Path(__file__).resolve().parents[2]


def _rule_ids(event) -> list[str]:
    ids = [event.rule] + [m.source for m in event.modifiers]
    bd = (event.data or {}).get("breakdown")
    if bd:
        ids.append(bd["rule"])
        for key in ("attack_modifiers", "defense_modifiers", "damage_modifiers", "damage_multipliers"):
            ids += [m["source"] for m in bd[key]]
    return ids


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_ai_battles_cite_only_real_sections(ruleset_id):
    """Short AI battles on every shipped scenario: each rule id emitted is ruleset:<a section or a choice>."""
    rs = load_ruleset(ruleset_id)
    known = rs.known_sections()
    assert known, f"{ruleset_id} lists no document sections"
    wrong: dict[str, str] = {}
    for path in sorted(glob.glob(str(ROOT / "maps" / "*.toml"))):
        setup = setups_for(load_scenario(path), [rs])[ruleset_id]
        battle, _res, _info = play_battle(setup, max_rounds=3, difficulty="easy")
        for event in battle.events:
            for rule in _rule_ids(event):
                rid, _, section = rule.partition(":")
                if rid != ruleset_id or section not in known:
                    wrong.setdefault(rule, f"{Path(path).name}: {event.kind}: {event.text[:80]}")
    assert not wrong, wrong


def _cited_literals() -> set[str]:
    """Every string literal the code passes to Ruleset.cite(...)."""
    out = set()
    for path in (ROOT / "game").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "cite"
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                out.add(node.args[0].value)
    return out


def test_every_engine_rule_name_the_code_cites_is_mapped():
    """A name the code cites on its own (not from a ruleset key) is an entry of [citations]."""
    literals = _cited_literals()
    assert literals, "no cite() calls found"
    assert literals <= set(CITATIONS), sorted(literals - set(CITATIONS))


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_engine_rule_names_resolve_to_sections_or_choices(ruleset_id):
    """Every engine rule name this ruleset uses resolves to a real section or a documented choice."""
    rs = load_ruleset(ruleset_id)
    known = rs.known_sections()
    unused = {  # engine rules a ruleset never fires (it has no such mechanism)
        "bfrpg": {"segments", "diagonals", "critical-effects", "fumble-effects", "stun", "grievous-hits",
                  "stuck-missiles", "reloading", "move-and-attack", "run-and-attack", "blindsided",
                  "friendly-fire-table"},
        "odnd": {"segments", "5-10-diagonals", "helpless", "critical-effects", "fumble-effects", "stun",
                 "grievous-hits", "stuck-missiles", "move-and-attack", "run-and-attack", "fatigue",
                 "missile-too-close", "friendly-fire-table"},
        "cnc": {"segments", "5-10-diagonals", "critical-effects", "fumble-effects", "stun", "grievous-hits",
                "stuck-missiles", "reloading", "move-and-attack", "run-and-attack", "fatigue", "missile-too-close",
                "blindsided", "friendly-fire-table"},
        "ch17": {"segments", "diagonals", "helpless", "stun", "grievous-hits", "stuck-missiles",
                 "move-and-attack", "run-and-attack", "missile-too-close", "blindsided", "friendly-fire-table"},
        "spelljammer": {"5-10-diagonals", "helpless", "critical-effects", "fumble-effects", "reloading", "fatigue",
                        "missile-too-close", "blindsided"},
    }[ruleset_id]
    for name in set(CITATIONS) - unused:
        section = rs.cite(name).partition(":")[2]
        assert section in known, (name, section)


def test_a_choice_cited_shows_its_words():
    rs = load_ruleset("odnd")
    assert rs.cite("diagonals") == "odnd:choice-diagonals"
    assert "5 ft" in rs.choice("odnd:choice-diagonals")
    assert rs.choice("odnd:retreat") == ""


def test_a_citation_outside_the_document_is_refused_on_load(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('id = "house"\nname = "House"\nsource = "x"\nbase = "bfrpg"\n[citations]\nmovement = "moving-about"\n')
    with pytest.raises(DataFileError) as err:
        load_ruleset_file(path)
    assert err.value.where == "citations.movement"
    assert "not a section" in str(err.value)
    path.write_text('id = "house"\nname = "House"\nsource = "x"\nbase = "bfrpg"\n[parting_shots]\nrule = "free-attacks"\n')
    with pytest.raises(DataFileError) as err:
        load_ruleset_file(path)
    assert err.value.where == "parting_shots.rule"
