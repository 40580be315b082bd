"""Issue 26, the solo player's first hour: the first-run guide, settings kept between runs, sounds,
the keyboard cursor, the start screen's battle and ruleset, and the ending from the person's side."""
from __future__ import annotations

import json

import numpy as np
import pygame

from game.client.settings import Settings, load_settings
from game.io.paths import DEFAULT_SCENARIO

from window import key, make_app, pixel, shot, step


def test_the_default_battle_is_the_first_battle_with_two_goblins_numbered():
    from game.core.battle import Battle
    from game.io.scenarios import load_scenario
    assert DEFAULT_SCENARIO.name == "first_battle.toml"
    b = Battle.from_scenario(load_scenario(DEFAULT_SCENARIO))
    names = sorted(f.label for f in b.figures.values())
    assert names == ["Goblin 1", "Goblin 2", "Goblin archer", "Hero", "Spearman"]


def test_the_guide_shows_on_the_first_run_only_and_comes_back_from_f1(tmp_path):
    path = tmp_path / "fivefoot" / "settings.json"
    app = make_app("first_battle.toml", sides={"blue": "human", "red": "ai"}, size=(1024, 700),
                   settings=Settings(path=path))
    assert app.ui.help_open and app.ui.help_page == "guide"
    assert json.loads(path.read_text())["guide_seen"] is True
    shot(app, "guide-1024")
    centre = pixel(app, (512, 350))
    step(app, key(pygame.K_a))                         # any key closes it, and does nothing else
    assert not app.ui.help_open and app.ui.mode == "auto"
    assert pixel(app, (512, 350)) != centre
    step(app, key(pygame.K_F1))
    assert app.ui.help_open and app.ui.help_page == "guide"
    step(app, key(pygame.K_F1))
    assert app.ui.help_open and app.ui.help_page == "keys"
    again = make_app("first_battle.toml", settings=load_settings(path))
    assert not again.ui.help_open


def test_the_guide_says_the_rulesets_own_rules():
    from game.client.guide import guide
    app = make_app("first_battle.toml", ruleset="odnd")
    text = " ".join(" ".join(lines) for _, lines in guide(app.battle, ["blue"]))
    assert "each side rolls 1d6" in text and "every step costs 5 ft" in text
    app = make_app("first_battle.toml")
    text = " ".join(" ".join(lines) for _, lines in guide(app.battle, ["blue"]))
    assert "movement, then artillery" in text and "+2" in text and "You play blue" in text
    app = make_app("first_battle.toml", ruleset="spelljammer")
    text = " ".join(" ".join(lines) for _, lines in guide(app.battle, []))
    assert "No charges under these rules" in text and "charge a foe" not in text and "The AI plays every side" in text


def test_settings_are_validated_on_load_and_written_atomically(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"animation": "warp", "sound": "yes", "ruleset": "cnc", "ai_level": "ai-hard",
                                "unknown": 3}))
    s = load_settings(path, rulesets=["bfrpg", "cnc"])
    assert (s.animation, s.sound, s.ruleset, s.ai_level) == ("normal", True, "cnc", "ai-hard")
    assert any("'animation'" in n for n in s.notes) and any("'sound'" in n for n in s.notes)
    s.sound = False
    assert s.save() is None
    assert json.loads(path.read_text())["sound"] is False
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]      # no temporary file left behind
    path.write_text("{not json")
    assert load_settings(path).data() == Settings().data()


def test_the_settings_screen_changes_and_keeps_the_animation_speed(tmp_path):
    path = tmp_path / "s.json"
    app = make_app(settings=Settings(path=path, guide_seen=True))
    step(app, key(pygame.K_F2))
    assert app.dialog is not None
    shot(app, "settings-1280")
    step(app, key(pygame.K_RIGHT))                     # the first row: animation speed
    assert app.settings.animation == "fast" and app.animator.speed == "fast"
    assert json.loads(path.read_text())["animation"] == "fast"
    step(app, key(pygame.K_ESCAPE))
    assert app.dialog is None


def test_sounds_are_made_by_the_program_and_follow_the_log():
    from game.core.values.actions import EndTurn
    from game.ui.sound import samples
    for name in ("hit", "miss", "fall", "turn"):
        wave = samples(name)
        assert 0.05 < len(wave) / 22050 < 0.5 and np.abs(wave).max() <= 1.0 and np.abs(wave).max() > 0.2
    app = make_app("first_battle.toml")
    app.session.submit(EndTurn(figure=app.battle.current))
    step(app)
    if app.sounds.available:
        assert "turn" in app.sounds.played
    step(app, key(pygame.K_F3))
    assert not app.sounds.on
    played = list(app.sounds.played)
    app.sounds.play("hit")
    assert app.sounds.played == played                 # muted: nothing plays


def test_the_keyboard_cursor_moves_and_clicks_like_the_pointer():
    app = make_app("first_battle.toml")
    cur = app.battle.current
    start = app.battle.figures[cur].pos
    step(app, key(pygame.K_t))
    assert app.comforts.cursor == start and app.ui.hover_square == start
    free = next((start[0] + dx, start[1]) for dx in (1, -1)
                if app.battle.map.passable(start[0] + dx, start[1]) and not app.figures_on((start[0] + dx, start[1])))
    step(app, key(pygame.K_RIGHT if free[0] > start[0] else pygame.K_LEFT))
    assert app.ui.hover_square == free
    shot(app, "keyboard-cursor")
    step(app, key(pygame.K_RETURN))
    assert app.battle.figures[cur].pos == free
    step(app, key(pygame.K_ESCAPE))
    assert app.comforts.cursor is None


def test_the_start_screen_picks_the_battle_and_the_ruleset():
    app = make_app("first_battle.toml", size=(1024, 700), start_screen=True)
    app.settings.ai_level = "ai-easy"
    shot(app, "start-1024")
    step(app, key(pygame.K_b))
    assert app.title != "First Blood at the Corridor"
    assert app.start_screen
    step(app, key(pygame.K_b, pygame.KMOD_SHIFT))
    assert app.title == "First Blood at the Corridor"
    step(app, key(pygame.K_r))
    assert app.battle.ruleset.id != "bfrpg"
    shot(app, "start-other-rules")
    from game.ui.startscreen import apply_preset
    apply_preset(app, "solo")
    assert app.players.kinds == {"blue": "human", "red": "ai-easy"}
    step(app, key(pygame.K_RETURN))
    assert not app.start_screen


def test_the_ending_is_victory_or_defeat_for_the_person_and_names_the_winner_otherwise():
    from game.ui.resultscreen import ending_words
    summary = {"winner": "blue", "over": True, "headline": "blue wins in 4 rounds"}
    assert ending_words(summary, ["blue"]) == ("Victory!", "Blue wins in 4 rounds")
    assert ending_words(summary, ["red"])[0] == "Defeat"
    assert ending_words(summary, ["blue", "red"]) == ("Blue wins in 4 rounds", "")
    assert ending_words(summary, []) == ("Blue wins in 4 rounds", "")
    assert ending_words({"winner": None, "over": True, "headline": "a draw after 30 rounds"}, ["blue"])[0] == "A draw"
