"""The start screen: which battle, under which rules, who plays each side; a preview of the map.

Shown by `fivefoot play` when no --side/--hotseat/--watch flag decides it. B / Shift+B (or a
click on the battle's button) picks the battle among the bundled ones; R / Shift+R (or a click)
the ruleset (the battle's own or any bundled one: the same figures judged by those rules);
a side's number (or a click on its button) cycles person and the AI levels; the preset buttons
set solo, hot-seat or AI against AI; Enter or the Start button begins. The preview shows the
whole map with every figure in its side's colour. The settings (F2 in the battle) choose the
ruleset and the AI level offered first.
"""
from __future__ import annotations

from pathlib import Path

import pygame

from ..core.values.safetext import printable
from . import theme
from .camera import ZOOM_LEVELS, Camera

PRESETS = (("solo", "Solo vs AI"), ("hotseat", "Hot-seat"), ("watch", "Watch AI vs AI"))
# The bundled battles offered, the first battle first (the lessons and the AI's mirrored test
# battles are not for a first choice).
BATTLES = ("first_battle.toml", "corridor.toml", "solo_ridge.toml", "horse_field.toml", "knights_spears.toml",
           "ogre_corridor.toml", "sky.toml", "wall_walk.toml", "charge_demo.toml")
PREVIEW_MAX_SQUARES = 160      # larger maps are previewed as an outline with their size


class StartChoice:
    """What the start screen has chosen so far: the battle (a bundled file, or the one opened) and the ruleset."""

    def __init__(self, app):
        from ..io.paths import MAPS_DIR
        from ..io.rulesets import bundled_ruleset_ids
        opened = Path(getattr(app.scenario, "source", "") or "")
        self.files: list[Path | None] = [None]        # None: the battle the window was opened on
        self.files += [MAPS_DIR / name for name in BATTLES
                       if (MAPS_DIR / name).is_file() and (MAPS_DIR / name).resolve() != _resolved(opened)]
        self.opened = (app.scenario, app.battle)
        self.battle_index = 0
        self.base = app.battle                         # the battle under its own rules
        self.rulesets = [""] + list(bundled_ruleset_ids())
        self.ruleset_index = 0
        self.preview = None                            # (key, surface)
        wanted = app.settings.ruleset
        if wanted and wanted in self.rulesets and wanted != app.battle.ruleset.id:
            choose_ruleset(app, self, self.rulesets.index(wanted))
        for side, kind in list(app.players.kinds.items()):     # the AI level the settings ask for
            if kind == "ai" and app.settings.ai_level != "ai":
                app.players.set_side(side, app.settings.ai_level)


def _resolved(path: Path):
    try:
        return path.resolve() if str(path) else None
    except OSError:
        return None


def choice(app) -> StartChoice:
    if getattr(app, "start_choice", None) is None:
        app.start_choice = StartChoice(app)
    return app.start_choice


def choose_battle(app, start: StartChoice, index: int) -> None:
    """Open another bundled battle on the start screen (its own rules, the same kind of players)."""
    from ..core.battle import Battle
    from ..core.values.errors import RulesError
    from ..io.scenarios import load_scenario
    from .maplayer import MapLayer, tile_art_for
    index %= len(start.files)
    path = start.files[index]
    try:
        scenario, battle = start.opened if path is None else (load_scenario(path), None)
        battle = battle or Battle.from_scenario(scenario)
    except RulesError as err:
        app.toast(f"that battle does not open: {err}")
        return
    solo = _is_solo(app)
    app.scenario = scenario
    app.install(battle)
    app.map_layer = MapLayer(battle.map, tile_art_for(scenario))
    app.map_layer.fonts = app.fonts
    app.camera.map_w, app.camera.map_h = battle.map.width, battle.map.height
    app.camera.fit()
    app.map_watch.follow(battle.map)
    app.title = battle.setup.title or scenario.title
    app.description = battle.setup.description or scenario.description
    pygame.display.set_caption(printable(f"fivefoot: {app.title}", one_line=True))
    start.base, start.battle_index, start.ruleset_index = battle, index, 0
    for side in app.sides():
        if side not in app.players.kinds:
            app.players.set_side(side, "human")
    apply_preset(app, "solo" if solo else "hotseat" if all(app.players.human_side(s) for s in app.sides()) else "watch")
    wanted = app.settings.ruleset
    if wanted and wanted in start.rulesets and wanted != battle.ruleset.id:
        choose_ruleset(app, start, start.rulesets.index(wanted))


