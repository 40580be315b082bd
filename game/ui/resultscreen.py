"""The result screen: who won, what it cost each side, the rules that decided it, and what next.

Shown over the board when the battle ends. Buttons (and keys):
  Replay (P)   watch the same battle again from the start: the logged actions re-applied one by
               one with the same seed, so every roll comes out the same
  Restart (R)  a new battle from the same setup with the next seed
  Close (Esc)  hide this to look at the final board (Enter shows it again)
The figures come from game.play.report.summarize_battle, which reads only the battle's events.
"""
from __future__ import annotations

import pygame

from . import theme

BUTTONS = (("replay", "Replay (P)"), ("restart", "Restart (R)"), ("close", "Close (Esc)"))
NOTABLE_ORDER = ("parting shots struck", "charges", "weapons set", "rear attacks", "flank attacks",
                 "attacks through cover", "missiles into a melee", "friendly fire", "criticals", "fumbles",
                 "morale checks", "routs", "figures down", "attacks", "hits")


class ResultScreen:
    def __init__(self):
        self.dismissed = False
        self._summary_key = None
        self._summary: dict | None = None

    def summary(self, battle) -> dict:
        key = (id(battle), len(battle.events))
        if key != self._summary_key:
            from ..play.report import summarize_battle
            self._summary = summarize_battle(battle, highlight_count=24)   # the screen shows what fits
            self._summary_key = key
        return self._summary

    def layout(self, screen) -> tuple[pygame.Rect, list[tuple[str, pygame.Rect]]]:
        w, h = screen.get_size()
        box = pygame.Rect(0, 0, min(820, w - 40), max(360, h - 80))
        box.center = (w // 2, h // 2)
        buttons = []
        x = box.x + 40
        for key, _text in BUTTONS:
            buttons.append((key, pygame.Rect(x, box.bottom - 64, 200, 40)))
            x += 220
        return box, buttons

    # ----- input -----
    def handle(self, app, event) -> bool:
        """Act on a key or click meant for the result screen; True when it was."""
        if self.dismissed:
            if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.dismissed = False
                return True
            return False
        choice = None
        if event.type == pygame.KEYDOWN:
            choice = {pygame.K_p: "replay", pygame.K_r: "restart", pygame.K_ESCAPE: "close"}.get(event.key)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            _box, buttons = self.layout(app.screen)
            choice = next((key for key, rect in buttons if rect.collidepoint(event.pos)), None)
        if choice == "close":
            self.dismissed = True
        elif choice == "replay":
            app.start_replay()
        elif choice == "restart":
            app.restart()
        return True  # the board underneath takes no input while the result is up

    # ----- drawing -----
    def draw(self, app, screen) -> None:
        if self.dismissed:
            return
        fonts = _Faces(app.fonts)
        summary = self.summary(app.battle)
        shade = pygame.Surface(screen.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        screen.blit(shade, (0, 0))
        box, buttons = self.layout(screen)
        pygame.draw.rect(screen, theme.PANEL_BG, box, border_radius=8)
        pygame.draw.rect(screen, theme.PANEL_EDGE, box, 2, border_radius=8)
        y = box.y + 20
        headline, story = ending_words(summary, [s for s in app.sides() if app.players.human_side(s)])
        y = _centred(screen, fonts.title, headline, theme.PANEL_HEAD, box, y) + 4
        if story:
            y = _centred(screen, fonts.body, story, theme.PANEL_TEXT, box, y) + 2
        y = _centred(screen, fonts.small, f"{app.title}  ·  {app.battle.ruleset.name} [{app.battle.ruleset.id}]",
                     theme.PANEL_ACCENT, box, y) + 14
        x0 = box.x + 40
        y = _text(screen, fonts.bold, "Sides", theme.PANEL_HEAD, x0, y) + 2
        for side, s in summary["sides"].items():
            line = (f"{side}: {s['standing']} of {s['figures']} standing, {s['down']} down, {s['fled']} fled, "
                    f"{s['routed']} routed; {s['hp_lost']:g} hp lost")
            y = _text(screen, fonts.body, line, theme.side_colour(side), x0 + 12, y)
        y += 8
        notable = summary.get("notable", {})
        if notable:
            y = _text(screen, fonts.bold, "Rules at work", theme.PANEL_HEAD, x0, y) + 2
            keys = [k for k in NOTABLE_ORDER if k in notable] + [k for k in notable if k not in NOTABLE_ORDER]
            line = ""
            for k in keys:
                part = f"{k}: {notable[k]}"
                if fonts.body.size(line + "   " + part)[0] > box.width - 100 and line:
                    y = _text(screen, fonts.body, line, theme.PANEL_TEXT, x0 + 12, y)
                    line = part
                else:
                    line = f"{line}   {part}" if line else part
            if line:
                y = _text(screen, fonts.body, line, theme.PANEL_TEXT, x0 + 12, y)
            y += 8
        casualties = summary.get("casualties", [])
        if casualties:
            y = _text(screen, fonts.bold, "Casualties", theme.PANEL_HEAD, x0, y) + 2
            words = ", ".join(f"{c['name']} ({c['side']}: {c['how']})" for c in casualties)
            for line in _wrap(fonts.body, words, box.width - 100)[:3]:
                y = _text(screen, fonts.body, line, theme.PANEL_TEXT, x0 + 12, y)
            y += 8
        _moments(screen, fonts, summary, x0, y, box)
        for key, rect in buttons:
            label = dict(BUTTONS)[key]
            pygame.draw.rect(screen, theme.PANEL_ROW_HOVER, rect, border_radius=6)
            pygame.draw.rect(screen, theme.PANEL_EDGE, rect, 1, border_radius=6)
            surf = fonts.bold.render(label, True, theme.PANEL_TEXT)
            screen.blit(surf, surf.get_rect(center=rect.center))


def ending_words(summary: dict, person_sides) -> tuple[str, str]:
    """The headline from the person's side (Victory, Defeat) when one side is a person's, else who
    won (hot-seat, watching); and the line under it."""
    winner, over = summary.get("winner"), summary.get("over")
    said = summary["headline"][:1].upper() + summary["headline"][1:]
    if len(person_sides) == 1 and over:
        if winner is None:
            return "A draw", said
        return ("Victory!" if winner == person_sides[0] else "Defeat"), said
    return said, ""


def _moments(screen, fonts, summary, x0, y, box) -> None:
    """The blows and falls that decided the battle, always (in smaller type when they are many; the
    latest ones when even that cannot hold them), then the other moments while there is room."""
    bottom = box.bottom - 80
    width = box.width - 100
    deciding = summary.get("deciding", [])
    others = [t for t in summary.get("highlights", []) if t not in set(deciding)]
    if not deciding and not others:
        return
    head = fonts.bold.get_linesize() + 2
    for font in (fonts.small, fonts.smaller, fonts.tiny):
        step = font.get_linesize()
        blocks = [_wrap(font, f"• {t}", width) for t in deciding]
        if sum(len(b) for b in blocks) * step + head <= bottom - y:
            break
    if deciding:
        y = _text(screen, fonts.bold, "How it was decided", theme.PANEL_HEAD, x0, y) + 2
        room = (bottom - y) // step
        shown = []
        for block in reversed(blocks):            # the last falls decided it: they never drop out
            if sum(len(b) for b in shown) + len(block) + (1 if len(shown) < len(blocks) - 1 else 0) > room:
                break
            shown.insert(0, block)
        if len(shown) < len(blocks):
            y = _text(screen, font, f"… {len(blocks) - len(shown)} earlier in the event log (Close shows it)",
                      theme.PANEL_DIM, x0 + 12, y)
        for block in shown:
            for line in block:
                y = _text(screen, font, line, theme.PANEL_TEXT, x0 + 12, y)
        y += 6
    font = fonts.small
    step = font.get_linesize()
    if others and y + head + step <= bottom:
        y = _text(screen, fonts.bold, "Other moments", theme.PANEL_HEAD, x0, y) + 2
        for n, text in enumerate(others):
            lines = _wrap(font, f"• {text}", width)
            if y + step * (len(lines) + 1) > bottom and n < len(others) - 1:
                _text(screen, font, f"… and {len(others) - n} more in the event log (Close shows it)",
                      theme.PANEL_DIM, x0 + 12, y)
                break
            if y + step * len(lines) > bottom:
                break
            for line in lines:
                y = _text(screen, font, line, theme.PANEL_TEXT, x0 + 12, y)


class _Faces:
    """The few type sizes this screen uses, from the window's shared font cache."""

    def __init__(self, fonts):
        self.title = fonts.font(28, True)
        self.bold = fonts.font(16, True)
        self.body = fonts.font(15)
        self.small = fonts.font(13)
        self.smaller = fonts.font(12)
        self.tiny = fonts.font(11)


def _text(screen, font, text, colour, x, y) -> int:
    screen.blit(font.render(text, True, colour), (x, y))
    return y + font.get_linesize()


def _centred(screen, font, text, colour, box, y) -> int:
    surf = font.render(text, True, colour)
    screen.blit(surf, surf.get_rect(midtop=(box.centerx, y)))
    return y + font.get_linesize()


def _wrap(font, text: str, width: int) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if font.size(trial)[0] > width and line:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines
