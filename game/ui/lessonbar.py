"""Lessons in the window: playing one step by step, and recording one (docs/ui.md, Lessons).

A lesson (`fivefoot play --lesson FILE`) shows in a bar along the map: its title and rule, the step
and the ruleset it is judged by, the step's caption, what that ruleset refused, and buttons. Right and
Left (or the buttons) step forward and back, each step's events played out with their callouts; [ and ]
judge the same step by another ruleset. The table may play on from a step; the next step key goes
back to the lesson. Ctrl+R records a lesson from the battle on screen: the actions played go into the
step being recorded, T types its caption (Enter closes the step), Ctrl+R again saves it.
"""
from __future__ import annotations

from pathlib import Path

import pygame

from ..core.values.errors import RulesError
from ..client.lessonview import LessonShow, Recording
from . import theme
from .hud import token_rect

BAR_TEXT = 14
PAD = 10
BUTTON_H = 26


# ----- showing a lesson -----
def open_lesson(app, lesson, step: int = 1) -> None:
    """Put the lesson on screen at `step` (counted from 1); the AI waits while it is shown."""
    app.lesson = LessonShow(lesson)
    app.ui.gm = True
    show_step(app, step - 1)


def show_step(app, index: int, ruleset_id: str | None = None) -> None:
    """Step `index` (from 0) of the lesson on screen, its events played out and called out."""
    show = app.lesson
    battle = show.show(index, ruleset_id)
    app.install(battle)
    events = show.events
    first = len(battle.events) - len(events)
    if events:
        app.animator.play(events, first)
    app.callouts.add(events, first, battle.figures, app.clock_now(), app.animator.remaining_s())


def step_by(app, delta: int) -> None:
    show = app.lesson
    target = show.index + delta
    if show.played_on(app.battle):       # the table played on: the step keys go back to the lesson
        target = show.index if delta < 0 else target
    if not 0 <= target < show.steps:
        app.toast("the lesson's last step: Left goes back, Close leaves the lesson" if delta > 0
                  else "the lesson's first step", error=False)
        return
    show_step(app, target)


def switch_rules(app, delta: int) -> None:
    from ..io.rulesets import bundled_ruleset_ids
    ids = bundled_ruleset_ids()
    show = app.lesson
    i = ids.index(show.ruleset_id) if show.ruleset_id in ids else -1
    show_step(app, show.index, ids[(i + delta) % len(ids)])     # the bar's heading names the ruleset


def close_lesson(app) -> None:
    app.lesson = None
    app.ui.gm = False
    app.lesson_box = None
    app.toast("lesson closed: play on from here (G: demonstration mode)", error=False)


# ----- recording -----
def toggle_recording(app) -> None:
    if app.recording is None:
        if app.lesson is not None:
            app.toast("close the lesson first: a recording starts from a battle being played")
            return
        try:
            app.recording = Recording(app.scenario, app.battle)
        except RulesError as err:
            app.toast(f"cannot record here: {err}")
            return
        app.toast("recording a lesson: play what you want to show; T types the step's caption; Ctrl+R saves",
                  error=False)
        return
    recording, app.recording = app.recording, None
    recording.follow(app.battle)
    try:
        path = recording.save(lesson_folder(app))
    except (RulesError, OSError) as err:
        app.toast(f"lesson not saved: {err}")
        return
    app.toast(f"lesson saved: {path} (open it with: fivefoot play --lesson {path})", error=False)


def lesson_folder(app) -> Path:
    """Beside the save slots: DIR/lessons with --save-dir DIR, else ~/.local/share/fivefoot/lessons."""
    from ..client import saveslots
    return Path(app.save_dir) / "lessons" if app.save_dir else saveslots.default_folder().parent / "lessons"


def follow_battle(app) -> None:
    """After every change on screen: the recording takes the actions played (and drops the undone)."""
    if app.recording is not None:
        if app.battle.ruleset.id != app.recording.ruleset_id:
            app.recording = None
            app.toast("recording stopped: a lesson records under one ruleset (it plays under any later, with [ ])")
            return
        app.recording.follow(app.battle)


