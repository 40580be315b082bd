"""A zoom (or any view drawn whole) shows at once from the chunks there are, thumbnails standing in
for the others, and fills the missing chunks in over the next frames within the frame's budget
(ui/scene.py: Scene._fill_holes). Outside the holes still waiting, every frame shows, pixel for
pixel, the view drawn whole from nothing: after zooms, a pan right after a zoom, overlays changing
while holes are filled in and while panning."""
import pygame

from window import key, make_app, step


def _reference(app):
    """The view drawn whole by a new scene from a new map layer, every chunk built at once."""
    from game.ui.maplayer import MapLayer, tile_art_for
    from game.ui.scene import Scene
    layer, budget = app.map_layer, app.chunk_budget_s
    fresh = MapLayer(app.battle.map, tile_art_for(app.scenario))
    fresh.fonts, fresh.show_grid, fresh.show_markers = app.fonts, layer.show_grid, layer.show_markers
    app.map_layer, app.chunk_budget_s = fresh, None
    try:
        surf = pygame.Surface(app.map_rect.size)
        Scene(app.fonts).draw(surf, app)
    finally:
        app.map_layer, app.chunk_budget_s = layer, budget
    return surf


def _check(app, what) -> int:
    """Compare the frame on screen with the reference outside this frame's holes; their count."""
    shown = app.screen.subsurface(app.map_rect).copy()
    reference = _reference(app)
    holes = list(app.scene._holes)
    for hole in holes:
        shown.fill((0, 0, 0), hole)
        reference.fill((0, 0, 0), hole)
    assert pygame.image.tobytes(shown, "RGB") == pygame.image.tobytes(reference, "RGB"), what
    return len(holes)


def _frames_until_filled(app, what, most=300) -> list[int]:
    """Frames (checked one by one) until no hole is left; the holes counted at each."""
    counts = []
    for n in range(most):
        app.frame([])
        counts.append(_check(app, f"{what}, frame {n}"))
        if not counts[-1] and not app.scene._holes:
            return counts
    raise AssertionError(f"{what}: holes left after {most} frames")


def _app(cell=32):
    app = make_app("canyon.tmx", size=(1024, 700), cell=cell)    # 40 x 30 squares, drawn from its tiles
    for name in ("reach", "threat", "zones"):
        app.set_overlay(name, True)
    app.select(app.battle.current)
    app.chunk_budget_s = 0.0            # one chunk a frame at most (the first build a frame is free)
    app.frame([])
    _frames_until_filled(app, "opening")
    return app


def test_a_zoom_fills_its_holes_in_and_shows_the_view_drawn_whole_around_them():
    app = _app()
    seen = 0
    # In to 80 px squares (chunks of 4 squares: the overlays span several), out, in again.
    for keys in ([pygame.K_PLUS], [pygame.K_PLUS], [pygame.K_PLUS] * 2, [pygame.K_MINUS] * 5, [pygame.K_PLUS] * 2):
        for k in keys:
            step(app, key(k))
            seen += _check(app, f"the frame of the zoom {pygame.key.name(k)}")
        seen += sum(_frames_until_filled(app, f"after zooming {len(keys)} notches"))
    assert seen, "a zoom to a level not drawn yet left holes to fill in"


def test_a_pan_right_after_a_zoom_and_overlays_changing_while_holes_are_filled():
    app = _app()
    step(app, key(pygame.K_PLUS))
    step(app, key(pygame.K_PLUS))
    assert app.scene._holes, "a level never drawn: holes to fill in"
    step(app, key(pygame.K_RIGHT))          # panned before the holes were filled
    _check(app, "panned right after a zoom")
    step(app, key(pygame.K_DOWN, pygame.KMOD_SHIFT))
    _check(app, "panned again")
    _frames_until_filled(app, "after the pan")
    step(app, key(pygame.K_MINUS))
    app.frame([])
    app.set_overlay("zones", False)         # the overlays change while the zoom's holes are filled in
    _frames_until_filled(app, "zones switched off while filling in")
    app.set_overlay("threat", False)
    app.set_overlay("zones", True)
    _frames_until_filled(app, "threat off, zones on")


def test_overlays_changing_during_a_pan_never_leave_stale_pixels():
    app = _app(cell=40)
    app.chunk_budget_s = None               # every chunk at once: the pan keeps to the ring
    app.camera.center_on((10, 10))
    app.frame([])
    moves = [(-23, -11)] * 6 + [(17, 0)] * 6 + [(0, 19)] * 6
    for i, (dx, dy) in enumerate(moves):
        if i == 4:
            app.set_overlay("zones", False)
        if i == 9:
            app.select(next(f for f in app.battle.figures if f != app.ui.selected))
        if i == 13:
            app.set_overlay("zones", True)
        app.camera.pan(dx, dy)
        app.frame([])
        assert _check(app, f"pan {i}") == 0


def test_zooming_back_to_views_kept_before_among_many_shows_them_right(monkeypatch):
    """Views left are kept to zoom back to (a few, the oldest dropped): coming back to one, at the
    very pixel (shown as kept) or a few pixels off (panned from it), shows the view drawn whole."""
    import game.ui.scene as scene
    monkeypatch.setattr(scene, "MAX_KEPT_PIXELS", 3 * 704 * 674)     # three views of this window's map
    used = {"at the pixel": 0, "a little way off": 0}
    recall, recall_near = scene.Scene._recall_ground, scene.Scene._recall_near

    def recalled(self, *a):
        got = recall(self, *a)
        used["at the pixel"] += got
        return got

    def recalled_near(self, *a):
        got = recall_near(self, *a)
        used["a little way off"] += got
        return got
    monkeypatch.setattr(scene.Scene, "_recall_ground", recalled)
    monkeypatch.setattr(scene.Scene, "_recall_near", recalled_near)
    app = _app()
    for n, k in enumerate([pygame.K_PLUS] * 3 + [pygame.K_MINUS] * 6 + [pygame.K_PLUS] * 4):
        step(app, key(k))
        _check(app, f"zoomed {pygame.key.name(k)} to {app.camera.cell} px")
        _frames_until_filled(app, f"at {app.camera.cell} px")
        app.frame([])                       # held still: kept
        if n % 4 == 3:
            app.camera.pan(3, -2)           # a little way off: the return is not to the very pixel
            app.frame([])
            _check(app, "nudged")
            _frames_until_filled(app, "nudged")
            app.frame([])
    assert len(app.scene._views) <= 3
    assert used["at the pixel"] and used["a little way off"], used


def test_a_view_kept_with_holes_is_filled_in_with_its_own_overlays():
    """Back to a level kept with holes after the overlays changed and changed back: the holes are
    filled in with the overlays of the view (not those of the frames in between)."""
    app = _app()
    me = app.battle.figures[app.ui.selected]
    app.camera.center_on((me.x + 0.5, me.y + 0.5))      # its reach in the middle of the view
    _frames_until_filled(app, "centred")
    step(app, key(pygame.K_PLUS))
    assert app.scene._holes
    app.set_overlay("reach", False)                 # other overlays: the view drawn whole again
    app.frame([])
    _check(app, "reach off")
    step(app, key(pygame.K_MINUS))
    _check(app, "zoomed out, reach off")
    app.set_overlay("reach", True)
    app.frame([])
    step(app, key(pygame.K_PLUS))                   # the level kept with reach on, its holes not filled
    _check(app, "back to the level kept with reach on")
    _frames_until_filled(app, "filling it in")
