"""Draw fivefoot's tileset: assets/fivefoot_tiles.png and assets/fivefoot.tsx.

Run from anywhere: `python assets/make_tileset.py` (headless: no window opens).
Each tile is 32x32 px. Ground tiles are opaque; feature tiles (trees, doors, fog...)
are transparent around the feature so they sit on a ground layer. The .tsx carries the
fivefoot square properties of each tile (see maps/README.md), and gives every tile the
class `terrain`, so a tile placed as a tile object also counts.
"""
from __future__ import annotations

import math
import os
import random
from pathlib import Path
from xml.sax.saxutils import quoteattr

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

HERE = Path(__file__).resolve().parent
SIZE = 32
COLUMNS = 8

# name, square properties (as Tiled typed properties: bool / string / int)
TILES = [
    ("floor", {}),
    ("wall", {"wall": True}),
    ("tree", {"blocks_move": True, "cover": "1/2", "height": 30}),
    ("brush", {"concealment": "1/4", "difficult": True}),
    ("fog", {"concealment": "1/2"}),
    ("water", {"water": True}),
    ("low_wall", {"cover": "1/2", "difficult": True, "height": 3}),
    ("door", {"door": True}),
    ("closed_door", {"door": True, "blocks_move": True, "blocks_sight": True, "cover": "full", "height": 10}),
    ("stairs", {}),
    ("rubble", {"difficult": True}),
    ("cliff", {}),
    ("grass", {}),
    ("road", {}),
    ("hedge", {"blocks_sight": True, "difficult": True, "cover": "1/4", "height": 5}),
    ("boulder", {"blocks_move": True, "cover": "3/4", "height": 6}),
    ("parapet", {"cover": "1/2", "difficult": True, "height": 4}),
    ("wall_walk", {}),
    ("sand", {}),
    ("mesa", {}),
    ("pillar", {"wall": True}),
    ("gate", {"door": True}),
    ("mud", {"difficult": True}),
    ("reeds", {"water": True, "difficult": True, "concealment": "1/4"}),
]
TILE_ID = {name: index for index, (name, _) in enumerate(TILES)}


def speckle(surface, rng, base, spread, count, size=1):
    for _ in range(count):
        shade = max(0, min(255, base + rng.randint(-spread, spread)))
        colour = surface.get_at((0, 0))
        tint = (
            max(0, min(255, colour.r + shade - base)),
            max(0, min(255, colour.g + shade - base)),
            max(0, min(255, colour.b + shade - base)),
        )
        x, y = rng.randrange(SIZE), rng.randrange(SIZE)
        pygame.draw.rect(surface, tint, (x, y, size, size))


def ground(colour, rng, spread=14, count=90):
    tile = pygame.Surface((SIZE, SIZE), pygame.SRCALPHA)
    tile.fill(colour)
    speckle(tile, rng, 128, spread, count)
    return tile


def clear():
    return pygame.Surface((SIZE, SIZE), pygame.SRCALPHA)


def draw_floor(rng):
    tile = ground((92, 90, 86), rng, 10)
    line = (64, 62, 60)
    for y in (0, 16):
        pygame.draw.line(tile, line, (0, y), (SIZE, y))
    for x, y0 in ((0, 0), (16, 0), (8, 16), (24, 16)):
        pygame.draw.line(tile, line, (x, y0), (x, y0 + 15))
    return tile


def draw_wall(rng):
    tile = ground((70, 58, 50), rng, 8, 40)
    mortar = (40, 34, 30)
    for row in range(4):
        y = row * 8
        pygame.draw.line(tile, mortar, (0, y), (SIZE, y), 2)
        shift = 0 if row % 2 == 0 else 8
        for x in range(shift, SIZE + 16, 16):
            pygame.draw.line(tile, mortar, (x, y), (x, y + 7), 2)
    pygame.draw.rect(tile, (30, 25, 22), (0, 0, SIZE, SIZE), 1)
    return tile


def draw_tree(rng):
    tile = clear()
    pygame.draw.circle(tile, (20, 50, 20, 120), (17, 18), 15)  # shadow
    for dx, dy, r, c in ((-5, -3, 9, (34, 96, 38)), (5, -4, 9, (40, 110, 42)), (0, 5, 10, (30, 88, 34)),
                         (0, -1, 8, (52, 128, 50))):
        pygame.draw.circle(tile, c, (16 + dx, 16 + dy), r)
    pygame.draw.circle(tile, (92, 60, 34), (16, 16), 4)  # trunk, seen from above
    pygame.draw.circle(tile, (60, 38, 20), (16, 16), 4, 1)
    return tile


def draw_brush(rng):
    tile = clear()
    for _ in range(9):
        x, y = rng.randint(6, 26), rng.randint(6, 26)
        pygame.draw.circle(tile, (58 + rng.randint(-10, 10), 96 + rng.randint(-12, 12), 40), (x, y), rng.randint(4, 6))
    for _ in range(14):
        x, y = rng.randint(4, 28), rng.randint(4, 28)
        pygame.draw.line(tile, (90, 130, 60), (x, y), (x + rng.randint(-2, 2), y - 3))
    return tile


