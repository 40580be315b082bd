"""Rule overlays drawn over the map: every square and number comes from RulesView.

Area overlays (reachable squares, engagement zones, threatened squares) are stamped from
one small pre-drawn square per style and zoom, only for squares on screen (Surface.fblits).
Line overlays (the hovered path, charge lanes, line of sight, parting shots) are small and
drawn each frame.
"""
from __future__ import annotations

import math

import numpy as np

from ..core.geometry import FACINGS
from . import theme

# Switchable overlays: key -> (label, default on)
OVERLAYS = {
    "reach": ("reachable squares (walk / run)", True),
    "path": ("hovered path with step costs", True),
    "zones": ("engagement zones", False),
    "threat": ("threatened squares (foes' reach)", True),
    "lanes": ("charge lanes", True),
    "sight": ("line of sight and cover", True),
    "parting": ("parting shots", True),
    "markers": ("terrain markers (cover, elevation)", True),
    "grid": ("5-ft grid", True),
}
OVERLAY_KEYS = ("reach", "path", "zones", "threat", "lanes", "sight", "parting", "markers", "grid")


class Stamps:
    """One pre-drawn translucent square per overlay style and zoom level."""

    def __init__(self):
        self._cache: dict = {}

    def get(self, style: str, cell: int):
        key = (style, cell)
        surf = self._cache.get(key)
        if surf is None:
            surf = _make_stamp(style, cell)
            self._cache[key] = surf
        return surf


