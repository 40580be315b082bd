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
        ("V", "compare rulesets: the hovered attack or move under every ruleset, side by side"),
    )),
    ("Game master", (
        ("G", "demonstration mode on / off"),
        ("[ / ]", "switch the ruleset live: the same position, hit points and turn, judged anew"),
        ("Drag a figure (demonstration)", "place it freely (logged: undo steps back)"),
        ("Ctrl+Z / Ctrl+Y", "undo to your last decision (the AI's replies too) / redo"),
        ("Ctrl+S / Ctrl+O", "save into a slot / load a slot (asks before discarding play)"),
        ("P / R (at the end)", "replay the battle / restart with the next seed (Esc: see the board)"),
        ("F1", "the guide to the ruleset and the keys that matter; F1 again: this list"),
        ("F2 / F3", "settings (kept between runs) / sound on or off"),
        ("T", "keyboard cursor: arrows move it, Enter clicks where it is, T or Esc hides it"),
        ("Ctrl+Q", "quit"),
    )),
)


def draw_help(screen, fonts) -> None:
    """The key list in columns that fit the window; one key column width per column, so they align."""
    import pygame
    w, h = screen.get_size()
    shade = pygame.Surface((w, h), pygame.SRCALPHA)
    shade.fill((12, 12, 16, 238))
    screen.blit(shade, (0, 0))
    title = fonts.render("fivefoot: keys and mouse (any key closes this)", 22, theme.PANEL_HEAD, True)
    screen.blit(title, ((w - title.get_width()) // 2, 14))
    n_cols = 3 if w >= 1500 else 2
    col_w = (w - 40 - 20 * (n_cols - 1)) // n_cols
    columns: list[list] = [[] for _ in range(n_cols)]
    heights = [0] * n_cols
    for group in KEYS:  # each group into the shortest column so far, in order
        i = heights.index(min(heights))
        columns[i].append(group)
        heights[i] += 34 + 18 * len(group[1])
    for ci, groups in enumerate(columns):
        if not groups:
            continue
        x, y = 20 + ci * (col_w + 20), 56
        keyw = min(col_w // 2, max(fonts.size(k, 13, True)[0] for _, rows in groups for k, _ in rows) + 16)
        for group, rows in groups:
            screen.blit(fonts.render(group, 15, theme.PANEL_ACCENT, True), (x, y))
            y += 22
            for k, what in rows:
                for j, piece in enumerate(fonts.wrap(k, keyw - 12, 13, True)[:2]):
                    screen.blit(fonts.render(piece, 13, theme.PANEL_TEXT, True), (x + 8, y + j * 16))
                lines = fonts.wrap(what, col_w - keyw - 16, 13)[:2]
                for j, line in enumerate(lines):
                    screen.blit(fonts.render(line, 13, (200, 202, 212)), (x + 8 + keyw, y + j * 16))
                y += 18 + 16 * (max(len(lines), len(fonts.wrap(k, keyw - 12, 13, True)[:2])) - 1)
            y += 10


def keys_markdown() -> str:
    """The key list as Markdown tables (used to write docs/ui.md)."""
    out = []
    for group, rows in KEYS:
        out.append(f"### {group}\n\n| Key | Does |\n| --- | --- |")
        out.extend(f"| {key} | {what} |" for key, what in rows)
        out.append("")
    return "\n".join(out)
