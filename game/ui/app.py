"""The game window: a renderer that shows the rules, and an event loop that turns input into actions.

`App.frame()` runs one frame: it takes the pending pygame events, offers each to the input
handlers (game/ui/input.py), applies the actions they return through `battle.apply`, lets
a non-human side's controller act, and draws. Tests post real pygame events and call
`frame()` once per frame; `run()` loops at 60 fps. Nothing on screen about the rules is
worked out here: squares, costs, zones, lanes, cover and parting shots come from
RulesView (the battle's Positioning), and what happened comes from the resolver's events.
"""
from __future__ import annotations

import os
import threading
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from ..core.actions import Action, EndTurn, Move, Turn
from ..core.battle import Battle
from ..core.errors import RulesError
from ..core.refusals import ActionRefused
from ..core.geometry import FACINGS
from ..play import controllers as ctl
from . import overlays as ov
from . import theme
from .camera import Camera
from .help import draw_help
from .maplayer import MapLayer
from .panel import PANEL_W, Panel
from .rulesview import RulesView
from .state import MODE_NAMES, MOVE_MODES, Request, Toast, UIState
from .tokens import TokenSprites, draw_figure, status_of, token_centre

DEFAULT_SIZE = (1280, 800)
TOAST_SECONDS = 4.0
AI_DELAY_S = 0.4
REPLAY_STEP_S = 0.35  # a replayed action every third of a second: quick, but each can be followed
STATUS_H = 26


def tile_art_for(scenario):
    """The Tiled tile images of the scenario's map, or None (ASCII maps, art that fails to load)."""
    try:
        from ..io.tiled import default_asset_root, tile_image_sources
    except ImportError:
        return None
    source = Path(getattr(scenario, "source", "") or "")
    try:
        if source.suffix.lower() in (".tmx", ".tmj", ".json"):
            return tile_image_sources(source)
        if source.suffix.lower() == ".toml" and source.exists():
            from ..io.toml_file import read_toml
            spec = read_toml(source).get("map", {})
            if spec.get("file"):
                map_path = (source.parent / spec["file"]).resolve()
                root = (source.parent / spec["asset_root"]).resolve() if spec.get("asset_root") else default_asset_root(map_path)
                return tile_image_sources(map_path, root)
    except Exception:  # the map loaded; if its art cannot be read, draw the clean look instead
        return None
    return None


