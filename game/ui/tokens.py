"""Figures as tokens: side colour, facing wedge, name, hit points, altitude and conditions.

Hit points and conditions come from the resolver (Battle.status(id)) when it has them,
otherwise from the figure's scenario stats (hp, hp_max, conditions); a figure with neither
shows no bar.
"""
from __future__ import annotations

import math

from . import theme

CONDITION_BADGES = {"prone": ("P", (150, 110, 60)), "stunned": ("S", (200, 170, 30)), "set": ("⚑", (90, 90, 160)),
                    "defending": ("D", (60, 130, 160)), "aiming": ("A", (110, 160, 60)), "dead": ("✝", (30, 30, 30)),
                    "unconscious": ("U", (90, 60, 110)), "fled": ("F", (120, 120, 120)), "held": ("H", (60, 120, 120))}
MAX_LIFT_FT = 60


def status_of(battle, fig) -> dict:
    """hp, hp_max and conditions of a figure, from the resolver when it reports them."""
    out = {"hp": None, "hp_max": None, "conditions": []}
    stats = getattr(fig, "stats", None) or {}
    for key in ("hp", "hit_points"):
        if isinstance(stats.get(key), (int, float)):
            out["hp"] = stats[key]
    for key in ("hp_max", "max_hp"):
        if isinstance(stats.get(key), (int, float)):
            out["hp_max"] = stats[key]
    if isinstance(stats.get("conditions"), (list, tuple)):
        out["conditions"] = list(stats["conditions"])
    fn = getattr(battle, "status", None)
    if callable(fn):
        try:
            st = fn(fig.id)
        except Exception:  # the resolver is still growing: never let the window fall over
            st = None
        if st is not None:
            get = st.get if isinstance(st, dict) else (lambda k, d=None: getattr(st, k, d))
            for key in ("hp", "hit_points"):
                if get(key) is not None:
                    out["hp"] = get(key)
            for key in ("hp_max", "max_hp"):
                if get(key) is not None:
                    out["hp_max"] = get(key)
            conds = get("conditions")
            if conds:
                out["conditions"] = [str(c) for c in conds]
            for flag in ("prone", "stunned", "dead", "unconscious", "set", "defending", "aiming"):
                if get(flag) is True and flag not in out["conditions"]:
                    out["conditions"].append(flag)
    if out["hp"] is not None and out["hp_max"] is None:
        out["hp_max"] = out["hp"]
    return out


def token_centre(camera, fig) -> tuple[int, int, int]:
    """Screen centre of the token (raised for flyers) and the lift in pixels."""
    c = camera.cell
    cx, cy = camera.centre_of(fig.pos)
    lift = int(min(fig.altitude_ft, MAX_LIFT_FT) / MAX_LIFT_FT * c * 0.45) if fig.altitude_ft else 0
    return cx, cy - lift, lift


