"""Keys for comfort: F2 the settings screen, F3 sound on or off, and T the keyboard cursor.

The keyboard cursor lets a battle be played without a mouse: T shows a cursor on the selected
figure's square; the arrow keys move it (the path, the odds and the reasons show as for the
pointer); Enter does what a click there would do (select a figure, move, attack the foe under
it: the same click_intent as the mouse); T or Esc hides it. Tab still cycles the figures.
"""
from __future__ import annotations

import pygame

from .settingsscreen import SettingsDialog, toggle_sound

STEPS = {pygame.K_LEFT: (-1, 0), pygame.K_RIGHT: (1, 0), pygame.K_UP: (0, -1), pygame.K_DOWN: (0, 1)}


class ComfortInput:
    def __init__(self):
        self.cursor: tuple[int, int] | None = None

    def handle(self, event, app):
        if event.type != pygame.KEYDOWN or event.mod & pygame.KMOD_CTRL:
            return None
        k = event.key
        if k == pygame.K_F2:
            app.dialog = SettingsDialog(app)
            return []
        if k == pygame.K_F3:
            toggle_sound(app)
            return []
        if k == pygame.K_t:
            if self.cursor is None:
                fig = app.selected_figure()
                self.cursor = fig.pos if fig is not None else (app.battle.map.width // 2, app.battle.map.height // 2)
                app.ui.hover_square = self.cursor
                app.toast("Keyboard cursor: arrows move it, Enter picks the square or the foe, T or Esc hides it",
                          error=False)
            else:
                self.hide(app)
            return []
        if self.cursor is None:
            return None
        if k in STEPS:
            dx, dy = STEPS[k]
            x = min(max(self.cursor[0] + dx, 0), app.battle.map.width - 1)
            y = min(max(self.cursor[1] + dy, 0), app.battle.map.height - 1)
            self.cursor = (x, y)
            app.ui.hover_square = self.cursor
            app.camera.ensure_visible(self.cursor)
            return []
        if k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            pointer = next((h for h in app.handlers if hasattr(h, "click")), None)
            out = pointer.click(self.cursor, app) if pointer is not None else []
            app.ui.hover_square = self.cursor
            return out
        if k == pygame.K_ESCAPE:
            self.hide(app)
            return []
        return None

    def hide(self, app) -> None:
        self.cursor = None
        inside = app.map_rect.collidepoint(app.ui.mouse)
        app.ui.hover_square = app.camera.square_at(*app.map_point(app.ui.mouse)) if inside else None

    def draw(self, screen, app) -> None:
        if self.cursor is None:
            return
        cell = app.camera.cell
        x, y = app.camera.to_screen(*self.cursor)
        rect = pygame.Rect(x + app.map_rect.x, y + app.map_rect.y, cell, cell)
        if not app.map_rect.colliderect(rect):
            return
        clip = screen.get_clip()
        screen.set_clip(app.map_rect)
        pygame.draw.rect(screen, (15, 15, 20), rect.inflate(4, 4), 2)
        pygame.draw.rect(screen, (255, 236, 90), rect, 3)
        screen.set_clip(clip)
