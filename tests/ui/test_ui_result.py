"""The result screen: shown when a battle ends, with replay (same events) and restart (next seed)."""
import pygame

from game.core.battle import Battle
from game.io.paths import MAPS_DIR
from game.io.scenarios import load_scenario

from window import key, shot, step


def finished_app():
    from game.ai import AI
    from game.ui.app import App
    scenario = load_scenario(MAPS_DIR / "corridor.toml")
    battle = Battle.from_scenario(scenario)
    brains = {}
    while not battle.is_over:
        fid = battle.current
        battle.apply(brains.setdefault(battle.figures[fid].side, AI()).choose(battle, fid))
    return App(scenario, battle=battle, background=False)


def test_result_screen_shows_the_outcome_and_replays_the_same_battle():
    app = finished_app()
    step(app)
    summary = app.result.summary(app.battle)
    assert summary["over"] and "wins" in summary["headline"]
    shot(app, "result-screen")
    from game.ui import theme
    box, buttons = app.result.layout(app.screen)
    assert tuple(app.screen.get_at((box.x + 8, box.centery)))[:3] == theme.PANEL_BG
    assert len(buttons) == 3
    events_before = [e.to_json() for e in app.battle.events]
    step(app, key(pygame.K_p))
    assert app.replay is not None and len(app.battle.actions) < len(events_before)
    for _ in range(2000):
        if app.replay is None:
            break
        step(app)
    assert [e.to_json() for e in app.battle.events] == events_before  # same seed, same actions, same rolls
    assert app.battle.is_over


def test_restart_starts_afresh_with_the_next_seed_and_close_shows_the_board():
    app = finished_app()
    seed = app.battle.setup.seed
    step(app, key(pygame.K_ESCAPE))
    assert app.result.dismissed and app.running
    step(app, key(pygame.K_RETURN))
    assert not app.result.dismissed
    step(app, key(pygame.K_r))
    assert app.battle.setup.seed == seed + 1 and not app.battle.is_over and app.battle.actions == []


def test_after_the_battle_no_reach_path_or_click_is_offered_and_every_moment_is_shown_or_counted():
    from window import hover
    app = finished_app()
    step(app)
    app.result.dismissed = True
    app.select(next(iter(app.battle.figures)))
    hover(app, (8, 8))
    _key, layers = app.scene.area_layers(app)
    assert not any(style in ("walk", "run") for style, _ in layers)
    assert app.hover.intent.kind == "nothing" and app.hover.preview is None
    app.result.dismissed = False
    step(app)
    shot(app, "result-screen-moments")
