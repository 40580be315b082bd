"""`fivefoot picture`: positions drawn off-screen by the game window itself, written as PNGs or a GIF.

A headless App (the window's own drawing: map, overlays, tokens, panel, tooltip) draws each position
the command worked out (game/commands/picture.py), with the overlays asked for, a figure selected and
the pointer over a square. Below it go a lesson's caption and, with --legend, the legend (legend.py),
each in a band of its own, so neither covers the map. The animated GIF is written by Pillow.
"""
from __future__ import annotations

from pathlib import Path

from ..core.values.errors import RulesError
from . import theme
from .legend import draw_legend, legend_height

CAPTION_SIZE = 15
PAD = 8
LEGEND_SIZE = 12
MIN_VIEW_H = 240


def draw_pictures(request) -> int:
    """Draw the request's positions and write them; 0 when done."""
    import pygame
    from .app import App
    pygame.display.init()
    pygame.font.init()
    try:
        fonts = theme.Fonts()
        width, height = request.size
        caption_h = _caption_height(fonts, request.frames, width)
        legend_h = legend_height(fonts, width, LEGEND_SIZE) if request.legend else 0
        view_h = height - caption_h - legend_h
        if view_h < MIN_VIEW_H:
            raise RulesError(f"--size {width}x{height}: too small for the map with the caption and legend under it; "
                             f"make it at least {height - view_h + MIN_VIEW_H} pixels high")
        first = request.frames[0].battle
        sides = {f.side: "human" for f in first.setup.figures}
        app = App(request.scenario, sides=sides, size=(width, view_h), background=False, battle=first, animate=False)
        wanted = [request.still] if not (request.gif or request.frames_dir) else range(len(request.frames))
        if request.out and request.still not in wanted:
            wanted = sorted(set(wanted) | {request.still})
        pictures = {}
        for i in wanted:
            pictures[i] = _draw(app, request, request.frames[i], fonts, (width, height), caption_h, legend_h)
        _write(request, pictures)
    finally:
        pygame.quit()
    return 0


def _caption_height(fonts, frames, width: int) -> int:
    lines = max((len(fonts.wrap(f.caption, width - 2 * PAD, CAPTION_SIZE)) for f in frames if f.caption), default=0)
    return lines * fonts.size("Ag", CAPTION_SIZE)[1] + 2 * PAD if lines else 0


def _draw(app, request, frame, fonts, size, caption_h: int, legend_h: int):
    """The window's drawing of one position, with the caption and the legend under it."""
    import pygame
    if frame.battle is not app.battle:
        app.install(frame.battle)
    app.frame([])           # the figure whose turn it is is selected, as in play
    for name in list(app.ui.overlays):
        app.set_overlay(name, name in request.overlays)
    if request.select:
        app.select(request.select)
    if request.hover is not None:
        app.frame([pygame.event.Event(pygame.MOUSEMOTION, pos=app.screen_pos(request.hover), rel=(0, 0),
                                      buttons=(0, 0, 0))])
    else:
        app.ui.hover_square = None
    app.ui.picked_event = frame.picked
    app.settle()
    picture = pygame.Surface(size)
    picture.fill(theme.PANEL_BG)
    picture.blit(app.screen, (0, 0))
    top = app.screen.get_height()
    if caption_h:
        rect = pygame.Rect(0, top, size[0], caption_h)
        pygame.draw.rect(picture, theme.PANEL_BG, rect)
        pygame.draw.line(picture, theme.PANEL_EDGE, rect.topleft, rect.topright)
        line_h = fonts.size("Ag", CAPTION_SIZE)[1]
        for n, line in enumerate(fonts.wrap(frame.caption, size[0] - 2 * PAD, CAPTION_SIZE)):
            picture.blit(fonts.render(line, CAPTION_SIZE, theme.PANEL_TEXT), (PAD, top + PAD + n * line_h))
        top += caption_h
    if legend_h:
        draw_legend(picture, fonts, pygame.Rect(0, top, size[0], legend_h))
    return picture


def _write(request, pictures: dict) -> None:
    import pygame
    if request.out:
        Path(request.out).parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(pictures[request.still], request.out)
        print(f"picture: {request.out}")
    ordered = [pictures[i] for i in sorted(pictures)]
    if request.frames_dir:
        folder = Path(request.frames_dir)
        folder.mkdir(parents=True, exist_ok=True)
        digits = max(3, len(str(len(ordered))))
        for n, surface in enumerate(ordered, start=1):
            pygame.image.save(surface, str(folder / f"frame-{n:0{digits}d}.png"))
        print(f"frames: {len(ordered)} in {folder}")
    if request.gif:
        write_gif(ordered, request.gif, request.delay_ms)
        print(f"gif: {request.gif} ({len(ordered)} frames)")


def write_gif(surfaces, path: str, delay_ms: int) -> None:
    """An animated GIF of the surfaces, looping, each frame shown `delay_ms` (Pillow writes it)."""
    import pygame
    from PIL import Image
    frames = []
    for surface in surfaces:
        image = Image.frombytes("RGB", surface.get_size(), pygame.image.tobytes(surface, "RGB"))
        frames.append(image.convert("P", palette=Image.Palette.ADAPTIVE, colors=255))
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=delay_ms, loop=0, disposal=1)
