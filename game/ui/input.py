"""Input handlers: small objects that turn pygame events into battle actions and requests.

Each handler's `handle(event, app)` returns None when the event is not its business, or a
list (possibly empty) of Actions for battle.apply and Requests for the App. Handlers may
change the window's own state (selection, camera, switches) but never the battle.
The App offers each event to the handlers in order; the first that takes it wins.
"""
from __future__ import annotations

import pygame

from ..core.values.actions import Defend, Escape, Hold, Move, Release, SetAgainstCharge, Turn
from ..core.values.geometry import FACINGS, bearing_octant
from ..client.intent import click_intent, with_path
from ..client.state import OVERLAY_KEYS
from ..client.state import Request

DRAG_THRESHOLD_PX = 5
PAN_STEP_PX = 48


def _ctrl(event) -> bool:
    return bool(event.mod & pygame.KMOD_CTRL)


def _shift(event) -> bool:
    return bool(event.mod & pygame.KMOD_SHIFT)


class HelpInput:
    """F1 opens the guide, F1 again the key list; while either is open any other key or click closes it."""

    def handle(self, event, app):
        ui = app.ui
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F1:
            if ui.help_open and ui.help_page == "guide":
                ui.help_page = "keys"
            else:
                ui.help_open, ui.help_page = not ui.help_open, "guide"
            return []
        if ui.help_open and event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            ui.help_open = False
            return []
        return None


class PanelInput:
    """The side panel: click an initiative row to select, an event to highlight it; wheel scrolls."""

    def handle(self, event, app):
        if event.type not in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEWHEEL):
            return None
        pos = app.ui.mouse if event.type == pygame.MOUSEWHEEL else event.pos
        if not app.panel.rect.collidepoint(pos):
            return None
        if event.type == pygame.MOUSEWHEEL:
            app.panel.scroll(app, pos, event.y)
            return []
        if event.button == 1:
            hit = app.panel.hit(pos)
            if hit is None:
                return []
            kind, value = hit
            if kind == "figure":
                app.select(value, centre=True)
            elif kind == "event":
                app.ui.picked_event = None if app.ui.picked_event == value else value
                if app.ui.picked_event is not None:
                    app.centre_on_event(value)
            elif kind == "button":
                return [Request(value)]
            elif kind == "section":
                return [Request("section", value)]
        elif event.button in (4, 5):
            app.panel.scroll(app, pos, 1 if event.button == 4 else -1)
        return []


class CameraInput:
    """Wheel zooms about the pointer; arrow keys pan; +/- zoom; Home centres on the selection."""

    def handle(self, event, app):
        cam = app.camera
        box = app.compare_state.box if app.ui.compare else None
        if event.type == pygame.MOUSEWHEEL and box is not None and box.collidepoint(app.ui.mouse):
            app.compare_state.scroll = max(0, app.compare_state.scroll - 3 * event.y)   # the panel's lines, not the zoom
            return []
        if event.type == pygame.MOUSEWHEEL:
            mouse = app.ui.mouse
            if app.map_rect.collidepoint(mouse):
                cam.zoom(1 if event.y > 0 else -1, app.map_point(mouse))
                return []
            return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button in (4, 5) and app.map_rect.collidepoint(event.pos):
            cam.zoom(1 if event.button == 4 else -1, app.map_point(event.pos))
            return []
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 2:
            app.pan_from = event.pos
            return []
        if event.type == pygame.MOUSEBUTTONUP and event.button == 2:
            app.pan_from = None
            return []
        if event.type == pygame.MOUSEMOTION and event.buttons[1] and app.pan_from is not None:
            app.ui.mouse = event.pos
            cam.pan(*event.rel)
            return []
        if event.type != pygame.KEYDOWN:
            return None
        k = event.key
        moves = {pygame.K_LEFT: (PAN_STEP_PX, 0), pygame.K_RIGHT: (-PAN_STEP_PX, 0),
                 pygame.K_UP: (0, PAN_STEP_PX), pygame.K_DOWN: (0, -PAN_STEP_PX)}
        if k in moves:
            dx, dy = moves[k]
            scale = 4 if _shift(event) else 1
            cam.pan(dx * scale, dy * scale)
            return []
        if k in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            cam.zoom(1)
            return []
        if k in (pygame.K_MINUS, pygame.K_KP_MINUS):
            cam.zoom(-1)
            return []
        if k == pygame.K_HOME:
            fig = app.selected_figure()
            if fig is not None:
                cam.center_on((fig.x + 0.5, fig.y + 0.5))
            return []
        return None