def draw_fog(rng):
    tile = clear()
    for _ in range(7):
        x, y = rng.randint(4, 28), rng.randint(4, 28)
        pygame.draw.circle(tile, (225, 228, 235, 70), (x, y), rng.randint(7, 11))
    return tile


def draw_water(rng):
    tile = ground((40, 86, 150), rng, 10, 50)
    for y in (6, 14, 22, 30):
        points = [(x, y + round(2 * math.sin((x + y) / 4))) for x in range(0, SIZE + 1, 4)]
        pygame.draw.lines(tile, (90, 140, 200), False, points)
    return tile


def draw_low_wall(rng):
    tile = clear()
    pygame.draw.rect(tile, (40, 36, 32, 110), (0, 14, SIZE, 10))
    for x in range(0, SIZE, 8):
        shade = 120 + rng.randint(-15, 15)
        pygame.draw.rect(tile, (shade, shade - 6, shade - 14), (x + 1, 11, 7, 9), border_radius=2)
    return tile


def draw_door(rng, closed: bool):
    tile = clear()
    wood, band = (128, 84, 44), (50, 44, 40)
    if closed:
        pygame.draw.rect(tile, wood, (2, 8, 28, 16))
        for x in range(2, 30, 5):
            pygame.draw.line(tile, (96, 62, 32), (x, 8), (x, 23))
        pygame.draw.line(tile, band, (2, 11), (29, 11), 2)
        pygame.draw.line(tile, band, (2, 20), (29, 20), 2)
        pygame.draw.rect(tile, (40, 30, 20), (2, 8, 28, 16), 1)
    else:
        pygame.draw.rect(tile, (60, 52, 46), (0, 12, 3, 8))   # jambs
        pygame.draw.rect(tile, (60, 52, 46), (29, 12, 3, 8))
        pygame.draw.polygon(tile, wood, [(3, 13), (7, 13), (16, 28), (12, 29)])  # leaf swung open
        pygame.draw.polygon(tile, band, [(3, 13), (7, 13), (16, 28), (12, 29)], 1)
    return tile


def draw_stairs(rng):
    tile = ground((110, 106, 98), rng, 6, 30)
    for i, y in enumerate(range(2, SIZE, 6)):
        shade = 150 - i * 14
        pygame.draw.rect(tile, (shade, shade - 4, shade - 10), (2, y, 28, 4))
        pygame.draw.line(tile, (50, 46, 42), (2, y + 4), (29, y + 4))
    return tile


def draw_rubble(rng):
    tile = clear()
    for _ in range(11):
        x, y, r = rng.randint(3, 28), rng.randint(3, 28), rng.randint(2, 5)
        shade = 110 + rng.randint(-25, 25)
        pygame.draw.circle(tile, (shade, shade - 5, shade - 12), (x, y), r)
        pygame.draw.circle(tile, (50, 46, 42), (x, y), r, 1)
    return tile


def draw_cliff(rng):
    tile = ground((128, 92, 62), rng, 12, 60)
    for _ in range(6):
        x = rng.randint(0, SIZE)
        pygame.draw.line(tile, (80, 56, 38), (x, 0), (x + rng.randint(-6, 6), SIZE), 2)
    pygame.draw.line(tile, (170, 130, 92), (0, 1), (SIZE, 1), 2)
    return tile


def draw_grass(rng):
    tile = ground((74, 128, 58), rng, 12, 70)
    for _ in range(18):
        x, y = rng.randint(0, 31), rng.randint(3, 31)
        pygame.draw.line(tile, (52, 104, 44), (x, y), (x + rng.randint(-1, 1), y - 3))
    return tile


def draw_road(rng):
    tile = ground((156, 128, 90), rng, 14, 90)
    for x in (9, 23):
        pygame.draw.line(tile, (128, 102, 70), (x, 0), (x, SIZE), 2)
    return tile


def draw_hedge(rng):
    tile = clear()
    pygame.draw.rect(tile, (28, 70, 30), (0, 6, SIZE, 20), border_radius=6)
    for _ in range(16):
        x, y = rng.randint(2, 30), rng.randint(8, 24)
        pygame.draw.circle(tile, (40 + rng.randint(0, 20), 92 + rng.randint(-10, 10), 40), (x, y), 3)
    return tile


def draw_boulder(rng):
    tile = clear()
    pygame.draw.ellipse(tile, (30, 30, 30, 110), (5, 10, 26, 18))
    pygame.draw.ellipse(tile, (128, 124, 118), (3, 5, 26, 21))
    pygame.draw.ellipse(tile, (160, 156, 150), (8, 8, 12, 8))
    pygame.draw.ellipse(tile, (70, 68, 64), (3, 5, 26, 21), 1)
    return tile


def draw_parapet(rng):
    tile = clear()
    pygame.draw.rect(tile, (104, 100, 94), (0, 0, 8, SIZE))
    for y in range(0, SIZE, 10):
        pygame.draw.rect(tile, (140, 136, 128), (0, y, 12, 6))
        pygame.draw.rect(tile, (60, 58, 54), (0, y, 12, 6), 1)
    return tile


