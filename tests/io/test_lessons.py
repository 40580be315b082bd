"""Lesson files: the bundled lessons played under every ruleset, the loader's refusals, saving and recording."""
import tomllib

import pytest

from game.cli import main
from game.client.lessons import LessonPlayer, LessonRecorder, position
from game.core.values.actions import EndTurn, GmPlace, Move
from game.io.lessons import bundled_lessons, cited_rule, load_lesson, save_lesson, step_shows
from game.io.paths import MAPS_DIR, bundled_ruleset_ids
from game.io.scenarios import load_scenario
from game.core.battle import Battle

RULESETS = bundled_ruleset_ids()
RULES_TAUGHT = {"01-diagonals": "5-10-diagonals", "02-facing": "maneuverability", "03-engagement": "misc-combat-rules",
                "04-parting-shots": "defensive-movement", "05-charge-and-set-weapons": "set-weapon-against-charge",
                "06-reach": "initiative", "07-cover": "cover-and-concealment", "08-flank-and-rear": "rear-attack",
                "09-flyer-altitude": "flyer-altitude"}


def test_a_lesson_for_each_rule_of_position():
    assert {p.stem for p in bundled_lessons()} == set(RULES_TAUGHT)
    for path in bundled_lessons():
        lesson = load_lesson(path)
        assert lesson.rule.endswith(":" + RULES_TAUGHT[path.stem])
        assert 3 <= len(lesson.steps) <= 6 and 2 <= len(lesson.scenario.figures) <= 6
        assert all(step.caption for step in lesson.steps)


@pytest.mark.parametrize("path", bundled_lessons(), ids=lambda p: p.stem)
def test_bundled_lesson_under_its_own_ruleset_and_all_five(path):
    lesson = load_lesson(path)
    player = LessonPlayer(lesson)
    taught = cited_rule(lesson)
    shown_somewhere = False
    differs = False
    for i, step in enumerate(lesson.steps):
        battle, events, refusals = player.position(i)
        assert refusals == [], f"step {i + 1} refused under {lesson.ruleset.id}: {refusals}"
        assert len(battle.actions) >= sum(len(s.actions) for s in lesson.steps[:i + 1])
        assert step_shows(events, step.expect) == []
        if step.expect:
            shown_somewhere |= not step_shows(events, [taught])
            own = [(str(e.kind), e.text) for e in events]
            for other in RULESETS:
                b, other_events, other_refusals = player.position(i, other)
                assert b.ruleset.id == other
                for r in other_refusals:
                    assert r.ruleset == other and r.words and r.key
                if other != lesson.ruleset.id:
                    differs |= bool(other_refusals) or [(str(e.kind), e.text) for e in other_events] != own
    assert shown_somewhere, f"{lesson.rule} ({taught}) fires at no step that expects something"
    assert differs, "switching the ruleset at the steps that show the rule changes nothing"


def test_rule_fires_at_the_step_that_says_so():
    lesson = load_lesson(MAPS_DIR / "lessons" / "04-parting-shots.toml")
    kinds = [[str(e.kind) for e in position(lesson, i).events] for i in range(len(lesson.steps))]
    assert "parting-shot" in kinds[1] and "parting-shot" not in kinds[2]
    charge = load_lesson(MAPS_DIR / "lessons" / "05-charge-and-set-weapons.toml")
    _, events, _ = position(charge, 2)
    assert [str(e.kind) for e in events if str(e.kind) in ("set-weapon", "charge-attack")] == ["set-weapon", "charge-attack"]


def test_another_ruleset_rejudges_the_step_and_says_what_it_refuses():
    lesson = load_lesson(MAPS_DIR / "lessons" / "05-charge-and-set-weapons.toml")
    battle, events, refusals = position(lesson, 1, "cnc")
    assert battle.ruleset.id == "cnc" and events == []
    assert [r.action.kind for r in refusals] == ["set"] and "no rule for setting a weapon" in refusals[0].words
    assert refusals[0].text.startswith("cnc refuses set by Spearman: ")
    with pytest.raises(Exception, match="steps 1 to 3"):
        position(lesson, 3)


