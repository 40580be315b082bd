"""The side panel: scenario and ruleset, initiative and whose turn it is, the selected figure,
what is under the cursor (path steps with the rule behind each cost, reasons for refusals),
and the event log in plain words with every roll and modifier. Clickable rows are recorded
while drawing so PanelInput can hit-test them. The panel is redrawn only when what it shows
changes (App.panel_key).
"""
from __future__ import annotations

import pygame

from . import theme

PANEL_W = 400
PAD = 12
BUTTONS = (("undo", "Undo"), ("redo", "Redo"), ("end-turn", "End turn"), ("gm", "GM"), ("help", "Keys F1"))


def event_lines(event) -> list[tuple[str, tuple]]:
    """An event as (text, colour) lines: the plain words, then rolls, modifiers, total and rule."""
    colour = {"refused": theme.PANEL_WARN, "parting-shot-provoked": theme.PANEL_WARN, "parting-shot": theme.PANEL_WARN,
              "round": theme.PANEL_HEAD, "initiative": theme.PANEL_HEAD, "damage": (255, 170, 120),
              "attack": (255, 220, 180)}.get(event.kind, theme.PANEL_TEXT)
    out = [(event.text, colour)]
    if event.rolls:
        out.append(("  rolls: " + ", ".join(f"{r.dice} {'+'.join(map(str, r.results))}"
                                             + (f" = {r.total}" if len(r.results) > 1 else "")
                                             for r in event.rolls), theme.PANEL_DIM))
    for m in event.modifiers:
        out.append((f"  {m.value:+d} {m.name}  [{m.source}]", theme.PANEL_ACCENT))
    if event.total is not None or event.target_number is not None:
        parts = []
        if event.total is not None:
            parts.append(f"total {event.total}")
        if event.target_number is not None:
            parts.append(f"needs {event.target_number}")
        if event.outcome:
            parts.append(f"→ {event.outcome}")
        out.append(("  " + ", ".join(parts), theme.PANEL_GOOD if event.outcome in ("hit", "critical") else theme.PANEL_DIM))
    elif event.outcome:
        out.append((f"  → {event.outcome}", theme.PANEL_DIM))
    if event.rule:
        out.append((f"  rule {event.rule}", theme.PANEL_DIM))
    return out


