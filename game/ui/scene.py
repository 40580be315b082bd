"""The map view: terrain, the rules' overlays, the figures, and what is being played out.

Drawn in layers: the map chunks; the area overlays (cached chunks: reachable squares, zones,
threatened squares, a picked event's squares); charge lanes; the hovered path's line beneath
the tokens; the fallen, then the living on top; strike flashes; then the path's cost badges,
parting shots, line of sight and the numbers floating over struck figures. Everything about
the rules comes from RulesView; where a token stands while it walks comes from the Animator.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace

from ..core.values.actions import Charge, Disengage, Move
from ..core.values.geometry import distance_ft
from .objectivemarks import draw_objective_squares
from . import marks, theme
from .oddsmarks import draw_odds_marks
from .chunkbudget import FrameBudget
from .overlays import AreaLayers, Stamps, as_array
from .surfaces import copy_friendly_surface
from ..client.state import POINTER_MODES
from .tokens import NAME_PX, NAMES_FROM_CELL, Look, TokenSprites, draw_figure, token_centre


# The chunks around a still view are built (for a pan) once it has held this many frames: not
# while the wheel is zooming through levels, where they would push the levels' own out of the cache.
PREFETCH_AFTER_FRAMES = 15
MAX_KEPT_PIXELS = 24_000_000   # the views kept to zoom back to: about 96 MB (15 views at 1920x1080)


class Scene:
    def __init__(self, fonts):
        self.fonts = fonts
        self.stamps = Stamps()
        self.areas = AreaLayers(self.stamps)
        self.sprites = TokenSprites()
        self._layers_key = None
        self._layers: list = []
        self._ground = None        # the map with its area overlays, as last drawn, while nothing under it changes
        self._ground_key = None
        self._last_ground = None
        self._holes: list = []     # rects of the kept ground still waiting for their chunks
        self._views: OrderedDict = OrderedDict()   # ground key -> (picture, holes) of views left, oldest first
        self._spare_grounds: list = []
        self._held = 0             # frames the kept ground has been shown as it is
        self._prefetch_wanted = False   # the last frame asks for the chunks around the view (`prefetch`)
        self._scroll = None        # (what the ground depends on but the camera's offset, ox, oy, its picture)
        self._spare_ring = None    # the ring picture, kept to be drawn into again
        self._tokens: list = []
        self._tokens_key = None
        self._token_lists: dict = {}   # key -> that list, for the last few keys
        self._occupied_key = None
        self._occupied_set: set = set()

    # ----- the area overlays -----
    def area_layers(self, app) -> tuple:
        """(key, [(style, squares)]) for the area overlays now; the key is None while still searching."""
        ui, rules = app.ui, app.rules
        b = rules.snapshot
        fig = app.selected_figure()
        over = b.is_over
        alt = ui.planned_altitude
        odds = app.odds_map()
        key = (rules.generation, ui.selected, ui.mode, alt, tuple(sorted(ui.overlays.items())), ui.picked_event, over,
               id(odds), app.odds.measure)
        if key == self._layers_key:
            return key, self._layers
        layers = []
        if odds is not None:    # the odds map stands in for the reachable squares: it shades the same ones
            layers += [(f"odds:{band}", as_array(squares)) for band, squares in app.odds.bands(odds)]
        foes = [f for f in rules.positioning.figures if fig is None or f.side != fig.side]
        if ui.overlays["zones"]:
            squares = set()
            for f in foes:
                squares.update(rules.zone(f.id))
            layers.append(("zone", as_array(squares)))
        if ui.overlays["threat"]:
            by_side: dict = {}
            for f in foes:
                by_side.setdefault(f.side, set()).update(rules.threatened(f.id))
            for side, squares in sorted(by_side.items()):
                colour = ",".join(str(v) for v in theme.side_colour(side))
                layers.append((f"threat:{colour}", as_array(squares)))
        complete = True
        if (odds is None and ui.overlays["reach"] and fig is not None and ui.mode in POINTER_MODES and not over
                and self._may_show_reach(app, fig)):
            if ui.mode == "auto":
                walk, run = rules.reach(fig.id, "walk"), rules.reach(fig.id, "run")
                complete = walk is not None and run is not None
                walk_sq = set(walk.covered(alt)) if walk else set()
                run_sq = set(run.covered(alt)) - walk_sq if run else set()
                layers[0:0] = [("run", as_array(run_sq)), ("walk", as_array(walk_sq))]
            else:
                info = rules.reach(fig.id, ui.mode)
                complete = info is not None
                style = "run" if ui.mode in ("run", "jog") else "walk"
                layers.insert(0, (style, as_array(info.covered(alt) if info else [])))
        if ui.picked_event is not None and ui.picked_event < len(app.battle.events):
            layers.append(("highlight", as_array(app.battle.events[ui.picked_event].squares)))
        if complete:
            self._layers_key, self._layers = key, layers
        return (key if complete else None), layers

    @staticmethod
    def _may_show_reach(app, fig) -> bool:
        """The current figure's reach shows only while the resolver lets it move; others' for inspection."""
        if fig.id != app.rules.snapshot.current or not app.rules.on_field(fig.id):
            return app.rules.on_field(fig.id)
        options = app.rules.options(fig.id)
        return options is None or options["move"] is None

    # ----- drawing -----
    def _draw_ground(self, view, app) -> None:
        """The map and the area overlays. While nothing under them changed (a still camera, the
        common case): one blit of the last frame's picture, after drawing into it the chunks it
        still lacked (holes: a thumbnail standing in for a map chunk, an overlay chunk not drawn)
        as the frame's budget allows. A pan: the ring (`_scrolled`). Anything else (a zoom, other
        overlays): drawn whole from the chunks there are, holes and all, and kept to fill in."""
        cam = app.camera
        layer = app.map_layer
        layer.built_last_frame = 0
        budget = FrameBudget(app.chunk_budget_s)
        key, layers = self.area_layers(app)
        self.areas.set_layers(key if key is not None else object(), layers)    # what holes and strips are drawn with
        ground_key = None if key is None else (key, cam.cell, cam.ox, cam.oy, view.get_size(), layer.serial,
                                               layer.show_grid, layer.show_markers)
        base = None if ground_key is None else (ground_key[0], ground_key[1]) + ground_key[4:]
        # A view a few pixels off is taken up again only on a zoom: a pan goes on through the ring.
        zoomed = ground_key is not None and (self._last_ground is None or self._last_ground[1] != ground_key[1])
        if ground_key is not None and ground_key != self._ground_key and self._views and (
                self._recall_ground(ground_key) or (zoomed and self._recall_near(app, ground_key, view.get_size()))):
            budget.least = 0            # back to a view kept before (a zoom back to its level)
        if ground_key is not None and ground_key == self._ground_key:
            if self._holes:
                self._holes = self._fill_holes(self._ground, self._holes, app, budget)
            view.blit(self._ground, (0, 0))
            self._held += 1
            # While the view holds still: the chunks a pan will need, built between frames.
            self._prefetch_wanted = not self._holes and self._held >= PREFETCH_AFTER_FRAMES
            self._last_ground = ground_key
            return
        self._held = 0
        holes: list = []
        strips = self._scrolled(view, app, base, budget)
        if strips is None and self._ground_key is not None and base is not None and not self._holes and \
                (self._ground_key[0], self._ground_key[1]) + self._ground_key[4:] == base:
            # A pan from a view held still: its kept picture laid into the ring, then panned from.
            import copy
            then = copy.copy(cam)
            then.ox, then.oy = self._ground_key[2], self._ground_key[3]
            self._start_ring(self._ground, then, base)
            strips = self._scrolled(view, app, base, budget)
        if strips is not None:
            # Only the strips just drawn can lack chunks: the rest is the ring's, drawn before.
            holes = self._holes_now(app, view, strips) if strips else []
            pending = bool(holes)
        else:
            # First all of it from the chunks there are (thumbnails standing in), then the chunks
            # missing, nearest the middle first, as the budget allows: a zoom shows at once.
            _fill_beyond_map(view, cam)
            first = FrameBudget(0.0, least=0) if app.chunk_budget_s is not None else budget
            layer.draw(view, cam, first)
            self.areas.draw(view, cam, first)
            budget.least = 0            # this frame drew the whole view already: what time is left
            holes = self._fill_holes(view, self._holes_now(app, view), app, budget)
            pending = bool(holes)
            # What the next frame pans from when only the camera moves (not while chunks are still
            # to come: that frame draws the view whole again anyway).
            if base is not None and not pending:
                self._start_ring(view, cam, base)
        if self._scroll is not None and pending:
            self._scroll = None     # thumbnails on screen: the chunks drawn later must be drawn whole
        # A pan goes on: the chunks it will need next, built between frames (not after a zoom:
        # the levels the wheel passes through would push each other's chunks out of the cache).
        self._prefetch_wanted = strips is not None and not pending
        # Kept once the view has held still for a frame (while panning, a copy would be wasted), or
        # at once when it has holes and the camera did not pan (a zoom): the next frames fill them in.
        last = self._last_ground
        panned = last is not None and ground_key is not None and last[2:4] != ground_key[2:4] and \
            last[:2] + last[4:] == ground_key[:2] + ground_key[4:]
        if ground_key is not None and ((ground_key == last and not pending) or (holes and not panned)):
            if self._ground_key != ground_key:
                self._stash_ground()
            if self._ground is None or self._ground.get_size() != view.get_size():
                self._ground = self._new_ground(view.get_size())
            self._ground.blit(view, (0, 0))
            self._ground_key = ground_key
        else:
            self._stash_ground()
        self._holes = holes         # this frame's (tests look): filled in later only when kept
        self._last_ground = ground_key

    def prefetch(self, app, budget) -> int:
        """Between frames, in the time the frame left of its slot: build the chunks (the map's,
        then the overlays') the view still lacks, then, when the last frame asked for them
        (`_draw_ground`: a pan goes on, or the view has held still a while), those just around
        it that a pan will need, nearest the view's centre first, while `budget` (a FrameBudget)
        allows. A frame then finds its chunks built and only draws. Returns the chunks built."""
        built = 0
        for ring in (0, 1) if self._prefetch_wanted else (0,):
            for layer in (app.map_layer, self.areas):
                while layer.prefetch(app.camera, budget, ring):
                    built += 1
        return built

    def _stash_ground(self) -> None:
        """Put the kept picture aside for a return to its view (a zoom back to its level), the
        oldest dropped past MAX_KEPT_PIXELS in all (its surface used again for the next picture:
        a new one costs its page faults, about 1.5 ms at 1920x1080)."""
        if self._ground_key is not None and self._ground is not None:
            self._views[self._ground_key] = (self._ground, self._holes)
            while len(self._views) > 1 and sum(
                    g.get_width() * g.get_height() for g, _holes in self._views.values()) > MAX_KEPT_PIXELS:
                _key, (dropped, _holes) = self._views.popitem(last=False)
                self._spare_grounds = [dropped]
        self._ground, self._ground_key = None, None

    def _recall_ground(self, ground_key) -> bool:
        """The picture kept for `ground_key` becomes the ground again (its holes still to fill);
        False when there is none."""
        if ground_key not in self._views:
            return False
        kept = self._views.pop(ground_key)      # before the stash: it may drop the oldest
        self._stash_ground()
        self._ground, self._holes = kept
        self._ground_key = ground_key
        return True

    def _recall_near(self, app, ground_key, size) -> bool:
        """A view kept before at this zoom, with these overlays, a little way off (a zoom back to a
        level seldom lands on the very pixel it left): moved in place by the difference (one
        scroll of its pixels), the strips it uncovers drawn from the chunks there are (the missing
        ones holes to fill in), and made the ground. False when there is none."""
        import pygame
        cam = app.camera
        w, h = size
        same = ground_key[:2] + ground_key[4:]
        near = [(abs(k[2] - cam.ox) + abs(k[3] - cam.oy), k) for k in self._views
                if k[:2] + k[4:] == same and abs(k[2] - cam.ox) < w and abs(k[3] - cam.oy) < h]
        if not near:
            return False
        key = min(near)[1]
        picture, holes = self._views.pop(key)
        dx, dy = int(cam.ox - key[2]), int(cam.oy - key[3])
        picture.scroll(dx, dy)
        strips = []
        if dx:
            strips.append(pygame.Rect(0 if dx > 0 else w + dx, 0, abs(dx), h))
        if dy:
            strips.append(pygame.Rect(0, 0 if dy > 0 else h + dy, w, abs(dy)))
        first = FrameBudget(0.0, least=0)
        for strip in strips:
            picture.set_clip(strip)
            _fill_beyond_map(picture, cam)
            app.map_layer.draw(picture, cam, first)
            self.areas.draw(picture, cam, first)
        picture.set_clip(None)
        moved = {tuple(pygame.Rect(r).move(dx, dy).clip(picture.get_rect())) for r in holes}
        moved |= set(self._holes_now(app, picture, strips))
        self._stash_ground()
        self._ground, self._ground_key = picture, ground_key
        self._holes = _nearest_first(cam, [r for r in moved if r[2] > 0 and r[3] > 0])
        return True

    def _new_ground(self, size):
        spare = self._spare_grounds.pop() if self._spare_grounds else None
        return spare if spare is not None and spare.get_size() == size else copy_friendly_surface(size)

    def _holes_now(self, app, view, areas=None) -> list:
        """The rects of the view (of `areas` in it, if given) where a chunk, the map's or the
        overlays', is not drawn yet, the nearest the view's centre first."""
        cam = app.camera
        found = {tuple(r.clip(view.get_rect())) for area in (areas if areas is not None else [None])
                 for r in app.map_layer.missing(cam, area) + self.areas.missing(cam, area)}
        return _nearest_first(cam, [r for r in found if r[2] > 0 and r[3] > 0])

    def _fill_holes(self, surface, holes, app, budget) -> list:
        """Draw into `surface` (the view, or the kept ground) the holes whose chunks the budget lets
        this frame build: each drawn again whole (background, map chunk, overlay chunk), clipped
        to its rect. Returns the holes left."""
        import pygame
        cam, layer = app.camera, app.map_layer
        left = []
        clip = surface.get_clip()
        for rect in holes:
            rect = pygame.Rect(rect)
            cost = (layer.clock.estimate_s if layer.missing(cam, rect) else 0.0) + \
                (self.areas.clock.estimate_s if self.areas.missing(cam, rect) else 0.0)
            if not budget.allows(cost):
                left.append(rect)
                continue
            surface.set_clip(rect)
            surface.fill(theme.BACKGROUND)
            layer.draw(surface, cam, budget)
            self.areas.draw(surface, cam, budget)
            if layer.missing(cam, rect) or self.areas.missing(cam, rect):
                left.append(rect)
        surface.set_clip(clip)
        return left

    def _scrolled(self, view, app, base, budget):
        """Pan the last frame's ground instead of drawing it again. The ground is kept in a ring
        picture of the view's size where a world pixel always has the same place (its offset modulo
        the size): a pan draws only the strips it uncovers, into the places the strips that left
        had (clipped: chunks off them cost nothing), and the view is the ring read from its seam in
        four blits. Nothing is ever scrolled, so every frame of a pan costs about the same.
        Returns the strips drawn (view rects), or None when it cannot (anything but the camera's
        offset changed, or a jump past the view)."""
        got = self._scroll
        cam = app.camera
        if got is None or base is None or got[0] != base:
            return None
        _base, ox, oy, ring = got
        dx, dy = int(cam.ox - ox), int(cam.oy - oy)
        w, h = view.get_size()
        if abs(dx) >= w or abs(dy) >= h or ring.get_size() != (w, h):
            return None
        import pygame
        strips = []
        if dx:
            strips.append(pygame.Rect(0 if dx > 0 else w + dx, 0, abs(dx), h))
        if dy:
            strips.append(pygame.Rect(0, 0 if dy > 0 else h + dy, w, abs(dy)))
        for strip in strips:
            self._draw_into_ring(ring, strip, app, budget)
        ring.set_clip(None)
        _read_ring(ring, view, cam)
        self._scroll = (base, cam.ox, cam.oy, ring)
        return strips

    def _draw_into_ring(self, ring, strip, app, budget) -> None:
        """Draw the view's `strip` into the ring, piece by piece where it crosses the ring's seam."""
        import copy
        cam = app.camera
        for view_rect, ring_rect in _ring_pieces(ring.get_size(), cam, strip):
            shifted = copy.copy(cam)       # the camera that puts the piece's squares where the ring keeps them
            shifted.ox += ring_rect.x - view_rect.x
            shifted.oy += ring_rect.y - view_rect.y
            ring.set_clip(ring_rect)
            ring.fill(theme.BACKGROUND)
            app.map_layer.draw(ring, shifted, budget)
            self.areas.draw(ring, shifted, budget)

    def _start_ring(self, view, cam, base) -> None:
        """The view as drawn whole, laid into a ring picture for the frames that pan from it."""
        ring = self._scroll[3] if self._scroll is not None else self._spare_ring
        if ring is None or ring.get_size() != view.get_size():
            ring = copy_friendly_surface(view.get_size())
        self._spare_ring = ring
        for view_rect, ring_rect in _ring_pieces(view.get_size(), cam, view.get_rect()):
            ring.blit(view, ring_rect.topleft, view_rect)
        self._scroll = (base, cam.ox, cam.oy, ring)

    @property
    def moving(self) -> bool:
        """The view panned or zoomed this frame (its ground was not the one kept)."""
        return self._held == 0

    def draw(self, view, app) -> None:
        ui, rules, cam = app.ui, app.rules, app.camera
        anim = app.animator
        figures = app.battle.figures
        self._draw_ground(view, app)
        draw_objective_squares(view, cam, self.fonts, app.battle)
        fig = app.selected_figure()
        hover = app.hover
        over = rules.snapshot.is_over
        hovered = hover.top
        if ui.overlays["zones"]:
            import pygame
            for a, b, _d in rules.engaged_pairs():
                pygame.draw.line(view, (200, 60, 200), token_centre(cam, a)[:2], token_centre(cam, b)[:2],
                                 max(2, cam.cell // 10))
        if fig is not None and not over and rules.on_field(fig.id) and (ui.overlays["lanes"] or ui.mode == "charge"):
            marks.draw_lanes(view, cam, self.stamps, rules.lanes(fig.id), figures,
                             hovered.id if hovered else None, show_refused=ui.mode == "charge")
        preview = self._path_preview(app)
        if preview is not None:
            body = app.battle.figures.get(fig.mount, fig) if fig is not None else None    # a rider moves its mount
            marks.draw_path_line(view, cam, preview, body.footprint if body is not None else (1, 1))
        self._draw_tokens(view, app)
        marks.draw_event_marks(view, cam, marks.marked_events(app.battle.events, ui.picked_event))
        odds = app.odds_map()
        if odds is not None:
            draw_odds_marks(view, cam, self.fonts, app.odds, odds, self._occupied(app))
        for attacker, target, hit, t in anim.flashes():
            self._draw_strike(view, app, attacker, target, hit, t)
        if preview is not None:
            occupied = self._occupied(app)
            path = preview.planned.path
            away = distance_ft(app.battle.ruleset.diagonal, (path.steps[0].x, path.steps[0].y), (path.end.x, path.end.y))
            marks.draw_path_labels(view, cam, self.fonts, preview, fig, None if ui.gm else rules.limits(fig.id),
                                   occupied, ui.overlays["path"] and odds is None, away)   # step costs would hide the odds
            if ui.overlays["parting"]:
                marks.draw_parting_shots(view, cam, self.fonts, preview, figures)
        if (ui.overlays["sight"] and fig is not None and hovered is not None and hovered.id != fig.id
                and not over):
            sight = rules.sight(fig.id, hovered.id)
            if sight is not None:
                marks.draw_sight(view, cam, self.fonts, self.stamps, sight, hovered, self._occupied(app))
        if ui.gm and ui.gm_drag is not None and hover.square is not None and ui.gm_drag in figures:
            # Demonstration: the figure being dragged, where it would be put down (the path it would walk
            # there, with its cost, is the hovered move's preview drawn above).
            dragged = figures[ui.gm_drag]
            draw_figure(view, cam.centre_of(hover.square), cam.cell, self.fonts,
                        replace(dragged, x=hover.square[0], y=hover.square[1]), Look.of(rules.status(dragged.id)),
                        ghost=True)
        if fig is not None and ui.right_drag is not None and ui.right_drag[0] == fig.pos:
            facing = app.drag_facing()
            if facing is not None:
                draw_figure(view, cam.centre_of(fig.pos), cam.cell, self.fonts, replace(fig, facing=facing),
                            Look.of(rules.status(fig.id)), ghost=True)
        self._draw_floaters(view, app)

    def _occupied(self, app) -> set:
        """Squares a living figure stands on (path badges and labels keep off them), once per change."""
        key = (id(app.battle), app.rules.generation)
        if key != self._occupied_key:
            self._occupied_key = key
            self._occupied_set = {f.pos for f in app.battle.figures.values() if app.rules.status(f.id).able}
        return self._occupied_set

    def _path_preview(self, app):
        """The hovered move's preview when its path is to be drawn (the resolver accepted it)."""
        ui = app.ui
        action = app.hover.intent.action
        preview = app.hover.preview
        if preview is None or preview.refusal is not None or preview.planned is None:
            return None
        if isinstance(action, (Move, Disengage)) and ui.overlays["path"]:
            return preview
        if isinstance(action, Charge):
            return preview
        return None

    def _draw_tokens(self, view, app) -> None:
        """Every token in one fblits call; which sprite goes where is worked out again only when a
        figure, the selection, the turn, the zoom or a walk in progress changes."""
        ui, rules, cam, anim = app.ui, app.rules, app.camera, app.animator
        hovered = app.hover.top
        key = (id(app.battle), rules.generation, ui.selected, ui.picked_event, cam.cell,
               hovered.id if hovered is not None and cam.cell < NAMES_FROM_CELL else None)
        if anim.busy():
            self._tokens = self._token_sprites(app)
            self._tokens_key = None
        elif key != self._tokens_key:
            # Kept per zoom level too (a few lists): zooming back and forth finds them ready.
            known = self._token_lists.get(key)
            if known is None:
                if len(self._token_lists) > 24:
                    self._token_lists.clear()
                known = self._token_lists[key] = self._token_sprites(app)
            self._tokens, self._tokens_key = known, key
        c, ox, oy = cam.cell, cam.ox, cam.oy
        x0, y0, x1, y1 = cam.visible_squares()
        view.fblits([(sprite, (int(round(ox + wx * c)) + dx, int(round(oy + wy * c)) + dy))
                     for sprite, dx, dy, wx, wy in self._tokens if x0 - 2 <= wx <= x1 + 2 and y0 - 2 <= wy <= y1 + 2])

    def _token_sprites(self, app) -> list:
        """(sprite, dx, dy, world x, world y) for every token, the fallen first, then by row, flyers last."""
        ui, rules, cam, anim = app.ui, app.rules, app.camera, app.animator
        current = rules.snapshot.current
        picked = app.battle.events[ui.picked_event] if ui.picked_event is not None and ui.picked_event < len(
            app.battle.events) else None
        involved = {picked.actor, picked.target} if picked else set()
        hovered = app.hover.top
        emphasised = {ui.selected, current, hovered.id if hovered else None}
        show_names = cam.cell >= NAMES_FROM_CELL
        drawn = []
        for f in app.battle.figures.values():
            pose = anim.pose(f.id)
            if pose is None and f.mount:      # a rider rides along while its mount walks
                pose = anim.pose(f.mount)
            look = Look.of(rules.status(f.id))
            if anim.still_standing(f.id):
                look = replace(look, able=True, conditions=())
            if look.fled:
                continue
            x, y = (f.x, f.y) if pose is None else (pose[0], pose[1])
            shown = f if pose is None else replace(f, facing=pose[2], altitude_ft=pose[3])
            drawn.append((look.able, shown.altitude_ft > 0, y, f.id, x, shown, look))
        # Riders after every mount, so each is drawn over its mount's front square.
        drawn.sort(key=lambda d: (d[0], d[1], bool(d[5].mount), d[2], d[3]))
        # Figures sharing a square (a holder in its held figure's square) are drawn side by side; a rider
        # sits on its mount instead, smaller.
        sharing: dict = {}
        for able, _air, y, fid, x, shown, _look in drawn:
            if able and not shown.mount:
                sharing.setdefault((x, y), []).append(fid)
        named = self._names_that_fit(drawn, cam.cell, emphasised) if show_names else emphasised
        out = []
        for able, _air, y, fid, x, shown, look in drawn:
            sprite, dx, dy = self.sprites.sprite(cam.cell, self.fonts, shown, look,
                                                 selected=fid == ui.selected and able, current=fid == current and able,
                                                 highlighted=fid in involved, named=fid in named,
                                                 riding=bool(shown.mount) and able,
                                                 ridden=fid in app.battle.state.riders and able)
            group = sharing.get((x, y), []) if able and not shown.mount else []
            shift = (group.index(fid) - (len(group) - 1) / 2) * 0.45 if len(group) > 1 else 0.0
            out.append((sprite, dx, dy, x + 0.5 + shift, y + 0.5))
        # The emphasised last, so their name tags are not hidden under the next row's tokens.
        order = sorted(range(len(out)), key=lambda i: drawn[i][0] and drawn[i][3] in emphasised)
        return [out[i] for i in order]

    def _names_that_fit(self, drawn, cell: int, emphasised: set) -> set:
        """Which tokens show their name tag: every one whose tag overlaps no tag already placed
        on its row and no token in the row below, the emphasised (selected, current, hovered) placed
        first and kept over other tags. A name left out is on the hover card and in the panel."""
        size = max(11, min(14, cell // 3))      # the tag's font size (tokens.draw_figure)
        placed: dict = {}                       # row -> [(left, right)] in pixels from the map's origin
        below = {}                              # a tag hangs into the row below: the tokens there
        for able, _air, y, fid, x, _fig, _look in drawn:
            if able:
                below.setdefault(y - 1, []).append(((x + 0.1) * cell, (x + 0.9) * cell))
        shown = set()
        for _able, _air, y, fid, x, fig, _look in sorted(drawn, key=lambda d: d[3] not in emphasised):
            half = (min(self.fonts.size(fig.label, size, True)[0], NAME_PX) + 8) / 2
            centre = (x + 0.5) * cell
            spans = placed.setdefault(y, [])
            clear = all(centre + half <= a or centre - half >= b for a, b in spans + below.get(y, []))
            off_tokens = all(centre + half <= a or centre - half >= b for a, b in below.get(y, []))
            if clear or (fid in emphasised and off_tokens):     # never over a token: the card names it
                spans.append((centre - half, centre + half))
                shown.add(fid)
        return shown

    def _screen_centre(self, app, figure_id):
        fig = app.battle.figures[figure_id]
        pose = app.animator.pose(figure_id)
        return token_centre(app.camera, fig, pose)[:2]

    def _draw_strike(self, view, app, attacker, target, hit, t) -> None:
        import pygame
        if target not in app.battle.figures:
            return
        c = app.camera.cell
        tx, ty = self._screen_centre(app, target)
        if attacker in app.battle.figures and t < 0.6:
            ax, ay = self._screen_centre(app, attacker)
            marks.draw_arrow(view, (255, 240, 200), (ax, ay), (ax + (tx - ax) * 0.8, ay + (ty - ay) * 0.8),
                             max(2, c // 12), max(6, c // 5))
        colour = (235, 40, 30) if hit else (245, 245, 245)
        pygame.draw.circle(view, colour, (tx, ty), int(c * (0.45 + 0.25 * t)), max(2, c // 10))

    def _draw_floaters(self, view, app) -> None:
        c = app.camera.cell
        for text, figure_id, good, age in app.animator.floating():
            if figure_id not in app.battle.figures:
                continue
            x, y = self._screen_centre(app, figure_id)
            rise = int(age * c * 0.9)
            back = (40, 40, 48) if good else (150, 20, 20)
            marks.label(view, self.fonts, text, (x, y - int(c * 0.5) - rise), (255, 255, 255), back,
                        max(13, min(20, c // 2)), anchor="above")


def _fill_beyond_map(view, cam) -> None:
    """The background where the map does not reach (a map smaller than the view): the bands
    around it only, not the whole view (SDL fills large areas with stores that bypass the cache,
    slow on the machines measured)."""
    import pygame
    c = cam.cell
    w, h = view.get_size()
    left, top = max(0, int(cam.ox)), max(0, int(cam.oy))
    right, bottom = min(w, int(cam.ox + cam.map_w * c)), min(h, int(cam.oy + cam.map_h * c))
    if right <= left or bottom <= top:
        view.fill(theme.BACKGROUND)
        return
    for band in ((0, 0, w, top), (0, bottom, w, h - bottom), (0, top, left, bottom - top),
                 (right, top, w - right, bottom - top)):
        if band[2] > 0 and band[3] > 0:
            view.fill(theme.BACKGROUND, pygame.Rect(band))


def _nearest_first(cam, rects) -> list:
    mid = (cam.view_w / 2, cam.view_h / 2)
    return sorted(rects, key=lambda r: (r[0] + r[2] / 2 - mid[0]) ** 2 + (r[1] + r[3] / 2 - mid[1]) ** 2)


def _ring_pieces(size, cam, rect):
    """(view rect, ring rect) pairs covering the view's `rect`: in the ring a view pixel X lies at
    (X - camera offset) modulo the view's size, so a rect splits where that wraps."""
    import pygame
    w, h = size
    a, b = int(-cam.ox) % w, int(-cam.oy) % h     # the ring's place of the view's top left pixel
    xs = _split(rect.x, rect.right, w - a)
    ys = _split(rect.y, rect.bottom, h - b)
    for x0, x1 in xs:
        for y0, y1 in ys:
            view_rect = pygame.Rect(x0, y0, x1 - x0, y1 - y0)
            ring_rect = pygame.Rect((x0 + a) % w, (y0 + b) % h, x1 - x0, y1 - y0)
            yield view_rect, ring_rect


def _split(lo: int, hi: int, seam: int) -> list[tuple[int, int]]:
    """[lo, hi) cut at `seam` when it falls inside."""
    return [(lo, seam), (seam, hi)] if lo < seam < hi else [(lo, hi)]


def _read_ring(ring, view, cam) -> None:
    """The view from the ring: its four pieces, each blitted to its place."""
    for view_rect, ring_rect in _ring_pieces(view.get_size(), cam, view.get_rect()):
        view.blit(ring, view_rect.topleft, ring_rect)