def draw_wall_walk(rng):
    tile = ground((150, 142, 126), rng, 8, 40)
    for x in range(0, SIZE, 8):
        pygame.draw.line(tile, (112, 104, 90), (x, 0), (x, SIZE))
    return tile


def draw_sand(rng):
    return ground((204, 178, 128), rng, 18, 120)


def draw_mesa(rng):
    tile = ground((170, 104, 70), rng, 14, 80)
    for _ in range(3):
        x, y = rng.randint(0, 31), rng.randint(0, 31)
        pygame.draw.line(tile, (120, 70, 46), (x, y), (x + rng.randint(-8, 8), y + rng.randint(-8, 8)))
    return tile


def draw_pillar(rng):
    tile = clear()
    pygame.draw.circle(tile, (30, 30, 30, 110), (18, 18), 12)
    pygame.draw.circle(tile, (120, 116, 108), (16, 16), 11)
    pygame.draw.circle(tile, (156, 152, 144), (13, 13), 5)
    pygame.draw.circle(tile, (60, 56, 52), (16, 16), 11, 2)
    return tile


def draw_gate(rng):
    tile = clear()
    pygame.draw.rect(tile, (52, 48, 46), (0, 0, SIZE, 5))
    for x in range(2, SIZE, 6):
        pygame.draw.line(tile, (80, 78, 76), (x, 0), (x, 7), 2)
        pygame.draw.polygon(tile, (80, 78, 76), [(x - 1, 7), (x + 2, 7), (x + 0.5, 10)])
    return tile


def draw_mud(rng):
    tile = ground((104, 80, 52), rng, 12, 70)
    for _ in range(3):
        pygame.draw.ellipse(tile, (76, 60, 44), (rng.randint(0, 20), rng.randint(0, 22), 12, 7))
    return tile


def draw_reeds(rng):
    tile = clear()
    for _ in range(20):
        x, y = rng.randint(2, 29), rng.randint(12, 30)
        pygame.draw.line(tile, (96, 120, 50), (x, y), (x + rng.randint(-2, 2), y - rng.randint(7, 12)))
    return tile


DRAW = {
    "floor": draw_floor, "wall": draw_wall, "tree": draw_tree, "brush": draw_brush, "fog": draw_fog,
    "water": draw_water, "low_wall": draw_low_wall, "door": lambda r: draw_door(r, False),
    "closed_door": lambda r: draw_door(r, True), "stairs": draw_stairs, "rubble": draw_rubble,
    "cliff": draw_cliff, "grass": draw_grass, "road": draw_road, "hedge": draw_hedge, "boulder": draw_boulder,
    "parapet": draw_parapet, "wall_walk": draw_wall_walk, "sand": draw_sand, "mesa": draw_mesa,
    "pillar": draw_pillar, "gate": draw_gate, "mud": draw_mud, "reeds": draw_reeds,
}


def tsx_text(image_name: str, width: int, height: int) -> str:
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<tileset version="1.10" tiledversion="1.10.2" name="fivefoot" tilewidth="{SIZE}" tileheight="{SIZE}" '
        f'tilecount="{len(TILES)}" columns="{COLUMNS}">',
        f' <image source="{image_name}" width="{width}" height="{height}"/>',
    ]
    for index, (name, props) in enumerate(TILES):
        # class "terrain": a tile placed as a tile object, anywhere, still means what the tile means
        lines.append(f" <!-- {name} -->")
        if not props:
            lines.append(f' <tile id="{index}" type="terrain"/>')
            continue
        lines.append(f' <tile id="{index}" type="terrain">')
        lines.append("  <properties>")
        for key, value in props.items():
            kind = "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "string"
            text = str(value).lower() if isinstance(value, bool) else str(value)
            lines.append(f'   <property name="{key}" type="{kind}" value={quoteattr(text)}/>')
        lines.append("  </properties>")
        lines.append(" </tile>")
    lines.append("</tileset>")
    return "\n".join(lines) + "\n"


def main() -> None:
    rows = math.ceil(len(TILES) / COLUMNS)
    sheet = pygame.Surface((COLUMNS * SIZE, rows * SIZE), pygame.SRCALPHA)
    for index, (name, _) in enumerate(TILES):
        rng = random.Random(f"fivefoot-{name}")  # fixed seeds: the PNG is reproducible
        sheet.blit(DRAW[name](rng), ((index % COLUMNS) * SIZE, (index // COLUMNS) * SIZE))
    pygame.image.save(sheet, str(HERE / "fivefoot_tiles.png"))
    (HERE / "fivefoot.tsx").write_text(tsx_text("fivefoot_tiles.png", sheet.get_width(), sheet.get_height()))
    print(f"wrote {HERE / 'fivefoot_tiles.png'} and {HERE / 'fivefoot.tsx'} ({len(TILES)} tiles)")


if __name__ == "__main__":
    main()
