"""Panning keeps the ground in a ring picture and draws only the strips it uncovers (ui/scene.py:
Scene._scrolled): what it shows is, pixel for pixel, what drawing the whole view again shows, for
arrow keys, a middle-button drag and a jump, with the reach, threat and zone overlays on."""
import pygame

from window import key, make_app, motion, press, release, step


def _whole_view(app):
    """The view drawn again from nothing (no scrolled picture, no still frame, no view kept)."""
    app.scene._scroll = None
    app.scene._ground_key = None
    app.scene._views.clear()
    app.frame([])
    return pygame.image.tobytes(app.screen.subsurface(app.map_rect), "RGB")


def _shown(app):
    return pygame.image.tobytes(app.screen.subsurface(app.map_rect), "RGB")


def test_a_panned_view_is_the_view_drawn_whole(monkeypatch):
    from game.ui.scene import Scene
    scrolled = []
    real = Scene._scrolled
    monkeypatch.setattr(Scene, "_scrolled", lambda self, *a: scrolled.append(real(self, *a)) or scrolled[-1])
    app = make_app("horse_field.toml", size=(1024, 700), cell=80)
    app.chunk_budget_s = None      # every chunk drawn at once: no thumbnails standing in
    for name in ("reach", "threat", "zones"):
        app.set_overlay(name, True)
    app.select(app.battle.current)
    app.frame([])
    app.frame([])
    for event in [key(pygame.K_RIGHT), key(pygame.K_DOWN), key(pygame.K_LEFT, pygame.KMOD_SHIFT), key(pygame.K_UP)]:
        step(app, event)
        assert _shown(app) == _whole_view(app)
    centre = app.map_rect.center
    step(app, press(centre, button=2))
    for rel in ((-13, 0), (0, -7), (9, 11), (-400, 5)):
        step(app, motion((centre[0] + rel[0], centre[1] + rel[1]), buttons=(0, 1, 0), rel=rel))
        shown = _shown(app)
        assert shown == _whole_view(app), rel
    step(app, release(centre, button=2))
    assert sum(s is not None for s in scrolled) >= 6     # the panned frames were scrolled, not drawn whole
    assert app.camera.ox != 0 or app.camera.oy != 0


def test_a_long_pan_across_the_rings_seam_is_the_view_drawn_whole():
    """Many pans in a row, more than a view's width and height in all, without a whole redraw
    between them: the ring's seam passes every place of the view and is never seen."""
    app = make_app("canyon.tmx", size=(1024, 700), cell=80)     # 40 x 30 squares, drawn from its tiles
    app.chunk_budget_s = None
    for name in ("reach", "threat", "zones"):
        app.set_overlay(name, True)
    app.select(app.battle.current)
    app.frame([])
    app.frame([])
    app.camera.center_on((4, 4))
    app.frame([])
    app.frame([])
    travelled = [0, 0]
    moves = [(-37, -23)] * 30 + [(41, 0)] * 20 + [(0, 29)] * 20 + [(-17, 13)] * 10
    for i, (dx, dy) in enumerate(moves):
        before = (app.camera.ox, app.camera.oy)
        app.camera.pan(dx, dy)
        travelled[0] += abs(app.camera.ox - before[0])
        travelled[1] += abs(app.camera.oy - before[1])
        app.frame([])
        if i % 3 == 2:
            ring = app.scene._scroll
            assert _shown(app) == _whole_view(app), (i, dx, dy)
            app.scene._scroll = ring        # go on panning from the ring, not from the whole view
    w, h = app.map_rect.size
    assert travelled[0] > 2 * w and travelled[1] > 2 * h
