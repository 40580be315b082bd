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
BLANK_LINE = ("", "dim", 0)     # a wrapped line holding room, with nothing in it
SPARE_ORDER = ("objectives", "figure", "hover", "ai", "turns")


def panel_width(window_w: int) -> int:
    return max(320, min(460, int(window_w * 0.25)))


class Panel:
    def __init__(self, fonts, rect: pygame.Rect):
        self.fonts = fonts
        self.rect = rect
        self.surface = None       # the part being drawn (`_block`)
        self.hits: list[tuple[pygame.Rect, str, object]] = []
        self._key = None
        self._event_cache: dict = {}
        self.log_rect = pygame.Rect(0, 0, 0, 0)
        self.turns_rect = pygame.Rect(0, 0, 0, 0)
        self._log_max_scroll = 0
        self._turns_max_scroll = 0
        self._blocks: dict = {}   # name -> (key, surface, hits): parts redrawn only when what they show changes
        self._sheets: dict = {}   # name -> the surface its part is drawn on, again and again
        self._placing: list = []  # (name, y, surface, hits) of the parts as `_render` lays them out
        self._placed = None       # name -> (y, surface) as last copied into the panel's picture
        self._dirty: list = []    # bands (top, bottom) of the picture changed since it was last on the screen
        self._hover_layout = None  # (title, folded, lines, lines shown) of the hover section as laid out
        self.shown = False        # the panel's pixels are on the screen as last blitted
        self._shown_on = None

    def resize(self, rect: pygame.Rect) -> None:
        self.rect = rect
        self._key = None
        self._blocks = {}
        self._sheets = {}
        self._placed = None
        self.shown = False

    def _block(self, name: str, key, y: int, height: int | None, draw, bound: int = 10 ** 6) -> int:
        """Lay the part `name` at y, drawing it with draw(0) into its own surface when `key` changed
        (height None: as tall as draw(0) says it ended, at most `bound`); returns the y below it."""
        cached = self._blocks.get(name)
        if cached is None and len(self._blocks) > 40:     # parts of heights long gone
            self._blocks, self._sheets = {}, {}
        if cached is None or cached[0] != key:
            whole, hits = self.surface, self.hits
            tall = max(1, min(self.rect.h - y, bound) if height is None else height)
            # Drawn into the part's last sheet when it is large enough: a new surface's memory is
            # paid for in page faults the first time it is written (0.3 ms for a section).
            sheet = self._sheets.get(name)
            if sheet is None or sheet.get_width() != self.rect.w or sheet.get_height() < tall:
                sheet = self._sheets[name] = pygame.Surface((self.rect.w, tall + 64))
            self.surface = sheet.subsurface(pygame.Rect(0, 0, self.rect.w, tall))
            self.surface.fill(theme.PANEL_BG)
            self.hits = []
            try:
                end = draw(0)
                surf = self.surface
                if height is None:
                    surf = surf.subsurface(pygame.Rect(0, 0, self.rect.w, max(1, min(tall, end))))
                cached = (key, surf, self.hits)
            finally:
                self.surface, self.hits = whole, hits
            self._blocks[name] = cached
        _key, surf, hits = cached
        self._placing.append((name, y, surf, hits))
        return y + surf.get_height()

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
        """Lay the panel out again when what it shows changed, and paint on the screen the bands of
        it that changed; all of it when something covered it since (the app sets `shown` False
        then) or it goes to another screen. What is under the pointer changes at every square a
        pan passes: the hover section follows once the view holds still (a frame), not per frame."""
        key = app.panel_key()
        if key != self._key:
            only_hover = self._key is not None and key[0] == self._key[0]
            if only_hover and app.scene.moving:
                pass        # while the view pans or zooms the hover words wait for the frame it holds still
            else:
                self._key = key
                if not (only_hover and self._hover_again(app)):
                    self._render(app)
        if not self.shown or screen is not self._shown_on:
            self._paint(screen, [(0, self.rect.h)])
            self.shown, self._shown_on = True, screen
        else:
            self._paint(screen, self._dirty)
        self._dirty = []

    def _paint(self, screen, bands) -> None:
        """The parts laid out by `_render`, copied to the screen within `bands` (top, bottom); what
        no part covers is the panel's background; the panel's left edge over them."""
        x0, y0, w = self.rect.x, self.rect.y, self.rect.w
        spans = sorted((y, y + surf.get_height()) for _name, y, surf, _hits in self._placing)
        clip = screen.get_clip()
        for a, b in bands:
            y = a
            for top, end in spans:                      # the gaps between the parts
                if top > y and y < b:
                    screen.fill(theme.PANEL_BG, (x0, y0 + y, w, min(top, b) - y))
                y = max(y, end)
            if y < b:
                screen.fill(theme.PANEL_BG, (x0, y0 + y, w, b - y))
            for _name, top, surf, _hits in self._placing:
                t, e = max(a, top), min(b, top + surf.get_height())
                if t < e:
                    screen.blit(surf, (x0, y0 + t), pygame.Rect(0, t - top, w, e - t))
            screen.set_clip(pygame.Rect(x0, y0 + a, w, b - a).clip(clip))
            pygame.draw.line(screen, theme.PANEL_EDGE, (x0, y0), (x0, y0 + self.rect.h), 2)
            screen.set_clip(clip)

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
        """Lay the panel out in parts (the heading lines, each section, the log, the buttons), each
        drawn into its own picture only when what it shows changed; then copy into the panel's
        picture only the bands where a part changed or moved (`_compose`)."""
        self._placing = []
        b = app.rules.snapshot
        ui = app.ui
        width = self.rect.w - 2 * PAD
        head = (app.title, b.ruleset.name, b.ruleset.id, app.description, self.rect.w)
        y = self._block("head", head, 0, None, lambda y0: self._head(app, y0, width))
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
        wanted, wrapped = {}, {}
        for name, _title, lines in sections:
            if name != "turns":
                wrapped[name] = self._wrap(lines, width)
            if name == "hover":
                wrapped[name] = self._held_room(app, wrapped[name])
            if name in ui.collapsed:
                wanted[name] = 0
            elif name == "turns":
                wanted[name] = ROW_H * len(order)
            else:
                wanted[name] = LINE_H * len(wrapped[name])
        given = {name: min(want, int(room * SHARES[name])) for name, want in wanted.items()}
        spare = room - sum(given.values())
        for name in sorted(wanted, key=SPARE_ORDER.index):  # the turn order scrolls: it gets the spare room last
            want = wanted[name]
            more = max(0, min(want - given[name], spare))
            given[name] += more
            spare -= more
        for name, title, _lines in sections:
            folded = name in ui.collapsed
            if name == "turns":
                extra = f"{len(order)} figures" if folded else ""
                y = self._block("turns-head", (title, extra, folded, self.rect.w), y, HEADING_H + 3,
                                lambda y0: self._heading(y0, "turns", title, app, extra))
                if not folded:
                    give = max(given[name] // ROW_H * ROW_H, ROW_H * min(2, len(order)))
                    y = self._turns_block(app, order, y, give)
                continue
            lines = wrapped[name]
            extra = f"{len(lines)} lines" if folded and lines else ""
            shown = 0 if folded or not lines else max(2, min(len(lines), given[name] // LINE_H))
            if name == "hover":
                self._hover_layout = (title, folded, len(lines), shown)
            key = (title, extra, folded, tuple(lines[:shown]), len(lines), self.rect.w)
            y = self._block(name, key, y, None,
                            lambda y0, name=name, title=title, lines=lines, extra=extra, shown=shown:
                            self._section(app, y0, name, title, lines, extra, shown),
                            bound=HEADING_H + 3 + (shown + 1) * 2 * LINE_H)
        y = self._block("log-head", ("log" in ui.collapsed, self.rect.w), y, HEADING_H + 3,
                        lambda y0: self._heading(y0, "log", "Events (click one: show it on the map)", app))
        self.log_rect = pygame.Rect(PAD, y, width, max(0, bottom - 6 - y))
        if "log" not in ui.collapsed:
            top, height = y, self.log_rect.h
            key = (id(app.battle), len(app.battle.events), app.shown_events(), ui.log_scroll, ui.picked_event,
                   self.log_rect.size)

            def draw_log(y0):
                self.log_rect.y = y0
                self._render_log(app)
            self._block(("log", height), key, top, height, draw_log)
            self.log_rect.y = top
        self._compose()

    def _held_room(self, app, lines: list) -> list:
        """The hover section's lines padded with blank ones to the most it has shown at this moment
        (the same selection, mode, panel size and battle state): moving the pointer from a long
        answer to a short one leaves the log where it was (`UIState.hover_room`)."""
        ui = app.ui
        if "hover" in ui.collapsed:
            return lines
        moment = (ui.selected, len(app.battle.events), describe.mode_name(ui), ui.gm, ui.compare,
                  tuple(self.rect.size))
        held_moment, held = ui.hover_room
        most = max(len(lines), held if held_moment == moment else 0)
        ui.hover_room = (moment, most)
        return lines + [BLANK_LINE] * (most - len(lines))

    def _hover_again(self, app) -> bool:
        """Only what is under the pointer changed: the hover section drawn again in its place when
        its lines take the room they took (the rest of the layout is then as it was); False when
        they do not (the panel is laid out again)."""
        title, folded, count, shown = self._hover_layout
        lines = self._held_room(app, self._wrap(app.hover_lines(), self.rect.w - 2 * PAD))
        if len(lines) != count:
            return False
        at = next(i for i, part in enumerate(self._placing) if part[0] == "hover")
        _name, y, old, _hits = self._placing.pop(at)
        extra = f"{len(lines)} lines" if folded and lines else ""
        key = (title, extra, folded, tuple(lines[:shown]), len(lines), self.rect.w)
        self._block("hover", key, y, None, lambda y0: self._section(app, y0, "hover", title, lines, extra, shown),
                    bound=HEADING_H + 3 + (shown + 1) * 2 * LINE_H)
        self._placing.insert(at, self._placing.pop())
        if self._placing[at][2].get_height() != old.get_height():
            return False
        self._compose()
        return True

    def _head(self, app, y: int, width: int) -> int:
        """The battle's title, the ruleset and the description."""
        b = app.rules.snapshot
        y = self._line(y + PAD, app.title, "head", 18, True) + 2
        for piece in self.fonts.wrap(f"Rules: {b.ruleset.name} [{b.ruleset.id}]", width, 13, max_lines=2):
            y = self._line(y, piece, "accent")          # the ruleset's whole name, on two lines if need be
        if app.description:
            pieces = self.fonts.wrap(app.description, width, 13)
            for i, piece in enumerate(pieces[:2]):
                y = self._line(y, piece + (" …" if i == 1 and len(pieces) > 2 else ""), "dim")
        return y + 4

    def _section(self, app, y: int, name: str, title: str, lines, extra: str, shown: int) -> int:
        """A section's heading and its first `shown` lines (the last saying how many more there are)."""
        y = self._heading(y, name, title, app, extra)
        if not shown:
            return y
        real = len(lines)
        while real and lines[real - 1] == BLANK_LINE:     # room held (`_held_room`), not lines to tell of
            real -= 1
        cut = real > shown
        for text, role, indent in lines[: shown - 1 if cut else shown]:
            y = self._line(y, text, role, x=PAD + indent)
        if cut:
            y = self._line(y, f"… {real - shown + 1} more lines (fold a section to see them)", "dim")
        return y

    def _compose(self) -> None:
        """Note the bands where a part laid out by `_render` changed or moved since the last layout
        (or was there before and is gone): what `draw` paints on the screen. Elsewhere the screen
        already shows the same pixels."""
        placed = {name: (y, surf) for name, y, surf, _hits in self._placing}
        h = self.rect.h
        if self._placed is None:
            bands = [(0, h)]
        else:
            bands = []
            for name in set(placed) | set(self._placed):
                was, now = self._placed.get(name), placed.get(name)
                if was is None or now is None or was[0] != now[0] or was[1] is not now[1]:
                    bands += [(part[0], part[0] + part[1].get_height()) for part in (was, now) if part is not None]
        self._placed = placed
        self.hits = [(r.move(0, y), kind, value) for _name, y, _surf, hits in self._placing for r, kind, value in hits]
        merged: list = []
        for a, b in sorted((max(0, a), min(h, b)) for a, b in bands + self._dirty):
            if a >= b:
                continue
            if merged and a <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], b))
            else:
                merged.append((a, b))
        self._dirty = merged

    def _buttons(self, app) -> int:
        """The buttons in rows at the foot (a part of their own); returns the y where they start."""
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
        self._block("buttons", (tuple(sorted(enabled.items())), self.rect.size), top - 6, self.rect.h - top + 6,
                    lambda y0: self._draw_buttons(rows, enabled, y0 + 6))
        return top - 6

    def _draw_buttons(self, rows, enabled, top: int) -> None:
        s = self.surface
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

    def _turns_block(self, app, order, y: int, height: int) -> int:
        """The turn order, redrawn only when a row's figure, state or the scroll changes."""
        ui = app.ui
        key = (tuple(order), app.rules.generation, ui.selected, ui.turn_scroll, app.follow_turn, height,
               tuple(app.players.kinds.items()))
        # One part per height given (the room changes with the hover section's length, back and forth).
        self._block(("turns", height), key, y, height + 2, lambda y0: self._turns(app, order, y0, height))
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