GOOD = """title = "T"
rule = "bfrpg:defensive-movement"
ruleset = "bfrpg"

[[steps]]
caption = "look"

[[steps]]
caption = "walk"
actions = [{ action = "move", figure = "hero", to = [1, 3] }]

[scenario]
seed = 2

[scenario.map]
ascii = \"\"\"
......
......
......
......
\"\"\"

[[scenario.figures]]
id = "hero"
side = "blue"
template = "foot"
x = 0
y = 0
facing = "E"

[[scenario.figures]]
id = "gob"
side = "red"
template = "foot"
x = 5
y = 3
facing = "W"
"""
STEP = '[[steps]]\ncaption = "x"\nactions = [{ action = "move", figure = "hero", to = [1, 3] }]'
# (what to replace in GOOD, by what), the words the one line says
BAD = {
    "unknown key": (('title = "T"', 'title = "T"\ncolour = "red"'), "colour: unknown key"),
    "unknown table": (("[scenario]\nseed = 2", "[other]\nseed = 2"), "other: unknown key"),
    "no scenario": (("", ""), "scenario: missing required key"),
    "bad rule": (("bfrpg:defensive-movement", "parting shots"), "rule: 'parting shots' is not ruleset:section"),
    "unknown section": (("bfrpg:defensive-movement", "bfrpg:no-such-section"), "rule: bfrpg has no section 'no-such-section'"),
    "unknown ruleset in rule": (("bfrpg:defensive-movement", "gurps:reach"), "rule: 'gurps' is not a bundled ruleset"),
    "refused action": ((STEP, '[[steps]]\ncaption = "x"\nactions = [{ action = "attack", figure = "hero", target = "gob" }]'),
                       "steps[2].actions[1]: refused under bfrpg: "),
    "unknown figure": (('figure = "hero", to', 'figure = "orc", to'), "steps[2].actions[1].figure: no figure 'orc'"),
    "bad action": (('action = "move"', 'action = "fly"'), "steps[2].actions[1]: unknown action 'fly'"),
    "empty caption": (('caption = "look"', 'caption = " "'), "steps[1].caption: must not be empty"),
    "expect not shown": (('caption = "look"', 'caption = "look"\nexpect = ["charge"]'), "steps[1].expect: the step shows no charge"),
    "expect not a kind": (('caption = "look"', 'caption = "look"\nexpect = ["explosion"]'), "steps[1].expect[1]: 'explosion' is neither"),
    "bad inline map": (("ascii = ", 'file = "x.tmx"\nascii = '), "scenario.map: give exactly one of"),
    "figure in a wall": (("......\n......\n......\n......", "#.....\n......\n......\n......"), "scenario.figures[1]"),
    "missing scenario file": (("[scenario]\nseed = 2", 'scenario = "nowhere.toml"\n[x]\nseed = 2'), "scenario: 'nowhere.toml': no such file"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_damaged_lesson_is_one_line_and_exit_2(tmp_path, capsys, name):
    (old, new), words = BAD[name]
    if old == STEP:
        text = GOOD.replace('[[steps]]\ncaption = "walk"\nactions = [{ action = "move", figure = "hero", to = [1, 3] }]', new)
    else:
        assert old in GOOD
        text = GOOD.replace(old, new, 1)
    if name in ("missing scenario file", "no scenario"):      # the battle left out, or a top-level key naming it
        text = ('scenario = "nowhere.toml"\n' if old else "") + GOOD.split("[scenario]")[0]
    path = tmp_path / "bad.toml"
    path.write_text(text)
    assert main(["lessons", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and words in err, err
    assert "Traceback" not in err


def test_a_good_lesson_of_the_same_shape_loads(tmp_path):
    path = tmp_path / "good.toml"
    path.write_text(GOOD)
    lesson = load_lesson(path)
    assert [len(s.actions) for s in lesson.steps] == [0, 1] and lesson.scenario_table["seed"] == 2


def test_save_and_load_again(tmp_path):
    lesson = load_lesson(MAPS_DIR / "lessons" / "06-reach.toml")
    out = save_lesson(lesson, tmp_path / "sub" / "copy.toml")
    again = load_lesson(out)
    assert [s.caption for s in again.steps] == [s.caption for s in lesson.steps]
    assert [s.actions for s in again.steps] == [s.actions for s in lesson.steps]
    assert [s.expect for s in again.steps] == [s.expect for s in lesson.steps]
    assert again.scenario_table == lesson.scenario_table and again.rule == lesson.rule
    assert not list((tmp_path / "sub").glob(".*.tmp"))      # written through a temporary file, renamed


def test_recorded_lesson_saves_and_replays(tmp_path):
    scenario = load_scenario(MAPS_DIR / "corridor.toml")
    battle = Battle.from_scenario(scenario)
    battle.apply(EndTurn(battle.current))           # played before the recording starts: its set-up
    recorder = LessonRecorder(scenario, battle, title="Backing off", rule="bfrpg:defensive-movement")
    recorder.caption("The hero and the goblin.")
    recorder.next_step("The goblin is placed beside the hero.")
    place = GmPlace("gob1", x=4, y=6, facing="W")
    battle.apply(place)
    recorder.record(place)
    recorder.record(Move("hero", to=(3, 3)))
    assert recorder.undo() == Move("hero", to=(3, 3))
    lesson = recorder.lesson()
    assert [s.caption for s in lesson.steps] == ["The hero and the goblin.", "The goblin is placed beside the hero."]
    assert lesson.steps[0].actions == tuple(battle.actions[:1]) and lesson.steps[1].actions == (place,)
    path = save_lesson(lesson, tmp_path / "recorded.toml")
    data = tomllib.loads(path.read_text())
    assert data["scenario"].endswith("maps/corridor.toml") and data["seed"] == scenario.seed
    again = load_lesson(path)
    assert position(again, 1).battle.figures["gob1"].pos == (4, 6)


def test_recording_a_battle_whose_rules_were_switched_places_the_figures(tmp_path):
    scenario = load_scenario(MAPS_DIR / "corridor.toml")
    battle = Battle.from_scenario(scenario)
    battle.apply(GmPlace("hero", x=2, y=6, facing="S"))
    switched = battle.rejudged(__import__("game.io.rulesets", fromlist=["load_ruleset"]).load_ruleset("odnd"))
    lesson = LessonRecorder(scenario, switched).lesson(rule="odnd:retreat")
    assert lesson.ruleset.id == "odnd" and lesson.steps[0].actions == (GmPlace("hero", x=2, y=6, facing="S"),)
    again = load_lesson(save_lesson(lesson, tmp_path / "switched.toml"))
    assert again.ruleset.id == "odnd" and position(again, 0).battle.figures["hero"].pos == (2, 6)


def test_nothing_recorded_is_said():
    scenario = load_scenario(MAPS_DIR / "corridor.toml")
    with pytest.raises(Exception, match="nothing recorded yet"):
        LessonRecorder(scenario).lesson()


def test_lessons_command_lists_and_reads(capsys):
    assert main(["lessons"]) == 0
    out = capsys.readouterr().out
    assert "The 5-10 diagonal" in out and "maps/lessons/04-parting-shots.toml" in out and len(out.splitlines()) == 10
    assert main(["lessons", "--json"]) == 0
    rows = __import__("json").loads(capsys.readouterr().out)["lessons"]
    assert len(rows) == 9 and {"title", "rule", "steps", "file"} <= set(rows[0])
    assert main(["lessons", "maps/lessons/04-parting-shots.toml", "--step", "2"]) == 0
    out = capsys.readouterr().out
    assert "Step 2 of 3: The first goblin turns round" in out and "parting shot" in out and "Step 3" not in out
    assert main(["lessons", "maps/lessons/05-charge-and-set-weapons.toml", "--ruleset", "cnc", "--step", "2"]) == 0
    assert "refused: cnc refuses set by Spearman:" in capsys.readouterr().out
    assert main(["lessons", "maps/lessons/04-parting-shots.toml", "--step", "9"]) == 2
    assert "steps 1 to 3" in capsys.readouterr().err
