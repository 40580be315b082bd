"""Rulesets as a base plus overrides: what merges how, what a user file may do, and which file an error names."""
from pathlib import Path

import pytest

from game.cli import main
from game.core.values.errors import DataFileError, RulesError
from game.core.ruleset import Ruleset
from game.io.rulesets import bundled_ruleset_ids, load_ruleset, load_ruleset_file

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "rulesets" / "base.toml"

# A complete ruleset in one file, as a user may still write one: only the required keys.
MINIMAL = '''id = "mini"
name = "Minimal"
source = "none"
[grid]
diagonal = "5"
[movement]
run_multiplier = 2
[engagement]
zone_ft = 5
[parting_shots]
trigger = "leave-reach"
'''


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text)
    return path


def house(tmp_path, body: str, base: str = "bfrpg", name: str = "house") -> Path:
    return write(tmp_path, f"{name}.toml", f'id = "{name}"\nname = "House rules"\nbase = "{base}"\n' + body)


def test_the_base_is_shared_but_is_not_a_ruleset(capsys):
    assert bundled_ruleset_ids() == ["bfrpg", "ch17", "cnc", "odnd", "spelljammer"]
    for rid in bundled_ruleset_ids():
        assert 'base = "base"' in (ROOT / "rulesets" / f"{rid}.toml").read_text()
    with pytest.raises(RulesError, match="not a ruleset on its own"):
        load_ruleset("base")
    with pytest.raises(DataFileError, match=r"base\.toml: id: missing required key"):
        load_ruleset_file(BASE)
    assert main(["rulesets", "--json"]) == 0
    assert '"base"' not in capsys.readouterr().out


def test_weapons_and_templates_are_written_once():
    """Only base.toml defines the shared weapons' fields that every ruleset keeps."""
    for rid in bundled_ruleset_ids():
        text = (ROOT / "rulesets" / f"{rid}.toml").read_text()
        assert "[weapons.sword]\ndamage = \"1d8\"" not in text
        assert "name = \"Foot soldier\"" not in text
    sword = {rid: load_ruleset(rid).weapon("sword")["damage"] for rid in bundled_ruleset_ids()}
    assert sword == {"bfrpg": "1d8", "ch17": "1d8", "cnc": "1d8", "odnd": "1d6+1", "spelljammer": "1d8"}


def test_a_ruleset_overrides_fields_and_keeps_the_rest():
    base_bow = load_ruleset("bfrpg").weapon("bow")
    bow = load_ruleset("spelljammer").weapon("bow")
    assert bow["damage"] == "1d8" and bow["in_melee_penalty"] == -30      # spelljammer's own
    assert bow["hands"] == base_bow["hands"] == 2 and bow["ranged"]        # the base's
    assert load_ruleset("cnc").template("knight")["turning_ft"] == 20     # from the base
    assert load_ruleset("cnc").template("knight")["ac"] == 18             # cnc's
    assert load_ruleset("spelljammer").weapon("lance") is None            # removed
    assert load_ruleset("ch17").weapon("heavy_crossbow")["reload_rounds"] == 2   # added


def test_hold_rule_is_a_key_per_ruleset(tmp_path):
    assert load_ruleset("ch17").section("round")["hold_rule"] == "hold-action"
    assert load_ruleset("odnd").section("round")["hold_rule"] == "choice-holding"
    assert load_ruleset("bfrpg").section("round")["hold_rule"] == "initiative"
    mini = load_ruleset_file(write(tmp_path, "mini.toml", MINIMAL + '[round]\nrule = "turn-order"\n'))
    assert mini.section("round")["hold_rule"] == "turn-order"   # unset: the round's rule


def test_a_complete_file_without_base_still_loads(tmp_path):
    rs = load_ruleset_file(write(tmp_path, "mini.toml", MINIMAL))
    assert rs.id == "mini" and rs.weapon("sword") is None and rs.section("engagement")["zone_ft"] == 5


@pytest.mark.parametrize("rid", ["bfrpg", "odnd", "cnc", "ch17", "spelljammer"])
def test_merged_data_is_a_complete_ruleset(rid):
    """A save carries the merged data: checked whole again, it is the same ruleset."""
    rs = load_ruleset(rid)
    again = Ruleset.from_mapping(rs.data, "save.json")
    assert again.data == rs.data and "base" not in rs.data and "remove" not in rs.data


def test_user_file_on_a_bundled_base(tmp_path):
    path = house(tmp_path, '[engagement]\nzone_ft = 10\n[weapons.bow]\ndamage = "1d12"\n[weapons.club]\ndamage = "1d4"\n'
                           '[templates.foot]\nmove_ft = 20\n')
    rs, bfrpg = load_ruleset_file(path), load_ruleset("bfrpg")
    assert rs.id == "house" and rs.name == "House rules"
    assert rs.section("engagement") == dict(bfrpg.section("engagement"), zone_ft=10)
    assert rs.weapon("bow") == dict(bfrpg.weapon("bow"), damage="1d12")
    assert rs.weapon("club")["reach_ft"] == 5          # a new weapon gets the schema's defaults
    assert rs.template("foot") == dict(bfrpg.template("foot"), move_ft=20)
    assert rs.section("charge") == bfrpg.section("charge")


