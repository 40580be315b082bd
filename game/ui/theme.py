"""Colours, fonts and a text cache shared by every part of the window.

Nothing here knows the rules; it only decides how things look.
"""
from __future__ import annotations

from collections import OrderedDict

from ..core.values.safetext import printable

MAX_WRAP_LINES = 200  # more lines than any part of the window shows

# ----- the map -----
BACKGROUND = (24, 25, 30)
FLOOR = (206, 196, 172)
FLOOR_ALT = (199, 189, 165)
GRID = (120, 110, 95)
GRID_FAINT = (160, 150, 130)
WALL = (62, 58, 60)
WALL_TOP = (92, 86, 86)
WALL_EDGE = (38, 35, 38)
TRUNK = (96, 70, 44)
LEAVES = (70, 120, 60)
LOW_WALL = (150, 110, 80)
LOW_WALL_MORTAR = (110, 80, 60)
BRUSH = (96, 140, 70)
FOG = (190, 198, 215)
RUBBLE = (140, 122, 100)
WATER = (80, 130, 190)
WATER_WAVE = (150, 190, 230)
DOOR = (140, 96, 52)
ELEVATION_EDGE = (70, 60, 45)

# ----- overlays (RGBA) -----
REACH_WALK = (70, 200, 110, 95)
REACH_RUN = (240, 185, 60, 85)
REACH_CHARGE = (235, 120, 50, 90)
REACH_WALK_EDGE = (110, 255, 150)
REACH_RUN_EDGE = (255, 205, 70)
REACH_CHARGE_EDGE = (255, 150, 60)
# The odds map (O): a square's chance (or expected damage) against the best square's, weakest first
# (a blue-to-yellow ramp: it reads over green grass and on red-green colour-blind eyes), squares
# reached with no attack from there, the best squares' ring and the charge's lane end.
ODDS_RAMP = ((50, 70, 160, 120), (60, 130, 190, 125), (70, 185, 170, 130), (190, 215, 80, 140), (255, 225, 40, 160))
ODDS_NONE = (20, 20, 28, 90)
ODDS_BEST = (255, 250, 210)
ODDS_CHARGE = (255, 150, 60)
ZONE = (200, 60, 200, 60)
THREAT = (220, 50, 50, 70)
PATH = (30, 90, 220)
LANE_OK = (245, 140, 30)
LANE_REFUSED = (120, 120, 120)
SIGHT_COLOURS = {"none": (40, 170, 70), "1/4": (150, 190, 40), "1/2": (230, 170, 30),
                 "3/4": (230, 100, 30), "full": (200, 30, 30)}
PARTING = (215, 25, 25)
HIGHLIGHT = (255, 235, 60)
SELECT = (255, 255, 255)
BLOCKER = (230, 60, 30)            # a square that gave cover on the line of sight
COST_5 = (30, 60, 140)             # a path step's cost badge: 5 ft ...
COST_10 = (150, 30, 30)            # ... 10 ft or more (a second diagonal, difficult ground)
CLIMB = (60, 40, 100)              # the altitude a climb or dive reaches on the path
PATH_TOTAL = (20, 40, 90)          # the path's total: walk 20/40 ft
FACING_WEDGE = (255, 255, 255)     # a change of facing along the path
ENGAGED_LINK = (200, 60, 200)      # two figures engaged with each other (the zones overlay)
MISSILE = (235, 70, 50)            # a missed missile flying on, and a figure it hit
MISSILE_MISS = (240, 240, 240)     # a figure the flying missile missed
SCATTER = (250, 150, 40)           # a flask's scatter and its splash
SHOVE = (120, 200, 255)            # a trip, push or drag: from where the figure stood to where it went
STRIKE_ARROW = (255, 240, 200)     # a blow being struck (the animation)
STRIKE_HIT = (235, 40, 30)
STRIKE_MISS = (245, 245, 245)
DAMAGE_BACK = (150, 20, 20)        # a floating number: damage ...
NOTE_BACK = (40, 40, 48)           # ... or another word (miss, parried)

# ----- tokens -----
SIDE_COLOURS = {"blue": (60, 110, 225), "red": (205, 55, 55), "green": (50, 160, 85), "yellow": (215, 180, 45),
                "purple": (140, 80, 190), "orange": (230, 130, 40), "white": (225, 225, 225), "black": (60, 60, 60)}
HP_GOOD = (60, 190, 80)
HP_MID = (230, 180, 40)
HP_BAD = (210, 50, 40)
HP_BACK = (40, 20, 20)
INVOLVED = (255, 140, 0)           # a figure of the event picked in the log
ALTITUDE_TAG = (60, 40, 110)       # a flyer's altitude over its token

# ----- the panel -----
PANEL_BG = (34, 36, 44)
PANEL_EDGE = (70, 74, 90)
PANEL_TEXT = (225, 225, 230)
PANEL_DIM = (150, 152, 165)
PANEL_HEAD = (255, 215, 120)
PANEL_ACCENT = (120, 180, 255)
PANEL_WARN = (255, 120, 100)
PANEL_GOOD = (120, 220, 140)
PANEL_ROW_HOVER = (50, 54, 68)
PANEL_ROW_PICK = (72, 66, 40)
MESSAGE_ERROR = (255, 150, 130)
MESSAGE_INFO = (170, 210, 255)
BUTTON = (52, 56, 70)
BUTTON_OFF = (40, 42, 50)
BUTTON_ON = (90, 80, 40)