class CaptionDialog:
    """Typing the caption of the step being recorded: Enter keeps it and starts the next step, Esc drops it."""

    def __init__(self, app):
        self.text = ""
        pygame.key.start_text_input()

    def close(self, app) -> None:
        pygame.key.stop_text_input()
        app.dialog = None

    def handle(self, app, event) -> None:
        if event.type == pygame.TEXTINPUT:
            self.text = (self.text + event.text)[:600]
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.close(app)
            elif event.key == pygame.K_BACKSPACE:
                self.text = self.text[:-1]
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                if app.recording is not None and self.text.strip():
                    app.recording.follow(app.battle)
                    app.recording.close_step(self.text)
                    app.toast(f"step {app.recording.step_number - 1} captioned; recording step "
                              f"{app.recording.step_number}", error=False)
                self.close(app)

    def draw(self, app, screen) -> None:
        fonts = app.fonts
        w, h = screen.get_size()
        width = min(760, w - 40)
        lines = fonts.wrap(self.text + "|", width - 2 * PAD, 15) or ["|"]
        head = f"Caption of step {app.recording.step_number if app.recording else 1} (Enter keeps it, Esc drops it)"
        box = pygame.Rect(0, 0, width, 2 * PAD + 24 + 20 * len(lines))
        box.center = (w // 2, h // 2)
        shade = pygame.Surface((w, h), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        screen.blit(shade, (0, 0))
        pygame.draw.rect(screen, theme.PANEL_BG, box, border_radius=8)
        pygame.draw.rect(screen, theme.PANEL_EDGE, box, 1, border_radius=8)
        screen.blit(fonts.render(head, 15, theme.PANEL_HEAD, True), (box.x + PAD, box.y + PAD))
        for i, line in enumerate(lines):
            screen.blit(fonts.render(line, 15, theme.PANEL_TEXT), (box.x + PAD, box.y + PAD + 24 + 20 * i))


# ----- keys and clicks -----
class LessonInput:
    """Before the other handlers: the lesson's keys and buttons, and recording's."""

    def handle(self, event, app):
        ctrl = event.type == pygame.KEYDOWN and event.mod & pygame.KMOD_CTRL
        if ctrl and event.key == pygame.K_r:
            toggle_recording(app)
            return []
        if app.recording is not None and event.type == pygame.KEYDOWN and event.key == pygame.K_t and not ctrl:
            app.recording.follow(app.battle)
            app.dialog = CaptionDialog(app)
            return []
        if app.lesson is None:
            return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            hit = next((what for rect, what in app.lesson_buttons if rect.collidepoint(event.pos)), None)
            if hit is None:
                return None
            {"back": lambda: step_by(app, -1), "next": lambda: step_by(app, 1),
             "rules": lambda: switch_rules(app, 1), "close": lambda: close_lesson(app)}[hit]()
            return []
        if event.type != pygame.KEYDOWN or ctrl:
            return None
        if event.key in (pygame.K_RIGHT, pygame.K_LEFT):
            step_by(app, 1 if event.key == pygame.K_RIGHT else -1)
            return []
        if event.key in (pygame.K_LEFTBRACKET, pygame.K_RIGHTBRACKET):
            switch_rules(app, -1 if event.key == pygame.K_LEFTBRACKET else 1)
            return []
        return None


# ----- drawing -----
def draw_lesson_bar(screen, app) -> None:
    """The lesson's bar (or the recording's line) at the foot of the map, or at its top where the foot
    would cover more figures; it says where it is (app.lesson_box) so callouts and messages keep clear."""
    app.lesson_box = None
    app.lesson_buttons = []
    if app.lesson is None and app.recording is None:
        return
    fonts = app.fonts
    area = app.map_rect
    width = area.w - 24
    rows = _rows(app, fonts, width - 2 * PAD)
    buttons = _buttons(app) if app.lesson is not None else []
    h = PAD + sum(18 for _ in rows) + (BUTTON_H + 6 if buttons else 0) + PAD // 2
    box = _place(app, pygame.Rect(area.x + 12, area.bottom - h - 8, width, h),
                 pygame.Rect(area.x + 12, area.y + 32, width, h))
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    shade.fill((16, 18, 26, 235))
    screen.blit(shade, box)
    edge = theme.MESSAGE_ERROR if app.recording is not None else theme.PANEL_ACCENT
    pygame.draw.rect(screen, edge, box, 2, border_radius=8)
    y = box.y + PAD - 2
    for text, colour, bold in rows:
        screen.blit(fonts.render(text, BAR_TEXT, colour, bold), (box.x + PAD, y))
        y += 18
    x = box.x + PAD
    for label, what in buttons:
        w = fonts.size(label, BAR_TEXT, True)[0] + 20
        rect = pygame.Rect(x, y + 4, w, BUTTON_H)
        pygame.draw.rect(screen, theme.BUTTON, rect, border_radius=5)
        pygame.draw.rect(screen, theme.PANEL_EDGE, rect, 1, border_radius=5)
        screen.blit(fonts.render(label, BAR_TEXT, theme.PANEL_TEXT, True), (rect.x + 10, rect.y + 5))
        app.lesson_buttons.append((rect, what))
        x = rect.right + 8
    app.lesson_box = box


def _rows(app, fonts, width: int) -> list[tuple[str, tuple, bool]]:
    rows = []
    if app.lesson is not None:
        show = app.lesson
        rows += [(t, theme.PANEL_HEAD, True) for t in fonts.wrap(show.heading(), width, BAR_TEXT, True)]
        rows += [(t, theme.PANEL_TEXT, False) for t in fonts.wrap(show.caption(), width, BAR_TEXT)]
        for line in show.refusal_lines():
            rows += [(t, theme.MESSAGE_ERROR, False) for t in fonts.wrap(line, width, BAR_TEXT)]
        if show.played_on(app.battle):
            rows += [(t, theme.PANEL_ACCENT, False) for t in fonts.wrap(
                "You played on from this step; Right or Left goes back to the lesson.", width, BAR_TEXT)]
    if app.recording is not None:
        rec = app.recording
        text = (f"RECORDING step {rec.step_number} under {rec.ruleset_id}: play what the step shows, then T to type "
                "its caption (Enter closes the step); Ctrl+Z takes an action back out; Ctrl+R saves the lesson.")
        rows += [(t, theme.MESSAGE_ERROR, True) for t in fonts.wrap(text, width, BAR_TEXT, True)]
    return rows


def _buttons(app) -> list[tuple[str, str]]:
    show = app.lesson
    return [("< Back (Left)", "back"), ("Next (Right) >", "next"), (f"Rules: {show.ruleset_id} ([ ])", "rules"),
            ("Close lesson", "close")]


def _place(app, low, high):
    """The foot of the map, unless the top covers fewer figures."""
    tokens = [token_rect(app, f) for f in app.battle.figures.values() if app.battle.able(f.id)]
    low_hits = sum(1 for r in tokens if low.colliderect(r))
    if not low_hits:
        return low
    high_hits = sum(1 for r in tokens if high.colliderect(r))
    return high if high_hits < low_hits else low