def choose_ruleset(app, start: StartChoice, index: int) -> None:
    """The chosen battle judged by another ruleset ("" : its own)."""
    from ..io.rulesets import load_ruleset
    step = 1 if index >= start.ruleset_index else -1
    index %= len(start.rulesets)
    if index and start.rulesets[index] == start.base.ruleset.id:     # the battle's own is offered once, first
        index = (index + step) % len(start.rulesets)
    rid = start.rulesets[index]
    if not rid or rid == start.base.ruleset.id:
        battle = start.base
    else:
        battle = start.base.rejudged(load_ruleset(rid))
    start.ruleset_index = index
    app.install(battle)


def _is_solo(app) -> bool:
    humans = [s for s in app.sides() if app.players.human_side(s)]
    return len(humans) == 1


def apply_preset(app, key: str) -> None:
    sides = app.sides()
    level = getattr(getattr(app, "settings", None), "ai_level", "ai")
    for i, side in enumerate(sides):
        if key == "solo":
            app.players.set_side(side, "human" if i == 0 else level)
        elif key == "hotseat":
            app.players.set_side(side, "human")
        else:
            app.players.set_side(side, level)


def _layout(app):
    w, h = app.screen.get_size()
    box = pygame.Rect(0, 0, min(980, w - 40), min(600, h - 40))
    box.center = (w // 2, h // 2)
    wide = box.w >= 700
    left_w = min(440, box.w - 80) if wide else box.w - 80
    top = box.y + 150
    pickers = []
    for key in ("battle", "ruleset"):
        pickers.append((key, pygame.Rect(box.x + 130, top, left_w - 90, 32)))
        top += 40
    rows = []
    y = top + 34
    for side in app.sides()[:6]:
        rows.append((side, pygame.Rect(box.x + 40 + left_w - 190, y, 190, 32)))
        y += 40
    presets = []
    x = box.x + 40
    pw = (left_w - 20) // 3
    for key, _text in PRESETS:
        presets.append((key, pygame.Rect(x, y + 6, pw, 32)))
        x += pw + 10
    start = pygame.Rect(0, 0, 220, 46)
    start.midbottom = (box.centerx, box.bottom - 20)
    if wide:
        preview = pygame.Rect(box.x + 40 + left_w + 30, box.y + 150, 0, 0)
        preview.w = box.right - 30 - preview.x
        preview.h = start.y - 34 - preview.y
    else:
        preview = pygame.Rect(0, 0, 0, 0)
    return box, pickers, rows, presets, start, preview


def handle_start(app, event) -> None:
    box, pickers, rows, presets, start, _preview = _layout(app)
    state = choice(app)
    if event.type == pygame.KEYDOWN:
        back = -1 if event.mod & pygame.KMOD_SHIFT else 1
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            app.start_screen = False
        elif event.key == pygame.K_ESCAPE:
            app.running = False
        elif event.key == pygame.K_b:
            choose_battle(app, state, state.battle_index + back)
        elif event.key == pygame.K_r:
            choose_ruleset(app, state, state.ruleset_index + back)
        elif pygame.K_1 <= event.key <= pygame.K_9:
            i = event.key - pygame.K_1
            if i < len(rows):
                _toggle(app, rows[i][0])
    elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
        back = -1 if event.button == 3 else 1
        for key, rect in pickers:
            if rect.collidepoint(event.pos):
                if key == "battle":
                    choose_battle(app, state, state.battle_index + back)
                else:
                    choose_ruleset(app, state, state.ruleset_index + back)
                return
        for side, rect in rows:
            if rect.collidepoint(event.pos):
                _toggle(app, side)
        for key, rect in presets:
            if rect.collidepoint(event.pos):
                apply_preset(app, key)
        if start.collidepoint(event.pos):
            app.start_screen = False


def _cycle() -> list[str]:
    from ..play import controllers as ctl
    kinds = ctl.kinds()
    order = ["human", "ai"] + [k for k in ("ai-easy", "ai-hard") if k in kinds]
    return order


def _toggle(app, side: str) -> None:
    kind = app.players.kinds.get(side, "human")
    order = _cycle()
    i = order.index(kind) if kind in order else 0
    app.players.set_side(side, order[(i + 1) % len(order)])


def _blit_centred(screen, surf, cx, y) -> None:
    screen.blit(surf, (cx - surf.get_width() // 2, y))


def draw_start(app, screen) -> None:
    fonts = app.fonts
    state = choice(app)
    screen.fill(theme.BACKGROUND)
    view = screen.subsurface(app.map_rect)
    app.map_layer.draw(view, app.camera, None)
    shade = pygame.Surface(screen.get_size(), pygame.SRCALPHA)
    shade.fill((10, 10, 14, 200))
    screen.blit(shade, (0, 0))
    box, pickers, rows, presets, start, preview = _layout(app)
    pygame.draw.rect(screen, theme.PANEL_BG, box, border_radius=12)
    pygame.draw.rect(screen, theme.PANEL_EDGE, box, 2, border_radius=12)
    y = box.y + 18
    _blit_centred(screen, fonts.render(fonts.fit(app.title, box.w - 60, 26, True), 26, theme.PANEL_HEAD, True),
                  box.centerx, y)
    y += 40
    notes = app.battle.map.reading_notes()
    for text in fonts.wrap(app.description, box.w - 80, 14)[:2 if notes else 3]:
        _blit_centred(screen, fonts.render(text, 14, theme.PANEL_TEXT), box.centerx, y)
        y += 19
    if notes:  # how a map made for another game was read (or that nothing was)
        from ..client.describe import map_reading
        text = fonts.wrap(map_reading(app.battle.map), box.w - 80, 12)[0]
        _blit_centred(screen, fonts.render(text, 12, theme.PANEL_ACCENT), box.centerx, y)
    rs = app.battle.ruleset
    short = rs.name.split(" (")[0]              # "Basic Fantasy (Encounter and Combat Rules)": the part before the brackets
    values = {"battle": app.title, "ruleset": f"{short} [{rs.id}]" + ("" if state.ruleset_index else ", the battle's own")}
    labels = {"battle": "Battle (B)", "ruleset": "Rules (R)"}
    for key, rect in pickers:
        label = fonts.render(labels[key], 15, theme.PANEL_HEAD, True)
        screen.blit(label, (box.x + 40, rect.centery - label.get_height() // 2))
        pygame.draw.rect(screen, (52, 56, 70), rect, border_radius=6)
        pygame.draw.rect(screen, theme.PANEL_EDGE, rect, 1, border_radius=6)
        text = fonts.render(fonts.fit(f"‹ {values[key]} ›", rect.w - 16, 14, True), 14, (255, 255, 255), True)
        screen.blit(text, text.get_rect(center=rect.center))
    head_y = pickers[-1][1].bottom + 10
    screen.blit(fonts.render("Who plays each side? (click, or its number)", 15, theme.PANEL_HEAD, True),
                (box.x + 40, head_y))
    for i, (side, rect) in enumerate(rows):
        count = sum(1 for f in app.battle.figures.values() if f.side == side)
        pygame.draw.circle(screen, theme.side_colour(side), (box.x + 52, rect.centery), 9)
        label = fonts.render(fonts.fit(f"{i + 1}. {side} ({count} figures)", rect.x - box.x - 80, 15, True), 15,
                             theme.PANEL_TEXT, True)
        screen.blit(label, (box.x + 68, rect.centery - label.get_height() // 2))
        human = app.players.human_side(side)
        pygame.draw.rect(screen, (40, 90, 60) if human else (90, 50, 90), rect, border_radius=6)
        pygame.draw.rect(screen, theme.PANEL_EDGE, rect, 1, border_radius=6)
        text = fonts.render(fonts.fit("Person" if human else app.players.name(side), rect.w - 10, 15, True), 15,
                            (255, 255, 255), True)
        screen.blit(text, text.get_rect(center=rect.center))
    for key, rect in presets:
        pygame.draw.rect(screen, (52, 56, 70), rect, border_radius=6)
        pygame.draw.rect(screen, theme.PANEL_EDGE, rect, 1, border_radius=6)
        text = fonts.render(fonts.fit(dict(PRESETS)[key], rect.w - 8, 14, True), 14, theme.PANEL_TEXT, True)
        screen.blit(text, text.get_rect(center=rect.center))
    if preview.w > 60 and preview.h > 60:
        _draw_preview(screen, app, state, preview)
    pygame.draw.rect(screen, (60, 120, 200), start, border_radius=8)
    text = fonts.render("Start (Enter)", 18, (255, 255, 255), True)
    screen.blit(text, text.get_rect(center=start.center))
    note = "B / R: next battle / ruleset (Shift: back) · a side's button cycles person, AI, easy AI, hard AI"
    _blit_centred(screen, fonts.render(fonts.fit(note, box.w - 40, 12), 12, theme.PANEL_DIM), box.centerx,
                  start.y - 20)


def _draw_preview(screen, app, state: StartChoice, rect) -> None:
    """The whole map, shrunk to fit, every figure a dot in its side's colour."""
    bmap = app.battle.map
    key = (id(bmap), rect.size)
    if state.preview is None or state.preview[0] != key:
        state.preview = (key, _preview_surface(app, bmap, rect.size))
    surf, scale = state.preview[1]
    at = surf.get_rect(center=rect.center)
    pygame.draw.rect(screen, theme.PANEL_EDGE, at.inflate(4, 4), 1)
    screen.blit(surf, at)
    if scale:
        for f in app.battle.figures.values():
            for cx, cy in f.cells:
                centre = (at.x + int((cx + 0.5) * scale), at.y + int((cy + 0.5) * scale))
                pygame.draw.circle(screen, theme.side_colour(f.side), centre, max(2, int(scale * 0.4)))
                pygame.draw.circle(screen, (15, 15, 20), centre, max(2, int(scale * 0.4)), 1)
    words = f"map {bmap.width} x {bmap.height} squares ({bmap.width * 5} x {bmap.height * 5} ft)"
    label = app.fonts.render(app.fonts.fit(words, rect.w, 12), 12, theme.PANEL_DIM)
    screen.blit(label, (rect.centerx - label.get_width() // 2, at.bottom + 6))


def _preview_surface(app, bmap, size):
    """(surface, pixels per square) of the map shrunk into `size`; a plain box for maps too big to draw."""
    w, h = size
    h -= 22                                       # room for the size line under it
    if max(bmap.width, bmap.height) > PREVIEW_MAX_SQUARES:
        surf = pygame.Surface((w, max(20, h)))
        surf.fill(theme.FLOOR)
        return surf, 0
    from .maplayer import MapLayer, tile_art_for
    cell = next((c for c in ZOOM_LEVELS if c * bmap.width >= w and c * bmap.height >= h), ZOOM_LEVELS[-1])
    cell = max(ZOOM_LEVELS[0], min(cell, 32))
    full = pygame.Surface((bmap.width * cell, bmap.height * cell))
    full.fill(theme.BACKGROUND)
    layer = MapLayer(bmap, tile_art_for(app.scenario))
    layer.fonts = app.fonts
    layer.show_markers = False
    cam = Camera(full.get_width(), full.get_height(), bmap.width, bmap.height, cell=cell)
    cam.ox = cam.oy = 0
    layer.draw(full, cam, None)
    scale = min(w / bmap.width, h / bmap.height)
    out = pygame.transform.smoothscale(full, (max(1, int(bmap.width * scale)), max(1, int(bmap.height * scale))))
    return out, scale
