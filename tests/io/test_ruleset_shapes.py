"""Every ruleset key's shape is checked at load: one message (file, key, what is allowed), exit 2, no traceback."""
from pathlib import Path

import pytest

from game.cli import main
from game.core.values.errors import DataFileError
from game.core.ruleset import SCHEMA
from game.core.ruleset.schema import describe
from game.io.rulesets import load_ruleset_file

HEAD = 'id = "house"\nname = "House rules"\nbase = "bfrpg"\n'

CASES = [
    # list lengths
    ("[modifiers]\nrange_band_mods = []", "modifiers.range_band_mods", "expected a list of 3 whole numbers"),
    ("[cover_effects]\nhard = [0, -1, -2]", "cover_effects.hard", "a list of 5 whole numbers"),
    ("[damage]\nstun_size_bonus = [2]", "damage.stun_size_bonus", "a list of 2 whole numbers"),
    ("[modifiers]\nshield_attackers = [1, 2]", "modifiers.shield_attackers", "an empty list or a list of 3"),
    ("[surprise]\nper_bonuses = [0, 10]", "surprise.per_bonuses", "an empty list or a list of 5"),
    ("[round]\nsegments = [10]", "round.segments", "an empty list or a list of 2"),
    # phase lists and segments
    ('[round]\nphases = ["melee"]', "round.phases", "expected an empty list or a list of 5 values"),
    ('[round]\nphases = ["melee", "melee", "missile", "magic", "movement"]', "round.phases", "every phase once"),
    ("[round]\nsegments = [0, 0]", "round.segments", "0 is out of range"),
    ("[round]\nsegments = [1, 10]", "round.segments", "the first segment must be higher than the last"),
    # dice
    ('[weapons.lance]\ndamage_large = "lots"', "weapons.lance.damage_large", "'lots' is not a dice expression"),
    ('[round]\nlater_attack_dice = ["1d8", "often"]', "round.later_attack_dice", "entry 2: 'often' is not a dice expression"),
    ('[morale]\ndice = "2d0"', "morale.dice", "dice must have 2 to 1000 sides"),
    # ranges
    ("[weapons.bow]\nrange_ft = [-50, 100, 150]", "weapons.bow.range_ft", "-50 is out of range"),
    ("[weapons.bow]\nrange_ft = [50, 150]", "weapons.bow.range_ft", "an empty list or a list of 3"),
    ("[weapons.bow]\nrange_ft = [150, 100, 50]", "weapons.bow.range_ft", "must rise from each entry to the next"),
    ("[modifiers]\nrear_arcs = [4, 8]", "modifiers.rear_arcs", "8 is not allowed"),
    ('[movement]\nwithdraw_fraction = "1e400"', "movement.withdraw_fraction", "expected a fraction from 0 to 1"),
    ('[charge]\nmin_move_multiple = "3"\nmax_move_multiple = "2"', "charge.min_move_multiple", "no charge could be made"),
    ("[round]\nreach_first_long_ft = 5", "round.reach_first_short_ft", "must be less than round.reach_first_long_ft"),
    # NaN and infinities
    ("[movement]\nrun_multiplier = nan", "movement.run_multiplier", "nan is not a number that can be played"),
    ("[altitude]\ndive_multiplier = inf", "altitude.dive_multiplier", "inf is not a number that can be played"),
    ("[disengage]\nhasty_multiplier = -inf", "disengage.hasty_multiplier", "-inf is not a number"),
    # tables a rule rolls on
    ('[attack]\ncritical = "table"', "critical_table", "no rows, but attack.critical = \"table\" rolls on it"),
    ('[attack]\nfumble = "table"', "fumble_table", "no rows"),
    ('[attack]\ncritical = "d100-table"', "attack.d100_critical_table", "no rows"),
    ('[modifiers]\ninto_melee = "table"', "modifiers.into_melee_table", "no rows"),
    ('[[critical_table]]\nupto = 10\neffect = "regular"\n[[critical_table]]\nupto = 5\neffect = "maximum"',
     "critical_table[2].upto", "not above the row before"),
    ('[[critical_table]]\nupto = 10', "critical_table[1].effect", "missing required key"),
    ('[damage]\nthresholds = [{ at_or_below = -10, condition = "dead" }, { at_or_below = 0, condition = "unconscious" }]',
     "damage.thresholds[2].at_or_below", "from the mildest"),
    ('[damage]\nbleed_condition = "bleeding"', "damage.bleed_condition", "'bleeding' is not allowed"),
    # names and cited sections
    ('[parting_shots]\nrule = "two words"', "parting_shots.rule", "cite a section as one word"),
    ('[charge]\nrule = ""', "charge.rule", "must not be empty"),
    ('[round]\nhold_rule = "a\\nb"', "round.hold_rule", "line break"),
    ('[templates.foot]\nweapons = ["sword", ""]', "templates.foot.weapons", "must not be empty"),
    # nesting
    ("[grid]\nx = " + "[" * 40 + "]" * 40, "grid.x", "nested too deeply"),
    ("[grid]\nx = " + "[" * 3000 + "]" * 3000, "", "nested too deeply"),
]


@pytest.mark.parametrize("body, key, words", CASES, ids=[c[1] + ":" + c[2][:20] for c in CASES])
def test_bad_shape_is_one_clear_message(tmp_path, body, key, words):
    path = tmp_path / "house.toml"
    path.write_text(HEAD + body + "\n")
    with pytest.raises(DataFileError) as err:
        load_ruleset_file(path)
    text = str(err.value)
    assert text.startswith(f"{path}: {key}: " if key else f"{path}: ") and words in text and "\n" not in text


@pytest.mark.parametrize("body, key, words", CASES[::6], ids=[c[1] for c in CASES[::6]])
def test_cli_refuses_bad_shapes_with_exit_2(tmp_path, capsys, body, key, words):
    (tmp_path / "house.toml").write_text(HEAD + body + "\n")
    scenario = tmp_path / "s.toml"
    scenario.write_text('ruleset = "house.toml"\n[map]\nascii = "..."\n[[figures]]\nid = "a"\nside = "b"\nx = 0\ny = 0\n')
    assert main(["reach", str(scenario), "a", "--json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err


def test_every_list_key_says_its_length_or_is_free_by_design():
    """Each list key either states the lengths it allows or is a list whose length is the content."""
    free = {"templates.<name>.weapons", "remove.weapons", "remove.templates", "remove.defenses", "remove.conditions",
            "document.sections"}
    for key, spec in describe(SCHEMA):
        if spec.kind in ("list[int]", "list[str]") and key not in free:
            assert spec.lengths, f"{key} has no lengths"


def test_a_huge_value_is_not_repeated_back(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(HEAD + '[weapons.bow]\ndamage = "' + "x" * 100_000 + '"\n')
    with pytest.raises(DataFileError) as err:
        load_ruleset_file(path)
    assert len(str(err.value)) < 300


def test_shipped_rulesets_pass(tmp_path):
    for path in sorted((Path(__file__).resolve().parents[2] / "rulesets").glob("*.toml")):
        if path.stem != "base":
            load_ruleset_file(path)
