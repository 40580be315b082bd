"""Line overlays drawn over the map each frame: the hovered path with its step costs, parting
shots, charge lanes, line of sight, and the labels they carry. Every square, cost and reason is
the resolver's (a Preview, a ChargeLane, a Sight); these functions only draw them.

The path is drawn in two passes: its line and end ring beneath the tokens, its cost badges
and total above them (badges sit in their square's corner and skip squares with a token).
"""
from __future__ import annotations

import math

from ..core.values.numbers import feet
from ..core.values.geometry import FACINGS
from ..core.values.bodies import cells
from . import theme
from ..client.describe import move_word
from .overlays import blit_squares


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
          anchor: str = "center"):
    """Text on a dark pill so it reads over any terrain; returns the pill's rectangle."""
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
    elif anchor == "topleft":
        pass
    elif anchor == "bottomright":
        x, y = x - w, y - h
    rect = pygame.Rect(int(x), int(y), w, h)
    pygame.draw.rect(screen, back, rect, border_radius=h // 2)
    screen.blit(surf, (rect.x + 4, rect.y + 1))
    return rect


def label_size(c: int) -> int:
    return max(11, min(15, c // 3))


def draw_path_line(screen, camera, preview, footprint=(1, 1)) -> None:
    """Beneath the tokens: the path's line, step dots, facing changes and the end ring with its facing;
    for a body bigger than a square, the squares it will cover where the move ends."""
    import pygame
    steps = preview.planned.path.steps
    c = camera.cell
    colour = theme.PATH
    pts = [camera.centre_of((s.x, s.y)) for s in steps]
    if len(pts) > 1:
        pygame.draw.lines(screen, (15, 20, 40), False, pts, max(3, c // 6) + 2)
        pygame.draw.lines(screen, colour, False, pts, max(3, c // 6))
    for s in steps[1:]:
        cx, cy = camera.centre_of((s.x, s.y))
        if s.kind in ("turn+step", "turn"):
            tip, left, right = facing_points(cx, cy, s.facing, c * 0.42)
            pygame.draw.polygon(screen, theme.FACING_WEDGE, (tip, left, right))
            pygame.draw.polygon(screen, (20, 20, 20), (tip, left, right), 1)
        else:
            pygame.draw.circle(screen, colour, (cx, cy), max(2, c // 9))
    end = steps[-1]
    if tuple(footprint) != (1, 1):
        for x, y in cells(end.x, end.y, end.facing, tuple(footprint)):
            sx, sy = camera.to_screen(x, y)
            pygame.draw.rect(screen, colour, (sx + 2, sy + 2, c - 4, c - 4), max(2, c // 14), border_radius=max(2, c // 8))
    ex, ey = camera.centre_of((end.x, end.y))
    ring = max(4, int(c * 0.44))
    pygame.draw.circle(screen, colour, (ex, ey), ring, max(2, c // 12))
    tip, left, right = facing_points(ex, ey, end.facing, ring * 1.15)
    pygame.draw.polygon(screen, colour, (tip, left, right))


def draw_path_labels(screen, camera, fonts, preview, mover, limits, occupied: set, show_costs: bool,
                     away_ft: float | None = None) -> None:
    """Above the tokens: each step's cost in its square's corner (not on a token), climbs, the total.
    `limits`: the mover's (the label says what is left); None in demonstration mode, where the label
    says the path's cost and how far the square is (`away_ft`)."""
    import pygame
    path = preview.planned.path
    steps = path.steps
    c = camera.cell
    size = label_size(c) - 1
    if show_costs and c >= 20:
        for s in steps[1:]:
            if not s.cost_ft or (s.x, s.y) in occupied:
                continue
            x, y = camera.to_screen(s.x + 1, s.y + 1)
            label(screen, fonts, feet(s.cost_ft), (x - 2, y - 2), (255, 255, 255),
                  theme.COST_10 if s.cost_ft >= 10 else theme.COST_5, size, anchor="bottomright")
    for s in steps[1:]:
        if s.kind in ("climb", "dive", "rise", "descend") and (s.x, s.y) not in occupied and c >= 20:
            x, y = camera.to_screen(s.x, s.y + 1)
            label(screen, fonts, f"{s.altitude_ft} ft", (x + 2, y - 2 - size - 4), (255, 255, 255), theme.CLIMB,
                  size, anchor="topleft")
    end = path.end
    ex, ey = camera.centre_of((end.x, end.y))
    words = (f"{move_word(path.mode, mover)} {feet(path.total_ft)}/{feet(_left(limits, path))} ft" if limits is not None
             else f"{move_word(path.mode, mover)} {feet(path.total_ft)} ft, {feet(away_ft or 0)} ft away")
    words += f", faces {FACINGS[end.facing]}"
    if end.altitude_ft != mover.altitude_ft or end.altitude_ft:
        words += f", {end.altitude_ft} ft up"
    if path.stall:
        words += ", STALLS"
    size = label_size(c)
    w, h = fonts.size(words, size, True)[0] + 8, fonts.size(words, size, True)[1] + 2
    half = int(c * 0.5)
    # Beside the end ring on the side away from where the path came from (then the others), wherever it
    # covers no token and no step of the path.
    spots = {"below": (ex - w // 2, ey + half + 14), "above": (ex - w // 2, ey - half - 4 - h),
             "right": (ex + half + 4, ey - h // 2), "left": (ex - half - 4 - w, ey - h // 2)}
    came = next((s for s in reversed(steps[:-1]) if (s.x, s.y) != (end.x, end.y)), end)
    dx, dy = end.x - came.x, end.y - came.y
    first = "below" if dy > 0 else "above" if dy < 0 else "right" if dx > 0 else "left"
    spots = [spots[first]] + [spot for name, spot in spots.items() if name != first]
    near = [sq for sq in occupied | {(s.x, s.y) for s in steps[:-1]}
            if abs(sq[0] - end.x) <= 6 and abs(sq[1] - end.y) <= 2]   # a label spans a few squares at most
    blocked = [pygame.Rect(*camera.to_screen(x, y), c, c) for x, y in near]
    x, y = free_spot(screen, spots, w, h, blocked)
    label(screen, fonts, words, (x, y), (255, 255, 255), theme.PATH_TOTAL, size, anchor="topleft")


def free_spot(screen, spots, w: int, h: int, blocked) -> tuple[int, int]:
    """The first spot (top-left corners, in order of preference) where a w x h label lies wholly in the
    view and covers nothing in `blocked`; else the first inside the view; else the first, moved inside."""
    import pygame
    view = screen.get_rect()
    rects = [pygame.Rect(spot, (w, h)) for spot in spots]
    inside = [r for r in rects if view.contains(r)]
    best = next((r for r in inside if r.collidelist(blocked) < 0), None)
    if best is None:
        moved = [r.clamp(view) for r in rects]
        best = next((r for r in moved if r.collidelist(blocked) < 0), inside[0] if inside else moved[0])
    return best.topleft


def draw_parting_shots(screen, camera, fonts, preview, figures: dict) -> None:
    """Who strikes the mover, from where, at what bonus: before the move is committed."""
    import pygame
    steps = preview.planned.path.steps
    c = camera.cell
    for shot in preview.planned.parting_shots:
        step = steps[min(shot.step_index, len(steps) - 1)]
        sx, sy = camera.centre_of((step.x, step.y))
        attacker = figures.get(shot.attacker_id)
        if attacker is not None:
            ax, ay = camera.centre_of(attacker.pos)
            draw_arrow(screen, theme.PARTING, (ax, ay), (sx, sy), max(2, c // 10), max(8, c // 4))
        pygame.draw.circle(screen, theme.PARTING, (sx, sy), max(5, c // 4), max(2, c // 12))
        label(screen, fonts, f"parting shot {shot.attacker} {shot.bonus:+d}", (sx, sy - c * 0.45),
              (255, 255, 255), (150, 20, 20), label_size(c), anchor="above")


def draw_lanes(screen, camera, stamps, lanes, figures: dict, hovered_target: str | None,
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


def draw_sight(screen, camera, fonts, stamps, sight, target, occupied=()) -> None:
    """Lines from the viewer's best corner to the target's corners, coloured by the cover found."""
    import pygame
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
    # Above the target, else below or beside it: never over a token (`occupied`) nor out of the view.
    size = label_size(c)
    w, h = fonts.size(words, size, True)[0] + 8, fonts.size(words, size, True)[1] + 2
    half = c // 2
    spots = [(tx - w // 2, int(ty - c * 0.55) - h), (tx - w // 2, ty + half + 2), (tx + half + 4, ty - h // 2),
             (tx - half - 4 - w, ty - h // 2), (tx - w // 2, ty - half - c - h), (tx - w // 2, ty + half + c + 2)]
    blocked = [pygame.Rect(*camera.to_screen(x, y), c, c) for x, y in occupied]
    label(screen, fonts, words, free_spot(screen, spots, w, h, blocked), (255, 255, 255), theme.darker(colour, 0.55),
          size, anchor="topleft")


# ----- what missiles and manoeuvres did (from the resolver's events) -----
MARKED_KINDS = ("flies-on", "scatter", "push", "trip", "drag")


def marked_events(events, picked: int | None = None, most: int = 4) -> list:
    """The events whose squares are drawn on the map: the picked one if it is of a drawn kind, else the
    latest of this round (a missile's line, a scatter, a push, a trip, a drag)."""
    if picked is not None and 0 <= picked < len(events):
        return [events[picked]] if str(events[picked].kind) in MARKED_KINDS else []
    out = []
    for ev in reversed(events):
        if str(ev.kind) == "round":
            break
        if str(ev.kind) in MARKED_KINDS:
            out.append(ev)
            if len(out) >= most:
                break
    return out[::-1]


def draw_event_marks(screen, camera, events) -> None:
    """A missile flying on: a dashed line along the squares it crossed; a scatter: an arrow from the target
    to where the flask landed and the splash area outlined; a push, trip or drag: an arrow from where the
    figure stood to where it went."""
    import pygame
    cell = camera.cell
    for ev in events:
        kind = str(ev.kind)
        if kind == "flies-on" and ev.outcome == "line" and len(ev.squares) > 1:
            a, b = camera.centre_of(ev.squares[0]), camera.centre_of(ev.squares[-1])
            draw_dashed(screen, theme.MISSILE, a, b, width=max(2, cell // 12), dash=max(6, cell // 5))
            draw_arrow(screen, theme.MISSILE, camera.centre_of(ev.squares[-2]), b, width=max(2, cell // 12),
                       head=max(8, cell // 4))
        elif kind == "flies-on" and ev.outcome in ("hit", "miss") and len(ev.squares) > 1:
            colour = theme.MISSILE if ev.outcome == "hit" else theme.MISSILE_MISS
            pygame.draw.circle(screen, colour, camera.centre_of(ev.squares[1]), max(4, cell // 3), max(2, cell // 14))
        elif kind == "scatter":
            for sq in ev.squares:
                x, y = camera.to_screen(sq[0], sq[1])
                pygame.draw.rect(screen, theme.SCATTER, (x, y, cell, cell), max(1, cell // 16))
            start, landing = ev.data.get("from"), ev.data.get("landing")
            if start and landing:
                draw_arrow(screen, theme.SCATTER, camera.centre_of(tuple(start)), camera.centre_of(tuple(landing)),
                           width=max(2, cell // 12), head=max(8, cell // 4))
        elif kind in ("push", "trip", "drag") and len(ev.squares) > 1 and ev.squares[0] != ev.squares[-1]:
            draw_arrow(screen, theme.SHOVE, camera.centre_of(ev.squares[0]), camera.centre_of(ev.squares[-1]),
                       width=max(2, cell // 10), head=max(8, cell // 3))


def _left(limits, path) -> float:
    """What a move in the path's mode may still cost (the resolver's limits; a charge: its lane's budget)."""
    try:
        return limits.move(path.mode).left_ft
    except KeyError:
        return path.budget_ft