def _make_stamp(style: str, c: int):
    import pygame
    surf = pygame.Surface((c, c), pygame.SRCALPHA)
    if style == "walk":
        surf.fill(theme.REACH_WALK)
    elif style == "run":
        surf.fill(theme.REACH_RUN)
    elif style == "charge":
        surf.fill(theme.REACH_CHARGE)
    elif style == "zone":
        surf.fill(theme.ZONE)
        pygame.draw.rect(surf, (*theme.ZONE[:3], 150), (0, 0, c, c), max(1, c // 16))
    elif style.startswith("threat"):
        colour = tuple(int(v) for v in style.split(":")[1].split(",")) if ":" in style else theme.THREAT[:3]
        step = max(4, c // 4)
        width = max(1, c // 12)
        pygame.draw.rect(surf, (*colour, 55), (0, 0, c, c))
        for k in range(-c, c, step):
            pygame.draw.line(surf, (*colour, 200), (k, c), (k + c, 0), width)
    elif style == "lane":
        surf.fill((*theme.LANE_OK, 110))
    elif style == "lane_refused":
        surf.fill((*theme.LANE_REFUSED, 70))
    elif style == "highlight":
        pygame.draw.rect(surf, (*theme.HIGHLIGHT, 90), (0, 0, c, c))
        pygame.draw.rect(surf, (*theme.HIGHLIGHT, 255), (0, 0, c, c), max(2, c // 10))
    elif style == "blocker":
        pygame.draw.rect(surf, (230, 60, 30, 220), (0, 0, c, c), max(2, c // 10))
    return surf


def blit_squares(screen, camera, stamps: Stamps, style: str, squares) -> int:
    """Stamp `squares` (list or (N, 2) array) that are on screen; returns how many were drawn."""
    if squares is None or len(squares) == 0:
        return 0
    arr = squares if isinstance(squares, np.ndarray) else np.asarray(squares, dtype=np.int32).reshape(-1, 2)
    x0, y0, x1, y1 = camera.visible_squares()
    keep = (arr[:, 0] >= x0) & (arr[:, 0] < x1) & (arr[:, 1] >= y0) & (arr[:, 1] < y1)
    arr = arr[keep]
    if not len(arr):
        return 0
    c = camera.cell
    stamp = stamps.get(style, c)
    xs = (arr[:, 0] * c + camera.ox).tolist()
    ys = (arr[:, 1] * c + camera.oy).tolist()
    screen.fblits([(stamp, (x, y)) for x, y in zip(xs, ys)])
    return len(arr)


def facing_points(cx: float, cy: float, facing: int, radius: float, spread: float = 2.45):
    angle = math.radians(facing * 45)
    tip = (cx + math.sin(angle) * radius, cy - math.cos(angle) * radius)
    left = (cx + math.sin(angle - spread) * radius * 0.45, cy - math.cos(angle - spread) * radius * 0.45)
    right = (cx + math.sin(angle + spread) * radius * 0.45, cy - math.cos(angle + spread) * radius * 0.45)
    return tip, left, right


def draw_arrow(screen, colour, a, b, width: int = 3, head: float = 10) -> None:
    import pygame
    pygame.draw.line(screen, colour, a, b, width)
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    p1 = (b[0] - head * math.cos(ang - 0.45), b[1] - head * math.sin(ang - 0.45))
    p2 = (b[0] - head * math.cos(ang + 0.45), b[1] - head * math.sin(ang + 0.45))
    pygame.draw.polygon(screen, colour, (b, p1, p2))


def draw_dashed(screen, colour, a, b, width: int = 2, dash: int = 8) -> None:
    import pygame
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length < 1:
        return
    n = int(length // dash)
    for i in range(0, n, 2):
        t0, t1 = i / n, min(1.0, (i + 1) / n)
        pygame.draw.line(screen, colour, (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                         (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1), width)


def label(screen, fonts, text: str, pos, colour=(255, 255, 255), back=(20, 20, 24), size: int = 13,
          anchor: str = "center") -> None:
    """Text on a dark pill so it reads over any terrain."""
    import pygame
    surf = fonts.render(text, size, colour, True)
    w, h = surf.get_width() + 8, surf.get_height() + 2
    x, y = pos
    if anchor == "center":
        x, y = x - w // 2, y - h // 2
    elif anchor == "below":
        x, y = x - w // 2, y
    elif anchor == "above":
        x, y = x - w // 2, y - h
    rect = pygame.Rect(int(x), int(y), w, h)
    pygame.draw.rect(screen, back, rect, border_radius=h // 2)
    screen.blit(surf, (rect.x + 4, rect.y + 1))


def draw_path(screen, camera, fonts, preview, show_costs: bool = True) -> None:
    """The previewed path: a line through the steps, each step's cost, facing changes, the end."""
    import pygame
    planned = preview.planned
    if planned is None:
        return
    steps = planned.path.steps
    c = camera.cell
    colour = theme.PATH if preview.reason is None else theme.PATH_BAD
    pts = [camera.centre_of((s.x, s.y)) for s in steps]
    if len(pts) > 1:
        pygame.draw.lines(screen, (15, 20, 40), False, pts, max(3, c // 6) + 2)
        pygame.draw.lines(screen, colour, False, pts, max(3, c // 6))
    size = max(10, min(15, c // 3))
    for i, s in enumerate(steps):
        if i == 0:
            continue
        cx, cy = camera.centre_of((s.x, s.y))
        if s.kind in ("turn+step", "turn"):
            tip, left, right = facing_points(cx, cy, s.facing, c * 0.42)
            pygame.draw.polygon(screen, (255, 255, 255), (tip, left, right))
            pygame.draw.polygon(screen, (20, 20, 20), (tip, left, right), 1)
        else:
            pygame.draw.circle(screen, colour, (cx, cy), max(2, c // 9))
        if show_costs and c >= 16 and s.cost_ft:
            cost = f"{s.cost_ft:g}" if float(s.cost_ft).is_integer() else f"{s.cost_ft:.1f}"
            label(screen, fonts, cost, (cx + c * 0.28, cy - c * 0.28), (255, 255, 255),
                  (150, 30, 30) if s.cost_ft >= 10 else (30, 60, 140), size)
        if s.kind in ("climb", "dive", "rise", "descend"):
            label(screen, fonts, f"{s.altitude_ft} ft", (cx, cy + c * 0.3), (255, 255, 255), (60, 40, 100), size)
    end = steps[-1]
    ex, ey = camera.centre_of((end.x, end.y))
    ring = max(4, int(c * 0.4))
    pygame.draw.circle(screen, colour, (ex, ey), ring, max(2, c // 12))
    tip, left, right = facing_points(ex, ey, end.facing, ring * 1.1)
    pygame.draw.polygon(screen, colour, (tip, left, right))
    total = f"{planned.path.total_ft:g}" if float(planned.path.total_ft).is_integer() else f"{planned.path.total_ft:.1f}"
    left_ft = planned.path.budget_ft - preview.spent_ft
    words = f"{planned.path.mode} {total}/{left_ft:g} ft, faces {FACINGS[end.facing]}"
    if planned.path.stall:
        words += ", STALLS"
    label(screen, fonts, words, (ex, ey + ring + 2), (255, 255, 255), (20, 40, 90) if preview.reason is None else (110, 20, 20),
          max(11, min(15, c // 3)), anchor="below")


def draw_parting_shots(screen, camera, fonts, preview, figures: dict) -> None:
    """Who strikes the mover, from where, at what bonus: before the move is committed."""
    import pygame
    planned = preview.planned
    if planned is None:
        return
    steps = planned.path.steps
    c = camera.cell
    for shot in planned.parting_shots:
        step = steps[min(shot.step_index, len(steps) - 1)]
        sx, sy = camera.centre_of((step.x, step.y))
        attacker = figures.get(shot.attacker_id)
        if attacker is not None:
            ax, ay = camera.centre_of(attacker.pos)
            draw_arrow(screen, theme.PARTING, (ax, ay), (sx, sy), max(2, c // 10), max(8, c // 4))
        pygame.draw.circle(screen, theme.PARTING, (sx, sy), max(5, c // 4), max(2, c // 12))
        label(screen, fonts, f"parting shot {shot.attacker} {shot.bonus:+d}", (sx, sy - c * 0.45),
              (255, 255, 255), (150, 20, 20), max(11, min(15, c // 3)), anchor="above")


def draw_lanes(screen, camera, fonts, stamps, lanes, figures: dict, hovered_target: str | None,
               show_refused: bool = True) -> None:
    """Legal charge lanes in orange on their squares; refused ones dashed grey (reason on hover)."""
    import pygame
    c = camera.cell
    for lane in lanes:
        if not lane.legal and not show_refused and lane.target_id != hovered_target:
            continue
        attacker = figures.get(lane.attacker_id)
        target = figures.get(lane.target_id)
        if attacker is None or target is None:
            continue
        a = camera.centre_of(attacker.pos)
        b = camera.centre_of(target.pos)
        if lane.legal:
            blit_squares(screen, camera, stamps, "lane", list(lane.squares))
            end = camera.centre_of(lane.squares[-1]) if lane.squares else b
            draw_arrow(screen, theme.LANE_OK, a, end, max(2, c // 10), max(8, c // 3))
        else:
            if lane.target_id == hovered_target and lane.squares:
                blit_squares(screen, camera, stamps, "lane_refused", list(lane.squares))
            draw_dashed(screen, theme.LANE_REFUSED, a, b, max(1, c // 16), max(6, c // 4))
            mx, my = (a[0] + b[0]) // 2, (a[1] + b[1]) // 2
            k = max(3, c // 8)
            pygame.draw.line(screen, theme.LANE_REFUSED, (mx - k, my - k), (mx + k, my + k), 2)
            pygame.draw.line(screen, theme.LANE_REFUSED, (mx - k, my + k), (mx + k, my - k), 2)


def draw_sight(screen, camera, fonts, stamps, sight, viewer, target) -> None:
    """Lines from the viewer's best corner to the target's corners, coloured by the cover found."""
    import pygame
    if sight is None:
        return
    c = camera.cell
    colour = theme.SIGHT_COLOURS.get(sight.cover if sight.visible else "full", (200, 200, 200))
    corner = camera.to_screen(*sight.corner)
    blockers = [(x, y) for x, y, _ in sight.blockers]
    if blockers:
        blit_squares(screen, camera, stamps, "blocker", blockers)
    for i in (0, 1):
        for j in (0, 1):
            tc = camera.to_screen(target.x + i, target.y + j)
            if sight.visible:
                pygame.draw.line(screen, colour, corner, tc, max(1, c // 20))
            else:
                draw_dashed(screen, colour, corner, tc, max(1, c // 20), max(5, c // 5))
    pygame.draw.circle(screen, colour, corner, max(3, c // 10))
    tx, ty = camera.centre_of(target.pos)
    if not sight.visible:
        words = "no line of sight"
    elif sight.cover == "none" and sight.concealment == "none":
        words = "clear line of sight"
    else:
        parts = [f"{sight.cover} cover" if sight.cover != "none" else "",
                 f"{sight.concealment} concealment" if sight.concealment != "none" else ""]
        words = "sight: " + ", ".join(p for p in parts if p)
    label(screen, fonts, words, (tx, ty - c * 0.55), (255, 255, 255), theme.darker(colour, 0.55),
          max(11, min(15, c // 3)), anchor="above")
