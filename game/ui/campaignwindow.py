"""A campaign in the window (`fivefoot campaign`): each battle opens as `play` opens one (the
player's side a person, the others the AI); when the battle is over and the window is closed (or
Esc on the result screen), the campaign records it (game/play/campaign.py), saves, and shows the
choice between battles: click one or press its number. Closing the window before a battle is over
stops the campaign; `fivefoot campaign --resume` starts that battle again."""
from __future__ import annotations

import pygame

from ..io.campaigns import save_campaign
from ..play import campaign as flow
from . import theme


def run_campaign(request, size=None, max_frames: int | None = None) -> int:
    from .app import App
    campaign, state = request.campaign, request.state
    try:
        while state.next and not state.result:
            scenario = flow.scenario_for(campaign, state)
            battle_id = state.next
            sides = {s: ("human" if s == campaign.side else "ai") for s in dict.fromkeys(f.side for f in scenario.figures)}
            app = App(scenario, sides=sides, size=size)
            app.description = f"{campaign.battle(battle_id).intro}  {scenario.description}".strip()
            app.run(max_frames=max_frames)
            if not app.battle.is_over:
                print(f"{campaign.title}: left during {battle_id}; `fivefoot campaign --resume` fights it again")
                return 0
            print(flow.record(campaign, state, app.battle))
            save_campaign(state, request.save_path)
            offered = flow.choices(campaign, state)
            if offered:
                chosen = choose_screen(app.screen, campaign, state, offered, max_frames)
                if chosen is None:
                    return 0
                print("chose " + flow.choose(campaign, state, chosen))
                save_campaign(state, request.save_path)
        print(f"{campaign.title}: {state.result}")
        return 0
    finally:
        pygame.quit()


_FONTS: list = []


def _fonts():
    """The window's font cache (text drawn through printable, wrapped whole)."""
    if not _FONTS:
        _FONTS.append(theme.Fonts())
    return _FONTS[0]


def _lines(c, n: int, width: int) -> list[str]:
    return _fonts().wrap(f"{n}. {c.text}", width - 20, 16)


def choice_rows(screen, offered) -> list[tuple[str, pygame.Rect]]:
    """A row per choice, as tall as its words wrapped whole need."""
    w, h = screen.get_size()
    box_w = min(760, w - 40)
    x = (w - box_w) // 2
    heights = [max(46, 20 * len(_lines(c, n, box_w - 40)) + 14) for n, c in enumerate(offered, start=1)]
    y = max(130, (h - sum(heights) - 10 * len(heights)) // 2)
    rows = []
    for c, height in zip(offered, heights):
        rows.append((c.id, pygame.Rect(x + 20, y, box_w - 40, height)))
        y += height + 10
    return rows


def draw_choices(screen, campaign, state, offered) -> None:
    screen.fill(theme.PANEL_BG)
    fonts = _fonts()
    rows = choice_rows(screen, offered)
    last = state.played[-1]
    width = rows[0][1].w
    head = fonts.wrap(f"{campaign.title}: {last['battle']} won. Choose the road on:", width, 20, True)
    company = fonts.wrap("The company: " + ", ".join(f"{m['id']} {m['hp']}/{m['max_hp']} hp" for m in state.roster),
                         width, 15)
    y = max(8, rows[0][1].y - 12 - 26 * len(head) - 19 * len(company))
    for line in head:
        screen.blit(fonts.render(line, 20, theme.PANEL_HEAD, True), (rows[0][1].x, y))
        y += 26
    for line in company:
        screen.blit(fonts.render(line, 15, theme.PANEL_TEXT), (rows[0][1].x, y))
        y += 19
    for n, (c, (_cid, rect)) in enumerate(zip(offered, rows), start=1):
        pygame.draw.rect(screen, theme.PANEL_ROW_HOVER, rect, border_radius=6)
        pygame.draw.rect(screen, theme.PANEL_EDGE, rect, 1, border_radius=6)
        lines = _lines(c, n, rect.w)
        for i, text in enumerate(lines):
            screen.blit(fonts.render(text, 16, theme.PANEL_TEXT), (rect.x + 10, rect.centery - 10 * len(lines) + 20 * i))


def choose_screen(screen, campaign, state, offered, max_frames: int | None = None) -> str | None:
    """The choice between battles: a click on one, or its number; None if the window is closed."""
    frames = 0
    while True:
        draw_choices(screen, campaign, state, offered)
        pygame.display.flip()
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return None
            if event.type == pygame.KEYDOWN and pygame.K_1 <= event.key < pygame.K_1 + len(offered):
                return offered[event.key - pygame.K_1].id
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                for cid, rect in choice_rows(screen, offered):
                    if rect.collidepoint(event.pos):
                        return cid
        frames += 1
        if max_frames is not None and frames >= max_frames:
            return offered[0].id
        pygame.time.wait(15)