def draw_figure(screen, camera, fonts, fig, status: dict, selected: bool = False, current: bool = False,
                highlighted: bool = False, ghost: bool = False) -> None:
    import pygame
    c = camera.cell
    cx, cy, lift = token_centre(camera, fig)
    gx, gy = camera.centre_of(fig.pos)
    radius = max(3, int(c * (0.46 if fig.size in ("large", "giant") else 0.38)))
    colour = theme.side_colour(fig.side)
    conditions = status.get("conditions", [])
    if "fled" in conditions:
        return
    down = any(k in conditions for k in ("dead", "unconscious", "down"))
    if lift:
        shadow = pygame.Rect(0, 0, int(radius * 1.6), max(2, int(radius * 0.6)))
        shadow.center = (gx, gy + c // 5)
        pygame.draw.ellipse(screen, (40, 40, 40), shadow)
        pygame.draw.line(screen, (40, 40, 40), (gx, gy + c // 5), (cx, cy + radius), 1)
    if current:
        pygame.draw.circle(screen, theme.HIGHLIGHT, (cx, cy), radius + max(3, c // 10), max(2, c // 16))
    if highlighted:
        pygame.draw.circle(screen, (255, 140, 0), (cx, cy), radius + max(5, c // 7), max(2, c // 14))
    body = theme.darker(colour, 0.55) if down else colour
    if "prone" in conditions:
        rect = pygame.Rect(0, 0, radius * 2, int(radius * 1.1))
        rect.center = (cx, cy + radius // 3)
        pygame.draw.ellipse(screen, body, rect)
        pygame.draw.ellipse(screen, (15, 15, 20), rect, max(1, c // 20))
    else:
        pygame.draw.circle(screen, theme.darker(colour, 0.45), (cx + 1, cy + 2), radius)
        pygame.draw.circle(screen, body, (cx, cy), radius)
        pygame.draw.circle(screen, theme.lighter(colour, 45), (cx - radius // 4, cy - radius // 4), max(1, radius // 3))
        pygame.draw.circle(screen, (15, 15, 20), (cx, cy), radius, max(1, c // 20))
    if selected:
        pygame.draw.circle(screen, theme.SELECT, (cx, cy), radius + max(2, c // 14), max(2, c // 14))
    # Facing wedge: a bright arrowhead on the rim, pointing the way the figure faces.
    draw_wedge(screen, cx, cy, fig.facing, radius, c)
    if ghost:
        return
    small = max(9, min(14, c // 3))
    if c >= 20:
        initial = fonts.render(_initials(fig.label), max(9, int(radius * 0.75)), (255, 255, 255), True)
        screen.blit(initial, initial.get_rect(center=(cx, cy)))
    top = cy - radius - 2
    below = cy + radius + 2  # under the token: the hit point bar, then the name
    hp, hp_max = status.get("hp"), status.get("hp_max")
    if hp is not None and hp_max and c >= 12:
        bw, bh = max(10, int(radius * 2.2)), max(4, c // 9)
        bar = pygame.Rect(cx - bw // 2, below, bw, bh)
        pygame.draw.rect(screen, theme.HP_BACK, bar)
        frac = max(0.0, min(1.0, hp / hp_max))
        fill = theme.HP_GOOD if frac > 0.5 else theme.HP_MID if frac > 0.25 else theme.HP_BAD
        pygame.draw.rect(screen, fill, (bar.x, bar.y, int(bw * frac), bh))
        pygame.draw.rect(screen, (10, 10, 10), bar, 1)
        below = bar.bottom + 1
    if fig.altitude_ft:
        surf = fonts.render(f"{fig.altitude_ft} ft", small, (255, 255, 255), True)
        rect = surf.get_rect(midbottom=(cx, top))
        pygame.draw.rect(screen, (60, 40, 110), rect.inflate(6, 2), border_radius=4)
        screen.blit(surf, rect)
    if c >= 24:
        size = small if c >= 48 else max(9, small - 2)
        name = fonts.render(_fit(fonts, fig.label, size, int(c * 0.98) - 6), size, (255, 255, 255), True)
        rect = name.get_rect(midtop=(gx, max(below, gy + c // 5 + 3) if lift else below))
        back = pygame.Rect(rect.inflate(6, 0))
        pygame.draw.rect(screen, (20, 20, 24), back, border_radius=4)
        screen.blit(name, rect)
    if conditions and c >= 16:
        x = cx + radius - 2
        y = cy - radius
        for cond in conditions[:4]:
            text, back = CONDITION_BADGES.get(cond, (cond[:1].upper(), (100, 100, 100)))
            surf = fonts.render(text, small, (255, 255, 255), True)
            r = max(surf.get_width(), surf.get_height()) // 2 + 2
            pygame.draw.circle(screen, back, (x, y), r)
            pygame.draw.circle(screen, (10, 10, 10), (x, y), r, 1)
            screen.blit(surf, surf.get_rect(center=(x, y)))
            y += 2 * r + 1


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


def _fit(fonts, text: str, size: int, width: int) -> str:
    if fonts.size(text, size, True)[0] <= width:
        return text
    while len(text) > 2 and fonts.size(text + "…", size, True)[0] > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _initials(label: str) -> str:
    words = [w for w in label.replace("_", " ").split() if w]
    if not words:
        return "?"
    if len(words) == 1:
        return words[0][:2].title()
    return (words[0][0] + words[-1][0]).upper()


class _SpriteCamera:
    """Stands in for the camera while a token is drawn into its own sprite."""

    def __init__(self, cell: int):
        self.cell = cell

    def centre_of(self, square):
        return (2 * self.cell, 2 * self.cell)


class TokenSprites:
    """Tokens drawn once per look (figure state, status, zoom, rings) and blitted every frame."""

    def __init__(self, max_items: int = 800):
        from collections import OrderedDict
        self._cache = OrderedDict()
        self._max = max_items

    def draw(self, screen, camera, fonts, fig, status: dict, **flags) -> None:
        import pygame
        c = camera.cell
        key = (fig, c, status.get("hp"), status.get("hp_max"), tuple(status.get("conditions", ())),
               tuple(sorted(flags.items())))
        sprite = self._cache.get(key)
        if sprite is None:
            sprite = pygame.Surface((4 * c, 4 * c), pygame.SRCALPHA)
            draw_figure(sprite, _SpriteCamera(c), fonts, fig, status, **flags)
            self._cache[key] = sprite
            if len(self._cache) > self._max:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        gx, gy = camera.centre_of(fig.pos)
        screen.blit(sprite, (gx - 2 * c, gy - 2 * c))
