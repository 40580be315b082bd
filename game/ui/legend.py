"""The legend: every colour and mark the map view draws, each with what it means.

One entry per colour of theme.py that overlays.py, marks.py, tokens.py and scene.py draw with, its
swatch drawn the way the map draws it (a translucent area over the floor with its outline, a line,
an arrow, a ring, a badge). `draw_legend(surface, fonts, rect)` lays the entries out in as many
columns as the rectangle holds and the largest type that fits: the window shows it on a key,
`fivefoot picture --legend` draws it into the picture.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import theme
from .marks import draw_arrow, draw_dashed, facing_points
from .overlays import Stamps
from .tokens import CONDITION_BADGES

SWATCH_W, SWATCH_H = 44, 18
COLUMN_MIN_W = 240
PAD = 8
SIZES = (14, 13, 12, 11)


@dataclass(frozen=True)
class Entry:
    """One line of the legend: how its swatch is drawn, in which colours, and what it means."""

    mark: str              # area, line, dashed, arrow, ring, frame, ramp, badge, token, badges, sight, bar, cross
    colours: tuple         # the colours drawn (the first is the mark's own); an area: its stamp style first
    words: str
    labels: tuple = ()     # a badge's words, one per colour, as the map writes them


SIGHT = tuple(theme.SIGHT_COLOURS[k] for k in ("none", "1/4", "1/2", "3/4", "full"))
BADGES = tuple(back for _, back in CONDITION_BADGES.values())
CONDITION_WORDS = ", ".join(f"{text} {name}" for name, (text, _) in CONDITION_BADGES.items())

GROUPS: tuple[tuple[str, tuple[Entry, ...]], ...] = (
    ("Moving", (
        Entry("area", ("walk", theme.REACH_WALK_EDGE), "squares the figure can walk to this turn"),
        Entry("area", ("run", theme.REACH_RUN_EDGE), "squares only a run reaches (diagonal lines)"),
        Entry("area", ("charge", theme.REACH_CHARGE_EDGE), "squares a charge can reach"),
        Entry("line", (theme.PATH,), "the hovered path, its end ring and end facing"),
        Entry("badge", (theme.COST_5,), "a step that costs 5 ft", ("5",)),
        Entry("badge", (theme.COST_10,), "a step that costs 10 ft (a second diagonal, difficult ground)", ("10",)),
        Entry("badge", (theme.PATH_TOTAL,), "the move's cost of what it has left, its end facing", ("20/40",)),
        Entry("badge", (theme.CLIMB,), "the altitude a flyer reaches climbing or diving", ("30 ft",)),
        Entry("wedge", (theme.FACING_WEDGE,), "a change of facing along the path"),
    )),
    ("Foes and the rules", (
        Entry("area", ("zone",), "a foe's engagement zone"),
        Entry("line", (theme.ENGAGED_LINK,), "two figures engaged with each other"),
        Entry("area", ("threat",), "what a foe's ready weapon reaches, hatched in its side's colour"),
        Entry("arrow", (theme.LANE_OK,), "a legal charge lane, on its squares"),
        Entry("cross", (theme.LANE_REFUSED,), "a charge lane the rules refuse (hover the foe: why)"),
        Entry("arrow", (theme.PARTING,), "a parting shot the move would draw, with its bonus"),
        Entry("sight", SIGHT, "line of sight: clear, 1/4, 1/2, 3/4 cover, none"),
        Entry("area", ("blocker", theme.BLOCKER), "a square that gives cover on that line"),
    )),
    ("What happened", (
        Entry("area", ("highlight", theme.HIGHLIGHT), "the squares of the event picked in the log"),
        Entry("dashed", (theme.MISSILE,), "a missed missile flying on, a red ring where it hit"),
        Entry("ring", (theme.MISSILE_MISS,), "a figure the flying missile missed"),
        Entry("arrow", (theme.SCATTER,), "a flask's scatter and its splash"),
        Entry("arrow", (theme.SHOVE,), "a figure tripped, pushed or dragged"),
        Entry("arrow", (theme.STRIKE_ARROW,), "a blow being struck"),
        Entry("ring", (theme.STRIKE_HIT, theme.STRIKE_MISS), "the blow hit (red) or missed (white)"),
        Entry("badge", (theme.DAMAGE_BACK, theme.NOTE_BACK), "damage taken (red); other words over a figure", ("-5", "miss")),
    )),
    ("The odds map (O)", (
        Entry("ramp", theme.ODDS_RAMP, "the attack's chance (or expected damage) from a square, weakest to best"),
        Entry("area", ("odds:-1",), "a square the attacker reaches with no attack on the target from there"),
        Entry("frame", (theme.ODDS_BEST,), "the best squares to attack from"),
        Entry("ring", (theme.ODDS_CHARGE,), "where a charge would end, its odds written below"),
    )),
    ("Figures", (
        Entry("token", (theme.SIDE_COLOURS["blue"], theme.SIDE_COLOURS["red"]), "a figure in its side's colour, "
              "the point its facing"),
        Entry("ring", (theme.SELECT,), "the selected figure"),
        Entry("ring", (theme.HIGHLIGHT,), "the figure whose turn it is"),
        Entry("ring", (theme.INVOLVED,), "a figure of the event picked in the log"),
        Entry("bar", (theme.HP_GOOD, theme.HP_MID, theme.HP_BAD), "hit points: over half, over a quarter, less"),
        Entry("badge", (theme.ALTITUDE_TAG,), "a flyer's altitude", ("40 ft",)),
        Entry("badges", BADGES, CONDITION_WORDS),
    )),
)


def entries() -> list[Entry]:
    return [e for _, group in GROUPS for e in group]


def colours_drawn() -> set[tuple[int, int, int]]:
    """Every colour the legend's swatches show opaque (tests look for them)."""
    out = set()
    for e in entries():
        out.update(tuple(c[:3]) for c in e.colours if not isinstance(c, str))
    return out