def test_defenses_merge_by_style_and_conditions_by_name(tmp_path):
    path = house(tmp_path, '[[defenses]]\nstyle = "total-defense"\nparry_bonus = 2\n'
                           '[[defenses]]\nstyle = "dodge"\nbonus = 2\nrule = "parrying-and-defensive-combat"\n'
                           '[[conditions]]\nname = "prone"\nattack = -2\n')
    rs, bfrpg = load_ruleset_file(path), load_ruleset("bfrpg")
    assert [d["style"] for d in rs.section("defenses")] == ["partial-defense", "total-defense", "dodge"]
    assert rs.defense("total-defense") == dict(bfrpg.defense("total-defense"), parry_bonus=2)
    assert rs.condition("prone") == dict(bfrpg.condition("prone"), attack=-2)


def test_lists_replace_the_base_whole(tmp_path):
    path = house(tmp_path, '[damage]\nthresholds = [{ at_or_below = -5, condition = "dead" }]\n[cover_effects]\nsoft = [0, 0, 0, 0, 0]\n')
    rs = load_ruleset_file(path)
    assert rs.section("damage")["thresholds"] == [{"at_or_below": -5, "condition": "dead"}]
    assert rs.section("cover_effects")["soft"] == [0, 0, 0, 0, 0]


def test_remove_drops_what_the_base_has(tmp_path):
    path = house(tmp_path, '[remove]\nweapons = ["horns"]\ndefenses = ["partial-defense"]\nconditions = ["prone"]\n')
    rs = load_ruleset_file(path)
    assert rs.weapon("horns") is None and rs.defense("partial-defense") is None and rs.condition("prone") is None
    assert rs.defense("total-defense") is not None


def test_a_base_by_path_relative_to_the_file(tmp_path):
    write(tmp_path / "common", "shared.toml", MINIMAL.replace('id = "mini"', 'id = "shared"') + '[weapons.club]\ndamage = "1d6"\n')
    path = house(tmp_path / "mine", '[weapons.club]\nreach_ft = 10\n', base="../common/shared.toml")
    rs = load_ruleset_file(path)
    assert rs.weapon("club")["damage"] == "1d6" and rs.weapon("club")["reach_ft"] == 10 and rs.id == "house"


def test_a_chain_of_bases(tmp_path):
    house(tmp_path, '[engagement]\nzone_ft = 10\n', name="middle")
    top = house(tmp_path, '[charge]\nallowed = false\n', base="middle.toml", name="top")
    rs = load_ruleset_file(top)
    assert rs.section("engagement")["zone_ft"] == 10 and not rs.section("charge")["allowed"]
    assert rs.weapon("horns") is not None   # from bfrpg, two files down


def message_of(path: Path) -> str:
    with pytest.raises(DataFileError) as err:
        load_ruleset_file(path)
    text = str(err.value)
    assert "\n" not in text
    return text


def test_a_bad_value_names_the_file_that_holds_it(tmp_path):
    shared = write(tmp_path, "shared.toml", '[weapons.club]\ndamage = "lots"\n')
    text = message_of(house(tmp_path, "", base="shared.toml"))
    assert text.startswith(f"{shared}: weapons.club.damage: 'lots' is not a dice expression")


def test_a_problem_of_the_whole_names_the_ruleset_and_where_the_value_came_from(tmp_path):
    text = message_of(house(tmp_path, '[remove]\nweapons = ["lance"]\n'))
    assert text.startswith(f"{tmp_path / 'house.toml'}: templates.knight.weapons: unknown weapon 'lance'")
    assert f"(this value comes from {BASE})" in text


@pytest.mark.parametrize("body, base, key, words", [
    ('[remove]\nweapons = ["laser"]\n', "bfrpg", "remove.weapons", "'laser' is not in the base; its weapons: axe, bow"),
    ('[[defenses]]\nstyle = "dodge"\nbonus = 2\n', "bfrpg", "defenses[1].rule", "missing required key"),
    ('[[defenses]]\nbonus = 2\n', "bfrpg", "defenses[1].style", "matched to its base's by its style"),
    ('[[defenses]]\nstyle = "a"\nrule = "x"\n[[defenses]]\nstyle = "a"\nrule = "y"\n', "bfrpg", "defenses[2].style",
     "already used by defenses[1]"),
    ("", "gurps", "base", "unknown base 'gurps'; bundled: base, bfrpg, ch17"),
    ("", "../nowhere/x.toml", "base", "no such ruleset file"),
    ("", "house.toml", "base", "the bases go round in a loop"),
    ('[weapons."two\\nlines"]\ndamage = "1d4"\n', "bfrpg", "weapons.'two\\nlines'", "line break"),
])
def test_layer_errors(tmp_path, body, base, key, words):
    text = message_of(house(tmp_path, body, base=base))
    assert f"house.toml: {key}: " in text and words in text


def test_a_ruleset_on_a_base_names_itself(tmp_path):
    path = write(tmp_path, "house.toml", 'base = "bfrpg"\n[engagement]\nzone_ft = 10\n')
    assert "house.toml: id: missing required key" in message_of(path)


def test_remove_needs_a_base(tmp_path):
    path = write(tmp_path, "mini.toml", MINIMAL + '[remove]\nweapons = ["sword"]\n')
    assert "mini.toml: remove.weapons: this file has no base" in message_of(path)


def test_cli_scenario_with_a_broken_layered_ruleset_exits_2(tmp_path, capsys):
    house(tmp_path, '[weapons.bow]\nrange_ft = [100, 50, 150]\n')
    scenario = write(tmp_path, "s.toml", 'ruleset = "house.toml"\n[map]\nascii = "..."\n[[figures]]\nid = "a"\nside = "b"\nx = 0\ny = 0\n')
    assert main(["check", str(scenario)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "house.toml: weapons.bow.range_ft: [100, 50, 150] must rise" in err
