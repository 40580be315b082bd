"""A first window: the map's grid, terrain and figures with facing wedges and altitude labels."""
from __future__ import annotations

import math
import os

SIDE_COLOURS = {"blue": (70, 120, 230), "red": (210, 60, 60), "green": (60, 170, 90), "yellow": (220, 190, 60)}
FLOOR = (214, 204, 180)
GRID = (150, 140, 120)
WALL = (70, 64, 60)
DIFFICULT = (176, 160, 120)
COVER = (120, 150, 90)
FOG = (200, 205, 215)
WATER = (90, 140, 200)


def side_colour(side: str) -> tuple[int, int, int]:
    if side in SIDE_COLOURS:
        return SIDE_COLOURS[side]
    h = sum(map(ord, side))
    return (80 + h * 37 % 150, 80 + h * 59 % 150, 80 + h * 83 % 150)


def draw(surface, scenario, cell: int, font) -> None:
    import pygame
    bmap = scenario.map
    surface.fill((30, 30, 34))
    for y in range(bmap.height):
        for x in range(bmap.width):
            rect = pygame.Rect(x * cell, y * cell, cell, cell)
            colour = FLOOR
            if bmap.blocks_move[y, x] and bmap.blocks_sight[y, x]:
                colour = WALL
            elif bmap.cover[y, x]:
                colour = COVER
            elif bmap.water[y, x]:
                colour = WATER
            elif bmap.difficult[y, x]:
                colour = DIFFICULT
            elif bmap.concealment[y, x]:
                colour = FOG
            elev = int(bmap.elevation_ft[y, x])
            if elev and colour == FLOOR:
                shade = max(0, 40 - elev)
                colour = (170 + shade, 160 + shade, 140 + shade)
            pygame.draw.rect(surface, colour, rect)
            pygame.draw.rect(surface, GRID, rect, 1)
    for fig in scenario.figures:
        cx, cy = fig.x * cell + cell // 2, fig.y * cell + cell // 2
        lift = min(fig.altitude_ft, 60) * cell // 60 // 2
        if fig.altitude_ft:
            pygame.draw.ellipse(surface, (60, 60, 60), (cx - cell // 3, cy - cell // 8, 2 * cell // 3, cell // 4))
        cy -= lift
        radius = cell * 2 // 5
        pygame.draw.circle(surface, side_colour(fig.side), (cx, cy), radius)
        pygame.draw.circle(surface, (20, 20, 20), (cx, cy), radius, 2)
        angle = math.radians(fig.facing * 45)
        tip = (cx + math.sin(angle) * radius * 1.1, cy - math.cos(angle) * radius * 1.1)
        left = (cx + math.sin(angle - 2.5) * radius * 0.5, cy - math.cos(angle - 2.5) * radius * 0.5)
        right = (cx + math.sin(angle + 2.5) * radius * 0.5, cy - math.cos(angle + 2.5) * radius * 0.5)
        pygame.draw.polygon(surface, (250, 250, 250), (tip, left, right))
        label = font.render(fig.label[:10], True, (15, 15, 15))
        surface.blit(label, (cx - label.get_width() // 2, cy + radius))
        if fig.altitude_ft:
            alt = font.render(f"{fig.altitude_ft} ft", True, (250, 250, 250), (40, 40, 40))
            surface.blit(alt, (cx - alt.get_width() // 2, cy - radius - alt.get_height()))


def run(scenario, headless: bool = False, screenshot: str | None = None, frames: int | None = None) -> int:
    if headless:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame
    pygame.init()
    cell = max(16, min(40, 1000 // max(scenario.map.width, 1), 700 // max(scenario.map.height, 1)))
    size = (scenario.map.width * cell, scenario.map.height * cell)
    screen = pygame.display.set_mode(size)
    pygame.display.set_caption(f"fivefoot: {scenario.title} [{scenario.ruleset.id}]")
    font = pygame.font.Font(None, max(14, cell // 2))
    clock = pygame.time.Clock()
    shown = 0
    running = True
    while running:
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
                running = False
        draw(screen, scenario, cell, font)
        pygame.display.flip()
        shown += 1
        if screenshot and shown == 1:
            pygame.image.save(screen, screenshot)
            running = False
        if frames is not None and shown >= frames:
            running = False
        clock.tick(60)
    pygame.quit()
    return 0
