"""Figures as tokens: side colour, facing wedge, name, hit points, altitude and conditions.

What a token shows comes from the resolver's status (`Look.of(battle.status(id))`). A fallen
figure is drawn as a body lying on its square, beneath anyone standing there; flyers float
above a ground shadow. A figure bigger than a square stands on a plate covering every square of
its body (a square body's token sits in its middle, a long body's on its front square). Tokens are drawn once per look into sprites and blitted every frame.
"""
from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass

from ..core.values.bodies import offsets
from . import theme

CONDITION_BADGES = {"prone": ("P", (150, 110, 60)), "stunned": ("S", (200, 170, 30)), "set": ("⚑", (90, 90, 160)),
                    "defending": ("D", (60, 130, 160)), "aiming": ("A", (110, 160, 60)),
                    "held": ("H", (60, 120, 120)), "surprised": ("!", (180, 120, 40)),
                    "pinned": ("X", (120, 60, 120)), "routed": ("R", (170, 60, 60))}
MAX_LIFT_FT = 60
NAMES_FROM_CELL = 32    # below this square size only emphasised tokens (selected, current, hovered) show names
SPRITE_CELLS = 4        # a token's sprite is this many squares wide, and at least NAME_PX + a margin
NAME_PX = 170           # a name tag may be this wide before it is cut with an ellipsis


@dataclass(frozen=True)
class Look:
    """What a token shows of a figure's state."""
    hp: int
    max_hp: int
    conditions: tuple[str, ...]
    able: bool

    @classmethod
    def of(cls, status) -> "Look":
        return cls(status.hp, status.max_hp, tuple(status.conditions), status.able)

    @property
    def fled(self) -> bool:
        return "fled" in self.conditions


RIDER_SCALE = 0.62     # a rider's token is this much of its size on foot


def token_centre(camera, fig, pose=None) -> tuple[int, int, int]:
    """Screen centre of the token (raised for flyers) and the lift in pixels; `pose` overrides
    where it stands ((x, y, facing, altitude) while it walks)."""
    c = camera.cell
    x, y, altitude = (fig.x, fig.y, fig.altitude_ft) if pose is None else (pose[0], pose[1], pose[3])
    mid = body_middle(fig)
    cx, cy = camera.to_screen(x + 0.5 + mid, y + 0.5 + mid)
    lift = int(min(altitude, MAX_LIFT_FT) / MAX_LIFT_FT * c * 0.45) if altitude else 0
    return cx, cy - lift, lift


