"""`fivefoot play` automation: --headless, --script (JSON lines and TOML), --screenshot."""
from __future__ import annotations

import json

import pygame

from game.cli import main

from window import SHOTS


def test_screenshot_without_script_renders_the_default_battle(tmp_path, capsys):
    out = tmp_path / "first.png"
    assert main(["play", "--headless", "--screenshot", str(out)]) == 0
    image = pygame.image.load(str(out))
    assert image.get_size() == (1280, 800)
    assert "screenshot:" in capsys.readouterr().out


def test_json_lines_script_plays_actions_and_prints_events(tmp_path, capsys):
    from game.core.battle import Battle
    from game.io.paths import DEFAULT_SCENARIO
    from game.io.scenarios import load_scenario
    first = Battle.from_scenario(load_scenario(DEFAULT_SCENARIO)).current
    script = tmp_path / "moves.jsonl"
    script.write_text("# first figure steps back, then ends its turn\n"
                      + json.dumps({"action": "turn", "figure": first, "facing": "S"}) + "\n\n"
                      + json.dumps({"action": "end-turn", "figure": first}) + "\n")
    out = SHOTS / "play-script-jsonl.png"
    assert main(["play", "--headless", "--script", str(script), "--screenshot", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "turns to face S" in printed and "ends the turn" in printed
    assert out.exists()


def test_toml_script_with_a_refused_action_reports_it_and_exits_1(tmp_path, capsys):
    script = tmp_path / "bad.toml"
    script.write_text('[[actions]]\naction = "move"\nfigure = "gob2"\nto = [14, 7]\n')
    assert main(["play", "--headless", "--script", str(script)]) == 1
    err = capsys.readouterr().err
    assert "refused:" in err and "gob2" in err


def test_a_broken_script_is_a_user_error(tmp_path, capsys):
    script = tmp_path / "broken.jsonl"
    script.write_text('{"action": "fly", "figure": "hero"}\n')
    assert main(["play", "--headless", "--script", str(script)]) == 2
    assert "line 1" in capsys.readouterr().err


def test_sides_flags(tmp_path):
    assert main(["play", "--headless", "--side", "red=pass", "--frames", "3"]) == 0
    assert main(["play", "--headless", "--side", "purple=ai", "--frames", "1"]) == 2


def test_a_refused_click_in_play_does_not_make_quitting_fail(monkeypatch, capsys):
    """Quitting normally exits 0 whatever the person clicked; a refused script action names the action."""
    from game.core.values.actions import Move
    from game.ui.app import App
    real_frame = App.frame

    def frame(self, events=None):
        if self.frame_no == 0:  # a person's refused move: not its turn
            self.submit(Move("gob2", to=(14, 7)))
        real_frame(self, events)
    monkeypatch.setattr(App, "frame", frame)
    assert main(["play", "--headless", "--frames", "3"]) == 0
    assert "refused:" not in capsys.readouterr().err


def test_a_refused_script_action_is_printed_as_its_json(tmp_path, capsys):
    script = tmp_path / "bad.jsonl"
    script.write_text(json.dumps({"action": "move", "figure": "gob2", "to": [14, 7]}) + "\n")
    assert main(["play", "--headless", "--script", str(script)]) == 1
    line = next(l for l in capsys.readouterr().err.splitlines() if l.startswith("refused: "))
    action = json.loads(line[len("refused: "):line.index("}") + 1])
    assert action["action"] == "move" and action["figure"] == "gob2"
