"""The odds map's marks over its shading (O): each square's number where the squares are big
enough to read one, a ring on the best squares, and the charge's lane end with its number. The
numbers are the resolver's (Battle.odds_map, grouped by game.client.oddsmap); nothing is worked
out here. Squares with a token keep their token: no number is drawn over one."""
from __future__ import annotations

from . import theme
from .marks import label

NUMBERS_FROM_CELL = 26     # smaller squares show the shading and the rings only


def draw_odds_marks(screen, camera, fonts, view, odds, occupied: set) -> None:
    import pygame
    c = camera.cell
    x0, y0, x1, y1 = camera.visible_squares()
    best = {s.square for s in odds.best(view.measure)}
    width = max(2, c // 12)
    size = max(10, min(15, c // 3))
    for s in odds.squares:
        x, y = s.square
        if not (x0 <= x < x1 and y0 <= y < y1):
            continue
        sx, sy = camera.to_screen(x, y)
        if s.how == "charge":
            if not s.allowed:
                continue
            cx, cy = sx + c // 2, sy + c // 2
            pygame.draw.circle(screen, theme.ODDS_CHARGE, (cx, cy), max(6, c // 2 - 2), width)
            if c >= NUMBERS_FROM_CELL and s.square not in occupied:
                label(screen, fonts, f"charge {view.label(s)}", (cx, sy + c - 2), (255, 255, 255), (120, 60, 10),
                      max(10, size - 2), anchor="below")
            continue
        if not s.allowed:
            continue
        if s.square in best:
            inset = max(1, c // 10)
            pygame.draw.rect(screen, (20, 20, 20), (sx + inset - 1, sy + inset - 1, c - 2 * inset + 2, c - 2 * inset + 2),
                             width + 2, border_radius=max(2, c // 6))
            pygame.draw.rect(screen, theme.ODDS_BEST, (sx + inset, sy + inset, c - 2 * inset, c - 2 * inset), width,
                             border_radius=max(2, c // 6))
        if c >= NUMBERS_FROM_CELL and s.square not in occupied:
            label(screen, fonts, view.label(s), (sx + c // 2, sy + c // 2), (255, 255, 255), (20, 20, 28), size)