class Panel:
    def __init__(self, fonts, rect: pygame.Rect):
        self.fonts = fonts
        self.rect = rect
        self.surface = pygame.Surface(rect.size)
        self.hits: list[tuple[pygame.Rect, str, object]] = []
        self._key = None
        self._event_cache: dict = {}
        self.log_rect = pygame.Rect(0, 0, 0, 0)
        self._log_max_scroll = 0

    def resize(self, rect: pygame.Rect) -> None:
        self.rect = rect
        self.surface = pygame.Surface(rect.size)
        self._key = None

    def hit(self, pos) -> tuple[str, object] | None:
        local = (pos[0] - self.rect.x, pos[1] - self.rect.y)
        for rect, kind, value in self.hits:
            if rect.collidepoint(local):
                return kind, value
        return None

    def scroll_log(self, app, amount: int) -> None:
        app.ui.log_scroll = max(0, min(self._log_max_scroll, app.ui.log_scroll + amount))

    # ----- drawing -----
    def draw(self, screen, app) -> None:
        key = app.panel_key()
        if key != self._key:
            self._key = key
            self._render(app)
        screen.blit(self.surface, self.rect)

    def _text(self, y: int, text: str, size: int = 14, colour=theme.PANEL_TEXT, bold: bool = False, x: int = PAD,
              width: int | None = None, max_lines: int = 99) -> int:
        width = width or (self.rect.w - x - PAD)
        for i, line in enumerate(self.fonts.wrap(text, width, size, bold)):
            if i >= max_lines:
                break
            surf = self.fonts.render(line, size, colour, bold)
            self.surface.blit(surf, (x, y))
            y += surf.get_height()
        return y

    def _heading(self, y: int, text: str) -> int:
        y += 6
        pygame.draw.line(self.surface, theme.PANEL_EDGE, (PAD, y), (self.rect.w - PAD, y))
        y += 4
        return self._text(y, text, 13, theme.PANEL_HEAD, True) + 2

    def _render(self, app) -> None:
        s = self.surface
        s.fill(theme.PANEL_BG)
        pygame.draw.line(s, theme.PANEL_EDGE, (0, 0), (0, self.rect.h), 2)
        self.hits = []
        battle = app.battle
        y = PAD
        y = self._text(y, app.title, 19, theme.PANEL_HEAD, True, max_lines=2)
        rs = battle.ruleset
        y = self._text(y, f"Rules: {rs.name} [{rs.id}]", 13, theme.PANEL_ACCENT, max_lines=2)
        if app.description:
            y = self._text(y + 2, app.description, 13, theme.PANEL_DIM, max_lines=3)

        # ----- whose turn -----
        y = self._heading(y, "Turn order")
        over, winner = app.battle_over()
        if over:
            y = self._text(y, f"The battle is over{': ' + str(winner) + ' wins' if winner else ''}.", 15,
                           theme.PANEL_GOOD, True)
        current = battle.current
        cur_fig = battle.figures.get(current) if current else None
        if cur_fig is not None and not over:
            who = app.controller_name(cur_fig.side)
            phase = " (declarations)" if battle.current_phase == "declare" else ""
            y = self._text(y, f"Round {getattr(battle, 'round', 1)}{phase}: {cur_fig.label}'s turn "
                              f"({cur_fig.side}, {who})", 14, theme.PANEL_TEXT, True)
        order = app.turn_order()
        rows = 9
        start = 0
        ids = [fid for fid, _, _ in order]
        if current in ids and len(order) > rows:
            start = max(0, min(ids.index(current) - 2, len(order) - rows))
        for fid, number, acted in order[start:start + rows]:
            fig = battle.figures.get(fid)
            if fig is None:
                continue
            row = pygame.Rect(PAD - 4, y, self.rect.w - 2 * PAD + 8, 19)
            if fid == app.ui.selected:
                pygame.draw.rect(s, theme.PANEL_ROW_PICK, row, border_radius=3)
            if fid == current and not over:
                marker = self.fonts.render("▶", 13, theme.HIGHLIGHT, True)
                s.blit(marker, (row.x + 2, y + 2))
            if number is not None:
                num = self.fonts.render(str(number) if number != "declare" else "·", 12, theme.PANEL_DIM, True)
                s.blit(num, (row.x + 30 - num.get_width(), y + 2))
            pygame.draw.circle(s, theme.side_colour(fig.side), (row.x + 40, y + 9), 6)
            st = app.status(fig)
            gone = any(c in st["conditions"] for c in ("dead", "fled", "unconscious"))
            colour = theme.PANEL_DIM if (acted or gone) else theme.PANEL_TEXT
            name = fig.label + (f"  ({', '.join(c for c in st['conditions'] if c in ('dead', 'fled', 'unconscious'))})" if gone else "")
            s.blit(self.fonts.render(name[:34], 14, colour), (row.x + 52, y + 1))
            used = app.movement_used(fid)
            hp = f"{st['hp']}/{st['hp_max']} hp" if st["hp"] is not None else ""
            extra = " · ".join(x for x in (hp, f"moved {used:g} ft" if used else "", app.controller_name(fig.side)) if x)
            surf = self.fonts.render(extra, 12, theme.PANEL_DIM)
            s.blit(surf, (row.right - surf.get_width() - 4, y + 3))
            self.hits.append((row, "figure", fid))
            y += 20
        if len(order) > rows:
            y = self._text(y, f"… {len(order)} figures in all (Tab cycles)", 12, theme.PANEL_DIM)

        # ----- the selected figure -----
        fig = app.selected_figure()
        if fig is not None:
            y = self._heading(y, f"Selected: {fig.label}")
            for line, colour in app.figure_lines(fig):
                y = self._text(y, line, 13, colour, max_lines=3)
        # ----- mode and what is under the cursor -----
        y = self._heading(y, f"Mode: {app.mode_name()}" + ("   [demonstration]" if app.ui.gm else ""))
        limit = self.rect.h - 200  # leave the event log room
        for line, colour in app.hover_lines()[:16]:
            if y > limit:
                y = self._text(y, "…", 13, theme.PANEL_DIM)
                break
            indent = 14 if line.startswith("  ") else 0
            y = self._text(y, line.strip(), 13, colour, x=PAD + indent, max_lines=3)

        if app.ai_note and app.ai_note_at == len(battle.actions):
            y = self._heading(y, "Why the AI chose that (best first, * = chosen)")
            for line in app.ai_note[:5]:
                y = self._text(y, line.strip(), 12, theme.PANEL_DIM, max_lines=2)
        elif app.ai_thinking():
            y = self._heading(y, "The AI is thinking...")

        # ----- buttons and log -----
        bottom = self.rect.h - PAD - 26
        bx = PAD
        for kind, text in BUTTONS:
            surf = self.fonts.render(text, 13, theme.PANEL_TEXT, True)
            r = pygame.Rect(bx, bottom, surf.get_width() + 16, 24)
            active = (kind == "gm" and app.ui.gm)
            pygame.draw.rect(s, (90, 80, 40) if active else (52, 56, 70), r, border_radius=5)
            pygame.draw.rect(s, theme.PANEL_EDGE, r, 1, border_radius=5)
            s.blit(surf, (r.x + 8, r.y + 4))
            self.hits.append((r, "button", kind))
            bx = r.right + 6
        y = self._heading(y, "Events (click one to show it on the map; wheel scrolls)")
        self.log_rect = pygame.Rect(PAD, y, self.rect.w - 2 * PAD, bottom - 6 - y)
        self._render_log(app)

    def _render_log(self, app) -> None:
        s = self.surface
        area = self.log_rect
        events = list(app.battle.events)
        if area.h < 20:
            return
        if not events:
            self._text(area.y, "Nothing has happened yet. Select a figure and click a square to move.", 13,
                       theme.PANEL_DIM)
            return
        self._log_max_scroll = max(0, len(events) - 1)
        app.ui.log_scroll = min(app.ui.log_scroll, self._log_max_scroll)
        clip = s.get_clip()
        s.set_clip(area)
        newest = len(events) - 1 - app.ui.log_scroll
        # Oldest at the top while everything fits; once it overflows, the newest stay at the bottom.
        heights = []
        total = 0
        for i in range(newest, -1, -1):
            lines = self._wrapped(i, events[i], area.w - 6)
            h = sum(hh for _, _, hh in lines) + 4
            heights.append((i, lines, h))
            total += h
            if total > area.h:
                break
        y = area.bottom if total > area.h else area.y + total
        for i, lines, h in heights:
            y -= h
            row = pygame.Rect(area.x - 2, y, area.w + 4, h)
            if i == app.ui.picked_event:
                pygame.draw.rect(s, theme.PANEL_ROW_PICK, row, border_radius=3)
            elif i % 2:
                pygame.draw.rect(s, (38, 40, 50), row)
            yy = y + 2
            for surf_text, colour, hh in lines:
                s.blit(self.fonts.render(surf_text, 13, colour), (area.x + 2, yy))
                yy += hh
            self.hits.append((row.clip(area), "event", i))
        s.set_clip(clip)
        if app.ui.log_scroll:
            tag = self.fonts.render(f"▼ {app.ui.log_scroll} newer", 12, theme.PANEL_HEAD, True, (60, 50, 30))
            s.blit(tag, (area.right - tag.get_width(), area.bottom - tag.get_height()))

    def _wrapped(self, index: int, event, width: int):
        key = (index, id(event), width)
        cached = self._event_cache.get(key)
        if cached is None:
            cached = []
            for text, colour in event_lines(event):
                indent = text.startswith("  ")
                for j, line in enumerate(self.fonts.wrap(text.strip() if indent else text, width - (14 if indent else 0), 13)):
                    line = ("    " + line) if indent else (line if j == 0 else "  " + line)
                    cached.append((line, colour, self.fonts.font(13).get_linesize()))
            if len(self._event_cache) > 4000:
                self._event_cache.clear()
            self._event_cache[key] = cached
        return cached
