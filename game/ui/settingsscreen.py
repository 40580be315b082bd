"""The settings screen (F2) and the sound key (F3): a modal box over the window.

Rows: animation speed, sound, the default ruleset, the AI level a solo game is played against,
and whether the guide shows at the next start. Up/Down (or the pointer) picks a row; Left/Right,
Enter, Space or a click changes it; Esc or F2 closes. Each change is applied at once (speed and
sound) and saved at once (game/client/settings.py writes the file atomically); the ruleset and
the AI level are what the start screen offers first.
"""
from __future__ import annotations

import pygame

from ..client.settings import AI_LEVEL_WORDS, AI_LEVELS, ANIMATIONS
from . import theme
from .dialogs import draw_modal

ROW_H = 40


def _rulesets() -> list[str]:
    from ..io.rulesets import bundled_ruleset_ids
    return [""] + list(bundled_ruleset_ids())


ROWS = (
    ("animation", "Animation speed"),
    ("sound", "Sound (F3 turns it on or off)"),
    ("ruleset", "Default ruleset"),
    ("ai_level", "AI level for a solo game"),
    ("guide", "Guide at the next start"),
)


def _choices(key: str) -> list:
    return {"animation": list(ANIMATIONS), "sound": [True, False], "ruleset": _rulesets(),
            "ai_level": list(AI_LEVELS), "guide": [False, True]}[key]


def _value(settings, key: str):
    return (not settings.guide_seen) if key == "guide" else getattr(settings, key)


def words(key: str, value) -> str:
    if key in ("sound", "guide"):
        return "on" if value else "off"
    if key == "ruleset":
        return value or "each battle's own"
    if key == "ai_level":
        return AI_LEVEL_WORDS.get(value, value)
    return str(value)


def toggle_sound(app) -> None:
    app.settings.sound = not app.settings.sound
    app.sounds.on = app.settings.sound
    problem = app.settings.save()
    app.toast(problem or ("Sound on" if app.sounds.on else "Sound off (F3 turns it back on)"), error=bool(problem))


class SettingsDialog:
    def __init__(self, app):
        self.row = 0
        self.rects: list[tuple[pygame.Rect, int]] = []

    def layout(self, screen) -> pygame.Rect:
        w, h = screen.get_size()
        box = pygame.Rect(0, 0, min(640, w - 40), min(110 + ROW_H * len(ROWS) + 50, h - 40))
        box.center = (w // 2, h // 2)
        return box

    def change(self, app, index: int, step: int = 1) -> None:
        key = ROWS[index][0]
        settings = app.settings
        options = _choices(key)
        now = _value(settings, key)
        new = options[(options.index(now) + step) % len(options)] if now in options else options[0]
        if key == "guide":
            settings.guide_seen = not new
        else:
            setattr(settings, key, new)
        if key == "animation":
            app.animator.speed = new
        elif key == "sound":
            app.sounds.on = new
        problem = settings.save()
        if problem:
            app.toast(problem)

    def handle(self, app, event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_ESCAPE, pygame.K_F2):
                app.dialog = None
            elif event.key == pygame.K_UP:
                self.row = (self.row - 1) % len(ROWS)
            elif event.key in (pygame.K_DOWN, pygame.K_TAB):
                self.row = (self.row + 1) % len(ROWS)
            elif event.key in (pygame.K_RIGHT, pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self.change(app, self.row, 1)
            elif event.key == pygame.K_LEFT:
                self.change(app, self.row, -1)
            elif event.key == pygame.K_F3:
                toggle_sound(app)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            box = self.layout(app.screen)
            if not box.collidepoint(event.pos):
                app.dialog = None
                return
            for rect, i in self.rects:
                if rect.collidepoint(event.pos):
                    self.row = i
                    self.change(app, i, 1)

    def draw(self, app, screen) -> None:
        fonts = app.fonts
        box = draw_modal(screen, self.layout(screen))
        title = fonts.render("Settings (kept between runs)", 22, theme.PANEL_HEAD, True)
        screen.blit(title, (box.centerx - title.get_width() // 2, box.y + 16))
        y = box.y + 64
        self.rects = []
        button_w = min(220, box.w // 2 - 30)
        for i, (key, label) in enumerate(ROWS):
            row = pygame.Rect(box.x + 16, y, box.w - 32, ROW_H - 6)
            if i == self.row:
                pygame.draw.rect(screen, theme.PANEL_ROW_HOVER, row, border_radius=6)
            text = fonts.render(fonts.fit(label, box.w - button_w - 60, 15), 15, theme.PANEL_TEXT)
            screen.blit(text, (row.x + 10, row.centery - text.get_height() // 2))
            button = pygame.Rect(row.right - button_w - 6, row.y + 3, button_w, row.h - 6)
            pygame.draw.rect(screen, (52, 56, 70), button, border_radius=6)
            pygame.draw.rect(screen, theme.PANEL_EDGE, button, 1, border_radius=6)
            value = fonts.render(fonts.fit("< " + words(key, _value(app.settings, key)) + " >", button_w - 10, 15, True),
                                 15, (255, 255, 255), True)
            screen.blit(value, value.get_rect(center=button.center))
            self.rects.append((row, i))
            y += ROW_H
        where = str(app.settings.path) if app.settings.path else "not saved (no settings file in this session)"
        for n, line in enumerate(fonts.wrap(f"Up/Down pick, Left/Right or click change, Esc closes. File: {where}",
                                            box.w - 40, 12, max_lines=3)):
            surf = fonts.render(line, 12, theme.PANEL_DIM)
            screen.blit(surf, (box.x + 20, y + 8 + n * 16))
