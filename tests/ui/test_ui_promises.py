"""The window asks the resolver and nothing else: what it offers is what the resolver accepts,
its odds are the resolver's, and the path it shows is the path that is walked."""
from __future__ import annotations

import subprocess
import sys
import time

import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.values.actions import Attack, Move
from game.io.rulesets import bundled_ruleset_ids
from game.client.rulesview import RulesView
from budget import HANG_S
from window import advance_to, click, hover, key, make_app, motion, shot, step, tooltip_words


@pytest.mark.parametrize("ruleset", bundled_ruleset_ids())
def test_the_attack_tooltip_says_what_the_resolver_says(ruleset):
    app = make_app(ruleset=ruleset)
    advance_to(app, "hero")
    step(app, key(pygame.K_a))
    hover(app, (6, 6))
    refusal = app.battle.check(Attack("hero", target="gob1"))
    odds = app.battle.explain_attack("hero", "gob1").chance()
    words = tooltip_words(app)
    if refusal is None:
        assert words[0] == f"click to attack Goblin: {odds:.0%} to hit"
    else:  # never an invitation the resolver would refuse; the odds from here, for once it may
        assert words[0] == f"cannot attack Goblin now: {refusal.words}"
        assert words[1:] in ([], [f"from here, once it may: {odds:.0%} to hit, "
                                  f"{app.battle.explain_attack('hero', 'gob1').odds().mean_damage:.1f} damage a hit"])
    # The token card's odds are the same number.
    from game.client import describe
    card = [t for t, _ in describe.token_card(app.rules, app.battle.figures["gob1"], app.selected_figure(), "person")]
    assert any((f"{odds:.0%} to hit" in t) if refusal is None else (refusal.words in t) for t in card)
    n = len(app.battle.actions)
    click(app, (6, 6))
    assert (len(app.battle.actions) == n + 1) == (refusal is None)


@pytest.mark.parametrize("ruleset", bundled_ruleset_ids())
def test_in_move_mode_a_click_on_a_foe_strikes_it_when_the_resolver_allows_else_selects_it(ruleset):
    app = make_app(ruleset=ruleset)
    advance_to(app, "hero")
    assert app.ui.mode not in ("attack", "aim", "charge")
    hover(app, (6, 6))
    allowed = app.battle.check(Attack("hero", target="gob1")) is None
    words = tooltip_words(app)
    if allowed:
        assert words[0].startswith("click to attack Goblin")
    n = len(app.battle.actions)
    click(app, (6, 6))
    if allowed:
        assert app.battle.actions[n].kind == "attack" and app.battle.actions[n].target == "gob1"
    else:
        assert len(app.battle.actions) == n and app.ui.selected == "gob1"


def test_once_the_attack_is_spent_the_tooltip_stops_offering_it():
    app = make_app(ruleset="ch17")
    advance_to(app, "hero")
    step(app, key(pygame.K_a))
    hover(app, (6, 6))
    assert tooltip_words(app)[0].startswith("click to attack Goblin")
    assert app._cursor == pygame.SYSTEM_CURSOR_CROSSHAIR
    click(app, (6, 6))
    assert app.battle.actions[-1].kind == "attack"
    step(app, motion(app.screen_pos((6, 6))))
    if not app.battle.able("gob1"):
        return  # felled: there is nothing left to offer
    refusal = app.battle.check(Attack("hero", target="gob1"))
    assert refusal is not None
    words = tooltip_words(app)
    assert words[0] == f"cannot attack Goblin now: {refusal.words}"
    assert all(w.startswith("from here, once it may: ") for w in words[1:])
    assert app._cursor == pygame.SYSTEM_CURSOR_NO   # the pointer says no too
    shot(app, "attack-spent-tooltip")


def test_the_end_turn_button_is_off_when_the_ai_plays_the_figure():
    app = make_app(sides={"blue": "human", "red": "pass"})
    assert app.button_states()["end-turn"] == "on"
    assert app.button_states()["undo"] == "off"    # nothing to undo yet
    assert app.button_states()["redo"] == "off"    # nor to redo


def test_redo_is_on_only_while_an_undone_decision_waits():
    app = make_app()
    advance_to(app, "hero")
    assert app.button_states()["redo"] == "off"
    step(app, key(pygame.K_z, pygame.KMOD_CTRL))
    assert app.button_states()["redo"] == "on"
    step(app, key(pygame.K_y, pygame.KMOD_CTRL))
    assert app.button_states()["redo"] == "off"


_APP = {}


def _walker_app():
    if "app" not in _APP:
        app = make_app()
        advance_to(app, "spear")
        _APP["app"] = app
        _APP["squares"] = sorted(app.rules.reach("spear", "run").squares())
    return _APP["app"], _APP["squares"]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(["auto", "walk", "run", "withdraw"]))
def test_the_previewed_path_is_the_path_applied(data, mode):
    app, squares = _walker_app()
    app.ui.mode = mode
    target = data.draw(st.sampled_from(squares))
    hover(app, target)
    preview = app.hover.preview
    n = len(app.battle.actions)
    click(app, target)
    try:
        if preview is None or preview.refusal is not None:
            assert len(app.battle.actions) == n  # refused, as the preview said
            return
        shown = [(s.x, s.y, s.facing, s.altitude_ft) for s in preview.planned.path.steps]
        sent = app.battle.actions[-1]
        assert isinstance(sent, Move) and sent.path == tuple(shown[1:])  # the move carried what was shown
        walked = next(e for e in reversed(app.battle.events) if e.kind == "move" and "steps" in e.data)
        assert [s.to_json() for s in preview.planned.path.steps] == walked.data["steps"]
    finally:
        while len(app.battle.actions) > n:
            app.battle.undo()
        app.ui.mode = "auto"
        step(app)


def test_rules_questions_off_the_window_thread_read_a_snapshot_not_the_live_battle():
    app = make_app()
    advance_to(app, "spear")
    rules = RulesView(app.battle, background=True)
    assert rules.snapshot is not app.battle
    assert rules.options("spear") is None            # asked on the worker thread
    deadline = time.monotonic() + HANG_S  # a hang guard: the answer comes, however busy the machine
    while rules.options("spear") is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert rules.options("spear") == app.battle.options("spear")
    old = rules.snapshot
    app.battle.apply(Move("spear", to=(3, 6)))
    assert rules.refresh() and rules.snapshot is not old   # a change: a new snapshot, old answers dropped
    assert rules.status("spear").moved_ft == app.battle.status("spear").moved_ft


def test_the_windows_pygame_free_half_needs_no_pygame():
    """Every module of game.client imports (and so can be used by commands) without pygame."""
    code = ("import importlib, pkgutil, sys, game.client as c\n"
            "for m in pkgutil.iter_modules(c.__path__): importlib.import_module('game.client.' + m.name)\n"
            "assert 'pygame' not in sys.modules, 'pygame imported'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_docs_list_every_key_the_window_understands():
    from pathlib import Path

    from game.ui.help import keys_markdown
    assert keys_markdown().strip() in Path("docs/ui.md").read_text(encoding="utf-8")