class OverlayInput:
    """Number keys 1-9 switch the overlays; 0 turns them all on or all off."""

    def handle(self, event, app):
        if event.type != pygame.KEYDOWN or _ctrl(event):
            return None
        if pygame.K_1 <= event.key <= pygame.K_9:
            name = OVERLAY_KEYS[event.key - pygame.K_1]
            app.set_overlay(name, not app.ui.overlays[name])
            return []
        if event.key == pygame.K_0:
            on = not all(app.ui.overlays.values())
            for name in OVERLAY_KEYS:
                app.set_overlay(name, on)
            return []
        return None


class CommandInput:
    """Modes and whole-turn actions by key (see docs/ui.md and the F1 list)."""

    MODE_KEYS = {pygame.K_w: "walk", pygame.K_r: "run", pygame.K_j: "jog", pygame.K_f: "withdraw",
                 pygame.K_s: "sidestep", pygame.K_c: "charge", pygame.K_a: "attack", pygame.K_m: "aim"}
    REQUEST_KEYS = {pygame.K_v: "compare", pygame.K_PERIOD: "animation", pygame.K_g: "gm", pygame.K_l: "legend"}

    def handle(self, event, app):
        if event.type != pygame.KEYDOWN:
            return None
        ui = app.ui
        k = event.key
        if _ctrl(event):
            if k == pygame.K_z:
                return [Request("redo" if _shift(event) else "undo")]
            if k == pygame.K_y:
                return [Request("redo")]
            if k == pygame.K_s:
                return [Request("save")]
            if k in (pygame.K_o, pygame.K_l):
                return [Request("load")]
            if k == pygame.K_q:
                return [Request("quit")]
            return None
        if k == pygame.K_ESCAPE:
            return [Request("cancel")]
        if k in self.REQUEST_KEYS:
            return [Request(self.REQUEST_KEYS[k])]
        if k == pygame.K_o:
            return [Request("odds-map", _shift(event))]
        if k == pygame.K_b:
            styles = app.disengage_styles()
            if not styles:
                app.toast(f"{app.battle.ruleset.name} has no disengagement; use F for a fighting withdrawal")
                return []
            if _shift(event) and ui.mode == "disengage":
                i = styles.index(ui.disengage_style) if ui.disengage_style in styles else -1
                ui.disengage_style = styles[(i + 1) % len(styles)]
            else:
                ui.mode = "auto" if ui.mode == "disengage" else "disengage"
                if ui.disengage_style not in styles:
                    ui.disengage_style = styles[0]
            return []
        if k in self.MODE_KEYS:
            mode = self.MODE_KEYS[k]
            ui.mode = "auto" if ui.mode == mode else mode
            return []
        if k == pygame.K_n:
            kinds = app.manoeuvres()
            if not kinds:
                app.toast(f"{app.battle.ruleset.name} has no grapple, trip, push or overbear")
                return []
            step = -1 if _shift(event) else 1
            i = kinds.index(ui.mode) if ui.mode in kinds else (-1 if step > 0 else len(kinds))
            i += step
            ui.mode = kinds[i] if 0 <= i < len(kinds) else "auto"
            ui.manoeuvre_target = None
            return []
        if k in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER):
            return [Request("end-turn")]
        if k == pygame.K_TAB:
            return [Request("select-next", -1 if _shift(event) else 1)]
        if k in (pygame.K_LEFTBRACKET, pygame.K_RIGHTBRACKET):
            return [Request("ruleset", -1 if k == pygame.K_LEFTBRACKET else 1)]
        fig = app.selected_figure()
        if fig is None:
            if k in (pygame.K_x, pygame.K_d, pygame.K_h, pygame.K_q, pygame.K_e, pygame.K_PAGEUP, pygame.K_PAGEDOWN):
                app.toast("select a figure first (click it, or Tab)")
                return []
            return None
        if k == pygame.K_x:
            return [SetAgainstCharge(figure=fig.id)]
        if k == pygame.K_d:
            styles = app.defence_styles()
            if not styles:
                app.toast(f"{app.battle.ruleset.name} has no defensive stances")
                return []
            if _shift(event):
                i = styles.index(ui.defend_style) if ui.defend_style in styles else -1
                ui.defend_style = styles[(i + 1) % len(styles)]
                app.toast(f"defence style: {ui.defend_style} (D to take it up)", error=False)
                return []
            if ui.defend_style not in styles:  # the first the resolver would accept now, else the first
                ui.defend_style = next((st for st in styles if app.rules.check(Defend(fig.id, style=st)) is None),
                                       styles[0])
            return [Defend(figure=fig.id, style=ui.defend_style)]
        if k == pygame.K_h:
            return [Hold(figure=fig.id)]
        if k == pygame.K_k:
            status = app.rules.status(fig.id)
            return [Escape(figure=fig.id) if "held" in status.conditions else Release(figure=fig.id)]
        if k in (pygame.K_q, pygame.K_e):
            turn = -1 if k == pygame.K_q else 1
            return [Turn(figure=fig.id, facing=FACINGS[(fig.facing + turn) % 8])]
        if k in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
            if fig.flyer == "none":
                app.toast(f"{fig.label} does not fly")
                return []
            step = 5 if k == pygame.K_PAGEUP else -5
            base = fig.altitude_ft if ui.planned_altitude is None else ui.planned_altitude
            ui.planned_altitude = max(0, base + step)
            if ui.planned_altitude == fig.altitude_ft:
                ui.planned_altitude = None
            return []
        return None


