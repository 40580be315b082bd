"""The start screen: who plays each side (a person or the AI), then Start.

Shown by `fivefoot play` when no --side/--hotseat/--watch flag decides it. Click a side's
button (or press its number) to switch person/AI; Enter or the Start button begins.
"""
from __future__ import annotations

import pygame

from . import theme

PRESETS = (("solo", "Solo vs AI"), ("hotseat", "Hot-seat"), ("watch", "Watch AI vs AI"))
OTHERS = (("skirmish", "New skirmish (K)"), ("campaign", "Campaign (C)"))   # instead of this battle


def _layout(app):
    w, h = app.screen.get_size()
    box = pygame.Rect(0, 0, min(760, w - 40), min(560, h - 40))
    box.center = (w // 2, h // 2)
    rows = []
    y = box.y + 210
    for side in app.sides():
        rows.append((side, pygame.Rect(box.x + 260, y, 200, 34)))
        y += 44
    presets = []
    x = box.x + 40
    for key, text in PRESETS:
        presets.append((key, pygame.Rect(x, y + 10, 200, 32)))
        x += 220
    start = pygame.Rect(0, 0, 220, 46)
    start.midbottom = (box.centerx, box.bottom - 24)
    x = box.x + 40
    for key, _text in OTHERS:      # the other ways to play: a generated skirmish, the campaign
        presets.append((key, pygame.Rect(x, y + 52, 200, 32)))
        x += 220
    return box, rows, presets, start


def other_game(app, key: str) -> None:
    """A new generated skirmish in this window, or the bundled campaign once this window closes."""
    if key == "campaign":
        app.wants_campaign = True
        app.running = False
        return
    import random

    from ..io.rulesets import load_ruleset
    from ..io.saves import write_atomically
    from ..io.scenarios import load_scenario
    from ..play.skirmish import TERRAINS, SkirmishSpec, generate, to_toml
    from pathlib import Path
    seed = random.randrange(1, 100000)
    rid = app.battle.ruleset.id if app.battle.ruleset.id in ("bfrpg", "odnd", "cnc", "ch17", "spelljammer") else "bfrpg"
    spec = SkirmishSpec(rid, seed=seed, terrain=TERRAINS[seed % len(TERRAINS)])
    from ..client.saveslots import default_folder
    out = Path(app.save_dir or default_folder()) / "skirmishes" / f"skirmish-{seed}.toml"
    write_atomically(out, to_toml(generate(spec, load_ruleset(rid))).encode("utf-8"))
    app.switch_scenario(load_scenario(out))
    app.toast(f"new skirmish saved as {out}", error=False)


def apply_preset(app, key: str) -> None:
    sides = app.sides()
    for i, side in enumerate(sides):
        if key == "solo":
            app.players.set_side(side, "human" if i == 0 else "ai")
        elif key == "hotseat":
            app.players.set_side(side, "human")
        else:
            app.players.set_side(side, "ai")


def handle_start(app, event) -> None:
    box, rows, presets, start = _layout(app)
    if event.type == pygame.KEYDOWN:
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            app.start_screen = False
        elif event.key == pygame.K_ESCAPE:
            app.running = False
        elif event.key in (pygame.K_k, pygame.K_c):
            other_game(app, "skirmish" if event.key == pygame.K_k else "campaign")
        elif pygame.K_1 <= event.key <= pygame.K_9:
            i = event.key - pygame.K_1
            if i < len(rows):
                _toggle(app, rows[i][0])
    elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
        for side, rect in rows:
            if rect.collidepoint(event.pos):
                _toggle(app, side)
        for key, rect in presets:
            if rect.collidepoint(event.pos):
                (other_game if key in dict(OTHERS) else apply_preset)(app, key)
        if start.collidepoint(event.pos):
            app.start_screen = False


def _cycle() -> list[str]:
    from ..play import controllers as ctl
    kinds = ctl.kinds()
    order = ["human", "ai"] + [k for k in ("ai-easy", "ai-hard") if k in kinds]
    return order


def _toggle(app, side: str) -> None:
    kind = app.players.kinds.get(side, "human")
    order = _cycle()
    i = order.index(kind) if kind in order else 0
    app.players.set_side(side, order[(i + 1) % len(order)])


def draw_start(app, screen) -> None:
    fonts = app.fonts
    screen.fill(theme.BACKGROUND)
    # The map in the background, dimmed, so the player sees what they are about to fight over.
    view = screen.subsurface(app.map_rect)
    app.map_layer.draw(view, app.camera, None)
    shade = pygame.Surface(screen.get_size(), pygame.SRCALPHA)
    shade.fill((10, 10, 14, 190))
    screen.blit(shade, (0, 0))
    box, rows, presets, start = _layout(app)
    pygame.draw.rect(screen, theme.PANEL_BG, box, border_radius=12)
    pygame.draw.rect(screen, theme.PANEL_EDGE, box, 2, border_radius=12)
    y = box.y + 24
    title = fonts.render(app.title, 26, theme.PANEL_HEAD, True)
    screen.blit(title, (box.centerx - title.get_width() // 2, y))
    y += 40
    rs = app.battle.ruleset
    line = fonts.render(f"Rules: {rs.name} [{rs.id}]   ·   map {app.battle.map.width} x {app.battle.map.height} squares",
                        14, theme.PANEL_ACCENT)
    screen.blit(line, (box.centerx - line.get_width() // 2, y))
    y += 26
    for text in fonts.wrap(app.description, box.w - 80, 15)[:4 if app.battle.map.reading_notes() else 5]:
        surf = fonts.render(text, 15, theme.PANEL_TEXT)
        screen.blit(surf, (box.centerx - surf.get_width() // 2, y))
        y += 20
    if app.battle.map.reading_notes():  # how a map made for another game was read (or that nothing was)
        from ..client.describe import map_reading
        for text in fonts.wrap(map_reading(app.battle.map), box.w - 80, 13)[:2]:
            surf = fonts.render(text, 13, theme.PANEL_ACCENT)
            screen.blit(surf, (box.centerx - surf.get_width() // 2, min(y, box.y + 156)))
            y += 17
    head = fonts.render("Who plays each side? (click, or press its number)", 15, theme.PANEL_HEAD, True)
    screen.blit(head, (box.x + 40, box.y + 178))
    for i, (side, rect) in enumerate(rows):
        count = sum(1 for f in app.battle.figures.values() if f.side == side)
        pygame.draw.circle(screen, theme.side_colour(side), (box.x + 56, rect.centery), 10)
        label = fonts.render(f"{i + 1}.  {side}  ({count} figures)", 16, theme.PANEL_TEXT, True)
        screen.blit(label, (box.x + 74, rect.centery - label.get_height() // 2))
        human = app.players.human_side(side)
        pygame.draw.rect(screen, (40, 90, 60) if human else (90, 50, 90), rect, border_radius=6)
        pygame.draw.rect(screen, theme.PANEL_EDGE, rect, 1, border_radius=6)
        text = fonts.render("Person" if human else app.players.name(side), 16, (255, 255, 255), True)
        screen.blit(text, text.get_rect(center=rect.center))
    for key, rect in presets:
        pygame.draw.rect(screen, (52, 56, 70), rect, border_radius=6)
        pygame.draw.rect(screen, theme.PANEL_EDGE, rect, 1, border_radius=6)
        text = fonts.render(dict(PRESETS + OTHERS)[key], 14, theme.PANEL_TEXT, True)
        screen.blit(text, text.get_rect(center=rect.center))
    pygame.draw.rect(screen, (60, 120, 200), start, border_radius=8)
    text = fonts.render("Start (Enter)", 18, (255, 255, 255), True)
    screen.blit(text, text.get_rect(center=start.center))
    note = fonts.render("Click a side's button to cycle: person, AI, easy AI, hard AI.", 12, theme.PANEL_DIM)
    screen.blit(note, (box.centerx - note.get_width() // 2, start.y - 22))
