"""The side panel: scenario and ruleset, the turn order, the selected figure, what is under the
pointer, the AI's reasons, and the event log in plain words with every roll and modifier.

Laid out so nothing overlaps at any window size: the buttons keep the foot (wrapping into
rows when narrow), every section has a heading that folds it (click), sections take at most
a share of the height and say "… N more lines" when cut, the turn order scrolls with the
wheel, and the log takes what is left (never less than a few events). Text that does not
fit ends in an ellipsis. Clickable rows are recorded while drawing for PanelInput.
"""
from __future__ import annotations

import pygame

from ..core.values.numbers import feet
from ..client import describe
from ..client.goals import objective_lines
from . import theme

PAD = 12
ROW_H = 20
LINE_H = 17
HEADING_H = 24
LOG_MIN_H = 150
BUTTONS = (("undo", "Undo"), ("redo", "Redo"), ("end-turn", "End turn"), ("gm", "GM"), ("compare", "Compare V"),
           ("save", "Save"), ("load", "Load"), ("help", "Keys F1"))
SHARES = {"turns": 0.26, "figure": 0.26, "hover": 0.32, "ai": 0.16, "objectives": 0.2}
SPARE_ORDER = ("objectives", "figure", "hover", "ai", "turns")


def panel_width(window_w: int) -> int:
    return max(320, min(460, int(window_w * 0.25)))