def _layout(fonts, width: int, size: int):
    """(columns, column width, [(group or None, entry or None, lines)] in order, height per row)."""
    columns = max(1, (width - PAD) // COLUMN_MIN_W)
    col_w = (width - PAD) // columns - PAD
    text_w = col_w - SWATCH_W - 8
    items = []
    for title, group in GROUPS:
        items.append((title, None, [title]))
        for e in group:
            items.append((None, e, fonts.wrap(e.words, text_w, size)))
    line_h = fonts.size("Ag", size)[1]
    return columns, col_w, items, line_h


def _heights(items, line_h: int) -> list[int]:
    return [max(SWATCH_H + 2, len(lines) * line_h) + 3 for _, _, lines in items]


def _columns(items, heights, columns: int) -> list[list[int]]:
    """Items split into columns of about equal height, in order, a group's title never alone at a foot."""
    total = sum(heights)
    target = total / columns
    cols, current, used = [], [], 0
    for i, h in enumerate(heights):
        if current and used + h > target * 1.02 and len(cols) < columns - 1:
            if items[current[-1]][1] is None:       # a title: take it along to the next column
                moved = current.pop()
                cols.append(current)
                current, used = [moved], heights[moved]
            else:
                cols.append(current)
                current, used = [], 0
        current.append(i)
        used += h
    cols.append(current)
    return cols


def legend_height(fonts, width: int, size: int = SIZES[0]) -> int:
    """The height the legend needs at this width and type size."""
    columns, _w, items, line_h = _layout(fonts, width, size)
    heights = _heights(items, line_h)
    cols = _columns(items, heights, columns)
    head = fonts.size("Legend", size + 1, True)[1] + PAD
    return head + max(sum(heights[i] for i in col) for col in cols) + 2 * PAD


def draw_legend(surface, fonts, rect) -> int:
    """Draw the legend in `rect` (a box of its own: background, title, the entries in columns) with the
    largest type that fits; returns the type size used."""
    import pygame
    rect = pygame.Rect(rect)
    size = next((s for s in SIZES if legend_height(fonts, rect.w, s) <= rect.h), SIZES[-1])
    pygame.draw.rect(surface, theme.PANEL_BG, rect)
    pygame.draw.rect(surface, theme.PANEL_EDGE, rect, 1)
    title = fonts.render("Legend: what the map's colours and marks mean", size + 1, theme.PANEL_HEAD, True)
    surface.blit(title, (rect.x + PAD, rect.y + PAD // 2 + 1))
    columns, col_w, items, line_h = _layout(fonts, rect.w, size)
    heights = _heights(items, line_h)
    top = rect.y + title.get_height() + PAD
    clip = surface.get_clip()
    surface.set_clip(rect)
    for k, col in enumerate(_columns(items, heights, columns)):
        x = rect.x + PAD + k * (col_w + PAD)
        y = top
        for i in col:
            title_text, entry, lines = items[i]
            if entry is None:
                surf = fonts.render(title_text, size, theme.PANEL_ACCENT, True)
                surface.blit(surf, (x, y + heights[i] - 3 - surf.get_height()))
            else:
                _swatch(surface, fonts, pygame.Rect(x, y + 1, SWATCH_W, SWATCH_H), entry)
                for n, line in enumerate(lines):
                    surface.blit(fonts.render(line, size, theme.PANEL_TEXT), (x + SWATCH_W + 8, y + n * line_h))
            y += heights[i]
    surface.set_clip(clip)
    return size


_stamps = Stamps()


def _swatch(surface, fonts, box, entry: Entry) -> None:
    """The mark as the map draws it, in a box the size of a swatch."""
    import pygame
    mark, colours = entry.mark, entry.colours
    colour = colours[0]
    mid_y = box.centery
    if mark == "area":
        surface.fill(theme.FLOOR, box)
        style = colour
        if style == "threat":
            style = "threat:" + ",".join(str(v) for v in theme.SIDE_COLOURS["red"])
        stamp = _stamps.get(style, box.h)
        for x in range(box.x, box.right, box.h):
            surface.blit(stamp, (x, box.y), pygame.Rect(0, 0, min(box.h, box.right - x), box.h))
        if len(colours) > 1:
            pygame.draw.rect(surface, colours[1], box, 2)
    elif mark == "line":
        pygame.draw.line(surface, colour, (box.x + 2, mid_y), (box.right - 8, mid_y), 4)
        pygame.draw.circle(surface, colour, (box.right - 6, mid_y), 5, 2)
    elif mark == "dashed":
        draw_dashed(surface, colour, (box.x + 1, mid_y), (box.right - 8, mid_y), 3, 6)
        pygame.draw.circle(surface, colour, (box.right - 5, mid_y), 5, 2)
    elif mark == "arrow":
        draw_arrow(surface, colour, (box.x + 2, mid_y), (box.right - 2, mid_y), 3, 9)
    elif mark == "cross":
        draw_dashed(surface, colour, (box.x + 1, mid_y), (box.right - 1, mid_y), 2, 6)
        k = 5
        cx = box.centerx
        pygame.draw.line(surface, colour, (cx - k, mid_y - k), (cx + k, mid_y + k), 2)
        pygame.draw.line(surface, colour, (cx - k, mid_y + k), (cx + k, mid_y - k), 2)
    elif mark == "ring":
        for n, c in enumerate(colours):
            x = box.x + 9 + n * 19
            pygame.draw.circle(surface, theme.SIDE_COLOURS["blue"], (x, mid_y), 5)
            pygame.draw.circle(surface, c, (x, mid_y), 8, 2)
    elif mark == "badge":
        w = box.w // len(colours) - (2 if len(colours) > 1 else 0)
        for n, c in enumerate(colours):
            pill = pygame.Rect(box.x + n * (w + 2), box.y + 1, w, box.h - 2)
            pygame.draw.rect(surface, c, pill, border_radius=pill.h // 2)
            if n < len(entry.labels):
                text = fonts.render(entry.labels[n], 10, (255, 255, 255), True)
                surface.blit(text, text.get_rect(center=pill.center))
    elif mark == "wedge":
        surface.fill(theme.PATH, (box.x, mid_y - 2, box.w, 4))
        tip, left, right = facing_points(box.centerx, mid_y, 2, box.h * 0.55)
        pygame.draw.polygon(surface, colour, (tip, left, right))
        pygame.draw.polygon(surface, (20, 20, 20), (tip, left, right), 1)
    elif mark == "token":
        for n, c in enumerate(colours):
            x = box.x + 9 + n * 19
            pygame.draw.circle(surface, c, (x, mid_y), 8)
            pygame.draw.circle(surface, (15, 15, 20), (x, mid_y), 8, 1)
            tip, left, right = facing_points(x, mid_y, 2 if n == 0 else 6, 8)
            pygame.draw.polygon(surface, (255, 255, 255), (tip, left, right))
    elif mark == "ramp":
        w = box.w // len(colours)
        for n, c in enumerate(colours):
            surface.fill(c[:3], (box.x + n * w, box.y + 2, w, box.h - 4))
    elif mark == "frame":
        surface.fill(theme.FLOOR, box)
        inner = pygame.Rect(box.x + (box.w - box.h) // 2, box.y, box.h, box.h).inflate(-2, -2)
        pygame.draw.rect(surface, (20, 20, 20), inner.inflate(2, 2), 3, border_radius=4)
        pygame.draw.rect(surface, colour, inner, 2, border_radius=4)
    elif mark == "bar":
        w = box.w // len(colours)
        for n, c in enumerate(colours):
            pygame.draw.rect(surface, c, (box.x + n * w, mid_y - 3, w - 1, 6))
    elif mark == "badges":
        per_row = 5
        r = 4
        for n, c in enumerate(colours):
            x = box.x + r + (n % per_row) * (2 * r + 1)
            y = box.y + r + (n // per_row) * (2 * r + 2)
            pygame.draw.circle(surface, c, (x, y), r)
    elif mark == "sight":
        w = box.w // len(colours)
        for n, c in enumerate(colours):
            pygame.draw.line(surface, c, (box.x + n * w, box.bottom - 2), (box.x + n * w + w - 2, box.y + 2), 3)


def draw_legend_box(screen, app) -> None:
    """The window's legend (L): over the map and the panel, as large as the window allows."""
    import pygame
    w, h = screen.get_size()
    width = min(w - 40, 1400)
    height = min(h - 40, legend_height(app.fonts, width, SIZES[0]) + 30)
    rect = pygame.Rect(0, 0, width, height)
    rect.center = (w // 2, h // 2)
    draw_legend(screen, app.fonts, rect)
    note = app.fonts.render("L or Esc closes the legend", 12, theme.PANEL_ACCENT)
    screen.blit(note, note.get_rect(bottomright=(rect.right - PAD, rect.bottom - 4)))
