"""The compare panel (V): the selected figure's attack on a foe, its charge, and the hovered move,
judged under every bundled ruleset at once, one column each, with every modifier and its rule.

Hovering a foe picks the target; hovering a square picks the move. The answers are
game.client.comparison's (each ruleset's own battle asked the same questions).
"""
from __future__ import annotations

import pygame

from ..core.values.actions import Move
from . import theme
from ..client.comparison import RulesetBattles, compare, judgement_lines
from ..client.rulesview import position_key

LINE_H = 16


class CompareState:
    """What is being compared, and the answers, kept until the position or the choice changes."""

    def __init__(self, rejudged: RulesetBattles | None = None):
        self.target: str | None = None
        self.move_to = None
        self.mode = "walk"
        self.rejudged = rejudged or RulesetBattles()
        self._key = None
        self.judgements: list = []

    def battles(self, battle) -> dict:
        return self.rejudged.all(battle)

    def follow(self, app, me) -> None:
        """Take the target from a hovered foe and the move from a hovered square."""
        hover = app.hover
        top = hover.top
        if top is not None and top.side != me.side and app.rules.status(top.id).able:
            self.target = top.id
        elif isinstance(hover.intent.action, Move):
            self.move_to, self.mode = hover.intent.action.to, hover.intent.action.mode
        foes = [f for f in app.rules.positioning.figures if f.side != me.side]
        if self.target not in {f.id for f in foes}:
            self.target = min(foes, key=lambda f: abs(f.x - me.x) + abs(f.y - me.y)).id if foes else None

    def judge(self, app, me) -> list:
        battles = self.battles(app.battle)
        key = (position_key(app.battle), me.id, self.target, self.move_to, self.mode)
        if key != self._key:
            self._key = key
            self.judgements = compare(battles, me.id, self.target, self.move_to, self.mode)
        return self.judgements


def draw_compare(screen, app) -> None:
    me = app.selected_figure()
    area = app.map_rect
    fonts = app.fonts
    state = app.compare_state
    # Up to half the map, on the side of the pointer with more room, so what is compared stays in view.
    my = app.ui.mouse[1]
    below, above = area.bottom - 64 - (my + 40), (my - 40) - (area.y + 8)
    height = max(160, min(area.h // 2, max(below, above)))
    top = area.bottom - 64 - height if below >= above else area.y + 8
    box = pygame.Rect(area.x + 8, top, area.w - 16, height)
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    shade.fill((14, 16, 22, 236))
    screen.blit(shade, box)
    pygame.draw.rect(screen, theme.PANEL_EDGE, box, 1, border_radius=6)
    if me is None or not app.rules.on_field(me.id):
        screen.blit(fonts.render("Compare rulesets: select a figure first (V closes).", 15, theme.PANEL_TEXT, True),
                    (box.x + 12, box.y + 10))
        return
    state.follow(app, me)
    judgements = state.judge(app, me)
    figures = app.battle.figures
    what = [f"{me.label}"]
    if state.target:
        what.append(f"attacking {figures[state.target].label}")
    if state.move_to is not None:
        what.append(f"moving ({state.mode}) to {state.move_to[0]},{state.move_to[1]}")
    head = "Compare rulesets: " + ", ".join(what) + "   (hover a foe or a square to change; V closes)"
    screen.blit(fonts.render(head, 14, theme.PANEL_HEAD, True), (box.x + 12, box.y + 8))
    n = max(1, len(judgements))
    col_w = (box.w - 16) // n
    for i, j in enumerate(judgements):
        x = box.x + 8 + i * col_w
        y = box.y + 34
        current = j.ruleset_id == app.battle.ruleset.id
        title = fonts.render(f"{j.ruleset_id}" + ("  (in play)" if current else ""), 15,
                             theme.HIGHLIGHT if current else theme.PANEL_ACCENT, True)
        screen.blit(title, (x + 4, y))
        y += 20
        clip = screen.get_clip()
        screen.set_clip(pygame.Rect(x, y, col_w - 8, box.bottom - y - 6))
        pieces = []
        for text, role in judgement_lines(j, figures, me.id, state.target, state.move_to, state.mode):
            indent = 10 if text.startswith("  ") else 0
            wrapped = fonts.wrap(text.strip(), col_w - 16 - indent, 12)
            if len(wrapped) > 3:   # a cut line says so
                wrapped = wrapped[:2] + [fonts.fit(wrapped[2] + " " + " ".join(wrapped[3:]), col_w - 16 - indent, 12)]
            pieces += [(piece, role, indent) for piece in wrapped]
        room = max(1, (box.bottom - 6 - y) // LINE_H)
        if len(pieces) > room:   # say that lines are left out rather than cut one in half
            pieces = pieces[:room - 1] + [(f"... {len(pieces) - room + 1} more lines", "dim", 0)]
        for piece, role, indent in pieces:
            screen.blit(fonts.render(piece, 12, theme.ROLE_COLOURS[role]), (x + 4 + indent, y))
            y += LINE_H
        screen.set_clip(clip)
        if i:
            pygame.draw.line(screen, theme.PANEL_EDGE, (x - 2, box.y + 32), (x - 2, box.bottom - 6))
