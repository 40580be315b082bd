"""Modal boxes over the window: save into a named slot, load a slot (asking first when play
since the last save would be lost). While one is open the board takes no input.

Keys: a slot's number (or a click) picks it; typing edits the name; Enter confirms; Esc
closes. Saves and loads go through game.client.saveslots (atomic writes; a damaged save is
refused with its reason and the battle on screen stays).
"""
from __future__ import annotations

from pathlib import Path

import pygame

from ..core.values.errors import RulesError
from ..client import saveslots
from . import theme

ROW_H = 30


def draw_modal(screen, box):
    """The window shaded and a modal box drawn over it; returns the box."""
    shade = pygame.Surface(screen.get_size(), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 160))
    screen.blit(shade, (0, 0))
    pygame.draw.rect(screen, theme.PANEL_BG, box, border_radius=10)
    pygame.draw.rect(screen, theme.PANEL_EDGE, box, 2, border_radius=10)
    return box


class _SlotDialog:
    title = ""

    def __init__(self, app):
        self.folder = Path(app.save_dir) if app.save_dir else saveslots.default_folder()
        self.slots = saveslots.slots(self.folder)
        self.chosen: saveslots.Slot | None = None
        self.rows: list[tuple[pygame.Rect, int]] = []

    def layout(self, screen) -> pygame.Rect:
        w, h = screen.get_size()
        box = pygame.Rect(0, 0, min(760, w - 40), min(90 + ROW_H * len(self.slots) + 70, h - 40))
        box.center = (w // 2, h // 2)
        return box

    def close(self, app) -> None:
        app.dialog = None

    def handle(self, app, event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if self.chosen is not None:
                self.chosen = None
            else:
                self.close(app)
            return
        if self.chosen is None:
            number = None
            if event.type == pygame.KEYDOWN and pygame.K_1 <= event.key <= pygame.K_9:
                number = event.key - pygame.K_1 + 1
            elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                number = next((n for rect, n in self.rows if rect.collidepoint(event.pos)), None)
            if number is not None and number <= len(self.slots):
                self.pick(app, self.slots[number - 1])
            return
        self.confirm_step(app, event)

    def draw(self, app, screen) -> None:
        fonts = app.fonts
        box = draw_modal(screen, self.layout(screen))
        screen.blit(fonts.render(self.title, 22, theme.PANEL_HEAD, True), (box.x + 24, box.y + 18))
        screen.blit(fonts.render(str(self.folder), 12, theme.PANEL_DIM), (box.x + 24, box.y + 50))
        y = box.y + 76
        self.rows = []
        for slot in self.slots:
            rect = pygame.Rect(box.x + 20, y, box.w - 40, ROW_H - 4)
            picked = self.chosen is not None and self.chosen.number == slot.number
            pygame.draw.rect(screen, theme.PANEL_ROW_PICK if picked else theme.BUTTON, rect, border_radius=5)
            text = fonts.fit(slot.words(), rect.w - 20, 14, True)
            screen.blit(fonts.render(text, 14, theme.PANEL_TEXT if slot.used else theme.PANEL_DIM, slot.used),
                        (rect.x + 10, rect.y + 5))
            self.rows.append((rect, slot.number))
            y += ROW_H
        y += 10
        for line, role in self.footer(app):
            screen.blit(fonts.render(fonts.fit(line, box.w - 48, 15, True), 15, theme.ROLE_COLOURS[role], True),
                        (box.x + 24, y))
            y += 22


class SaveDialog(_SlotDialog):
    title = "Save the battle into a slot"

    def __init__(self, app):
        super().__init__(app)
        self.name = ""
        self._swallow = ""   # the text of the key that picked the slot arrives as typing too: not part of the name

    def pick(self, app, slot) -> None:
        self.chosen = slot
        self.name = f"{app.title}, round {app.battle.round}"
        self._swallow = str(slot.number)

    def confirm_step(self, app, event) -> None:
        if event.type == pygame.TEXTINPUT:
            if event.text == self._swallow:
                self._swallow = ""
                return
            self._swallow = ""
            self.name = (self.name + event.text)[:80]
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_BACKSPACE:
            self.name = self.name[:-1]
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            try:
                slot = saveslots.save(self.folder, self.chosen.number, app.battle, self.name.strip() or "unnamed")
            except (OSError, RulesError) as err:
                app.toast(f"could not save: {err}")
            else:
                app.session.mark_saved()
                app.toast(f"saved into slot {slot.number}: {slot.name}", error=False)
            self.close(app)

    def draw(self, app, screen) -> None:
        self._swallow = ""  # the picking key's typing arrives in the same frame, or not at all
        super().draw(app, screen)

    def footer(self, app) -> list:
        if self.chosen is None:
            return [("Press a slot's number or click it (Esc closes).", "dim")]
        over = " (it replaces what is there)" if self.chosen.used else ""
        return [(f"Name: {self.name}▏", "text"), (f"Enter saves into slot {self.chosen.number}{over}; Esc goes back.",
                                                 "dim")]


class LoadDialog(_SlotDialog):
    title = "Load a saved battle"

    def pick(self, app, slot) -> None:
        if not slot.used:
            app.toast(f"slot {slot.number} is empty")
            return
        self.chosen = slot
        if not app.session.unsaved:
            self.load(app)

    def confirm_step(self, app, event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.load(app)

    def load(self, app) -> None:
        try:
            battle = saveslots.load(self.chosen)
        except (OSError, RulesError) as err:
            app.toast(f"could not load: {err}")
            self.close(app)
            return
        app.install(battle, saved=True)
        app.toast(f"loaded slot {self.chosen.number}: {self.chosen.name}", error=False)
        self.close(app)

    def footer(self, app) -> list:
        if self.chosen is None:
            return [("Press a slot's number or click it (Esc closes).", "dim")]
        return [(f"Load slot {self.chosen.number}? Play since your last save or load will be lost.", "warn"),
                ("Enter loads; Esc goes back.", "dim")]

