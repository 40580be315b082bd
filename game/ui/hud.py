"""What is drawn over the map view: the status bar, the message strip, the pointer's tooltip
and token card, and the banner naming whose turn it is. The words come from game.client.describe.
"""
from __future__ import annotations

import pygame

from ..client import describe
from . import theme

STATUS_H = 26
TOOLTIP_W = 360


def draw_status(screen, app) -> None:
    w = app.map_rect.w
    bar = pygame.Rect(0, 0, w, STATUS_H)
    pygame.draw.rect(screen, (30, 32, 40), bar)
    pygame.draw.line(screen, theme.PANEL_EDGE, (0, STATUS_H - 1), (w, STATUS_H - 1))
    b = app.rules.snapshot
    parts = [f"Mode: {describe.mode_name(app.ui)}"]
    if b.is_over:
        parts = ["The battle is over" + (f": {b.winner} wins" if b.winner else "")]
    elif b.current is not None:
        cur = b.figures[b.current]
        phase = b.current_phase
        parts.append(f"Round {b.round}: {cur.label}'s turn ({app.players.name(cur.side)})"
                     + (f", {phase} phase" if phase not in ("all",) else ""))
    if app.ui.gm:
        parts.append("LESSON" if app.lesson is not None else "DEMONSTRATION")
    if app.recording is not None:
        parts.append("RECORDING")
    if app.rules.busy():
        parts.append("planning...")
    if app.players.thinking():
        parts.append("AI thinking...")
    if app.animator.busy():
        parts.append("playing out (Esc skips)")
    fonts = app.fonts
    # Whole words first: tighter separators, then without "F1: keys", then smaller type; cut only when
    # nothing else fits.
    tries = [(sep, with_keys, size) for size in (14, 13, 12) for with_keys in (True, False)
             for sep in ("   |   ", "  |  ")]
    for sep, with_keys, size in tries:
        text = sep.join(parts + (["F1: keys"] if with_keys else []))
        if fonts.size(text, size, True)[0] <= w - 20:
            break
    else:
        text = fonts.fit(text, w - 20, size, True, keep=4)
    surf = fonts.render(text, size, theme.PANEL_TEXT, True)
    screen.blit(surf, (10, (STATUS_H - surf.get_height()) // 2))


def draw_messages(screen, app) -> None:
    """The newest messages (two at most, each whole) in one strip at the foot of the map, above the
    compare panel or the lesson's bar when one is down there, at the top where the foot would cover
    more figures."""
    toasts = app.ui.toasts[-2:]
    app.message_box = None
    if not toasts:
        return
    area = app.map_rect
    fonts = app.fonts
    rows = []
    for toast in toasts:
        for line in fonts.wrap(toast.text, area.w - 60, 14, True):
            rows.append((line, toast.error))
    h = 8 + 19 * len(rows)
    box = pygame.Rect(area.x + 12, area.bottom - h - 10, area.w - 24, h)
    panels = [p for p in (app.compare_state.box if app.ui.compare else None, app.lesson_box) if p is not None]
    for panel in panels:
        if box.colliderect(panel):   # a panel is down there: the messages go above it
            box.bottom = panel.y - 6 if panel.y - h - 6 >= area.y else box.bottom
            if box.colliderect(panel):
                box.y = panel.bottom + 6
    # Over figures at the foot of the map: the top of the map instead, if it covers fewer of them.
    tokens = [token_rect(app, f) for f in app.battle.figures.values() if app.battle.able(f.id)]
    top = pygame.Rect(box.x, area.y + 6 + (44 if app.animator.banner is not None else 0), box.w, h)
    box = min((box, top), key=lambda r: (sum(1 for p in panels if r.colliderect(p)),
                                         sum(1 for t in tokens if r.colliderect(t))))
    app.message_box = box
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    shade.fill((16, 16, 22, 215))
    screen.blit(shade, box)
    pygame.draw.rect(screen, theme.PANEL_EDGE, box, 1, border_radius=6)
    y = box.y + 5
    for line, error in rows:
        colour = theme.MESSAGE_ERROR if error else theme.MESSAGE_INFO
        screen.blit(fonts.render(line, 14, colour, True), (box.x + 12, y))
        y += 19


def draw_banner(screen, app) -> None:
    banner = app.animator.banner
    if banner is None:
        return
    area = app.map_rect
    surf = app.fonts.render(banner.text, 22, (255, 255, 255), True)
    box = surf.get_rect(midtop=(area.centerx, area.y + 14)).inflate(40, 14)
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    shade.fill((14, 16, 24, 210))
    screen.blit(shade, box)
    pygame.draw.rect(screen, theme.HIGHLIGHT, box, 2, border_radius=10)
    screen.blit(surf, surf.get_rect(center=box.center))


def draw_pointer_box(screen, app) -> None:
    """By the pointer: what a click does now (or why not), and the hovered figure's card."""
    if app.ui.hover_square is None or app.ui.help_open or app.ui.compare:
        return
    me = app.selected_figure()
    hover = app.hover
    lines = describe.tooltip_lines(app.ui, app.rules, me, hover)
    top = hover.top
    if top is not None:
        card = describe.token_card(app.rules, top, me, app.players.name(top.side))
        lines = card + ([("", "dim")] if lines else []) + lines
    odds = app.odds_map()
    if odds is not None:
        said = app.odds.words(odds, app.ui.hover_square)
        if said:
            lines = [(f"odds map [{odds.ruleset}]: {w}", "accent") for w in said] + [("", "dim")] + lines
    if not lines:
        return
    fonts = app.fonts
    surfs = []
    for text, role in lines:
        bold = role in ("head", "good", "warn")
        for line in fonts.wrap(text, TOOLTIP_W, 13, bold) or [""]:
            surfs.append(fonts.render(line, 14 if role == "head" else 13, theme.ROLE_COLOURS[role], bold))
    w = max(s.get_width() for s in surfs) + 14
    h = sum(max(6, s.get_height()) for s in surfs) + 10
    box = _beside_pointer(app, w, h)
    x, y = box.topleft
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    shade.fill((16, 18, 24, 235))
    screen.blit(shade, box)
    pygame.draw.rect(screen, theme.PANEL_EDGE, box, 1, border_radius=5)
    yy = y + 5
    for s in surfs:
        screen.blit(s, (x + 7, yy))
        yy += max(6, s.get_height())



def _beside_pointer(app, w: int, h: int) -> pygame.Rect:
    """Where the pointer's box goes: below-right of the pointer, else the other corners, the first that
    covers no token (else the one covering fewest), kept inside the map."""
    area = app.map_rect
    mx, my = app.ui.mouse
    cam = app.camera
    tokens = [pygame.Rect(*cam.to_screen(*f.pos), cam.cell * f.footprint[0], cam.cell * f.footprint[1]).move(area.topleft)
              for f in app.battle.figures.values() if app.rules.status(f.id).able]
    best = None
    c = cam.cell
    spots = [(20, 20), (-w - 10, 20), (20, -h - 10), (-w - 10, -h - 10)]
    spots += [(dx, dy + k * c if dy > 0 else dy - k * c) for k in (1, 2, 3) for dx, dy in spots[:4]]
    for dx, dy in spots:
        box = pygame.Rect(mx + dx, my + dy, w, h)
        box.clamp_ip(area)
        covered = len(box.collidelistall(tokens))
        if best is None or covered < best[0]:
            best = (covered, box)
        if covered == 0:
            break
    return best[1]


def draw_odds_title(screen, app) -> None:
    """Along the top of the map while the odds map is on: whose attack on whom, under which
    ruleset, shaded by what, the best number, and the keys."""
    odds = app.odds_map()
    if odds is None or app.ui.compare:      # the compare panel lists each ruleset's best square itself
        return
    area = app.map_rect
    fonts = app.fonts
    text = app.odds.title(odds, app.battle.figures) + "   (O: " + (
        "expected damage" if app.odds.measure == "chance" else "off") + "; Shift+O: another ruleset; Esc: off)"
    y = area.y + 6 + (44 if app.animator.banner is not None else 0)
    width = area.w - 24
    pieces = fonts.wrap(text, width - 16, 13, True)
    h = 8 + 17 * len(pieces)
    box = pygame.Rect(area.x + 12, y, min(width, max(fonts.size(p, 13, True)[0] for p in pieces) + 16), h)
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    shade.fill((14, 16, 24, 215))
    screen.blit(shade, box)
    pygame.draw.rect(screen, theme.ODDS_BEST, box, 1, border_radius=6)
    for i, piece in enumerate(pieces):
        screen.blit(fonts.render(piece, 13, theme.PANEL_TEXT, True), (box.x + 8, box.y + 4 + 17 * i))


CALLOUT_W = 340


def draw_callouts(screen, app) -> None:
    """The rules that just decided something, where they did: a box with the rule's name and id and
    the event's numbers, placed beside the square it happened on where it covers no token, a line
    from the box to the square."""
    items = app.callouts.active(app.clock_now())
    app.callout_boxes = []
    if not items:
        return
    fonts = app.fonts
    area = app.map_rect
    cam = app.camera
    tokens = [token_rect(app, f) for f in app.battle.figures.values() if app.battle.able(f.id)]
    taken: list = [app.lesson_box] if app.lesson_box is not None else []
    for callout in reversed(items):                  # the newest first: it gets the best place
        lines = [(f"{callout.title} [{callout.rule}]", theme.HIGHLIGHT, True)]
        lines += [(line, theme.PANEL_TEXT, False) for line in fonts.wrap(callout.text, CALLOUT_W - 16, 13, False)]
        surfs = [fonts.render(text, 13, colour, bold) for text, colour, bold in lines]
        w = max(s.get_width() for s in surfs) + 16
        h = sum(s.get_height() for s in surfs) + 10
        anchor = callout.anchor
        if anchor is not None:
            ax, ay = cam.centre_of(anchor)
            ax, ay = ax + area.x, ay + area.y
        else:
            ax, ay = area.centerx, area.y + 40
        box = _free_place(area, (ax, ay), cam.cell, w, h, tokens + taken)
        taken.append(box)
        app.callout_boxes.append(box)
        shade = pygame.Surface(box.size, pygame.SRCALPHA)
        shade.fill((20, 18, 12, 235))
        if anchor is not None and area.collidepoint(ax, ay):
            pygame.draw.line(screen, theme.HIGHLIGHT, (ax, ay), _nearest_edge(box, (ax, ay)), 2)
        screen.blit(shade, box)
        pygame.draw.rect(screen, theme.HIGHLIGHT, box, 2, border_radius=6)
        y = box.y + 5
        for s in surfs:
            screen.blit(s, (box.x + 8, y))
            y += s.get_height()


def token_rect(app, fig):
    cam, area = app.camera, app.map_rect
    x, y = cam.to_screen(min(c[0] for c in fig.cells), min(c[1] for c in fig.cells))
    x2, y2 = cam.to_screen(max(c[0] for c in fig.cells) + 1, max(c[1] for c in fig.cells) + 1)
    return pygame.Rect(x + area.x, y + area.y, x2 - x, y2 - y)


def _free_place(area, anchor, cell: int, w: int, h: int, avoid: list):
    """A box of w x h by the anchor (above, below, right, left, then further out) inside the map area
    that overlaps no token and no other callout; else the one overlapping the fewest."""
    ax, ay = anchor
    gap = cell // 2 + 8
    tries = []
    for reach in (1, 2, 3):
        d = gap * reach
        tries += [(ax - w // 2, ay - d - h), (ax - w // 2, ay + d), (ax + d, ay - h // 2), (ax - d - w, ay - h // 2),
                  (ax + d, ay - d - h), (ax - d - w, ay + d)]
    best, best_hits = None, None
    for x, y in tries:
        box = pygame.Rect(x, y, w, h).clamp(area)
        hits = sum(1 for r in avoid if box.colliderect(r))
        if hits == 0:
            return box
        if best_hits is None or hits < best_hits:
            best, best_hits = box, hits
    return best


def _nearest_edge(box, point):
    x = min(max(point[0], box.left), box.right)
    y = min(max(point[1], box.top), box.bottom)
    return (x, y)
