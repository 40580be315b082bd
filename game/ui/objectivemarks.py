"""The squares of the battle's open objectives on the map: ground to hold and exits to reach,
outlined in the colour of the side that plays for them, with the objective's name on its first
square (the panel's Objectives section says how far along each is)."""
from __future__ import annotations

import pygame

from . import theme


def draw_objective_squares(view, cam, fonts, battle) -> None:
    if not battle.setup.objectives.items:
        return
    cell = cam.cell
    width = max(2, cell // 14)
    areas: dict[frozenset, list] = {}          # both sides after the same ground: one outline, one label
    for prog in battle.objectives():
        if prog.state == "open" and prog.objective.squares:
            areas.setdefault(frozenset(prog.objective.squares), []).append(prog.objective)
    for squares, goals in areas.items():
        sides = list(dict.fromkeys(o.side for o in goals))
        colour = theme.side_colour(sides[0]) if len(sides) == 1 else theme.PANEL_HEAD
        o = goals[0]
        for x, y in squares:
            sx, sy = cam.to_screen(x, y)
            for (dx, dy), (a, b) in (((0, -1), ((0, 0), (1, 0))), ((0, 1), ((0, 1), (1, 1))),
                                     ((-1, 0), ((0, 0), (0, 1))), ((1, 0), ((1, 0), (1, 1)))):
                if (x + dx, y + dy) not in squares:        # only the area's outer edge
                    pygame.draw.line(view, colour, (sx + a[0] * cell, sy + a[1] * cell),
                                     (sx + b[0] * cell, sy + b[1] * cell), width)
        if cell >= 24:
            _label(view, cam, fonts, battle, f"{', '.join(sides)}: {o.label or o.kind}", o.label or o.kind,
                   squares, colour)


def _label(view, cam, fonts, battle, text: str, short: str, squares, colour) -> None:
    """The objective's name inside its area, on a run of squares nobody stands on (a token is never
    drawn over it) wide enough for it within the view, or not at all."""
    cell = cam.cell
    taken = {sq for f in battle.figures.values() for sq in f.cells}     # the fallen lie there too
    size = max(11, min(14, cell // 3))
    for x, y in sorted(squares, key=lambda sq: (-sq[1], sq[0])):      # the bottom row first: clear of height labels
        run = 0
        while (x + run, y) in squares and (x + run, y) not in taken:
            run += 1
        if not run:
            continue
        sx, sy = cam.to_screen(x, y)
        room = min(run * cell, view.get_width() - sx) - 6
        if room < cell // 2:
            continue
        words = next((t for t in (text, short) if fonts.size(t, size, True)[0] <= room), None)
        if words is not None:         # whole words or nothing: the panel's Objectives section names it anyway
            surf = fonts.render(words, size, colour, True)
            view.blit(surf, (sx + 3, sy + cell - surf.get_height() - 2))
            return