class Panel:
    def __init__(self, fonts, rect: pygame.Rect):
        self.fonts = fonts
        self.rect = rect
        self.surface = pygame.Surface(rect.size)
        self.hits: list[tuple[pygame.Rect, str, object]] = []
        self._key = None
        self._event_cache: dict = {}
        self.log_rect = pygame.Rect(0, 0, 0, 0)
        self.turns_rect = pygame.Rect(0, 0, 0, 0)
        self._log_max_scroll = 0
        self._turns_max_scroll = 0
        self._blocks: dict = {}   # name -> (key, surface, hits): parts redrawn only when what they show changes
        self.shown = False        # the panel's pixels are on the screen as last blitted
        self._shown_on = None

    def resize(self, rect: pygame.Rect) -> None:
        self.rect = rect
        self.surface = pygame.Surface(rect.size)
        self._key = None
        self._blocks = {}
        self.shown = False

    def _block(self, name: str, key, y: int, height: int, draw) -> None:
        """Blit the part `name` at y, drawing it with draw(0) into its own surface when `key` changed."""
        cached = self._blocks.get(name)
        if cached is None or cached[0] != key:
            whole, hits = self.surface, self.hits
            self.surface = pygame.Surface((self.rect.w, max(1, height)))
            self.surface.fill(theme.PANEL_BG)
            self.hits = []
            try:
                draw(0)
                cached = (key, self.surface, self.hits)
            finally:
                self.surface, self.hits = whole, hits
            self._blocks[name] = cached
        _key, surf, hits = cached
        self.surface.blit(surf, (0, y))
        self.hits.extend((r.move(0, y), kind, value) for r, kind, value in hits)

    def hit(self, pos) -> tuple[str, object] | None:
        local = (pos[0] - self.rect.x, pos[1] - self.rect.y)
        for rect, kind, value in self.hits:
            if rect.collidepoint(local):
                return kind, value
        return None

    def scroll(self, app, pos, amount: int) -> None:
        """The wheel over the turn order scrolls it; anywhere else it scrolls the log."""
        local = (pos[0] - self.rect.x, pos[1] - self.rect.y)
        ui = app.ui
        if self.turns_rect.collidepoint(local):
            ui.turn_scroll = max(0, min(self._turns_max_scroll, ui.turn_scroll - amount))
        else:
            ui.log_scroll = max(0, min(self._log_max_scroll, ui.log_scroll + amount))
        self._key = None

    # ----- drawing -----
    def draw(self, screen, app) -> None:
        """Blit the panel when what it shows changed, or when something covered it since (the app
        sets `shown` False then); else its pixels are still on the screen."""
        key = app.panel_key()
        if key != self._key:
            self._key = key
            self._render(app)
            self.shown = False
        if not self.shown or screen is not self._shown_on:
            screen.blit(self.surface, self.rect)
            self.shown, self._shown_on = True, screen

    def _line(self, y: int, text: str, role: str = "text", size: int = 13, bold: bool = False, x: int = PAD) -> int:
        """One line, cut with an ellipsis to the panel's width."""
        width = self.rect.w - x - PAD
        if self.fonts.size(text, size, bold)[0] > width:
            text = self.fonts.fit(text, width, size, bold)
        surf = self.fonts.render(text, size, theme.ROLE_COLOURS[role], bold)
        self.surface.blit(surf, (x, y))
        return y + max(LINE_H, surf.get_height())

    def _wrap(self, lines, width: int) -> list[tuple[str, str, int]]:
        """(text, role, indent) per screen line."""
        out = []
        for text, role in lines:
            indent = 14 if text.startswith("  ") else 0
            for j, piece in enumerate(self.fonts.wrap(text.strip(), width - indent - 10, 13)):
                out.append((piece, role, indent + (10 if j else 0)))
        return out

    def _heading(self, y: int, name: str, title: str, app, extra: str = "") -> int:
        s = self.surface
        folded = name in app.ui.collapsed
        row = pygame.Rect(0, y, self.rect.w, HEADING_H)
        pygame.draw.rect(s, (42, 45, 56), row)
        pygame.draw.line(s, theme.PANEL_EDGE, (0, y), (self.rect.w, y))
        mark = "▸" if folded else "▾"
        self._line(y + 4, f"{mark} {title}" + (f"   {extra}" if extra else ""), "head", 13, True)
        self.hits.append((row, "section", name))
        return y + HEADING_H + 3

    def _render(self, app) -> None:
        s = self.surface
        s.fill(theme.PANEL_BG)
        pygame.draw.line(s, theme.PANEL_EDGE, (0, 0), (0, self.rect.h), 2)
        self.hits = []
        b = app.rules.snapshot
        ui = app.ui
        width = self.rect.w - 2 * PAD
        y = PAD
        y = self._line(y, app.title, "head", 18, True) + 2
        for piece in self.fonts.wrap(f"Rules: {b.ruleset.name} [{b.ruleset.id}]", width, 13, max_lines=2):
            y = self._line(y, piece, "accent")          # the ruleset's whole name, on two lines if need be
        if app.description:
            pieces = self.fonts.wrap(app.description, width, 13)
            for i, piece in enumerate(pieces[:2]):
                y = self._line(y, piece + (" …" if i == 1 and len(pieces) > 2 else ""), "dim")
        y += 4
        bottom = self._buttons(app)

        fig = app.selected_figure()
        sections = [("turns", "Turn order", None)]
        goals = objective_lines(app.battle)
        if goals:
            sections.append(("objectives", "Objectives", goals))
        if fig is not None:
            sections.append(("figure", f"Selected: {fig.label}", app.figure_lines(fig)))
        sections.append(("hover", f"Mode: {describe.mode_name(ui)}" + ("  [demonstration]" if ui.gm else ""),
                         app.hover_lines()))
        ai = app.ai_lines()
        if ai:
            sections.append(("ai", "Why the AI chose that (* = chosen)", ai))
        elif app.players.thinking():
            sections.append(("ai", "The AI is thinking...", []))
        # Room above the log's minimum: first every section gets up to its share, then what is
        # left goes to the sections that want more (SPARE_ORDER); the log takes the rest.
        room = max(0, bottom - y - HEADING_H * (len(sections) + 1) - LOG_MIN_H)
        order = app.turn_order()
        wanted = {}
        for name, _title, lines in sections:
            if name in ui.collapsed:
                wanted[name] = 0
            elif name == "turns":
                wanted[name] = ROW_H * len(order)
            else:
                wanted[name] = LINE_H * len(self._wrap(lines, width))
        given = {name: min(want, int(room * SHARES[name])) for name, want in wanted.items()}
        spare = room - sum(given.values())
        for name in sorted(wanted, key=SPARE_ORDER.index):  # the turn order scrolls: it gets the spare room last
            want = wanted[name]
            more = max(0, min(want - given[name], spare))
            given[name] += more
            spare -= more
        for name, title, lines in sections:
            folded = name in ui.collapsed
            if name == "turns":
                y = self._heading(y, name, title, app, f"{len(order)} figures" if folded else "")
                if not folded:
                    give = max(given[name] // ROW_H * ROW_H, ROW_H * min(2, len(order)))
                    y = self._turns_block(app, order, y, give)
                continue
            wrapped = self._wrap(lines, width)
            y = self._heading(y, name, title, app, f"{len(wrapped)} lines" if folded and wrapped else "")
            if folded or not wrapped:
                continue
            shown = max(2, min(len(wrapped), given[name] // LINE_H))
            cut = len(wrapped) > shown
            for text, role, indent in wrapped[: shown - 1 if cut else shown]:
                y = self._line(y, text, role, x=PAD + indent)
            if cut:
                y = self._line(y, f"… {len(wrapped) - shown + 1} more lines (fold a section to see them)", "dim")
        y = self._heading(y, "log", "Events (click one: show it on the map)", app)
        self.log_rect = pygame.Rect(PAD, y, width, max(0, bottom - 6 - y))
        if "log" not in ui.collapsed:
            top, height = y, self.log_rect.h
            key = (id(app.battle), len(app.battle.events), app.shown_events(), ui.log_scroll, ui.picked_event,
                   self.log_rect.size)

            def draw_log(y0):
                self.log_rect.y = y0
                self._render_log(app)
            self._block("log", key, top, height, draw_log)
            self.log_rect.y = top

    def _buttons(self, app) -> int:
        """Draw the buttons in rows at the foot; returns the y where they start."""
        s = self.surface
        enabled = app.button_states()
        rows, row, x = [], [], PAD
        for kind, text in BUTTONS:
            w = self.fonts.size(text, 13, True)[0] + 16
            if row and x + w > self.rect.w - PAD:
                rows.append(row)
                row, x = [], PAD
            row.append((kind, text, x, w))
            x += w + 6
        rows.append(row)
        top = self.rect.h - PAD - 28 * len(rows) + 4
        for i, row in enumerate(rows):
            y = top + 28 * i
            for kind, text, x, w in row:
                r = pygame.Rect(x, y, w, 24)
                state = enabled.get(kind, "on")
                back = theme.BUTTON_ON if state == "active" else theme.BUTTON_OFF if state == "off" else theme.BUTTON
                pygame.draw.rect(s, back, r, border_radius=5)
                pygame.draw.rect(s, theme.PANEL_EDGE, r, 1, border_radius=5)
                role = "dim" if state == "off" else "text"
                s.blit(self.fonts.render(text, 13, theme.ROLE_COLOURS[role], True), (r.x + 8, r.y + 4))
                self.hits.append((r, "button", kind))
        return top - 6

    def _turns_block(self, app, order, y: int, height: int) -> int:
        """The turn order, redrawn only when a row's figure, state or the scroll changes."""
        ui = app.ui
        key = (tuple(order), app.rules.generation, ui.selected, ui.turn_scroll, app.follow_turn, height,
               tuple(app.players.kinds.items()))
        self._block("turns", key, y, height + 2, lambda y0: self._turns(app, order, y0, height))
        self.turns_rect = pygame.Rect(0, y, self.rect.w, self.turns_rect.h)
        return y + height + 2

    def _turns(self, app, order, y: int, height: int) -> int:
        s = self.surface
        ui = app.ui
        b = app.rules.snapshot
        visible = max(1, height // ROW_H)
        cut = len(order) > visible and visible > 1
        if cut:                 # the last row says how many are not shown ("+3 more"), never drops them silently
            visible -= 1
        self._turns_max_scroll = max(0, len(order) - visible)
        self.turns_more = ""            # what the last row says of the figures not shown ("+3 more")
        ids = [fid for fid, _, _ in order]
        resized = visible != getattr(self, "_turns_visible", visible)     # the room changed: show the current again
        self._turns_visible = visible
        if b.current in ids and (app.follow_turn or resized):
            i = ids.index(b.current)
            if not ui.turn_scroll <= i < ui.turn_scroll + visible:
                ui.turn_scroll = max(0, min(self._turns_max_scroll, i - 1))
            app.follow_turn = False
        ui.turn_scroll = min(ui.turn_scroll, self._turns_max_scroll)
        self.turns_rect = pygame.Rect(0, y, self.rect.w, visible * ROW_H)
        shown = order[ui.turn_scroll: ui.turn_scroll + visible]
        for n, (fid, number, acted) in enumerate(shown):
            fig = b.figures[fid]
            st = app.rules.status(fid)
            row = pygame.Rect(PAD - 4, y, self.rect.w - 2 * PAD + 8, ROW_H - 1)
            if fid == ui.selected:
                pygame.draw.rect(s, theme.PANEL_ROW_PICK, row, border_radius=3)
            if fid == b.current and not b.is_over:
                s.blit(self.fonts.render("▶", 13, theme.HIGHLIGHT, True), (row.x + 2, y + 2))
            if number is not None:
                num = self.fonts.render(str(number) if number != "declare" else "·", 12, theme.PANEL_DIM, True)
                s.blit(num, (row.x + 30 - num.get_width(), y + 2))
            pygame.draw.circle(s, theme.side_colour(fig.side), (row.x + 40, y + 9), 6)
            name = fig.label + ("" if st.able else f" ({describe.figure_state_words(st)})")
            for moved in ((f"moved {feet(st.moved_ft)} ft",) if st.moved_ft else ()) + ("",):
                # the feet moved give way first when the name would not fit beside them
                extra = " · ".join(x for x in (f"{st.hp}/{st.max_hp} hp", moved, app.players.name(fig.side)) if x)
                extra_surf = self.fonts.render(extra, 12, theme.PANEL_DIM)
                room = row.w - 56 - extra_surf.get_width() - 8
                if self.fonts.size(name, 14)[0] <= room:
                    break
            role = "dim" if (acted or not st.able) else "text"
            s.blit(self.fonts.render(self.fonts.fit(name, room, 14), 14, theme.ROLE_COLOURS[role]),
                   (row.x + 52, y + 1))
            s.blit(extra_surf, (row.right - extra_surf.get_width() - 4, y + 3))
            self.hits.append((row, "figure", fid))
            y += ROW_H
        if cut:
            below, above = len(order) - ui.turn_scroll - len(shown), ui.turn_scroll
            tag = " · ".join(p for p in (f"+{below} more" if below else "", f"{above} above" if above else "") if p)
            self.turns_more = tag
            surf = self.fonts.render(self.fonts.fit(f"{tag} (the wheel scrolls)", self.rect.w - 2 * PAD - 52, 12),
                                     12, theme.PANEL_DIM)
            s.blit(surf, (PAD + 48, y + 2))
            y += ROW_H
        return y + 2

    def _render_log(self, app) -> None:
        s = self.surface
        area = self.log_rect
        events = app.battle.events
        count = app.shown_events()
        if area.h < 20:
            return
        if not count:
            self._line(area.y, "Nothing has happened yet. Select a figure and click a square to move.", "dim")
            return
        ui = app.ui
        self._log_max_scroll = max(0, count - 1)
        ui.log_scroll = min(ui.log_scroll, self._log_max_scroll)
        clip = s.get_clip()
        s.set_clip(area)
        newest = count - 1 - ui.log_scroll
        # Oldest at the top while everything fits; once it overflows, the newest stay at the bottom.
        heights, total = [], 0
        for i in range(newest, -1, -1):
            lines = self._event_rows(i, events[i], area.w - 6)
            h = LINE_H * len(lines) + 4
            heights.append((i, lines, h))
            total += h
            if total > area.h:
                break
        y = area.bottom if total > area.h else area.y + total
        for i, lines, h in heights:
            y -= h
            row = pygame.Rect(area.x - 2, y, area.w + 4, h)
            if i == ui.picked_event:
                pygame.draw.rect(s, theme.PANEL_ROW_PICK, row, border_radius=3)
            elif i % 2:
                pygame.draw.rect(s, (38, 40, 50), row)
            yy = y + 2
            for text, role in lines:
                s.blit(self.fonts.render(text, 13, theme.ROLE_COLOURS[role]), (area.x + 2, yy))
                yy += LINE_H
            self.hits.append((row.clip(area), "event", i))
        s.set_clip(clip)
        if ui.log_scroll:
            tag = self.fonts.render(f"▼ {ui.log_scroll} newer", 12, theme.PANEL_HEAD, True, (60, 50, 30))
            s.blit(tag, (area.right - tag.get_width(), area.bottom - tag.get_height()))

    def _event_rows(self, index: int, event, width: int):
        key = (index, id(event), width)
        cached = self._event_cache.get(key)
        if cached is None:
            cached = []
            for text, role in describe.event_lines(event):
                indent = text.startswith("  ")
                for j, line in enumerate(self.fonts.wrap(text.strip() if indent else text, width - (14 if indent else 0), 13)):
                    cached.append((("    " + line) if indent else (line if j == 0 else "  " + line), role))
            if len(self._event_cache) > 4000:
                self._event_cache.clear()
            self._event_cache[key] = cached
        return cached

