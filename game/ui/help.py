"""The F1 key list: every key and mouse gesture the window understands (docs/ui.md mirrors it)."""
from __future__ import annotations

from . import theme
from ..client.state import OVERLAY_KEYS, OVERLAYS

KEYS = (
    ("Select and move", (
        ("Left click a figure", "select it (any figure: inspect its reach, zones, lanes); a foe you may strike now: attack it"),
        ("Hover a square", "preview the path: each step's cost, facing changes, parting shots"),
        ("Left click a square", "move the selected figure there along the previewed path"),
        ("Right-drag from the figure", "turn it to face the drag direction (Turn)"),
        ("Right-drag from a square", "move there and end facing the drag direction"),
        ("Q / E", "turn the selected figure 45° left / right"),
        ("PgUp / PgDn", "plan a higher / lower end altitude (flyers); then click a square"),
        ("Tab / Shift+Tab", "select the next / previous figure in the turn order"),
        ("Hover a figure", "its card: hit points, state, weapon, and your odds against it"),
    )),
    ("Modes (press again or Esc to go back to move)", (
        ("W / R / J", "walk / run / jog only (default: walk where walking reaches, run beyond)"),
        ("F", "fighting withdrawal: back away keeping your facing"),
        ("S", "sidestep one square keeping your facing"),
        ("C", "charge: click a foe; hover a foe for why a lane is refused"),
        ("A", "attack: hover a foe for the what-if breakdown, click to attack"),
        ("M", "aim at a foe (ranged)"),
        ("B / Shift+B", "disengage the ruleset's way (click a square) / change the style"),
        ("N / Shift+N", "manoeuvres the ruleset has: grapple, trip, push, overbear (trip and push: click the foe, "
                        "then its square)"),
    )),
    ("Whole-turn actions", (
        ("X", "set weapon against a charge"),
        ("D / Shift+D", "defend / choose the defence style"),
        ("H", "hold (delay) the action"),
        ("K", "held: try to escape; holding: let go"),
        ("Space or Enter", "end the turn"),
        ("Esc or right click", "cancel the mode or planned facing/altitude, then the selection"),
    )),
    ("Overlays", tuple((str(i + 1), OVERLAYS[name][0]) for i, name in enumerate(OVERLAY_KEYS))
     + (("0", "all overlays on / off"),)),
    ("View", (
        ("Mouse wheel, + / -", "zoom about the pointer"),
        ("Left-drag empty map, middle-drag, arrows", "pan (Shift+arrows pans faster)"),
        ("Home", "centre on the selected figure"),
        ("Click an event in the log", "highlight its figures and squares on the map"),
        ("Click a panel heading", "fold or unfold that section"),
        (". (full stop)", "animation speed: normal, fast, off, slow"),
        ("Esc, Space or a click while moving", "skip the animation"),
        ("V", "compare rulesets: the hovered attack or move under every ruleset, side by side (wheel scrolls it)"),
        ("O / Shift+O", "odds map: the selected figure's attack on the hovered foe from every square it reaches "
                        "(again: expected damage, again: off) / the same under the next ruleset"),
        ("L", "legend: what every colour and mark on the map means"),
        ("F2 / F3 / T", "settings / sound on, off / keyboard cursor (arrows, Enter)"),
    )),
    ("Game master", (
        ("G", "demonstration mode on / off"),
        ("[ / ]", "switch the ruleset live: the same position, hit points and turn, judged anew"),
        ("Click a square / drag a figure (demonstration)", "place the selected / dragged figure there: a ghost "
                                                           "and the walk's cost show first (logged: undo steps back)"),
        ("Right / Left, [ / ] (a lesson)", "next / previous step; the same step judged by another ruleset "
                                           "(fivefoot play --lesson FILE)"),
        ("Ctrl+R, then T", "record a lesson: play the step, T types its caption (Enter closes the step); "
                           "Ctrl+R again saves it"),
        ("Ctrl+Z / Ctrl+Y", "undo to your last decision (the AI's replies too) / redo"),
        ("Ctrl+S / Ctrl+O", "save into a slot / load a slot (asks before discarding play)"),
        ("P / R (at the end)", "replay the battle / restart with the next seed (Esc: see the board)"),
        ("F1", "the guide; F1 again: this list"),
        ("Ctrl+Q", "quit"),
    )),
)


def draw_help(screen, fonts) -> None:
    """The key list in columns, every line whole: the largest type, then the fewest columns, with which
    every group fits the window (a group never split)."""
    import pygame
    w, h = screen.get_size()
    shade = pygame.Surface((w, h), pygame.SRCALPHA)
    shade.fill((12, 12, 16, 238))
    screen.blit(shade, (0, 0))
    title = fonts.render("fivefoot: keys and mouse (any key closes this)", 22, theme.PANEL_HEAD, True)
    screen.blit(title, ((w - title.get_width()) // 2, 14))
    top, room = 56, h - 56 - 8
    layout = None
    for size in (13, 12, 11, 10):
        for n_cols in (2, 3, 4):
            col_w = (w - 40 - 20 * (n_cols - 1)) // n_cols
            if col_w < 230:
                break
            placed = _columns(fonts, size, col_w, n_cols, room)
            if placed is not None:
                layout = (size, col_w, placed)
                break
        if layout is not None:
            break
    if layout is None:      # a tiny window: the smallest type, as many columns as hold 230 px
        n_cols = max(1, (w - 40) // 250)
        col_w = (w - 40 - 20 * (n_cols - 1)) // n_cols
        layout = (10, col_w, _columns(fonts, 10, col_w, n_cols, 10 ** 6))
    size, col_w, placed = layout
    line_h = size + 3
    for ci, groups in enumerate(placed):
        x, y = 20 + ci * (col_w + 20), top
        for (group, rows), keyw, wrapped in groups:
            screen.blit(fonts.render(group, size + 2, theme.PANEL_ACCENT, True), (x, y))
            y += size + 9
            for key_lines, what_lines in wrapped:
                for j, piece in enumerate(key_lines):
                    screen.blit(fonts.render(piece, size, theme.PANEL_TEXT, True), (x + 8, y + j * line_h))
                for j, line in enumerate(what_lines):
                    screen.blit(fonts.render(line, size, (200, 202, 212)), (x + 8 + keyw, y + j * line_h))
                y += line_h * max(len(key_lines), len(what_lines)) + 2
            y += 10


def _columns(fonts, size: int, col_w: int, n_cols: int, room: int):
    """The groups, each wrapped whole, into n_cols columns of height `room` (each group into the
    shortest column so far); None if they do not fit."""
    line_h = size + 3
    columns: list[list] = [[] for _ in range(n_cols)]
    used = [0] * n_cols
    for group in KEYS:
        rows = group[1]
        keyw = min(col_w * 2 // 5, max(fonts.size(k, size, True)[0] for k, _ in rows) + 16)
        wrapped = [(fonts.wrap(k, keyw - 12, size, True), fonts.wrap(what, col_w - keyw - 16, size)) for k, what in rows]
        height = size + 9 + sum(line_h * max(len(a), len(b)) + 2 for a, b in wrapped) + 10
        i = used.index(min(used))
        if used[i] + height > room:
            return None
        columns[i].append((group, keyw, wrapped))
        used[i] += height
    return columns


def keys_markdown() -> str:
    """The key list as Markdown tables (used to write docs/ui.md)."""
    out = []
    for group, rows in KEYS:
        out.append(f"### {group}\n\n| Key | Does |\n| --- | --- |")
        out.extend(f"| {key} | {what} |" for key, what in rows)
        out.append("")
    return "\n".join(out)