def draw_figure(screen, centre, cell: int, fonts, fig, look: Look, selected: bool = False, current: bool = False,
                highlighted: bool = False, ghost: bool = False, named: bool = True, riding: bool = False,
                ridden: bool = False) -> None:
    """Draw a token with its (anchor) square's centre at `centre`; a rider (`riding`) smaller, on its
    mount's front square, and a ridden mount's token on its hindmost square, so both read at once."""
    import pygame
    c = cell
    gx, gy = centre
    colour = theme.side_colour(fig.side)
    if look.fled:
        return
    if fig.big:
        draw_footprint(screen, gx, gy, c, fig, colour, look.able, selected or current)
        mid = int(round(body_middle(fig) * c))
        gx, gy = gx + mid, gy + mid
        if ridden and look.able and fig.footprint[0] == 1:      # the rider sits on the front square
            tail_x, tail_y = offsets(fig.facing, fig.footprint)[-1]
            gx, gy = gx + tail_x * c, gy + tail_y * c
    lift = int(min(fig.altitude_ft, MAX_LIFT_FT) / MAX_LIFT_FT * c * 0.45) if fig.altitude_ft else 0
    cx, cy = gx, gy - lift
    radius = max(3, int(c * (0.46 if fig.size in ("large", "giant") else 0.38) * body_scale(fig)))
    if riding:
        radius = max(3, int(radius * RIDER_SCALE))
        cy -= max(1, c // 10)     # sits up on the saddle, over the mount's own token
    if not look.able:
        _draw_body(screen, gx, gy, radius, c, colour, fonts, fig, named)
        return
    if lift:
        shadow = pygame.Rect(0, 0, int(radius * 1.6), max(2, int(radius * 0.6)))
        shadow.center = (gx, gy + c // 5)
        pygame.draw.ellipse(screen, (40, 40, 40), shadow)
        pygame.draw.line(screen, (40, 40, 40), (gx, gy + c // 5), (cx, cy + radius), 1)
    if current:
        pygame.draw.circle(screen, theme.HIGHLIGHT, (cx, cy), radius + max(3, c // 10), max(2, c // 16))
    if highlighted:
        pygame.draw.circle(screen, theme.INVOLVED, (cx, cy), radius + max(5, c // 7), max(2, c // 14))
    if "prone" in look.conditions:
        rect = pygame.Rect(0, 0, radius * 2, int(radius * 1.1))
        rect.center = (cx, cy + radius // 3)
        pygame.draw.ellipse(screen, colour, rect)
        pygame.draw.ellipse(screen, (15, 15, 20), rect, max(1, c // 20))
    else:
        pygame.draw.circle(screen, theme.darker(colour, 0.45), (cx + 1, cy + 2), radius)
        pygame.draw.circle(screen, colour, (cx, cy), radius)
        pygame.draw.circle(screen, theme.lighter(colour, 45), (cx - radius // 4, cy - radius // 4), max(1, radius // 3))
        pygame.draw.circle(screen, (15, 15, 20), (cx, cy), radius, max(1, c // 20))
        if riding:      # a light rim sets the rider apart from the mount's plate beneath it
            pygame.draw.circle(screen, (240, 240, 240), (cx, cy), radius + 1, max(1, c // 24))
    if selected:
        pygame.draw.circle(screen, theme.SELECT, (cx, cy), radius + max(2, c // 14), max(2, c // 14))
    draw_wedge(screen, cx, cy, fig.facing, radius, c)
    if ghost:
        return
    small = max(11, min(14, c // 3))
    if c >= 20:
        initial = fonts.render(_initials(fig.label), max(9, int(radius * 0.75)), (255, 255, 255), True)
        screen.blit(initial, initial.get_rect(center=(cx, cy)))
    below = cy + radius + 2  # under the token: the hit point bar, then the name
    if look.max_hp and c >= 12:
        bw, bh = max(10, int(radius * 2.2)), max(4, c // 9)
        bar = pygame.Rect(cx - bw // 2, below, bw, bh)
        pygame.draw.rect(screen, theme.HP_BACK, bar)
        frac = max(0.0, min(1.0, look.hp / look.max_hp))
        fill = theme.HP_GOOD if frac > 0.5 else theme.HP_MID if frac > 0.25 else theme.HP_BAD
        pygame.draw.rect(screen, fill, (bar.x, bar.y, int(bw * frac), bh))
        pygame.draw.rect(screen, (10, 10, 10), bar, 1)
        below = bar.bottom + 1
    if fig.altitude_ft:
        surf = fonts.render(f"{fig.altitude_ft} ft", small, (255, 255, 255), True)
        rect = surf.get_rect(midbottom=(cx, cy - radius - 2))
        pygame.draw.rect(screen, theme.ALTITUDE_TAG, rect.inflate(6, 2), border_radius=4)
        screen.blit(surf, rect)
    if named and c >= 12:
        _name_tag(screen, fonts, fig.label, (gx, max(below, gy + c // 5 + 3) if lift else below), small, c)
    badges = [k for k in look.conditions if k in CONDITION_BADGES]
    if badges and c >= 16:
        x, y = cx + radius - 2, cy - radius
        for cond in badges[:4]:
            text, back = CONDITION_BADGES[cond]
            surf = fonts.render(text, small, (255, 255, 255), True)
            r = max(surf.get_width(), surf.get_height()) // 2 + 2
            pygame.draw.circle(screen, back, (x, y), r)
            pygame.draw.circle(screen, (10, 10, 10), (x, y), r, 1)
            screen.blit(surf, surf.get_rect(center=(x, y)))
            y += 2 * r + 1


def body_middle(fig) -> float:
    """Squares from the anchor's centre to where the token stands (a square body's middle)."""
    across, along = fig.footprint
    return (across - 1) / 2 if across == along else 0.0


def body_scale(fig) -> float:
    """How much bigger the token is drawn: a square body's token fills its middle."""
    across, along = fig.footprint
    return 0.5 + across / 2 if across == along and across > 1 else 1.0


def draw_footprint(screen, gx, gy, c: int, fig, colour, able: bool, emphasised: bool) -> None:
    """The squares a big body covers, as a plate in its side's colour with a rim around the body
    (a long body: darker toward its tail), so its size and facing read at a glance."""
    import pygame
    rel = offsets(fig.facing, fig.footprint)
    fill = theme.darker(colour, 0.55 if able else 0.3)
    inset = max(1, c // 12)
    for k, (dx, dy) in enumerate(rel):
        rect = pygame.Rect(gx - c // 2 + dx * c + inset, gy - c // 2 + dy * c + inset, c - 2 * inset, c - 2 * inset)
        shade = fill if fig.footprint[0] == fig.footprint[1] else theme.darker(fill, 1 - 0.15 * k)
        pygame.draw.rect(screen, shade, rect, border_radius=max(2, c // 6))
    xs = [dx for dx, _ in rel]
    ys = [dy for _, dy in rel]
    if min(xs) != max(xs) or min(ys) != max(ys):
        if fig.footprint[0] == fig.footprint[1] or min(xs) == max(xs) or min(ys) == max(ys):
            rim = pygame.Rect(gx - c // 2 + min(xs) * c, gy - c // 2 + min(ys) * c,
                              (max(xs) - min(xs) + 1) * c, (max(ys) - min(ys) + 1) * c)
            pygame.draw.rect(screen, theme.SELECT if emphasised else (15, 15, 20), rim, max(1, c // 16),
                             border_radius=max(2, c // 5))
        else:   # a diagonal chain: a rim around each square, joined along the body
            points = [(gx + dx * c, gy + dy * c) for dx, dy in rel]
            pygame.draw.lines(screen, theme.darker(colour, 0.8), False, points, max(2, c // 3))
            for dx, dy in rel:
                rect = pygame.Rect(gx - c // 2 + dx * c, gy - c // 2 + dy * c, c, c)
                pygame.draw.rect(screen, theme.SELECT if emphasised else (15, 15, 20), rect, max(1, c // 20),
                                 border_radius=max(2, c // 5))


def _draw_body(screen, gx, gy, radius, c, colour, fonts, fig, named) -> None:
    """A fallen figure: a dark body lying across its square with a cross, beneath the living."""
    import pygame
    body = pygame.Rect(0, 0, int(radius * 2.1), max(3, int(radius * 0.9)))
    body.center = (gx, gy + radius // 2)
    pygame.draw.ellipse(screen, theme.darker(colour, 0.5), body)
    pygame.draw.ellipse(screen, (15, 15, 20), body, max(1, c // 24))
    k = max(2, radius // 3)
    mx, my = body.center
    pygame.draw.line(screen, (230, 230, 230), (mx - k, my - k // 2), (mx + k, my + k // 2), max(1, c // 20))
    pygame.draw.line(screen, (230, 230, 230), (mx - k, my + k // 2), (mx + k, my - k // 2), max(1, c // 20))
    if named and c >= 24:
        _name_tag(screen, fonts, fig.label, (gx, body.bottom + 1), max(10, min(12, c // 4)), c, dim=True)


def _name_tag(screen, fonts, text: str, midtop, size: int, cell: int, dim: bool = False) -> None:
    import pygame
    width = max(NAME_PX, int(cell * (SPRITE_CELLS - 0.3)) - 8)
    name = fonts.render(fonts.fit(text, width, size, True, keep=2), size, (170, 170, 170) if dim else (255, 255, 255), True)
    rect = name.get_rect(midtop=midtop)
    pygame.draw.rect(screen, (20, 20, 24), rect.inflate(6, 0), border_radius=4)
    screen.blit(name, rect)


def draw_wedge(screen, cx, cy, facing: int, radius: int, cell: int) -> None:
    import pygame
    ang = math.radians(facing * 45)
    tip = (cx + math.sin(ang) * radius * 1.5, cy - math.cos(ang) * radius * 1.5)
    spread = math.radians(32)
    base = radius * 0.8
    left = (cx + math.sin(ang - spread) * base, cy - math.cos(ang - spread) * base)
    right = (cx + math.sin(ang + spread) * base, cy - math.cos(ang + spread) * base)
    pygame.draw.polygon(screen, (255, 255, 255), (tip, left, right))
    pygame.draw.polygon(screen, (15, 15, 20), (tip, left, right), max(1, cell // 24))


def _initials(label: str) -> str:
    # a name told apart by its id ("Foot soldier (red2)") keeps the name's initials
    # only printable characters make initials (a name from a file may hold escapes, bidi overrides)
    words = ["".join(filter(str.isprintable, w)) for w in label.replace("_", " ").split() if not w.startswith("(")]
    words = [w for w in words if w]
    if not words:
        return "?"
    if len(words) == 1:
        return words[0][:2].title()
    return (words[0][0] + words[-1][0]).upper()


class TokenSprites:
    """Tokens drawn once per look (figure, state, zoom, rings) and blitted every frame."""

    def __init__(self, max_items: int = 800):
        self._cache: OrderedDict = OrderedDict()
        self._max = max_items

    def draw(self, screen, centre, cell: int, fonts, fig, look: Look, **flags) -> None:
        sprite, dx, dy = self.sprite(cell, fonts, fig, look, **flags)
        screen.blit(sprite, (centre[0] + dx, centre[1] + dy))

    def sprite(self, cell: int, fonts, fig, look: Look, **flags):
        """(surface, dx, dy): the token drawn once, and where its top-left lies from the square's centre."""
        import pygame
        key = (fig, cell, look, tuple(sorted(flags.items())))
        entry = self._cache.get(key)
        if entry is None:
            half = max(SPRITE_CELLS * cell, NAME_PX + 20) // 2 + (max(fig.footprint) - 1) * cell
            canvas = pygame.Surface((2 * half, 2 * half), pygame.SRCALPHA)
            draw_figure(canvas, (half, half), cell, fonts, fig, look, **flags)
            # Keep only the drawn part: a blit costs what it covers, and a token is mostly empty.
            used = canvas.get_bounding_rect()
            sprite = canvas.subsurface(used).copy()
            sprite.set_alpha(255, pygame.RLEACCEL)
            entry = (sprite, used.x - half, used.y - half)
            self._cache[key] = entry
            if len(self._cache) > self._max:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        return entry