# How a line of text reads (game.client.describe gives each line a role; the panel picks the colour).
ROLE_COLOURS = {"text": PANEL_TEXT, "dim": PANEL_DIM, "warn": PANEL_WARN, "good": PANEL_GOOD,
                "accent": PANEL_ACCENT, "head": PANEL_HEAD, "attack": (255, 220, 180)}


def side_colour(side: str) -> tuple[int, int, int]:
    if side in SIDE_COLOURS:
        return SIDE_COLOURS[side]
    h = sum(ord(c) * (i + 1) for i, c in enumerate(side))
    return (70 + h * 37 % 160, 70 + h * 59 % 160, 70 + h * 83 % 160)


def darker(colour, factor: float = 0.6):
    return tuple(max(0, int(c * factor)) for c in colour[:3])


def lighter(colour, amount: int = 60):
    return tuple(min(255, c + amount) for c in colour[:3])


class Fonts:
    """Fonts by size with a bounded cache of rendered text surfaces (text is costly to render)."""

    NAMES = ("dejavusans", "freesans", "arial")

    def __init__(self, max_cached: int = 2000):
        import pygame
        pygame.font.init()
        self._pygame = pygame
        self._fonts: dict[tuple[int, bool], object] = {}
        self._cache: OrderedDict = OrderedDict()
        self._max = max_cached
        self._wrapped: dict = {}
        self._sizes: dict = {}
        self._path = None
        for name in self.NAMES:
            path = pygame.font.match_font(name)
            if path:
                self._path = path
                break

    def font(self, size: int, bold: bool = False):
        key = (size, bold)
        f = self._fonts.get(key)
        if f is None:
            f = self._pygame.font.Font(self._path, size)
            if bold:
                f.set_bold(True)
            self._fonts[key] = f
        return f

    def render(self, text: str, size: int = 15, colour=PANEL_TEXT, bold: bool = False, background=None):
        key = (text, size, colour, bold, background)
        surf = self._cache.get(key)
        if surf is not None:
            self._cache.move_to_end(key)
            return surf
        surf = self.font(size, bold).render(printable(text), True, colour, background)
        self._cache[key] = surf
        if len(self._cache) > self._max:
            self._cache.popitem(last=False)
        return surf

    def size(self, text: str, size: int = 15, bold: bool = False) -> tuple[int, int]:
        """The text's size, remembered for short texts (the panel and the path's labels measure the
        same lines frame after frame)."""
        if len(text) > 200:             # not kept: a long text is measured while it is cut to fit
            return self.font(size, bold).size(printable(text))
        key = (text, size, bold)
        got = self._sizes.get(key)
        if got is None:
            if len(self._sizes) > 8000:
                self._sizes.clear()
            got = self._sizes[key] = self.font(size, bold).size(printable(text))
        return got

    def fit(self, text: str, width: int, size: int = 15, bold: bool = False, keep: int = 1) -> str:
        """The text, or its longest start that fits `width` pixels with an ellipsis (at least
        `keep` characters). A binary search over the length, so a long text costs a few measures."""
        if self.size(text, size, bold)[0] <= width:
            return text
        low, high = keep, max(keep, min(len(text) - 1, 4 * max(1, width) + 16))
        while low < high:
            middle = (low + high + 1) // 2
            if self.size(text[:middle].rstrip() + "…", size, bold)[0] <= width:
                low = middle
            else:
                high = middle - 1
        return text[:low].rstrip() + "…"

    def wrap(self, text: str, width: int, size: int = 15, bold: bool = False,
             max_lines: int = MAX_WRAP_LINES) -> list[str]:
        """wrap_text, remembered: the panel and tooltips wrap the same lines frame after frame."""
        key = (text, width, size, bold, max_lines)
        lines = self._wrapped.get(key)
        if lines is None:
            lines = self.wrap_text(text, width, size, bold, max_lines)
            if len(self._wrapped) > 4000:
                self._wrapped.clear()
            self._wrapped[key] = lines
        return list(lines)

    def wrap_text(self, text: str, width: int, size: int = 15, bold: bool = False,
                  max_lines: int = MAX_WRAP_LINES) -> list[str]:
        """Split text into lines no wider than `width` pixels (words never split unless too long).

        Linear in the text: a line holds at most a few characters per pixel, a word too long for
        a line is cut by a binary search for the longest piece that fits (not by shortening it a
        character at a time), and wrapping stops after `max_lines` lines, so a megabyte without
        a space costs no more than the lines that are shown.
        """
        font = self.font(size, bold)
        most = 4 * max(1, width) + 16  # characters a line may hold: no glyph is under a quarter pixel

        def fits(piece: str) -> bool:
            return len(piece) <= most and font.size(piece)[0] <= width

        def longest_fitting(word: str, start: int) -> int:
            """End of the longest piece word[start:end] that fits; at least one character."""
            low, high = start + 1, min(len(word), start + most)
            while low < high:
                middle = (low + high + 1) // 2
                if fits(word[start:middle]):
                    low = middle
                else:
                    high = middle - 1
            return low

        lines: list[str] = []
        for paragraph in str(text).split("\n"):
            line = ""
            for word in paragraph.split(" "):
                trial = word if not line else line + " " + word
                if fits(trial):
                    line = trial
                    continue
                if line:
                    lines.append(line)
                start = 0
                while len(word) - start > 1 and not fits(word[start:start + most + 1]):
                    if len(lines) >= max_lines:
                        return lines
                    end = longest_fitting(word, start)
                    lines.append(word[start:end])
                    start = end
                line = word[start:]
                if len(lines) >= max_lines:
                    return lines
            lines.append(line)
            if len(lines) >= max_lines:
                return lines[:max_lines]
        return lines
