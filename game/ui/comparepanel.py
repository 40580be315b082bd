"""The compare panel (V): the selected figure's attack on a foe, its charge, and the hovered move,
judged under every bundled ruleset at once, one column each, with every modifier and its rule.

Hovering a foe picks the target; hovering a square picks the move. The answers are
game.client.comparison's (each ruleset's own battle asked the same questions).
"""
from __future__ import annotations

import pygame

from ..core.values.actions import Move
from . import theme
from ..client.comparison import RulesetBattles, compare, differences, judgement_lines
from ..client.rulesview import position_key

LINE_H = 16
MIN_COLUMN_W = 190     # narrower, the panel takes the whole window's width


class CompareState:
    """What is being compared, and the answers, kept until the position or the choice changes."""

    def __init__(self, rejudged: RulesetBattles | None = None):
        self.target: str | None = None
        self.move_to = None
        self.mode = "walk"
        self.rejudged = rejudged or RulesetBattles()
        self._key = None
        self.judgements: list = []
        self.scroll = 0                 # lines scrolled past (mouse wheel over the panel)
        self.box = None                 # where the panel was last drawn
        self.scrollable = False         # more lines than the panel holds
        self.drawn_lines: list[str] = []  # every line of every column, wrapped whole

    def battles(self, battle) -> dict:
        return self.rejudged.all(battle)

    def follow(self, app, me) -> None:
        """Take the target from a hovered foe and the move from a hovered square."""
        if self.box is not None and self.box.collidepoint(app.ui.mouse):
            return          # the pointer is reading the panel: what it compares stays as it was
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
    fonts = app.fonts
    state = app.compare_state
    box = _panel_box(screen, app)
    state.box = box
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    shade.fill((14, 16, 22, 240))
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
    head = ("Compare rulesets: " + ", ".join(what) + "   (hover a foe or a square to change; wheel scrolls; "
            "lines marked 'others' are where the rulesets disagree; V closes)")
    y = box.y + 8
    for piece in fonts.wrap(head, box.w - 24, 14, True):
        screen.blit(fonts.render(piece, 14, theme.PANEL_HEAD, True), (box.x + 12, y))
        y += 18
    top = y + 4
    differing = differences(judgements)
    odds_best = _odds_best(app, me, state.target)
    n = max(1, len(judgements))
    col_w = (box.w - 16) // n
    columns = []
    for j in judgements:
        lines = judgement_lines(j, figures, me.id, state.target, state.move_to, state.mode, differing.get(j.ruleset_id))
        if j.ruleset_id in odds_best:
            lines = lines + [odds_best[j.ruleset_id]]
        pieces = []
        for text, role in lines:   # every line whole, wrapped to the column: nothing is cut
            indent = 10 if text.startswith("  ") else 0
            pieces += [(piece, role, indent) for piece in fonts.wrap(text.strip(), col_w - 16 - indent, 12)]
        columns.append(pieces)
    room = max(1, (box.bottom - 8 - (top + 20)) // LINE_H)
    longest = max((len(c) for c in columns), default=0)
    state.scroll = max(0, min(state.scroll, longest - room))
    state.scrollable = longest > room
    state.drawn_lines = [piece for pieces in columns for piece, _, _ in pieces]
    for i, (j, pieces) in enumerate(zip(judgements, columns)):
        x = box.x + 8 + i * col_w
        current = j.ruleset_id == app.battle.ruleset.id
        title = fonts.render(f"{j.ruleset_id}" + ("  (in play)" if current else ""), 15,
                             theme.HIGHLIGHT if current else theme.PANEL_ACCENT, True)
        screen.blit(title, (x + 4, top))
        yy = top + 20
        for piece, role, indent in pieces[state.scroll:state.scroll + room]:
            screen.blit(fonts.render(piece, 12, theme.ROLE_COLOURS[role]), (x + 4 + indent, yy))
            yy += LINE_H
        if i:
            pygame.draw.line(screen, theme.PANEL_EDGE, (x - 2, top - 2), (x - 2, box.bottom - 6))
    below = longest - room - state.scroll
    if state.scroll or below > 0:   # more than fits: say where the rest is, and how to reach it
        words = (f"{below} more line{'s' if below != 1 else ''} below" if below > 0 else "the end") + \
            (f", {state.scroll} above" if state.scroll else "") + ": scroll the mouse wheel over this panel"
        tag = fonts.render(words, 12, theme.PANEL_HEAD, True)
        screen.blit(tag, (box.right - tag.get_width() - 12, box.y + 8 + 18 * len(fonts.wrap(head, box.w - 24, 14, True)) - 16))


def _panel_box(screen, app) -> pygame.Rect:
    """Up to half the map's height, on the side of the pointer with more room, so what is compared stays
    in view; as wide as the whole window where the map alone would make the columns too narrow."""
    area = app.map_rect
    kept = app.compare_state.box
    if kept is not None and kept.collidepoint(app.ui.mouse):
        return kept             # the pointer is reading it: it stays put
    my = app.ui.mouse[1]
    below, above = area.bottom - 64 - (my + 40), (my - 40) - (area.y + 8)
    height = max(180, min(area.h // 2 + 40, max(below, above)))
    top = area.bottom - 64 - height if below >= above else area.y + 8
    if area.w >= MIN_COLUMN_W * 5 + 16:
        return pygame.Rect(area.x + 8, top, area.w - 16, height)
    width = screen.get_width()
    return pygame.Rect(8, top, width - 16, height)


def _odds_best(app, me, target) -> dict[str, tuple]:
    """With the odds map on for this attacker and target: each ruleset's best square, as a line."""
    view = app.odds
    if not view.on or view.attacker != me.id or view.target != target:
        return {}
    out = {}
    for rid, battle in app.rejudged.all(app.battle).items():
        odds = view.get(battle)
        best = odds.best(view.measure) if odds is not None else []
        if best:
            out[rid] = (f"odds map: best {best[0].square[0]},{best[0].square[1]}: {view.square_words(best[0])}", "accent")
        else:
            out[rid] = ("odds map: no square it can reach this turn allows the attack", "dim")
    return out