class App:
    def __init__(self, scenario, sides: dict[str, str] | None = None, size=DEFAULT_SIZE, background: bool | None = None,
                 start_screen: bool = False, save_path: str | None = None, battle: Battle | None = None,
                 ai_delay: float | None = None):
        import pygame
        self.pg = pygame
        # Only what the game uses: initialising audio too makes SDL probe sound devices (and
        # print ALSA errors on machines without one).
        pygame.display.init()
        pygame.font.init()
        self.headless = os.environ.get("SDL_VIDEODRIVER") == "dummy"
        flags = 0 if self.headless else pygame.RESIZABLE
        self.screen = pygame.display.set_mode(size, flags)
        self.scenario = scenario
        self.battle = battle or Battle.from_scenario(scenario)
        # A title is drawn on one line in places (window caption, start and result screens): keep it short.
        self.title = _short(getattr(self.battle.setup, "title", "") or scenario.title, 200)
        self.description = getattr(self.battle.setup, "description", "") or scenario.description
        pygame.display.set_caption(f"fivefoot: {self.title}")
        self.fonts = theme.Fonts()
        self.ui = UIState()
        self.side_kinds = {}
        self.controllers = {}
        all_sides = self.sides()
        for side in all_sides:
            self.set_side(side, (sides or {}).get(side, "human"))
        self.start_screen = start_screen
        self.rules = RulesView(self.battle, background=(not self.headless) if background is None else background)
        self.map_layer = MapLayer(self.battle.map, tile_art_for(scenario))
        self.map_layer.fonts = self.fonts
        self.ui.overlays["markers"] = self.map_layer.show_markers
        w, h = size
        self.camera = Camera(w - PANEL_W, h - STATUS_H, self.battle.map.width, self.battle.map.height)
        self.panel = Panel(self.fonts, pygame.Rect(w - PANEL_W, 0, PANEL_W, h))
        self.stamps = ov.Stamps()
        self.sprites = TokenSprites()
        self._status_key = None
        self._statuses: dict = {}
        from .input import default_handlers
        self.handlers = default_handlers()
        self.clock = pygame.time.Clock()
        self.running = True
        self.frame_no = 0
        self.ai_delay = (0.0 if self.headless else AI_DELAY_S) if ai_delay is None else ai_delay
        self._ai_last = 0.0
        self._ai_refusals = 0
        self._ai_stopped = False
        self._ai_job = None
        self.ai_note: list[str] | None = None
        self.ai_note_at = -1
        self._last_current = None
        self._area_key = None
        self._area_layers: list = []
        self.save_path = save_path or str(Path.cwd() / "fivefoot-save.json")
        self.on_events = None       # callback(list[Event]) for automation (the CLI prints them)
        self.on_refused = None      # callback(action, reason)
        self.last_refusal: str | None = None
        self.pan_from = None
        # Time a frame may spend drawing map chunks not yet cached (None: all at once, for screenshots).
        self.chunk_budget_s = None if self.headless else 0.006
        from .resultscreen import ResultScreen
        self.result = ResultScreen()
        self.replay: dict | None = None   # {"actions": [...], "next_at": t}: re-watching a finished battle
        self._select_current()

    # ----- geometry of the window -----
    @property
    def map_rect(self):
        w, h = self.screen.get_size()
        return self.pg.Rect(0, STATUS_H, w - PANEL_W, h - STATUS_H)

    def map_point(self, pos) -> tuple[int, int]:
        return (pos[0] - self.map_rect.x, pos[1] - self.map_rect.y)

    def resize(self, size) -> None:
        w, h = size
        self.camera.resize(w - PANEL_W, h - STATUS_H)
        self.panel.resize(self.pg.Rect(w - PANEL_W, 0, PANEL_W, h))

    # ----- who plays -----
    def sides(self) -> list[str]:
        out = []
        for f in self.battle.setup.figures:
            if f.side not in out:
                out.append(f.side)
        return out

    def set_side(self, side: str, kind: str) -> None:
        self.side_kinds[side] = kind
        self.controllers[side] = ctl.make(kind)

    def controller_name(self, side: str) -> str:
        c = self.controllers.get(side)
        if c is None or ctl.is_human(c):
            return "person"
        return getattr(c, "name", None) or self.side_kinds.get(side, "AI")

    # ----- reading the battle -----
    def figure_at(self, sq):
        if sq is None:
            return None
        best = None
        for f in self.battle.figures.values():
            if f.pos == sq and (best is None or f.altitude_ft > best.altitude_ft):
                best = f
        return best

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

    def battle_over(self) -> tuple[bool, object]:
        over = _value(getattr(self.battle, "is_over", False))
        winner = _value(getattr(self.battle, "winner", None)) if over else None
        return bool(over), winner

    def turn_order(self) -> list[tuple[str, object, bool]]:
        """(figure id, initiative number or None, has acted) in the order the resolver will call them."""
        b = self.battle
        slots = getattr(b, "slots", None)
        done = set(getattr(b, "done", ()) or ())
        if getattr(b, "phase", "act") == "declare" and getattr(b, "declare_order", None):
            declared = set(getattr(b, "declare_done", ()) or ())
            return [(fid, "declare", fid in declared) for fid in b.declare_order]
        if slots:
            out, seen = [], set()
            index = getattr(b, "slot_index", 0)
            for i, slot in enumerate(slots):
                for fid in slot.members:
                    if fid in b.figures and fid not in seen:
                        seen.add(fid)
                        out.append((fid, slot.number, i < index or fid in done))
            for fid in b.figures:
                if fid not in seen:
                    out.append((fid, None, True))
            return out
        order = list(getattr(b, "order", [])) or list(b.figures)
        return [(fid, None, False) for fid in order]

    def movement_used(self, figure_id: str):
        """Feet this figure has moved this round (the resolver's count), or None."""
        return self.rules.spent_ft(figure_id) or None

    def disengage_styles(self) -> list[str]:
        """The ruleset's ways of leaving melee (ruleset [disengage].styles), if it has any."""
        try:
            return list(self.battle.ruleset.section("disengage").get("styles", []))
        except (KeyError, AttributeError):
            return []

    def defence_styles(self, figure_id: str) -> list[str]:
        """Defence styles the resolver would accept from this figure now (its legal Defend actions)."""
        fn = getattr(self.battle, "legal_actions", None)
        if not callable(fn):
            return []
        try:
            return list(dict.fromkeys(a.style for a in fn(figure_id) if a.kind == "defend"))
        except Exception:
            return []

    def move_mode_for(self, figure_id: str, sq) -> str:
        mode = self.ui.mode
        if mode in MOVE_MODES and mode != "auto":
            return mode
        return self.rules.auto_mode(figure_id, sq)

    def mode_name(self) -> str:
        name = MODE_NAMES.get(self.ui.mode, self.ui.mode)
        if self.ui.mode == "disengage":
            name += f" ({self.ui.disengage_style}; click a square, Shift+B changes the style)"
        extra = []
        if self.ui.planned_altitude is not None:
            extra.append(f"to {self.ui.planned_altitude} ft")
        if self.ui.planned_facing is not None:
            extra.append(f"end facing {FACINGS[self.ui.planned_facing]}")
        return name + (f" ({', '.join(extra)})" if extra else "")

    # ----- changing the battle: the only places that do -----
    def submit(self, action: Action) -> bool:
        """Apply an action through the resolver; a refusal is shown and changes nothing."""
        if self.ui.gm and isinstance(action, (Move, Turn)):
            fig = self.battle.figures.get(action.figure)
            if fig is not None:
                to = getattr(action, "to", fig.pos)
                return self._gm_place(action.figure, to, action.facing, getattr(action, "altitude_ft", None))
        try:
            events = self.battle.apply(action)
        except ActionRefused as refusal:
            self.refused(action, refusal.reason)
            return False
        self.after_change(events)
        if isinstance(action, (Move, Turn)):
            self.ui.planned_altitude = self.ui.planned_facing = None
            if self.ui.mode in ("sidestep", "withdraw"):
                self.ui.mode = "auto"
        return True

    def refused(self, action, reason: str) -> None:
        self.last_refusal = reason
        self.toast(f"Refused: {reason}")
        if self.on_refused:
            self.on_refused(action, reason)

    def after_change(self, events) -> None:
        self.ui.log_scroll = 0
        if self.ui.picked_event is not None and self.ui.picked_event >= len(self.battle.events):
            self.ui.picked_event = None
        if self.on_events and events:
            self.on_events(events)

    def request(self, req: Request) -> None:
        kind = req.kind
        b = self.battle
        if self.ai_thinking() and kind in ("undo", "redo", "ruleset", "load", "gm-place", "end-turn"):
            self.toast("the AI is thinking; wait for its move")
            return
        if kind == "undo":
            done = b.undo()
            self.after_change([])
            self.toast(f"undid {done.kind} by {done.figure}" if done else "nothing to undo", error=False)
        elif kind == "redo":
            events = b.redo()
            self.after_change(events)
            self.toast("redid: " + events[0].text if events else "nothing to redo", error=False)
        elif kind == "end-turn":
            cur = b.current
            if cur is None:
                return
            if not ctl.is_human(self.controllers.get(b.figures[cur].side)):
                self.toast(f"it is {b.figures[cur].label}'s turn and an AI plays it")
                return
            self.submit(EndTurn(figure=cur))
        elif kind == "select-next":
            self._select_next(req.arg or 1)
        elif kind == "help":
            self.ui.help_open = not self.ui.help_open
        elif kind == "gm":
            self.ui.gm = not self.ui.gm
            self.toast("Demonstration mode " + ("on: drag any figure to place it; [ ] switch rules" if self.ui.gm
                                                else "off"), error=False)
        elif kind == "ruleset":
            if not self.ui.gm:
                self.toast("switching the rules is a demonstration tool: press G first")
                return
            self.cycle_ruleset(req.arg or 1)
        elif kind == "gm-place":
            fid, sq = req.arg
            self._gm_place(fid, sq, None, None)
        elif kind == "save":
            self.save()
        elif kind == "load":
            self.load()
        elif kind == "quit":
            self.running = False

    def _gm_place(self, fid, sq, facing, altitude_ft) -> bool:
        try:
            events = self.battle.gm_place(fid, x=sq[0], y=sq[1], facing=facing, altitude_ft=altitude_ft)
        except ActionRefused as refusal:
            self.refused(None, refusal.reason)
            return False
        self.after_change(events or [])
        return True

    def cycle_ruleset(self, step: int) -> None:
        """Rebuild the battle's setup under the next ruleset, with the figures where they stand now."""
        from ..io.rulesets import bundled_ruleset_ids, load_ruleset
        ids = bundled_ruleset_ids()
        current = self.battle.ruleset.id
        i = ids.index(current) if current in ids else -1
        new_id = ids[(i + step) % len(ids)]
        self.switch_ruleset(load_ruleset(new_id))

    def switch_ruleset(self, ruleset) -> None:
        old = self.battle
        setup = replace(old.setup, ruleset=ruleset, figures=tuple(old.figures.values()))
        self.battle = Battle(setup)
        self.rules.bind(self.battle)
        self._area_key = None
        self.ui.picked_event = None
        self.toast(f"Rules now: {ruleset.name} [{ruleset.id}]. Same position; the action log starts afresh.", error=False)
        from ..core.scenario import weapons_missing_from
        for note in weapons_missing_from(self.battle.figures.values(), ruleset):
            self.toast(note)

    def save(self) -> None:
        from ..io.saves import save_battle
        try:
            save_battle(self.battle, self.save_path)
        except (OSError, RulesError) as err:
            self.toast(f"could not save: {err}")
            return
        self.toast(f"saved to {self.save_path}", error=False)

    def load(self) -> None:
        """Load the saved battle; a damaged or missing save leaves the battle on screen as it was."""
        from ..io.saves import load_battle
        if not Path(self.save_path).exists():
            self.toast(f"no saved battle at {self.save_path} (Ctrl+S saves one)")
            return
        try:
            battle = load_battle(self.save_path)
        except (OSError, RulesError) as err:
            self.toast(f"could not load: {err}")
            return
        self._install(battle)
        if (battle.map.width, battle.map.height) != (self.map_layer.map.width, self.map_layer.map.height) or \
                battle.map is not self.map_layer.map:
            self.map_layer = MapLayer(battle.map, self.map_layer.art.art if self.map_layer.art and
                                      (battle.map.width, battle.map.height) == (self.map_layer.map.width,
                                                                               self.map_layer.map.height) else None)
            self.map_layer.fonts = self.fonts
            self.camera.map_w, self.camera.map_h = battle.map.width, battle.map.height
            self.camera.clamp()
        self.toast(f"loaded {self.save_path}", error=False)

    def _install(self, battle) -> None:
        """Show another battle (loaded, restarted, replayed) with no stale selection or caches."""
        self.battle = battle
        self.rules.bind(battle)
        self._area_key = None
        self._last_current = None
        self._ai_job = None
        self._ai_stopped = False
        self.ui.selected = None
        self.ui.picked_event = None
        self.result.dismissed = False

    # ----- after the battle -----
    def restart(self) -> None:
        """A new battle from the same setup, with the next seed so the dice fall differently."""
        setup = replace(self.battle.setup, seed=self.battle.setup.seed + 1)
        self.replay = None
        self._install(Battle(setup))
        self.toast(f"restarted with seed {setup.seed}", error=False)

    def start_replay(self) -> None:
        """Re-watch the finished battle: same setup and seed, its actions re-applied one by one."""
        actions = list(self.battle.actions)
        self._install(Battle(self.battle.setup))
        self.replay = {"actions": actions, "next_at": 0.0}
        self.toast("replaying the battle (Esc skips to the end)", error=False)

    def _replay_step(self) -> None:
        if self.replay is None:
            return
        now = time.monotonic()
        if now < self.replay["next_at"]:
            return
        if not self.replay["actions"]:
            self.replay = None
            return
        action = self.replay["actions"].pop(0)
        events = self.battle.apply(action)  # the same seed and actions: it cannot be refused
        self.after_change(events)
        self.replay["next_at"] = now + (0.0 if self.headless else REPLAY_STEP_S)

    def _finish_replay(self) -> None:
        while self.replay is not None:
            self.replay["next_at"] = 0.0
            self._replay_step()

    def toast(self, text: str, error: bool = True) -> None:
        self.ui.toasts = [t for t in self.ui.toasts if t.text != text][-2:]
        self.ui.toasts.append(Toast(text, time.monotonic() + TOAST_SECONDS, error))

    # ----- turns -----
    def _select_current(self) -> None:
        cur = self.battle.current
        if cur != self._last_current:
            self._last_current = cur
            if cur is not None and cur in self.battle.figures:
                self.select(cur, centre=True)

    def _select_next(self, step: int) -> None:
        ids = list(getattr(self.battle, "order", [])) or list(self.battle.figures)
        if not ids:
            return
        i = ids.index(self.ui.selected) if self.ui.selected in ids else -1
        self.select(ids[(i + step) % len(ids)], centre=True)

    def _ai_turn(self) -> None:
        b = self.battle
        cur = b.current
        if cur is None or self._ai_stopped or self.start_screen or self.ui.gm or self.replay is not None:
            return
        fig = b.figures.get(cur)
        controller = self.controllers.get(fig.side) if fig else None
        if controller is None or ctl.is_human(controller) or self.battle_over()[0]:
            return
        if self._ai_job is not None:
            job_battle, job_figure, result = self._ai_job
            if result is _PENDING:
                return
            self._ai_job = None
            if job_battle is not b or job_figure != cur:
                return  # the battle changed under the AI (undo, load): ask again
            self._ai_apply(controller, fig, result)
            return
        now = time.monotonic()
        if now - self._ai_last < self.ai_delay:
            return
        self._ai_last = now
        if not self.rules.background:
            self._ai_apply(controller, fig, _choose(controller, b, cur))
            return
        # The AI may think for a second or more (a flyer's 3-D search): never freeze the window.
        job = [b, cur, _PENDING]
        self._ai_job = job
        private = b.clone()  # the AI thinks on its own copy: the window's battle is never touched off-thread

        def think():
            job[2] = _choose(controller, private, cur)
        threading.Thread(target=think, name="fivefoot-ai", daemon=True).start()

    def _ai_apply(self, controller, fig, result) -> None:
        cur = fig.id
        if isinstance(result, Exception):
            self.toast(f"the {self.side_kinds.get(fig.side)} controller failed: {result}")
            result = EndTurn(figure=cur)
        ok = self.submit(result)
        decision = getattr(controller, "last_decision", None)
        explain = getattr(decision, "explain", None)
        self.ai_note = explain(4).splitlines() if callable(explain) else None
        self.ai_note_at = len(self.battle.actions)
        if ok:
            self._ai_refusals = 0
            return
        self._ai_refusals += 1
        if self._ai_refusals >= 3 and not self.submit(EndTurn(figure=cur)):
            self._ai_stopped = True
            self.toast("the AI cannot act and cannot end its turn: AI play stopped")

    def ai_thinking(self) -> bool:
        return self._ai_job is not None

    # ----- the frame -----
    def handle(self, event) -> None:
        pg = self.pg
        if event.type == pg.QUIT:
            self.running = False
            return
        if event.type in (pg.VIDEORESIZE, getattr(pg, "WINDOWRESIZED", -1)) and hasattr(event, "w"):
            self.resize((event.w, event.h))
            return
        if self.start_screen:
            from .startscreen import handle_start
            handle_start(self, event)
            return
        if self.replay is not None:
            if event.type == pg.KEYDOWN and event.key == pg.K_ESCAPE:
                self._finish_replay()
            return
        if self.battle_over()[0] and self.result.handle(self, event):
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
        if self.rules.refresh():
            self._area_key = None
        self._select_current()
        self._replay_step()
        self._ai_turn()
        now = time.monotonic()
        self.ui.toasts = [t for t in self.ui.toasts if t.until > now]
        self.map_layer.show_grid = self.ui.overlays["grid"]
        self.map_layer.show_markers = self.ui.overlays["markers"]

    def frame(self, events=None) -> None:
        events = self.pg.event.get() if events is None else events
        for event in events:
            self.handle(event)
        self.update()
        self.render()
        self.pg.display.flip()
        self.frame_no += 1

    def run(self, max_frames: int | None = None) -> int:
        while self.running:
            self.frame()
            if max_frames is not None and self.frame_no >= max_frames:
                break
            self.clock.tick(60)
        return 0

    def settle(self, max_frames: int = 600) -> None:
        """Run frames until background planning is done and every visible chunk is drawn (screenshots)."""
        for _ in range(max_frames):
            self.frame([])
            if not self.rules.busy() and not self.map_layer.pending(self.camera):
                break
            time.sleep(0.002)
        self.frame([])

    def screenshot(self, path: str) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.pg.image.save(self.screen, str(path))

    # ----- drawing -----
    def set_overlay(self, name: str, on: bool) -> None:
        self.ui.overlays[name] = on
        self._area_key = None

    def render(self) -> None:
        screen = self.screen
        if self.start_screen:
            from .startscreen import draw_start
            draw_start(self, screen)
            return
        rect = self.map_rect
        screen.fill(theme.BACKGROUND, rect)
        view = screen.subsurface(rect)
        self.map_layer.draw(view, self.camera, self.chunk_budget_s)
        self._draw_overlays(view)
        self._draw_status(screen)
        self.panel.draw(screen, self)
        self._draw_toasts(screen)
        if self.ui.help_open:
            draw_help(screen, self.fonts, self)
        if self.replay is None and self.battle_over()[0]:
            self.result.draw(self, screen)

    def _area(self):
        """Area overlay squares as numpy arrays, recomputed only when the position or switches change."""
        ui = self.ui
        key = (self.rules.generation, ui.selected, ui.mode, ui.planned_altitude, tuple(sorted(ui.overlays.items())),
               ui.picked_event, len(self.battle.events), self.rules.spent_ft(ui.selected) if ui.selected else 0)
        if key == self._area_key:
            return self._area_layers
        layers = []
        fig = self.selected_figure()
        figures = list(self.battle.figures.values())
        foes = [f for f in figures if fig is None or f.side != fig.side]
        complete = True
        if ui.overlays["zones"]:
            squares = set()
            for f in foes:
                squares.update(self.rules.zone(f.id))
            layers.append(("zone", _arr(squares)))
        if ui.overlays["threat"]:
            by_side: dict = {}
            for f in foes:
                by_side.setdefault(f.side, set()).update(self.rules.threatened(f.id))
            for side, squares in by_side.items():
                colour = ",".join(str(v) for v in theme.side_colour(side))
                layers.append((f"threat:{colour}", _arr(squares)))
        if ui.overlays["reach"] and fig is not None and ui.mode in MOVE_MODES:
            alt = ui.planned_altitude
            if ui.mode == "auto":
                walk = self.rules.reach(fig.id, "walk")
                run = self.rules.reach(fig.id, "run")
                complete = walk is not None and run is not None
                walk_sq = set(_at_altitude(walk, alt)) if walk else set()
                run_sq = set(_at_altitude(run, alt)) - walk_sq if run else set()
                layers.insert(0, ("run", _arr(run_sq)))
                layers.insert(1, ("walk", _arr(walk_sq)))
            else:
                info = self.rules.reach(fig.id, ui.mode)
                complete = info is not None
                style = "run" if ui.mode in ("run", "jog") else "walk"
                layers.insert(0, (style, _arr(_at_altitude(info, alt) if info else [])))
        if ui.picked_event is not None and ui.picked_event < len(self.battle.events):
            ev = self.battle.events[ui.picked_event]
            layers.append(("highlight", _arr(ev.squares)))
        self._area_layers = layers
        self._area_key = key if complete else None
        return layers

    def _hover_preview(self):
        ui = self.ui
        fig = self.selected_figure()
        sq = ui.hover_square
        if fig is None or sq is None or ui.mode not in MOVE_MODES or ui.gm:
            return None
        if sq == fig.pos and ui.planned_altitude is None and ui.planned_facing is None:
            return None
        if self.figure_at(sq) is not None and sq != fig.pos:
            return None
        facing = ui.planned_facing
        if ui.right_drag is not None and ui.right_drag[0] == sq:
            facing = self._drag_facing()
        return self.rules.preview(fig.id, ui.mode, sq, facing, ui.planned_altitude)

    def _drag_facing(self):
        from ..core.geometry import bearing_octant
        if self.ui.right_drag is None:
            return None
        (_, start) = self.ui.right_drag
        dx, dy = self.ui.mouse[0] - start[0], self.ui.mouse[1] - start[1]
        if abs(dx) + abs(dy) < 5:
            return None
        return bearing_octant((0, 0), (dx, dy))

    def screen_pos(self, square) -> tuple[int, int]:
        """Window pixel at the centre of a square (for tests and automation)."""
        x, y = self.camera.centre_of(square)
        return (x + self.map_rect.x, y + self.map_rect.y)

    def hovered_figure(self):
        return self.figure_at(self.ui.hover_square)

    def _draw_overlays(self, view) -> None:
        pg = self.pg
        cam = self.camera
        ui = self.ui
        figures = self.battle.figures
        for style, arr in self._area():
            ov.blit_squares(view, cam, self.stamps, style, arr)
        fig = self.selected_figure()
        hovered = self.hovered_figure()
        # Engaged pairs: a link between figures that are in each other's zone.
        if ui.overlays["zones"]:
            for a, b, _d in self.rules.engaged_pairs():
                ca, cb = token_centre(cam, a)[:2], token_centre(cam, b)[:2]
                pg.draw.line(view, (200, 60, 200), ca, cb, max(2, cam.cell // 10))
        if fig is not None and (ui.overlays["lanes"] or ui.mode == "charge"):
            ov.draw_lanes(view, cam, self.fonts, self.stamps, self.rules.lanes(fig.id), figures,
                          hovered.id if hovered else None, show_refused=ui.mode == "charge")
        picked = self.battle.events[ui.picked_event] if ui.picked_event is not None and ui.picked_event < len(
            self.battle.events) else None
        involved = {picked.actor, picked.target} if picked else set()
        x0, y0, x1, y1 = cam.visible_squares()
        current = self.battle.current
        order = sorted(figures.values(), key=lambda f: (f.altitude_ft > 0, f.y, f.altitude_ft))
        for f in order:
            if not (x0 - 1 <= f.x <= x1 and y0 - 1 <= f.y <= y1):
                continue
            self.sprites.draw(view, cam, self.fonts, f, self.status(f), selected=f.id == ui.selected,
                              current=f.id == current, highlighted=f.id in involved)
        if fig is not None and ui.right_drag is not None:
            facing = self._drag_facing()
            if facing is not None and ui.right_drag[0] == fig.pos:
                ghost = replace(fig, facing=facing)
                draw_figure(view, cam, self.fonts, ghost, {}, ghost=True)
        preview = self._hover_preview()
        if preview is not None and preview.planned is not None and (ui.overlays["path"] or ui.mode == "charge"):
            ov.draw_path(view, cam, self.fonts, preview, ui.overlays["path"])
        if preview is not None and preview.planned is not None and ui.overlays["parting"]:
            ov.draw_parting_shots(view, cam, self.fonts, preview, figures)
        if ui.mode == "charge" and fig is not None and hovered is not None and hovered.side != fig.side:
            planned = self.rules.preview(fig.id, "charge", hovered.pos)
            if planned is not None and planned.planned is not None:
                ov.draw_path(view, cam, self.fonts, planned, ui.overlays["path"])
                if ui.overlays["parting"]:
                    ov.draw_parting_shots(view, cam, self.fonts, planned, figures)
        if ui.overlays["sight"] and fig is not None and hovered is not None and hovered.id != fig.id:
            ov.draw_sight(view, cam, self.fonts, self.stamps, self.rules.sight(fig.id, hovered.id), fig, hovered)
        self._draw_tooltip(view, preview)

    def _draw_tooltip(self, view, preview) -> None:
        lines = self.tooltip_lines(preview)
        if not lines or self.ui.hover_square is None:
            return
        pg = self.pg
        mx, my = self.map_point(self.ui.mouse)
        surfs = [self.fonts.render(line, 13, c, True) for t, c in lines for line in self.fonts.wrap(t, 340, 13, True)[:4]]
        w = max(s.get_width() for s in surfs) + 12
        h = sum(s.get_height() for s in surfs) + 8
        x = mx + 18 if mx + 18 + w < view.get_width() else mx - w - 8
        y = my + 18 if my + 18 + h < view.get_height() else my - h - 8
        box = pg.Rect(x, y, w, h)
        panel = pg.Surface(box.size, pg.SRCALPHA)
        panel.fill((18, 20, 26, 225))
        view.blit(panel, box)
        pg.draw.rect(view, theme.PANEL_EDGE, box, 1, border_radius=4)
        yy = y + 4
        for s in surfs:
            view.blit(s, (x + 6, yy))
            yy += s.get_height()

    def tooltip_lines(self, preview) -> list:
        """A few short lines by the pointer: the move's cost, a refusal's reason, a lane's reason."""
        ui = self.ui
        fig = self.selected_figure()
        hovered = self.hovered_figure()
        out = []
        if ui.gm and hovered is not None:
            return [(f"{hovered.label}: drag to place", theme.PANEL_TEXT)]
        if fig is not None and hovered is not None and hovered.side != fig.side:
            if ui.mode in ("attack", "aim"):
                words = f"click to {ui.mode} {hovered.label}"
                explained = self.rules.explain_attack(fig.id, hovered.id) if ui.mode == "attack" else None
                if explained is not None and not isinstance(explained, Exception):
                    if not getattr(explained, "allowed", True):
                        return [(f"not now: {getattr(explained, 'reason', '')}", theme.PANEL_WARN)]
                    chance = getattr(explained, "chance", None)
                    if callable(chance):
                        words += f": {chance():.0%} to hit"
                return [(words, theme.PANEL_TEXT)]
            if ui.mode == "charge" or ui.overlays["lanes"]:
                for lane in self.rules.lanes(fig.id):
                    if lane.target_id == hovered.id and (lane.legal or ui.mode == "charge"):
                        out.append((("Charge: " + f"{_ft(lane.distance_ft)} ft, legal") if lane.legal
                                    else "No charge: " + lane.reason,
                                    theme.PANEL_GOOD if lane.legal else theme.PANEL_WARN))
            return out
        if preview is None:
            if fig is not None and ui.hover_square is not None and ui.mode in MOVE_MODES and self.rules.busy():
                return [("planning...", theme.PANEL_DIM)]
            return out
        if preview.planned is not None:
            if not ui.overlays["path"]:
                p = preview.planned.path
                out.append((f"{p.mode}: {_ft(p.total_ft)} ft of {_ft(p.budget_ft - preview.spent_ft)} ft left",
                            theme.PANEL_TEXT))
            if not ui.overlays["parting"]:
                for shot in preview.planned.parting_shots:
                    out.append((f"parting shot: {shot.attacker} at {shot.bonus:+d}", theme.PANEL_WARN))
        if preview.reason:
            out.append((preview.reason, theme.PANEL_WARN))
        return out

    def _draw_status(self, screen) -> None:
        pg = self.pg
        w = self.map_rect.w
        bar = pg.Rect(0, 0, w, STATUS_H)
        pg.draw.rect(screen, (30, 32, 40), bar)
        pg.draw.line(screen, theme.PANEL_EDGE, (0, STATUS_H - 1), (w, STATUS_H - 1))
        parts = [f"Mode: {self.mode_name()}"]
        cur = self.battle.figures.get(self.battle.current) if self.battle.current else None
        if cur is not None:
            parts.append(f"Turn: {cur.label} ({self.controller_name(cur.side)})")
        if self.ui.gm:
            parts.append("DEMONSTRATION")
        if self.rules.busy():
            parts.append("planning...")
        if self.ai_thinking():
            parts.append("AI thinking...")
        parts.append("F1: keys")
        text = "   |   ".join(parts)
        screen.blit(self.fonts.render(text, 14, theme.PANEL_TEXT, True), (10, 5))

    def _draw_toasts(self, screen) -> None:
        pg = self.pg
        if not self.ui.toasts:
            return
        area = self.map_rect
        y = area.bottom - 12
        for toast in reversed(self.ui.toasts):
            lines = self.fonts.wrap(toast.text, area.w - 80, 15, True)[:4]
            surfs = [self.fonts.render(line, 15, (255, 255, 255), True) for line in lines]
            w = max(s.get_width() for s in surfs) + 24
            h = sum(s.get_height() for s in surfs) + 12
            box = pg.Rect(area.x + (area.w - w) // 2, y - h, w, h)
            pg.draw.rect(screen, theme.TOAST_BG if toast.error else theme.TOAST_INFO_BG, box, border_radius=8)
            pg.draw.rect(screen, (255, 120, 100) if toast.error else (120, 180, 255), box, 2, border_radius=8)
            yy = box.y + 6
            for s in surfs:
                screen.blit(s, (box.x + 12, yy))
                yy += s.get_height()
            y = box.y - 6

    # ----- the panel's content -----
    def panel_key(self):
        ui = self.ui
        b = self.battle
        return (id(b), len(b.events), len(b.actions), b.current, ui.selected, ui.hover_square, ui.mode,
                ui.planned_altitude, ui.planned_facing, ui.log_scroll, ui.picked_event, ui.gm, self.rules.generation,
                self.ai_note_at, self.ai_thinking(),
                tuple(self.side_kinds.items()), self.screen.get_size(), ui.defend_style, b.ruleset.id,
                self.rules.spent_ft(ui.selected) if ui.selected in b.figures else 0)

    def status(self, fig) -> dict:
        """Hit points and conditions of a figure, read from the resolver once per battle change."""
        b = self.battle
        key = (id(b), len(b.events), len(b.actions), getattr(b, "round", 0))
        if key != self._status_key:
            self._status_key = key
            self._statuses = {}
        st = self._statuses.get(fig.id)
        if st is None:
            st = self._statuses[fig.id] = status_of(b, fig)
        return st

    def figure_lines(self, fig) -> list:
        rs = self.battle.ruleset
        st = self.status(fig)
        lines = []
        weapon = fig.ready_weapon
        reach = self.rules.reach_ft(fig.id)
        lines.append((f"{fig.side} side · {self.controller_name(fig.side)} · {fig.size}", theme.PANEL_TEXT))
        spent = self.rules.spent_ft(fig.id)
        move = f"Move {fig.move_ft} ft (run x{rs.section('movement')['run_multiplier']:g})"
        if spent:
            move += f", {_ft(spent)} ft used this round"
        lines.append((move, theme.PANEL_TEXT))
        turning = f"turning distance {fig.turning_ft} ft" if fig.turning_ft else "turns freely"
        lines.append((f"Faces {fig.facing_name}, {turning}", theme.PANEL_TEXT))
        lines.append((f"Weapon {weapon} (reach {reach} ft)" + (f"; also {', '.join(fig.weapons[1:])}" if len(fig.weapons) > 1 else ""),
                      theme.PANEL_TEXT))
        if fig.flyer != "none":
            lines.append((f"Flyer ({fig.flyer}), altitude {fig.altitude_ft} ft; PgUp/PgDn plan a climb or dive",
                          theme.PANEL_ACCENT))
        if st["hp"] is not None:
            lines.append((f"Hit points {st['hp']}/{st['hp_max']}", theme.PANEL_GOOD if st["hp"] * 2 > st["hp_max"]
                          else theme.PANEL_WARN))
        if st["conditions"]:
            lines.append(("Conditions: " + ", ".join(st["conditions"]), theme.PANEL_WARN))
        full = _full_status(self.battle, fig.id)
        if full is not None:
            extra = []
            left = getattr(full, "movement_left_ft", None)
            if left is not None:
                extra.append(f"{_ft(left)} ft of move left")
            if getattr(full, "attacks_left", None) is not None:
                extra.append(f"{full.attacks_left} attack{'s' if full.attacks_left != 1 else ''} left")
            if getattr(full, "defense", ""):
                extra.append(f"defending: {full.defense}")
            if getattr(full, "charging", ""):
                extra.append(f"charging {full.charging}")
            if getattr(full, "initiative", ()):
                extra.append("initiative " + ", ".join(str(i) for i in full.initiative))
            if extra:
                lines.append(("; ".join(extra), theme.PANEL_TEXT))
        if fig.id == self.battle.current:
            kinds = self.rules.legal_kinds(fig.id)
            if kinds:
                lines.append(("Can now: " + ", ".join(kinds), theme.PANEL_DIM))
        return lines

    def hover_lines(self) -> list:
        """The panel's 'under the cursor' section: path steps with rules, reasons, sight, terrain."""
        ui = self.ui
        out = []
        fig = self.selected_figure()
        hovered = self.hovered_figure()
        sq = ui.hover_square
        if fig is None:
            out.append(("Click a figure to select it (Tab cycles; F1 lists every key).", theme.PANEL_DIM))
        elif ui.mode in ("attack", "aim") and hovered is not None and hovered.side != fig.side:
            out.extend(self._what_if(fig, hovered))
        elif ui.mode == "charge" or (hovered is not None and hovered.side != fig.side):
            if hovered is not None and hovered.side != fig.side:
                for lane in self.rules.lanes(fig.id):
                    if lane.target_id == hovered.id:
                        out.append((f"Charge at {hovered.label}: {'legal' if lane.legal else 'refused'} [{lane.rule}]",
                                    theme.PANEL_GOOD if lane.legal else theme.PANEL_WARN))
                        out.append((lane.reason, theme.PANEL_TEXT))
                sight = self.rules.sight(fig.id, hovered.id)
                if sight is not None:
                    out.append((_sight_words(sight), theme.PANEL_ACCENT))
            elif ui.mode == "charge":
                out.append(("Charge mode: click a foe. Orange lanes are legal; grey dashed ones are refused "
                            "(hover the foe for why).", theme.PANEL_DIM))
        else:
            preview = self._hover_preview()
            if preview is not None:
                if preview.planned is not None:
                    p = preview.planned.path
                    out.append((f"{p.mode} to {p.end.x},{p.end.y}: {_ft(p.total_ft)} ft "
                                f"(budget {_ft(p.budget_ft)}, used {_ft(preview.spent_ft)})", theme.PANEL_TEXT))
                    for s in p.steps[1:]:
                        cost = _ft(s.cost_ft)
                        out.append((f"  {s.x},{s.y} {FACINGS[s.facing]} +{cost} = {_ft(s.total_ft)} ft: {s.note} [{s.rule}]",
                                    theme.PANEL_DIM))
                    if p.stall:
                        out.append(("The flyer stalls: it moves too little horizontally", theme.PANEL_WARN))
                    for shot in preview.planned.parting_shots:
                        out.append((f"Parting shot: {shot.attacker} strikes at {shot.bonus:+d}: {shot.reason} [{shot.rule}]",
                                    theme.PANEL_WARN))
                if preview.reason:
                    out.append((preview.reason, theme.PANEL_WARN))
            elif hovered is not None and hovered.id != fig.id:
                sight = self.rules.sight(fig.id, hovered.id)
                if sight is not None:
                    out.append((f"{hovered.label}: " + _sight_words(sight), theme.PANEL_ACCENT))
        if sq is not None:
            out.append((self.square_words(sq), theme.PANEL_DIM))
        return out

    def _what_if(self, fig, foe) -> list:
        out = [(f"What if {fig.label} attacks {foe.label}?", theme.PANEL_TEXT)]
        explained = self.rules.explain_attack(fig.id, foe.id)
        if explained is None and getattr(self.battle, "explain_attack", None) is None:
            sight = self.rules.sight(fig.id, foe.id)
            if sight is not None:
                out.append((_sight_words(sight), theme.PANEL_ACCENT))
            out.append(("The full modifier breakdown appears here once the resolver has Battle.explain_attack.",
                        theme.PANEL_DIM))
            return out
        if isinstance(explained, Exception):
            out.append((str(explained), theme.PANEL_WARN))
            return out
        from .panel import event_lines
        if callable(getattr(explained, "lines", None)):
            for line in explained.lines():
                colour = (theme.PANEL_WARN if line.startswith("not possible") else
                          theme.PANEL_ACCENT if line.strip()[:1] in "+-" else theme.PANEL_TEXT)
                out.append((line, colour))
            chance = getattr(explained, "chance", None)
            if callable(chance):
                out.append((f"chance to hit about {chance():.0%}", theme.PANEL_GOOD))
            return out
        if hasattr(explained, "text") and hasattr(explained, "modifiers"):
            return out + event_lines(explained)
        if isinstance(explained, dict):
            for k, v in explained.items():
                out.append((f"{k}: {v}", theme.PANEL_TEXT))
            return out
        if isinstance(explained, (list, tuple)):
            for item in explained:
                if hasattr(item, "text"):
                    out.extend(event_lines(item))
                else:
                    out.append((str(item), theme.PANEL_TEXT))
            return out
        out.append((str(explained), theme.PANEL_TEXT))
        return out

    def square_words(self, sq) -> str:
        from ..core.cover import COVER_DEGREES
        m = self.battle.map
        x, y = sq
        parts = []
        if m.blocks_move[y, x] and m.blocks_sight[y, x]:
            parts.append("closed door" if m.door[y, x] else "wall")
        elif m.blocks_move[y, x]:
            parts.append("trunk or pillar (blocks movement, not sight)")
        if m.door[y, x] and not m.blocks_move[y, x]:
            parts.append("open doorway")
        if m.cover[y, x] and not (m.blocks_move[y, x] and m.blocks_sight[y, x]):
            parts.append(f"{COVER_DEGREES[m.cover[y, x]]} cover")
        if m.concealment[y, x]:
            parts.append(f"{COVER_DEGREES[m.concealment[y, x]]} concealment")
        if m.water[y, x]:
            parts.append("water")
        if m.difficult[y, x]:
            parts.append("difficult (x2 cost)")
        if m.obstacle_height_ft[y, x] and m.obstacle_height_ft[y, x] < 10_000:
            parts.append(f"{m.obstacle_height_ft[y, x]} ft tall")
        if m.elevation_ft[y, x]:
            parts.append(f"floor {m.elevation_ft[y, x]} ft")
        return f"Square {x},{y}: " + (", ".join(parts) if parts else "open ground")

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


# ----- helpers -----
_PENDING = object()


def _choose(controller, battle, figure_id):
    try:
        return controller.choose(battle, figure_id)
    except Exception as err:  # a controller's bug must not take the window down
        return err


def _full_status(battle, figure_id):
    fn = getattr(battle, "status", None)
    if not callable(fn):
        return None
    try:
        return fn(figure_id)
    except Exception:
        return None


def _value(v):
    return v() if callable(v) else v


def _arr(squares) -> np.ndarray:
    squares = list(squares)
    if not squares:
        return np.zeros((0, 2), np.int32)
    return np.asarray(squares, dtype=np.int32).reshape(-1, 2)


def _at_altitude(info, altitude):
    """Squares of a reach result; with a planned altitude, only those reachable at that altitude."""
    if info is None:
        return []
    squares = info.squares()
    if altitude is None:
        return squares
    left = info.left_ft + 1e-9
    return [sq for sq in squares if info.entries[sq].altitudes.get(altitude, 1e18) <= left]


def _ft(value) -> str:
    return f"{int(value)}" if float(value).is_integer() else f"{value:.1f}"


def _short(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _sight_words(sight) -> str:
    if not sight.visible:
        return "No line of sight (full cover)"
    words = f"Line of sight: {sight.cover} cover, {sight.concealment} concealment"
    if sight.blockers:
        what = sorted({f"{w} at {x},{y}" for x, y, w in sight.blockers})[:3]
        words += " (" + "; ".join(what) + ")"
    return words
