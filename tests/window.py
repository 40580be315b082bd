"""Driving the game window in tests with real pygame events, one frame at a time."""
from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game.io.paths import MAPS_DIR  # noqa: E402
from game.io.scenarios import load_scenario  # noqa: E402

SHOTS = Path("/tmp/fivefoot-shots")


def make_app(name: str = "corridor.toml", sides=None, size=(1280, 800), cell: int | None = 40, ruleset: str | None = None,
             **kw):
    from game.ui.app import App
    scenario = load_scenario(MAPS_DIR / name)
    if ruleset is not None:
        from game.io.rulesets import load_ruleset
        scenario.ruleset = load_ruleset(ruleset)
    if sides is None:
        sides = {}
        for f in scenario.figures:
            sides[f.side] = "human"
    app = App(scenario, sides=sides, size=size, background=False, **kw)
    if cell is not None:
        app.camera.set_cell(cell)
    app.frame([])
    return app


def advance_to(app, figure_id: str) -> None:
    """End other figures' turns through the resolver until it is `figure_id`'s turn."""
    from game.core.values.actions import EndTurn
    for _ in range(50):
        if app.battle.current == figure_id:
            break
        app.battle.apply(EndTurn(figure=app.battle.current))
    assert app.battle.current == figure_id
    app.frame([])


def step(app, *events) -> None:
    """Post real pygame events and run one frame of the app's own loop."""
    pygame.event.clear()
    for e in events:
        pygame.event.post(e)
    app.frame()


def motion(pos, buttons=(0, 0, 0), rel=(0, 0)):
    return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=rel, buttons=buttons)


def press(pos, button=1):
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)


def release(pos, button=1):
    return pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button)


def key(k, mod=0):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def hover(app, square) -> None:
    step(app, motion(app.screen_pos(square)))


def click(app, square, button=1) -> None:
    pos = app.screen_pos(square)
    step(app, motion(pos))
    step(app, press(pos, button))
    step(app, release(pos, button))


def pixel(app, pos) -> tuple[int, int, int]:
    return tuple(app.screen.get_at((int(pos[0]), int(pos[1]))))[:3]


def square_corner_pixels(app, square, inset: int = 4):
    """The four pixels just inside a square's corners (clear of tokens at the centre)."""
    c = app.camera.cell
    x, y = app.camera.to_screen(*square)
    x += app.map_rect.x
    y += app.map_rect.y
    return [pixel(app, (x + dx, y + dy)) for dx, dy in ((inset, inset), (c - inset - 1, inset),
                                                          (inset, c - inset - 1), (c - inset - 1, c - inset - 1))]


def square_samples(app, square, n: int = 5):
    """An n x n grid of pixels inside a square (tokens and labels cover some; they never change)."""
    c = app.camera.cell
    x, y = app.camera.to_screen(*square)
    x += app.map_rect.x
    y += app.map_rect.y
    step_px = (c - 4) / (n - 1)
    return [pixel(app, (x + 2 + i * step_px, y + 2 + j * step_px)) for j in range(n) for i in range(n)]


def tinted(before, after, share: float = 0.25) -> bool:
    """True when at least `share` of the sampled pixels changed colour."""
    return sum(1 for a, b in zip(before, after) if a != b) >= share * len(before)


def shot(app, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    app.screenshot(str(path))
    return path


def only_overlays(app, *names) -> None:
    for n in list(app.ui.overlays):
        app.set_overlay(n, n in names)


def tooltip_words(app) -> list[str]:
    """The lines by the pointer (what a click does now, or why not), as the window words them."""
    from game.client import describe
    return [t for t, _ in describe.tooltip_lines(app.ui, app.rules, app.selected_figure(), app.hover)]