class FacingInput:
    """Right-drag from the selected figure turns it; right-drag from a square moves there facing the drag."""

    def handle(self, event, app):
        ui = app.ui
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 3 and app.map_rect.collidepoint(event.pos):
            sq = app.camera.square_at(*app.map_point(event.pos))
            ui.right_drag = (sq, event.pos) if sq is not None else None
            return []
        if event.type == pygame.MOUSEBUTTONUP and event.button == 3 and ui.right_drag is not None:
            start_sq, start_px = ui.right_drag
            ui.right_drag = None
            fig = app.selected_figure()
            dx, dy = event.pos[0] - start_px[0], event.pos[1] - start_px[1]
            if abs(dx) + abs(dy) < DRAG_THRESHOLD_PX:
                return [Request("cancel")]  # a right click cancels, as in most tactics games
            if fig is None:
                app.toast("select a figure first, then right-drag to set its facing")
                return []
            facing = bearing_octant((0, 0), (dx, dy))
            if start_sq == fig.pos:
                return [Turn(figure=fig.id, facing=FACINGS[facing])]
            intent = click_intent(ui, app.rules, fig, start_sq, app.figures_on(start_sq),
                                  lambda fid: app.rules.status(fid).able, facing)
            if not isinstance(intent.action, Move):
                return []
            return [with_path(intent.action, app.rules.preview(intent.action))]
        return None


class PointerInput:
    """Hover previews; left click selects a figure, moves to a square, or attacks / charges a foe.

    A left drag pans the map (in demonstration mode, dragging a figure places it instead).
    """

    def __init__(self):
        self.press = None       # (pixel, square, figure id under the press)
        self.dragging = False

    def handle(self, event, app):
        ui = app.ui
        if event.type == pygame.MOUSEMOTION:
            ui.mouse = event.pos
            inside = app.map_rect.collidepoint(event.pos)
            ui.hover_square = app.camera.square_at(*app.map_point(event.pos)) if inside else None
            if self.press is not None and event.buttons[0]:
                moved = abs(event.pos[0] - self.press[0][0]) + abs(event.pos[1] - self.press[0][1])
                if moved >= DRAG_THRESHOLD_PX and not (ui.gm and self.press[2]):
                    self.dragging = True
                elif moved >= DRAG_THRESHOLD_PX and ui.selected != self.press[2]:
                    app.select(self.press[2])    # a figure dragged: its path and cost are previewed
                if self.dragging:
                    app.camera.pan(*event.rel)
            return None  # others may want motion too
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if not app.map_rect.collidepoint(event.pos):
                return None
            sq = app.camera.square_at(*app.map_point(event.pos))
            fig = app.figure_at(sq) if sq is not None else None
            self.press = (event.pos, sq, fig.id if fig else None)
            self.dragging = False
            if ui.gm and fig is not None:
                ui.gm_drag = fig.id
            return []
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.press is not None:
            press, self.press = self.press, None
            was_drag, self.dragging = self.dragging, False
            if ui.gm_drag is not None:
                fid, ui.gm_drag = ui.gm_drag, None
                sq = app.camera.square_at(*app.map_point(event.pos)) if app.map_rect.collidepoint(event.pos) else None
                if sq is not None and sq != press[1]:
                    return [Request("gm-place", (fid, sq))]
                if sq is None:
                    return []
            if was_drag:
                return []
            sq = press[1]
            if sq is None:
                return []
            return self.click(sq, app)
        return None

    def click(self, sq, app):
        """Do what the tooltip said a click here would do (game.client.intent)."""
        intent = click_intent(app.ui, app.rules, app.selected_figure(), sq, app.figures_on(sq),
                              lambda fid: app.rules.status(fid).able)
        if intent.kind == "select":
            app.select(intent.figure_id)
        elif intent.kind == "mark":
            app.ui.manoeuvre_target = intent.figure_id
        elif intent.kind == "hint":
            app.toast(intent.hint)
        elif intent.kind == "act":
            app.ui.manoeuvre_target = None       # a trip or push is sent: the next click marks a foe again
            return [with_path(intent.action, app.rules.preview(intent.action))]
        return []


def default_handlers() -> list:
    return [HelpInput(), PanelInput(), CameraInput(), OverlayInput(), CommandInput(), FacingInput(), PointerInput()]
