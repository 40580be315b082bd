"""The game window: the loop that turns input into actions and draws the battle.

`App.frame()` runs one frame: it offers the pending pygame events to the input handlers
(game/ui/input.py), which return actions (sent through the Session to `battle.apply`) and
requests (game/client/requests.py); lets a non-human side's controller act (game/client/players.py);
advances the animation; and draws the map view (scene.py), the side panel (panel.py) and
what floats over them (hud.py). Tests post real pygame events and call `frame()` once per
frame; `run()` loops at 60 fps. Nothing about the rules is worked out in the window: every
answer is the resolver's (rulesview.py), and every word is made in describe.py.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

from ..core.values.safetext import printable
from ..core.values.actions import Action, Move, Turn
from ..core.values.errors import RulesError
from ..core.battle import Battle
from ..core.values.geometry import bearing_octant
from ..client import describe
from . import hud, theme
from ..client.animation import Animator
from ..client.callouts import Callouts
from ..client.comparison import RulesetBattles
from ..client.oddsmap import OddsView
from .camera import Camera
from .chunkbudget import FRAME_SLOT_S, IDLE_MARGIN_S, FrameBudget
from .comparepanel import CompareState, draw_compare
from ..client.describe import Hover
from .guide import draw_guide
from .help import draw_help
from .legend import draw_legend_box
from .lessonbar import LessonInput, draw_lesson_bar, follow_battle
from ..client.intent import click_intent, on_square
from ..client.mapreload import MapWatch, reload_battle
from .maplayer import MapLayer, tile_art_for
from .panel import Panel, panel_width
from ..client.players import Players
from ..client.requests import REQUESTS
from .resultscreen import ResultScreen
from ..client.rulesview import RulesView
from .scene import Scene
from ..client.session import Session
from ..client.settings import Settings
from .sound import Sounds
from ..client.state import Request, Toast, UIState

DEFAULT_SIZE = (1280, 800)
TOAST_SECONDS = 5.0
AI_DELAY_S = 0.5
REPLAY_STEP_S = 0.35  # a replayed action every third of a second: quick, but each can be followed


def fitting_size(margin: float = 0.92) -> tuple[int, int]:
    """A window that fits the screen (the display must be initialised)."""
    import pygame
    sizes = pygame.display.get_desktop_sizes()
    if not sizes or os.environ.get("SDL_VIDEODRIVER") == "dummy":
        return DEFAULT_SIZE
    w, h = sizes[0]
    return max(800, int(w * margin)), max(600, int(h * margin) - 40)


class App:
    def __init__(self, scenario, sides: dict[str, str] | None = None, size=None, background: bool | None = None,
                 start_screen: bool = False, save_dir: str | None = None, battle: Battle | None = None,
                 ai_delay: float | None = None, animate: bool | None = None, settings: Settings | None = None):
        import pygame
        self.pg = pygame
        # Only what the game uses: initialising audio too makes SDL probe sound devices (and
        # print ALSA errors on machines without one).
        pygame.display.init()
        pygame.font.init()
        self.headless = os.environ.get("SDL_VIDEODRIVER") == "dummy"
        size = tuple(size) if size else fitting_size()
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.scenario = scenario
        self.session = Session(battle or Battle.from_scenario(scenario))
        self.session.on_events = self._after_change
        self.session.on_refused = self._refused
        self.session.on_replaced = self._replaced
        setup = self.battle.setup
        self.title = describe.ellipsize(setup.title or scenario.title, 200)
        self.description = setup.description or scenario.description
        pygame.display.set_caption(printable(f"fivefoot: {self.title}", one_line=True))
        self.fonts = theme.Fonts()
        self.ui = UIState()
        self.background = (not self.headless) if background is None else background
        self.players = Players(self.sides(), sides or {}, (0.0 if self.headless else AI_DELAY_S)
                               if ai_delay is None else ai_delay, self.background)
        self.start_screen = start_screen
        self.rules = RulesView(self.battle, background=self.background)
        self.animator = Animator(speed="off" if (self.headless if animate is None else not animate) else "normal")
        self.map_layer = MapLayer(self.battle.map, tile_art_for(scenario))
        self.map_layer.fonts = self.fonts
        self.ui.overlays["markers"] = self.map_layer.show_markers
        self.camera = Camera(1, 1, self.battle.map.width, self.battle.map.height)
        self.panel = Panel(self.fonts, pygame.Rect(0, 0, 1, 1))
        self.resize(size)
        self.camera.fit()
        self.scene = Scene(self.fonts)
        from .input import default_handlers
        from .comforts import ComfortInput
        from .input import HelpInput
        self.handlers = [LessonInput(), *default_handlers()]
        self.comforts = ComfortInput()                 # F2 settings, F3 sound, T the keyboard cursor
        at = next((n + 1 for n, h in enumerate(self.handlers) if isinstance(h, HelpInput)), 1)
        self.handlers.insert(at, self.comforts)       # after the help (its open page takes any key first)
        # The player's settings (none kept for a window opened without them: tests, scripts, pictures).
        self.settings = settings if settings is not None else Settings()
        self.sounds = Sounds(on=self.settings.sound)
        self.sounds.skip_to(len(self.battle.events))
        if settings is not None and not settings.guide_seen:   # the first run: the guide, once
            self.ui.help_open, self.ui.help_page = True, "guide"
            settings.guide_seen = True
            problem = settings.save()
            if problem:
                self.toast(problem)
        self.clock = pygame.time.Clock()
        self.running = True
        self.frame_no = 0
        self.save_dir = save_dir
        self.dialog = None               # a modal box (save slots, load, a confirmation) or None
        self.on_events = None            # callback(list[Event]) for automation (the CLI prints them)
        self.on_refused = None           # callback(action, words)
        self.pan_from = None
        self.follow_turn = True
        self.hover = Hover()
        self._last_current = None
        self._cursor = None
        # Time a frame may spend drawing map chunks not yet cached (None: all at once, for screenshots).
        self.chunk_budget_s = None if self.headless else 0.0015   # map and overlay chunks built a frame: ~0.2-0.4 ms each
        self.result = ResultScreen()
        self.callouts = Callouts()       # the rules that just decided something, shown where it happened
        self.callout_boxes: list = []    # where they were last drawn
        self.message_box = None          # where the messages were last drawn
        self.rejudged = RulesetBattles()  # the position under every bundled ruleset (compare panel, odds map)
        self.compare_state = CompareState(self.rejudged)
        self.odds = OddsView()           # the odds map (O): who attacks whom, under which ruleset
        self.replay: dict | None = None  # {"actions": [...], "next_at": t}: re-watching a finished battle
        self.lesson = None               # a lesson shown step by step (client/lessonview.LessonShow; ui/lessonbar.py)
        self.recording = None            # a lesson being recorded (client/lessonview.Recording)
        self.lesson_box = None           # where the lesson's bar is drawn, and its buttons
        self.lesson_buttons: list = []
        self.map_watch = MapWatch(self.battle.map)   # a map file changed on disk: read it again
        self.map_notes_due = bool(self.battle.map.reading_notes())  # said once, when the battle shows
        self._select_current()

    # ----- geometry of the window -----
    @property
    def battle(self) -> Battle:
        return self.session.battle

    @property
    def map_rect(self):
        w, h = self.screen.get_size()
        return self.pg.Rect(0, hud.STATUS_H, w - panel_width(w), h - hud.STATUS_H)

    def map_point(self, pos) -> tuple[int, int]:
        return (pos[0] - self.map_rect.x, pos[1] - self.map_rect.y)

    def screen_pos(self, square) -> tuple[int, int]:
        """Window pixel at the centre of a square (for tests and automation)."""
        x, y = self.camera.centre_of(square)
        return (x + self.map_rect.x, y + self.map_rect.y)

    def resize(self, size) -> None:
        w, h = size
        if self.screen.get_size() != (w, h):
            self.screen = self.pg.display.set_mode((w, h), self.pg.RESIZABLE)
        pw = panel_width(w)
        self.camera.resize(w - pw, h - hud.STATUS_H)
        self.panel.resize(self.pg.Rect(w - pw, 0, pw, h))

    # ----- who plays -----
    def sides(self) -> list[str]:
        return list(dict.fromkeys(f.side for f in self.battle.setup.figures))

    def is_human(self, figure_id: str) -> bool:
        return self.players.human_side(self.battle.figures[figure_id].side)

    # ----- reading the battle -----
    def figures_on(self, square) -> list:
        """Everyone on the square (not those who fled the field), the living first."""
        if square is None:
            return []
        here = [f for f in self.battle.figures.values() if square in f.cells]   # any square of a big body
        present = [f for f in here if "fled" not in self.rules.status(f.id).conditions]
        return on_square(present, square, lambda fid: self.rules.status(fid).able)

    def figure_at(self, square):
        """The figure a click on the square picks: the living first, else the fallen."""
        here = self.figures_on(square)
        return here[0] if here else None

    def selected_figure(self):
        return self.battle.figures.get(self.ui.selected) if self.ui.selected else None

    def select(self, figure_id: str | None, centre: bool = False) -> None:
        ui = self.ui
        if figure_id != ui.selected:
            ui.planned_altitude = ui.planned_facing = None
            if ui.mode in ("attack", "aim", "charge"):
                ui.mode = "auto"
        ui.selected = figure_id
        fig = self.selected_figure()
        if fig is not None and centre:
            self.camera.ensure_visible(fig.pos)

    def turn_order(self) -> list[tuple[str, object, bool]]:
        """(figure id, initiative number or None, has acted) in the order the resolver calls them."""
        return self.rules.snapshot.turn_order()

    def drag_facing(self):
        if self.ui.right_drag is None:
            return None
        (_, start) = self.ui.right_drag
        dx, dy = self.ui.mouse[0] - start[0], self.ui.mouse[1] - start[1]
        if abs(dx) + abs(dy) < 5:
            return None
        return bearing_octant((0, 0), (dx, dy))

    def disengage_styles(self) -> list[str]:
        """The ruleset's ways of leaving melee (the resolver's menu)."""
        return self.battle.disengage_styles()

    def manoeuvres(self) -> list[str]:
        """The manoeuvres the ruleset has (the resolver's menu)."""
        return self.battle.manoeuvre_kinds()

    def defence_styles(self) -> list[str]:
        """The ruleset's defensive stances; the resolver says which it accepts now."""
        return self.battle.defence_styles()

    # ----- changing the battle -----
    def submit(self, action: Action) -> bool:
        """Send an action through the resolver (in demonstration mode moves place the figure)."""
        ok = self.session.submit(action, gm=self.ui.gm)
        if ok and isinstance(action, (Move, Turn)):
            self.ui.planned_altitude = self.ui.planned_facing = None
            if self.ui.mode in ("sidestep", "withdraw"):
                self.ui.mode = "auto"
        return ok

    def open_dialog(self, kind: str) -> None:
        """The save or load box over the window (the request table asks; the boxes are pygame's)."""
        from .dialogs import LoadDialog, SaveDialog
        self.dialog = {"save": SaveDialog, "load": LoadDialog}[kind](self)

    def request(self, req: Request) -> None:
        REQUESTS[req.kind](self, req.arg)

    def _refused(self, action, refusal) -> None:
        self.toast(f"Refused: {refusal.words}")
        if self.on_refused:
            self.on_refused(action, refusal.words)

    def _after_change(self, events, action=None) -> None:
        first = len(self.battle.events) - len(events)
        self.ui.log_scroll = 0
        if self.ui.picked_event is not None and self.ui.picked_event >= len(self.battle.events):
            self.ui.picked_event = None
        self.rules.refresh()
        if events and self.replay is None:
            self.animator.play(events, first)
        # The rules that decided something on their own: a callout where it happened (after the
        # animation has walked up to it), with the rule and the numbers, and in the log.
        self.callouts.add(events, first, self.battle.figures, self.clock_now(), self.animator.remaining_s())
        follow_battle(self)
        if self.on_events and events:
            self.on_events(events)

    def _replaced(self) -> None:
        """Another battle is on screen (loaded, restarted, replayed, re-judged): no stale state."""
        self.rules.bind(self.battle)
        self.players.cancel()
        self.animator.skip()
        self._last_current = None
        self.ui.picked_event = None
        self.ui.log_scroll = 0
        self.result.dismissed = False
        self.callouts.clear()
        self.sounds.skip_to(len(self.battle.events))

    def install(self, battle: Battle, saved: bool = False) -> None:
        self.session.replace_battle(battle, saved=saved)
        self.ui.selected = None
        if (battle.map.width, battle.map.height) != (self.camera.map_w, self.camera.map_h):
            self.map_layer = MapLayer(battle.map, None)
            self.map_layer.fonts = self.fonts
            self.camera.map_w, self.camera.map_h = battle.map.width, battle.map.height
            self.camera.fit()

    def odds_map(self):
        """The odds map shown (O), under the ruleset it is shown for; None when it is off."""
        if not self.odds.on:
            return None
        return self.odds.get(self.rejudged.under(self.battle, self.odds.ruleset_id))

    def clock_now(self) -> float:
        return time.monotonic()

    def reload_map(self) -> None:
        """The map's files changed on disk: the battle starts again on the map as it is now."""
        try:
            scenario, battle, words = reload_battle(self.scenario, self.battle)
        except RulesError as err:
            self.toast(f"map not reloaded: {err}")
            return
        self.replay = None
        self.scenario = scenario
        self.install(battle)
        self.map_layer = MapLayer(battle.map, tile_art_for(scenario))
        self.map_layer.fonts = self.fonts
        self.map_watch.follow(battle.map)
        self.toast(words, error=False)

    def switch_scenario(self, scenario) -> None:
        """Another scenario in this window (the start screen's new skirmish): its battle, map and sides."""
        self.replay = None
        self.scenario = scenario
        self.install(Battle.from_scenario(scenario))
        self.map_layer = MapLayer(self.battle.map, tile_art_for(scenario))
        self.map_layer.fonts = self.fonts
        self.map_watch = MapWatch(self.battle.map)
        self.title, self.description = describe.ellipsize(scenario.title, 200), scenario.description
        self.players = Players(self.sides(), {s: ("human" if i == 0 else "ai") for i, s in enumerate(self.sides())},
                               self.players.delay_s, self.background)
        self._last_current = None
        self._select_current()

    def toast(self, text: str, error: bool = True) -> None:
        self.ui.toasts = [t for t in self.ui.toasts if t.text != text][-3:]
        self.ui.toasts.append(Toast(text, time.monotonic() + TOAST_SECONDS, error))

    # ----- turns -----
    def _select_current(self) -> None:
        cur = self.battle.current
        if cur != self._last_current:
            self._last_current = cur
            self.follow_turn = True
            if cur is not None:
                self.select(cur, centre=True)
                fig = self.battle.figures[cur]
                self.animator.announce(f"Round {self.battle.round}: {fig.label}'s turn · {self.players.name(fig.side)}")

    def restart(self) -> None:
        """A new battle from the same setup with the next seed, so the dice fall differently."""
        self.replay = None
        battle = self.session.restarted()
        self.install(battle)
        self.toast(f"restarted with seed {battle.setup.seed}", error=False)

    def start_replay(self) -> None:
        """Re-watch the finished battle: same setup and seed, its actions re-applied one by one."""
        actions = list(self.battle.actions)
        self.install(Battle(self.battle.setup))
        self.replay = {"actions": actions, "next_at": 0.0}
        self.toast("replaying the battle (Esc skips to the end)", error=False)

    def _replay_step(self) -> None:
        now = time.monotonic()
        if now < self.replay["next_at"]:
            return
        if not self.replay["actions"]:
            self.replay = None
            return
        self.submit(self.replay["actions"].pop(0))  # the same seed and actions: never refused
        self.replay["next_at"] = now + (0.0 if self.headless else REPLAY_STEP_S)

    def finish_replay(self) -> None:
        while self.replay is not None:
            self.replay["next_at"] = 0.0
            self._replay_step()

    # ----- the frame -----
    def handle(self, event) -> None:
        pg = self.pg
        if event.type == pg.QUIT:
            self.running = False
            return
        if event.type == pg.VIDEORESIZE:
            self.resize((event.w, event.h))
            return
        if self.start_screen:
            from .startscreen import handle_start
            handle_start(self, event)
            return
        if self.dialog is not None:
            self.dialog.handle(self, event)
            return
        if self.replay is not None:
            if event.type == pg.KEYDOWN and event.key == pg.K_ESCAPE:
                self.finish_replay()
            return
        if self.battle.is_over and self.result.handle(self, event):
            return
        if self.animator.busy() and _skips(pg, event):
            self.animator.skip()
            return
        for handler in self.handlers:
            out = handler.handle(event, self)
            if out is None:
                continue
            for item in out:
                if isinstance(item, Request):
                    self.request(item)
                else:
                    self.submit(item)
            break

    def update(self) -> None:
        self.rules.refresh()
        self._select_current()
        if self.replay is not None:
            self._replay_step()
        was_busy = self.animator.busy()
        self.animator.update()
        if was_busy and not self.animator.busy():
            self.players.wait()  # a pause after the last beat, before the AI moves again
        paused = (self.start_screen or self.ui.gm or self.replay is not None or self.dialog is not None
                  or self.ui.help_open)
        if not paused and not self.animator.busy():
            self.players.tick(self.session, self.toast)
        if self.map_notes_due and not self.start_screen:
            self.map_notes_due = False
            self.toast(describe.map_reading(self.battle.map), error=False)
        if self.map_watch.changed():
            self.reload_map()
        now = time.monotonic()
        self.ui.toasts = [t for t in self.ui.toasts if t.until > now]
        self.map_layer.show_grid = self.ui.overlays["grid"]
        self.map_layer.show_markers = self.ui.overlays["markers"]
        self.hover = self.hovering()
        self._set_cursor()
        if not self.start_screen:
            self.sounds.follow(self.battle.events, self.shown_events())

    def hovering(self) -> Hover:
        """What is under the pointer, what a click would do there, and the resolver's answer."""
        sq = self.ui.hover_square
        if sq is None or self.battle.is_over:
            return Hover(sq, tuple(self.figures_on(sq)))
        here = self.figures_on(sq)
        facing = self.drag_facing() if self.ui.right_drag is not None and self.ui.right_drag[0] == sq else None
        intent = click_intent(self.ui, self.rules, self.selected_figure(), sq, here,
                              lambda fid: self.rules.status(fid).able, facing)
        if intent.action is None:
            preview = None
        elif self.ui.gm and isinstance(intent.action, Move):
            preview = self.rules.gm_preview(intent.action)     # demonstration: a move places the figure
        else:
            preview = self.rules.preview(intent.action)
        return Hover(sq, tuple(here), intent, preview)

    def _set_cursor(self) -> None:
        """The pointer says what a click would do: act, refused, select, or nothing."""
        pg = self.pg
        hover = self.hover
        if hover.intent.kind == "act":
            refused = hover.preview is not None and hover.preview.refusal is not None
            want = pg.SYSTEM_CURSOR_NO if refused else pg.SYSTEM_CURSOR_CROSSHAIR
        elif hover.intent.kind == "select":
            want = pg.SYSTEM_CURSOR_HAND
        else:
            want = pg.SYSTEM_CURSOR_ARROW
        if want != self._cursor and not self.headless:
            self._cursor = want
            pg.mouse.set_cursor(want)
        self._cursor = want

    def frame(self, events=None) -> None:
        events = self.pg.event.get() if events is None else events
        for event in events:
            self.handle(event)
        self.update()
        self.render()
        self.pg.display.flip()
        self.frame_no += 1

    def between_frames(self, seconds: float | None) -> int:
        """Work a frame does not wait for, done in what is left of its slot: the map chunks a pan
        will need (`Scene.prefetch`), each started only while it still ends within `seconds`
        (None: all of them). Returns the chunks built."""
        return self.scene.prefetch(self, FrameBudget(seconds, least=0))

    def run(self, max_frames: int | None = None) -> int:
        while self.running:
            started = time.perf_counter()
            self.frame()
            if max_frames is not None and self.frame_no >= max_frames:
                break
            self.between_frames(started + FRAME_SLOT_S - IDLE_MARGIN_S - time.perf_counter())
            self.clock.tick(60)
        return 0

    def settle(self, max_frames: int = 600) -> None:
        """Run frames until background questions are answered, chunks drawn (the view's and those just
        around it) and animations played."""
        for _ in range(max_frames):
            self.frame([])
            self.between_frames(None)
            if not self.rules.busy() and not self.map_layer.missing_around(self.camera) \
                    and not self.scene.areas.pending(self.camera) and not self.animator.busy():
                break
            time.sleep(0.002)
        self.frame([])

    def screenshot(self, path: str) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.pg.image.save(self.screen, str(path))

    def set_overlay(self, name: str, on: bool) -> None:
        self.ui.overlays[name] = on

    # ----- drawing -----
    def render(self) -> None:
        screen = self.screen
        if self.start_screen:
            from .startscreen import draw_start
            draw_start(self, screen)
            self.panel.shown = False
            return
        self.scene.draw(screen.subsurface(self.map_rect), self)
        hud.draw_status(screen, self)
        self.panel.draw(screen, self)
        # What is drawn over the map stays on it (clipped: the panel's pixels are never touched, so
        # the panel need not be drawn again while nothing in it changes); the boxes that may cover
        # the panel mark it to be drawn again next frame.
        screen.set_clip(self.map_rect)
        hud.draw_banner(screen, self)
        hud.draw_odds_title(screen, self)
        draw_lesson_bar(screen, self)
        hud.draw_callouts(screen, self)
        hud.draw_pointer_box(screen, self)
        hud.draw_messages(screen, self)
        self.comforts.draw(screen, self)
        screen.set_clip(None)
        boxes = ((self.ui.compare, lambda: draw_compare(screen, self)),
                 (self.ui.legend_open, lambda: draw_legend_box(screen, self)),
                 (self.ui.help_open, lambda: draw_guide(screen, self) if self.ui.help_page == "guide"
                  else draw_help(screen, self.fonts)),
                 (self.replay is None and self.battle.is_over and not self.animator.busy(),
                  lambda: self.result.draw(self, screen)),
                 (self.dialog is not None, lambda: self.dialog.draw(self, screen)))
        for shown, draw in boxes:
            if shown:
                draw()
                self.panel.shown = False

    # ----- the panel's content (words from describe.py) -----
    def shown_events(self) -> int:
        """How many events the log shows: it follows the animation, then shows all."""
        shown = self.animator.shown_events
        return len(self.battle.events) if shown is None else min(shown, len(self.battle.events))

    def panel_key(self):
        """(what the panel shows but the hover section, what the hover section shows)."""
        ui = self.ui
        return ((id(self.battle), self.rules.generation, self.shown_events(), ui.selected, ui.mode,
                 ui.planned_altitude, ui.planned_facing, ui.log_scroll, ui.turn_scroll, ui.picked_event, ui.gm,
                 self.players.decision_at, self.players.thinking(), tuple(self.players.kinds.items()),
                 self.screen.get_size(), ui.defend_style, tuple(sorted(ui.collapsed))),
                (ui.hover_square, self.hover.intent, self.hover.preview is None))

    def figure_lines(self, fig) -> list:
        with_options = fig.id == self.rules.snapshot.current
        return describe.figure_lines(self.rules, fig, self.players.name(fig.side), with_options)

    def hover_lines(self) -> list:
        return describe.hover_lines(self.ui, self.rules, self.selected_figure(), self.hover)

    def ai_lines(self) -> list:
        decision = self.players.decision
        if decision is None or self.players.decision_at != len(self.battle.actions):
            return []
        return describe.ai_lines(self.battle.figures, decision)

    def button_states(self) -> dict[str, str]:
        """Which buttons would do something now ("on"), are switched on ("active") or not ("off")."""
        b = self.rules.snapshot
        cur = b.current
        end_ok = cur is not None and self.is_human(cur) and self.rules.options(cur) is not None \
            and self.rules.options(cur)["end-turn"] is None
        return {"undo": "on" if b.actions else "off", "redo": "on" if b.can_redo else "off", "end-turn": "on" if end_ok else "off",
                "gm": "active" if self.ui.gm else "on", "compare": "active" if self.ui.compare else "on"}

    def centre_on_event(self, index: int) -> None:
        ev = self.battle.events[index]
        pts = list(ev.squares)
        for fid in (ev.actor, ev.target):
            if fid and fid in self.battle.figures:
                pts.append(self.battle.figures[fid].pos)
        if pts:
            xs = [p[0] for p in pts]
            ys = [p[1] for p in pts]
            self.camera.center_on(((min(xs) + max(xs)) / 2 + 0.5, (min(ys) + max(ys)) / 2 + 0.5))


def _skips(pg, event) -> bool:
    """Esc, Space or a left click skips what is being played out."""
    return (event.type == pg.KEYDOWN and event.key in (pg.K_ESCAPE, pg.K_SPACE)) or \
        (event.type == pg.MOUSEBUTTONDOWN and event.button == 1)
