"""The first-run guide drawn over the window (its words: game/client/guide.py).

Shown the first time fivefoot is played and from F1 (F1 again shows every key). The text is
wrapped in a box that fits the window, in the largest type size that lets everything show; the
overlay marks are drawn with the legend's own swatches.
"""
from __future__ import annotations

from . import theme
from .legend import SWATCH_H, SWATCH_W, _swatch, entries
from ..client.guide import MARKS, guide

SIZES = (16, 15, 14, 13, 12, 11)
FOOT = "Any key or click closes this guide.  F1 again: every key.  F1 any time brings it back."


def _marks():
    by_words = {e.words: e for e in entries()}
    return [by_words[w] for w in MARKS if w in by_words]


def _lines(fonts, sections, width: int, size: int):
    """[(kind, text or entry)] and the height they need at this size."""
    out, height = [], 0
    line_h = fonts.size("Ag", size)[1]
    for heading, lines in sections:
        out.append(("head", heading))
        height += line_h + 6
        for line in lines:
            for piece in fonts.wrap(line, width - 14, size, max_lines=20):
                out.append(("text", piece))
                height += line_h
            out.append(("gap", 2))
            height += 2
        out.append(("gap", 6))
        height += 6
    out.append(("head", "On the map"))
    height += line_h + 6
    for e in _marks():
        wrapped = fonts.wrap(e.words, width - SWATCH_W - 26, size, max_lines=4)
        out.append(("mark", (e, wrapped)))
        height += max(SWATCH_H + 4, len(wrapped) * line_h + 2)
    return out, height


def draw_guide(screen, app) -> None:
    import pygame
    fonts = app.fonts
    w, h = screen.get_size()
    shade = pygame.Surface((w, h), pygame.SRCALPHA)
    shade.fill((12, 12, 16, 225))
    screen.blit(shade, (0, 0))
    box = pygame.Rect(0, 0, min(900, w - 32), h - 32)
    box.center = (w // 2, h // 2)
    sections = guide(app.battle, [s for s in app.sides() if app.players.human_side(s)])
    inner = box.w - 48
    title_h = fonts.size("Ag", 22, True)[1] + 12
    foot_h = fonts.size("Ag", 13)[1] + 14
    room = box.h - title_h - foot_h - 24
    size = SIZES[-1]
    for s in SIZES:
        if _lines(fonts, sections, inner, s)[1] <= room:
            size = s
            break
    items, height = _lines(fonts, sections, inner, size)
    box.h = min(box.h, title_h + height + foot_h + 28)
    box.center = (w // 2, h // 2)
    pygame.draw.rect(screen, theme.PANEL_BG, box, border_radius=10)
    pygame.draw.rect(screen, theme.PANEL_EDGE, box, 2, border_radius=10)
    title = fonts.render(f"How to play {app.title}", 22, theme.PANEL_HEAD, True)
    if title.get_width() > inner:
        title = fonts.render(fonts.fit(f"How to play {app.title}", inner, 22, True), 22, theme.PANEL_HEAD, True)
    screen.blit(title, (box.centerx - title.get_width() // 2, box.y + 12))
    x, y = box.x + 24, box.y + 12 + title_h
    line_h = fonts.size("Ag", size)[1]
    clip = screen.get_clip()
    screen.set_clip(pygame.Rect(box.x, y, box.w, box.bottom - foot_h - y))
    for kind, value in items:
        if kind == "head":
            y += 4
            screen.blit(fonts.render(value, size + 1, theme.PANEL_ACCENT, True), (x, y))
            y += line_h + 2
        elif kind == "gap":
            y += value
        elif kind == "text":
            screen.blit(fonts.render(value, size, theme.PANEL_TEXT), (x + 14, y))
            y += line_h
        else:
            entry, wrapped = value
            _swatch(screen, fonts, pygame.Rect(x + 14, y + 1, SWATCH_W, SWATCH_H), entry)
            for n, line in enumerate(wrapped):
                screen.blit(fonts.render(line, size, theme.PANEL_TEXT), (x + 26 + SWATCH_W, y + n * line_h))
            y += max(SWATCH_H + 4, len(wrapped) * line_h + 2)
    screen.set_clip(clip)
    foot = fonts.render(fonts.fit(FOOT, box.w - 32, 13), 13, theme.PANEL_DIM)
    screen.blit(foot, (box.centerx - foot.get_width() // 2, box.bottom - foot_h + 2))
